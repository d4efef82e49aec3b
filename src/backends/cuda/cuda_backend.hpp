// src/backends/cuda/cuda_backend.hpp: the CUDA backend (driver API + NVRTC).
#pragma once

#include <memory>

#include "backend.hpp"

namespace gpukit::detail::cuda {

// Loads the driver and enumerates the devices. Throws BackendUnavailableError when there is no
// driver or no device.
std::unique_ptr<Backend> make_cuda_backend();

}  // namespace gpukit::detail::cuda
