// src/backends/sim/executor.hpp: what runs the simulated device's code: loads modules, runs
// launches, keeps check mode's table of allocations.
//
// Two implementations: LocalExecutor runs everything in the calling process; DeviceProcess
// (device_process.hpp) hands it to a supervised child process that runs a LocalExecutor, so that
// a faulting kernel takes down only that child. The backend (sim_backend.cpp) keeps streams,
// events and device memory, and talks to either through this interface.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "backends/sim/prelude/gpukit_sim_abi.h"
#include "gpukit/check.hpp"

namespace gpukit::detail::sim {

// A kernel of a loaded module, as the host sees it.
struct KernelInfo {
    std::string name;  // as looked up: extern "C" name, qualified name, or name expression
    std::vector<std::size_t> param_sizes;
    std::vector<std::size_t> param_offsets;
    bool synchronises = false;
    std::size_t static_shared_bytes = 0;
};

// A __device__ or __constant__ variable: its bytes in device memory.
struct GlobalInfo {
    std::uint64_t address = 0;  // 0 when the host cannot reach it
    std::size_t size = 0;
};

struct ModuleInfo {
    std::vector<KernelInfo> kernels;
    std::vector<std::pair<std::string, GlobalInfo>> globals;  // by every name it answers to (symbol, demangled)
    std::vector<std::string> global_names;                    // the variables a kernel can change, once each
    unsigned check_tools = 0;
};

struct LaunchRequest {
    std::uint64_t module = 0;
    unsigned kernel = 0;  // index into ModuleInfo::kernels
    gpukit_sim::Index3 grid{1, 1, 1};
    gpukit_sim::Index3 block{1, 1, 1};
    std::size_t shared_bytes = 0;
    std::span<const std::vector<unsigned char>> arguments;  // one value per parameter
    // Says whether the work this launch belongs to has been given up (a wait gave up the device's
    // work after the launch was taken off its stream, before it started): then it must not start.
    // Empty: never.
    std::function<bool()> given_up;
};

struct LaunchResult {
    std::vector<Hazard> hazards;  // check mode's findings
    std::exception_ptr error;     // why the launch failed (KernelFaultError, LaunchError, ...), or null
};

class Executor {
public:
    virtual ~Executor() = default;

    // Loads `image` (a shared object HostCompiler made) as module `id`. Its data segments go to
    // `data` in device memory: module_data_bytes(image) bytes, page-aligned, which the caller keeps.
    virtual ModuleInfo load(std::uint64_t id, std::string_view image, std::uint64_t data) = 0;
    virtual void unload(std::uint64_t id) noexcept = 0;

    // Runs the launch to its end (or its failure). `blocks_done` counts the blocks that finished.
    virtual LaunchResult launch(const LaunchRequest& request, std::atomic<std::uint64_t>& blocks_done) = 0;

    // Check mode's view of device memory: what is allocated, and what the host wrote.
    virtual void allocation_added(std::uint64_t address, std::size_t bytes, bool written) = 0;
    virtual void allocation_removed(std::uint64_t address) = 0;
    virtual void host_wrote(std::uint64_t address, std::size_t bytes) = 0;

    // Gives up every running launch so that the device is usable again (they end with
    // LaunchAbandonedError saying `why`), and every launch on its way whose given_up() says so
    // (none of them starts). False where running code cannot be stopped (in process).
    virtual bool abandon(const std::string& why) {
        static_cast<void>(why);
        return false;
    }
};

}  // namespace gpukit::detail::sim
