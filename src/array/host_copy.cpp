// src/array/host_copy.cpp: strided, converting and broadcasting copies between host layouts.
#include "array/host_copy.hpp"

#include <vector>

#include "array/convert.hpp"

namespace gpukit::detail {

void copy_host_elements(const ConstHostView& src, const HostView& dst) {
    const Shape& shape = dst.shape;
    if (element_count(shape) == 0) return;
    if (shape.empty()) return convert_elements(src.data, 0, src.dtype, dst.data, 0, dst.dtype, 1);
    // Row by row along the last dimension; `index` counts through the others.
    const std::size_t outer = shape.size() - 1;
    std::vector<std::int64_t> index(outer, 0);
    while (true) {
        std::int64_t src_offset = 0, dst_offset = 0;
        for (std::size_t d = 0; d < outer; ++d) {
            src_offset += index[d] * src.strides[d];
            dst_offset += index[d] * dst.strides[d];
        }
        convert_elements(src.data + src_offset, src.strides[outer], src.dtype, dst.data + dst_offset,
                         dst.strides[outer], dst.dtype, shape[outer]);
        std::size_t d = outer;
        while (d > 0 && ++index[d - 1] == shape[d - 1]) index[--d] = 0;
        if (d == 0) return;
    }
}

ConstHostView broadcast_to(const ConstHostView& src, const Shape& shape) {
    const auto refuse = [&] {
        return InvalidArgumentError("could not broadcast input array from shape " + format_shape(src.shape) +
                                    " into shape " + format_shape(shape));
    };
    if (src.shape.size() > shape.size()) throw refuse();
    const std::size_t missing = shape.size() - src.shape.size();
    Strides strides(shape.size(), 0);
    for (std::size_t i = 0; i < src.shape.size(); ++i) {
        const std::int64_t extent = src.shape[i];
        if (extent == shape[missing + i])
            strides[missing + i] = src.strides[i];
        else if (extent != 1)
            throw refuse();
    }
    return ConstHostView(src.data, src.dtype, shape, strides);
}

}  // namespace gpukit::detail
