// src/ops/sort/along_axis.cpp: arrays as rows to sort, and results back in their shape.
#include "ops/sort/along_axis.hpp"

#include "array/same_device.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/error.hpp"
#include "gpukit/layout.hpp"
#include "gpukit/shape_ops.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

AxisRows along_axis(const Array& a, std::optional<std::int64_t> axis) {
    const Array source = axis ? a : a.ravel();
    const std::size_t sorted_axis = normalize_axis(axis.value_or(0), source.ndim());
    const auto from = static_cast<std::int64_t>(sorted_axis);
    const auto last = static_cast<std::int64_t>(source.ndim()) - 1;
    const Array moved = moveaxis(source, std::span(&from, 1), std::span(&last, 1));
    const std::int64_t row_length = source.shape()[sorted_axis];
    return AxisRows{ascontiguousarray(moved).reshape({moved.size()}), moved.shape(), sorted_axis, row_length,
                    row_length == 0 ? 0 : moved.size() / row_length};
}

Array restore_axis(const Array& flat, const AxisRows& rows) {
    const std::int64_t last = static_cast<std::int64_t>(rows.moved_shape.size()) - 1;
    const std::int64_t to = static_cast<std::int64_t>(rows.axis);
    const Array shaped = flat.reshape(std::span<const std::int64_t>(rows.moved_shape));
    return ascontiguousarray(moveaxis(shaped, std::span(&last, 1), std::span(&to, 1)));
}

void require_one_device(std::initializer_list<const Array*> arrays) {
    const Array* first = *arrays.begin();
    for (const Array* other : arrays) require_on_device(*other, first->device(), "a sort or search");
}

}  // namespace gpukit::detail
