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

// The conversions that are compute bound on a GPU (a logarithm, a sine and a cosine per pair)
// take this many Philox blocks per thread, through the kernels' grid-stride loop, once the work
// fills every multiprocessor's 2048 threads that many times over: a thread's set-up (parameters,
// 64-bit indices: 40 of gk_random_normal32's ~290 instructions per thread on sm_90) then serves four
// blocks. The values depend on the element index alone, never on the grid.
constexpr std::int64_t blocks_per_thread = 4;

bool compute_bound(std::string_view name) {
    return name.starts_with("gk_random_normal") || name.starts_with("gk_random_exponential");
}

}  // namespace

void launch_random(std::string_view name, const Device& device, std::int64_t threads, const RandomParams& params) {
    if (threads == 0) return;
    const bool simulated = device.backend_info().capabilities.simulated;
    std::int64_t grid_threads = threads;
    if (!simulated && compute_bound(name)) {
        const std::int64_t full = std::int64_t{std::max(1, device.properties().multiprocessor_count)} * 2048;
        if (threads >= full * blocks_per_thread) grid_threads = (threads + blocks_per_thread - 1) / blocks_per_thread;
    }
    const LaunchConfig config = elementwise_launch_config(simulated, grid_threads, current_stream(device));
    random_kernel(name, device)(config, params);
}

}  // namespace gpukit::detail
