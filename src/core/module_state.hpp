// src/core/module_state.hpp: a loaded module and the kernels looked up in it.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "backends/backend.hpp"

namespace gpukit::detail {

struct KernelState {
    std::string name;    // as the user asked for it
    std::string symbol;  // the symbol in the module
    std::string device_description;
    NativeFunction function = nullptr;
    std::vector<KernelParam> params;
    bool params_known = false;  // false where the driver cannot report parameters
    // Per parameter, the dtypes of the arrays it takes (bit i: DType i; KernelParam::takes_array_of),
    // worked out once from the declarations so a launch checks its array arguments in a few
    // instructions.
    std::vector<std::uint32_t> array_dtypes;
    std::vector<ParamKind> param_kinds;  // KernelParam::kind() of each, for the same reason
    KernelAttributes attributes;
    std::atomic<std::size_t> max_dynamic_shared_bytes{0};
    const LaunchLimits* limits = nullptr;  // the device's, alive as long as the backend
    // max_active_blocks_per_multiprocessor's answers by (threads, dynamic shared bytes): they never
    // change for a kernel, and grid-stride launches ask them on every call.
    mutable std::mutex occupancy_mutex;
    mutable std::map<std::pair<std::uint32_t, std::size_t>, int> occupancy;
};

struct ModuleState {
    ModuleState(Backend& backend_, int device_, NativeModule handle_)
        : backend(&backend_), device(device_), handle(handle_) {}
    // A launch still queued or running executes the module's code: after one, unloading waits for
    // the device (the compile cache evicts modules whenever its bound is reached, so the last
    // reference may well go while a launch runs).
    ~ModuleState();
    ModuleState(const ModuleState&) = delete;
    ModuleState& operator=(const ModuleState&) = delete;

    Backend* backend;
    int device;
    NativeModule handle;
    std::string compile_log;
    std::string source;  // empty for modules loaded from PTX or cubin
    std::vector<std::pair<std::string, std::string>> lowered_names;
    CompileOptions options;  // as compiled from source
    CheckTools check;        // the check tools it was compiled for

    std::mutex twins_mutex;  // guards checked_twins
    // Per-launch check mode: the same source compiled for more tools, by their bits.
    std::map<std::uint32_t, Module> checked_twins;

    std::mutex mutex;  // guards kernels
    std::map<std::string, std::unique_ptr<KernelState>, std::less<>> kernels;

    std::atomic<bool> launched{false};  // set by the first launch of one of its kernels
};

}  // namespace gpukit::detail
