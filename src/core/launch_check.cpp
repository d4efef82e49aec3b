// src/core/launch_check.cpp: launch checks against device limits and kernel parameters.
#include "core/launch_check.hpp"

#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

namespace {

[[noreturn]] void refuse(const LaunchSubject& subject, const std::string& reason) {
    throw LaunchConfigError(concat("Cannot launch ", subject.kernel, " on ", subject.device, ": ", reason));
}

void check_dims(const LaunchSubject& subject, const char* what, const Dim3& asked, const Dim3& limit) {
    const char axes[] = {'x', 'y', 'z'};
    const std::uint32_t values[] = {asked.x, asked.y, asked.z};
    const std::uint32_t limits[] = {limit.x, limit.y, limit.z};
    for (int i = 0; i < 3; ++i) {
        if (values[i] == 0)
            refuse(subject,
                   concat(what, " ", to_string(asked), " has a zero ", axes[i],
                          " dimension; every dimension must be at least 1 (skip the launch for an empty problem)"));
        if (values[i] > limits[i])
            refuse(subject, concat(what, " ", to_string(asked), ": ", what, ".", axes[i], " = ", values[i],
                                   " exceeds the device's limit of ", limits[i], " for that dimension (", what,
                                   " limits ", to_string(limit), ")"));
    }
}

std::string size_hint(std::size_t bytes) {
    switch (bytes) {
        case 1: return " (a 1-byte value: int8_t, uint8_t, char, bool)";
        case 2: return " (a 2-byte value: int16_t, uint16_t, __half)";
        case 4: return " (a 4-byte value: int32_t, uint32_t, float)";
        case 8: return " (an 8-byte value: int64_t, uint64_t, double, or a device pointer)";
        default: return "";
    }
}

std::string list_params(const std::vector<KernelParam>& params) {
    std::vector<std::string> items;
    for (const auto& p : params) {
        if (!p.type.empty() || !p.name.empty())
            items.push_back(p.name.empty() ? p.type : p.type + " " + p.name);
        else
            items.push_back(concat(p.size, " bytes"));
    }
    return join(items);
}

}  // namespace

void check_launch_config(const LaunchSubject& subject, const LaunchLimits& limits, const KernelAttributes& kernel,
                         const Dim3& grid, const Dim3& block, std::size_t dynamic_shared_bytes) {
    check_dims(subject, "block", block, limits.max_block_dim);
    const std::uint64_t threads = block.volume();
    if (threads > static_cast<std::uint64_t>(limits.max_threads_per_block))
        refuse(subject,
               concat("block ", to_string(block), " has ", threads, " threads; the device allows at most ",
                      limits.max_threads_per_block,
                      " threads per block. Use more blocks of fewer threads (gpukit::grid_for computes the grid)"));
    if (kernel.max_threads_per_block > 0 && threads > static_cast<std::uint64_t>(kernel.max_threads_per_block))
        refuse(subject, concat("block ", to_string(block), " has ", threads, " threads; this kernel can run at most ",
                               kernel.max_threads_per_block, " threads per block (it uses ", kernel.num_registers,
                               " registers per thread)"));
    check_dims(subject, "grid", grid, limits.max_grid_dim);

    if (kernel.static_shared_bytes > limits.shared_memory_per_block)
        refuse(subject,
               concat("the kernel declares ", format_bytes(kernel.static_shared_bytes), " (",
                      kernel.static_shared_bytes, " bytes) of static __shared__ memory; a block may have at most ",
                      format_bytes(limits.shared_memory_per_block), " (", limits.shared_memory_per_block,
                      " bytes) of it. Beyond that, use extern __shared__ and opt in "
                      "(Kernel::set_max_dynamic_shared_bytes)"));
    if (dynamic_shared_bytes > kernel.max_dynamic_shared_bytes) {
        const std::size_t total = dynamic_shared_bytes + kernel.static_shared_bytes;
        std::string reason = concat("it asks for ", format_bytes(dynamic_shared_bytes), " (", dynamic_shared_bytes,
                                    " bytes) of dynamic shared memory, but the kernel may use at most ",
                                    format_bytes(kernel.max_dynamic_shared_bytes), " (",
                                    kernel.max_dynamic_shared_bytes, " bytes) of dynamic shared memory next to its ",
                                    kernel.static_shared_bytes, " bytes of static shared memory. ");
        if (total <= limits.shared_memory_per_block_optin)
            reason += concat("Opt in first with Kernel::set_max_dynamic_shared_bytes(", dynamic_shared_bytes,
                             "); the device allows up to ", format_bytes(limits.shared_memory_per_block_optin),
                             " per block with opt-in");
        else
            reason +=
                concat("The device allows at most ", format_bytes(limits.shared_memory_per_block_optin), " (",
                       limits.shared_memory_per_block_optin, " bytes) of shared memory per block even with opt-in");
        refuse(subject, reason);
    }
}

void check_dynamic_shared_optin(const LaunchSubject& subject, const LaunchLimits& limits,
                                const KernelAttributes& kernel, std::size_t bytes) {
    if (bytes + kernel.static_shared_bytes > limits.shared_memory_per_block_optin)
        throw LaunchConfigError(concat(
            "Cannot raise the dynamic shared memory limit of ", subject.kernel, " on ", subject.device, " to ",
            format_bytes(bytes), " (", bytes, " bytes): with its ", kernel.static_shared_bytes,
            " bytes of static shared memory that exceeds the ", format_bytes(limits.shared_memory_per_block_optin),
            " (", limits.shared_memory_per_block_optin, " bytes) the device allows per block with opt-in"));
}

void check_arguments(const LaunchSubject& subject, const std::vector<KernelParam>& params, const std::size_t* sizes,
                     std::size_t count) {
    if (count != params.size())
        throw KernelArgumentError(concat("Cannot launch ", subject.kernel, ": it takes ", params.size(),
                                         params.size() == 1 ? " parameter" : " parameters", " (", list_params(params),
                                         ") but ", count, count == 1 ? " argument was" : " arguments were", " given"),
                                  -1);
    for (std::size_t i = 0; i < count; ++i) {
        if (sizes[i] != params[i].size)
            throw KernelArgumentError(
                concat("Cannot launch ", subject.kernel, ": argument ", i, " is ", sizes[i], " bytes but ",
                       params[i].describe(i), " takes ", params[i].size, " bytes", size_hint(params[i].size)),
                static_cast<int>(i));
    }
}

}  // namespace gpukit::detail

namespace gpukit {

std::string KernelParam::describe(std::size_t index) const {
    std::string declared = name.empty() ? type : (type.empty() ? name : type + " " + name);
    if (declared.empty()) return detail::concat("parameter ", index);
    return detail::concat("parameter ", index, " ('", declared, "')");
}

}  // namespace gpukit
