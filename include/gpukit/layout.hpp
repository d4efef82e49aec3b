// gpukit/layout.hpp: how an array's elements lie in memory, and the views reshape and transpose make.
//
// An array's layout is its shape (the extent of each dimension) and byte strides (bytes from one
// element to the next along each dimension, negative for reversed views), from its first element.
// Everything here is arithmetic on those, with NumPy's rules; nothing touches a device.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
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

// NumPy's order= for the elements of a new array or a reshape: C (row-major), F (column-major),
// A (F when the array is F-contiguous and not C-contiguous, else C), K (the array's own order in
// memory, as near as a layout without gaps allows).
enum class Order : std::uint8_t { C, F, A, K };
// "C", "F", "A" or "K" (lower case too); InvalidArgumentError naming them otherwise.
Order parse_order(std::string_view name);
std::string_view to_string(Order order);

// The dimensions of a layout from outermost to innermost in memory: by decreasing absolute stride,
// ties in axis order (NumPy's order for K).
std::vector<std::int64_t> memory_order(std::span<const std::int64_t> strides);
// The strides of a layout without gaps with its dimensions nested as `outermost_first` says.
Strides dense_strides(std::span<const std::int64_t> shape, std::int64_t itemsize,
                      std::span<const std::int64_t> outermost_first);
// The strides of a new array of `shape` in `order`; A and K follow a model layout (`like_shape`,
// `like_strides`, `like_itemsize`: the array it is made like), which C and F ignore.
Strides strides_in_order(std::span<const std::int64_t> shape, std::int64_t itemsize, Order order,
                         std::span<const std::int64_t> like_shape = {}, std::span<const std::int64_t> like_strides = {},
                         std::int64_t like_itemsize = 1);

// The strides that view the same elements in `new_shape` (same size), read in C order (F order:
// `fortran`), or nullopt when no strides can (the elements are not evenly spaced along some merged
// group of dimensions): NumPy's test for whether reshape can return a view.
std::optional<Strides> reshaped_strides(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                                        std::int64_t itemsize, std::span<const std::int64_t> new_shape,
                                        bool fortran = false);

// An axis of an ndim-dimensional array, negative ones counted from the end. Throws AxisError
// ("axis 3 is out of bounds for array of dimension 2", NumPy's words) otherwise.
std::size_t normalize_axis(std::int64_t axis, std::size_t ndim);
// Several distinct axes, each normalized; InvalidArgumentError "repeated axis" for a repeat.
std::vector<std::size_t> normalize_axes(std::span<const std::int64_t> axes, std::size_t ndim);

// A shape or strides as Python writes a tuple: "(3, 4)", "(5,)", "()". Error messages use it.
std::string format_shape(std::span<const std::int64_t> extents);

}  // namespace gpukit
