// src/backends/sim/host_collectives.hpp: the simulator's collectives, run by the host in its
// streams' order (backends/collective_library.hpp).
#pragma once

#include <memory>

#include "backends/collective_library.hpp"
#include "backends/sim/lapack_solver.hpp"

namespace gpukit::detail::sim {

std::unique_ptr<CollectiveLibrary> make_host_collectives(HostQueue queue);

}  // namespace gpukit::detail::sim
