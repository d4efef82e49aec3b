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

Order parse_order(std::string_view name) {
    if (name == "C" || name == "c") return Order::C;
    if (name == "F" || name == "f") return Order::F;
    if (name == "A" || name == "a") return Order::A;
    if (name == "K" || name == "k") return Order::K;
    throw InvalidArgumentError("order must be one of 'C', 'F', 'A', or 'K' (got '" + std::string(name) + "')");
}

std::string_view to_string(Order order) {
    switch (order) {
        case Order::C: return "C";
        case Order::F: return "F";
        case Order::A: return "A";
        case Order::K: return "K";
    }
    return "?";
}

std::vector<std::int64_t> memory_order(std::span<const std::int64_t> strides) {
    std::vector<std::int64_t> order(strides.size());
    for (std::size_t d = 0; d < order.size(); ++d) order[d] = static_cast<std::int64_t>(d);
    const auto magnitude = [&](std::int64_t d) {
        const std::int64_t s = strides[static_cast<std::size_t>(d)];
        return s < 0 ? -s : s;
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::int64_t a, std::int64_t b) { return magnitude(a) > magnitude(b); });
    return order;
}

Strides dense_strides(std::span<const std::int64_t> shape, std::int64_t itemsize,
                      std::span<const std::int64_t> outermost_first) {
    Strides strides(shape.size());
    std::int64_t step = itemsize;
    for (std::size_t k = outermost_first.size(); k-- > 0;) {
        const auto d = static_cast<std::size_t>(outermost_first[k]);
        strides[d] = step;
        step *= std::max<std::int64_t>(shape[d], 1);
    }
    return strides;
}

Strides strides_in_order(std::span<const std::int64_t> shape, std::int64_t itemsize, Order order,
                         std::span<const std::int64_t> like_shape, std::span<const std::int64_t> like_strides,
                         std::int64_t like_itemsize) {
    const bool like_given = like_strides.size() == shape.size() && like_shape.size() == shape.size();
    const bool like_c = like_given && is_c_contiguous(like_shape, like_strides, like_itemsize);
    const bool like_f = like_given && is_f_contiguous(like_shape, like_strides, like_itemsize);
    if (order == Order::A) order = like_f && !like_c ? Order::F : Order::C;
    if (order == Order::K) {
        if (!like_given || like_c)
            order = Order::C;
        else if (like_f)
            order = Order::F;
        else
            return dense_strides(shape, itemsize, memory_order(like_strides));
    }
    if (order == Order::C) return c_strides(shape, itemsize);
    std::vector<std::int64_t> reversed(shape.size());
    for (std::size_t d = 0; d < shape.size(); ++d) reversed[d] = static_cast<std::int64_t>(shape.size() - 1 - d);
    return dense_strides(shape, itemsize, reversed);
}

namespace {

// reshaped_strides in C order. Dimensions of extent 1 carry no information and are set aside;
// the rest are cut into the smallest groups whose extents multiply to the same product in both
// shapes; each old group must be evenly spaced (each stride the next one times its extent), and
// then the new group's dimensions take strides nested in that spacing.
std::optional<Strides> reshaped_c_strides(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                                          std::int64_t itemsize, std::span<const std::int64_t> new_shape) {
    if (element_count(shape) == 0) return c_strides(new_shape, itemsize);  // no elements to keep in place
    Shape old_extents;
    Strides old_strides;
    for (std::size_t d = 0; d < shape.size(); ++d)
        if (shape[d] != 1) {
            old_extents.push_back(shape[d]);
            old_strides.push_back(strides[d]);
        }
    Strides result(new_shape.size(), 0);
    std::size_t old_begin = 0, new_begin = 0;
    while (old_begin < old_extents.size() && new_begin < new_shape.size()) {
        std::size_t old_end = old_begin + 1, new_end = new_begin + 1;
        std::int64_t old_product = old_extents[old_begin], new_product = new_shape[new_begin];
        while (old_product != new_product) {
            if (new_product < old_product)
                new_product *= new_shape[new_end++];
            else
                old_product *= old_extents[old_end++];
        }
        for (std::size_t d = old_begin; d + 1 < old_end; ++d)
            if (old_strides[d] != old_extents[d + 1] * old_strides[d + 1]) return std::nullopt;
        result[new_end - 1] = old_strides[old_end - 1];
        for (std::size_t d = new_end - 1; d > new_begin; --d) result[d - 1] = result[d] * new_shape[d];
        old_begin = old_end;
        new_begin = new_end;
    }
    // What is left of the new shape is extents of 1: any stride does; NumPy's is the innermost spacing.
    const std::int64_t last = new_begin > 0 ? result[new_begin - 1] : itemsize;
    for (std::size_t d = new_begin; d < new_shape.size(); ++d) result[d] = last;
    return result;
}

}  // namespace

std::optional<Strides> reshaped_strides(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                                        std::int64_t itemsize, std::span<const std::int64_t> new_shape, bool fortran) {
    if (!fortran) return reshaped_c_strides(shape, strides, itemsize, new_shape);
    // F order is C order with every dimension list reversed.
    const Shape old_reversed(shape.rbegin(), shape.rend());
    const Strides strides_reversed(strides.rbegin(), strides.rend());
    const Shape new_reversed(new_shape.rbegin(), new_shape.rend());
    std::optional<Strides> result = reshaped_c_strides(old_reversed, strides_reversed, itemsize, new_reversed);
    if (result) std::reverse(result->begin(), result->end());
    return result;
}

std::size_t normalize_axis(std::int64_t axis, std::size_t ndim) {
    const auto n = static_cast<std::int64_t>(ndim);
    if (axis < -n || axis >= n)
        throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                        std::to_string(ndim));
    return static_cast<std::size_t>(axis < 0 ? axis + n : axis);
}

std::vector<std::size_t> normalize_axes(std::span<const std::int64_t> axes, std::size_t ndim) {
    std::vector<std::size_t> normalized;
    for (std::int64_t axis : axes) {
        const std::size_t d = normalize_axis(axis, ndim);
        if (std::find(normalized.begin(), normalized.end(), d) != normalized.end())
            throw InvalidArgumentError("repeated axis");
        normalized.push_back(d);
    }
    return normalized;
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
