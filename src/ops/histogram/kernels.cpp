// src/ops/histogram/kernels.cpp: launching the histogram kernels (their modules: ops/own_kernels.hpp).
#include "ops/histogram/kernels.hpp"

#include <algorithm>

#include "gpukit/current_stream.hpp"
#include "ops/elementwise/launch.hpp"
#include "ops/own_kernels.hpp"
#include "util/text.hpp"

namespace gpukit::detail {
namespace {

// The simulator runs one generic module that reads dtypes and modes from the parameters, each
// simulated thread a contiguous chunk; a GPU (and the simulator when tests ask for the GPU's
// shapes) gets a module per dtypes and mode, whose constants the compiler folds.
OwnKernelSource source_for(const Device& device, const HistogramParams& p) {
    OwnKernelSource source{"gpukit_histogram.cu", histogram_header_name, histogram_header(), {}, {}};
    if (runs_chunked_shapes(device)) return source;
    if (device.backend_info().capabilities.simulated) source.defines = "#define GK_GPU_SHAPES\n";
    source.defines += concat(
        "#define GK_HIST_SPECIALISED\n#define GK_HIST_VALUE_DTYPE ", p.value_dtype, "\n#define GK_HIST_WEIGHT_DTYPE ",
        p.weight_dtype, "\n#define GK_HIST_MODE ", static_cast<int>(p.mode), "\n#define GK_HIST_COMPARE ",
        static_cast<int>(p.compare), "\n#define GK_HIST_ACCUMULATE ", static_cast<int>(p.accumulate),
        "\n#define GK_HIST_SHARED ", p.shared, "\n#define GK_HIST_TRACKS ", p.extremes != 0 ? 1 : 0, "\n");
    return source;
}

std::int64_t shared_bytes_per_bin(BinAccumulator accumulate) {
    switch (accumulate) {
        case BinAccumulator::count: return 4;
        case BinAccumulator::sum_complex: return 16;
        default: return 8;
    }
}

// A block's own copy of the bins stays under this (several blocks then share a multiprocessor).
constexpr std::int64_t max_shared_histogram_bytes = std::int64_t{32} * 1024;
// A block counts at most this many elements in its 32-bit shared counters.
constexpr std::int64_t max_elements_per_block = std::int64_t{1} << 31;

}  // namespace

std::int64_t shared_histogram_bins(BinAccumulator accumulate) {
    return max_shared_histogram_bytes / shared_bytes_per_bin(accumulate);
}

void launch_histogram(const Device& device, HistogramParams params) {
    if (params.size == 0) return;
    const StreamRef stream = current_stream(device);
    const std::int64_t itemsize = static_cast<std::int64_t>(gpukit::itemsize(static_cast<DType>(params.value_dtype)));
    const std::int64_t histogram_bytes = params.bins * shared_bytes_per_bin(params.accumulate);
    params.shared = histogram_bytes <= max_shared_histogram_bytes ? 1 : 0;
    LaunchConfig config;
    if (runs_chunked_shapes(device)) {
        config = elementwise_launch_config(true, params.size, stream);
    } else {
        params.vector = params.stride == 1 && params.values % 16 == 0 ? 1 : 0;
        const std::int64_t work = params.vector ? params.size / (16 / itemsize) + 16 : params.size;
        if (params.shared) {
            // Few large blocks, each with its copy of the bins, several per multiprocessor.
            constexpr std::int64_t threads = 512;
            const std::int64_t multiprocessors = std::max(1, device.properties().multiprocessor_count);
            const std::int64_t blocks =
                std::clamp<std::int64_t>((work + threads - 1) / threads, 1, 4 * multiprocessors);
            config.block = Dim3(threads);
            config.grid = Dim3(static_cast<std::uint32_t>(
                std::max(blocks, (params.size + max_elements_per_block - 1) / max_elements_per_block)));
            config.stream = stream;
        } else {
            config = elementwise_launch_config(false, work, stream);
        }
    }
    if (params.shared && params.size > max_elements_per_block * static_cast<std::int64_t>(config.grid.x))
        params.shared = 0;
    // Whole 8-byte words: the kernel zeroes its copy a word at a time.
    if (params.shared) config.shared_bytes = static_cast<std::size_t>((histogram_bytes + 7) / 8 * 8);
    own_kernel(device, source_for(device, params), "gk_histogram")(config, params);
}

void launch_histogram_bin_index(const Device& device, const HistogramParams& params) {
    if (params.size == 0) return;
    const LaunchConfig config =
        elementwise_launch_config(device.backend_info().capabilities.simulated, params.size, current_stream(device));
    own_kernel(device, source_for(device, params), "gk_histogram_bin_index")(config, params);
}

}  // namespace gpukit::detail
