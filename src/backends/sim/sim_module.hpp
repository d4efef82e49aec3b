// src/backends/sim/sim_module.hpp: a compiled kernel module loaded into the process.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/sim/prelude/gpukit_sim_abi.h"

namespace gpukit::detail::sim {

class SimModule;

struct SimKernel {
    const SimModule* module = nullptr;
    std::string name;
    const gpukit_sim::KernelRecord* record = nullptr;
    std::size_t static_shared_bytes = 0;  // its __shared__ variables (and those of helpers it may call)
};

struct SimGlobal {
    void* address = nullptr;
    std::size_t size = 0;
};

class SimModule {
public:
    // Loads a shared object produced by HostCompiler. Throws InvalidArgumentError for an image
    // that is not one, BackendUnavailableError when the dynamic linker refuses it.
    SimModule(std::string_view image, const gpukit_sim::RuntimeHooks& hooks);
    ~SimModule();
    SimModule(const SimModule&) = delete;
    SimModule& operator=(const SimModule&) = delete;

    const gpukit_sim::ModuleRecord& record() const noexcept { return *record_; }
    const SimKernel* kernel(std::string_view name) const;
    std::vector<std::string> kernel_names() const;
    std::optional<SimGlobal> global(std::string_view name) const;

private:
    void* handle_ = nullptr;
    const gpukit_sim::ModuleRecord* record_ = nullptr;
    std::vector<SimKernel> kernels_;
    std::map<std::string, SimGlobal, std::less<>> globals_;
};

}  // namespace gpukit::detail::sim
