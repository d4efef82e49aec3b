// include/gpukit/reductions.hpp: reductions of an array over some or all of its axes, as NumPy's
// (numpy.sum, numpy.argmax, numpy.var, ...): the result stays on the device, on the current
// stream, and nothing waits until a value is read on the host.
//
//   gpukit::sum(a)                                     every element: a 0-d array
//   gpukit::sum(a, {.axis = {{0}}, .keepdims = true})  over axis 0, keeping it as extent 1
//   gpukit::mean(a, {.axis = {{-2, -1}}, .dtype = gpukit::DType::float64})
//   gpukit::var(a, {.axis = {{0}}}, 1.0)               ddof = 1
//   gpukit::argmax(a, {.axis = 1})
//
// Result dtypes are NumPy's: sums and products of bool and integers narrower than 64 bits are
// int64 (unsigned: uint64), float16 and bfloat16 accumulate in float32, a mean, var or std of
// integers is float64 (of complex numbers, var and std are real); dtype= sets the accumulator and
// the result. Integer sums wrap as NumPy's. max and min propagate a nan, the nan* functions skip
// it; complex values order by real, then imaginary part. argmax and argmin give the first index of
// the extreme (a nan's first, if any), counted in C order over the reduced axes.
//
// The result is NumPy's value (nan, inf) where NumPy warns. The warnings that shapes decide come as
// NumPy's through gpukit/warnings.hpp (the mean of nothing, ddof >= n); those that need the
// device's values (an all-nan slice of nanmax or nanmean, an all-false where=) are not given, so
// that nothing waits for the device. Only nanargmax and nanargmin wait for it: NumPy raises
// ValueError for an all-nan slice.
//
// Errors: AxisError for an axis out of range, InvalidArgumentError for a repeated axis, for out=
// of another shape than the result's, for max, min, ptp, argmax, argmin (and the nan ones) of no
// elements (they have no identity), and for where= on max or min without initial; DTypeError for
// an out= dtype the result cannot be cast to (same_kind) and for dtype= where NumPy takes none.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "gpukit/array.hpp"
#include "gpukit/scalar.hpp"

namespace gpukit {

struct ReduceOptions {
    std::optional<std::vector<std::int64_t>> axis;  // the axes reduced; none: all of them
    bool keepdims = false;                          // keep each reduced axis as extent 1
    std::optional<DType> dtype;                     // the accumulator's and the result's (sum, prod, mean, var, ...)
    std::optional<Array> out;                       // the result's array: of the result's shape
    std::optional<Array> where;                     // bool, broadcast to a's shape: only elements where true count
    std::optional<Scalar> initial;                  // sum, prod, max, min and their nan forms: the starting value
};

Array sum(const Array& a, const ReduceOptions& options = {});
Array prod(const Array& a, const ReduceOptions& options = {});
Array max(const Array& a, const ReduceOptions& options = {});
Array min(const Array& a, const ReduceOptions& options = {});
Array amax(const Array& a, const ReduceOptions& options = {});
Array amin(const Array& a, const ReduceOptions& options = {});
Array any(const Array& a, const ReduceOptions& options = {});
Array all(const Array& a, const ReduceOptions& options = {});
Array mean(const Array& a, const ReduceOptions& options = {});
Array ptp(const Array& a, const ReduceOptions& options = {});  // max - min (no where=, dtype=)
// int64 counts over axis (keepdims; no where=, initial=, out=); count_nonzero(a) of
// gpukit/advanced_indexing.hpp waits and gives the count of every element as a number.
Array count_nonzero(const Array& a, const ReduceOptions& options);

// Variance and standard deviation: sum |x - mean|^2 / (n - ddof).
Array var(const Array& a, const ReduceOptions& options = {}, double ddof = 0);
Array std(const Array& a, const ReduceOptions& options = {}, double ddof = 0);

// The nan forms: a nan counts as 0 (nansum), 1 (nanprod), or not at all.
Array nansum(const Array& a, const ReduceOptions& options = {});
Array nanprod(const Array& a, const ReduceOptions& options = {});
Array nanmax(const Array& a, const ReduceOptions& options = {});
Array nanmin(const Array& a, const ReduceOptions& options = {});
Array nanmean(const Array& a, const ReduceOptions& options = {});
Array nanvar(const Array& a, const ReduceOptions& options = {}, double ddof = 0);
Array nanstd(const Array& a, const ReduceOptions& options = {}, double ddof = 0);

// argmax and friends: one axis or none (the flattened array's index); int64 results.
struct ArgOptions {
    std::optional<std::int64_t> axis;
    bool keepdims = false;
    std::optional<Array> out;  // int64, of the result's shape
};
Array argmax(const Array& a, const ArgOptions& options = {});
Array argmin(const Array& a, const ArgOptions& options = {});
Array nanargmax(const Array& a, const ArgOptions& options = {});
Array nanargmin(const Array& a, const ArgOptions& options = {});

// numpy.average: the mean weighted by `weights` (a's shape, or 1-D along a single axis).
struct AverageOptions {
    std::optional<std::vector<std::int64_t>> axis;
    std::optional<Array> weights;
    bool keepdims = false;
};
struct Average {
    Array average;
    Array sum_of_weights;  // of a's shape's result: what numpy.average returns with returned=True
};
// Throws ZeroDivisionError when some weights sum to zero (which waits for the device, as NumPy's
// check does), InvalidArgumentError when weights do not fit a's shape or axis.
Average average(const Array& a, const AverageOptions& options = {});

}  // namespace gpukit
