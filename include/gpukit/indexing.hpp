// gpukit/indexing.hpp: basic indexing, NumPy's rules for the part of an array a key selects.
//
//   array.index({gpukit::Slice{1, -1}, 3})                       // a[1:-1, 3]
//   array.index({gpukit::ellipsis, gpukit::Slice{{}, {}, -2}})   // a[..., ::-2]
//   array.index({gpukit::newaxis, 0})                            // a[None, 0]
//
// Integers, slices (with steps, negative ones included), newaxis and ellipsis select a view that
// shares the array's memory. Index arrays (advanced indexing) gather copies and are not here.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <variant>

#include "gpukit/layout.hpp"

namespace gpukit {

// start:stop:step, each optional as in Python.
struct Slice {
    std::optional<std::int64_t> start;
    std::optional<std::int64_t> stop;
    std::optional<std::int64_t> step;
};

// What a slice selects of a dimension of `extent` elements, as Python's slice.indices() says:
// the first index, the step, and how many elements.
struct SliceRange {
    std::int64_t start = 0;
    std::int64_t step = 1;
    std::int64_t length = 0;
};
// Throws InvalidArgumentError for a zero step.
SliceRange resolve(const Slice& slice, std::int64_t extent);

struct NewAxis {};   // a new dimension of extent 1 (NumPy's None)
struct Ellipsis {};  // as many full slices as the dimensions the rest of the key leaves (...)
inline constexpr NewAxis newaxis{};
inline constexpr Ellipsis ellipsis{};

using Index = std::variant<std::int64_t, Slice, NewAxis, Ellipsis>;

// The view `key` selects of a layout: its offset from the first element, shape and strides.
// Throws IndexError for an integer out of bounds, more indices than dimensions, or a second
// ellipsis, with NumPy's messages.
ViewLayout select(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                  std::span<const Index> key);

}  // namespace gpukit
