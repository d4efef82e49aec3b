// src/backends/sim/device_process.cpp: the simulator's device process, seen from the host.
#include "backends/sim/device_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "backends/sim/device_executable.hpp"
#include "backends/sim/fault_report.hpp"
#include "backends/sim/fiber_stacks.hpp"
#include "backends/sim/local_executor.hpp"
#include "backends/sim/sim_module.hpp"
#include "gpukit/error.hpp"
#include "util/private_files.hpp"
#include "util/text.hpp"

extern char** environ;

namespace gpukit::detail::sim {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto start_timeout = std::chrono::seconds(20);
constexpr long long wait_slice_ns = 200'000'000;  // how often a waiter looks whether the process died
constexpr int child_control_fd = 3;
constexpr int child_memory_fd = 4;

// The processes whose device process must go when the program exits.
std::mutex exiting_mutex;
std::vector<DeviceProcess*>* exiting_list = nullptr;

std::string hex(std::uint64_t value) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

std::string describe_status(int status) {
    if (WIFSIGNALED(status)) {
        const int signal = WTERMSIG(status);
        const char* name = sigabbrev_np(signal);
        return concat("it was killed by signal ", signal, name ? concat(" (SIG", name, ")") : std::string());
    }
    if (WIFEXITED(status)) return concat("it exited with status ", WEXITSTATUS(status));
    return "it ended";
}

// gpukit-sim-device as a program the system can start: a memfd holding the carried executable,
// or, where memfds may not run programs, a file in a private directory.
class Executable {
public:
    // The path to spawn; empty with `why` when there is none.
    std::string path(std::string& why) {
        if (!path_.empty()) return path_;
        const std::string_view image = device_executable();
        if (image.empty()) {
            why = "this build carries no device process executable";
            return {};
        }
        if (!tried_memfd_) {
            tried_memfd_ = true;
            const int fd = memfd_create("gpukit-sim-device", MFD_CLOEXEC);
            if (fd >= 0 && write_all(fd, image)) {
                memfd_ = fd;
                path_ = concat("/proc/self/fd/", fd);
                return path_;
            }
            if (fd >= 0) close(fd);
        }
        return file(why);
    }

    // The memfd could not be run (noexec memfds): a file next.
    std::string file(std::string& why) {
        if (memfd_ >= 0) {
            close(memfd_);
            memfd_ = -1;
        }
        try {
            directory_ = std::make_unique<PrivateDirectory>("gpukit-sim-device-");
            directory_->remove_at_exit();  // this object lives to the end: nothing else removes it
            path_ = directory_->write_file("gpukit-sim-device", device_executable(), 0700).string();
        } catch (const std::exception& e) {
            why = e.what();
            path_.clear();
        }
        return path_;
    }

    bool is_memfd() const noexcept { return memfd_ >= 0; }

private:
    static bool write_all(int fd, std::string_view bytes) {
        std::size_t written = 0;
        while (written < bytes.size()) {
            const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false;
            written += static_cast<std::size_t>(n);
        }
        return true;
    }

    bool tried_memfd_ = false;
    int memfd_ = -1;
    std::string path_;
    std::unique_ptr<PrivateDirectory> directory_;
};

Executable& executable() {
    static Executable* instance = new Executable;  // used by the supervising threads to the end
    return *instance;
}

// Duplicates `fd` above the descriptors a child's file actions write to.
int high_copy(int fd) { return fcntl(fd, F_DUPFD_CLOEXEC, 64); }

}  // namespace

DeviceProcess::DeviceProcess(DeviceMemory& memory, double launch_time_limit_seconds)
    : memory_(memory), launch_time_limit_(launch_time_limit_seconds), owner_(getpid()) {
    control_fd_ = memfd_create("gpukit-sim-control", MFD_CLOEXEC);
    if (control_fd_ < 0 || ftruncate(control_fd_, sizeof(protocol::Control)) != 0)
        throw BackendUnavailableError(
            concat("The simulator cannot create its device process's control block: ", std::strerror(errno)));
    void* mapped = mmap(nullptr, sizeof(protocol::Control), PROT_READ | PROT_WRITE, MAP_SHARED, control_fd_, 0);
    if (mapped == MAP_FAILED)
        throw BackendUnavailableError(
            concat("The simulator cannot map its device process's control block: ", std::strerror(errno)));
    // A fresh memfd reads as zeros: every atomic starts at 0, every slot idle.
    control_ = static_cast<protocol::Control*>(mapped);
    control_->magic = protocol::magic;
    control_->version = protocol::version;
    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0)
        throw BackendUnavailableError(concat("The simulator cannot create its output pipes: ", std::strerror(errno)));
    output_[0] = out[0];
    output_[1] = err[0];
    output_writers_[0] = out[1];
    output_writers_[1] = err[1];
    for (int fd : output_) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);

    memory_.guard_pages(true);  // the device process keeps unallocated pages inaccessible
    supervisor_ = std::thread([this] { supervise(); });
    forwarder_ = std::thread([this] {
        for (;;) {
            pollfd fds[2] = {{output_[0], POLLIN, 0}, {output_[1], POLLIN, 0}};
            if (poll(fds, 2, -1) < 0 && errno != EINTR) return;
            forward_output();
        }
    });
    forwarder_.detach();  // reads as long as the process lives

    std::lock_guard lock(exiting_mutex);
    if (!exiting_list) {
        exiting_list = new std::vector<DeviceProcess*>;
        // At exit the device processes go at once, whatever they run: threads of the program may
        // still wait for launches (a daemon thread), and nothing is left to report to.
        std::atexit([] {
            std::vector<DeviceProcess*> all;
            {
                std::lock_guard inner(exiting_mutex);
                all = *exiting_list;
            }
            for (DeviceProcess* process : all) {
                if (process->owner_ != getpid()) continue;  // a forked child's exit
                pid_t pid = 0;
                {
                    std::unique_lock lock(process->mutex_);
                    process->shutting_down_ = true;
                    pid = process->pid_.load();
                    process->changed_.notify_all();
                }
                if (pid > 0) kill(pid, SIGKILL);
                std::unique_lock lock(process->mutex_);
                // The supervisor removes the dead process's directory; give it a moment.
                process->changed_.wait_for(lock, std::chrono::seconds(2), [&] { return process->pid_.load() == 0; });
            }
        });
    }
    exiting_list->push_back(this);
}

DeviceProcess::~DeviceProcess() {
    {
        std::lock_guard lock(exiting_mutex);
        if (exiting_list) std::erase(*exiting_list, this);
    }
    pid_t pid = 0;
    {
        std::lock_guard lock(mutex_);
        shutting_down_ = true;
        pid = pid_.load();
        changed_.notify_all();
    }
    if (pid > 0 && owner_ == getpid()) kill(pid, SIGKILL);
    if (supervisor_.joinable()) {
        if (owner_ == getpid())
            supervisor_.join();
        else
            supervisor_.detach();
    }
    // The forwarder and the control block stay: the forwarder may still be reading.
}

// ---- the supervising thread: starts the device process, waits for it to end, starts it again

void DeviceProcess::supervise() {
    // Signals are for the program's own threads (Python's handlers run on its main thread).
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [&] { return start_asked_ || shutting_down_; });
            if (shutting_down_) return;
            state_ = State::starting;
        }
        std::string why;
        bool started = false;
        // A start fails when the device memory's address is taken in the new process (rare: each
        // process lays itself out at random); another try lands elsewhere.
        for (int attempt = 0; attempt < 3 && !started; ++attempt) started = spawn_once(why);
        if (!started) {
            memory_.guard_pages(false);  // kernels run in this process, whose memory stays accessible
            std::lock_guard lock(mutex_);
            state_ = State::failed;
            start_failure_ = concat("The simulator's device process cannot start: ", why);
            changed_.notify_all();
            return;
        }
        if (starts_.load() > 0) reload_everything();
        {
            std::lock_guard lock(mutex_);
            state_ = State::ready;
            ++starts_;
            changed_.notify_all();
        }
        int status = 0;
        while (waitpid(pid_.load(), &status, 0) < 0 && errno == EINTR) {}
        after_death(status);
        std::lock_guard lock(mutex_);
        if (shutting_down_) return;
    }
}

bool DeviceProcess::spawn_once(std::string& why) {
    const std::string path = executable().path(why);
    if (path.empty()) return false;
    // A clean control block for the new process: no crash recorded, every slot idle.
    std::memset(static_cast<void*>(&control_->crash), 0, sizeof control_->crash);
    control_->ready.store(protocol::starting);
    control_->pid = 0;
    control_->directory[0] = '\0';
    control_->failure[0] = '\0';
    for (auto& slot : control_->slots) slot.state.store(protocol::idle);

    const int control = high_copy(control_fd_);
    const int memory = high_copy(memory_.fd());
    const int out = high_copy(output_writers_[0]);
    const int err = high_copy(output_writers_[1]);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err, STDERR_FILENO);
    posix_spawn_file_actions_adddup2(&actions, control, child_control_fd);
    posix_spawn_file_actions_adddup2(&actions, memory, child_memory_fd);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    posix_spawn_file_actions_addclosefrom_np(&actions, child_memory_fd + 1);
#endif
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    // A process group of its own: Ctrl-C in the terminal reaches the host, which decides; default
    // signal handling and an empty signal mask, whatever the host's threads had.
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (int signal : {SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE}) sigaddset(&defaults, signal);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    const std::string base = hex(memory_.base());
    const std::string capacity = std::to_string(memory_.capacity());
    const std::string parent = std::to_string(getpid());
    const std::string control_arg = std::to_string(child_control_fd);
    const std::string memory_arg = std::to_string(child_memory_fd);
    std::vector<char*> argv = {const_cast<char*>("gpukit-sim-device"),
                               const_cast<char*>(control_arg.c_str()),
                               const_cast<char*>(memory_arg.c_str()),
                               const_cast<char*>(base.c_str()),
                               const_cast<char*>(capacity.c_str()),
                               const_cast<char*>(parent.c_str()),
                               nullptr};
    pid_t pid = 0;
    int spawned = posix_spawn(&pid, path.c_str(), &actions, &attributes, argv.data(), environ);
    if (spawned != 0 && executable().is_memfd()) {
        // Where memfds may not run programs (vm.memfd_noexec), a private file instead.
        const std::string file = executable().file(why);
        spawned = file.empty() ? spawned : posix_spawn(&pid, file.c_str(), &actions, &attributes, argv.data(), environ);
    }
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    for (int fd : {control, memory, out, err}) close(fd);
    if (spawned != 0) {
        if (why.empty()) why = concat("posix_spawn failed: ", std::strerror(spawned));
        return false;
    }
    pid_ = pid;
    // It says it serves, or why it cannot; or it dies.
    const auto deadline = Clock::now() + start_timeout;
    for (;;) {
        const std::uint32_t ready = control_->ready.load();
        if (ready == protocol::serving) break;
        int status = 0;
        const bool ended = waitpid(pid, &status, WNOHANG) == pid;
        if (ready == protocol::failed || ended || Clock::now() > deadline) {
            if (!ended) {
                kill(pid, SIGKILL);
                while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
            }
            why = ready == protocol::failed ? std::string(control_->failure)
                  : ended                   ? concat("it ended while starting (", describe_status(status), ")")
                                            : "it did not start within 20 s";
            pid_ = 0;
            if (control_->directory[0]) PrivateDirectory::adopt(control_->directory).remove();
            return false;
        }
        protocol::futex_wait(control_->ready, ready, 10'000'000);
    }
    std::lock_guard lock(mutex_);
    child_directory_ = control_->directory;
    return true;
}

void DeviceProcess::reload_everything() {
    // What check mode knows of allocations starts again from what is allocated now; each counts as
    // written (what the old process knew of partly written ones is gone with it).
    {
        std::lock_guard lock(journal_mutex_);
        control_->journal_head.store(0);
        control_->journal_tail.store(0);
        memory_.resend_protection();  // the new process has every page inaccessible
        std::uint64_t tail = 0;
        for (const auto& [address, bytes] : live_allocations_) {
            if (tail == protocol::journal_entries) break;  // the rest would need a drain: rare, and only initcheck's
            control_->journal[tail++] = {protocol::JournalKind::add_written, 0, address, bytes};
        }
        control_->journal_tail.store(tail);
    }
    std::map<std::uint64_t, Module> modules;
    {
        std::lock_guard lock(mutex_);
        modules = modules_;
    }
    for (const auto& [id, module] : modules) {
        try {
            std::uint64_t generation = 0;
            const unsigned slot = take_slot(generation);
            struct Release {
                DeviceProcess* self;
                unsigned slot;
                ~Release() { self->give_back(slot); }
            } release{this, slot};
            const auto staging = memory_.allocate(module.image.size());
            if (!staging) continue;
            std::memcpy(reinterpret_cast<void*>(*staging), module.image.data(), module.image.size());
            protocol::Slot& s = control_->slots[slot];
            s.request = protocol::Request::reload;
            protocol::Writer out(s.request_data, protocol::request_bytes);
            out.u64(id);
            out.u64(*staging);
            out.u64(module.image.size());
            out.u64(module.data);
            s.request_size = out.size();
            const bool answered = call(slot, generation);
            memory_.release(*staging);
            if (!answered) return;  // it died loading this module: the next start goes on without it
        } catch (const std::exception&) {
            return;
        }
    }
}

void DeviceProcess::after_death(int status) {
    // Read what the crash handler left before the process's directory goes (its module files
    // give the source lines).
    const bool recorded = control_->crash.claimed.load() != 0;
    std::string reason;
    std::vector<unsigned> busy;
    std::vector<std::string> kernels;
    {
        std::lock_guard lock(mutex_);
        reason = abandon_reason_;
        for (unsigned i = 0; i < protocol::slot_count; ++i)
            if (slots_[i].busy) busy.push_back(i);
    }
    std::exception_ptr first_fault;
    std::string first_line;
    std::vector<std::exception_ptr> failures(protocol::slot_count);
    for (unsigned i : busy) {
        std::string kernel;
        bool launch = false;
        {
            std::lock_guard lock(mutex_);
            kernel = slots_[i].kernel;
            launch = slots_[i].launch;
        }
        if (!reason.empty()) {
            failures[i] = std::make_exception_ptr(LaunchAbandonedError(reason));
        } else if (recorded && control_->crash.in_kernel && control_->crash.tag == i) {
            failures[i] = crash_error(control_->crash, i);
            first_fault = failures[i];
        } else if (launch && !recorded) {
            FaultSite site;
            site.kernel = kernel;
            failures[i] = std::make_exception_ptr(kernel_fault(
                FaultKind::process_ended, site,
                concat("ended the simulator's device process (", describe_status(status),
                       ") without a report: a kernel's _exit, the system's out-of-memory killer, or a signal sent "
                       "to it")));
        } else if (!recorded) {
            failures[i] = std::make_exception_ptr(BackendUnavailableError(
                concat("The simulator's device process ended while loading a module (", describe_status(status),
                       "): the module's static initialisation may have crashed")));
        }
    }
    if (first_fault) {
        try {
            std::rethrow_exception(first_fault);
        } catch (const std::exception& e) {
            first_line = e.what();
            first_line = first_line.substr(0, first_line.find(". "));
        }
    }
    for (unsigned i : busy)
        if (!failures[i]) {
            if (recorded && !control_->crash.in_kernel)
                failures[i] = std::make_exception_ptr(LaunchAbandonedError(
                    concat("The simulator's device process crashed outside any kernel (signal ", control_->crash.signal,
                           "): a gpukit bug, please report it. The launch was abandoned; the device is usable again")));
            else
                failures[i] = std::make_exception_ptr(LaunchAbandonedError(concat(
                    "The launch was abandoned: another launch running at the same time faulted (",
                    first_line.empty() ? "see its error" : first_line,
                    ") and the simulator restarted its device process. Device memory keeps what this launch wrote "
                    "before")));
        }
    std::string directory;
    {
        std::lock_guard lock(mutex_);
        for (unsigned i : busy)
            if (slots_[i].busy) slots_[i].failure = failures[i];
        directory = std::exchange(child_directory_, {});
        abandon_reason_.clear();
        ++generation_;
        live_generation_ = generation_;
        state_ = State::stopped;
        pid_ = 0;
        changed_.notify_all();
    }
    for (auto& slot : control_->slots) {
        slot.state.store(protocol::idle);
        protocol::futex_wake(slot.state);
    }
    if (!directory.empty()) PrivateDirectory::adopt(directory).remove();
}

std::exception_ptr DeviceProcess::crash_error(const protocol::CrashRecord& record, unsigned slot) const {
    static_cast<void>(slot);
    FaultSite site;
    site.kernel = record.kernel;
    site.block = Dim3(record.block[0], record.block[1], record.block[2]);
    site.thread = Dim3(record.thread[0], record.thread[1], record.thread[2]);
    site.thread_known = record.thread_known != 0;
    if (record.pc_in_module) {
        const auto where = source_location(record.module_path, record.module_offset);
        site.file = where.file;
        site.line = where.line;
        site.function = where.function;
    }
    FaultKind kind = FaultKind::memory_access;
    std::string what;
    const std::uint64_t address = record.address;
    if (record.stack_overflow) {
        kind = FaultKind::stack_overflow;
        what = concat("overflowed its stack (", simulated_stack_bytes() / 1024,
                      " KiB per simulated thread; GPUKIT_SIM_STACK_KB sets another power of two: deep recursion or "
                      "large local arrays)");
    } else {
        switch (record.signal) {
            case SIGSEGV:
            case SIGBUS: {
                site.address = address;
                std::string whose;
                if (address < 65536)
                    whose = " (a null pointer, or an offset from one)";
                else if (!memory_.contains(address, 1))
                    whose =
                        " that is not device memory (a host pointer, a pointer into a freed or never-made "
                        "allocation, or a wild one)";
                else
                    whose = concat(" (device memory ", memory_.describe(address), ")");
                what = concat(record.signal == SIGBUS ? "made a misaligned or unmapped access (SIGBUS)"
                                                      : "read or wrote memory it cannot reach (SIGSEGV)",
                              " at address ", hex(address), whose);
                break;
            }
            case SIGFPE:
                kind = FaultKind::integer_division;
                what = "divided an integer by zero, or INT_MIN by -1 (SIGFPE; a GPU gives an undefined value instead)";
                break;
            case SIGILL:
                kind = FaultKind::illegal_instruction;
                what = "ran an illegal instruction (SIGILL: __builtin_trap(), or code this CPU cannot run)";
                break;
            case SIGABRT:
                kind = FaultKind::abort;
                what =
                    "aborted (SIGABRT: std::terminate, a C++ exception through a noexcept function, or a "
                    "library's abort)";
                break;
            case SIGTRAP:
                kind = FaultKind::trap;
                what = "hit a breakpoint trap (SIGTRAP)";
                break;
            default: what = concat("died of signal ", record.signal);
        }
    }
    return std::make_exception_ptr(kernel_fault(kind, std::move(site), what));
}

// ---- requests

bool DeviceProcess::start() {
    std::unique_lock lock(mutex_);
    start_asked_ = true;
    changed_.notify_all();
    changed_.wait(lock, [&] { return state_ == State::ready || state_ == State::failed || shutting_down_; });
    return state_ == State::ready;
}

unsigned DeviceProcess::take_slot(std::uint64_t& generation) {
    const bool supervisor = std::this_thread::get_id() == supervisor_.get_id();
    std::unique_lock lock(mutex_);
    if (owner_ != getpid())
        throw UsageError(
            "The simulator's device belongs to the process that used it before fork(): a forked "
            "child cannot use it (as with CUDA). Use gpukit in the child only, or start it with "
            "the 'spawn' or 'forkserver' method of multiprocessing");
    start_asked_ = true;
    changed_.notify_all();
    auto free_slot = [&]() -> int {
        for (unsigned i = 0; i < protocol::slot_count; ++i)
            if (!slots_[i].busy) return static_cast<int>(i);
        return -1;
    };
    changed_.wait(lock, [&] {
        if (shutting_down_ || state_ == State::failed) return true;
        const bool running = state_ == State::ready || (supervisor && state_ == State::starting);
        return running && free_slot() >= 0;
    });
    if (state_ == State::failed) throw BackendUnavailableError(start_failure_);
    if (shutting_down_) throw UsageError("The program is exiting: the simulator's device process has ended");
    const auto slot = static_cast<unsigned>(free_slot());
    slots_[slot] = SlotUse{};
    slots_[slot].busy = true;
    generation = generation_;
    return slot;
}

void DeviceProcess::give_back(unsigned slot) {
    std::lock_guard lock(mutex_);
    slots_[slot] = SlotUse{};
    control_->slots[slot].state.store(protocol::idle);
    changed_.notify_all();
}

bool DeviceProcess::call(unsigned slot, std::uint64_t generation, double time_limit_seconds) {
    if (!send_protection(slot, generation)) return false;
    protocol::Slot& s = control_->slots[slot];
    s.state.store(protocol::requested, std::memory_order_release);
    protocol::futex_wake(s.state);
    std::optional<Clock::time_point> deadline;
    if (time_limit_seconds > 0)
        deadline = Clock::now() +
                   std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(time_limit_seconds));
    bool abandoned = false;
    for (;;) {
        const std::uint32_t state = s.state.load(std::memory_order_acquire);
        if (state == protocol::replied) return true;
        if (live_generation_.load() != generation) return false;
        long long slice = wait_slice_ns;
        if (deadline && !abandoned) {
            const auto left = *deadline - Clock::now();
            if (left <= Clock::duration::zero()) {
                {
                    std::lock_guard lock(mutex_);
                    slots_[slot].timed_out = true;
                }
                abandon(concat("The launch was abandoned: kernel ", slots_[slot].kernel,
                               ", running at the same time, ran past the time limit of ", time_limit_seconds,
                               " s and the simulator restarted its device process"));
                abandoned = true;
                continue;
            }
            slice = std::min<long long>(slice, std::chrono::duration_cast<std::chrono::nanoseconds>(left).count() + 1);
        }
        protocol::futex_wait(s.state, state, slice);
    }
}

bool DeviceProcess::send_protection(unsigned slot, std::uint64_t generation) {
    protocol::Slot& s = control_->slots[slot];
    for (;;) {
        {
            std::lock_guard lock(journal_mutex_);
            const std::uint64_t head = control_->journal_head.load(std::memory_order_acquire);
            std::uint64_t tail = control_->journal_tail.load(std::memory_order_relaxed);
            for (const auto& change : memory_.take_protection_changes(protocol::journal_entries - (tail - head))) {
                const auto kind =
                    change.accessible ? protocol::JournalKind::accessible : protocol::JournalKind::inaccessible;
                control_->journal[tail++ % protocol::journal_entries] = {kind, 0, change.address, change.bytes};
            }
            control_->journal_tail.store(tail, std::memory_order_release);
            s.journal_position = tail;
            if (!memory_.protection_changes_left()) return true;
        }
        // The journal is full: the device process applies it first, through this slot.
        const protocol::Request request = s.request;
        s.request = protocol::Request::drain_journal;
        s.state.store(protocol::requested, std::memory_order_release);
        protocol::futex_wake(s.state);
        for (;;) {
            const std::uint32_t state = s.state.load(std::memory_order_acquire);
            if (state == protocol::replied) break;
            if (live_generation_.load() != generation) return false;
            protocol::futex_wait(s.state, state, wait_slice_ns);
        }
        s.request = request;
    }
}

ModuleInfo DeviceProcess::load(std::uint64_t id, std::string_view image, std::uint64_t data) {
    const auto staging = memory_.allocate(image.size());
    if (!staging)
        throw OutOfMemoryError(concat("Failed to stage a kernel module of ", format_bytes(image.size()),
                                      " for the simulator's device process"),
                               "CUDA_ERROR_OUT_OF_MEMORY", 2, "out of memory", image.size(), 0, memory_.capacity());
    struct Unstage {
        DeviceMemory& memory;
        std::uint64_t address;
        ~Unstage() { memory.release(address); }
    } unstage{memory_, *staging};
    std::memcpy(reinterpret_cast<void*>(*staging), image.data(), image.size());

    std::uint64_t generation = 0;
    const unsigned slot = take_slot(generation);
    struct Release {
        DeviceProcess* self;
        unsigned slot;
        ~Release() { self->give_back(slot); }
    } release{this, slot};
    protocol::Slot& s = control_->slots[slot];
    s.request = protocol::Request::load;
    protocol::Writer out(s.request_data, protocol::request_bytes);
    out.u64(id);
    out.u64(*staging);
    out.u64(image.size());
    out.u64(data);
    s.request_size = out.size();
    if (!call(slot, generation)) {
        std::exception_ptr failure;
        {
            std::lock_guard lock(mutex_);
            failure = slots_[slot].failure;
        }
        if (failure) std::rethrow_exception(failure);
        throw BackendUnavailableError("The simulator's device process ended while loading a module");
    }
    forward_output();  // a module's static initialisation may print
    protocol::Reader in(s.reply_data, s.reply_size);
    if (in.u64() != 0) std::rethrow_exception(protocol::read_error(in));
    ModuleInfo info = protocol::read_module_info(in);
    Module module{std::string(image), data, {}};
    for (const auto& kernel : info.kernels) module.kernels.push_back(kernel.name);
    std::lock_guard lock(mutex_);
    modules_[id] = std::move(module);
    return info;
}

void DeviceProcess::unload(std::uint64_t id) noexcept {
    {
        std::lock_guard lock(mutex_);
        if (!modules_.erase(id) || owner_ != getpid() || shutting_down_ || state_ != State::ready) return;
    }
    try {
        std::uint64_t generation = 0;
        const unsigned slot = take_slot(generation);
        struct Release {
            DeviceProcess* self;
            unsigned slot;
            ~Release() { self->give_back(slot); }
        } release{this, slot};
        protocol::Slot& s = control_->slots[slot];
        s.request = protocol::Request::unload;
        protocol::Writer out(s.request_data, protocol::request_bytes);
        out.u64(id);
        s.request_size = out.size();
        call(slot, generation);
    } catch (...) {
        // Unloading is a courtesy: a device process that is gone has unloaded it too.
    }
}

LaunchResult DeviceProcess::launch(const LaunchRequest& request, std::atomic<std::uint64_t>& blocks_done) {
    std::uint64_t generation = 0;
    const unsigned slot = take_slot(generation);
    struct Release {
        DeviceProcess* self;
        unsigned slot;
        ~Release() { self->give_back(slot); }
    } release{this, slot};
    std::string kernel;
    {
        std::lock_guard lock(mutex_);
        auto it = modules_.find(request.module);
        if (it == modules_.end())
            throw LaunchAbandonedError(
                "The launch's module is not loaded in the simulator's device process: it crashed the process "
                "while being loaded again after an earlier fault. Compile the module again");
        if (request.kernel < it->second.kernels.size()) kernel = it->second.kernels[request.kernel];
        slots_[slot].launch = true;
        slots_[slot].kernel = kernel;
    }
    protocol::Slot& s = control_->slots[slot];
    s.request = protocol::Request::launch;
    s.blocks_done.store(0);
    s.journal_position = control_->journal_tail.load(std::memory_order_acquire);
    protocol::Writer out(s.request_data, protocol::request_bytes);
    protocol::write_launch(out, request);
    if (!out.complete())
        throw KernelArgumentError(concat("Kernel ", kernel, ": the launch's arguments take more than ",
                                         protocol::request_bytes / 1024, " KiB"),
                                  -1);
    s.request_size = out.size();
    const bool answered = call(slot, generation, launch_time_limit_);
    blocks_done.store(s.blocks_done.load());
    forward_output();
    if (answered) {
        protocol::Reader in(s.reply_data, s.reply_size);
        return protocol::read_result(in);
    }
    LaunchResult result;
    std::lock_guard lock(mutex_);
    if (slots_[slot].timed_out) {
        const std::uint64_t total = std::uint64_t{request.grid.x} * request.grid.y * request.grid.z;
        const std::uint64_t done = blocks_done.load();
        result.error = std::make_exception_ptr(LaunchTimeoutError(
            concat("Kernel ", kernel, " ran past the launch time limit of ", launch_time_limit_, " s with ", done,
                   " of its ", total,
                   " blocks done, and was abandoned: it may never end (a loop without exit, a spin on a flag no "
                   "thread sets). The simulator restarted its device process; the device is usable. "
                   "GPUKIT_SIM_LAUNCH_TIMEOUT (gpukit check --time-limit) sets the limit"),
            kernel, launch_time_limit_, done, total));
    } else {
        result.error = slots_[slot].failure
                           ? slots_[slot].failure
                           : std::make_exception_ptr(LaunchAbandonedError(
                                 "The launch was abandoned: the simulator's device process ended under it"));
    }
    return result;
}

void DeviceProcess::journal(protocol::JournalKind kind, std::uint64_t address, std::uint64_t bytes) {
    std::unique_lock lock(journal_mutex_);
    if (kind == protocol::JournalKind::add || kind == protocol::JournalKind::add_written)
        live_allocations_[address] = bytes;
    else if (kind == protocol::JournalKind::remove)
        live_allocations_.erase(address);
    for (;;) {
        const std::uint64_t head = control_->journal_head.load(std::memory_order_acquire);
        const std::uint64_t tail = control_->journal_tail.load(std::memory_order_relaxed);
        if (tail - head < protocol::journal_entries) {
            control_->journal[tail % protocol::journal_entries] = {kind, 0, address, bytes};
            control_->journal_tail.store(tail + 1, std::memory_order_release);
            return;
        }
        lock.unlock();
        drain_journal();
        lock.lock();
    }
}

void DeviceProcess::drain_journal() {
    std::uint64_t generation = 0;
    const unsigned slot = take_slot(generation);
    struct Release {
        DeviceProcess* self;
        unsigned slot;
        ~Release() { self->give_back(slot); }
    } release{this, slot};
    protocol::Slot& s = control_->slots[slot];
    s.request = protocol::Request::drain_journal;
    s.journal_position = control_->journal_tail.load(std::memory_order_acquire);
    s.request_size = 0;
    call(slot, generation);
}

void DeviceProcess::allocation_added(std::uint64_t address, std::size_t bytes, bool written) {
    journal(written ? protocol::JournalKind::add_written : protocol::JournalKind::add, address, bytes);
}

void DeviceProcess::allocation_removed(std::uint64_t address) { journal(protocol::JournalKind::remove, address, 0); }

void DeviceProcess::host_wrote(std::uint64_t address, std::size_t bytes) {
    journal(protocol::JournalKind::write, address, bytes);
}

bool DeviceProcess::abandon(const std::string& why) {
    std::lock_guard lock(mutex_);
    if (owner_ != getpid()) return false;
    const pid_t pid = pid_.load();
    if (state_ != State::ready || pid <= 0) return state_ != State::failed;
    if (abandon_reason_.empty()) abandon_reason_ = why;
    kill(pid, SIGKILL);
    return true;
}

void DeviceProcess::forward_output() {
    std::lock_guard lock(output_mutex_);
    char buffer[65536];
    for (int stream = 0; stream < 2; ++stream) {
        for (;;) {
            const ssize_t n = read(output_[stream], buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            // The host's stdout and stderr as they are now: a test capturing them sees the kernel's printf.
            const int to = stream == 0 ? STDOUT_FILENO : STDERR_FILENO;
            for (ssize_t written = 0; written < n;) {
                const ssize_t w = write(to, buffer + written, static_cast<std::size_t>(n - written));
                if (w < 0 && errno == EINTR) continue;
                if (w <= 0) break;
                written += w;
            }
        }
    }
}

}  // namespace gpukit::detail::sim
