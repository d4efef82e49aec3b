// src/backends/sim/sim_descriptor.cpp: how the simulator registers itself: its name and
// capabilities, how it is made, and the host C++ compiler it found on this machine.
#include <exception>

#include "backends/backend.hpp"
#include "backends/sim/host_compiler.hpp"
#include "backends/sim/sim_backend.hpp"
#include "util/process.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

namespace {

std::vector<ToolchainPart> toolchain() {
    ToolchainPart part;
    part.role = "host compiler";
    part.path = sim::host_compiler_path();
    if (part.path.empty()) {
        part.problem = "no host C++ compiler found: set GPUKIT_SIM_CXX or CXX, or install g++";
        return {part};
    }
    try {
        const auto result = run_process({part.path, "--version"});
        const std::string first_line = result.output.substr(0, result.output.find('\n'));
        if (result.exit_code == 0)
            part.version = first_line;
        else
            part.problem = concat(part.path, " --version failed (exit ", result.exit_code, "): ", first_line);
    } catch (const std::exception& e) {
        part.problem = e.what();
    }
    return {part};
}

const Compiler& compiler() { return sim::host_compiler(); }

}  // namespace

const BackendDescriptor& sim_backend_descriptor() {
    static const BackendDescriptor descriptor{
        .info = {.name = "sim",
                 .description = "gpukit's CPU simulator: kernels compiled by the host C++ compiler, blocks run on "
                                "worker threads, with check mode",
                 .device_label = "SIM",
                 .built = true,
                 .capabilities = {.simulated = true,
                                  .check_mode = true,
                                  .loads_binary_images = false,
                                  .tensor_cores = false,
                                  .dlpack_device_type = 1 /* kDLCPU: device memory is host memory */,
                                  .sandbox = true}},
        .create = sim::make_sim_backend,
        .compiler = compiler,
        .toolchain = toolchain,
    };
    return descriptor;
}

}  // namespace gpukit::detail
