// tests/device/convolution_test.cpp: the convolutions and filters (gpukit/convolution.hpp,
// gpukit/filters.hpp) against sums made here on the host: numpy.convolve's modes, an N-D
// correlation under every boundary mode (a kernel longer than the input too), convolve2d's
// boundaries, integer sums that wrap, the separable filters. ConvolutionGpuShapes runs the GPU's
// kernels (the 1-D line, the 2-D tile, the generic kernel with weights in constant memory) on the
// simulator. The SciPy comparison of every option is tests/python/array/test_convolution.py.
#include <array>
#include <cmath>
#include <complex>
#include <random>

#include "device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

std::vector<double> random_values(std::size_t n, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> uniform(0.5, 2.0);  // never zero
    std::vector<double> values(n);
    for (auto& v : values) v = uniform(random);
    return values;
}

// The index an out-of-range index reads under each mode, or -1 for the constant.
std::int64_t extended(std::int64_t i, std::int64_t n, ndimage::BoundaryMode mode) {
    if (i >= 0 && i < n) return i;
    switch (mode) {
        case ndimage::BoundaryMode::constant: return -1;
        case ndimage::BoundaryMode::nearest: return i < 0 ? 0 : n - 1;
        case ndimage::BoundaryMode::wrap: return ((i % n) + n) % n;
        case ndimage::BoundaryMode::reflect: {  // d c b a | a b c d: one reflection after another
            while (i < 0 || i >= n) i = i < 0 ? -1 - i : 2 * n - 1 - i;
            return i;
        }
        default: {  // mirror: d c b | a b c d | c b a
            if (n == 1) return 0;
            while (i < 0 || i >= n) i = i < 0 ? -i : 2 * n - 2 - i;
            return i;
        }
    }
}

// scipy.ndimage.correlate of a 2-D image (rows x cols) on the host.
std::vector<double> reference_correlate2d(const std::vector<double>& image, std::int64_t rows, std::int64_t cols,
                                          const std::vector<double>& w, std::int64_t wr, std::int64_t wc,
                                          ndimage::BoundaryMode mode, double cval) {
    std::vector<double> out(static_cast<std::size_t>(rows * cols));
    for (std::int64_t y = 0; y < rows; ++y)
        for (std::int64_t x = 0; x < cols; ++x) {
            double sum = 0;
            for (std::int64_t ky = 0; ky < wr; ++ky)
                for (std::int64_t kx = 0; kx < wc; ++kx) {
                    const std::int64_t iy = extended(y + ky - wr / 2, rows, mode);
                    const std::int64_t ix = extended(x + kx - wc / 2, cols, mode);
                    const double value = iy < 0 || ix < 0 ? cval : image[static_cast<std::size_t>(iy * cols + ix)];
                    sum += w[static_cast<std::size_t>(ky * wc + kx)] * value;
                }
            out[static_cast<std::size_t>(y * cols + x)] = sum;
        }
    return out;
}

void expect_near(const std::vector<double>& actual, const std::vector<double>& expected, double tolerance) {
    ASSERT_EQ(actual.size(), expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i)
        ASSERT_NEAR(actual[i], expected[i], tolerance * (1 + std::abs(expected[i]))) << "element " << i;
}

constexpr ndimage::BoundaryMode every_mode[] = {ndimage::BoundaryMode::reflect, ndimage::BoundaryMode::constant,
                                                ndimage::BoundaryMode::nearest, ndimage::BoundaryMode::mirror,
                                                ndimage::BoundaryMode::wrap};

std::vector<double> as_float32(const std::vector<double>& values) {
    std::vector<double> rounded;
    for (const double v : values) rounded.push_back(static_cast<float>(v));
    return rounded;
}

// ndimage.correlate of an image under `modes`, in float64 and, where asked, float32 (SciPy's
// double sums rounded once).
void check_correlate2d(std::int64_t rows, std::int64_t cols, std::int64_t wr, std::int64_t wc,
                       std::span<const ndimage::BoundaryMode> modes = every_mode, bool float32 = true) {
    const std::vector<double> image = as_float32(random_values(static_cast<std::size_t>(rows * cols), 1));
    const std::vector<double> w = random_values(static_cast<std::size_t>(wr * wc), 2);
    const Array x = Array::from_host(std::span<const double>(image), {rows, cols});
    const Array weights = Array::from_host(std::span<const double>(w), {wr, wc});
    for (const ndimage::BoundaryMode mode : modes) {
        SCOPED_TRACE(::testing::Message() << rows << "x" << cols << " image, " << wr << "x" << wc << " weights, mode "
                                          << static_cast<int>(mode));
        const std::vector<double> expected = reference_correlate2d(image, rows, cols, w, wr, wc, mode, 1.5);
        const ndimage::FilterOptions options{.mode = {mode}, .cval = 1.5, .origin = {}, .output = {}};
        expect_near(ndimage::correlate(x, weights, options).to_vector<double>(), expected, 1e-12);
        if (!float32) continue;
        const Array single = ndimage::correlate(x.astype(DType::float32), weights, options);
        ASSERT_EQ(single.dtype(), DType::float32);
        expect_near(single.astype(DType::float64).to_vector<double>(), as_float32(expected), 1e-7);
    }
}

// The same correlation along each axis of a 3-D array (the line shape on a GPU) under `modes`.
using Shape3 = std::array<std::int64_t, 3>;
void check_correlate1d_axes(std::int64_t taps, std::span<const ndimage::BoundaryMode> modes = every_mode,
                            Shape3 shape = {3, 5, 300}) {
    const std::int64_t size = shape[0] * shape[1] * shape[2];
    const std::vector<double> data = random_values(static_cast<std::size_t>(size), 3);
    const std::vector<double> w = random_values(static_cast<std::size_t>(taps), 4);
    const Array x = Array::from_host(std::span<const double>(data), {shape[0], shape[1], shape[2]});
    const Array weights = Array::from_host(std::span<const double>(w), {taps});
    for (std::int64_t axis = 0; axis < 3; ++axis)
        for (const ndimage::BoundaryMode mode : modes) {
            SCOPED_TRACE(::testing::Message()
                         << "axis " << axis << ", " << taps << " taps, mode " << static_cast<int>(mode));
            std::vector<double> expected(data.size());
            const std::int64_t strides[3] = {shape[1] * shape[2], shape[2], 1};
            for (std::int64_t i = 0; i < size; ++i) {
                const std::int64_t at = i / strides[axis] % shape[axis];
                double sum = 0;
                for (std::int64_t k = 0; k < taps; ++k) {
                    const std::int64_t from = extended(at + k - taps / 2, shape[axis], mode);
                    sum += w[static_cast<std::size_t>(k)] *
                           (from < 0 ? -0.5 : data[static_cast<std::size_t>(i + (from - at) * strides[axis])]);
                }
                expected[static_cast<std::size_t>(i)] = sum;
            }
            const ndimage::FilterOptions options{.mode = {mode}, .cval = -0.5, .origin = {}, .output = {}};
            expect_near(ndimage::correlate1d(x, weights, axis, options).to_vector<double>(), expected, 1e-12);
        }
}

using Lengths = std::pair<std::int64_t, std::int64_t>;
constexpr Lengths every_length[] = {{40, 7}, {6, 9}, {5, 5}, {1, 1}, {2500, 31}};

// numpy.convolve's three modes with a signal longer, shorter and as long as the kernel.
void check_numpy_convolve(std::span<const Lengths> lengths = every_length) {
    for (const auto& [n, k] : lengths) {
        const std::vector<double> a = random_values(static_cast<std::size_t>(n), 5);
        const std::vector<double> v = random_values(static_cast<std::size_t>(k), 6);
        std::vector<double> full(static_cast<std::size_t>(n + k - 1), 0.0);
        for (std::int64_t i = 0; i < n; ++i)
            for (std::int64_t j = 0; j < k; ++j)
                full[static_cast<std::size_t>(i + j)] +=
                    a[static_cast<std::size_t>(i)] * v[static_cast<std::size_t>(j)];
        const Array da = Array::from_host(std::span<const double>(a), {n});
        const Array dv = Array::from_host(std::span<const double>(v), {k});
        SCOPED_TRACE(::testing::Message() << n << " and " << k << " elements");
        expect_near(convolve(da, dv, ConvolveMode::full).to_vector<double>(), full, 1e-12);
        const std::int64_t longer = std::max(n, k), shorter = std::min(n, k);
        const auto slice = [&](std::int64_t first, std::int64_t count) {
            return std::vector<double>(full.begin() + first, full.begin() + first + count);
        };
        expect_near(convolve(da, dv, ConvolveMode::same).to_vector<double>(), slice((shorter - 1) / 2, longer), 1e-12);
        expect_near(convolve(da, dv, ConvolveMode::valid).to_vector<double>(), slice(shorter - 1, longer - shorter + 1),
                    1e-12);
    }
}

class Convolution : public DeviceTest {};
class ConvolutionGpuShapes : public GpuShapesTest {};

TEST_F(Convolution, NumpyConvolveModesMatchTheFullSums) { check_numpy_convolve(); }

TEST_F(Convolution, CorrelateEveryModeAsTheHostReference) {
    check_correlate2d(9, 13, 3, 5);
    check_correlate2d(4, 3, 7, 2);  // the kernel larger than the image: extensions repeat
}

TEST_F(Convolution, Correlate1dAlongEveryAxis) { check_correlate1d_axes(4); }

TEST_F(Convolution, IntegerSumsWrapAsNumPys) {
    const std::vector<std::int32_t> a{100, -7, 55, 3, 120}, v{127, 2, -3};
    const Array result = convolve(Array::from_host(std::span<const std::int32_t>(a), {5}).astype(DType::int8),
                                  Array::from_host(std::span<const std::int32_t>(v), {3}).astype(DType::int8));
    ASSERT_EQ(result.dtype(), DType::int8);
    std::vector<std::int32_t> expected(7, 0);
    for (std::size_t i = 0; i < 5; ++i)
        for (std::size_t j = 0; j < 3; ++j)
            expected[i + j] += static_cast<std::int8_t>(a[i]) * static_cast<std::int8_t>(v[j]);
    const std::vector<std::int8_t> got = result.to_vector<std::int8_t>();
    for (std::size_t i = 0; i < 7; ++i) EXPECT_EQ(got[i], static_cast<std::int8_t>(expected[i])) << "element " << i;
}

TEST_F(Convolution, Convolve2dBoundaries) {
    const std::vector<double> image = random_values(6 * 7, 7), w = random_values(3 * 3, 8);
    const Array x = Array::from_host(std::span<const double>(image), {6, 7});
    const Array weights = Array::from_host(std::span<const double>(w), {3, 3});
    // 'same' with a 3x3 kernel is ndimage's convolve with the flipped weights' centre.
    const std::pair<signal::Boundary, ndimage::BoundaryMode> pairs[] = {
        {signal::Boundary::fill, ndimage::BoundaryMode::constant},
        {signal::Boundary::wrap, ndimage::BoundaryMode::wrap},
        {signal::Boundary::symmetric, ndimage::BoundaryMode::reflect}};
    std::vector<double> flipped(w.rbegin(), w.rend());
    for (const auto& [boundary, mode] : pairs) {
        const Array result = signal::convolve2d(x, weights, {ConvolveMode::same, boundary, 0.25});
        expect_near(result.to_vector<double>(), reference_correlate2d(image, 6, 7, flipped, 3, 3, mode, 0.25), 1e-12);
    }
}

TEST_F(Convolution, SeparableFiltersAreTheirPasses) {
    const std::vector<double> data = random_values(20 * 30, 9);
    const Array x = Array::from_host(std::span<const double>(data), {20, 30});
    const std::vector<double> ones(9, 1.0 / 9.0);
    const Array mean = Array::from_host(std::span<const double>(ones), {3, 3});
    expect_near(ndimage::uniform_filter(x, {3}).to_vector<double>(), ndimage::correlate(x, mean).to_vector<double>(),
                1e-12);
    // A Gaussian of sigma 1 and truncate 1: the weights e^-1/2, 1, e^-1/2, normalised.
    const double e = std::exp(-0.5), total = 1 + 2 * e;
    const std::vector<double> g{e / total, 1 / total, e / total};
    std::vector<double> g2;
    for (const double a : g)
        for (const double b : g) g2.push_back(a * b);
    const Array gauss = Array::from_host(std::span<const double>(g2), {3, 3});
    ndimage::GaussianOptions gaussian;
    gaussian.truncate = 1.0;
    expect_near(ndimage::gaussian_filter(x, {1.0}, gaussian).to_vector<double>(),
                ndimage::correlate(x, gauss).to_vector<double>(), 1e-12);
}

TEST_F(Convolution, BadArgumentsAreSciPysErrors) {
    const Array x = Array::from_host(std::span<const double>(random_values(6, 1)), {2, 3});
    const Array y = Array::from_host(std::span<const double>(random_values(6, 2)), {3, 2});
    EXPECT_THROW(signal::convolve(x, y, ConvolveMode::valid), InvalidArgumentError);
    EXPECT_THROW(signal::convolve2d(x, y, {ConvolveMode::valid}), InvalidArgumentError);
    EXPECT_THROW(ndimage::boundary_mode_from_name("reflective"), InvalidArgumentError);
    EXPECT_THROW(signal::boundary_from_name("zero"), InvalidArgumentError);
    EXPECT_THROW(convolve_mode_from_name("middle"), InvalidArgumentError);
    EXPECT_THROW(convolve(x, y), InvalidArgumentError);  // not 1-D
    EXPECT_THROW(ndimage::correlate(x, y.reshape({6})), InvalidArgumentError);
    EXPECT_THROW(
        ndimage::correlate(x, y, {.mode = {ndimage::BoundaryMode::reflect}, .cval = 0, .origin = {2}, .output = {}}),
        InvalidArgumentError);
}

// Each GPU shape once (the checkers run this one): the 2-D tile (two tiles down and across, partial
// ones at the edges), the line along a contiguous and a strided axis, several tiles of one line;
// each with taps unrolled into register windows and with more taps than those.
TEST_F(ConvolutionGpuShapes, LinesAndTilesAsTheHostReference) {
    constexpr ndimage::BoundaryMode reflect[] = {ndimage::BoundaryMode::reflect};
    constexpr ndimage::BoundaryMode wrap[] = {ndimage::BoundaryMode::wrap};
    check_correlate2d(70, 40, 5, 5, reflect);
    check_correlate1d_axes(31, wrap);
    constexpr Lengths long_line[] = {{2500, 31}};
    check_numpy_convolve(long_line);
    // Taps past the unrolled ones: the loops that read the stage per tap.
    check_correlate2d(40, 20, 33, 3, reflect, false);
    check_correlate1d_axes(40, reflect);
    // Tiles and line runs whose inputs all lie inside (no extension: the staging's fast path),
    // beside the edge ones; along a strided axis too.
    check_correlate2d(200, 100, 5, 5, reflect);
    constexpr Lengths three_tiles[] = {{5000, 31}};
    check_numpy_convolve(three_tiles);
    constexpr ndimage::BoundaryMode constant[] = {ndimage::BoundaryMode::constant};
    check_correlate1d_axes(31, constant, {4500, 2, 1});
}

// Every mode through each shape (a module each: not under the checkers, whose kernels are the
// shapes above).
TEST_F(ConvolutionGpuShapes, EveryModeThroughEachShape) {
    check_correlate2d(70, 40, 5, 5, every_mode, false);
    check_correlate1d_axes(31);
    constexpr Lengths shorter_signal[] = {{6, 9}};
    check_numpy_convolve(shorter_signal);
}

TEST_F(ConvolutionGpuShapes, GenericKernelAndComplexSums) {
    // 3-D weights: neither a line nor a tile (the generic kernel with weights in constant memory).
    const std::vector<double> data = random_values(4 * 5 * 6, 10), w = random_values(2 * 3 * 2, 11);
    const Array x = Array::from_host(std::span<const double>(data), {4, 5, 6});
    const Array weights = Array::from_host(std::span<const double>(w), {2, 3, 2});
    const Array result = ndimage::correlate(x, weights, {.mode = {ndimage::BoundaryMode::wrap}});
    const std::vector<double> got = result.to_vector<double>();
    for (std::int64_t i = 0; i < 4; ++i)
        for (std::int64_t j = 0; j < 5; ++j)
            for (std::int64_t k = 0; k < 6; ++k) {
                double sum = 0;
                for (std::int64_t a = 0; a < 2; ++a)
                    for (std::int64_t b = 0; b < 3; ++b)
                        for (std::int64_t c = 0; c < 2; ++c)
                            sum += w[static_cast<std::size_t>((a * 3 + b) * 2 + c)] *
                                   data[static_cast<std::size_t>(((i + a - 1 + 4) % 4 * 5 + (j + b - 1 + 5) % 5) * 6 +
                                                                 (k + c - 1 + 6) % 6)];
                ASSERT_NEAR(got[static_cast<std::size_t>((i * 5 + j) * 6 + k)], sum, 1e-12);
            }
    // Complex sums: (1 + 2i) * conj(1 - i) summed.
    const std::vector<std::complex<double>> a{{1, 2}, {3, -1}, {0.5, 0.5}}, v{{1, -1}, {2, 0.5}};
    const Array ca = Array::from_host(std::span<const std::complex<double>>(a), {3});
    const Array cv = Array::from_host(std::span<const std::complex<double>>(v), {2});
    const std::vector<std::complex<double>> c = correlate(ca, cv).to_vector<std::complex<double>>();
    ASSERT_EQ(c.size(), 2U);
    for (std::size_t k = 0; k < 2; ++k) {
        const std::complex<double> expected = a[k] * std::conj(v[0]) + a[k + 1] * std::conj(v[1]);
        EXPECT_NEAR(std::abs(c[k] - expected), 0.0, 1e-12) << "lag " << k;
    }
}

}  // namespace
}  // namespace gpukit::testing
