// src/ops/linalg/tensor_products.cpp: tensordot, outer and kron (gpukit/linalg.hpp): tensordot as
// one matrix product (the summed axes moved last in a and first in b, each side flattened to a
// matrix), outer and kron as one broadcast multiply.
#include <algorithm>
#include <numeric>

#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/linalg.hpp"
#include "gpukit/shape_ops.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace {

using detail::concat;

std::int64_t product_of(const Array& a, std::span<const std::size_t> axes) {
    std::int64_t product = 1;
    for (const std::size_t axis : axes) product *= a.shape()[axis];
    return product;
}

// The axes of `a` that `summed` does not name, in order.
std::vector<std::size_t> free_axes(const Array& a, std::span<const std::size_t> summed) {
    std::vector<std::size_t> axes;
    for (std::size_t axis = 0; axis < a.ndim(); ++axis)
        if (std::find(summed.begin(), summed.end(), axis) == summed.end()) axes.push_back(axis);
    return axes;
}

std::vector<std::size_t> normalized(std::span<const std::int64_t> axes, const Array& a) {
    std::vector<std::size_t> result;
    for (const std::int64_t axis : axes) {
        const std::size_t n = normalize_axis(axis, a.ndim());
        if (std::find(result.begin(), result.end(), n) != result.end())
            throw InvalidArgumentError(concat("tensordot: axis ", axis, " is summed twice"));
        result.push_back(n);
    }
    return result;
}

}  // namespace

Array tensordot(const Array& a, const Array& b, std::span<const std::int64_t> a_axes,
                std::span<const std::int64_t> b_axes) {
    if (a_axes.size() != b_axes.size())
        throw InvalidArgumentError("shape-mismatch for sum: tensordot sums as many axes of a as of b");
    const std::vector<std::size_t> summed_a = normalized(a_axes, a), summed_b = normalized(b_axes, b);
    for (std::size_t k = 0; k < summed_a.size(); ++k)
        if (a.shape()[summed_a[k]] != b.shape()[summed_b[k]])
            throw InvalidArgumentError(concat("shape-mismatch for sum: axis ", a_axes[k], " of a has ",
                                              a.shape()[summed_a[k]], " elements and axis ", b_axes[k], " of b has ",
                                              b.shape()[summed_b[k]], " (shapes ", format_shape(a.shape()), " and ",
                                              format_shape(b.shape()), ")"));
    const std::vector<std::size_t> kept_a = free_axes(a, summed_a), kept_b = free_axes(b, summed_b);
    std::vector<std::int64_t> order_a, order_b;
    for (const std::size_t axis : kept_a) order_a.push_back(static_cast<std::int64_t>(axis));
    for (const std::size_t axis : summed_a) order_a.push_back(static_cast<std::int64_t>(axis));
    for (const std::size_t axis : summed_b) order_b.push_back(static_cast<std::int64_t>(axis));
    for (const std::size_t axis : kept_b) order_b.push_back(static_cast<std::int64_t>(axis));
    const std::int64_t m = product_of(a, kept_a), k = product_of(a, summed_a), n = product_of(b, kept_b);
    const Array left = a.transpose(order_a).reshape({m, k});
    const Array right = b.transpose(order_b).reshape({k, n});
    Shape shape;
    for (const std::size_t axis : kept_a) shape.push_back(a.shape()[axis]);
    for (const std::size_t axis : kept_b) shape.push_back(b.shape()[axis]);
    return matmul(left, right).reshape(shape);
}

Array tensordot(const Array& a, const Array& b, std::int64_t axes) {
    if (axes < 0 || static_cast<std::size_t>(axes) > std::min(a.ndim(), b.ndim()))
        throw InvalidArgumentError(concat("tensordot: cannot sum the last ", axes, " axes of an array of ", a.ndim(),
                                          " dimensions against the first of one of ", b.ndim()));
    std::vector<std::int64_t> a_axes, b_axes;
    for (std::int64_t k = 0; k < axes; ++k) {
        a_axes.push_back(static_cast<std::int64_t>(a.ndim()) - axes + k);
        b_axes.push_back(k);
    }
    return tensordot(a, b, a_axes, b_axes);
}

Array outer(const Array& a, const Array& b) {
    const Array x = a.ravel(), y = b.ravel();
    return multiply(x.reshape({x.size(), 1}), y.reshape({1, y.size()}));
}

Array kron(const Array& a, const Array& b) {
    // Both with as many axes (ones in front), then a's axis i beside b's axis i: a (a0, 1, a1, 1, ...)
    // times b (1, b0, 1, b1, ...), whose product is laid out as the result (a0 * b0, a1 * b1, ...).
    const std::size_t ndim = std::max(a.ndim(), b.ndim());
    Shape a_shape(ndim - a.ndim(), 1), b_shape(ndim - b.ndim(), 1);
    a_shape.insert(a_shape.end(), a.shape().begin(), a.shape().end());
    b_shape.insert(b_shape.end(), b.shape().begin(), b.shape().end());
    Shape spread_a, spread_b, result;
    for (std::size_t d = 0; d < ndim; ++d) {
        spread_a.insert(spread_a.end(), {a_shape[d], 1});
        spread_b.insert(spread_b.end(), {1, b_shape[d]});
        result.push_back(a_shape[d] * b_shape[d]);
    }
    return multiply(a.reshape(spread_a), b.reshape(spread_b)).reshape(result);
}

}  // namespace gpukit
