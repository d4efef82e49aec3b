// src/ops/scan/plan.cpp: the lines a scan walks (plan.hpp).
#include "ops/scan/plan.hpp"

#include <vector>

#include "ops/elementwise/collapse.hpp"

namespace gpukit::detail {

ScanLayout plan_scan(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides, std::size_t axis,
                     std::span<const std::int64_t> output_strides, std::int64_t itemsize) {
    ScanLayout layout;
    Shape outer_shape;
    std::vector<Strides> outer_strides(2);
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (d == axis) continue;
        outer_shape.push_back(shape[d]);
        outer_strides[0].push_back(strides[d]);
        outer_strides[1].push_back(output_strides[d]);
    }
    // The line coordinates merge as an elementwise loop's do, whatever the scanned axis between them.
    const CollapsedLayout outer = collapse(outer_shape, outer_strides);
    layout.outer = outer.shape;
    layout.outer_input = outer.strides[0];
    layout.outer_output = outer.strides[1];
    layout.lines = element_count(outer_shape);
    layout.length = shape[axis];
    layout.input_step = strides[axis];
    layout.output_step = output_strides[axis];
    layout.adjacent_lines =
        !layout.outer.empty() && layout.outer_input.back() == itemsize && layout.input_step != itemsize;
    return layout;
}

}  // namespace gpukit::detail
