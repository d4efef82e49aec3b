// src/collectives/collective_library_of.hpp: the collectives of a device's backend.
#pragma once

#include "backends/collective_library.hpp"
#include "gpukit/device.hpp"

namespace gpukit::detail {

// NCCL on a GPU, the host implementation on the simulator. Throws BackendUnavailableError where
// the backend has none, or its library is missing (naming how to install it).
CollectiveLibrary& collective_library_of(const Device& device);

}  // namespace gpukit::detail
