// src/ops/indexing/select.hpp: the positions of an array's nonzero elements (kernels/gpukit_select.cu),
// for masks, nonzero, argwhere, flatnonzero and compress, and a[mask] = value without positions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "gpukit/array.hpp"

namespace gpukit::detail {

// How many elements of `source` are nonzero (any dtype: -0.0 is zero, NaN is not). Waits for the count.
std::int64_t count_selected(const Array& source);

// The positions of source's nonzero elements in C order, as a new (count,) array of `dtype`
// (int32 or int64). Waits for the count.
Array flat_positions(const Array& source, DType dtype = DType::int64);

// Their coordinates, int64: a (count, ndim) array (argwhere), or (ndim, count) when `by_dimension`
// (nonzero: one row per dimension). Waits for the count.
Array coordinates(const Array& source, bool by_dimension);

// target's elements where mask is nonzero = one value: the element at `value` (an array of one
// element, target's dtype) or, without one, `element` (its bytes). `mask` is seen in target's shape
// (strides 0 along the dimensions it does not have). Does not wait.
void fill_selected(const Array& mask, const Array& target, const Array* value, std::span<const std::byte> element);

}  // namespace gpukit::detail
