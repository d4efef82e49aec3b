// src/array/dimension_views.cpp: views that rearrange an array's dimensions (gpukit/shape_ops.hpp):
// squeeze, expand_dims, swapaxes, moveaxis, rollaxis, broadcast_to, broadcast_arrays (and the shape,
// broadcast_shapes), atleast_*d, flip, rot90,
// diagonal (real and imag are gpukit/elementwise.hpp's). Arithmetic on shapes and strides only:
// nothing touches the device, but flatten (a copy).
#include <algorithm>
#include <numeric>

#include "gpukit/creation.hpp"
#include "gpukit/indexing.hpp"
#include "gpukit/shape_ops.hpp"
#include "ops/elementwise/collapse.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

namespace {

Array with_layout(const Array& a, std::int64_t offset, Shape shape, Strides strides) {
    return a.view(ViewLayout{offset, std::move(shape), std::move(strides)});
}

}  // namespace

Array squeeze(const Array& a) {
    Shape shape;
    Strides strides;
    for (std::size_t d = 0; d < a.ndim(); ++d)
        if (a.shape()[d] != 1) {
            shape.push_back(a.shape()[d]);
            strides.push_back(a.strides()[d]);
        }
    return with_layout(a, 0, std::move(shape), std::move(strides));
}

Array squeeze(const Array& a, std::span<const std::int64_t> axes) {
    const std::vector<std::size_t> removed = normalize_axes(axes, a.ndim());
    Shape shape;
    Strides strides;
    for (std::size_t d = 0; d < a.ndim(); ++d) {
        if (std::find(removed.begin(), removed.end(), d) == removed.end()) {
            shape.push_back(a.shape()[d]);
            strides.push_back(a.strides()[d]);
        } else if (a.shape()[d] != 1) {
            throw InvalidArgumentError("cannot select an axis to squeeze out which has size not equal to one");
        }
    }
    return with_layout(a, 0, std::move(shape), std::move(strides));
}

Array expand_dims(const Array& a, std::span<const std::int64_t> axes) {
    const std::size_t ndim = a.ndim() + axes.size();
    const std::vector<std::size_t> added = normalize_axes(axes, ndim);
    Shape shape;
    Strides strides;
    std::size_t next = 0;
    for (std::size_t d = 0; d < ndim; ++d) {
        if (std::find(added.begin(), added.end(), d) != added.end()) {
            shape.push_back(1);
            strides.push_back(0);
        } else {
            shape.push_back(a.shape()[next]);
            strides.push_back(a.strides()[next++]);
        }
    }
    return with_layout(a, 0, std::move(shape), std::move(strides));
}

Array swapaxes(const Array& a, std::int64_t axis1, std::int64_t axis2) {
    const std::size_t first = normalize_axis(axis1, a.ndim()), second = normalize_axis(axis2, a.ndim());
    std::vector<std::int64_t> order(a.ndim());
    std::iota(order.begin(), order.end(), 0);
    std::swap(order[first], order[second]);
    return a.transpose(order);
}

Array matrix_transpose(const Array& a) {
    if (a.ndim() < 2)
        throw InvalidArgumentError(
            detail::concat("matrix_transpose needs an array of at least 2 dimensions, not ", a.ndim()));
    return swapaxes(a, -2, -1);
}

std::vector<Array> unstack(const Array& a, std::int64_t axis) {
    const std::size_t along = normalize_axis(axis, a.ndim());
    const std::int64_t source[] = {static_cast<std::int64_t>(along)}, destination[] = {0};
    const Array leading = moveaxis(a, source, destination);
    std::vector<Array> pieces;
    pieces.reserve(static_cast<std::size_t>(leading.shape()[0]));
    for (std::int64_t i = 0; i < leading.shape()[0]; ++i) pieces.push_back(leading.index({Index(i)}));
    return pieces;
}

Array moveaxis(const Array& a, std::span<const std::int64_t> source, std::span<const std::int64_t> destination) {
    if (source.size() != destination.size())
        throw InvalidArgumentError("`source` and `destination` arguments must have the same number of elements");
    const std::vector<std::size_t> from = normalize_axes(source, a.ndim());
    const std::vector<std::size_t> to = normalize_axes(destination, a.ndim());
    std::vector<std::int64_t> order;
    for (std::size_t d = 0; d < a.ndim(); ++d)
        if (std::find(from.begin(), from.end(), d) == from.end()) order.push_back(static_cast<std::int64_t>(d));
    std::vector<std::pair<std::size_t, std::size_t>> moves;
    for (std::size_t k = 0; k < from.size(); ++k) moves.emplace_back(to[k], from[k]);
    std::sort(moves.begin(), moves.end());
    for (const auto& [destination_axis, source_axis] : moves)
        order.insert(order.begin() + static_cast<std::ptrdiff_t>(destination_axis),
                     static_cast<std::int64_t>(source_axis));
    return a.transpose(order);
}

Array rollaxis(const Array& a, std::int64_t axis, std::int64_t start) {
    const auto ndim = static_cast<std::int64_t>(a.ndim());
    const auto from = static_cast<std::int64_t>(normalize_axis(axis, a.ndim()));
    // start may be ndim (after the last axis), so it is checked against ndim + 1, in NumPy's words.
    const std::int64_t position = start < 0 ? start + ndim : start;
    if (position < 0 || position > ndim)
        throw AxisError(
            concat("'start' arg requires ", -ndim, " <= start < ", ndim + 1, ", but ", position, " was passed in"));
    // Before `start` once the axis is taken out: one place earlier when it was in front.
    const std::int64_t to = from < position ? position - 1 : position;
    std::vector<std::int64_t> order;
    for (std::int64_t d = 0; d < ndim; ++d)
        if (d != from) order.push_back(d);
    order.insert(order.begin() + to, from);
    return a.transpose(order);
}

Shape broadcast_shapes(std::span<const Shape> shapes) {
    std::size_t ndim = 0;
    for (const Shape& shape : shapes) {
        if (std::any_of(shape.begin(), shape.end(), [](std::int64_t extent) { return extent < 0; }))
            throw InvalidArgumentError("negative dimensions are not allowed");
        ndim = std::max(ndim, shape.size());
    }
    // Dimension by dimension from the first, as NumPy's broadcast finds the pair it names.
    Shape result(ndim, 1);
    for (std::size_t d = 0; d < ndim; ++d) {
        std::optional<std::size_t> setter;  // the first shape of an extent other than 1 here
        for (std::size_t k = 0; k < shapes.size(); ++k) {
            const Shape& shape = shapes[k];
            if (d + shape.size() < ndim) continue;
            const std::int64_t extent = shape[d + shape.size() - ndim];
            if (extent == 1) continue;
            if (!setter) {
                setter = k;
                result[d] = extent;
            } else if (extent != result[d]) {
                throw InvalidArgumentError(
                    concat("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg ",
                           *setter, " with shape ", format_shape(shapes[*setter]), " and arg ", k, " with shape ",
                           format_shape(shape), "."));
            }
        }
    }
    return result;
}

Array broadcast_to(const Array& a, std::span<const std::int64_t> shape) {
    if (std::any_of(shape.begin(), shape.end(), [](std::int64_t extent) { return extent < 0; }))
        throw InvalidArgumentError("all elements of broadcast shape must be non-negative");
    Strides strides = detail::broadcast_strides(a.shape(), a.strides(), shape);
    return with_layout(a, 0, Shape(shape.begin(), shape.end()), std::move(strides));
}

std::vector<Array> broadcast_arrays(std::span<const Array> arrays) {
    std::vector<Shape> shapes;
    for (const Array& array : arrays) shapes.push_back(array.shape());
    const Shape shape = detail::broadcast_shapes(shapes);
    std::vector<Array> result;
    for (const Array& array : arrays) result.push_back(broadcast_to(array, shape));
    return result;
}

Array atleast_1d(const Array& a) { return a.ndim() >= 1 ? a : a.reshape({1}); }

Array atleast_2d(const Array& a) {
    if (a.ndim() >= 2) return a;
    const std::int64_t front[] = {0};
    return a.ndim() == 1 ? expand_dims(a, front) : a.reshape({1, 1});
}

Array atleast_3d(const Array& a) {
    if (a.ndim() >= 3) return a;
    if (a.ndim() == 0) return a.reshape({1, 1, 1});
    const std::int64_t around[] = {0, 2};
    const std::int64_t back[] = {2};
    return a.ndim() == 1 ? expand_dims(a, around) : expand_dims(a, back);
}

Array flip(const Array& a) {
    std::vector<std::int64_t> every(a.ndim());
    std::iota(every.begin(), every.end(), 0);
    return flip(a, every);
}

Array flip(const Array& a, std::span<const std::int64_t> axes) {
    Strides strides = a.strides();
    std::int64_t offset = 0;
    for (std::size_t d : normalize_axes(axes, a.ndim())) {
        if (a.shape()[d] > 0) offset += (a.shape()[d] - 1) * strides[d];
        strides[d] = -strides[d];
    }
    return with_layout(a, offset, a.shape(), std::move(strides));
}

Array rot90(const Array& a, std::int64_t k, std::pair<std::int64_t, std::int64_t> axes) {
    const auto ndim = static_cast<std::int64_t>(a.ndim());
    const auto [first, second] = axes;
    if (first == second || std::abs(first - second) == ndim) throw InvalidArgumentError("Axes must be different.");
    if (first >= ndim || first < -ndim || second >= ndim || second < -ndim)
        throw InvalidArgumentError(
            concat("Axes=(", first, ", ", second, ") out of range for array of ndim=", ndim, "."));
    k = ((k % 4) + 4) % 4;  // Python's modulo
    if (k == 0) return a;
    const std::int64_t one[] = {first}, other[] = {second};
    if (k == 2) return flip(flip(a, one), other);
    std::vector<std::int64_t> order(a.ndim());
    std::iota(order.begin(), order.end(), 0);
    std::swap(order[normalize_axis(first, a.ndim())], order[normalize_axis(second, a.ndim())]);
    if (k == 1) return flip(a, other).transpose(order);
    return flip(a.transpose(order), other);
}

Array diagonal(const Array& a, std::int64_t offset, std::int64_t axis1, std::int64_t axis2) {
    if (a.ndim() < 2) throw InvalidArgumentError("diag requires an array of at least two dimensions");
    const std::size_t first = normalize_axis(axis1, a.ndim()), second = normalize_axis(axis2, a.ndim());
    if (first == second) throw InvalidArgumentError("axis1 and axis2 cannot be the same");
    const std::int64_t rows = a.shape()[first], columns = a.shape()[second];
    const std::int64_t length =
        std::max<std::int64_t>(0, offset >= 0 ? std::min(rows, columns - offset) : std::min(rows + offset, columns));
    Shape shape;
    Strides strides;
    for (std::size_t d = 0; d < a.ndim(); ++d)
        if (d != first && d != second) {
            shape.push_back(a.shape()[d]);
            strides.push_back(a.strides()[d]);
        }
    shape.push_back(length);
    strides.push_back(a.strides()[first] + a.strides()[second]);
    const std::int64_t start = length == 0   ? 0
                               : offset >= 0 ? offset * a.strides()[second]
                                             : -offset * a.strides()[first];
    return with_layout(a, start, std::move(shape), std::move(strides));
}

Array flatten(const Array& a, Order order) {
    const std::int64_t flat[] = {a.size()};
    if (order == Order::A) order = a.is_f_contiguous() && !a.is_c_contiguous() ? Order::F : Order::C;
    if (order == Order::F) return a.copy(Order::F).reshape(flat, Order::F);
    if (order == Order::K) return a.transpose(memory_order(a.strides())).copy(Order::C).reshape(flat);
    return a.copy(Order::C).reshape(flat);
}

}  // namespace gpukit
