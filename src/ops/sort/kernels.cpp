// src/ops/sort/kernels.cpp: the sort kernels' module (kept in own_kernels' table) and launches.
#include "ops/sort/kernels.hpp"

#include "gpukit/current_stream.hpp"
#include "ops/elementwise/launch.hpp"
#include "ops/own_kernels.hpp"

namespace gpukit::detail {
namespace {

// One module per shapes: the simulator's chunked passes, or the GPU's tiles (on the simulator when
// tests ask for them, through GK_GPU_SHAPES).
OwnKernelSource sort_source(const Device& device) {
    OwnKernelSource source{"gpukit_sort.cu", sort_header_name, sort_header(), {}, {}};
    if (device.backend_info().capabilities.simulated && !sort_chunked(device))
        source.defines = "#define GK_GPU_SHAPES\n";
    return source;
}

}  // namespace

bool sort_chunked(const Device& device) { return runs_chunked_shapes(device); }

Kernel sort_kernel(std::string_view name, const Device& device) {
    return own_kernel(device, sort_source(device), name);
}

void launch_sort_elements(std::string_view name, const Device& device, std::int64_t work, const SortParams& params) {
    if (work == 0) return;
    const LaunchConfig config =
        elementwise_launch_config(device.backend_info().capabilities.simulated, work, current_stream(device));
    sort_kernel(name, device)(config, params);
}

}  // namespace gpukit::detail
