// src/backends/sim/host_collectives.cpp: the simulator's collectives (host_collectives.hpp).
#include "backends/sim/host_collectives.hpp"

namespace gpukit::detail::sim {

std::unique_ptr<CollectiveLibrary> make_host_collectives(HostQueue queue) {
    static_cast<void>(queue);
    return std::make_unique<CollectiveLibrary>();
}

}  // namespace gpukit::detail::sim
