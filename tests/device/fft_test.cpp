// tests/device/fft_test.cpp: gpukit::fft (gpukit/fft.hpp) against a direct O(n^2) DFT made here on
// the host: lengths that are powers of two, odd, prime (Bluestein's path on the simulator) and 1;
// real transforms both ways, several axes of a transposed view, padding and truncation, each
// normalisation, NumPy's errors. tests/python/array/test_fft.py compares every function with
// numpy.fft.
#include <cmath>
#include <complex>
#include <numbers>
#include <random>

#include "device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

using Complex = std::complex<double>;

std::vector<Complex> random_complex(std::size_t n, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> uniform(0.5, 2.0);  // never zero
    std::vector<Complex> values(n);
    for (auto& v : values) v = {uniform(random), -uniform(random)};
    return values;
}

// sum_j x[j * stride] exp(-+2 pi i jk / n), for n values of x.
std::vector<Complex> direct_dft(const std::vector<Complex>& x, bool inverse = false) {
    const std::size_t n = x.size();
    std::vector<Complex> out(n);
    for (std::size_t k = 0; k < n; ++k) {
        Complex sum = 0;
        for (std::size_t j = 0; j < n; ++j) {
            const double angle =
                (inverse ? 2 : -2) * std::numbers::pi * static_cast<double>((j * k) % n) / static_cast<double>(n);
            sum += x[j] * Complex(std::cos(angle), std::sin(angle));
        }
        out[k] = sum;
    }
    return out;
}

double max_error(const std::vector<Complex>& got, const std::vector<Complex>& want) {
    double error = 0, scale = 1;
    for (std::size_t i = 0; i < want.size(); ++i) {
        error = std::max(error, std::abs(got[i] - want[i]));
        scale = std::max(scale, std::abs(want[i]));
    }
    return error / scale;
}

Array device_complex(const std::vector<Complex>& values, Shape shape) {
    return Array::from_host(std::span<const Complex>(values), std::move(shape));
}

class Fft : public DeviceTest {};

TEST_F(Fft, EveryLengthMatchesTheDirectTransform) {
    for (std::size_t n : {1, 2, 3, 4, 5, 7, 8, 12, 16, 30, 97, 128, 210, 243, 1000, 1009}) {
        const auto x = random_complex(n, static_cast<unsigned>(n));
        const Array a = device_complex(x, {static_cast<std::int64_t>(n)});
        EXPECT_LT(max_error(fft::fft(a).to_vector<Complex>(), direct_dft(x)), 1e-13) << "n = " << n;
        std::vector<Complex> inverse = direct_dft(x, true);
        for (auto& v : inverse) v /= static_cast<double>(n);
        EXPECT_LT(max_error(fft::ifft(a).to_vector<Complex>(), inverse), 1e-13) << "n = " << n;
        // Single precision: complex64 in, complex64 out.
        const Array single = a.astype(DType::complex64);
        const Array spectrum = fft::fft(single);
        ASSERT_EQ(spectrum.dtype(), DType::complex64);
        const auto got = spectrum.astype(DType::complex128).to_vector<Complex>();
        EXPECT_LT(max_error(got, direct_dft(single.astype(DType::complex128).to_vector<Complex>())), 1e-6)
            << "n = " << n;
    }
}

TEST_F(Fft, RealTransformsBothWays) {
    for (std::int64_t n : {1, 2, 5, 6, 97, 256}) {
        const auto x = random_complex(static_cast<std::size_t>(n), 7);
        std::vector<double> real(x.size());
        std::vector<Complex> as_complex(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) as_complex[i] = real[i] = x[i].real();
        const Array a = Array::from_host(std::span<const double>(real), {n});
        const Array spectrum = fft::rfft(a);
        ASSERT_EQ(spectrum.shape(), Shape{n / 2 + 1});
        auto full = direct_dft(as_complex);
        full.resize(static_cast<std::size_t>(n / 2 + 1));
        EXPECT_LT(max_error(spectrum.to_vector<Complex>(), full), 1e-13) << "n = " << n;
        if (n == 1) continue;  // irfft's default length 2 (m - 1) is 0 for one input
        const Array back = fft::irfft(spectrum, n);
        ASSERT_EQ(back.dtype(), DType::float64);
        const auto values = back.to_vector<double>();
        for (std::size_t i = 0; i < real.size(); ++i) EXPECT_NEAR(values[i], real[i], 1e-13) << "n = " << n;
    }
}

TEST_F(Fft, SeveralAxesOfATransposedViewPaddedAndTruncated) {
    // 3 x 4 x 5, seen transposed (5, 3, 4); fftn over axes (0, 2) with s = (7, 2): axis 0 padded
    // from 5 to 7, axis 2 truncated from 4 to 2. The reference transforms axis by axis.
    const auto x = random_complex(60, 3);
    const Array a = device_complex(x, {3, 4, 5});
    const std::int64_t perm[] = {2, 0, 1};
    const Array t = a.transpose(perm);
    const Array got = fft::fftn(t, fft::Sizes{7, 2}, fft::Axes{0, 2});
    ASSERT_EQ(got.shape(), (Shape{7, 3, 2}));
    const auto values = got.to_vector<Complex>();
    for (std::int64_t j = 0; j < 3; ++j) {
        // The reference: y[u, j, v] = sum_{i<5, k<2} a[j, k, i] w7^(iu) w2^(kv).
        for (std::int64_t u = 0; u < 7; ++u)
            for (std::int64_t v = 0; v < 2; ++v) {
                Complex sum = 0;
                for (std::int64_t i = 0; i < 5; ++i)
                    for (std::int64_t k = 0; k < 2; ++k) {
                        const double angle = -2 * std::numbers::pi *
                                             (static_cast<double>(i * u) / 7.0 + static_cast<double>(k * v) / 2.0);
                        sum += x[static_cast<std::size_t>(j * 20 + k * 5 + i)] * std::polar(1.0, angle);
                    }
                EXPECT_LT(std::abs(values[static_cast<std::size_t>(u * 6 + j * 2 + v)] - sum), 1e-12)
                    << "u " << u << " j " << j << " v " << v;
            }
    }
}

TEST_F(Fft, MultiDimensionalRealTransformsRoundTrip) {
    std::vector<double> real(4 * 6 * 5);
    std::mt19937 random(11);
    std::uniform_real_distribution<double> uniform(0.5, 2.0);
    for (auto& v : real) v = uniform(random);
    const Array a = Array::from_host(std::span<const double>(real), {4, 6, 5});
    const Array spectrum = fft::rfftn(a);
    ASSERT_EQ(spectrum.shape(), (Shape{4, 6, 3}));
    // rfftn is fftn's first half along the last axis.
    const auto full = fft::fftn(a).index({Slice{}, Slice{}, Slice{std::nullopt, 3, std::nullopt}}).copy();
    EXPECT_LT(max_error(spectrum.to_vector<Complex>(), full.to_vector<Complex>()), 1e-13);
    const Array back = fft::irfftn(spectrum, fft::Sizes{4, 6, 5});
    const auto values = back.to_vector<double>();
    for (std::size_t i = 0; i < real.size(); ++i) EXPECT_NEAR(values[i], real[i], 1e-13);
}

TEST_F(Fft, EachNormScalesItsDirection) {
    const auto x = random_complex(12, 5);
    const Array a = device_complex(x, {12});
    const auto plain = fft::fft(a).to_vector<Complex>();
    const auto ortho = fft::fft(a, std::nullopt, -1, fft::Norm::ortho).to_vector<Complex>();
    const auto forward = fft::fft(a, std::nullopt, -1, fft::Norm::forward).to_vector<Complex>();
    for (std::size_t i = 0; i < x.size(); ++i) {
        EXPECT_LT(std::abs(ortho[i] - plain[i] / std::sqrt(12.0)), 1e-13);
        EXPECT_LT(std::abs(forward[i] - plain[i] / 12.0), 1e-13);
    }
    const auto back = fft::ifft(fft::fft(a, std::nullopt, -1, fft::Norm::forward), std::nullopt, -1, fft::Norm::forward)
                          .to_vector<Complex>();
    EXPECT_LT(max_error(back, x), 1e-13);
}

TEST_F(Fft, FrequenciesAndShifts) {
    EXPECT_EQ(fft::fftfreq(5, 0.5).to_vector<double>(), (std::vector<double>{0, 0.4, 0.8, -0.8, -0.4}));
    EXPECT_EQ(fft::rfftfreq(6).to_vector<double>(), (std::vector<double>{0, 1.0 / 6, 2.0 / 6, 0.5}));
    const Array freq = fft::fftfreq(6);
    EXPECT_EQ(fft::fftshift(freq).to_vector<double>(),
              (std::vector<double>{-0.5, -2.0 / 6, -1.0 / 6, 0, 1.0 / 6, 2.0 / 6}));
    EXPECT_EQ(fft::ifftshift(fft::fftshift(freq)).to_vector<double>(), freq.to_vector<double>());
}

TEST_F(Fft, BadInputsRaiseNumpysErrors) {
    const Array a = device_complex(random_complex(4, 1), {4});
    try {
        fft::fft(a, 0);
        FAIL() << "n = 0 was taken";
    } catch (const InvalidArgumentError& e) {
        EXPECT_STREQ(e.what(), "Invalid number of FFT data points (0) specified.");
    }
    EXPECT_THROW(fft::fft(a, std::nullopt, 1), AxisError);
    EXPECT_THROW(fft::fftn(a, fft::Sizes{2, 2}, fft::Axes{0}), InvalidArgumentError);
    EXPECT_THROW(fft::rfft(a), DTypeError);
    EXPECT_THROW(fft::irfft(a.index({Slice{std::nullopt, 1, std::nullopt}})), InvalidArgumentError);  // n = 0
    try {
        fft::norm_from_name("sideways");
        FAIL();
    } catch (const InvalidArgumentError& e) {
        EXPECT_STREQ(e.what(), "Invalid norm value sideways; should be \"backward\",\"ortho\" or \"forward\".");
    }
    const Array wrong = Array::empty({5}, DType::complex128);
    EXPECT_THROW(fft::fft(a, std::nullopt, -1, fft::Norm::backward, wrong), InvalidArgumentError);
}

TEST_F(Fft, FftConvolveMatchesTheDirectSums) {
    std::vector<double> signal_values(40 * 7), kernel_values(5 * 3);
    std::mt19937 random(2);
    std::uniform_real_distribution<double> uniform(0.5, 2.0);
    for (auto& v : signal_values) v = uniform(random);
    for (auto& v : kernel_values) v = uniform(random);
    const Array in1 = Array::from_host(std::span<const double>(signal_values), {40, 7});
    const Array in2 = Array::from_host(std::span<const double>(kernel_values), {5, 3});
    for (ConvolveMode mode : {ConvolveMode::full, ConvolveMode::same, ConvolveMode::valid}) {
        const Array by_fft = signal::fftconvolve(in1, in2, mode);
        const Array direct = signal::convolve(in1, in2, mode);
        ASSERT_EQ(by_fft.shape(), direct.shape());
        const auto got = by_fft.to_vector<double>();
        const auto want = direct.to_vector<double>();
        for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12 * 15 * 4) << i;
        // Integers through method fft: rounded back to exact sums.
        const Array a = in1.astype(DType::int32), b = in2.astype(DType::int32);
        EXPECT_EQ(signal::convolve(a, b, mode, signal::ConvolveMethod::fft).to_vector<std::int32_t>(),
                  signal::convolve(a, b, mode).to_vector<std::int32_t>());
    }
}

}  // namespace
}  // namespace gpukit::testing
