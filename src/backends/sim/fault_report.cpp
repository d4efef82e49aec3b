// src/backends/sim/fault_report.cpp: the error a faulting kernel's launch ends with.
#include "backends/sim/fault_report.hpp"

#include "util/text.hpp"

namespace gpukit::detail::sim {

namespace {

std::string index(const Dim3& d, const char* open, const char* close) {
    return concat(open, d.x, ",", d.y, ",", d.z, close);
}

}  // namespace

KernelFaultError kernel_fault(FaultKind kind, FaultSite site, std::string_view what) {
    std::string message;
    const std::string where = site.file.empty() ? std::string() : concat(site.file, ":", site.line);
    if (kind == FaultKind::assertion) {
        // CUDA's device assert, word for word after the kernel's name.
        message = concat("Kernel ", site.kernel, " failed a device assert: ", where.empty() ? "?" : where, ": ",
                         site.function.empty() ? site.kernel : site.function, ": block: ", index(site.block, "[", "]"),
                         ", thread: ", index(site.thread, "[", "]"), " Assertion `", what, "` failed.");
    } else {
        message = concat("Kernel ", site.kernel, " ", what);
        if (site.thread_known)
            message += concat(" in thread ", index(site.thread, "(", ")"), " of block ", index(site.block, "(", ")"));
        else if (!site.kernel.empty())
            message += concat(" (in block ", index(site.block, "(", ")"), ")");
        if (!where.empty()) message += concat(" at ", where);
        message += ".";
    }
    message +=
        " The launch ended there and the device goes on: device memory keeps what the launch wrote before, and the "
        "work queued after it on its stream was skipped.";
    if (kind == FaultKind::memory_access)
        message +=
            " Run it in check mode (GPUKIT_CHECK=memcheck) to stop the bad access before it happens, with its "
            "source line.";
    return KernelFaultError(kind, message, std::move(site));
}

}  // namespace gpukit::detail::sim
