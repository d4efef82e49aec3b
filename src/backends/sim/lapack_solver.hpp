// src/backends/sim/lapack_solver.hpp: the simulator's dense solvers (solver_library.hpp): the host's
// LAPACK, loaded at run time, run as host work in stream order on the simulator's device memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "backends/solver_library.hpp"

namespace gpukit::detail::sim {

// How the simulator runs host work in a stream's order, and tells check mode (initcheck) which
// device bytes host work wrote.
struct HostQueue {
    std::function<void(NativeStream, std::function<void()>)> submit;
    std::function<void(std::uint64_t address, std::size_t bytes)> wrote;
};

// LAPACK's solvers on `queue`. Throws BackendUnavailableError naming the library and how to
// install it when no LAPACK loads (GPUKIT_LAPACK names its file).
std::unique_ptr<SolverLibrary> make_lapack_solver(HostQueue queue);

}  // namespace gpukit::detail::sim
