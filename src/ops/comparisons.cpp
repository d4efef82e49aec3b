// src/ops/comparisons.cpp: see gpukit/comparisons.hpp. Compositions of the ufuncs and reductions.
#include "gpukit/comparisons.hpp"

#include "gpukit/array_operators.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/shape_ops.hpp"
#include "ops/elementwise/collapse.hpp"

namespace gpukit {
namespace {

Array answer(bool value, const Device& device) { return full({}, Scalar(value), DType::bool_, Order::C, device); }

}  // namespace

Array isclose(const Array& a, const Array& b, const CloseOptions& options) {
    const DType dtype = result_type({a.dtype(), b.dtype()}, {PythonScalar::floating});
    const Array x = a.dtype() == dtype ? a : a.astype(dtype);
    const Array y = b.dtype() == dtype ? b : b.astype(dtype);
    const Array finite = logical_and(isfinite(x), isfinite(y));
    const Array within = less_equal(absolute(x - y), absolute(y) * options.rtol + options.atol);
    Array close = where(finite, within, equal(x, y));
    if (options.equal_nan) close = logical_or(close, logical_and(isnan(x), isnan(y)));
    return close;
}

Array allclose(const Array& a, const Array& b, const CloseOptions& options) { return all(isclose(a, b, options)); }

Array array_equal(const Array& a, const Array& b, bool equal_nan) {
    if (a.shape() != b.shape()) return answer(false, a.device());
    Array same = equal(a, b);
    if (equal_nan) same = logical_or(same, logical_and(isnan(a), isnan(b)));
    return all(same);
}

Array array_equiv(const Array& a, const Array& b) {
    try {
        const Shape shapes[] = {a.shape(), b.shape()};
        (void)detail::broadcast_shapes(shapes);
    } catch (const InvalidArgumentError&) {  // shapes that do not broadcast: not equivalent, as NumPy's
        return answer(false, a.device());
    }
    return all(equal(a, b));
}

}  // namespace gpukit
