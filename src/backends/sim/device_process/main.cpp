// src/backends/sim/device_process/main.cpp: gpukit-sim-device, the simulator's device process.
//
//   gpukit-sim-device CONTROL_FD MEMORY_FD MEMORY_BASE MEMORY_BYTES HOST_PID SANDBOX_TMP
//
// Started by the host (device_process.cpp), never by hand: it maps the device memory at the
// host's address and the control block, then serves each request slot with a thread of its own,
// running launches on a LocalExecutor. It dies with the host (see watch_host), ignores Ctrl-C
// (the host decides), and dumps no core when a kernel crashes it (the host reports the crash).
// SANDBOX_TMP other than "-": first it enters the sandbox (util/sandbox.hpp), with that directory
// as its private tmp and a PID namespace of its own; its child then does all of the above.
#include <poll.h>
#include <signal.h>
#include <stdio_ext.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backends/sim/crash_report.hpp"
#include "backends/sim/device_executable.hpp"
#include "backends/sim/device_protocol.hpp"
#include "backends/sim/local_executor.hpp"
#include "util/sandbox.hpp"

namespace gpukit::detail::sim {

// The device process starts no other.
std::string_view device_executable() { return {}; }

namespace {

protocol::Control* control = nullptr;
LocalExecutor* executor = nullptr;
std::mutex journal_mutex;
std::uint64_t memory_base = 0;
std::uint64_t memory_bytes = 0;
bool guarding = true;  // pages no live allocation touches are inaccessible (device_memory.hpp)

[[noreturn]] void fail(const std::string& why) {
    if (control) {
        std::snprintf(control->failure, sizeof control->failure, "%s", why.c_str());
        control->ready.store(protocol::failed);
        protocol::futex_wake(control->ready);
    }
    std::_Exit(1);
}

// Makes whole pages of device memory accessible or not. Where the system refuses (more separate
// ranges than vm.max_map_count allows), every page becomes accessible and stays so: accesses
// between allocations no longer fault, and the host's stderr says so once.
void protect(std::uint64_t address, std::uint64_t bytes, bool accessible) {
    if (!guarding) return;
    if (mprotect(reinterpret_cast<void*>(address), bytes, accessible ? PROT_READ | PROT_WRITE : PROT_NONE) == 0) return;
    const int error = errno;
    guarding = false;
    mprotect(reinterpret_cast<void*>(memory_base), memory_bytes, PROT_READ | PROT_WRITE);
    std::fprintf(stderr,
                 "gpukit: the simulator no longer guards the device memory between allocations (mprotect: %s; "
                 "vm.max_map_count limits the separate ranges): an out-of-bounds access there goes unnoticed "
                 "outside check mode\n",
                 std::strerror(error));
    std::fflush(stderr);
}

// Applies the host's journal up to `position`: what check mode knows of allocations, and which
// pages are accessible.
void apply_journal(std::uint64_t position) {
    std::lock_guard lock(journal_mutex);
    const std::uint64_t tail = control->journal_tail.load(std::memory_order_acquire);
    if (position > tail) position = tail;
    for (std::uint64_t head = control->journal_head.load(); head < position; ++head) {
        const protocol::JournalEntry entry = control->journal[head % protocol::journal_entries];
        switch (entry.kind) {
            case protocol::JournalKind::add: executor->allocation_added(entry.address, entry.bytes, false); break;
            case protocol::JournalKind::add_written:
                executor->allocation_added(entry.address, entry.bytes, true);
                break;
            case protocol::JournalKind::remove: executor->allocation_removed(entry.address); break;
            case protocol::JournalKind::write: executor->host_wrote(entry.address, entry.bytes); break;
            case protocol::JournalKind::accessible: protect(entry.address, entry.bytes, true); break;
            case protocol::JournalKind::inaccessible: protect(entry.address, entry.bytes, false); break;
        }
        control->journal_head.store(head + 1, std::memory_order_release);
    }
}

// A request other than a launch: its reply starts with its error, or with none and what `body`
// writes.
template <class Body>
void answer(protocol::Slot& slot, Body body) {
    protocol::Reader in(slot.request_data, slot.request_size);
    protocol::Writer out(slot.reply_data, protocol::reply_bytes);
    try {
        protocol::write_error(out, nullptr);
        body(in, out);
    } catch (...) {
        out = protocol::Writer(slot.reply_data, protocol::reply_bytes);
        protocol::write_error(out, std::current_exception());
    }
    slot.reply_size = out.size();
}

void answer_load(protocol::Slot& slot, bool keep_values) {
    answer(slot, [keep_values](protocol::Reader& in, protocol::Writer& out) {
        const auto id = in.u64();
        const auto image = in.u64();
        const auto image_bytes = in.u64();
        const auto data = in.u64();
        const std::string_view bytes(reinterpret_cast<const char*>(image), image_bytes);
        protocol::write_module_info(out,
                                    keep_values ? executor->reload(id, bytes, data) : executor->load(id, bytes, data));
    });
}

void answer_launch(protocol::Slot& slot, unsigned index) {
    protocol::Writer out(slot.reply_data, protocol::reply_bytes);
    LaunchResult result;
    try {
        protocol::Reader in(slot.request_data, slot.request_size);
        // Kept from launch to launch (one thread per slot): their storage is reused.
        static thread_local std::vector<std::vector<unsigned char>> arguments;
        const LaunchRequest request = protocol::read_launch(in, arguments);
        result = executor->launch(request, slot.blocks_done, index);
    } catch (...) {
        result.error = std::current_exception();
    }
    protocol::write_result(out, result);
    slot.reply_size = out.size();
}

void serve(unsigned index) {
    protocol::Slot& slot = control->slots[index];
    for (;;) {
        const std::uint32_t state = protocol::spin(slot.state, protocol::requested);
        if (state != protocol::requested) {
            protocol::sleep_while(slot.state, state, slot.device_sleeping, -1);
            continue;
        }
        apply_journal(slot.journal_position);  // the pages the request may touch are accessible now
        switch (slot.request) {
            case protocol::Request::load: answer_load(slot, false); break;
            case protocol::Request::reload: answer_load(slot, true); break;
            case protocol::Request::unload:
                answer(slot, [](protocol::Reader& in, protocol::Writer&) { executor->unload(in.u64()); });
                break;
            case protocol::Request::launch: answer_launch(slot, index); break;
            case protocol::Request::drain_journal:
                answer(slot, [&slot](protocol::Reader&, protocol::Writer&) { apply_journal(slot.journal_position); });
                break;
        }
        // What the request printed (a kernel's printf) reaches the host before it goes on: the
        // host reads the pipes only when something was written. Output that bypasses stdio's
        // buffers (write(2), the unbuffered stderr) comes through the host's forwarding thread.
        slot.printed = __fpending(stdout) != 0 || __fpending(stderr) != 0;
        std::fflush(stdout);
        std::fflush(stderr);
        protocol::post(slot.state, protocol::replied, slot.host_sleeping);
    }
}

// A host that ends without ending this process (SIGKILL, os._exit, a crash) removes nothing, and
// the death signal would end this one at once, leaving its directory of loaded modules in $TMPDIR.
// So once that directory exists, a thread waits for the host's end instead (a pidfd of the host's
// process, not the thread that started this one), removes the directory and exits. Inside the
// sandbox the directory is on a tmpfs that goes with the process: the death signal stays.
void watch_host(int host_fd) {
    std::thread([host_fd] {
        pollfd ended{host_fd, POLLIN, 0};
        while (poll(&ended, 1, -1) < 0 && errno == EINTR) {}
        PrivateDirectory::adopt(executor->directory().path()).remove();
        std::_Exit(0);
    }).detach();
    prctl(PR_SET_PDEATHSIG, 0);
}

int run(int argc, char** argv) {
    if (argc != 7) {
        std::fprintf(stderr, "gpukit-sim-device is started by gpukit's simulator, not by hand\n");
        return 2;
    }
    const int control_fd = std::atoi(argv[1]);
    const int memory_fd = std::atoi(argv[2]);
    const auto base = std::strtoull(argv[3], nullptr, 16);
    const auto bytes = std::strtoull(argv[4], nullptr, 10);
    const auto host = static_cast<pid_t>(std::atol(argv[5]));
    const std::string sandbox_tmp = argv[6];
    // Die with the host; if it is already gone, the death signal will never come.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != host) return 0;
    const int host_fd = sandbox_tmp == "-" ? static_cast<int>(syscall(SYS_pidfd_open, host, 0)) : -1;
    const rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    signal(SIGINT, SIG_IGN);

    void* mapped = mmap(nullptr, sizeof(protocol::Control), PROT_READ | PROT_WRITE, MAP_SHARED, control_fd, 0);
    if (mapped == MAP_FAILED) return 3;
    control = static_cast<protocol::Control*>(mapped);
    if (control->magic != protocol::magic || control->version != protocol::version)
        fail("its control block is of another gpukit version");
    if (sandbox_tmp != "-") {
        // Still one thread, as a new user namespace needs. Returns in the child, which the host
        // learns of before it runs anything else (the host makes sure of its end by it).
        SandboxOptions options;
        options.own_pids = true;
        options.child_started = [](pid_t child) { control->pid = child; };
        try {
            enter_sandbox(sandbox_tmp, options);
        } catch (const std::exception& e) {
            control->sandbox_refused = 1;
            fail(e.what());
        }
    }
    // Inaccessible until the journal says which pages allocations hold.
    void* memory = mmap(reinterpret_cast<void*>(base), bytes, PROT_NONE,
                        MAP_SHARED | MAP_FIXED_NOREPLACE | MAP_NORESERVE, memory_fd, 0);
    if (memory != reinterpret_cast<void*>(base))
        fail(std::string("the device memory's address range is taken in the new process (mmap: ") +
             std::strerror(errno) + ")");
    memory_base = base;
    memory_bytes = bytes;

    record_crashes_in(&control->crash);
    install_crash_report();
    try {
        executor = new LocalExecutor(memory_fd, base);  // lives as long as the process
    } catch (const std::exception& e) {
        fail(e.what());
    }
    std::snprintf(control->directory, sizeof control->directory, "%s", executor->directory().path().c_str());
    if (sandbox_tmp == "-") control->pid = getpid();
    if (host_fd >= 0) watch_host(host_fd);
    for (unsigned i = 0; i < protocol::slot_count; ++i) std::thread(serve, i).detach();
    control->ready.store(protocol::serving);
    protocol::futex_wake(control->ready);
    for (;;) pause();  // the slots' threads serve; the host ends the process
}

}  // namespace

}  // namespace gpukit::detail::sim

int main(int argc, char** argv) { return gpukit::detail::sim::run(argc, argv); }
