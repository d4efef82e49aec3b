// src/backends/sim/crash_report.cpp: what the process says when a simulated kernel crashes.
#include "backends/sim/crash_report.hpp"

#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <pthread.h>

#include "backends/sim/block_runner.hpp"
#include "backends/sim/device_protocol.hpp"

namespace gpukit::detail::sim {

namespace {

struct sigaction previous_actions[65];
const int handled_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
const int recorded_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP};
protocol::CrashRecord* crash_record = nullptr;

const char* signal_name(int signal) {
    switch (signal) {
        case SIGSEGV: return "SIGSEGV (invalid memory access)";
        case SIGBUS: return "SIGBUS (misaligned or unmapped memory access)";
        case SIGFPE: return "SIGFPE (integer division by zero, or INT_MIN / -1)";
        case SIGILL: return "SIGILL (illegal instruction)";
        default: return "a fatal signal";
    }
}

const void* instruction_of(void* context) {
#if defined(__x86_64__)
    return reinterpret_cast<const void*>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    return reinterpret_cast<const void*>(static_cast<ucontext_t*>(context)->uc_mcontext.pc);
#else
    static_cast<void>(context);
    return nullptr;
#endif
}

const void* stack_of(void* context) {
#if defined(__x86_64__)
    return reinterpret_cast<const void*>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
    return reinterpret_cast<const void*>(static_cast<ucontext_t*>(context)->uc_mcontext.sp);
#else
    static_cast<void>(context);
    return nullptr;
#endif
}

void copy_text(char* to, std::size_t capacity, const char* from) {
    std::size_t i = 0;
    for (; from && from[i] && i + 1 < capacity; ++i) to[i] = from[i];
    to[i] = '\0';
}

// The device process: everything the host needs to report the fault, async-signal-safely.
void record(int signal, siginfo_t* info, void* context) {
    if (crash_record->claimed.exchange(1) != 0) return;  // another thread faulted first
    protocol::CrashRecord& r = *crash_record;
    r.signal = signal;
    r.code = info ? info->si_code : 0;
    r.address = info ? reinterpret_cast<std::uint64_t>(info->si_addr) : 0;
    const RunningBlock* running = running_block();
    r.in_kernel = running != nullptr;
    if (!running) return;
    r.tag = running->tag;
    copy_text(r.kernel, sizeof r.kernel, running->kernel);
    r.block[0] = running->block_idx.x;
    r.block[1] = running->block_idx.y;
    r.block[2] = running->block_idx.z;
    const void* stack = stack_of(context);
    const gpukit_sim::ThreadContext* thread = stack ? thread_context_of(stack) : nullptr;
    r.thread_known = thread != nullptr;
    if (thread) {
        r.thread[0] = thread->thread_idx.x;
        r.thread[1] = thread->thread_idx.y;
        r.thread[2] = thread->thread_idx.z;
    }
    r.stack_overflow = (signal == SIGSEGV || signal == SIGBUS) && info && is_fiber_stack_guard(info->si_addr);
    const auto pc = reinterpret_cast<std::uintptr_t>(instruction_of(context));
    if (running->module) {
        const auto [begin, end] = running->module->code();
        if (pc >= begin && pc < end) {
            r.pc_in_module = 1;
            r.module_offset = pc - running->module->base();
        }
    }
}

void on_fault(int signal, siginfo_t* info, void* context) {
    if (crash_record) {
        record(signal, info, context);
        // Die of the signal: the host reads the record once this process is gone.
        ::signal(signal, SIG_DFL);
        sigset_t unblock;
        sigemptyset(&unblock);
        sigaddset(&unblock, signal);
        pthread_sigmask(SIG_UNBLOCK, &unblock, nullptr);
        ::raise(signal);
        _exit(128 + signal);
    }
    if (const RunningBlock* running = running_block()) {
        // snprintf into a local buffer and one write(2): no allocation in a signal handler.
        char text[1024];
        // The faulting code ran on a simulated thread's stack, whose base says who it was.
        const void* stack = nullptr;
#if defined(__x86_64__)
        stack = reinterpret_cast<const void*>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
        stack = reinterpret_cast<const void*>(static_cast<ucontext_t*>(context)->uc_mcontext.sp);
#endif
        const gpukit_sim::ThreadContext* thread = stack ? thread_context_of(stack) : nullptr;
        const gpukit_sim::Index3 t = thread ? thread->thread_idx : gpukit_sim::Index3{0, 0, 0};
        const bool overflow = info && is_fiber_stack_guard(info->si_addr);
        const int n = std::snprintf(
            text, sizeof text,
            "\n========= gpukit simulator: kernel %s crashed with %s\n"
            "=========     at address %p\n"
            "=========     by thread (%u,%u,%u) in block (%u,%u,%u)\n"
            "=========     %s\n"
            "=========     Run it in check mode (GPUKIT_CHECK=memcheck) to catch the access before it happens, "
            "with the source line.\n",
            running->kernel, signal_name(signal), info ? info->si_addr : nullptr, t.x, t.y, t.z, running->block_idx.x,
            running->block_idx.y, running->block_idx.z,
            overflow ? "The address is in the guard page below the thread's stack: the thread overflowed its "
                       "stack (GPUKIT_SIM_STACK_KB raises it, default 64)."
                     : "The kernel read or wrote memory it does not own (a null, wild or freed pointer, or an "
                       "index past the end of an array).");
        if (n > 0) {
            ssize_t ignored =
                write(STDERR_FILENO, text, static_cast<std::size_t>(n < (int)sizeof text ? n : (int)sizeof text - 1));
            (void)ignored;
        }
    }
    // Let the previous handler (or the default action: end the process) deal with it.
    struct sigaction& previous = previous_actions[signal];
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction) return previous.sa_sigaction(signal, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN && previous.sa_handler) {
        return previous.sa_handler(signal);
    }
    ::signal(signal, SIG_DFL);
    ::raise(signal);
}

}  // namespace

void record_crashes_in(protocol::CrashRecord* record) { crash_record = record; }

void install_crash_report() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action {};
        action.sa_sigaction = on_fault;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        if (crash_record) {
            for (int signal : recorded_signals) sigaction(signal, &action, &previous_actions[signal]);
        } else {
            for (int signal : handled_signals) sigaction(signal, &action, &previous_actions[signal]);
        }
    });
}

void install_crash_stack() {
    static thread_local char* stack = nullptr;  // lives as long as the thread
    if (stack) return;
    const std::size_t size = std::size_t{64} * 1024;
    stack = static_cast<char*>(std::malloc(size));
    if (!stack) return;  // without it, only stack overflows go unreported
    stack_t alternate{};
    alternate.ss_sp = stack;
    alternate.ss_size = size;
    sigaltstack(&alternate, nullptr);
}

}  // namespace gpukit::detail::sim
