// src/ops/sort/along_axis.hpp: an array seen as rows to sort: the sorted axis last, contiguous,
// flattened (rows of row_length elements); and a flat result of those rows put back in the
// array's shape.
#pragma once

#include <cstdint>
#include <optional>

#include "gpukit/array.hpp"

namespace gpukit::detail {

struct AxisRows {
    Array flat;         // the elements, rows of the sorted axis one after another (1-D, contiguous)
    Shape moved_shape;  // the array's shape with the sorted axis last
    std::size_t axis = 0;
    std::int64_t row_length = 0, rows = 0;
};

// `a` along `axis` (nullopt: flattened, then axis 0). AxisError for an axis out of range
// (a 0-d array has none).
AxisRows along_axis(const Array& a, std::optional<std::int64_t> axis);

// A flat array (rows in order, as AxisRows::flat) of `rows`' shape, the axis put back: C-contiguous.
Array restore_axis(const Array& flat, const AxisRows& rows);

// InvalidArgumentError unless every array is on the first one's device.
void require_one_device(std::initializer_list<const Array*> arrays);

}  // namespace gpukit::detail
