// python/src/dlpack.hpp: the DLPack side of gpukit.ndarray (export) and what the package imports.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <utility>

#include "gpukit/array.hpp"

namespace gpukit::python {

// (DLPack device type, device id) of a device's memory: (kDLCUDA, ordinal) on a GPU, (kDLCPU, 0)
// where device memory is host memory (the simulator).
std::pair<int, int> dlpack_device(const Device& device);
// A DLPack capsule over the array's memory, holding the array; versioned ("dltensor_versioned",
// DLPack 1.x) or legacy ("dltensor"). BufferError for strides that are not whole elements.
nanobind::object dlpack_capsule(const Array& array, bool versioned);
// The current stream of `device` as consumers and producers exchange it: 1 for CUDA's legacy
// default stream, else the native handle.
std::uintptr_t exchange_stream(const Device& device);

}  // namespace gpukit::python
