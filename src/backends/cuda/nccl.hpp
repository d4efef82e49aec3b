// src/backends/cuda/nccl.hpp: NCCL, loaded at run time, as the CUDA backend's collectives
// (backends/collective_library.hpp).
#pragma once

#include <functional>
#include <memory>

#include "backends/collective_library.hpp"

namespace gpukit::detail::cuda {

// `activate(ordinal)` makes that device's context current on the calling thread.
std::unique_ptr<CollectiveLibrary> make_nccl_collectives(std::function<void(int)> activate);

}  // namespace gpukit::detail::cuda
