// src/backends/sim/crash_report.hpp: what the process says when a simulated kernel crashes.
//
// A wild or null pointer in a kernel faults on the CPU like anywhere else. Before the process
// ends, the handler names the kernel, the block and the thread that faulted (or that a fiber
// overflowed its stack) and points to check mode, which catches the access before it happens.
#pragma once

namespace gpukit::detail::sim {

// Installs the fault handlers once per process (SIGSEGV, SIGBUS, SIGFPE, SIGILL).
void install_crash_report();
// Gives the calling thread an alternate signal stack, so a fault caused by a stack overflow can
// still be reported. Called by every worker thread.
void install_crash_stack();

}  // namespace gpukit::detail::sim
