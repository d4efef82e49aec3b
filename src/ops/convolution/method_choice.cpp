// src/ops/convolution/method_choice.cpp: scipy.signal.choose_conv_method (gpukit/convolution.hpp):
// direct sums or the FFT, whichever a model of their times says is faster.
//
// The model, fitted to gpukit's own kernels on an NVIDIA H200 (2026-11-27, bench/conv_crossover.py:
// signal.convolve 'same' both ways, 1-D outputs 2^12 to 2^23 with 3 to 16383 taps, 2-D 256^2 to
// 4096^2 with 3^2 to 127^2 taps, float32 and float64; with these constants it picked the faster
// method in all 90 cases):
//   direct: launch + max(outputs x taps x per_multiply_add, taps x per_tap)
//     (the second term: few outputs, each thread's taps one after another, the device half idle);
//   fft:    launch + N log2 N x per_point, N the padded (full) size: three transforms and a product.
// On the simulator the same model decides (its times are the CPU's: correctness, not speed, is
// what runs there).
#include <cmath>

#include "gpukit/convolution.hpp"
#include "gpukit/dtype.hpp"
#include "gpukit/promotion.hpp"

namespace gpukit::signal {
namespace {

struct MethodModel {
    double launch_ms;           // the direct path's fixed cost: its launches
    double direct_ms_per_gmac;  // per 10^9 multiply-adds
    double direct_ms_per_tap;   // latency of one tap of one output
    double fft_launch_ms;       // the FFT path's fixed cost: three plans' launches and the product
    double fft_ms_per_g_nlogn;  // per 10^9 N log2 N
};
constexpr MethodModel one_axis{0.03, 0.5054, 5.34e-5, 0.08, 4.0};
constexpr MethodModel several_axes{0.03, 0.1059, 2.0e-5, 0.077, 2.5};

double elements(const Shape& shape) {
    double count = 1;
    for (const std::int64_t extent : shape) count *= static_cast<double>(extent);
    return count;
}

}  // namespace

ConvolveMethod choose_conv_method(const Array& in1, const Array& in2, ConvolveMode mode) {
    const DTypeKind kind = dtype_info(promote_types(in1.dtype(), in2.dtype())).kind;
    if (kind != DTypeKind::floating && kind != DTypeKind::complex) return ConvolveMethod::direct;  // exact sums
    if (in1.ndim() == 0 || in1.ndim() != in2.ndim() || in1.size() == 0 || in2.size() == 0)
        return ConvolveMethod::direct;  // nothing to transform (direct also says what is wrong)
    Shape full(in1.ndim()), out(in1.ndim());
    for (std::size_t d = 0; d < full.size(); ++d) {
        const std::int64_t a = in1.shape()[d], b = in2.shape()[d];
        full[d] = a + b - 1;
        out[d] = mode == ConvolveMode::full ? a + b - 1 : mode == ConvolveMode::same ? a : std::abs(a - b) + 1;
    }
    const double taps = std::min(elements(in1.shape()), elements(in2.shape()));
    const double points = elements(full);
    const MethodModel& m = in1.ndim() == 1 ? one_axis : several_axes;
    const double direct =
        m.launch_ms + std::max(elements(out) * taps * 1e-9 * m.direct_ms_per_gmac, taps * m.direct_ms_per_tap);
    const double fft = m.fft_launch_ms + points * std::log2(points) * 1e-9 * m.fft_ms_per_g_nlogn;
    return fft < direct ? ConvolveMethod::fft : ConvolveMethod::direct;
}

}  // namespace gpukit::signal
