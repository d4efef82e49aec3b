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

ReductionLayout plan_reduction(std::span<const std::int64_t> shape, std::span<const Strides> strides,
                               std::int64_t itemsize, const std::vector<bool>& reduced,
                               std::span<const std::int64_t> output_strides) {
    // Each group walks its own coordinates, so its dimensions merge as an elementwise loop's do,
    // whatever the other group's dimensions between them. Kept strides: the inputs', then the output's.
    const std::size_t inputs = strides.size();
    Shape kept_shape, reduced_shape;
    std::vector<Strides> kept_strides(inputs + 1), reduced_strides(inputs);
    std::size_t kept_axis = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (reduced[d]) {
            reduced_shape.push_back(shape[d]);
            for (std::size_t k = 0; k < inputs; ++k) reduced_strides[k].push_back(strides[k][d]);
        } else {
            kept_shape.push_back(shape[d]);
            for (std::size_t k = 0; k < inputs; ++k) kept_strides[k].push_back(strides[k][d]);
            kept_strides[inputs].push_back(output_strides[kept_axis++]);
        }
    }
    CollapsedLayout kept = collapse(kept_shape, kept_strides);
    CollapsedLayout along = collapse(reduced_shape, reduced_strides);

    ReductionLayout layout;
    layout.kept_size = element_count(kept_shape);
    layout.reduced_size = element_count(reduced_shape);
    layout.kept = kept.shape;  // empty when there is no result
    layout.output_kept = std::move(kept.strides[inputs]);
    kept.strides.pop_back();
    layout.input_kept = std::move(kept.strides);
    layout.input_reduced.resize(inputs);
    if (layout.kept_size == 0 || layout.reduced_size == 0) {
        // No result, or nothing to read (each result is the identity's): a result per thread.
        layout.kind = layout.kept.empty() ? ReductionClass::full : ReductionClass::strided;
        return layout;
    }
    layout.reduced = along.shape;
    layout.input_reduced = std::move(along.strides);
    const Strides& first_kept = layout.input_kept[0];
    const Strides& first_reduced = layout.input_reduced[0];
    if (layout.kept.empty())
        layout.kind = ReductionClass::full;
    else if (layout.reduced.size() <= 1 && (layout.reduced.empty() || first_reduced[0] == itemsize))
        layout.kind = ReductionClass::rows;
    else if (layout.kept.size() == 1 && first_kept[0] == itemsize)
        layout.kind = ReductionClass::columns;
    else
        layout.kind = ReductionClass::strided;
    return layout;
}

ReductionLayout plan_reduction(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                               std::int64_t itemsize, const std::vector<bool>& reduced,
                               std::span<const std::int64_t> output_strides) {
    const Strides input(strides.begin(), strides.end());
    return plan_reduction(shape, std::span<const Strides>(&input, 1), itemsize, reduced, output_strides);
}

}  // namespace gpukit::detail
