// src/ops/reduction/plan.hpp: what a reduction walks. NumPy's axis argument normalised, the
// result's shape, and the input split into the dimensions it keeps and those it reduces, each group
// merged where the input (and the result) walk it alike, then classed by how a kernel reads it:
//   full     nothing kept: one result (x.sum());
//   rows     the reduced elements of each result contiguous (x.sum(axis=-1) of a C array): a warp
//            or a block per result, reading along the row;
//   columns  the kept elements contiguous, the reduced ones a stride apart (x.sum(axis=0)): a
//            thread per result, neighbouring threads reading neighbouring elements;
//   strided  anything else.
// CuPy does the merging in _reduction.pyx (_get_axis, _reduced_view); PyTorch in TensorIterator's
// reduce_op and its ReduceConfig.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "gpukit/layout.hpp"

namespace gpukit::detail {

// Which axes of an `ndim`-dimensional array are reduced: every axis for none, else the axes given
// (negative ones counted from the end). Throws AxisError for an axis out of range and
// InvalidArgumentError for a repeated one, in NumPy's words.
std::vector<bool> reduced_axes(std::optional<std::span<const std::int64_t>> axes, std::size_t ndim);

// The result's shape: the kept extents in order, and 1 for each reduced axis when `keepdims`.
Shape reduction_result_shape(std::span<const std::int64_t> shape, const std::vector<bool>& reduced, bool keepdims);

enum class ReductionClass : std::uint8_t { full, rows, columns, strided };

struct ReductionLayout {
    Shape kept, reduced;                             // merged extents, outer first (extents of 1 dropped)
    std::vector<Strides> input_kept, input_reduced;  // each input's byte strides along each
    Strides output_kept;                             // the result's byte strides along the kept dimensions
    std::int64_t kept_size = 1;         // results
    std::int64_t reduced_size = 1;      // elements reduced into each result
    ReductionClass kind = ReductionClass::full;
};

// The layout of reducing inputs of `shape` with byte `strides` each (broadcast to `shape`) over
// `reduced` into a result whose byte strides along the kept axes, in order, are `output_strides`.
// The class follows the first input (elements of `itemsize` bytes): the one a kernel reads most.
ReductionLayout plan_reduction(std::span<const std::int64_t> shape, std::span<const Strides> strides,
                               std::int64_t itemsize, const std::vector<bool>& reduced,
                               std::span<const std::int64_t> output_strides);
// One input.
ReductionLayout plan_reduction(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                               std::int64_t itemsize, const std::vector<bool>& reduced,
                               std::span<const std::int64_t> output_strides);

}  // namespace gpukit::detail
