// src/backends/sim/device_process.hpp: the simulator's device process, seen from the host: a
// supervised child process that runs the kernels, so that a faulting kernel cannot take the
// user's process down and a wild write cannot reach its memory.
//
// The child is gpukit-sim-device (device_process_main.cpp), an executable built with the library
// and carried inside it: it is written to a memfd (or, where memfds cannot run programs, to a
// private directory) and started with posix_spawn, in a process group of its own (Ctrl-C reaches
// only the host, which decides) and with PR_SET_PDEATHSIG, so that it dies with the host. It maps
// the device memory (device_memory.hpp) at the host's address, loads the modules, and serves
// requests through the control block (device_protocol.hpp) with a LocalExecutor.
//
// When it dies (a fault in a kernel: any signal; or it was killed to give up a hung launch), the
// supervising thread reads what its crash handler recorded, fails the launches that were running
// (the faulting one with a KernelFaultError naming the kernel, block, thread and line; the others
// with LaunchAbandonedError), starts a new child and loads every module again, the variables of
// each with the values they had. Device memory is the host's and survives; check mode's record of
// what was written survives coarsely (every allocation counts as written).
//
// A kernel's printf goes to the child's stdout, a pipe the host forwards to its own stdout (its
// file descriptor 1 as it is at the time, so a test that captures stdout sees it); a launch's
// output is forwarded before the launch counts as done.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backends/sim/device_memory.hpp"
#include "backends/sim/device_protocol.hpp"
#include "backends/sim/executor.hpp"

namespace gpukit::detail::sim {

class DeviceProcess final : public Executor {
public:
    // Nothing starts until the first request. `launch_time_limit_seconds` > 0 gives up a launch
    // that runs longer (LaunchTimeoutError).
    DeviceProcess(DeviceMemory& memory, double launch_time_limit_seconds);
    ~DeviceProcess() override;
    DeviceProcess(const DeviceProcess&) = delete;
    DeviceProcess& operator=(const DeviceProcess&) = delete;

    // Starts the device process now if it is not running, and says whether it runs. False when it
    // cannot start here (why: start_failure()).
    bool start();
    const std::string& start_failure() const noexcept { return start_failure_; }

    ModuleInfo load(std::uint64_t id, std::string_view image, std::uint64_t data) override;
    void unload(std::uint64_t id) noexcept override;
    LaunchResult launch(const LaunchRequest& request, std::atomic<std::uint64_t>& blocks_done) override;
    void allocation_added(std::uint64_t address, std::size_t bytes, bool written) override;
    void allocation_removed(std::uint64_t address) override;
    void host_wrote(std::uint64_t address, std::size_t bytes) override;
    bool abandon(const std::string& why) override;

    // The number of device processes started so far (1 until the first restart), for tests.
    std::uint64_t starts() const noexcept { return starts_.load(); }
    // The running device process's id, or 0.
    pid_t pid() const noexcept { return pid_.load(); }

private:
    struct Module {
        std::string image;  // kept to load it again in a new device process
        std::uint64_t data;
        std::vector<std::string> kernels;  // names, for reports
    };
    struct SlotUse {
        bool busy = false;
        bool launch = false;
        std::string kernel;          // the launch's kernel, for reports
        std::exception_ptr failure;  // set when the device process died under it
        bool timed_out = false;
    };
    enum class State { stopped, starting, ready, failed };

    // ---- the supervising thread
    void supervise();
    bool spawn_once(std::string& why);
    void reload_everything();
    void after_death(int status);
    std::exception_ptr crash_error(const protocol::CrashRecord& record, unsigned slot) const;

    // ---- requests
    // A free slot, the device process running (started if need be); its index and the generation
    // of the process it belongs to. Throws BackendUnavailableError when it cannot start.
    unsigned take_slot(std::uint64_t& generation);
    void give_back(unsigned slot);
    // Posts the request in the slot and waits for the reply. Returns false when the process died
    // first (the slot's failure says why); `time_limit_seconds` > 0 gives it up past that.
    bool call(unsigned slot, std::uint64_t generation, double time_limit_seconds = 0);
    // Puts device memory's protection changes (guard pages) in the journal and the slot's
    // journal_position after them, so that the device process applies them before the request.
    // False when the process died meanwhile.
    bool send_protection(unsigned slot, std::uint64_t generation);
    void journal(protocol::JournalKind kind, std::uint64_t address, std::uint64_t bytes);
    void drain_journal();
    void forward_output();

    DeviceMemory& memory_;
    double launch_time_limit_;
    protocol::Control* control_ = nullptr;
    int control_fd_ = -1;
    int output_[2] = {-1, -1};  // the child's stdout and stderr, read ends
    int output_writers_[2] = {-1, -1};
    std::atomic<pid_t> pid_{0};
    std::atomic<std::uint64_t> starts_{0};
    pid_t owner_ = 0;  // the process that made this (not a forked child)

    std::mutex mutex_;  // guards what follows
    std::condition_variable changed_;
    State state_ = State::stopped;
    bool start_asked_ = false;
    bool shutting_down_ = false;
    std::uint64_t generation_ = 0;  // of the running device process
    std::string start_failure_;
    std::string child_directory_;
    std::string abandon_reason_;  // set by abandon(): why the next death happened
    SlotUse slots_[protocol::slot_count];
    std::map<std::uint64_t, Module> modules_;
    std::thread supervisor_;
    std::atomic<std::uint64_t> live_generation_{0};  // generation_, readable without the lock

    std::mutex journal_mutex_;  // guards the journal's tail and live_allocations_
    std::map<std::uint64_t, std::size_t> live_allocations_;

    std::mutex output_mutex_;  // one reader of the output pipes at a time, so output stays in order
    std::thread forwarder_;
};

}  // namespace gpukit::detail::sim
