// src/array/padding.cpp: pad (gpukit/shape_ops.hpp), as NumPy's numpy.pad fills the padded array.
//
// The array is copied into the middle of the result, then the pad areas are written one axis at a
// time, over the part of the result already padded along the earlier axes and the original extent
// along the later ones (NumPy's "region of interest"), so the corners come out as NumPy's. Every
// write is a device copy (or fill) into a view: the edge slice broadcast, or a reversed slice for
// reflect and symmetric, chunk by chunk where the pad is wider than the array.
#include <vector>

#include "array/along_axis.hpp"
#include "array/device_copy.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/shape_ops.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::along_axis;
using detail::concat;

namespace {

// The padded array over the full extent of the axes before `axis` (and of `axis` itself), the
// original area of those after it.
Array region_of_interest(const Array& padded, std::span<const std::pair<std::int64_t, std::int64_t>> widths,
                         const Shape& original, std::size_t axis) {
    std::vector<Index> key(axis + 1, Slice{});
    for (std::size_t d = axis + 1; d < original.size(); ++d)
        key.emplace_back(Slice{widths[d].first, widths[d].first + original[d], 1});
    return padded.index(key);
}

// NumPy's _set_reflect_both, one round: fills as much of each side as the mirror image of the
// area already filled reaches (whole periods of the original), and returns how much of each side is
// left. `with_edge`: symmetric (the edge element repeated); else reflect.
std::pair<std::int64_t, std::int64_t> reflect_once(const Array& roi, std::size_t axis, std::int64_t left,
                                                   std::int64_t right, std::int64_t period, bool with_edge) {
    const std::int64_t length = roi.shape()[axis];
    std::int64_t old_length = length - right - left;
    if (with_edge)
        old_length = old_length / period * period;
    else
        old_length = (old_length - 1) / (period - 1) * (period - 1);  // the edge element left out
    const std::int64_t edge_offset = with_edge ? 1 : 0;
    if (left > 0) {
        const std::int64_t chunk = std::min(old_length, left);
        const std::int64_t stop = left - edge_offset;
        const Array reflected = along_axis(roi, axis, Slice{stop + chunk, stop, -1});
        detail::copy_elements(reflected, along_axis(roi, axis, Slice{left - chunk, left, 1}));
        left -= chunk;
    }
    if (right > 0) {
        const std::int64_t chunk = std::min(old_length, right);
        const std::int64_t start = -right + edge_offset - 2;
        const Array reflected = along_axis(roi, axis, Slice{start, start - chunk, -1});
        detail::copy_elements(reflected, along_axis(roi, axis, Slice{length - right, length - right + chunk, 1}));
        right -= chunk;
    }
    return {left, right};
}

void pad_edges(const Array& roi, std::size_t axis, std::int64_t left, std::int64_t right) {
    const std::int64_t length = roi.shape()[axis];
    if (left > 0)
        detail::copy_elements(along_axis(roi, axis, Slice{left, left + 1, 1}),
                              along_axis(roi, axis, Slice{0, left, 1}));
    if (right > 0)
        detail::copy_elements(along_axis(roi, axis, Slice{length - right - 1, length - right, 1}),
                              along_axis(roi, axis, Slice{length - right, length, 1}));
}

}  // namespace

Array pad(const Array& a, std::span<const std::pair<std::int64_t, std::int64_t>> widths, PadMode mode,
          std::span<const std::pair<Scalar, Scalar>> constants) {
    const std::size_t ndim = a.ndim();
    if (widths.size() != ndim)
        throw InvalidArgumentError(concat("pad takes one (before, after) pair of widths per axis: ", ndim,
                                          " for this array, not ", widths.size()));
    if (!constants.empty() && constants.size() != ndim)
        throw InvalidArgumentError(concat("pad takes one (before, after) pair of constant values per axis: ", ndim,
                                          " for this array, not ", constants.size()));
    Shape shape = a.shape();
    for (std::size_t d = 0; d < ndim; ++d) {
        if (widths[d].first < 0 || widths[d].second < 0)
            throw InvalidArgumentError("index can't contain negative values");
        shape[d] += widths[d].first + widths[d].second;
    }
    if (mode != PadMode::constant && a.size() == 0) {
        // Only constant padding can extend an empty axis; the result has no elements either way.
        for (std::size_t d = 0; d < ndim; ++d)
            if (a.shape()[d] == 0 && (widths[d].first > 0 || widths[d].second > 0))
                throw InvalidArgumentError(
                    concat("can't extend empty axis ", d, " using modes other than 'constant' or 'empty'"));
        return empty(shape, a.dtype(), Order::C, a.device());
    }
    Array padded = empty(shape, a.dtype(), Order::C, a.device());
    std::vector<Index> middle;
    for (std::size_t d = 0; d < ndim; ++d)
        middle.emplace_back(Slice{widths[d].first, widths[d].first + a.shape()[d], 1});
    detail::copy_elements(a, padded.index(middle));

    for (std::size_t d = 0; d < ndim; ++d) {
        const auto [left, right] = widths[d];
        if (left == 0 && right == 0) continue;
        const Array roi = region_of_interest(padded, widths, a.shape(), d);
        const std::int64_t length = roi.shape()[d];
        if (mode == PadMode::constant) {
            const Scalar zero(false);
            if (left > 0) along_axis(roi, d, Slice{0, left, 1}).fill(constants.empty() ? zero : constants[d].first);
            if (right > 0)
                along_axis(roi, d, Slice{length - right, length, 1})
                    .fill(constants.empty() ? zero : constants[d].second);
        } else if (mode == PadMode::edge || a.shape()[d] == 1) {  // mirroring one element repeats it, as NumPy's
            pad_edges(roi, d, left, right);
        } else {
            std::pair<std::int64_t, std::int64_t> left_to_do{left, right};
            while (left_to_do.first > 0 || left_to_do.second > 0)
                left_to_do =
                    reflect_once(roi, d, left_to_do.first, left_to_do.second, a.shape()[d], mode == PadMode::symmetric);
        }
    }
    return padded;
}

}  // namespace gpukit
