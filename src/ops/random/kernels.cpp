// src/ops/random/kernels.cpp: the random number kernels (their module: ops/own_kernels.hpp).
#include "ops/random/kernels.hpp"

#include "gpukit/current_stream.hpp"
#include "ops/elementwise/launch.hpp"
#include "ops/own_kernels.hpp"

namespace gpukit::detail {

Kernel random_kernel(std::string_view name, const Device& device) {
    // No multiply-add contraction: a GPU would fuse a * b + c where the simulator rounds twice, and
    // the numbers must be the same bits on both (gpukit_random.cuh).
    return own_kernel(device, {"gpukit_random.cu", random_header_name, random_header(), {}, {"--fmad=false"}}, name);
}

void launch_random(std::string_view name, const Device& device, std::int64_t threads, const RandomParams& params) {
    if (threads == 0) return;
    const LaunchConfig config =
        elementwise_launch_config(device.backend_info().capabilities.simulated, threads, current_stream(device));
    random_kernel(name, device)(config, params);
}

}  // namespace gpukit::detail
