// src/backends/cuda/cuda_descriptor.cpp: how the CUDA backend registers itself: its name and
// capabilities, how it is made, and what it found on this machine (the driver, NVRTC).
#include <cuda.h>

#include <exception>

#include "backends/backend.hpp"
#include "backends/cuda/cuda_backend.hpp"
#include "backends/cuda/driver.hpp"
#include "backends/cuda/nvrtc.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

namespace {

// 13000 -> "13.0", CUDA's encoding of versions.
std::string cuda_version_text(int encoded) { return concat(encoded / 1000, ".", encoded % 1000 / 10); }

ToolchainPart driver_part() {
    ToolchainPart part;
    part.role = "driver";
    try {
        const auto& api = cuda::driver();
        part.path = api.library_path;
        part.version = cuda_version_text(api.driver_version);
    } catch (const std::exception& e) {
        part.path = cuda::driver_library_file();
        part.problem = e.what();
    }
    return part;
}

ToolchainPart nvrtc_part() {
    ToolchainPart part;
    part.role = "NVRTC";
    try {
        const auto library = cuda::nvrtc_library();
        part.path = library.path;
        part.version = concat(library.major, ".", library.minor);
    } catch (const std::exception& e) {
        part.path = cuda::nvrtc_library_file();
        part.problem = e.what();
    }
    return part;
}

std::vector<ToolchainPart> toolchain() {
    ToolchainPart headers;
    headers.role = "headers";  // what the backend was built against
    headers.version = cuda_version_text(CUDA_VERSION);
    return {headers, driver_part(), nvrtc_part()};
}

const Compiler& compiler() { return cuda::nvrtc_compiler(); }

}  // namespace

const BackendDescriptor& cuda_backend_descriptor() {
    static const BackendDescriptor descriptor{
        .info = {.name = "cuda",
                 .description = "NVIDIA GPUs, through the CUDA driver; kernels compiled by NVRTC",
                 .device_label = "GPU",
                 .built = true,
                 .capabilities = {.simulated = false,
                                  .check_mode = false,
                                  .loads_binary_images = true,
                                  .tensor_cores = true,
                                  .dlpack_device_type = 2 /* kDLCUDA */,
                                  .sandbox = false /* kernels are the GPU's, not native code of the user */}},
        .create = cuda::make_cuda_backend,
        .compiler = compiler,
        .toolchain = toolchain,
    };
    return descriptor;
}

}  // namespace gpukit::detail
