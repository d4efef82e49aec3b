// src/array/layout.cpp: shapes and strides: contiguity, extents, reshape and transpose arithmetic.
#include "gpukit/layout.hpp"

#include <algorithm>
#include <limits>
#include <sstream>

#include "gpukit/error.hpp"

namespace gpukit {

std::int64_t element_count(std::span<const std::int64_t> shape) noexcept {
    std::int64_t count = 1;
    for (std::int64_t extent : shape) count *= extent;
    return count;
}

void check_shape(std::span<const std::int64_t> shape, std::int64_t itemsize) {
    if (std::any_of(shape.begin(), shape.end(), [](std::int64_t extent) { return extent < 0; }))
        throw InvalidArgumentError("negative dimensions are not allowed: " + format_shape(shape));
    if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return;  // any extents, no bytes
    std::int64_t bytes = itemsize;
    for (std::int64_t extent : shape) {
        if (bytes > std::numeric_limits<std::int64_t>::max() / extent)
            throw InvalidArgumentError("array is too big: a " + format_shape(shape) + " array of " +
                                       std::to_string(itemsize) + "-byte elements needs more than 2**63 bytes");
        bytes *= extent;
    }
}

Strides c_strides(std::span<const std::int64_t> shape, std::int64_t itemsize) {
    Strides strides(shape.size());
    std::int64_t step = itemsize;
    for (std::size_t i = shape.size(); i-- > 0;) {
        strides[i] = step;
        step *= std::max<std::int64_t>(shape[i], 1);
    }
    return strides;
}

namespace {

// Whether the dimensions, taken from the fastest-varying one (`order` gives their indices in that
// order), lie without gaps.
template <class Order>
bool is_dense(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides, std::int64_t itemsize,
              Order order) noexcept {
    if (element_count(shape) == 0) return true;
    std::int64_t expected = itemsize;
    for (std::size_t k = 0; k < shape.size(); ++k) {
        const std::size_t i = order(k);
        if (shape[i] != 1 && strides[i] != expected) return false;
        expected *= shape[i];
    }
    return true;
}

}  // namespace

bool is_c_contiguous(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                     std::int64_t itemsize) noexcept {
    return is_dense(shape, strides, itemsize, [n = shape.size()](std::size_t k) { return n - 1 - k; });
}

bool is_f_contiguous(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                     std::int64_t itemsize) noexcept {
    return is_dense(shape, strides, itemsize, [](std::size_t k) { return k; });
}

ByteExtent byte_extent(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                       std::int64_t itemsize) noexcept {
    ByteExtent extent;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 0) return {};
        (strides[i] < 0 ? extent.low : extent.high) += strides[i] * (shape[i] - 1);
    }
    extent.high += itemsize;
    return extent;
}

Shape resolve_reshape(std::int64_t size, std::span<const std::int64_t> requested) {
    Shape shape(requested.begin(), requested.end());
    const auto unknowns = std::count(shape.begin(), shape.end(), -1);
    if (unknowns > 1 || std::any_of(shape.begin(), shape.end(), [](std::int64_t extent) { return extent < -1; }))
        throw InvalidArgumentError("invalid shape " + format_shape(shape) +
                                   ": at most one extent may be -1, none other negative");
    const auto refuse = [&] {
        return InvalidArgumentError("cannot reshape an array of size " + std::to_string(size) + " into shape " +
                                    format_shape(shape));
    };
    std::int64_t known = 1;
    for (std::int64_t extent : shape)
        if (extent != -1) known *= extent;
    if (unknowns) {
        if (known == 0 || size % known != 0) throw refuse();
        *std::find(shape.begin(), shape.end(), -1) = size / known;
    }
    if (element_count(shape) != size) throw refuse();
    return shape;
}

std::vector<std::int64_t> resolve_axes(std::size_t ndim, std::span<const std::int64_t> axes) {
    const auto n = static_cast<std::int64_t>(ndim);
    std::vector<std::int64_t> order;
    if (axes.empty()) {
        for (std::int64_t axis = n; axis-- > 0;) order.push_back(axis);
        return order;
    }
    const auto refuse = [&](const std::string& why) {
        throw InvalidArgumentError("axes " + format_shape(axes) + ": " + why);
    };
    if (axes.size() != ndim)
        refuse("give one axis for each of the array's " + std::to_string(ndim) + " dimensions, not " +
               std::to_string(axes.size()));
    std::vector<bool> seen(ndim, false);
    for (std::int64_t axis : axes) {
        if (axis < -n || axis >= n)
            refuse("axis " + std::to_string(axis) + " is out of bounds for an array of " + std::to_string(ndim) +
                   " dimensions (axes are " + std::to_string(-n) + " to " + std::to_string(n - 1) + ")");
        const std::int64_t resolved = axis < 0 ? axis + n : axis;
        if (seen[static_cast<std::size_t>(resolved)])
            refuse("axis " + std::to_string(resolved) + " is repeated; the axes must be a permutation of 0 to " +
                   std::to_string(n - 1));
        seen[static_cast<std::size_t>(resolved)] = true;
        order.push_back(resolved);
    }
    return order;
}

ViewLayout permute(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                   std::span<const std::int64_t> axes) {
    ViewLayout view;
    for (std::int64_t axis : axes) {
        view.shape.push_back(shape[axis]);
        view.strides.push_back(strides[axis]);
    }
    return view;
}

std::string format_shape(std::span<const std::int64_t> extents) {
    std::ostringstream out;
    out << '(';
    for (std::size_t i = 0; i < extents.size(); ++i) out << (i ? ", " : "") << extents[i];
    if (extents.size() == 1) out << ',';
    out << ')';
    return out.str();
}

}  // namespace gpukit
