// src/array/tiling.cpp: tile and repeat (gpukit/shape_ops.hpp). Both write the result through views
// that split a dimension in two, (count, extent) for tile and (extent, count) for repeat, from the
// source repeated along the new one with stride 0: one broadcast copy on the device.
#include <algorithm>
#include <numeric>
#include <vector>

#include "array/along_axis.hpp"
#include "array/device_copy.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/shape_ops.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

namespace {

// dst[..., j, ...] = src[..., j / count, ...] along `axis`, where dst's extent there is count
// times src's.
void copy_repeated(const Array& src, const Array& dst, std::size_t axis, std::int64_t count) {
    Shape split = dst.shape();
    split[axis] = src.shape()[axis];
    split.insert(split.begin() + static_cast<std::ptrdiff_t>(axis) + 1, count);
    const std::int64_t after[] = {static_cast<std::int64_t>(axis) + 1};
    detail::copy_elements(broadcast_to(expand_dims(src, after), split), dst.reshape(split));
}

void refuse_negative(std::span<const std::int64_t> repeats) {
    for (std::int64_t count : repeats)
        if (count < 0) throw InvalidArgumentError("repeats may not contain negative values.");
}

}  // namespace

Array tile(const Array& a, std::span<const std::int64_t> reps) {
    const std::size_t ndim = std::max(a.ndim(), reps.size());
    // Both to ndim dimensions, with leading ones.
    std::vector<std::int64_t> counts(ndim - reps.size(), 1);
    counts.insert(counts.end(), reps.begin(), reps.end());
    std::vector<std::int64_t> leading(ndim - a.ndim());
    std::iota(leading.begin(), leading.end(), 0);
    const Array source = expand_dims(a, leading);
    Shape shape(ndim);
    for (std::size_t d = 0; d < ndim; ++d) shape[d] = source.shape()[d] * counts[d];
    if (std::any_of(counts.begin(), counts.end(), [](std::int64_t c) { return c < 0; }))
        throw InvalidArgumentError(concat("negative dimensions are not allowed: tile's reps ", format_shape(reps)));
    // A kernel walks at most 8 dimensions (after merging): many repeated dimensions go in two steps.
    const auto repeated_dims = std::count_if(counts.begin(), counts.end(), [](std::int64_t c) { return c != 1; });
    if (repeated_dims > 1 && ndim + static_cast<std::size_t>(repeated_dims) > 8) {
        std::vector<std::int64_t> inner(ndim, 1), outer = counts;
        for (std::size_t d = ndim / 2; d < ndim; ++d) std::swap(inner[d], outer[d]);
        return tile(tile(a, inner), outer);
    }
    Array result = empty(shape, a.dtype(), Order::C, a.device());
    if (result.size() == 0) return result;
    // The result seen as (count, extent) along each repeated dimension, the source as (1, extent).
    Shape split;
    Strides source_strides;
    for (std::size_t d = 0; d < ndim; ++d) {
        if (counts[d] != 1) {
            split.push_back(counts[d]);
            source_strides.push_back(0);
        }
        split.push_back(source.shape()[d]);
        source_strides.push_back(source.strides()[d]);
    }
    const Array repeated = source.view(ViewLayout{0, split, source_strides});
    detail::copy_elements(repeated, result.reshape(split));
    return result;
}

Array repeat(const Array& a, std::int64_t repeats, std::optional<std::int64_t> axis) {
    const std::int64_t one[] = {repeats};
    return repeat(a, one, axis);
}

Array repeat(const Array& a, std::span<const std::int64_t> repeats, std::optional<std::int64_t> axis) {
    refuse_negative(repeats);
    const Array source = axis ? a : a.ravel();
    const std::size_t along = normalize_axis(axis.value_or(0), source.ndim());
    const std::int64_t extent = source.shape()[along];
    if (repeats.size() != 1 && static_cast<std::int64_t>(repeats.size()) != extent)
        throw InvalidArgumentError(
            concat("operands could not be broadcast together with shape (", extent, ",) (", repeats.size(), ",)"));
    Shape shape = source.shape();
    shape[along] =
        repeats.size() == 1 ? extent * repeats[0] : std::accumulate(repeats.begin(), repeats.end(), std::int64_t{0});
    Array result = empty(shape, a.dtype(), Order::C, a.device());
    if (result.size() == 0) return result;
    if (repeats.size() == 1) {
        copy_repeated(source, result, along, repeats[0]);
        return result;
    }
    // One copy per run of elements with the same count.
    std::int64_t written = 0;
    for (std::int64_t begin = 0; begin < extent;) {
        std::int64_t end = begin + 1;
        while (end < extent && repeats[static_cast<std::size_t>(end)] == repeats[static_cast<std::size_t>(begin)])
            ++end;
        const std::int64_t count = repeats[static_cast<std::size_t>(begin)], length = (end - begin) * count;
        if (length > 0)
            copy_repeated(detail::along_axis(source, along, Slice{begin, end, 1}),
                          detail::along_axis(result, along, Slice{written, written + length, 1}), along, count);
        written += length;
        begin = end;
    }
    return result;
}

}  // namespace gpukit
