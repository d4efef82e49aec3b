// tests/backends/sim/cpu_fft_test.cpp: the simulator's one-dimensional FFT (src/backends/sim/cpu_fft.hpp)
// at lengths too long for a direct DFT of every output: mixed radix (2^14, 3^8, 2 * 3 * 5 * 7 * 11 * 13)
// and Bluestein (the prime 65537, 2 * 4099): selected outputs against their direct sums, and the
// inverse of the forward transform giving n times the input back.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <random>
#include <vector>

#include "backends/sim/cpu_fft.hpp"

namespace gpukit::detail::sim {
namespace {

using Complex = std::complex<double>;

TEST(CpuFft, LongLengthsMatchDirectSumsAndInvert) {
    for (std::size_t n :
         {std::size_t{1} << 14, std::size_t{6561}, std::size_t{30030}, std::size_t{65537}, std::size_t{8198}}) {
        std::mt19937 random(static_cast<unsigned>(n));
        std::uniform_real_distribution<double> uniform(-1.0, 1.0);
        std::vector<Complex> x(n);
        for (auto& v : x) v = {uniform(random), uniform(random)};
        std::vector<Complex> y = x, scratch;
        const CpuFft fft(n);
        fft.run(y.data(), false, scratch);
        double scale = 0;
        for (const auto& v : y) scale = std::max(scale, std::abs(v));
        for (std::size_t k : {std::size_t{0}, std::size_t{1}, n / 3, n / 2, n - 1}) {
            Complex sum = 0;
            for (std::size_t j = 0; j < n; ++j) {
                const double angle = -2 * std::numbers::pi * static_cast<double>((j * k) % n) / static_cast<double>(n);
                sum += x[j] * std::polar(1.0, angle);
            }
            EXPECT_LT(std::abs(y[k] - sum), 1e-12 * scale) << "n = " << n << ", k = " << k;
        }
        fft.run(y.data(), true, scratch);
        double error = 0;
        for (std::size_t j = 0; j < n; ++j) error = std::max(error, std::abs(y[j] / static_cast<double>(n) - x[j]));
        EXPECT_LT(error, 1e-13) << "n = " << n;
    }
}

}  // namespace
}  // namespace gpukit::detail::sim
