// src/ops/indexing/kernels.hpp: the indexing kernels (kernels/gpukit_gather.cu and
// kernels/gpukit_select.cu), compiled once per device and index width, and how they are launched.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "gpukit/device.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/module.hpp"
#include "ops/elementwise/launch.hpp"

namespace gpukit::detail {

enum class IndexingKernel : std::uint8_t {
    gather,  // gpukit_gather.cu
    scatter,
    select_count,  // gpukit_select.cu
    select_scan,
    select_write,
    select_fill,
};

// The text of the kernel sources and of the header they share, embedded at build time
// (src/ops/indexing/embed_kernel.cmake).
std::string_view gather_kernels_source();
std::string_view select_kernels_source();
std::string_view indexing_header();

enum class IndexingFamily : std::uint8_t { gather, select };

// The source of a family's module and the options it compiles with, for a backend that runs
// kernels on the CPU (`simulated`: contiguous chunks per thread) or not.
std::string indexing_source(IndexingFamily family, bool index32, bool simulated);
CompileOptions indexing_compile_options(IndexingFamily family);

// The kernel, from its module for `device` compiled with 32-bit (`index32`) or 64-bit indices:
// compiled on first use (through the compile cache), then kept for the life of the process.
Kernel indexing_kernel(IndexingKernel kernel, const Device& device, bool index32);

}  // namespace gpukit::detail
