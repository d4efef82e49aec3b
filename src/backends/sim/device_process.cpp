// src/backends/sim/device_process.cpp: the simulator's device process, seen from the host.
#include "backends/sim/device_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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

// How many times this process is a fork()ed child of the one that started (pthread_atfork).
std::atomic<std::uint64_t> forks{0};

// The processes whose device process must go when the program exits.
std::mutex exiting_mutex;
std::vector<DeviceProcess*>* exiting_list = nullptr;

std::string hex(std::uint64_t value) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

// A text field of the control block, which its writer may have left without its '\0'.
template <std::size_t size>
std::string bounded(const char (&text)[size]) {
    return {text, strnlen(text, size)};
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

// A load or reload: the module's id, its image staged in device memory, its data segments' place.
void write_module_request(protocol::Writer& out, std::uint64_t id, std::uint64_t image, std::uint64_t image_bytes,
                          std::uint64_t data) {
    out.u64(id);
    out.u64(image);
    out.u64(image_bytes);
    out.u64(data);
}

// Duplicates `fd` above the descriptors a child's file actions write to.
int high_copy(int fd) { return fcntl(fd, F_DUPFD_CLOEXEC, 64); }

// A module load the device process did not finish because it ended while a kernel ran beside it
// (a faulting kernel, most likely): not the module's fault, so load() tries once more in the
// restarted process. Where it escapes (the second try ended so too), it reads as before.
class LoadInterrupted : public BackendUnavailableError {
public:
    using BackendUnavailableError::BackendUnavailableError;
};

}  // namespace

DeviceProcess::DeviceProcess(DeviceMemory& memory, double launch_time_limit_seconds, bool sandbox)
    : memory_(memory), launch_time_limit_(launch_time_limit_seconds), owner_(getpid()), sandbox_(sandbox) {
    static const int counted = pthread_atfork(nullptr, nullptr, [] { forks.fetch_add(1); });
    static_cast<void>(counted);
    forks_at_creation_ = forks.load();
    control_fd_ = memfd_create("gpukit-sim-control", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    // Sealed at its size: a kernel in the device process, which holds it, cannot shrink it under
    // this process's mapping (SIGBUS here).
    if (control_fd_ < 0 || ftruncate(control_fd_, sizeof(protocol::Control)) != 0 ||
        fcntl(control_fd_, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0)
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
                // The supervisor removes the dead process's directory before pid_ is 0; give it a moment.
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
        sandbox_refused_ = false;
        const auto stopping = [&] {
            std::lock_guard lock(mutex_);
            return shutting_down_;
        };
        // A start fails when the device memory's address is taken in the new process (rare: each
        // process lays itself out at random); another try lands elsewhere. A sandbox the system
        // refuses is refused again: one try.
        for (int attempt = 0; attempt < 3 && !started && !sandbox_refused_ && !stopping(); ++attempt)
            started = spawn_once(why);
        if (!started) {
            std::unique_lock lock(mutex_);
            state_ = State::failed;
            start_failure_ =
                concat("The simulator's device process cannot start", sandbox_ ? " in the sandbox: " : ": ", why);
            ++start_attempts_;
            changed_.notify_all();
            // set_sandbox() may ask for another try, under other terms.
            changed_.wait(lock, [&] { return state_ != State::failed || shutting_down_; });
            if (shutting_down_) return;
            continue;
        }
        if (starts_.load() > 0) reload_everything();
        {
            std::lock_guard lock(mutex_);
            state_ = State::ready;
            ++starts_;
            ++start_attempts_;
            changed_.notify_all();
        }
        int status = 0;
        while (waitpid(pid_.load(), &status, 0) < 0 && errno == EINTR) {}
        end_sandboxed_process();
        after_death(status);
        std::lock_guard lock(mutex_);
        if (shutting_down_) return;
    }
}

bool DeviceProcess::spawn_once(std::string& why) {
    const std::string path = executable().path(why);
    if (path.empty()) return false;
    bool sandbox = false;
    {
        std::lock_guard lock(mutex_);
        sandbox = sandbox_;
    }
    std::string private_tmp = "-";
    if (sandbox) {
        // The mount point of the sandbox's private tmpfs: empty here, whatever the device process
        // wrote there (it saw a tmpfs of its own, gone with it).
        try {
            if (!sandbox_tmp_) {
                sandbox_tmp_ = std::make_unique<PrivateDirectory>("gpukit-sim-sandbox-");
                sandbox_tmp_->remove_at_exit();
            }
            private_tmp = sandbox_tmp_->path().string();
        } catch (const std::exception& e) {
            why = e.what();
            return false;
        }
    }
    // A clean control block for the new process: no crash recorded, every slot idle.
    std::memset(static_cast<void*>(&control_->crash), 0, sizeof control_->crash);
    control_->ready.store(protocol::starting);
    control_->pid = 0;
    control_->sandbox_refused = 0;
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
    std::vector<char*> argv = {const_cast<char*>("gpukit-sim-device"), const_cast<char*>(control_arg.c_str()),
                               const_cast<char*>(memory_arg.c_str()),  const_cast<char*>(base.c_str()),
                               const_cast<char*>(capacity.c_str()),    const_cast<char*>(parent.c_str()),
                               const_cast<char*>(private_tmp.c_str()), nullptr};
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
    {
        // The destructor may have begun before there was a pid to kill, and seen none: it waits
        // for this thread, which would otherwise wait for a process no one ends.
        std::lock_guard lock(mutex_);
        if (shutting_down_) {
            kill(pid, SIGKILL);
            int status = 0;
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
            pid_ = 0;
            if (!sandbox && control_->directory[0]) PrivateDirectory::adopt(bounded(control_->directory)).remove();
            why = "the device is shutting down";
            return false;
        }
    }
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
            why = ready == protocol::failed ? bounded(control_->failure)
                  : ended                   ? concat("it ended while starting (", describe_status(status), ")")
                                            : "it did not start within 20 s";
            sandbox_refused_ = sandbox && ready == protocol::failed && control_->sandbox_refused;
            pid_ = 0;
            // A sandboxed process's directory was in its tmpfs, gone with it; a path it wrote is
            // never acted on.
            if (!sandbox && control_->directory[0]) PrivateDirectory::adopt(bounded(control_->directory)).remove();
            return false;
        }
        protocol::futex_wait(control_->ready, ready, 10'000'000);
    }
    if (sandbox) {
        // The process that runs the kernels, a child of the one spawned: known here before any
        // kernel ran, so that it can be made sure of its end (end_sandboxed_process).
        const auto runner = static_cast<pid_t>(control_->pid);
        kernel_runner_ = runner > 0 ? static_cast<int>(syscall(SYS_pidfd_open, runner, 0)) : -1;
    }
    std::lock_guard lock(mutex_);
    child_directory_ = sandbox ? std::string() : bounded(control_->directory);
    running_sandboxed_ = sandbox;
    return true;
}

void DeviceProcess::end_sandboxed_process() {
    // The spawned process ended; the one running the kernels follows it (PR_SET_PDEATHSIG), and
    // must be gone before the control block is reset for another.
    if (kernel_runner_ < 0) return;
    syscall(SYS_pidfd_send_signal, kernel_runner_, SIGKILL, nullptr, 0);
    pollfd gone{kernel_runner_, POLLIN, 0};
    while (poll(&gone, 1, 5000) < 0 && errno == EINTR) {}
    close(kernel_runner_);
    kernel_runner_ = -1;
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
            const auto staging = memory_.allocate(module.image.size());
            if (!staging) continue;
            std::memcpy(reinterpret_cast<void*>(*staging), module.image.data(), module.image.size());
            Call call(*this, protocol::Request::reload);
            write_module_request(call.out(), id, *staging, module.image.size(), module.data);
            const bool answered = call.send();
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
        // Requests from here on wait for the next process: one that took a slot now would be sent
        // to the dead one and, not among `busy`, be given no failure (a module load then failed
        // beside a faulting kernel instead of waiting for the restart).
        killed_ = true;
    }
    std::exception_ptr first_fault;
    std::string first_line;
    std::vector<std::exception_ptr> failures(protocol::slot_count);
    bool launch_busy = false;
    {
        std::lock_guard lock(mutex_);
        for (unsigned i : busy) launch_busy = launch_busy || slots_[i].launch;
    }
    for (unsigned i : busy) {
        std::string kernel;
        bool launch = false;
        std::uint64_t module = 0;
        {
            std::lock_guard lock(mutex_);
            kernel = slots_[i].kernel;
            launch = slots_[i].launch;
            module = slots_[i].module;
        }
        if (!reason.empty()) {
            failures[i] = std::make_exception_ptr(LaunchAbandonedError(reason));
        } else if (!launch && launch_busy && !(recorded && !control_->crash.in_kernel)) {
            failures[i] = std::make_exception_ptr(LoadInterrupted(
                concat("The simulator's device process ended while loading a module (", describe_status(status),
                       ") as a kernel ran beside it: the module's static initialisation, or that kernel, crashed")));
        } else if (recorded && control_->crash.in_kernel && control_->crash.tag == i) {
            failures[i] = crash_error(control_->crash, module);
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
    // The dead process's directory goes before pid_ says it ended: the exit handler waits for that,
    // and the process ends with it (a directory of modules was left in $TMPDIR at every exit).
    std::string directory;
    {
        std::lock_guard lock(mutex_);
        directory = std::exchange(child_directory_, {});
    }
    if (!directory.empty()) PrivateDirectory::adopt(directory).remove();
    {
        std::lock_guard lock(mutex_);
        for (unsigned i : busy)
            if (slots_[i].busy) slots_[i].failure = failures[i];
        abandon_reason_.clear();
        killed_ = false;
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
}

std::exception_ptr DeviceProcess::crash_error(const protocol::CrashRecord& record, std::uint64_t module) {
    FaultSite site;
    site.kernel = bounded(record.kernel);
    site.block = Dim3(record.block[0], record.block[1], record.block[2]);
    site.thread = Dim3(record.thread[0], record.thread[1], record.thread[2]);
    site.thread_known = record.thread_known != 0;
    if (record.pc_in_module) {
        const auto where = module_source_location(module, record.module_offset);
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

SourceLocation DeviceProcess::module_source_location(std::uint64_t module, std::uint64_t offset) {
    // The host's own copy of the module, not the device process's file: that one may be gone with
    // a sandbox's tmpfs, and a path the device process names is never opened here.
    std::string image;
    {
        std::lock_guard lock(mutex_);
        const auto it = modules_.find(module);
        if (it == modules_.end()) return {};
        image = it->second.image;
    }
    try {
        const PrivateDirectory directory("gpukit-sim-fault-");
        return source_location(directory.write_file("module.so", image).string(), offset);
    } catch (const std::exception&) {
        return {};  // the report goes without its line
    }
}

// ---- running in the sandbox, or no longer

void DeviceProcess::set_sandbox(bool on) {
    std::unique_lock lock(mutex_);
    refuse_forked_child();
    sandbox_ = on;
    for (;;) {
        if (shutting_down_) throw UsageError("The program is exiting: the simulator's device process has ended");
        if (state_ == State::starting || (state_ == State::stopped && start_asked_)) {
            // A start under way (or a restart after a death): see what it gives.
            const auto attempts = start_attempts_;
            changed_.wait(lock, [&] { return start_attempts_ != attempts || shutting_down_; });
            continue;
        }
        if (state_ == State::stopped) {
            if (!on) return;  // it starts out of the sandbox when first used
        } else if (state_ == State::ready) {
            if (running_sandboxed_ == on) return;
            // Requests in flight are answered first; new ones wait for the process to come.
            restarting_ = true;
            changed_.wait(lock, [&] {
                return shutting_down_ || state_ != State::ready ||
                       std::none_of(std::begin(slots_), std::end(slots_), [](const SlotUse& s) { return s.busy; });
            });
            if (state_ == State::ready && pid_.load() > 0) kill(pid_.load(), SIGKILL);
        } else {
            state_ = State::stopped;  // failed: the supervisor tries again, under the terms asked now
        }
        const auto attempts = start_attempts_;
        start_asked_ = true;
        changed_.notify_all();
        changed_.wait(lock, [&] { return start_attempts_ != attempts || shutting_down_; });
        restarting_ = false;
        changed_.notify_all();
        if (state_ == State::failed) throw BackendUnavailableError(start_failure_);
    }
}

bool DeviceProcess::sandboxed() const {
    std::lock_guard lock(mutex_);
    return sandbox_;
}

// ---- requests

void DeviceProcess::refuse_forked_child() const {
    // fork() counts in the child (pthread_atfork): no getpid() call at every request.
    if (forks_at_creation_ != forks.load(std::memory_order_relaxed) && owner_ != getpid())
        throw UsageError(
            "The simulator's device belongs to the process that used it before fork(): a forked "
            "child cannot use it (as with CUDA). Use gpukit in the child only, or start it with "
            "the 'spawn' or 'forkserver' method of multiprocessing");
}

bool DeviceProcess::start() {
    std::unique_lock lock(mutex_);
    start_asked_ = true;
    changed_.notify_all();
    changed_.wait(lock, [&] { return state_ == State::ready || state_ == State::failed || shutting_down_; });
    return state_ == State::ready;
}

unsigned DeviceProcess::take_slot(std::uint64_t& generation, const SlotUse& use) {
    const bool supervisor = std::this_thread::get_id() == supervisor_.get_id();
    std::unique_lock lock(mutex_);
    refuse_forked_child();
    start_asked_ = true;
    changed_.notify_all();
    auto free_slot = [&]() -> int {
        for (unsigned i = 0; i < protocol::slot_count; ++i)
            if (!slots_[i].busy) return static_cast<int>(i);
        return -1;
    };
    // A launch given up on its way (abandon) never starts, in this device process or the next.
    auto given_up = [&] { return use.given_up && use.given_up(); };
    changed_.wait(lock, [&] {
        if (shutting_down_ || state_ == State::failed || given_up()) return true;
        const bool running = supervisor ? state_ == State::starting || state_ == State::ready
                                        : state_ == State::ready && !restarting_ && !killed_;
        return running && free_slot() >= 0;
    });
    if (given_up())
        throw LaunchAbandonedError(
            "The launch was abandoned before it started: the simulator gave up the device's work (a wait for it timed "
            "out or was interrupted) and restarted its device process");
    if (state_ == State::failed) throw BackendUnavailableError(start_failure_);
    if (shutting_down_) throw UsageError("The program is exiting: the simulator's device process has ended");
    const auto slot = static_cast<unsigned>(free_slot());
    slots_[slot] = use;
    slots_[slot].busy = true;
    generation = generation_;
    return slot;
}

bool DeviceProcess::post_request(unsigned slot, std::uint64_t generation) {
    std::lock_guard lock(mutex_);
    if (generation_ != generation) return false;
    protocol::Slot& s = control_->slots[slot];
    protocol::post(s.state, protocol::requested, s.device_sleeping);
    return true;
}

void DeviceProcess::give_back(unsigned slot) {
    std::lock_guard lock(mutex_);
    slots_[slot] = SlotUse{};
    control_->slots[slot].state.store(protocol::idle);
    changed_.notify_all();
}

DeviceProcess::Call::Call(DeviceProcess& process, protocol::Request kind, const SlotUse& use)
    : process_(process),
      index_(process.take_slot(generation_, use)),
      slot_(process.control_->slots[index_]),
      out_(slot_.request_data, protocol::request_bytes) {
    slot_.request = kind;
    // What the host journalled before this request is applied before it runs.
    slot_.journal_position = process.control_->journal_tail.load(std::memory_order_acquire);
    slot_.blocks_done.store(0, std::memory_order_relaxed);
    slot_.printed = 0;
}

DeviceProcess::Call::Call(DeviceProcess& process, protocol::Request kind) : Call(process, kind, SlotUse{}) {}

DeviceProcess::Call::~Call() { process_.give_back(index_); }

bool DeviceProcess::Call::send(double time_limit_seconds) {
    if (!process_.send_protection(index_, generation_)) return false;
    slot_.request_size = out_.size();
    if (!process_.post_request(index_, generation_)) return false;
    if (protocol::spin(slot_.state, protocol::replied) == protocol::replied) return true;
    std::optional<Clock::time_point> deadline;
    if (time_limit_seconds > 0)
        deadline = Clock::now() +
                   std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(time_limit_seconds));
    bool abandoned = false;
    for (;;) {
        const std::uint32_t state = slot_.state.load(std::memory_order_acquire);
        if (state == protocol::replied) return true;
        if (process_.live_generation_.load() != generation_) return false;
        long long slice = wait_slice_ns;
        if (deadline && !abandoned) {
            const auto left = *deadline - Clock::now();
            if (left <= Clock::duration::zero()) {
                std::string kernel;
                {
                    std::lock_guard lock(process_.mutex_);
                    process_.slots_[index_].timed_out = true;
                    kernel = process_.slots_[index_].kernel;
                }
                process_.abandon(concat("The launch was abandoned: kernel ", kernel,
                                        ", running at the same time, ran past the time limit of ", time_limit_seconds,
                                        " s and the simulator restarted its device process"));
                abandoned = true;
                continue;
            }
            slice = std::min<long long>(slice, std::chrono::duration_cast<std::chrono::nanoseconds>(left).count() + 1);
        }
        protocol::sleep_while(slot_.state, state, slot_.host_sleeping, slice);
    }
}

protocol::Reader DeviceProcess::Call::answer(std::string_view doing) {
    const bool answered = send();
    forward_output();  // what the request printed (a module's static initialisation) comes first
    if (!answered) {
        if (const std::exception_ptr why = failure()) std::rethrow_exception(why);
        throw BackendUnavailableError(concat("The simulator's device process ended while ", doing));
    }
    protocol::Reader in = reply();
    if (const std::exception_ptr error = protocol::read_error(in)) std::rethrow_exception(error);
    return in;
}

void DeviceProcess::Call::forward_output() {
    // A process that died may have left output in the pipes without saying so.
    if (slot_.printed || slot_.state.load() != protocol::replied) process_.forward_output();
}

protocol::Reader DeviceProcess::Call::reply() const {
    // Never past the slot, whatever size the device process wrote.
    return {slot_.reply_data, std::min<std::uint64_t>(slot_.reply_size, protocol::reply_bytes)};
}

std::exception_ptr DeviceProcess::Call::failure() const {
    std::lock_guard lock(process_.mutex_);
    return process_.slots_[index_].failure;
}

bool DeviceProcess::Call::timed_out() const {
    std::lock_guard lock(process_.mutex_);
    return process_.slots_[index_].timed_out;
}

template <class Write, class Read>
auto DeviceProcess::request(protocol::Request kind, std::string_view doing, Write&& write, Read&& read) {
    Call call(*this, kind);
    write(call.out());
    protocol::Reader in = call.answer(doing);
    return read(in);
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
        if (!post_request(slot, generation)) return false;
        for (;;) {
            const std::uint32_t state = s.state.load(std::memory_order_acquire);
            if (state == protocol::replied) break;
            if (live_generation_.load() != generation) return false;
            protocol::sleep_while(s.state, state, s.host_sleeping, wait_slice_ns);
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

    const auto load_once = [&] {
        return request(
            protocol::Request::load, "loading a module",
            [&](protocol::Writer& out) { write_module_request(out, id, *staging, image.size(), data); },
            [](protocol::Reader& in) { return protocol::read_module_info(in); });
    };
    ModuleInfo info;
    try {
        info = load_once();
    } catch (const LoadInterrupted&) {
        info = load_once();  // in the restarted process; a second end is the module's own
    }
    check_module_info(info);
    Module module{std::string(image), data, {}};
    for (const auto& kernel : info.kernels) module.kernels.push_back(kernel.name);
    std::lock_guard lock(mutex_);
    modules_[id] = std::move(module);
    return info;
}

void DeviceProcess::unload(std::uint64_t id) noexcept {
    {
        std::lock_guard lock(mutex_);
        if (!modules_.erase(id) || owner_ != getpid() || shutting_down_ || state_ != State::ready || killed_) return;
    }
    try {
        request(
            protocol::Request::unload, "unloading a module", [&](protocol::Writer& out) { out.u64(id); },
            [](protocol::Reader&) {});
    } catch (...) {
        // Unloading is a courtesy: a device process that is gone has unloaded it too.
    }
}

LaunchResult DeviceProcess::launch(const LaunchRequest& request, std::atomic<std::uint64_t>& blocks_done) {
    SlotUse use;
    use.launch = true;
    use.module = request.module;
    {
        std::lock_guard lock(mutex_);
        auto it = modules_.find(request.module);
        if (it == modules_.end())
            throw LaunchAbandonedError(
                "The launch's module is not loaded in the simulator's device process: it crashed the process "
                "while being loaded again after an earlier fault. Compile the module again");
        if (request.kernel < it->second.kernels.size()) use.kernel = it->second.kernels[request.kernel];
    }
    use.given_up = request.given_up;
    const std::string& kernel = use.kernel;
    Call call(*this, protocol::Request::launch, use);
    protocol::write_launch(call.out(), request);
    if (!call.out().complete())
        throw KernelArgumentError(concat("Kernel ", kernel, ": the launch's arguments take more than ",
                                         protocol::request_bytes / 1024, " KiB"),
                                  -1);
    const bool answered = call.send(launch_time_limit_);
    blocks_done.store(call.slot().blocks_done.load());
    call.forward_output();
    if (answered) {
        protocol::Reader in = call.reply();
        return protocol::read_result(in);
    }
    LaunchResult result;
    if (call.timed_out()) {
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
        result.error = call.failure() ? call.failure()
                                      : std::make_exception_ptr(LaunchAbandonedError(
                                            "The launch was abandoned: the simulator's device process ended under it"));
    }
    return result;
}

void DeviceProcess::check_module_info(const ModuleInfo& info) const {
    auto refuse = [](const std::string& what) {
        throw LaunchError(concat("The simulator's device process describes the module impossibly (", what,
                                 "): its code wrote over gpukit's record of it, e.g. from a static initialiser. "
                                 "The module cannot be used"));
    };
    for (const auto& kernel : info.kernels) {
        if (kernel.param_sizes.size() != kernel.param_offsets.size()) refuse(concat("kernel ", kernel.name));
        std::size_t total = 0;
        for (std::size_t i = 0; i < kernel.param_sizes.size(); ++i) {
            // Each value is copied from the caller's argument, and all go into one request.
            if (kernel.param_sizes[i] > protocol::request_bytes || kernel.param_offsets[i] > protocol::request_bytes)
                refuse(concat("kernel ", kernel.name, ", parameter ", i + 1));
            total += kernel.param_sizes[i];
        }
        if (total > protocol::request_bytes) refuse(concat("kernel ", kernel.name, "'s parameters"));
    }
    for (const auto& [name, global] : info.globals)
        if (global.address && !memory_.contains(global.address, std::max<std::size_t>(global.size, 1)))
            refuse(concat("variable ", name, " outside device memory"));
}

void DeviceProcess::journal(protocol::JournalKind kind, std::uint64_t address, std::uint64_t bytes) {
    std::unique_lock lock(journal_mutex_);
    if (kind == protocol::JournalKind::add || kind == protocol::JournalKind::add_written)
        live_allocations_[address] = bytes;
    else if (kind == protocol::JournalKind::remove)
        live_allocations_.erase(address);
    for (int drained = 0;; ++drained) {
        const std::uint64_t head = control_->journal_head.load(std::memory_order_acquire);
        const std::uint64_t tail = control_->journal_tail.load(std::memory_order_relaxed);
        if (head <= tail && tail - head < protocol::journal_entries) {
            control_->journal[tail % protocol::journal_entries] = {kind, 0, address, bytes};
            control_->journal_tail.store(tail + 1, std::memory_order_release);
            return;
        }
        if (drained == 2) {
            // A drain empties it; a device process that does not (its kernels' threads wrote over
            // the control block) is restarted, and the next starts from live_allocations_.
            lock.unlock();
            abandon("The launch was abandoned: the simulator's device process stopped following its journal");
            return;
        }
        lock.unlock();
        drain_journal();
        lock.lock();
    }
}

void DeviceProcess::drain_journal() {
    // The request applies the journal up to its position (Call takes it). A device process that
    // ended under it has nothing left to apply: the next one starts from the live allocations.
    Call(*this, protocol::Request::drain_journal).send();
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
    // Launches waiting for a slot (or for a restart under way) look at their given_up() again.
    changed_.notify_all();
    const pid_t pid = pid_.load();
    if (state_ != State::ready || pid <= 0) return state_ != State::failed;
    if (abandon_reason_.empty()) abandon_reason_ = why;
    // The reason is for the requests in flight now; later ones wait for the next process.
    killed_ = true;
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
