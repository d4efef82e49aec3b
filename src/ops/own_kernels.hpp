// src/ops/own_kernels.hpp: the modules of gpukit's own kernel headers (histograms, convolutions,
// matrix products, random numbers), each compiled once per backend, device and specialisation and
// kept for the life of the process, and the kernel shapes a device runs.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "gpukit/device.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/module.hpp"

namespace gpukit::detail {

// What one own-kernel module is made of: its header (kernels/<header_name>, embedded), the
// #defines that specialise it, and compiler options beyond the defaults.
struct OwnKernelSource {
    std::string_view program_name;  // "gpukit_histogram.cu": names the module in diagnostics
    std::string_view header_name;   // "gpukit_histogram.cuh"
    std::string_view header_text;
    std::string defines;
    std::vector<std::string> options;
};

// The module, compiled on first use (through the compile cache) with the elementwise header and
// the dtype numbers (GK_DTYPE_*) defined before it.
Module own_kernel_module(const Device& device, const OwnKernelSource& source);
// Its kernel `name`, looked up once.
Kernel own_kernel(const Device& device, const OwnKernelSource& source, std::string_view name);

// A kernel and the module it is in, as one caller makes them.
struct OwnKernelRecipe {
    OwnKernelSource source;
    std::string name;
};
// The same, looked up by a small number instead of the module's text, for calls whose whole host
// time is a few microseconds (composing specialising #defines per call was a tenth of a 64x64
// matmul's): `key` tells apart every recipe a caller's `family` (a string literal) makes;
// `make()` runs once per key and device.
Kernel own_kernel(const Device& device, std::string_view family, std::uint64_t key,
                  const std::function<OwnKernelRecipe()>& make);

// Whether `device` runs the simulator's chunked shapes (each simulated thread a contiguous run of
// the work) rather than the GPU's (which tests may ask for on the simulator too).
bool runs_chunked_shapes(const Device& device);

}  // namespace gpukit::detail
