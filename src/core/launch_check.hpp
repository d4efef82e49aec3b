// src/core/launch_check.hpp: checks a launch against device limits and kernel parameters
// before it reaches the driver, so every refusal says what was asked and what the limit is.
//
// Pure functions of records (limits, attributes, parameters): the same checks serve every
// backend and are tested without a device.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "gpukit/device.hpp"
#include "gpukit/kernel.hpp"

namespace gpukit::detail {

struct LaunchSubject {
    std::string_view kernel;  // the kernel's name as the user knows it
    std::string_view device;  // "device 0 (NVIDIA H100 80GB HBM3)"
};

// Throws LaunchConfigError for an empty or oversized block or grid, or for more dynamic shared
// memory than the kernel may use.
void check_launch_config(const LaunchSubject& subject, const LaunchLimits& limits, const KernelAttributes& kernel,
                         const Dim3& grid, const Dim3& block, std::size_t dynamic_shared_bytes);

// Throws KernelArgumentError when the count or any size differs from the parameters.
void check_arguments(const LaunchSubject& subject, const std::vector<KernelParam>& params, const std::size_t* sizes,
                     std::size_t count);

// Throws LaunchConfigError when `bytes` of dynamic shared memory cannot be opted in to.
void check_dynamic_shared_optin(const LaunchSubject& subject, const LaunchLimits& limits,
                                const KernelAttributes& kernel, std::size_t bytes);

}  // namespace gpukit::detail
