// gpukit/advanced_indexing.hpp: indexing with arrays (NumPy's advanced indexing) and the indexing
// routines built on it, on the device.
//
//   gpukit::Array picked = gpukit::getitem(x, {idx});                  // x[idx]: a gather
//   gpukit::Array rows = gpukit::getitem(x, {gpukit::Slice{1, {}}, mask});  // x[1:, mask]
//   gpukit::setitem(x, {mask}, 0.0f);                                  // x[mask] = 0
//   gpukit::Array t = gpukit::take(x, idx, 1, gpukit::IndexMode::wrap);
//   std::vector<gpukit::Array> where = gpukit::nonzero(x);
//
// A key mixes basic indices (gpukit/indexing.hpp) with index arrays: integer arrays of any integer
// dtype (gather and scatter; negative values count from the end), boolean arrays (masks over as many
// dimensions as they have, NumPy's nonzero(mask) in their place) and booleans (a 0-d mask: a new
// dimension of extent 1 or 0). As NumPy's: index arrays and integers broadcast together; their
// dimensions replace the dimensions they index when the advanced indices are next to one another,
// and go first otherwise. A key of basic indices only gives a view (Array::index); any other gives
// a new C-contiguous array.
//
// Synchronisation. A mask's result has as many elements as the mask has true ones, which the
// host must know to allocate it: a mask, nonzero, argwhere, flatnonzero and compress wait for one
// count (three kernels: per-block counts, their scan, the positions; kernels/gpukit_select.cu).
// Integer indices in mode raise (x[idx], and take and put by default) are checked by the kernel that
// uses them: it records the first index out of range in one device word, which the call reads back
// before returning (one wait per call, not per element) to raise IndexError with NumPy's words
// ("index 10 is out of bounds for axis 0 with size 5"). NumPy raises there; CuPy wraps x[idx]
// silently and checks put's raise mode the same way (one read of a flag). gpukit's promise is that a
// bad value is an error, never garbage, so raise is the default; modes wrap and clip never wait.
// A scatter in mode raise checks every index before it writes any, so an error leaves the array
// as it was (NumPy's put writes the elements before the bad index).
//
// Duplicate indices in a scatter (x[[0, 0]] = v): one of the values is written; which one is not
// defined (threads run in any order). NumPy writes the last; CuPy, like gpukit, does not say.
//
// Everything runs on the current stream of the arrays' device; errors name what was wrong:
// IndexError (out of range, a mask of the wrong shape, index arrays that do not broadcast, a float
// index array), InvalidArgumentError (values that do not fit the result, an axis out of range, a bad
// mode, an output of the wrong shape or dtype).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

#include "gpukit/array.hpp"
#include "gpukit/indexing.hpp"

namespace gpukit {

namespace detail {
// One element of `from` at `value` converted to `to`, as astype converts, into `element`.
void convert_element(const std::byte* value, DType from, std::byte* element, DType to);
}  // namespace detail

// One item of a key: a basic index, a bool (a 0-d mask), or an index array (integers or bools).
using KeyItem = std::variant<std::int64_t, Slice, NewAxis, Ellipsis, bool, Array>;

// a[key]: a view for a key of basic indices, else a new array.
Array getitem(const Array& a, std::span<const KeyItem> key);
inline Array getitem(const Array& a, std::initializer_list<KeyItem> key) {
    return getitem(a, std::span<const KeyItem>(key.begin(), key.size()));
}

// a[key] = values: `values` broadcast to the shape a[key] has (leading dimensions of extent 1 beyond
// its dimensions are dropped, as NumPy's) and converted to a's dtype as astype converts.
void setitem(const Array& a, std::span<const KeyItem> key, const Array& values);
// a[key] = one element: `element` is its bytes in a's dtype.
void setitem_bytes(const Array& a, std::span<const KeyItem> key, std::span<const std::byte> element);
// a[key] = value, converted to a's dtype as astype converts.
template <class T>
void setitem(const Array& a, std::span<const KeyItem> key, T value) {
    std::byte element[16];
    detail::convert_element(reinterpret_cast<const std::byte*>(&value), dtype_of<T>(), element, a.dtype());
    setitem_bytes(a, key, {element, static_cast<std::size_t>(a.itemsize())});
}

// What an index out of range does in take and put: NumPy's modes.
enum class IndexMode : std::uint8_t {
    raise,  // IndexError (negative indices count from the end)
    wrap,   // taken modulo the extent
    clip,   // clipped to [0, extent - 1] (so negative indices give 0, as NumPy's)
};
// "raise", "wrap" or "clip". Throws InvalidArgumentError in NumPy's words for anything else.
IndexMode parse_index_mode(std::string_view mode);

// The elements at `indices` along `axis` (of the flattened array without one): shape
// a.shape[:axis] + indices.shape + a.shape[axis + 1:].
Array take(const Array& a, const Array& indices, std::optional<std::int64_t> axis = std::nullopt,
           IndexMode mode = IndexMode::raise);
// The same into `out`, which must have that shape and a dtype a's casts to safely.
void take(const Array& a, const Array& indices, std::optional<std::int64_t> axis, const Array& out,
          IndexMode mode = IndexMode::raise);
// a.flat[indices] = values, the values repeated in C order when there are fewer than indices.
void put(const Array& a, const Array& indices, const Array& values, IndexMode mode = IndexMode::raise);

// The elements at `indices` along `axis`, which indices (of a's number of dimensions) replaces:
// NumPy's take_along_axis, with broadcasting along the other axes. Without an axis, `a` is taken
// flattened and `indices` must be 1-D.
Array take_along_axis(const Array& a, const Array& indices, std::optional<std::int64_t> axis = -1);
// a's elements at those places = values (broadcast to indices' shape).
void put_along_axis(const Array& a, const Array& indices, const Array& values, std::optional<std::int64_t> axis);

// The slices of `a` along `axis` (of the flattened array without one) where the 1-D `condition` is
// nonzero; a condition shorter than the axis leaves the rest out.
Array compress(const Array& condition, const Array& a, std::optional<std::int64_t> axis = std::nullopt);

// numpy.extract: the elements of the flattened `a` where the flattened `condition` is nonzero.
// IndexError where condition has a nonzero element past a's size.
Array extract(const Array& condition, const Array& a);
// numpy.place: a's elements where `mask` (a's size) is nonzero, in C order, = the values of
// `values`, repeated from its start when there are fewer. InvalidArgumentError for a mask of
// another size, and for no values where some element is chosen.
void place(const Array& a, const Array& mask, const Array& values);
// numpy.putmask: a.flat[n] = values.flat[n % values.size] where mask.flat[n] (mask of a's size);
// values cast to a's dtype as astype casts. No values: nothing changes. Never waits for the device.
void putmask(const Array& a, const Array& mask, const Array& values);
// numpy.fill_diagonal: the main diagonal of `a` (2-D, or of every dimension equal) = `value`,
// repeated from its start when shorter; with `wrap`, a tall matrix's diagonal starts again every
// columns + 1 rows. InvalidArgumentError for a 1-D array or unequal dimensions past the second.
void fill_diagonal(const Array& a, const Array& value, bool wrap = false);
// numpy.choose: choices[a[i]][i], `a` (integers) and every choice broadcast together, in the
// choices' result dtype. Mode raise: InvalidArgumentError "invalid entry in choice array" (one
// wait); wrap: a modulo the count; clip: a clipped to [0, count - 1].
Array choose(const Array& a, std::span<const Array> choices, IndexMode mode = IndexMode::raise);

// The indices of the nonzero elements, one int64 array per dimension (NumPy's nonzero and
// where(condition)); InvalidArgumentError for a 0-d array, as NumPy 2's.
std::vector<Array> nonzero(const Array& a);
// The same as one (count, ndim) int64 array.
Array argwhere(const Array& a);
// The positions of the nonzero elements in the flattened array (C order), int64.
Array flatnonzero(const Array& a);
// How many elements are nonzero (waits for the count).
std::int64_t count_nonzero(const Array& a);

}  // namespace gpukit
