// src/ops/convolution/convolution.cpp: numpy.convolve/correlate and scipy.signal's convolve,
// correlate, convolve2d and correlate2d (gpukit/convolution.hpp) as correlations: each decides on
// the host, as NumPy and SciPy do, the output's shape, where the weights start and how the input
// extends, and one kernel sums.
#include "gpukit/convolution.hpp"

#include <algorithm>

#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/promotion.hpp"
#include "ops/convolution/correlation.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace {

using detail::compute_kind_for;
using detail::concat;
using detail::Correlation;
using detail::Extension;
using detail::kernel_weights;

bool is_complex(DType dtype) { return kind(dtype) == DTypeKind::complex; }

// numpy.correlate's sums of the 1-D `x` with the prepared weights `w` (lengths n and k): NumPy
// slides the shorter operand along the longer one and, when the second is the longer, reverses
// the result; written directly, only 'same' (the longer length, centred on the shorter one) and
// 'valid' differ from the first operand's case.
Array numpy_correlation(const Array& x, const Array& w, ConvolveMode mode, DType result) {
    const std::int64_t n = x.size(), k = w.size();
    Correlation c;
    switch (mode) {
        case ConvolveMode::full:
            c.out_shape = {n + k - 1};
            c.offset = {-(k - 1)};
            break;
        case ConvolveMode::same:
            c.out_shape = {std::max(n, k)};
            c.offset = {n >= k ? -(k / 2) : n / 2 - (k - 1)};
            break;
        case ConvolveMode::valid:
            c.out_shape = {std::max(n, k) - std::min(n, k) + 1};
            c.offset = {std::min<std::int64_t>(0, n - k)};
            break;
    }
    return detail::correlate_into_new(x, w, c, result, compute_kind_for(result));
}

void check_numpy_operands(const Array& a, const Array& v, const char* first_empty, const char* second_empty) {
    if (a.ndim() > 1 || v.ndim() > 1) throw InvalidArgumentError("object too deep for desired array");
    if (a.size() == 0) throw InvalidArgumentError(first_empty);
    if (v.size() == 0) throw InvalidArgumentError(second_empty);
}

// A 0-d operand is one element (NumPy's ndmin=1).
Array at_least_1d(const Array& a) { return a.ndim() == 0 ? a.reshape({1}) : a; }

// ---- scipy.signal
// SciPy's check of 'valid' mode: one operand at least as large as the other along every axis;
// whether the second is the larger (SciPy then swaps them).
bool valid_swap_needed(ConvolveMode mode, const Shape& a, const Shape& b) {
    if (mode != ConvolveMode::valid || a.empty()) return false;
    bool a_larger = true, b_larger = true;
    for (std::size_t d = 0; d < a.size(); ++d) {
        a_larger = a_larger && a[d] >= b[d];
        b_larger = b_larger && b[d] >= a[d];
    }
    if (!a_larger && !b_larger)
        throw InvalidArgumentError("For 'valid' mode, one must be at least as large as the other in every dimension");
    return !a_larger;
}

// scipy.signal's N-D correlation of `x` with the prepared weights `w`, extended by `mode`: full
// (every overlap), same (x's shape, centred on the full result) or valid (complete overlaps; with
// w larger along every axis, the overlaps of x inside w). correlate2d centres 'same' half a
// sample later than correlate along even axes (it starts at k // 2 of the full result).
Array signal_correlation(const Array& x, const Array& w, ConvolveMode mode, Extension extension,
                         std::complex<double> fill, DType result, bool centred_as_correlate2d = false) {
    Correlation c;
    c.mode = extension;
    c.cval = fill;
    for (std::size_t d = 0; d < x.ndim(); ++d) {
        const std::int64_t n = x.shape()[d], k = w.shape()[d];
        switch (mode) {
            case ConvolveMode::full:
                c.out_shape.push_back(n + k - 1);
                c.offset.push_back(-(k - 1));
                break;
            case ConvolveMode::same:
                c.out_shape.push_back(n);
                c.offset.push_back(-(k - 1) + (centred_as_correlate2d ? k / 2 : (k - 1) / 2));
                break;
            case ConvolveMode::valid:
                c.out_shape.push_back(std::max(n, k) - std::min(n, k) + 1);
                c.offset.push_back(std::min<std::int64_t>(0, n - k));
                break;
        }
    }
    return detail::correlate_into_new(x, w, c, result, compute_kind_for(result));
}

Array signal_convolve_or_correlate(const Array& in1, const Array& in2, ConvolveMode mode, bool convolution) {
    if (in1.ndim() != in2.ndim()) throw InvalidArgumentError("volume and kernel should have the same dimensionality");
    if (in1.ndim() == 0) return multiply(in1, in2);  // SciPy's product of two scalars
    if (in1.ndim() <= 1) {                           // SciPy hands 1-D operands to NumPy (its errors for empty ones)
        if (in1.size() >= in2.size() || mode != ConvolveMode::same)
            return convolution ? gpukit::convolve(in1, in2, mode) : gpukit::correlate(in1, in2, mode);
    }
    const DType result = promote_types(in1.dtype(), in2.dtype());
    if (in1.size() == 0 || in2.size() == 0) return Array::empty({0}, DType::float64, in1.device());
    const bool swap = valid_swap_needed(mode, in1.shape(), in2.shape());
    if (convolution && swap) {  // convolution commutes: the larger is the signal
        const Array w = kernel_weights(in1, compute_kind_for(result), true, false);
        return signal_correlation(in2, w, mode, Extension::constant, 0, result);
    }
    const Array w = kernel_weights(in2, compute_kind_for(result), convolution, !convolution);
    return signal_correlation(in1, w, mode, Extension::constant, 0, result);
}

Extension extension_of(signal::Boundary boundary) {
    switch (boundary) {
        case signal::Boundary::wrap: return Extension::wrap;
        case signal::Boundary::symmetric: return Extension::reflect;
        default: return Extension::constant;
    }
}

Array convolve2d_or_correlate2d(const Array& in1, const Array& in2, const signal::Convolve2dOptions& options,
                                bool convolution) {
    if (in1.ndim() != 2 || in2.ndim() != 2)
        throw InvalidArgumentError(
            concat(convolution ? "convolve2d" : "correlate2d", " inputs must both be 2-D arrays"));
    const DType result = promote_types(in1.dtype(), in2.dtype());
    const bool swap = valid_swap_needed(options.mode, in1.shape(), in2.shape());
    const Extension extension = extension_of(options.boundary);
    // The fill value as SciPy takes it: in the result's dtype.
    const std::complex<double> fill =
        is_complex(result) ? options.fillvalue : std::complex<double>(options.fillvalue.real());
    if (in1.size() == 0 || in2.size() == 0) {
        Shape shape;
        for (std::size_t d = 0; d < 2; ++d) {
            const std::int64_t n = in1.shape()[d], k = in2.shape()[d];
            shape.push_back(options.mode == ConvolveMode::full   ? std::max<std::int64_t>(n + k - 1, 0)
                            : options.mode == ConvolveMode::same ? n
                                                                 : std::max(n, k) - std::min(n, k) + 1);
        }
        Array out = Array::empty(shape, result, in1.device());
        out.fill(0);
        return out;
    }
    if (swap && convolution) {
        const Array w = kernel_weights(in1, compute_kind_for(result), true, false);
        return signal_correlation(in2, w, options.mode, extension, fill, result);
    }
    const Array w = kernel_weights(in2, compute_kind_for(result), convolution, !convolution);
    if (!swap) return signal_correlation(in1, w, options.mode, extension, fill, result, !convolution);
    // in2 larger: the overlaps of in1 inside it, which never reach past in1's edges (zeros there).
    // SciPy correlates the swapped operands and reverses the result without conjugating it back.
    Array out = signal_correlation(in1, w, options.mode, Extension::constant, 0, result);
    return is_complex(result) ? conj(out) : out;
}

}  // namespace

ConvolveMode convolve_mode_from_name(std::string_view name) {
    if (name == "full") return ConvolveMode::full;
    if (name == "same") return ConvolveMode::same;
    if (name == "valid") return ConvolveMode::valid;
    throw InvalidArgumentError(concat("mode must be one of 'valid', 'same', or 'full' (got '", name, "')"));
}

Array convolve(const Array& a_in, const Array& v_in, ConvolveMode mode) {
    const Array a = at_least_1d(a_in), v = at_least_1d(v_in);
    check_numpy_operands(a, v, "a cannot be empty", "v cannot be empty");
    const DType result = promote_types(a.dtype(), v.dtype());
    // The longer operand is the signal: convolution commutes.
    const bool swap = v.size() > a.size();
    const Array& x = swap ? v : a;
    const Array w = kernel_weights(swap ? a : v, compute_kind_for(result), true, false);
    return numpy_correlation(x, w, mode, result);
}

Array correlate(const Array& a_in, const Array& v_in, ConvolveMode mode) {
    const Array a = at_least_1d(a_in), v = at_least_1d(v_in);
    check_numpy_operands(a, v, "first array argument cannot be empty", "second array argument cannot be empty");
    const DType result = promote_types(a.dtype(), v.dtype());
    return numpy_correlation(a, kernel_weights(v, compute_kind_for(result), false, true), mode, result);
}

namespace signal {

Boundary boundary_from_name(std::string_view name) {
    if (name == "fill" || name == "pad") return Boundary::fill;
    if (name == "wrap" || name == "circular") return Boundary::wrap;
    if (name == "symm" || name == "symmetric") return Boundary::symmetric;
    throw InvalidArgumentError(
        "Acceptable boundary flags are 'fill', 'circular' (or 'wrap'), and 'symmetric' (or 'symm').");
}

Array convolve(const Array& in1, const Array& in2, ConvolveMode mode) {
    return signal_convolve_or_correlate(in1, in2, mode, true);
}
Array correlate(const Array& in1, const Array& in2, ConvolveMode mode) {
    return signal_convolve_or_correlate(in1, in2, mode, false);
}
Array convolve2d(const Array& in1, const Array& in2, const Convolve2dOptions& options) {
    return convolve2d_or_correlate2d(in1, in2, options, true);
}
Array correlate2d(const Array& in1, const Array& in2, const Convolve2dOptions& options) {
    return convolve2d_or_correlate2d(in1, in2, options, false);
}

}  // namespace signal
}  // namespace gpukit
