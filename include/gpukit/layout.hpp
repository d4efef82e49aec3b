// gpukit/layout.hpp: how an array's elements lie in memory, and the views reshape and transpose make.
//
// An array's layout is its shape (the extent of each dimension) and byte strides (bytes from one
// element to the next along each dimension, negative for reversed views), from its first element.
// Everything here is arithmetic on those, with NumPy's rules; nothing touches a device.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace gpukit {

using Shape = std::vector<std::int64_t>;
using Strides = std::vector<std::int64_t>;

// A view of an array's elements: where its first element is, in bytes from the array's first
// element, and its own shape and strides.
struct ViewLayout {
    std::int64_t offset = 0;
    Shape shape;
    Strides strides;
};

// The bytes a layout's elements touch, relative to its first element: [low, high). Both 0 when it
// has no elements.
struct ByteExtent {
    std::int64_t low = 0;
    std::int64_t high = 0;
    std::int64_t size() const noexcept { return high - low; }
};

// The number of elements (1 for the 0-d shape). Extents must not be negative.
std::int64_t element_count(std::span<const std::int64_t> shape) noexcept;
// Throws InvalidArgumentError for a negative extent ("negative dimensions are not allowed") or a
// shape whose bytes overflow 63 bits.
void check_shape(std::span<const std::int64_t> shape, std::int64_t itemsize);

// The strides of a C-contiguous (row-major) array.
Strides c_strides(std::span<const std::int64_t> shape, std::int64_t itemsize);
// Row-major (C) or column-major (Fortran) order without gaps; dimensions of extent 1 are ignored,
// and a layout with no elements is both.
bool is_c_contiguous(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                     std::int64_t itemsize) noexcept;
bool is_f_contiguous(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                     std::int64_t itemsize) noexcept;
ByteExtent byte_extent(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                       std::int64_t itemsize) noexcept;

// The shape `requested` asks for of an array of `size` elements, with its one -1 extent (if any)
// worked out. Throws InvalidArgumentError when no such shape holds exactly `size` elements.
Shape resolve_reshape(std::int64_t size, std::span<const std::int64_t> requested);
// `axes` as a permutation of 0..ndim-1, negative axes counted from the end; empty means
// reversed. Throws InvalidArgumentError when they are not a permutation.
std::vector<std::int64_t> resolve_axes(std::size_t ndim, std::span<const std::int64_t> axes);
// The layout with its dimensions in the order `axes` (a permutation, as resolve_axes gives).
ViewLayout permute(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                   std::span<const std::int64_t> axes);

// A shape or strides as Python writes a tuple: "(3, 4)", "(5,)", "()". Error messages use it.
std::string format_shape(std::span<const std::int64_t> extents);

}  // namespace gpukit
