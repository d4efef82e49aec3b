// src/ops/linalg/products.cpp: dot, vdot, inner and trace (include/gpukit/linalg.hpp). dot with a
// matrix on the right is tensordot's matrix product; the others are one reduction of the operands'
// broadcast product: the operands are viewed (never copied) so that their summed
// axes line up last and their other axes broadcast against each other, then sum_of_products
// reduces that last axis.
#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/linalg.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/shape_ops.hpp"
#include "ops/reduction/reduce.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace detail {
namespace {

// `a` with `before` extents of 1 in front (a view).
Array padded(const Array& a, std::size_t before) {
    Shape shape(before, 1);
    Strides strides(before, 0);
    shape.insert(shape.end(), a.shape().begin(), a.shape().end());
    strides.insert(strides.end(), a.strides().begin(), a.strides().end());
    return Array(a.memory(), a.address(), std::move(shape), std::move(strides), a.dtype());
}

// `a` with `ones` extents of 1 before its last axis (a view).
Array spread_before_last(const Array& a, std::size_t ones) {
    Shape shape(a.shape().begin(), a.shape().end() - 1);
    Strides strides(a.strides().begin(), a.strides().end() - 1);
    shape.insert(shape.end(), ones, 1);
    strides.insert(strides.end(), ones, 0);
    shape.push_back(a.shape().back());
    strides.push_back(a.strides().back());
    return Array(a.memory(), a.address(), std::move(shape), std::move(strides), a.dtype());
}

// `a` with axis `from` moved to the end (a view).
Array axis_last(const Array& a, std::size_t from) {
    Shape shape;
    Strides strides;
    for (std::size_t d = 0; d < a.ndim(); ++d)
        if (d != from) {
            shape.push_back(a.shape()[d]);
            strides.push_back(a.strides()[d]);
        }
    shape.push_back(a.shape()[from]);
    strides.push_back(a.strides()[from]);
    return Array(a.memory(), a.address(), std::move(shape), std::move(strides), a.dtype());
}

// The sum over the last axis of x * y (broadcast), conjugating x where asked.
Array sum_products_last(const Array& x, const Array& y, bool conjugate) {
    const ReductionId id = conjugate ? ReductionId::sum_of_conjugate_products : ReductionId::sum_of_products;
    const DType result = result_type({x.dtype(), y.dtype()});
    const Array inputs[] = {x, y};
    const DType dtypes[] = {x.dtype(), y.dtype()};
    ReductionRun run;
    run.inputs = inputs;
    run.axis = std::vector<std::int64_t>{-1};
    return run_reduction(id, reduction_dtypes(id, dtypes, result), run);
}

void check_aligned(const Array& a, const Array& b, std::int64_t a_length, std::int64_t b_length) {
    if (a_length != b_length)
        throw InvalidArgumentError(concat("shapes ", format_shape(a.shape()), " and ", format_shape(b.shape()),
                                          " not aligned: ", a_length, " (dim ", a.ndim() - 1, ") != ", b_length,
                                          " (dim ", b.ndim() >= 2 ? b.ndim() - 2 : 0, ")"));
}

}  // namespace
}  // namespace detail

Array dot(const Array& a, const Array& b) {
    if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
    if (b.ndim() >= 2) {  // a matrix product: a's last axis against b's second-to-last
        detail::check_aligned(a, b, a.shape().back(), b.shape()[b.ndim() - 2]);
        const std::int64_t a_axis = -1, b_axis = -2;
        return tensordot(a, b, std::span(&a_axis, 1), std::span(&b_axis, 1));
    }
    // a (..., n) against b (..., n, m) or (n): a's other axes, then b's other axes, then n.
    const std::size_t b_axis = b.ndim() >= 2 ? b.ndim() - 2 : 0;
    detail::check_aligned(a, b, a.shape().back(), b.shape()[b_axis]);
    // x: a's other axes, (b's as 1), n; y: (a's other axes as 1), b's other axes, n.
    const Array x = detail::spread_before_last(a, b.ndim() - 1);
    const Array y = detail::padded(detail::axis_last(b, b_axis), a.ndim() - 1);
    return detail::sum_products_last(x, y, false);
}

Array dot(const Array& a, const Array& b, const Array& out) {
    const Array result = dot(a, b);
    if (out.shape() != result.shape() || out.dtype() != result.dtype())
        throw InvalidArgumentError(
            "output array is not acceptable (must have the right datatype, number of dimensions, and be a C-Array)");
    copyto(out, result);
    return out;
}

Array vdot(const Array& a, const Array& b) {
    if (a.size() != b.size())
        throw InvalidArgumentError(
            detail::concat("vdot: the arrays have ", a.size(), " and ", b.size(), " elements: they must be equal"));
    const Array x = a.reshape({a.size()});
    const Array y = b.reshape({b.size()});
    return detail::sum_products_last(x, y, true);
}

Array inner(const Array& a, const Array& b) {
    if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
    if (a.shape().back() != b.shape().back())
        throw InvalidArgumentError(detail::concat("shapes ", format_shape(a.shape()), " and ", format_shape(b.shape()),
                                                  " not aligned: ", a.shape().back(), " (dim ", a.ndim() - 1,
                                                  ") != ", b.shape().back(), " (dim ", b.ndim() - 1, ")"));
    const Array x = detail::spread_before_last(a, b.ndim() - 1);
    const Array y = detail::padded(b, a.ndim() - 1);
    return detail::sum_products_last(x, y, false);
}

Array trace(const Array& a, std::int64_t offset, std::int64_t axis1, std::int64_t axis2, std::optional<DType> dtype,
            const std::optional<Array>& out) {
    ReduceOptions options;
    options.axis = std::vector<std::int64_t>{-1};
    options.dtype = dtype;
    options.out = out;
    return sum(diagonal(a, offset, axis1, axis2), options);
}

}  // namespace gpukit
