// src/ops/histogram/kernels.hpp: the histogram kernels (kernels/gpukit_histogram.cuh), their
// parameters, and how they are compiled and launched.
#pragma once

#include <cstdint>
#include <string_view>

#include "gpukit/device.hpp"
#include "gpukit/dtype.hpp"

namespace gpukit::detail {

inline constexpr std::string_view histogram_header_name = "gpukit_histogram.cuh";

// The text of kernels/gpukit_histogram.cuh, embedded at build time.
std::string_view histogram_header();

// How a value finds its bin, how bins are compared and what a bin accumulates: the GK_HIST_*
// numbers of kernels/gpukit_histogram.cuh.
enum class BinMode : std::int32_t { integer = 0, equal = 1, edges = 2 };
enum class BinCompare : std::int32_t { float64 = 0, int64 = 1, uint64 = 2 };
enum class BinAccumulator : std::int32_t { count = 0, sum_int = 1, sum_float = 2, sum_complex = 3 };

// Mirrors gk_histogram_params in kernels/gpukit_histogram.cuh (what each field means is said there).
struct HistogramParams {
    std::uint64_t values = 0;
    std::uint64_t weights = 0;
    std::uint64_t edges = 0;
    std::uint64_t out = 0;
    std::int64_t size = 0;
    std::int64_t stride = 1;
    std::int64_t weight_stride = 1;
    std::int64_t bins = 0;
    std::int64_t bin_stride = 1;
    std::int64_t low = 0;
    std::int64_t width = 1;
    double first = 0;
    double last = 0;
    double scale = 0;
    double margin = 0;
    std::uint64_t extremes = 0;
    std::int32_t value_dtype = 0;
    std::int32_t weight_dtype = 0;
    BinMode mode = BinMode::integer;
    BinCompare compare = BinCompare::float64;
    BinAccumulator accumulate = BinAccumulator::count;
    std::int32_t shared = 0;
    std::int32_t vector = 0;
    std::int32_t first_dimension = 0;
    std::int32_t closed_last = 0;
};

// How many bins of `accumulate`'s accumulators one block's shared-memory copy holds.
std::int64_t shared_histogram_bins(BinAccumulator accumulate);

// gk_histogram over `params.size` elements on the device's current stream: counts in shared memory
// per block where the bins fit (params.shared and params.vector are decided here), else with
// global atomics. params.out holds zeroed accumulators.
void launch_histogram(const Device& device, HistogramParams params);

// gk_histogram_bin_index: one dimension's bins added to the linear bins at params.out.
void launch_histogram_bin_index(const Device& device, const HistogramParams& params);

}  // namespace gpukit::detail
