// include/gpukit/reductions.hpp: reductions of an array over some or all of its axes, as NumPy's
// (numpy.sum, numpy.max, ...): the result stays on the device, on the current stream, and nothing
// waits until a value is read on the host.
//
//   gpukit::sum(a)                                     every element: a 0-d array
//   gpukit::sum(a, {.axis = {{0}}, .keepdims = true})  over axis 0, keeping it as extent 1
//   gpukit::mean(a, {.axis = {{-2, -1}}, .dtype = gpukit::DType::float64})
//
// Result dtypes are NumPy's: sums and products of bool and integers narrower than 64 bits are
// int64 (unsigned: uint64), float16 and bfloat16 accumulate in float32, a mean of integers is
// float64; dtype= sets the accumulator and the result. Integer sums wrap as NumPy's. max and min
// propagate a nan; complex values order by real, then imaginary part.
//
// Errors: AxisError for an axis out of range, InvalidArgumentError for a repeated axis, for out=
// of another shape than the result's, and for max or min of no elements (they have no identity);
// DTypeError for an out= dtype the result cannot be cast to (same_kind) and for dtype= where
// NumPy takes none (max, min, any, all).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "gpukit/array.hpp"

namespace gpukit {

struct ReduceOptions {
    std::optional<std::vector<std::int64_t>> axis;  // the axes reduced; none: all of them
    bool keepdims = false;                          // keep each reduced axis as extent 1
    std::optional<DType> dtype;                     // the accumulator's and the result's (sum, prod, mean)
    std::optional<Array> out;                       // the result's array: of the result's shape
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

}  // namespace gpukit
