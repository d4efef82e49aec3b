// src/ops/indexing/gather.hpp: one gather or scatter through index arrays, described in the
// result's coordinates (kernels/gpukit_gather.cu says what the kernel computes).
//
// Every form of advanced indexing comes down to this: a[key], take and take_along_axis gather; their
// assignments, put and put_along_axis scatter. A plan names the result's shape, where element 0 of
// the indexed array is (`base`), how far each result dimension moves in it (0 along the dimensions
// the index arrays span), and the index arrays: their strides in the result's shape (broadcast) and
// the axes of the indexed array their values select among.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "gpukit/advanced_indexing.hpp"

namespace gpukit::detail {

struct IndexOperand {
    std::optional<Array> values;  // an integer array; none: the value 0 (a 0-d True or False)
    Strides strides;              // values' byte strides in the result's shape
    // The axes its values select among, outermost first (a position unravels over them, C order):
    // one axis for a[idx], several for a mask's positions or take without an axis.
    Shape axis_extents;
    Strides axis_strides;
    // What an error names: "index 7 is out of bounds for axis `axis` with size `size`".
    std::int64_t axis = 0;
    std::int64_t size = 0;
    bool trusted = false;  // positions gpukit computed, in range: never checked
};

struct GatherPlan {
    Array base;  // its address is the indexed array's element at the result's origin; keeps the memory
    Shape shape;
    Strides base_strides;
    std::vector<IndexOperand> indices;
};

// out[...] = the planned elements. `out` has the plan's shape and base's dtype (any strides).
void gather(const GatherPlan& plan, const Array& out, IndexMode mode);
// The planned elements = values (base's dtype, broadcast to the plan's shape), or, with a period,
// the flat C-contiguous `values` repeated every `period` elements of the result (put).
void scatter(const GatherPlan& plan, const Array& values, IndexMode mode, std::int64_t period = 0);
// The planned elements = one element, `element` its bytes in base's dtype.
void scatter(const GatherPlan& plan, std::span<const std::byte> element, IndexMode mode);

// The axes of a layout merged where C order walks them as one (for positions that unravel over them).
void merge_axes(Shape& extents, Strides& strides);

}  // namespace gpukit::detail
