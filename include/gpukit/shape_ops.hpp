// gpukit/shape_ops.hpp: NumPy's shape and joining functions on arrays.
//
//   auto v = gpukit::moveaxis(a, {0}, {-1});            // a view: nothing is copied
//   auto c = gpukit::concatenate({a, b}, 1);             // a new array, filled on the device
//   auto parts = gpukit::array_split(c, 3, 1);           // views of c
//
// Views share the array's memory (as NumPy's do; they are writable here). The functions that make
// new arrays write them with the device copy (src/array/device_copy.hpp) into views of the result:
// one generated kernel per piece, on the current stream, without waiting. Errors are NumPy's, in
// its words: AxisError for an axis out of range, DTypeError for a cast the casting rule forbids,
// InvalidArgumentError for shapes that do not fit.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "gpukit/array.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/scalar.hpp"

namespace gpukit {

// ---- views of the same elements in other dimensions
// Without the dimensions of extent 1 (all of them, or those of `axes`, which must be 1).
Array squeeze(const Array& a);
Array squeeze(const Array& a, std::span<const std::int64_t> axes);
// With new dimensions of extent 1 at `axes` (positions in the result).
Array expand_dims(const Array& a, std::span<const std::int64_t> axes);
Array swapaxes(const Array& a, std::int64_t axis1, std::int64_t axis2);
// The matrices of the last two axes transposed (the Array API's matrix_transpose, ndarray.mT): a view.
// InvalidArgumentError for fewer than two dimensions.
Array matrix_transpose(const Array& a);
// The views a[i] along `axis`, one per index (the Array API's unstack): AxisError out of range.
std::vector<Array> unstack(const Array& a, std::int64_t axis = 0);
// The dimensions at `source` moved to `destination`, the others keeping their order.
Array moveaxis(const Array& a, std::span<const std::int64_t> source, std::span<const std::int64_t> destination);
// NumPy's rollaxis: the dimension `axis` moved to just before position `start` (0 <= start <= ndim,
// negative counting from the end): a view. AxisError for an axis or a start out of range.
Array rollaxis(const Array& a, std::int64_t axis, std::int64_t start = 0);
// `a` repeated (stride 0) to `shape` by NumPy's broadcasting rules.
Array broadcast_to(const Array& a, std::span<const std::int64_t> shape);
// The shape arrays of `shapes` broadcast to (numpy.broadcast_shapes). InvalidArgumentError naming the
// first two that do not fit, as NumPy's message names them; for a negative extent.
Shape broadcast_shapes(std::span<const Shape> shapes);
// Every array broadcast to their common shape.
std::vector<Array> broadcast_arrays(std::span<const Array> arrays);
// At least 1, 2 or 3 dimensions, as NumPy adds them: (n,) -> (1, n) -> (1, n, 1).
Array atleast_1d(const Array& a);
Array atleast_2d(const Array& a);
Array atleast_3d(const Array& a);
// Reversed along `axes` (every axis when none are given): negative strides.
Array flip(const Array& a);
Array flip(const Array& a, std::span<const std::int64_t> axes);
// Rotated by 90 degrees k times, from the first of `axes` toward the second.
Array rot90(const Array& a, std::int64_t k = 1, std::pair<std::int64_t, std::int64_t> axes = {0, 1});
// The diagonal at `offset` of the matrices in axes (axis1, axis2), as the last dimension.
Array diagonal(const Array& a, std::int64_t offset = 0, std::int64_t axis1 = 0, std::int64_t axis2 = 1);

// ---- new arrays
// A 1-D copy in `order` (ravel without the view).
Array flatten(const Array& a, Order order = Order::C);

// How joined arrays are written: into `out` (its shape must be the result's), or a new array of
// `dtype` (the arrays' result_type when not given); each array cast under `casting`.
struct JoinOptions {
    std::optional<Array> out;
    std::optional<DType> dtype;
    Casting casting = Casting::same_kind;
};
// Joined along `axis` (flattened first when axis is nullopt, NumPy's axis=None).
Array concatenate(std::span<const Array> arrays, std::optional<std::int64_t> axis = 0, const JoinOptions& options = {});
// Joined along a new axis (all arrays of one shape).
Array stack(std::span<const Array> arrays, std::int64_t axis = 0, const JoinOptions& options = {});
Array vstack(std::span<const Array> arrays, const JoinOptions& options = {});  // rows: at least 2-D, axis 0
Array hstack(std::span<const Array> arrays, const JoinOptions& options = {});  // columns: axis 1 (0 for 1-D)
Array dstack(std::span<const Array> arrays, const JoinOptions& options = {});  // depth: at least 3-D, axis 2
Array column_stack(std::span<const Array> arrays);                             // 1-D arrays as columns

// Views of consecutive parts along `axis`: `sections` equal parts (split refuses an unequal
// division; array_split gives the first size % sections parts one more), or the parts between
// `indices` (Python slice bounds: negative count from the end, clamped).
std::vector<Array> split(const Array& a, std::int64_t sections, std::int64_t axis = 0);
std::vector<Array> split(const Array& a, std::span<const std::int64_t> indices, std::int64_t axis = 0);
std::vector<Array> array_split(const Array& a, std::int64_t sections, std::int64_t axis = 0);
std::vector<Array> array_split(const Array& a, std::span<const std::int64_t> indices, std::int64_t axis = 0);
// split along the columns (axis 1; 0 for 1-D arrays), the rows (axis 0, at least 2-D) or the depth
// (axis 2, at least 3-D), as NumPy's hsplit, vsplit and dsplit: InvalidArgumentError for fewer dimensions.
std::vector<Array> hsplit(const Array& a, std::int64_t sections);
std::vector<Array> hsplit(const Array& a, std::span<const std::int64_t> indices);
std::vector<Array> vsplit(const Array& a, std::int64_t sections);
std::vector<Array> vsplit(const Array& a, std::span<const std::int64_t> indices);
std::vector<Array> dsplit(const Array& a, std::int64_t sections);
std::vector<Array> dsplit(const Array& a, std::span<const std::int64_t> indices);

// NumPy's block: nested lists of arrays joined as blocks, the innermost lists along the last axis,
// the next along the one before, ... Each array gets leading dimensions of extent 1 up to the
// result's (the deepest nesting or the most dimensions); the result's dtype is all the arrays'
// result_type. InvalidArgumentError, in NumPy's words, for an empty list, lists nested to different
// depths and blocks whose shapes do not fit.
struct Blocks {
    std::optional<Array> array;  // a block...
    std::vector<Blocks> items;   // ...or a list of them (when `array` is empty)
};
Array block(const Blocks& arrays);

// `a` repeated `reps` times along each dimension (leading dimensions added to either as needed).
Array tile(const Array& a, std::span<const std::int64_t> reps);
// Each element repeated `repeats` times (one count, or one per element along the axis), along
// `axis`, or over the flattened array when axis is nullopt.
Array repeat(const Array& a, std::int64_t repeats, std::optional<std::int64_t> axis = std::nullopt);
Array repeat(const Array& a, std::span<const std::int64_t> repeats, std::optional<std::int64_t> axis = std::nullopt);

// NumPy's pad: widths (before, after) per axis; constant (`constants`, one pair per axis, 0 when
// empty), edge (the edge element repeated), reflect (mirrored about the edge, the edge not
// repeated) or symmetric (mirrored with the edge repeated), widths beyond the array mirroring
// again; wrap (the array repeated); maximum, minimum, mean or median (of the `stat_length`
// elements nearest each edge, all when none; integers rounded as NumPy rounds); linear_ramp (from
// the end values, `constants`, to the edge); empty (left as the memory was), as NumPy's.
enum class PadMode : std::uint8_t {
    constant,
    edge,
    reflect,
    symmetric,
    wrap,
    maximum,
    minimum,
    mean,
    median,
    linear_ramp,
    empty
};
Array pad(const Array& a, std::span<const std::pair<std::int64_t, std::int64_t>> widths,
          PadMode mode = PadMode::constant, std::span<const std::pair<Scalar, Scalar>> constants = {});
struct PadOptions {
    PadMode mode = PadMode::constant;
    std::vector<std::pair<Scalar, Scalar>> constants;  // constant: the values; linear_ramp: the end values
    // maximum, minimum, mean, median: how many elements nearest each edge (per axis; all when none)
    std::vector<std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>>> stat_length;
    bool odd = false;  // reflect and symmetric: reflect_type='odd' (2 * edge - the mirror image)
};
Array pad(const Array& a, std::span<const std::pair<std::int64_t, std::int64_t>> widths, const PadOptions& options);

// Elements shifted along `axes` by `shifts` (one each), wrapping around; over the flattened array
// when no axes are given (one shift).
Array roll(const Array& a, std::span<const std::int64_t> shifts, std::span<const std::int64_t> axes = {});

// The lower (upper) triangle of the matrices in the last two dimensions, from diagonal k on, the
// rest zero. A 1-D array is taken as the rows of a square matrix, as NumPy's.
Array tril(const Array& a, std::int64_t k = 0);
Array triu(const Array& a, std::int64_t k = 0);

// NumPy's diag: of a 1-D array, the square matrix with it on diagonal k and zeros elsewhere; of a
// 2-D array, a copy of its diagonal k. Throws InvalidArgumentError for other dimensions.
Array diag(const Array& v, std::int64_t k = 0);
// The flattened array on diagonal k of a new square matrix (numpy.diagflat).
Array diagflat(const Array& v, std::int64_t k = 0);

// Coordinate arrays of a grid from 1-D coordinate vectors: 'xy' (Cartesian: the first two
// dimensions swapped) or 'ij' (matrix) indexing; sparse: dimensions of extent 1 broadcast instead
// of full arrays; copy: new arrays rather than broadcast views.
struct MeshgridOptions {
    bool matrix_indexing = false;  // indexing='ij'
    bool sparse = false;
    bool copy = true;
};
std::vector<Array> meshgrid(std::span<const Array> coordinates, const MeshgridOptions& options = {});
// NumPy's indices: an array of shape (len(dimensions), *dimensions) whose plane k holds each
// element's coordinate k; sparse: one array per dimension, of extent 1 elsewhere.
Array indices(std::span<const std::int64_t> dimensions, DType dtype = DType::int64, Device device = Device::current());
std::vector<Array> sparse_indices(std::span<const std::int64_t> dimensions, DType dtype = DType::int64,
                                  Device device = Device::current());

// dst[...] = src, broadcast, where `where` (bool, broadcast) is true when given. DTypeError when
// `casting` forbids src's dtype into dst's; InvalidArgumentError when the shapes do not broadcast.
void copyto(const Array& dst, const Array& src, Casting casting = Casting::same_kind,
            const std::optional<Array>& where = std::nullopt);

}  // namespace gpukit
