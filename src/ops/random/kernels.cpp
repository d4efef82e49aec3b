// src/ops/random/kernels.cpp: the random number kernels (their module: ops/own_kernels.hpp).
#include "ops/random/kernels.hpp"

#include <algorithm>

#include "gpukit/current_stream.hpp"
#include "ops/elementwise/launch.hpp"
#include "ops/own_kernels.hpp"

namespace gpukit::detail {

Kernel random_kernel(std::string_view name, const Device& device) {
    // No multiply-add contraction: a GPU would fuse a * b + c where the simulator rounds twice, and
    // the numbers must be the same bits on both (gpukit_random.cuh).
    return own_kernel(device, {"gpukit_random.cu", random_header_name, random_header(), {}, {"--fmad=false"}}, name);
}

namespace {

bool compute_bound(std::string_view name) {
    return name.starts_with("gk_random_normal") || name.starts_with("gk_random_exponential");
}

}  // namespace

void launch_random(std::string_view name, const Device& device, std::int64_t threads, const RandomParams& params) {
    if (threads == 0) return;
    const bool simulated = device.backend_info().capabilities.simulated;
    LaunchConfig config = elementwise_launch_config(simulated, threads, current_stream(device));
    if (!simulated && compute_bound(name)) {
        // The conversions that are compute bound on a GPU (a logarithm, a sine and a cosine per
        // pair) run as one wave of as many threads as the multiprocessors hold, each through the
        // kernels' grid-stride loop: no partial last wave, and a thread's set-up (parameters, 64-bit
        // indices) serves many Philox blocks. The values depend on the element index alone.
        const std::int64_t wave =
            std::int64_t{std::max(1, device.properties().multiprocessor_count)} *
            std::max(1, random_kernel(name, device).max_active_blocks_per_multiprocessor(config.block.x));
        config.grid.x = static_cast<std::uint32_t>(std::min<std::int64_t>(config.grid.x, wave));
    }
    random_kernel(name, device)(config, params);
}

}  // namespace gpukit::detail
