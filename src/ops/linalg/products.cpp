// src/ops/linalg/products.cpp: dot, vdot, inner, vecdot, cross and trace (include/gpukit/linalg.hpp).
// dot with a matrix on the right is tensordot's matrix product; vdot, inner and vecdot are one
// reduction of the operands' broadcast product: the operands are viewed (never copied) so that
// their summed axes line up last and their other axes broadcast against each other, then
// sum_of_products reduces that last axis. cross is elementwise products of the components.
#include <algorithm>
#include <utility>

#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/indexing.hpp"
#include "gpukit/layout.hpp"
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

Array vecdot(const Array& a, const Array& b, std::int64_t axis) {
    const std::size_t a_axis = normalize_axis(axis, a.ndim()), b_axis = normalize_axis(axis, b.ndim());
    if (a.shape()[a_axis] != b.shape()[b_axis])
        throw InvalidArgumentError(detail::concat(
            "vecdot: the vectors of ", format_shape(a.shape()), " and ", format_shape(b.shape()), " along axis ", axis,
            " have ", a.shape()[a_axis], " and ", b.shape()[b_axis], " components: they must be equal"));
    const std::size_t ndim = std::max(a.ndim(), b.ndim());
    const Array x = detail::padded(detail::axis_last(a, a_axis), ndim - a.ndim());
    const Array y = detail::padded(detail::axis_last(b, b_axis), ndim - b.ndim());
    return detail::sum_products_last(x, y, true);
}

Array cross(const Array& a, const Array& b, std::int64_t axisa, std::int64_t axisb, std::int64_t axisc) {
    const std::int64_t last[] = {-1};
    const std::int64_t from_a[] = {static_cast<std::int64_t>(normalize_axis(axisa, a.ndim()))};
    const std::int64_t from_b[] = {static_cast<std::int64_t>(normalize_axis(axisb, b.ndim()))};
    const Array x = moveaxis(a, from_a, last), y = moveaxis(b, from_b, last);
    const std::int64_t n = x.shape().back(), m = y.shape().back();
    if ((n != 2 && n != 3) || (m != 2 && m != 3))
        throw InvalidArgumentError("incompatible dimensions for cross product\n(dimension must be 2 or 3)");
    auto component = [](const Array& v, std::int64_t i) { return v.index({Index(Ellipsis{}), Index(i)}); };
    const Array x0 = component(x, 0), x1 = component(x, 1), y0 = component(y, 0), y1 = component(y, 1);
    Array z = subtract(multiply(x0, y1), multiply(x1, y0));
    if (n == 2 && m == 2) return z;
    // A missing third component is 0: its products drop out of the first two components.
    auto first_two = [&]() -> std::pair<Array, Array> {
        if (n == 3 && m == 3) {
            const Array x2 = component(x, 2), y2 = component(y, 2);
            return {subtract(multiply(x1, y2), multiply(x2, y1)), subtract(multiply(x2, y0), multiply(x0, y2))};
        }
        if (n == 2) {
            const Array y2 = component(y, 2);
            return {multiply(x1, y2), negative(multiply(x0, y2))};
        }
        const Array x2 = component(x, 2);
        return {negative(multiply(x2, y1)), multiply(x2, y0)};
    };
    auto [first, second] = first_two();
    const Array parts[] = {std::move(first), std::move(second), std::move(z)};
    // The components' common shape: a batch that broadcasts a component (of extent 1) as NumPy's does.
    const std::vector<Array> common = broadcast_arrays(parts);
    const Array stacked = stack(common, -1);
    const std::int64_t to[] = {static_cast<std::int64_t>(normalize_axis(axisc, stacked.ndim()))};
    return moveaxis(stacked, last, to);
}

namespace linalg {

Array cross(const Array& a, const Array& b, std::int64_t axis) {
    const std::size_t a_axis = normalize_axis(axis, a.ndim()), b_axis = normalize_axis(axis, b.ndim());
    if (a.shape()[a_axis] != 3 || b.shape()[b_axis] != 3)
        throw InvalidArgumentError(
            detail::concat("Both input arrays must be (arrays of) 3-dimensional vectors, but "
                           "they are ",
                           a.shape()[a_axis], " and ", b.shape()[b_axis], " dimensional instead."));
    return gpukit::cross(a, b, axis, axis, axis);
}

}  // namespace linalg

Array trace(const Array& a, std::int64_t offset, std::int64_t axis1, std::int64_t axis2, std::optional<DType> dtype,
            const std::optional<Array>& out) {
    ReduceOptions options;
    options.axis = std::vector<std::int64_t>{-1};
    options.dtype = dtype;
    options.out = out;
    return sum(diagonal(a, offset, axis1, axis2), options);
}

}  // namespace gpukit
