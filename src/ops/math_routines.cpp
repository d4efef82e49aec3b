// src/ops/math_routines.cpp: fix, isposinf, isneginf, sinc, i0, real_if_close, sort_complex, unwrap
// and trim_zeros (gpukit/numeric.hpp): each a few ufuncs, reductions or sorts in the steps NumPy
// defines it by, so that dtypes and rounding come out as NumPy's; i0 one kernel.
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "array/along_axis.hpp"
#include "gpukit/array_operators.hpp"
#include "gpukit/comparisons.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/elementwise_kernel.hpp"
#include "gpukit/error.hpp"
#include "gpukit/indexing.hpp"
#include "gpukit/layout.hpp"
#include "gpukit/numeric.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/scans.hpp"
#include "gpukit/sorting.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace {

using detail::BinaryOperator;
using detail::concat;

bool is_complex(DType dtype) { return kind(dtype) == DTypeKind::complex; }
bool is_integer(DType dtype) {
    return kind(dtype) == DTypeKind::signed_integer || kind(dtype) == DTypeKind::unsigned_integer;
}

// isposinf and isneginf are ambiguous for complex numbers (which infinity?): NumPy's TypeError.
void refuse_complex_infinity(const Array& x) {
    if (is_complex(x.dtype()))
        throw DTypeError(concat("This operation is not supported for ", to_string(x.dtype()),
                                " values because it would be ambiguous."));
}

// One exact comparison with the infinity of that sign, in float64 (every real dtype widens exactly):
// isinf(x) & signbit(x) (or its negation) in one pass.
Array signed_infinity(bool negative, const Device& device) {
    const double infinity = std::numeric_limits<double>::infinity();
    return full({}, Scalar::of(negative ? -infinity : infinity), DType::float64, Order::C, device);
}

// I0 in double: the power series sum ((x/2)^2)^k / (k!)^2 (positive terms, so no cancellation) up to
// 30, and beyond the asymptotic series e^x / sqrt(2 pi x) * sum prod_j (2j-1)^2 / (8 x j), which has
// converged to double precision there; within a few ulps of NumPy's Chebyshev expansions. exp
// overflows past 709.78 to inf, and inf gives nan (inf * 0), as NumPy's.
const ElementwiseKernel& i0_kernel() {
    static const ElementwiseKernel kernel("T x", "T y", R"(
        const double a = gk_fabs((double)x);
        double sum = 1.0, term = 1.0;
        if (a <= 30.0) {
            const double quarter_square = 0.25 * a * a;
            for (int k = 1; k < 200 && term >= sum * 1e-17; ++k) {
                term *= quarter_square / ((double)k * (double)k);
                sum += term;
            }
            y = (T)(a == a ? sum : a);
        } else {
            for (int k = 1; k < 100 && term >= sum * 1e-17; ++k) {
                term *= (2.0 * k - 1.0) * (2.0 * k - 1.0) / (8.0 * a * k);
                sum += term;
            }
            y = (T)(gk_exp(a) * (sum / gk_sqrt(6.283185307179586 * a)));
        }
    )",
                                          "gpukit_i0");
    return kernel;
}

Array scalar_operation(BinaryOperator op, const Array& a, const Scalar& b) { return detail::apply(op, a, b); }

}  // namespace

Array fix(const Array& x) { return trunc(x); }
void fix(const Array& x, const Array& out) { trunc(x, out); }

Array isposinf(const Array& x) {
    refuse_complex_infinity(x);
    return equal(x, signed_infinity(false, x.device()));
}
void isposinf(const Array& x, const Array& out) {
    refuse_complex_infinity(x);
    equal(x, signed_infinity(false, x.device()), out);
}
Array isneginf(const Array& x) {
    refuse_complex_infinity(x);
    return equal(x, signed_infinity(true, x.device()));
}
void isneginf(const Array& x, const Array& out) {
    refuse_complex_infinity(x);
    equal(x, signed_infinity(true, x.device()), out);
}

Array sinc(const Array& x) {
    // pi as a weak Python float; 1 wherever pi * x is 0 (also where x underflows there), as NumPy's.
    const Array y = detail::apply(BinaryOperator::multiply, Scalar(3.141592653589793), x);
    return where(scalar_operation(BinaryOperator::equal, y, Scalar(0)), Scalar(1.0), sin(y) / y);
}

Array i0(const Array& x) {
    if (is_complex(x.dtype())) throw DTypeError("i0 not supported for complex values");
    const DType out = kind(x.dtype()) == DTypeKind::floating ? x.dtype() : DType::float64;
    // The kernel takes float32 or float64; float16 and bfloat16 go through float32 and round once.
    const DType computed = out == DType::float64 ? DType::float64 : DType::float32;
    const Array result = i0_kernel()({x.astype(computed)})[0];
    return result.dtype() == out ? result : result.astype(out);
}

Array real_if_close(const Array& a, double tol) {
    if (!is_complex(a.dtype())) return a;
    const double epsilon = a.dtype() == DType::complex64 ? static_cast<double>(std::numeric_limits<float>::epsilon())
                                                         : std::numeric_limits<double>::epsilon();
    const double bound = tol > 1 ? tol * epsilon : tol;
    const Array small = scalar_operation(BinaryOperator::less, absolute(imag(a)), Scalar(bound));
    return all(small).astype(DType::uint8).to_vector<std::uint8_t>()[0] != 0 ? real(a) : a;
}

Array sort_complex(const Array& a) {
    Array sorted = sort(a, -1);
    if (is_complex(sorted.dtype())) return sorted;
    const DType dtype = a.dtype();
    const bool narrow =
        dtype == DType::int8 || dtype == DType::int16 || dtype == DType::uint8 || dtype == DType::uint16;
    return sorted.astype(narrow ? DType::complex64 : DType::complex128);
}

Array unwrap(const Array& p, std::optional<Scalar> discont, std::int64_t axis, const Scalar& period) {
    if (p.ndim() == 0) throw InvalidArgumentError("diff requires input that is at least one dimensional");
    const std::size_t along = normalize_axis(axis, p.ndim());
    DiffOptions differences;
    differences.axis = static_cast<std::int64_t>(along);
    const Array dd = diff(p, differences);
    const std::optional<PythonScalar> weak = period.weak_kind();
    const DType dtype = weak ? result_type({dd.dtype()}, {*weak}) : result_type({dd.dtype(), period.dtype()}, {});
    // The interval [-high, high) the jumps are folded into: integers split an odd period unevenly
    // (Python's divmod), and where the period is even or real a jump of exactly -high that was
    // positive becomes +high.
    Scalar high(0), low(0);
    bool ambiguous = true;
    if (is_integer(dtype)) {
        const auto whole = period.value<std::int64_t>();
        const std::int64_t half = whole >= 0 ? whole / 2 : -((-whole + 1) / 2);
        ambiguous = whole - 2 * half == 0;
        high = Scalar(half);
        low = Scalar(-half);
    } else {
        const double half = period.value<double>() / 2;
        high = Scalar(half);
        low = Scalar(-half);
    }
    const Scalar threshold = discont ? *discont : Scalar(period.value<double>() / 2);
    // NumPy's mod(dd - low, period) + low, the period weak where it is a Python number.
    const Array shifted = scalar_operation(BinaryOperator::subtract, dd, low);
    Array folded = weak ? detail::apply(BinaryOperator::remainder, shifted, period)
                        : remainder(shifted, full({}, period, period.dtype(), Order::C, p.device()));
    folded = scalar_operation(BinaryOperator::add, folded, low);
    if (ambiguous) {
        const Array flip = logical_and(scalar_operation(BinaryOperator::equal, folded, low),
                                       scalar_operation(BinaryOperator::greater, dd, Scalar(0)));
        folded = where(flip, high, folded);
    }
    Array correction = folded - dd;
    correction = where(scalar_operation(BinaryOperator::less, absolute(dd), threshold), Scalar(0), correction);
    Array up = p.astype(dtype);
    ScanOptions running;
    running.axis = static_cast<std::int64_t>(along);
    const Array after_first = detail::along_axis(p, along, Slice{1, std::nullopt, std::nullopt});
    detail::along_axis(up, along, Slice{1, std::nullopt, std::nullopt})
        .assign(after_first + cumsum(correction, running));
    return up;
}

TrimSides parse_trim_sides(std::string_view trim) {
    std::string lowered(trim);
    for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lowered == "fb" || lowered == "bf") return TrimSides::front_and_back;
    if (lowered == "f") return TrimSides::front;
    if (lowered == "b") return TrimSides::back;
    throw InvalidArgumentError(concat("unexpected character(s) in `trim`: '", trim, "'"));
}

Array trim_zeros(const Array& filt, TrimSides trim, std::span<const std::int64_t> axes) {
    const std::size_t ndim = filt.ndim();
    if (ndim == 0) return filt;
    std::vector<bool> trimmed(ndim, axes.empty());
    for (const std::int64_t axis : axes) trimmed[normalize_axis(axis, ndim)] = true;
    const bool front = trim != TrimSides::back, back = trim != TrimSides::front;
    // The bounding box of the nonzero elements: one wait for the first and last index along each axis.
    const Array places = argwhere(filt);
    const std::int64_t found = places.shape()[0];
    std::vector<std::int64_t> first(ndim, 0), last(ndim, -1);
    if (found > 0) {
        ReduceOptions down;
        down.axis = std::vector<std::int64_t>{0};
        first = amin(places, down).to_vector<std::int64_t>();
        last = amax(places, down).to_vector<std::int64_t>();
    }
    std::vector<Index> key;
    for (std::size_t d = 0; d < ndim; ++d) {
        if (!trimmed[d]) {
            key.emplace_back(Slice{});
        } else if (found == 0) {
            key.emplace_back(Slice{0, 0, std::nullopt});  // nothing is left of an all-zero axis
        } else {
            key.emplace_back(Slice{front ? std::optional<std::int64_t>(first[d]) : std::nullopt,
                                   back ? std::optional<std::int64_t>(last[d] + 1) : std::nullopt, std::nullopt});
        }
    }
    return filt.index(key);
}

}  // namespace gpukit
