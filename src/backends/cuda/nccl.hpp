// src/backends/cuda/nccl.hpp: NCCL, loaded at run time, as the CUDA backend's collectives
// (backends/collective_library.hpp).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends/collective_library.hpp"

namespace gpukit::detail::cuda {

// Where NCCL is looked for: GPUKIT_NCCL alone when set (a library path, only ever given to dlopen);
// else libnccl.so.2 as the dynamic linker finds it, in CUDA_HOME, CUDA_PATH and /usr/local/cuda
// (toolkit_library.hpp), then the nvidia-nccl-cu13 wheel's beside this gpukit.
std::vector<std::string> nccl_candidates();

// Loads NCCL (each call anew; the backend keeps one) and says what it is:
// "NCCL 2.28.3 (/path/libnccl.so.2)". Throws BackendUnavailableError naming libnccl, every
// candidate tried and how to install it, or saying that it is older than 2.10.
std::string probe_nccl();

// The collectives of the backend's devices. `activate(ordinal)` makes that device's context
// current on the calling thread (NCCL works in the current context). Loads NCCL: throws as probe_nccl.
std::unique_ptr<CollectiveLibrary> make_nccl_collectives(std::function<void(int)> activate);

}  // namespace gpukit::detail::cuda
