// src/backends/sim/cpu_fft.hpp: a one-dimensional complex FFT of any length on the CPU, the
// simulator's FFT library underneath (sim_fft.cpp).
//
// Mixed radix (Cooley-Tukey, any factor, decimation in time) for lengths whose prime factors are
// small, Bluestein's chirp-z through a power-of-two FFT for lengths with a large prime factor, so
// every length costs O(n log n). Arithmetic is in double whatever the data's precision: twiddles
// come from exact sin/cos of each angle (never by repeated multiplication), so float32 results are
// at least as accurate as NumPy's (pocketfft computes float32 in float32).
#pragma once

#include <complex>
#include <cstddef>
#include <memory>
#include <vector>

namespace gpukit::detail::sim {

class CpuFft {
public:
    explicit CpuFft(std::size_t n);
    ~CpuFft();
    CpuFft(const CpuFft&) = delete;
    CpuFft& operator=(const CpuFft&) = delete;

    std::size_t size() const noexcept { return n_; }
    // Transforms data[0, n) in place, unnormalised: sum_j x_j exp(-+2 pi i jk / n), the sign
    // negative for forward. `scratch` is the caller's, reused from call to call.
    void run(std::complex<double>* data, bool inverse, std::vector<std::complex<double>>& scratch) const;

private:
    void mixed_radix(const std::complex<double>* in, std::size_t stride, std::complex<double>* out, std::size_t n,
                     std::size_t level, bool inverse) const;
    void bluestein(std::complex<double>* data, bool inverse, std::vector<std::complex<double>>& scratch) const;
    std::complex<double> twiddle(std::size_t index, bool inverse) const {
        const std::complex<double> w = twiddles_[index % n_];
        return inverse ? std::conj(w) : w;
    }

    std::size_t n_;
    std::vector<std::size_t> factors_;            // mixed radix: n's factors, 4s first
    std::vector<std::complex<double>> twiddles_;  // exp(-2 pi i k / n), k < n (mixed radix only)
    // Bluestein: an FFT of a power of two m >= 2n - 1, the chirp exp(-pi i k^2 / n) and the
    // spectrum of the conjugate chirp, wrapped to length m.
    std::unique_ptr<CpuFft> inner_;
    std::vector<std::complex<double>> chirp_;
    std::vector<std::complex<double>> chirp_spectrum_;
};

}  // namespace gpukit::detail::sim
