// src/backends/cuda/cusolver.hpp: the CUDA backend's dense solvers (solver_library.hpp): cuSOLVER's
// dense API, loaded at run time like the driver.
#pragma once

#include <functional>
#include <memory>

#include "backends/solver_library.hpp"

namespace gpukit::detail::cuda {

// cuSOLVER for one device. `activate` makes the device's context current on the calling thread
// (cuSOLVER works in the current context). Throws BackendUnavailableError naming libcusolver and
// how to install it when it does not load (GPUKIT_CUSOLVER names its file).
std::unique_ptr<SolverLibrary> make_cusolver_library(std::function<void()> activate);

}  // namespace gpukit::detail::cuda
