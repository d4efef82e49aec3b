// src/ops/ufunc_methods.hpp: NumPy's ufunc methods for gpukit's ufuncs (reduce, accumulate,
// reduceat, at), with NumPy's dtypes, axes, identities and errors.
//
// Where the array layer has a parallel engine for the operation (add.reduce is sum, maximum.reduce
// max, multiply.accumulate cumprod, ...) the method runs it. Every other ufunc is applied in the
// order NumPy defines (kernels/gpukit_ufunc_methods.cuh: a line per thread), so subtract.reduce,
// power.accumulate or arctan2.reduceat give NumPy's results exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "gpukit/array.hpp"
#include "gpukit/scalar.hpp"
#include "ops/ufunc.hpp"

namespace gpukit::detail {

// The text of kernels/gpukit_ufunc_methods.cuh, embedded at build time.
std::string_view ufunc_methods_header();

// NumPy's ufunc.identity: the start of an empty reduction, or of one with where=; none for most.
std::optional<Scalar> ufunc_identity(const Ufunc& ufunc);

struct UfuncReduceOptions {
    // The axes reduced (NumPy's default: the first); none: all of them (only for ufuncs NumPy
    // calls reorderable, as more than one axis is).
    std::optional<std::vector<std::int64_t>> axis = std::vector<std::int64_t>{0};
    std::optional<DType> dtype;  // the loop's dtype
    std::optional<Array> out;    // the result's array
    bool keepdims = false;
    std::optional<Scalar> initial;  // the value the reduction starts from
    std::optional<Array> where;     // bool, broadcast to the array: only elements where true count
};

// ufunc.reduce. Throws DTypeError (no loop that reduces the dtype), InvalidArgumentError (more than
// one axis of a ufunc that is not reorderable, an empty reduction or where= without an identity or
// initial, a one-input ufunc) and AxisError.
Array ufunc_reduce(const Ufunc& ufunc, const Array& a, const UfuncReduceOptions& options = {});

// ufunc.accumulate along `axis`.
Array ufunc_accumulate(const Ufunc& ufunc, const Array& a, std::int64_t axis = 0,
                       std::optional<DType> dtype = std::nullopt, const std::optional<Array>& out = std::nullopt);

// ufunc.reduceat: the reductions of a along `axis` over the segments that `indices` (integers, 1-D,
// each in [0, a.shape[axis])) start. Throws IndexError for an index out of range.
Array ufunc_reduceat(const Ufunc& ufunc, const Array& a, const Array& indices, std::int64_t axis = 0,
                     std::optional<DType> dtype = std::nullopt, const std::optional<Array>& out = std::nullopt);

// The byte offset of each element of `a` from its first byte's address, as an int64 array of a's
// shape: what ufunc.at indexes (offsets[key] are the elements a[key] names).
Array element_offsets(const Array& a);

// ufunc.at, unbuffered: for each offset of `offsets` (element_offsets(a)[key]) in C order,
// a[offset] = ufunc(a[offset], b's matching element) (b broadcast to offsets' shape; none for a
// one-input ufunc; a scalar as a call takes it, weak or typed), a repeated offset applying once per
// occurrence. Throws DTypeError (no loop; an output that does not cast to a's dtype same_kind) and
// InvalidArgumentError (an operand too many or missing).
void ufunc_at(const Ufunc& ufunc, const Array& a, const Array& offsets, const std::optional<ElementwiseOperand>& b);

// ufunc.at on a 1-d `a` whose elements `keys` (an integer array of any shape; negative keys count
// from the end) names: as ufunc_at, without the offsets of every element of a, as the keys go to
// the kernel, which checks their range. Throws IndexError for a key out of range, in NumPy's words,
// after applying the updates whose keys are in range (the check is the update's own pass; NumPy's
// precedes it), and for keys that are not integers.
void ufunc_at_keys(const Ufunc& ufunc, const Array& a, const Array& keys, const std::optional<ElementwiseOperand>& b);

}  // namespace gpukit::detail
