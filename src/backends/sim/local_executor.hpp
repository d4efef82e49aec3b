// src/backends/sim/local_executor.hpp: runs the simulated device's code in the calling process:
// modules dlopen'ed here, blocks on this process's worker pool, check mode's tools here.
//
// The device process (device_process_main.cpp) serves its requests with one of these. Run in the
// user's process (GPUKIT_SIM_ISOLATION=0, for a debugger), a wild write of a kernel reaches the
// process's memory and a faulting kernel ends the process after naming itself (crash_report.hpp).
#pragma once

#include <map>
#include <memory>
#include <mutex>

#include "backends/sim/executor.hpp"
#include "backends/sim/sim_module.hpp"
#include "util/private_files.hpp"

namespace gpukit::detail::sim {

class LocalExecutor final : public Executor {
public:
    // `memory_fd`/`memory_base`: the device memory modules move their data into.
    LocalExecutor(int memory_fd, std::uint64_t memory_base);
    ~LocalExecutor() override;

    ModuleInfo load(std::uint64_t id, std::string_view image, std::uint64_t data) override;
    // As load(), keeping the values the module's variables have in `data` from an earlier load.
    ModuleInfo reload(std::uint64_t id, std::string_view image, std::uint64_t data);
    void unload(std::uint64_t id) noexcept override;
    LaunchResult launch(const LaunchRequest& request, std::atomic<std::uint64_t>& blocks_done) override;
    // As launch(), with the tag crash reports name the launch by.
    LaunchResult launch(const LaunchRequest& request, std::atomic<std::uint64_t>& blocks_done, unsigned tag);

    void allocation_added(std::uint64_t address, std::size_t bytes, bool written) override;
    void allocation_removed(std::uint64_t address) override;
    void host_wrote(std::uint64_t address, std::size_t bytes) override;

    const PrivateDirectory& directory() const noexcept { return directory_; }
    // The module holding `pc` in its code and the loaded module's id, or null.
    const SimModule* module_at(const void* pc, std::uint64_t* id) const;

private:
    ModuleInfo load_module(std::uint64_t id, std::string_view image, std::uint64_t data, bool keep_values);

    int memory_fd_;
    std::uint64_t memory_base_;
    PrivateDirectory directory_;
    mutable std::mutex mutex_;  // guards modules_
    std::map<std::uint64_t, std::shared_ptr<SimModule>> modules_;
    unsigned long loads_ = 0;  // numbers the module files
};

}  // namespace gpukit::detail::sim
