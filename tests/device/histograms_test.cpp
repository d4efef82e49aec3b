// tests/device/histograms_test.cpp: bincount, histogram, histogramdd and digitize
// (gpukit/histograms.hpp) against counts made here on the host: every real dtype, sizes from 0 to
// several blocks, views, shared-memory and global-atomic bins, explicit edges with repeats,
// weights. HistogramsGpuShapes runs the GPU's specialised kernels and 16-byte loads on the
// simulator too. The NumPy comparison of every option is tests/python/array/test_histograms.py.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

std::vector<double> random_values(std::size_t n, unsigned seed, double low, double high, bool integers) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> uniform(low, high);
    std::vector<double> values(n);
    for (auto& v : values) v = integers ? std::floor(uniform(random)) : uniform(random);
    return values;
}

// The bin of x among `edges` as NumPy's histogram bins it (last bin closed), or -1 outside.
std::int64_t reference_bin(const std::vector<double>& edges, double x) {
    if (!(x >= edges.front() && x <= edges.back())) return -1;
    if (x == edges.back()) return static_cast<std::int64_t>(edges.size()) - 2;
    return std::upper_bound(edges.begin(), edges.end(), x) - edges.begin() - 1;
}

std::vector<std::int64_t> reference_counts(const std::vector<double>& values, const std::vector<double>& edges) {
    std::vector<std::int64_t> counts(edges.size() - 1, 0);
    for (const double x : values)
        if (const std::int64_t bin = reference_bin(edges, x); bin >= 0) ++counts[static_cast<std::size_t>(bin)];
    return counts;
}

// The values the device holds after conversion to `dtype` (integers and the floats here are exact).
std::vector<double> held(const Array& device) { return device.astype(DType::float64).to_vector<double>(); }

void check_histograms(DType dtype, std::int64_t n, unsigned seed) {
    SCOPED_TRACE(std::string(to_string(dtype)) + ", " + std::to_string(n) + " elements");
    const bool integers = kind(dtype) != DTypeKind::floating;
    const double high = dtype == DType::bool_ ? 2 : dtype == DType::int8 ? 120 : dtype == DType::uint8 ? 250 : 900;
    const double low = kind(dtype) == DTypeKind::signed_integer || !integers ? -high : 0;
    const std::vector<double> stored = random_values(static_cast<std::size_t>(n), seed, low, high, integers);
    const Array x = Array::from_host(std::span<const double>(stored), {n}).astype(dtype);
    const std::vector<double> values = held(x);

    // Equal-width bins over a range: the shared-memory path (37 bins) and the global one (20000;
    // float16 cannot tell that many edges apart).
    for (const std::int64_t bins : {std::int64_t{37}, std::int64_t{dtype == DType::float16 ? 37 : 20000}}) {
        const Histogram result = histogram(x, {.bins = bins, .range = BinRange{low / 2, high / 2}, .weights = {}});
        const std::vector<double> edges = held(result.edges);
        ASSERT_EQ(edges.size(), static_cast<std::size_t>(bins + 1));
        EXPECT_EQ(result.hist.to_vector<std::int64_t>(), reference_counts(values, edges));
    }
    // Explicit edges with a repeat, and weights summed per bin.
    const std::vector<double> edge_values{low, low / 3, 0, 0, high / 4, high};
    const Array edges = Array::from_host(std::span<const double>(edge_values), {6});
    const std::vector<double> weight_values = random_values(static_cast<std::size_t>(n), seed + 1, -1, 1, false);
    const Array weights = Array::from_host(std::span<const double>(weight_values), {n});
    const Histogram weighted = histogram(x, {.bins = edges, .range = {}, .weights = weights});
    std::vector<double> expected(5, 0.0);
    for (std::size_t k = 0; k < values.size(); ++k)
        if (const std::int64_t bin = reference_bin(edge_values, values[k]); bin >= 0)
            expected[static_cast<std::size_t>(bin)] += weight_values[k];
    const std::vector<double> sums = weighted.hist.to_vector<double>();
    for (std::size_t b = 0; b < expected.size(); ++b) EXPECT_NEAR(sums[b], expected[b], 1e-9) << "bin " << b;

    if (integers && low >= 0) {
        std::vector<std::int64_t> counts(static_cast<std::size_t>(high) + 1, 0);
        for (const double v : values) ++counts[static_cast<std::size_t>(v)];
        const std::vector<std::int64_t> result =
            bincount(x, std::nullopt, static_cast<std::int64_t>(high) + 1).to_vector<std::int64_t>();
        EXPECT_EQ(result, counts);
    }
}

class Histograms : public DeviceTest {};
class HistogramsGpuShapes : public GpuShapesTest {};

TEST_F(Histograms, EveryDtypeAndSizeCountsAsTheReference) {
    for (const DType dtype : {DType::bool_, DType::int8, DType::uint8, DType::int16, DType::int32, DType::uint32,
                              DType::int64, DType::uint64, DType::float16, DType::float32, DType::float64})
        for (const std::int64_t n : {0, 1, 7, 4097}) check_histograms(dtype, n, static_cast<unsigned>(n) + 3);
}

TEST_F(Histograms, ManyBlocksAndEveryValueInOneBin) {
    const std::int64_t n = 3 * 65536 + 5;
    const Array same = full({n}, Scalar(std::int64_t{42}), DType::int32);
    const auto counts = histogram(same, {.bins = std::int64_t{256}, .range = BinRange{0, 255}, .weights = {}})
                            .hist.to_vector<std::int64_t>();
    EXPECT_EQ(counts[42], n);
    EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), std::int64_t{0}), n);
    EXPECT_EQ(bincount(same).to_vector<std::int64_t>().back(), n);
}

TEST_F(Histograms, ViewsAreBinnedElementByElement) {
    const std::vector<double> stored = random_values(9001, 5, -50, 50, false);
    const Array base = Array::from_host(std::span<const double>(stored), {9001}).astype(DType::float32);
    for (const Array& view : {base.index({Slice{1, {}, {}}}), base.index({Slice{{}, {}, -3}})}) {
        const Histogram result = histogram(view, {.bins = std::int64_t{64}, .range = BinRange{-40, 40}, .weights = {}});
        EXPECT_EQ(result.hist.to_vector<std::int64_t>(), reference_counts(held(view), held(result.edges)));
    }
}

TEST_F(Histograms, HistogramddAndDigitize) {
    const std::int64_t n = 5001;
    const std::vector<double> xs = random_values(n, 8, -3, 3, false), ys = random_values(n, 9, 0, 10, true);
    const Array x = Array::from_host(std::span<const double>(xs), {n});
    const Array y = Array::from_host(std::span<const double>(ys), {n}).astype(DType::int16);
    const HistogramDD result = histogramdd({x, y}, {.bins = {std::int64_t{4}, std::int64_t{5}},
                                                    .ranges = {BinRange{-2, 2}, std::nullopt},
                                                    .weights = {},
                                                    .density = false});
    ASSERT_EQ(result.hist.shape(), (Shape{4, 5}));
    const std::vector<double> x_edges = held(result.edges[0]), y_edges = held(result.edges[1]);
    std::vector<double> expected(20, 0.0);
    for (std::int64_t k = 0; k < n; ++k) {
        const std::int64_t i = reference_bin(x_edges, xs[static_cast<std::size_t>(k)]);
        const std::int64_t j = reference_bin(y_edges, ys[static_cast<std::size_t>(k)]);
        if (i >= 0 && j >= 0) expected[static_cast<std::size_t>(i * 5 + j)] += 1;
    }
    EXPECT_EQ(result.hist.to_vector<double>(), expected);

    const std::vector<double> bin_values{-2, -1, -1, 0.5, 2};
    const std::vector<std::int64_t> where =
        digitize(x, Array::from_host(std::span<const double>(bin_values), {5})).to_vector<std::int64_t>();
    for (std::int64_t k = 0; k < n; ++k)
        EXPECT_EQ(where[static_cast<std::size_t>(k)],
                  std::upper_bound(bin_values.begin(), bin_values.end(), xs[static_cast<std::size_t>(k)]) -
                      bin_values.begin());
}

TEST_F(Histograms, BadArgumentsAreNumPysErrors) {
    const std::vector<double> negative{1, -1};
    const Array x = Array::from_host(std::span<const double>(negative), {2});
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, (void)bincount(x.astype(DType::int32))),
                    "no negative elements");
    expect_contains(GPUKIT_MESSAGE_OF(DTypeError, (void)bincount(x)), "according to the rule 'safe'");
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError,
                                      (void)histogram(x, {.bins = std::int64_t{0}, .range = {}, .weights = {}})),
                    "`bins` must be positive");
    expect_contains(
        GPUKIT_MESSAGE_OF(InvalidArgumentError, (void)histogram(x, {.bins = x, .range = {}, .weights = {}})),
        "must increase monotonically");
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError,
                                      (void)histogram(x, {.bins = std::string("often"), .range = {}, .weights = {}})),
                    "'often' is not a valid estimator");
    expect_contains(
        GPUKIT_MESSAGE_OF(
            InvalidArgumentError,
            (void)digitize(x, Array::from_host(std::span<const double>(std::vector<double>{1, 3, 2}), {3}))),
        "monotonically increasing or decreasing");
}

// The GPU's modules (one per dtype and mode) and 16-byte loads, with an unaligned view and a tail
// that is not a whole vector.
TEST_F(HistogramsGpuShapes, SpecialisedKernelsAndVectorLoadsCountAsTheReference) {
    for (const DType dtype : {DType::int8, DType::float32})
        for (const std::int64_t n : {1, 4097}) check_histograms(dtype, n, static_cast<unsigned>(n) + 11);
    const std::vector<double> stored = random_values(70001, 6, 0, 256, true);
    const Array values = Array::from_host(std::span<const double>(stored), {70001}).astype(DType::int32);
    const Array unaligned = values.index({Slice{3, {}, {}}});
    const Histogram result =
        histogram(unaligned, {.bins = std::int64_t{256}, .range = BinRange{0, 256}, .weights = {}});
    EXPECT_EQ(result.hist.to_vector<std::int64_t>(), reference_counts(held(unaligned), held(result.edges)));
    // Integers in 32-bit arithmetic: whole-number bins of width 1 and 2, values around the edges.
    const std::vector<double> around = random_values(70001, 10, -20, 280, true);
    for (const DType dtype : {DType::int16, DType::uint32, DType::uint8})
        for (const std::int64_t bins : {std::int64_t{256}, std::int64_t{128}}) {
            SCOPED_TRACE(std::string(to_string(dtype)) + ", " + std::to_string(bins) + " bins");
            const Array x = Array::from_host(std::span<const double>(around), {70001}).astype(dtype);
            const Histogram whole = histogram(x, {.bins = bins, .range = BinRange{0, 256}, .weights = {}});
            EXPECT_EQ(whole.hist.to_vector<std::int64_t>(), reference_counts(held(x), held(whole.edges)));
        }
    // Floats against whole-number edges: floor(x)'s bin, half of them on an edge.
    std::vector<double> floats = random_values(70001, 9, -3, 300, false);
    for (std::size_t k = 0; k < floats.size(); k += 2) floats[k] = std::floor(floats[k]);
    for (const DType dtype : {DType::float32, DType::float64, DType::float16}) {
        SCOPED_TRACE(std::string(to_string(dtype)));
        const Array x = Array::from_host(std::span<const double>(floats), {70001}).astype(dtype);
        const Histogram whole = histogram(x, {.bins = std::int64_t{128}, .range = BinRange{0, 256}, .weights = {}});
        EXPECT_EQ(whole.hist.to_vector<std::int64_t>(), reference_counts(held(x), held(whole.edges)));
    }
}

// bincount's length on the GPU's shapes: counts learn the largest value from the bins the blocks
// flush, sums (where a weight may be zero) from every value; past the guessed bins, a second pass.
TEST_F(HistogramsGpuShapes, BincountIsAsLongAsItsLargestValue) {
    for (const std::int64_t largest : {std::int64_t{0}, std::int64_t{4100}, std::int64_t{9000}}) {
        SCOPED_TRACE("largest " + std::to_string(largest));
        std::vector<double> stored = random_values(50001, 8, 0, static_cast<double>(largest), true);
        stored[777] = static_cast<double>(largest);
        const Array x = Array::from_host(std::span<const double>(stored), {50001}).astype(DType::int32);
        std::vector<std::int64_t> counts(static_cast<std::size_t>(largest) + 1, 0);
        for (const double v : stored) ++counts[static_cast<std::size_t>(v)];
        EXPECT_EQ(bincount(x).to_vector<std::int64_t>(), counts);
        std::vector<double> weight_values(stored.size(), 0.0);
        weight_values[3] = 2.5;
        const Array weights = Array::from_host(std::span<const double>(weight_values), {50001});
        const Array sums = bincount(x, weights);
        ASSERT_EQ(sums.size(), largest + 1);
        EXPECT_EQ(sums.to_vector<double>()[static_cast<std::size_t>(stored[3])], 2.5);
    }
    std::vector<double> negative(4099, 5);
    negative[4000] = -1;
    const Array x = Array::from_host(std::span<const double>(negative), {4099}).astype(DType::int16);
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, (void)bincount(x)), "no negative elements");
}

}  // namespace
}  // namespace gpukit::testing
