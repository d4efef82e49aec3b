// include/gpukit/scans.hpp: cumulative sums and products along an axis and the differences of
// neighbours, as NumPy's (numpy.cumsum, numpy.diff, ...): the result stays on the device, on the
// current stream, and nothing waits until a value is read on the host.
//
//   gpukit::cumsum(a)                                  the flattened array (C order), scanned
//   gpukit::cumsum(a, {.axis = 0})                     each column of a matrix
//   gpukit::cumprod(a, {.axis = -1, .dtype = gpukit::DType::float64})
//   gpukit::diff(a, {.n = 2})                          second differences along the last axis
//   gpukit::cumulative_sum(a, {.axis = 1, .include_initial = true})   0 first in each row
//
// Result dtypes are NumPy's: scans of bool and integers narrower than 64 bits are int64 (unsigned:
// uint64), float16 and bfloat16 accumulate in float32 and store their own dtype; dtype= sets the
// accumulator and the result. Integer sums and products wrap. nancumsum and nancumprod take a nan as
// 0 and 1. Floating-point results are as accurate as NumPy's one-by-one loop or better: each adds a
// thread's few elements one by one, then combines tree-wise within a block and one value per
// earlier tile (tests/device/scans_test.cpp checks NumPy's bound and compares with its loop).
//
// Errors: AxisError for an axis out of range; InvalidArgumentError for out= of another shape than
// the result's, for a negative diff order, for diff of a 0-d array and for cumulative_sum or
// cumulative_prod of two or more dimensions without an axis; DTypeError for an out= dtype
// the result cannot be cast to (same_kind), for ediff1d's to_begin or to_end that do not cast to
// the input's dtype (same_kind) and for ediff1d of bools (NumPy has no bool subtract).
#pragma once

#include <cstdint>
#include <optional>

#include "gpukit/array.hpp"

namespace gpukit {

struct ScanOptions {
    std::optional<std::int64_t> axis;  // the scanned axis; none: the flattened array
    std::optional<DType> dtype;        // the accumulator's and the result's
    std::optional<Array> out;          // the result's array: of the result's shape
};

Array cumsum(const Array& a, const ScanOptions& options = {});
Array cumprod(const Array& a, const ScanOptions& options = {});
Array nancumsum(const Array& a, const ScanOptions& options = {});   // a nan counts as 0
Array nancumprod(const Array& a, const ScanOptions& options = {});  // a nan counts as 1

struct CumulativeOptions {
    std::optional<std::int64_t> axis;  // the scanned axis; none: the only one (arrays of one dimension)
    std::optional<DType> dtype;        // the accumulator's and the result's
    std::optional<Array> out;          // the result's array: of the result's shape
    bool include_initial = false;      // the identity (0 or 1) first, so the axis grows by one
};

// The Array API's (and NumPy 2's) scans: cumsum and cumprod along one axis, which arrays of two or
// more dimensions must name; a 0-d array scans as one element.
Array cumulative_sum(const Array& x, const CumulativeOptions& options = {});
Array cumulative_prod(const Array& x, const CumulativeOptions& options = {});

struct DiffOptions {
    std::int64_t n = 1;            // the order: differences taken n times (0: the input itself)
    std::int64_t axis = -1;        // along this axis
    std::optional<Array> prepend;  // values put before the input along the axis (broadcast to it)
    std::optional<Array> append;   // values put after it
};

// out[i] = a[i + 1] - a[i] along the axis, n times (numpy.diff); bools give a[i + 1] != a[i].
Array diff(const Array& a, const DiffOptions& options = {});

// The differences of the flattened array, with to_begin and to_end (flattened, cast to the
// input's dtype) around them (numpy.ediff1d).
Array ediff1d(const Array& ary, const std::optional<Array>& to_end = std::nullopt,
              const std::optional<Array>& to_begin = std::nullopt);

}  // namespace gpukit
