// src/ops/convolution/fftconvolve.cpp: scipy.signal.fftconvolve, and scipy.signal.convolve and
// correlate with method='fft' (gpukit/convolution.hpp), over gpukit::fft.
//
// The operands' spectra along the convolved axes, at lengths at least n + k - 1 (the next length
// whose factors are 2, 3, 5 and 7, which cuFFT and the simulator's FFT do fastest), multiplied,
// transformed back, and cut to the mode's window as SciPy cuts it (centred for 'same' and
// 'valid'). Real operands take the real transforms. Axes where either operand has extent 1 need
// no transform: the product broadcasts along them, as SciPy's does.
#include <algorithm>

#include "gpukit/convolution.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/fft.hpp"
#include "gpukit/layout.hpp"
#include "gpukit/promotion.hpp"
#include "util/text.hpp"

namespace gpukit::signal {

namespace {

bool complex_dtype(DType dtype) { return kind(dtype) == DTypeKind::complex; }

// The smallest m >= n with no prime factor above 7.
std::int64_t fast_length(std::int64_t n) {
    for (std::int64_t m = std::max<std::int64_t>(n, 1);; ++m) {
        std::int64_t rest = m;
        for (std::int64_t p : {2, 3, 5, 7})
            while (rest % p == 0) rest /= p;
        if (rest == 1) return m;
    }
}

// SciPy's _inputs_swap_needed over `axes`: in 'valid' mode the larger operand must contain the
// other along every axis.
bool swap_needed(ConvolveMode mode, const Shape& a, const Shape& b, const std::vector<std::size_t>& axes) {
    if (mode != ConvolveMode::valid || a.empty()) return false;
    bool a_larger = true, b_larger = true;
    for (std::size_t d : axes) {
        a_larger = a_larger && a[d] >= b[d];
        b_larger = b_larger && b[d] >= a[d];
    }
    if (!a_larger && !b_larger)
        throw InvalidArgumentError("For 'valid' mode, one must be at least as large as the other in every dimension");
    return !a_larger;
}

// The `shape` window in the middle of `a` (SciPy's _centered), as a new array.
Array centred(const Array& a, const Shape& shape) {
    std::vector<Index> window;
    for (std::size_t d = 0; d < a.ndim(); ++d) {
        const std::int64_t start = (a.shape()[d] - shape[d]) / 2;
        window.emplace_back(Slice{start, start + shape[d], std::nullopt});
    }
    return a.index(window).copy();
}

}  // namespace

Array fftconvolve(const Array& in1, const Array& in2, ConvolveMode mode,
                  const std::optional<std::vector<std::int64_t>>& axes) {
    if (in1.ndim() == 0 && in2.ndim() == 0) return multiply(in1, in2);
    if (in1.ndim() != in2.ndim()) throw InvalidArgumentError("in1 and in2 should have the same dimensionality");
    if (in1.size() == 0 || in2.size() == 0) return Array::empty({0}, DType::float64, in1.device());
    std::vector<std::size_t> chosen;
    if (axes) {
        if (axes->empty()) throw InvalidArgumentError("when provided, axes cannot be empty");
        for (std::int64_t axis : *axes) {
            const std::size_t d = normalize_axis(axis, in1.ndim());
            if (std::find(chosen.begin(), chosen.end(), d) != chosen.end())
                throw InvalidArgumentError("all axes must be unique");
            chosen.push_back(d);
        }
    } else {
        for (std::size_t d = 0; d < in1.ndim(); ++d) chosen.push_back(d);
    }
    const Shape& s1 = in1.shape();
    const Shape& s2 = in2.shape();
    std::vector<std::size_t> transformed;  // extent 1 in either: the product broadcasts instead
    for (std::size_t d : chosen)
        if (s1[d] != 1 && s2[d] != 1) transformed.push_back(d);
    for (std::size_t d = 0; d < in1.ndim(); ++d) {
        const bool along = std::find(transformed.begin(), transformed.end(), d) != transformed.end();
        if (!along && s1[d] != s2[d] && s1[d] != 1 && s2[d] != 1)
            throw InvalidArgumentError(
                detail::concat("incompatible shapes for in1 and in2: ", format_shape(s1), " and ", format_shape(s2)));
    }
    const bool swap = swap_needed(mode, s1, s2, transformed);
    const Array& a = swap ? in2 : in1;
    const Array& b = swap ? in1 : in2;

    Shape full;
    for (std::size_t d = 0; d < a.ndim(); ++d) {
        const bool along = std::find(transformed.begin(), transformed.end(), d) != transformed.end();
        full.push_back(along ? a.shape()[d] + b.shape()[d] - 1 : std::max(a.shape()[d], b.shape()[d]));
    }
    Array result = [&] {
        if (transformed.empty()) return multiply(a, b);
        fft::Sizes lengths;
        fft::Axes fft_axes;
        for (std::size_t d : transformed) {
            lengths.emplace_back(fast_length(full[d]));
            fft_axes.push_back(static_cast<std::int64_t>(d));
        }
        const bool complex = complex_dtype(a.dtype()) || complex_dtype(b.dtype());
        const Array spectrum =
            complex ? fft::ifftn(multiply(fft::fftn(a, lengths, fft_axes), fft::fftn(b, lengths, fft_axes)), lengths,
                                 fft_axes)
                    : fft::irfftn(multiply(fft::rfftn(a, lengths, fft_axes), fft::rfftn(b, lengths, fft_axes)), lengths,
                                  fft_axes);
        std::vector<Index> keep;
        for (std::size_t d = 0; d < a.ndim(); ++d) keep.emplace_back(Slice{std::nullopt, full[d], std::nullopt});
        return spectrum.index(keep);
    }();
    switch (mode) {
        case ConvolveMode::full: return result.is_c_contiguous() ? result : result.copy();
        case ConvolveMode::same: return centred(result, a.shape());
        case ConvolveMode::valid: {
            Shape shape = result.shape();
            for (std::size_t d : transformed) shape[d] = a.shape()[d] - b.shape()[d] + 1;
            return centred(result, shape);
        }
    }
    return result;
}

namespace {

// scipy.signal.convolve(method='fft'): fftconvolve, then rounded for integer operands and cast to
// the operands' promoted dtype. Bool operands are rounded too: SciPy casts the unrounded sums, so
// a zero sum becomes True or False as its rounding error happens to fall; rounded, it is False.
Array convolve_by_fft(const Array& in1, const Array& in2, ConvolveMode mode) {
    if (in1.ndim() == 0 && in2.ndim() == 0) return multiply(in1, in2);
    if (in1.ndim() != in2.ndim()) throw InvalidArgumentError("volume and kernel should have the same dimensionality");
    const DType result = promote_types(in1.dtype(), in2.dtype());
    Array out = fftconvolve(in1, in2, mode);
    const DTypeKind k = kind(result);
    if (k == DTypeKind::boolean || k == DTypeKind::signed_integer || k == DTypeKind::unsigned_integer)
        out = around(out);
    return out.dtype() == result ? out : out.astype(result);
}

// in2 reversed along every axis and conjugated: correlation as a convolution.
Array reversed_conjugate(const Array& a) {
    std::vector<Index> reverse(a.ndim(), Slice{std::nullopt, std::nullopt, -1});
    const Array flipped = a.index(reverse);
    return complex_dtype(a.dtype()) ? conjugate(flipped) : flipped;
}

}  // namespace

Array convolve(const Array& in1, const Array& in2, ConvolveMode mode, ConvolveMethod method) {
    if (method == ConvolveMethod::automatic) method = choose_conv_method(in1, in2, mode);
    return method == ConvolveMethod::fft ? convolve_by_fft(in1, in2, mode) : signal::convolve(in1, in2, mode);
}

Array correlate(const Array& in1, const Array& in2, ConvolveMode mode, ConvolveMethod method) {
    if (method == ConvolveMethod::automatic) method = choose_conv_method(in1, in2, mode);
    if (method != ConvolveMethod::fft) return signal::correlate(in1, in2, mode);
    if (in1.ndim() == 0 && in2.ndim() == 0) return multiply(in1, complex_dtype(in2.dtype()) ? conjugate(in2) : in2);
    if (in1.ndim() != in2.ndim()) throw InvalidArgumentError("in1 and in2 should have the same dimensionality");
    return convolve_by_fft(in1, reversed_conjugate(in2), mode);
}

}  // namespace gpukit::signal
