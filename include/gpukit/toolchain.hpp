// gpukit/toolchain.hpp: what each backend found on this machine to compile and run kernels with.
//
// For `gpukit info` and bug reports: where the CUDA driver and NVRTC were found (or why they
// were not) and their versions, and the host compiler the simulator compiles kernels with. These
// queries describe what is missing instead of throwing.
#pragma once

#include <string>

namespace gpukit {

// A library or program a backend needs.
struct ToolchainPart {
    std::string path;     // the file in use, or found on disk; empty when none was found
    std::string version;  // "13.0" (a library), the first line of `--version` (a compiler); empty when unknown
    std::string problem;  // why it cannot be used; empty when it can
};

struct CudaToolchain {
    bool built_in = false;        // this gpukit was built with the CUDA backend (CUDA headers present)
    std::string headers_version;  // the CUDA headers it was built against, "13.0"; empty without them
    ToolchainPart driver;         // libcuda, from the NVIDIA driver: needed to run kernels
    ToolchainPart nvrtc;          // libnvrtc, from the CUDA toolkit: needed to compile them
};

// Loads the driver and NVRTC where they are not loaded yet (as the CUDA backend would).
CudaToolchain cuda_toolchain();

// The host C++ compiler the simulator compiles kernels with (GPUKIT_SIM_CXX, CXX, then c++, g++,
// clang++ on PATH), and its version. Runs it once to ask.
ToolchainPart simulator_compiler();

}  // namespace gpukit
