// src/ops/polynomial.cpp: numpy.polyval and numpy.polyfit (include/gpukit/polynomial.hpp) as
// compositions of gpukit's elementwise operations, scans and linalg, in NumPy's steps so that
// results round and dtypes come out as NumPy's.
#include "gpukit/polynomial.hpp"

#include <cmath>
#include <limits>

#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/indexing.hpp"
#include "gpukit/linalg.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/scans.hpp"
#include "gpukit/shape_ops.hpp"

namespace gpukit {
namespace {

bool inexact(DType dtype) {
    const DTypeKind k = dtype_info(dtype).kind;
    return k == DTypeKind::floating || k == DTypeKind::complex;
}

// NumPy's `asarray(x) + 0.0`: integers and bool become float64, floating and complex dtypes stay.
Array as_inexact(const Array& a) { return inexact(a.dtype()) ? a : a.astype(DType::float64); }

// numpy.finfo(dtype).eps, of a complex dtype's real part.
double epsilon(DType dtype) {
    switch (dtype) {
        case DType::float16: return std::ldexp(1.0, -10);
        case DType::bfloat16: return std::ldexp(1.0, -7);
        case DType::float32:
        case DType::complex64: return static_cast<double>(std::numeric_limits<float>::epsilon());
        default: return std::numeric_limits<double>::epsilon();
    }
}

Array column(const Array& v) { return v.index({Slice{}, NewAxis{}}); }

// numpy.vander(x, columns): x's powers, highest first, each the previous times x (NumPy builds them
// by multiply.accumulate, so a scan of products rounds as its do), in x's dtype promoted with int64
// as numpy.vander's: float64 or complex128, so a float32 x is fitted in double precision too.
Array vandermonde(const Array& x_in, std::int64_t columns) {
    const bool complex = dtype_info(x_in.dtype()).kind == DTypeKind::complex;
    const Array x = x_in.astype(complex ? DType::complex128 : DType::float64);
    const std::int64_t m = x.shape()[0];
    Array ones_column = ones({m, 1}, x.dtype(), Order::C, x.device());
    if (columns == 1) return ones_column;
    const Shape repeated{m, columns - 1};
    const Array powers = cumprod(broadcast_to(column(x), repeated), {.axis = 1});
    const Array increasing[] = {ones_column, powers};
    const std::int64_t flipped[] = {1};
    return flip(concatenate(increasing, 1), flipped).copy(Order::C);
}

}  // namespace

Array polyval(const Array& p, const Array& x) {
    // NumPy's loop over p raises TypeError for a 0-d p, gpukit's DTypeError.
    if (p.ndim() == 0) throw DTypeError("polyval: p must have at least one dimension (iteration over a 0-d array)");
    Array y = zeros_like(x);
    // Horner's rule as NumPy's loop runs it (no fused multiply-add), one coefficient at a time.
    for (std::int64_t i = 0; i < p.shape()[0]; ++i) y = add(multiply(y, x), p.index({i}));
    return y;
}

PolyfitResult polyfit(const Array& x_in, const Array& y_in, std::int64_t deg, const PolyfitOptions& options) {
    const Array x = as_inexact(x_in), y = as_inexact(y_in);
    if (deg < 0) throw InvalidArgumentError("expected deg >= 0");
    // NumPy raises TypeError for these shapes, gpukit's DTypeError.
    if (x.ndim() != 1) throw DTypeError("expected 1D vector for x");
    if (x.size() == 0) throw DTypeError("expected non-empty vector for x");
    if (y.ndim() < 1 || y.ndim() > 2) throw DTypeError("expected 1D or 2D array for y");
    if (x.shape()[0] != y.shape()[0]) throw DTypeError("expected x and y to have same length");
    const std::int64_t order = deg + 1, points = x.shape()[0];
    const double rcond = options.rcond ? *options.rcond : static_cast<double>(points) * epsilon(x.dtype());

    Array lhs = vandermonde(x, order);
    Array rhs = y.copy(Order::C);
    if (options.w) {
        const Array w = as_inexact(*options.w);
        if (w.ndim() != 1) throw DTypeError("expected a 1-d array for weights");
        if (w.shape()[0] != y.shape()[0]) throw DTypeError("expected w and y to have the same length");
        // In place, as NumPy's `lhs *= w[:, None]`: the products cast back to lhs's and rhs's dtypes.
        multiply(lhs, column(w), lhs);
        multiply(rhs, rhs.ndim() == 2 ? column(w) : w, rhs);
    }
    // Columns scaled to unit norm (NumPy's sum of lhs * lhs, unconjugated) improve the condition.
    ReduceOptions down_columns;
    down_columns.axis = std::vector<std::int64_t>{0};
    const Array scale = sqrt(sum(multiply(lhs, lhs), down_columns));
    true_divide(lhs, scale, lhs);
    linalg::LstsqResult fit = linalg::lstsq(lhs, rhs, rcond);
    PolyfitResult result{true_divide(fit.x.transpose(), scale).transpose(), fit.residuals, fit.rank, fit.s, rcond, {}};
    if (options.cov == PolyfitCovariance::none) return result;

    Array base = linalg::inv(dot(lhs.transpose(), lhs));
    true_divide(base, outer(scale, scale), base);
    if (y.ndim() == 2) base = base.index({Slice{}, Slice{}, NewAxis{}});
    if (options.cov == PolyfitCovariance::unscaled) {
        result.covariance = base.copy(Order::C);  // NumPy's Vbase * 1
        return result;
    }
    if (points <= order)
        throw InvalidArgumentError("the number of data points must exceed order to scale the covariance matrix");
    // The residuals over the degrees of freedom (gh-11196: no "- 2").
    const Array degrees_of_freedom =
        full({}, Scalar::of(static_cast<double>(points - order)), fit.residuals.dtype(), Order::C, x.device());
    const Array factor = true_divide(fit.residuals, degrees_of_freedom);
    result.covariance = multiply(base, factor);
    return result;
}

}  // namespace gpukit
