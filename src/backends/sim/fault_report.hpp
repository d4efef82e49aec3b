// src/backends/sim/fault_report.hpp: the error a faulting kernel's launch ends with.
//
// A kernel ends its launch by itself (a failed assert, __trap(), abort(), exit(): the block runner
// sees it happen) or by a signal (a bad access, an integer division by zero, a stack overflow:
// the device process's crash handler records it, and the host reads the record after the process
// died). Both become one KernelFaultError whose message names the kernel, the block, the thread
// and the source line where known, and says what state the device is in.
#pragma once

#include <string_view>

#include "gpukit/error.hpp"

namespace gpukit::detail::sim {

// `what`: what the kernel did, as a clause ("called abort()", "read or wrote memory at 0x10 that
// it cannot reach"). An assertion's `what` is the failed expression.
KernelFaultError kernel_fault(FaultKind kind, FaultSite site, std::string_view what);

}  // namespace gpukit::detail::sim
