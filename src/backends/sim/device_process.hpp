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
// With the sandbox (set_sandbox; GPUKIT_SIM_SANDBOX=1), the child enters it as it starts, before
// any thread or kernel runs (util/sandbox.hpp, with a PID namespace of its own): the child spawned
// stays behind as the parent of the process that runs the kernels and ends as it ends. Every
// restart enters it again; a system that forbids it makes every request fail with why, until
// set_sandbox(false). Whatever the control block holds is then the word of a process that may run
// hostile code: replies are read within their slots, module descriptions are checked before they
// are used, paths it names are never opened or removed, and the journal never waits on it for ever.
//
// A kernel's printf goes to the child's stdout, a pipe the host forwards to its own stdout (its
// file descriptor 1 as it is at the time, so a test that captures stdout sees it); a launch's
// output is forwarded before the launch counts as done.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backends/sim/device_memory.hpp"
#include "backends/sim/device_protocol.hpp"
#include "backends/sim/executor.hpp"
#include "backends/sim/sim_module.hpp"
#include "util/private_files.hpp"

namespace gpukit::detail::sim {

class DeviceProcess final : public Executor {
public:
    // Nothing starts until the first request. `launch_time_limit_seconds` > 0 gives up a launch
    // that runs longer (LaunchTimeoutError). `sandbox`: kernels run in the sandbox from the start.
    DeviceProcess(DeviceMemory& memory, double launch_time_limit_seconds, bool sandbox = false);
    ~DeviceProcess() override;
    DeviceProcess(const DeviceProcess&) = delete;
    DeviceProcess& operator=(const DeviceProcess&) = delete;

    // Starts the device process now if it is not running, and says whether it runs. False when it
    // cannot start here (why: start_failure()).
    bool start();
    const std::string& start_failure() const noexcept { return start_failure_; }

    // Kernels in the sandbox, or no longer: the device process starts (or restarts, once the
    // requests in flight are answered) as asked, and this returns when it serves. Throws
    // BackendUnavailableError saying why it cannot start so; every request then fails the same way
    // until another call. Turning it off before the first start starts nothing.
    void set_sandbox(bool on);
    // Whether kernels are to run in the sandbox (whether or not the device process runs now).
    bool sandboxed() const;

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
        std::uint64_t module = 0;    // the launch's module, for a fault's source line
        std::exception_ptr failure;  // set when the device process died under it
        bool timed_out = false;
        std::function<bool()> given_up;  // the launch's LaunchRequest::given_up
    };
    enum class State { stopped, starting, ready, failed };

    // ---- the supervising thread
    void supervise();
    bool spawn_once(std::string& why);
    void reload_everything();
    void after_death(int status);
    void end_sandboxed_process();
    std::exception_ptr crash_error(const protocol::CrashRecord& record, std::uint64_t module);
    SourceLocation module_source_location(std::uint64_t module, std::uint64_t offset);
    // Throws LaunchError when the device process describes a module the host cannot act on.
    void check_module_info(const ModuleInfo& info) const;
    void refuse_forked_child() const;

    // ---- requests
    // One request in flight, from taking a free slot of the control block (starting the device
    // process if need be) to giving it back: every operation is one of these.
    class Call {
    public:
        // Takes a slot for a request of that kind; `use` says which launch it is, for reports.
        // Throws BackendUnavailableError when the device process cannot start.
        Call(DeviceProcess& process, protocol::Request kind, const SlotUse& use);
        Call(DeviceProcess& process, protocol::Request kind);
        ~Call();
        Call(const Call&) = delete;
        Call& operator=(const Call&) = delete;

        // The request's body, written into the slot.
        protocol::Writer& out() noexcept { return out_; }
        protocol::Slot& slot() noexcept { return slot_; }
        // Posts the request and waits for the reply. False when the device process died first
        // (failure() says why); `time_limit_seconds` > 0 gives it up past that (timed_out()).
        bool send(double time_limit_seconds = 0);
        // send() for a request whose reply starts with its error, then forwards what the device
        // process printed: the rest of the reply. The error is rethrown; the process's death
        // throws failure(), or BackendUnavailableError saying it ended while `doing`.
        protocol::Reader answer(std::string_view doing);
        // The reply as the device process wrote it, after send() returned true.
        protocol::Reader reply() const;
        // Why the device process died under the request, when it did.
        std::exception_ptr failure() const;
        bool timed_out() const;
        // Forwards what the device process printed for the request, if anything.
        void forward_output();

    private:
        DeviceProcess& process_;
        std::uint64_t generation_ =
            0;  // of the device process the slot was taken in (before index_: take_slot sets it)
        unsigned index_;
        protocol::Slot& slot_;
        protocol::Writer out_;
    };
    // A request whose body `write` writes; `read` reads the reply (see Call::answer) and gives
    // the result.
    template <class Write, class Read>
    auto request(protocol::Request kind, std::string_view doing, Write&& write, Read&& read);
    unsigned take_slot(std::uint64_t& generation, const SlotUse& use);
    void give_back(unsigned slot);
    // Posts the request in `slot` to the device process of `generation`; false, posting nothing,
    // when that one has died. Under the lock, so that a request is never posted into the slot of a
    // process that died after the slot was taken: the new process would run it, unawaited.
    bool post_request(unsigned slot, std::uint64_t generation);
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
    std::uint64_t forks_at_creation_ = 0;

    mutable std::mutex mutex_;  // guards what follows
    std::condition_variable changed_;
    State state_ = State::stopped;
    bool start_asked_ = false;
    bool sandbox_ = false;              // asked for
    bool running_sandboxed_ = false;    // the running device process is in it
    bool restarting_ = false;           // set_sandbox() waits to restart it: new requests wait
    std::uint64_t start_attempts_ = 0;  // starts that ended, in a running process or a failure
    bool shutting_down_ = false;
    std::uint64_t generation_ = 0;  // of the running device process
    std::string start_failure_;
    std::string child_directory_;
    std::string abandon_reason_;  // set by abandon(): why the next death happened
    // abandon() killed the running device process and the supervisor has not seen it die yet, or
    // the supervisor is settling a death: new requests wait for the next process instead of going
    // to this one, where they would fail with abandon_reason_ (an earlier wait's give-up leaking
    // into a later operation) or with no failure of their own.
    bool killed_ = false;
    SlotUse slots_[protocol::slot_count];
    std::map<std::uint64_t, Module> modules_;
    std::thread supervisor_;
    // The supervisor's own: the sandbox's private tmp (its mount point here), whether the last
    // start failed because the system refuses the sandbox, and a pidfd of the process that runs
    // the kernels in the sandbox (a child of the one spawned).
    std::unique_ptr<PrivateDirectory> sandbox_tmp_;
    bool sandbox_refused_ = false;
    int kernel_runner_ = -1;
    std::atomic<std::uint64_t> live_generation_{0};  // generation_, readable without the lock

    std::mutex journal_mutex_;  // guards the journal's tail and live_allocations_
    std::map<std::uint64_t, std::size_t> live_allocations_;

    std::mutex output_mutex_;  // one reader of the output pipes at a time, so output stays in order
    std::thread forwarder_;
};

}  // namespace gpukit::detail::sim
