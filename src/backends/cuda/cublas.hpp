// src/backends/cuda/cublas.hpp: cuBLAS, loaded at run time, as one device's BlasLibrary.
#pragma once

#include <memory>

#include "backends/blas_library.hpp"
#include "backends/cuda/driver.hpp"

namespace gpukit::detail::cuda {

// cuBLAS for the device whose context is current on this thread: loads libcublas (once per
// process; BackendUnavailableError naming it and how to install it where it is missing), then
// creates a handle and a 32 MiB workspace in that context.
std::unique_ptr<BlasLibrary> make_cublas(const DriverApi& driver, std::string device_description);

}  // namespace gpukit::detail::cuda
