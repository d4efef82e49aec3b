// src/backends/sim/crash_report.hpp: what the process says when a simulated kernel crashes.
//
// A wild or null pointer in a kernel faults on the CPU like anywhere else. In the simulator's
// device process the handler writes who faulted (kernel, block, thread, the instruction, the
// address) into the record the host reads once the process is gone (device_protocol.hpp), then the
// process dies. Where kernels run in the user's own process (GPUKIT_SIM_ISOLATION=0), it prints
// the same before the process ends, and points to check mode, which stops the access before it
// happens.
#pragma once

namespace gpukit::detail::sim {

namespace protocol {
struct CrashRecord;
}

// Installs the fault handlers once per process (SIGSEGV, SIGBUS, SIGFPE, SIGILL; with a record,
// SIGABRT and SIGTRAP too).
void install_crash_report();
// The device process: faults are written to `record` (shared with the host) instead of printed.
// Call before install_crash_report().
void record_crashes_in(protocol::CrashRecord* record);
// Gives the calling thread an alternate signal stack, so a fault caused by a stack overflow can
// still be reported. Called by every worker thread.
void install_crash_stack();

}  // namespace gpukit::detail::sim
