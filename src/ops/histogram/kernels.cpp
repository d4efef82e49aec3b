// src/ops/histogram/kernels.cpp: launching the histogram kernels (their modules: ops/own_kernels.hpp).
#include "ops/histogram/kernels.hpp"

#include <algorithm>
#include <limits>

#include "gpukit/current_stream.hpp"
#include "ops/elementwise/launch.hpp"
#include "ops/own_kernels.hpp"
#include "util/text.hpp"

namespace gpukit::detail {
namespace {

// GK_HIST_NARROW: 1 (width 1) or 2 where counts in shared memory may find their bins in 32-bit
// arithmetic: integers of at most 32 bits whose every bin, [low, low + bins * width], lies inside
// their 32-bit range (int32 for the signed and the narrower unsigned, uint32 for uint32), so the
// wrapped offset lands in the bins only for the values that belong there; float16, bfloat16 and
// float32 against whole-number edges (the integer mode takes floats only where the outer edges are
// at most 2^24, which float32 holds exactly); else 0.
std::int32_t narrow_bins(const HistogramParams& p) {
    if (p.mode != BinMode::integer || p.accumulate != BinAccumulator::count || !p.shared || p.width < 1) return 0;
    const auto dtype = static_cast<DType>(p.value_dtype);
    const std::int32_t narrow = p.width == 1 ? 1 : 2;
    if (kind(dtype) == DTypeKind::complex || itemsize(dtype) > 4) return 0;
    if (kind(dtype) == DTypeKind::floating) return narrow;
    const bool unsigned32 = dtype == DType::uint32;
    const std::int64_t lowest = unsigned32 ? 0 : std::numeric_limits<std::int32_t>::min();
    const std::int64_t highest =
        unsigned32 ? std::numeric_limits<std::uint32_t>::max() : std::numeric_limits<std::int32_t>::max();
    if (p.low < lowest || p.bins > (highest - p.low) / p.width) return 0;
    return narrow;
}

// The simulator runs one generic module that reads dtypes and modes from the parameters, each
// simulated thread a contiguous chunk; a GPU (and the simulator when tests ask for the GPU's
// shapes) gets a module per dtypes and mode, whose constants the compiler folds.
OwnKernelSource source_for(const Device& device, const HistogramParams& p) {
    OwnKernelSource source{"gpukit_histogram.cu", histogram_header_name, histogram_header(), {}, {}};
    if (runs_chunked_shapes(device)) return source;
    if (device.backend_info().capabilities.simulated) source.defines = "#define GK_GPU_SHAPES\n";
    source.defines +=
        concat("#define GK_HIST_SPECIALISED\n#define GK_HIST_VALUE_DTYPE ", p.value_dtype,
               "\n#define GK_HIST_WEIGHT_DTYPE ", p.weight_dtype, "\n#define GK_HIST_MODE ", static_cast<int>(p.mode),
               "\n#define GK_HIST_COMPARE ", static_cast<int>(p.compare), "\n#define GK_HIST_ACCUMULATE ",
               static_cast<int>(p.accumulate), "\n#define GK_HIST_SHARED ", p.shared, "\n#define GK_HIST_TRACKS ",
               p.extremes != 0 ? 1 : 0, "\n#define GK_HIST_NARROW ", narrow_bins(p), "\n");
    return source;
}

// The kernel `name` for `p`, found by what source_for's #defines say as one number: a call
// composes no module text.
Kernel histogram_kernel(const Device& device, const HistogramParams& p, std::string_view name) {
    const auto field = [](auto value, int shift) {
        return static_cast<std::uint64_t>(static_cast<std::uint8_t>(value)) << shift;
    };
    const bool chunked = runs_chunked_shapes(device);
    const std::uint64_t specialisation = chunked ? 0
                                                 : field(p.value_dtype, 0) | field(p.weight_dtype, 8) |
                                                       field(p.mode, 16) | field(p.compare, 24) |
                                                       field(p.accumulate, 32) | field(p.shared, 40) |
                                                       field(p.extremes != 0, 48) | field(narrow_bins(p), 56);
    const std::uint64_t key = specialisation << 2 | (chunked ? 2u : 0u) | (name == "gk_histogram" ? 1u : 0u);
    return own_kernel(device, "gpukit_histogram.cu", key, [&] {
        return OwnKernelRecipe{source_for(device, p), std::string(name)};
    });
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
    const bool chunked = runs_chunked_shapes(device);
    LaunchConfig config;
    if (chunked) {
        config = elementwise_launch_config(true, params.size, stream);
        if (params.size > max_elements_per_block * static_cast<std::int64_t>(config.grid.x)) params.shared = 0;
    } else {
        params.vector = params.stride == 1 && params.values % 16 == 0 ? 1 : 0;
    }
    // Whole 8-byte words: the kernel zeroes its copy a word at a time.
    const std::size_t shared_bytes = params.shared ? static_cast<std::size_t>((histogram_bytes + 7) / 8 * 8) : 0;
    // Few large blocks where the bins fit in shared memory, each with its copy of them.
    constexpr std::uint32_t shared_threads = 512;
    const Kernel kernel = histogram_kernel(device, params, "gk_histogram");
    if (!chunked) {
        const std::int64_t work = params.vector ? params.size / (16 / itemsize) + 16 : params.size;
        if (params.shared) {
            // As many blocks as the multiprocessors hold at once (a partial second wave would leave
            // most of them idle while it runs), and enough that none counts past its 32-bit counters.
            const std::int64_t multiprocessors = std::max(1, device.properties().multiprocessor_count);
            const std::int64_t resident =
                std::max(1, kernel.max_active_blocks_per_multiprocessor(shared_threads, shared_bytes));
            const std::int64_t blocks =
                std::clamp<std::int64_t>((work + shared_threads - 1) / shared_threads, 1, resident * multiprocessors);
            config.block = Dim3(shared_threads);
            config.grid = Dim3(static_cast<std::uint32_t>(
                std::max(blocks, (params.size + max_elements_per_block - 1) / max_elements_per_block)));
            config.stream = stream;
        } else {
            config = elementwise_launch_config(false, work, stream);
        }
    }
    config.shared_bytes = shared_bytes;
    kernel(config, params);
}

void launch_histogram_bin_index(const Device& device, const HistogramParams& params) {
    if (params.size == 0) return;
    const LaunchConfig config =
        elementwise_launch_config(device.backend_info().capabilities.simulated, params.size, current_stream(device));
    histogram_kernel(device, params, "gk_histogram_bin_index")(config, params);
}

}  // namespace gpukit::detail
