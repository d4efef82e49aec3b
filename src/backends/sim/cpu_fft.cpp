// src/backends/sim/cpu_fft.cpp: the simulator's one-dimensional FFT (see cpu_fft.hpp).
#include "backends/sim/cpu_fft.hpp"

#include <cmath>
#include <numbers>

namespace gpukit::detail::sim {

namespace {

using Complex = std::complex<double>;

// Beyond this prime factor a radix's O(p^2) butterflies lose to Bluestein's three FFTs.
constexpr std::size_t largest_direct_factor = 61;

std::vector<std::size_t> factorize(std::size_t n) {
    std::vector<std::size_t> factors;
    while (n % 4 == 0) {
        factors.push_back(4);
        n /= 4;
    }
    for (std::size_t p = 2; p * p <= n; p += (p == 2 ? 1 : 2)) {
        while (n % p == 0) {
            factors.push_back(p);
            n /= p;
        }
    }
    if (n > 1) factors.push_back(n);
    return factors;
}

// exp(-2 pi i k / n) from the angle itself, folded into the first half turn for accuracy.
Complex unit_root(std::size_t k, std::size_t n) {
    const double angle = 2 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(n);
    return {std::cos(angle), -std::sin(angle)};
}

// k^2 mod m without overflow: k < m, and m past 2^32 (too large for one product) by doubling.
std::size_t square_modulo(std::size_t k, std::size_t m) {
    if (m <= (std::size_t{1} << 32)) return k * k % m;
    std::size_t result = 0, addend = k;
    for (std::size_t bits = k; bits != 0; bits >>= 1) {
        if (bits & 1) result = (result + addend) % m;
        addend = (addend + addend) % m;
    }
    return result;
}

}  // namespace

CpuFft::CpuFft(std::size_t n) : n_(n) {
    if (n_ <= 1) return;
    std::vector<std::size_t> factors = factorize(n_);
    bool direct = true;
    for (std::size_t p : factors) direct = direct && p <= largest_direct_factor;
    if (direct) {
        factors_ = std::move(factors);
        twiddles_.resize(n_);
        for (std::size_t k = 0; k < n_; ++k) twiddles_[k] = unit_root(k, n_);
        return;
    }
    std::size_t m = 1;
    while (m < 2 * n_ - 1) m *= 2;
    inner_ = std::make_unique<CpuFft>(m);
    chirp_.resize(n_);
    for (std::size_t k = 0; k < n_; ++k) {
        // exp(-pi i k^2 / n) = exp(-2 pi i (k^2 mod 2n) / 2n): the reduced exponent keeps the
        // angle small, and so exact, for large k.
        const std::size_t exponent = square_modulo(k, 2 * n_);
        chirp_[k] = unit_root(exponent, 2 * n_);
    }
    chirp_spectrum_.assign(m, Complex(0));
    chirp_spectrum_[0] = std::conj(chirp_[0]);
    for (std::size_t k = 1; k < n_; ++k) chirp_spectrum_[k] = chirp_spectrum_[m - k] = std::conj(chirp_[k]);
    std::vector<Complex> scratch;
    inner_->run(chirp_spectrum_.data(), false, scratch);
}

CpuFft::~CpuFft() = default;

void CpuFft::run(Complex* data, bool inverse, std::vector<Complex>& scratch) const {
    if (n_ <= 1) return;
    if (inner_) {
        bluestein(data, inverse, scratch);
        return;
    }
    scratch.assign(data, data + n_);
    mixed_radix(scratch.data(), 1, data, n_, 0, inverse);
}

// out[k] = sum_j in[j * stride] w^(jk), w = exp(-+2 pi i / n): the p sub-transforms of the
// elements j = q (mod p) first, then one radix-p butterfly per output position k < n / p.
void CpuFft::mixed_radix(const Complex* in, std::size_t stride, Complex* out, std::size_t n, std::size_t level,
                         bool inverse) const {
    if (n == 1) {
        out[0] = in[0];
        return;
    }
    const std::size_t p = factors_[level];
    const std::size_t m = n / p;
    for (std::size_t q = 0; q < p; ++q) mixed_radix(in + q * stride, stride * p, out + q * m, m, level + 1, inverse);
    const std::size_t step = n_ / n;  // the table's w_N^step is this level's w_n
    Complex terms[largest_direct_factor];
    for (std::size_t k = 0; k < m; ++k) {
        // Positions k + r m (r < p) read and write the same p elements: read all, then write.
        for (std::size_t q = 0; q < p; ++q) terms[q] = out[q * m + k] * twiddle(q * k * step, inverse);
        for (std::size_t r = 0; r < p; ++r) {
            Complex sum = terms[0];
            for (std::size_t q = 1; q < p; ++q) sum += terms[q] * twiddle((q * r % p) * m * step, inverse);
            out[k + r * m] = sum;
        }
    }
}

// X_k = c_k sum_j (x_j c_j) conj(c_{k-j}), c_k = exp(-pi i k^2 / n): a convolution, done as
// three FFTs of length m. The inverse is the conjugate of the forward transform of the conjugate.
void CpuFft::bluestein(Complex* data, bool inverse, std::vector<Complex>& scratch) const {
    const std::size_t m = inner_->size();
    std::vector<Complex> work(m, Complex(0));
    for (std::size_t k = 0; k < n_; ++k) work[k] = (inverse ? std::conj(data[k]) : data[k]) * chirp_[k];
    inner_->run(work.data(), false, scratch);
    for (std::size_t k = 0; k < m; ++k) work[k] *= chirp_spectrum_[k];
    inner_->run(work.data(), true, scratch);
    const double scale = 1.0 / static_cast<double>(m);
    for (std::size_t k = 0; k < n_; ++k) {
        const Complex value = work[k] * chirp_[k] * scale;
        data[k] = inverse ? std::conj(value) : value;
    }
}

}  // namespace gpukit::detail::sim
