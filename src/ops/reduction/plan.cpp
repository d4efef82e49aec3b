// src/ops/reduction/plan.cpp: axes, result shapes and layouts of reductions (plan.hpp).
#include "ops/reduction/plan.hpp"

#include "gpukit/error.hpp"
#include "ops/elementwise/collapse.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

std::vector<bool> reduced_axes(std::optional<std::span<const std::int64_t>> axes, std::size_t ndim) {
    if (!axes) return std::vector<bool>(ndim, true);
    std::vector<bool> reduced(ndim, false);
    for (const std::size_t axis : normalize_axes(*axes, ndim)) reduced[axis] = true;
    return reduced;
}

Shape reduction_result_shape(std::span<const std::int64_t> shape, const std::vector<bool>& reduced, bool keepdims) {
    Shape result;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (!reduced[d])
            result.push_back(shape[d]);
        else if (keepdims)
            result.push_back(1);
    }
    return result;
}

ReductionLayout plan_reduction(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                               std::int64_t itemsize, const std::vector<bool>& reduced,
                               std::span<const std::int64_t> output_strides) {
    // Each group walks its own coordinates, so its dimensions merge as an elementwise loop's do,
    // whatever the other group's dimensions between them.
    Shape kept_shape, reduced_shape;
    std::vector<Strides> kept_strides(2), reduced_strides(1);
    std::size_t kept_axis = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (reduced[d]) {
            reduced_shape.push_back(shape[d]);
            reduced_strides[0].push_back(strides[d]);
        } else {
            kept_shape.push_back(shape[d]);
            kept_strides[0].push_back(strides[d]);
            kept_strides[1].push_back(output_strides[kept_axis++]);
        }
    }
    const CollapsedLayout kept = collapse(kept_shape, kept_strides);
    const CollapsedLayout along = collapse(reduced_shape, reduced_strides);

    ReductionLayout layout;
    layout.kept_size = element_count(kept_shape);
    layout.reduced_size = element_count(reduced_shape);
    layout.kept = kept.shape;  // empty when there is no result
    layout.input_kept = kept.strides[0];
    layout.output_kept = kept.strides[1];
    if (layout.kept_size == 0 || layout.reduced_size == 0) {
        // No result, or nothing to read (each result is the identity's): a result per thread.
        layout.kind = layout.kept.empty() ? ReductionClass::full : ReductionClass::strided;
        return layout;
    }
    layout.reduced = along.shape;
    layout.input_reduced = along.strides[0];
    if (layout.kept.empty())
        layout.kind = ReductionClass::full;
    else if (layout.reduced.size() <= 1 && (layout.reduced.empty() || layout.input_reduced[0] == itemsize))
        layout.kind = ReductionClass::rows;
    else if (layout.kept.size() == 1 && layout.input_kept[0] == itemsize)
        layout.kind = ReductionClass::columns;
    else
        layout.kind = ReductionClass::strided;
    return layout;
}

}  // namespace gpukit::detail
