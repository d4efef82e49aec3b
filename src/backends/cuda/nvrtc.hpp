// src/backends/cuda/nvrtc.hpp: the NVRTC compiler, loaded at run time.
//
// Compiling needs no GPU and no driver: only libnvrtc. That is what lets compile errors, name
// expressions and the compile cache be tested on a machine without a GPU.
#pragma once

#include "backends/backend.hpp"

namespace gpukit::detail::cuda {

class NvrtcCompiler final : public Compiler {
public:
    // "NVRTC 13.0 (<resolved library path>)". Throws BackendUnavailableError without libnvrtc.
    std::string identity() const override;
    // Compiles for input.target: "sm_NN" gives a cubin, "compute_NN" PTX. A target newer than
    // this NVRTC knows is compiled to PTX for the newest architecture it does know.
    CompiledImage compile(const CompileInput& input) const override;
};

// The process's NVRTC compiler.
const NvrtcCompiler& nvrtc_compiler();

// The NVRTC library in use: loads it on first call. Throws BackendUnavailableError without it.
struct NvrtcLibrary {
    std::string path;
    int major = 0;
    int minor = 0;
};
NvrtcLibrary nvrtc_library();

// The file NVRTC would be loaded from, found without loading it; empty when none is on disk.
std::string nvrtc_library_file();

}  // namespace gpukit::detail::cuda
