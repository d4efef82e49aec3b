// src/backends/cuda/cuda_backend.hpp: the CUDA backend (driver API + NVRTC).
#pragma once

#include <memory>

#include "backends/backend.hpp"

namespace gpukit::detail {
// The backend's registration (cuda_descriptor.cpp).
const BackendDescriptor& cuda_backend_descriptor();
}  // namespace gpukit::detail

namespace gpukit::detail::cuda {

// Loads the driver and enumerates the devices. Throws BackendUnavailableError when there is no
// driver or no device.
std::unique_ptr<Backend> make_cuda_backend();

}  // namespace gpukit::detail::cuda
