// src/array/splitting.cpp: split and array_split, and hsplit, vsplit and dsplit, split along one
// fixed axis (gpukit/shape_ops.hpp): views of consecutive parts of an array along one axis.
#include <string_view>
#include <vector>

#include "array/along_axis.hpp"
#include "gpukit/shape_ops.hpp"
#include "util/text.hpp"

namespace gpukit {

namespace {

// The parts between consecutive bounds (Python slice bounds, so out-of-order ones give empty parts).
std::vector<Array> parts_between(const Array& a, std::size_t axis, const std::vector<std::int64_t>& bounds) {
    std::vector<Array> parts;
    for (std::size_t k = 0; k + 1 < bounds.size(); ++k)
        parts.push_back(detail::along_axis(a, axis, Slice{bounds[k], bounds[k + 1], 1}));
    return parts;
}

// The axis hsplit (columns: 1, or 0 of a 1-D array), vsplit (0) and dsplit (2) split along, once
// `a` has the `least` dimensions the function needs.
std::int64_t fixed_axis(const Array& a, std::string_view function, std::size_t least, std::int64_t axis) {
    if (a.ndim() < least)
        throw InvalidArgumentError(detail::concat(function, " only works on arrays of ", least, " or more dimensions"));
    return a.ndim() == 1 ? 0 : axis;
}

}  // namespace

std::vector<Array> array_split(const Array& a, std::span<const std::int64_t> indices, std::int64_t axis) {
    const std::size_t along = normalize_axis(axis, a.ndim());
    std::vector<std::int64_t> bounds{0};
    bounds.insert(bounds.end(), indices.begin(), indices.end());
    bounds.push_back(a.shape()[along]);
    return parts_between(a, along, bounds);
}

std::vector<Array> array_split(const Array& a, std::int64_t sections, std::int64_t axis) {
    if (sections <= 0) throw InvalidArgumentError("number sections must be larger than 0.");
    const std::size_t along = normalize_axis(axis, a.ndim());
    const std::int64_t total = a.shape()[along];
    // The first total % sections parts take one element more.
    const std::int64_t each = total / sections, longer = total % sections;
    std::vector<std::int64_t> bounds{0};
    for (std::int64_t k = 0; k < sections; ++k) bounds.push_back(bounds.back() + each + (k < longer ? 1 : 0));
    return parts_between(a, along, bounds);
}

std::vector<Array> split(const Array& a, std::span<const std::int64_t> indices, std::int64_t axis) {
    return array_split(a, indices, axis);
}

std::vector<Array> split(const Array& a, std::int64_t sections, std::int64_t axis) {
    if (sections <= 0) throw InvalidArgumentError("number sections must be larger than 0.");
    if (a.shape()[normalize_axis(axis, a.ndim())] % sections != 0)
        throw InvalidArgumentError("array split does not result in an equal division");
    return array_split(a, sections, axis);
}

std::vector<Array> hsplit(const Array& a, std::int64_t sections) {
    return split(a, sections, fixed_axis(a, "hsplit", 1, 1));
}
std::vector<Array> hsplit(const Array& a, std::span<const std::int64_t> indices) {
    return split(a, indices, fixed_axis(a, "hsplit", 1, 1));
}
std::vector<Array> vsplit(const Array& a, std::int64_t sections) {
    return split(a, sections, fixed_axis(a, "vsplit", 2, 0));
}
std::vector<Array> vsplit(const Array& a, std::span<const std::int64_t> indices) {
    return split(a, indices, fixed_axis(a, "vsplit", 2, 0));
}
std::vector<Array> dsplit(const Array& a, std::int64_t sections) {
    return split(a, sections, fixed_axis(a, "dsplit", 3, 2));
}
std::vector<Array> dsplit(const Array& a, std::span<const std::int64_t> indices) {
    return split(a, indices, fixed_axis(a, "dsplit", 3, 2));
}

}  // namespace gpukit
