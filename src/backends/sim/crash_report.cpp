// src/backends/sim/crash_report.cpp: what the process says when a simulated kernel crashes.
#include "backends/sim/crash_report.hpp"

#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "backends/sim/block_runner.hpp"

namespace gpukit::detail::sim {

namespace {

struct sigaction previous_actions[32];
const int handled_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};

const char* signal_name(int signal) {
    switch (signal) {
        case SIGSEGV: return "SIGSEGV (invalid memory access)";
        case SIGBUS: return "SIGBUS (misaligned or unmapped memory access)";
        case SIGFPE: return "SIGFPE (integer division by zero or overflow)";
        case SIGILL: return "SIGILL (illegal instruction)";
        default: return "a fatal signal";
    }
}

void on_fault(int signal, siginfo_t* info, void* context) {
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

void install_crash_report() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action {};
        action.sa_sigaction = on_fault;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        for (int signal : handled_signals) sigaction(signal, &action, &previous_actions[signal]);
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
