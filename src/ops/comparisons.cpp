// src/ops/comparisons.cpp: see gpukit/comparisons.hpp. isclose is one elementwise kernel; the others are
// compositions of the ufuncs and reductions.
#include "gpukit/comparisons.hpp"

#include "gpukit/array_operators.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/elementwise_kernel.hpp"
#include "gpukit/error.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/shape_ops.hpp"
#include "ops/elementwise/collapse.hpp"

namespace gpukit {
namespace {

Array answer(bool value, const Device& device) { return full({}, Scalar(value), DType::bool_, Order::C, device); }

// isclose in one pass, as one elementwise kernel (its composition of ufuncs read and wrote the
// arrays eight times): the tolerances in the operands' real type, as NumPy's weak Python floats.
const ElementwiseKernel& isclose_kernel() {
    static const ElementwiseKernel kernel("T x, T y, float64 rtol, float64 atol, bool equal_nan", "bool close",
                                          R"(
        typedef decltype(gk_fabs(y)) R;
        close = gk_isfinite(x) && gk_isfinite(y) ? gk_fabs(x - y) <= (R)atol + (R)rtol * gk_fabs(y) : x == y;
        if (equal_nan && gk_isnan(x) && gk_isnan(y)) close = true;
    )",
                                          "gpukit_isclose");
    return kernel;
}

}  // namespace

Array isclose(const Array& a, const Array& b, const CloseOptions& options) {
    const DType dtype = result_type({a.dtype(), b.dtype()}, {PythonScalar::floating});
    const Array x = a.dtype() == dtype ? a : a.astype(dtype);
    const Array y = b.dtype() == dtype ? b : b.astype(dtype);
    return isclose_kernel()({x, y, options.rtol, options.atol, options.equal_nan})[0];
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
