// src/core/toolchain.cpp: the libraries and compilers the backends use, for `gpukit info`.
#include "gpukit/toolchain.hpp"

#include <exception>

#include "backends/sim/host_compiler.hpp"
#include "util/process.hpp"
#include "util/text.hpp"

#if GPUKIT_WITH_CUDA
#include <cuda.h>

#include "backends/cuda/driver.hpp"
#include "backends/cuda/nvrtc.hpp"
#endif

namespace gpukit {

namespace {

#if GPUKIT_WITH_CUDA
// 13000 -> "13.0", CUDA's encoding of versions.
std::string cuda_version_text(int encoded) { return detail::concat(encoded / 1000, ".", encoded % 1000 / 10); }

ToolchainPart cuda_driver_part() {
    ToolchainPart part;
    try {
        const auto& api = detail::cuda::driver();
        part.path = api.library_path;
        part.version = cuda_version_text(api.driver_version);
    } catch (const std::exception& e) {
        part.path = detail::cuda::driver_library_file();
        part.problem = e.what();
    }
    return part;
}

ToolchainPart nvrtc_part() {
    ToolchainPart part;
    try {
        const auto library = detail::cuda::nvrtc_library();
        part.path = library.path;
        part.version = detail::concat(library.major, ".", library.minor);
    } catch (const std::exception& e) {
        part.path = detail::cuda::nvrtc_library_file();
        part.problem = e.what();
    }
    return part;
}
#endif

}  // namespace

CudaToolchain cuda_toolchain() {
    CudaToolchain toolchain;
#if GPUKIT_WITH_CUDA
    toolchain.built_in = true;
    toolchain.headers_version = cuda_version_text(CUDA_VERSION);
    toolchain.driver = cuda_driver_part();
    toolchain.nvrtc = nvrtc_part();
#else
    const char* why = "this gpukit was built without the CUDA backend (no CUDA headers at build time)";
    toolchain.driver.problem = why;
    toolchain.nvrtc.problem = why;
#endif
    return toolchain;
}

ToolchainPart simulator_compiler() {
    ToolchainPart part;
    part.path = detail::sim::host_compiler_path();
    if (part.path.empty()) {
        part.problem = "no host C++ compiler found: set GPUKIT_SIM_CXX or CXX, or install g++";
        return part;
    }
    try {
        const auto result = detail::run_process({part.path, "--version"});
        const std::string first_line = result.output.substr(0, result.output.find('\n'));
        if (result.exit_code == 0) {
            part.version = first_line;
        } else {
            part.problem = detail::concat(part.path, " --version failed (exit ", result.exit_code, "): ", first_line);
        }
    } catch (const std::exception& e) {
        part.problem = e.what();
    }
    return part;
}

}  // namespace gpukit
