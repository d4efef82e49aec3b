// src/backends/sim/sim_backend.hpp: the CPU simulator backend.
#pragma once

#include <memory>

#include "backends/backend.hpp"

namespace gpukit::detail {
// The backend's registration (sim_descriptor.cpp).
const BackendDescriptor& sim_backend_descriptor();
}  // namespace gpukit::detail

namespace gpukit::detail::sim {

// The simulated devices (GPUKIT_SIM_DEVICES, default one), with a real GPU's launch limits. Needs a host C++ compiler
// only when kernels are compiled.
std::unique_ptr<Backend> make_sim_backend();

}  // namespace gpukit::detail::sim
