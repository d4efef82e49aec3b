// src/array/padding.cpp: pad (gpukit/shape_ops.hpp), as NumPy's numpy.pad fills the padded array.
//
// The array is copied into the middle of the result, then the pad areas are written one axis at a
// time, over the part of the result already padded along the earlier axes and the original extent
// along the later ones (NumPy's "region of interest"), so the corners come out as NumPy's. Every
// write is a device copy (or fill) into a view: the edge slice broadcast, or a reversed slice for
// reflect and symmetric, chunk by chunk where the pad is wider than the array.
#include <algorithm>
#include <vector>

#include "array/along_axis.hpp"
#include "array/device_copy.hpp"
#include "gpukit/advanced_indexing.hpp"
#include "gpukit/array_operators.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/quantiles.hpp"
#include "gpukit/reductions.hpp"
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
                                                   std::int64_t right, std::int64_t period, bool with_edge, bool odd) {
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
        Array reflected = along_axis(roi, axis, Slice{stop + chunk, stop, -1});
        if (odd) reflected = along_axis(roi, axis, Slice{left, left + 1, 1}) * 2 - reflected;  // about the edge
        detail::copy_elements(reflected, along_axis(roi, axis, Slice{left - chunk, left, 1}));
        left -= chunk;
    }
    if (right > 0) {
        const std::int64_t chunk = std::min(old_length, right);
        const std::int64_t start = -right + edge_offset - 2;
        Array reflected = along_axis(roi, axis, Slice{start, start - chunk, -1});
        if (odd) reflected = along_axis(roi, axis, Slice{length - right - 1, length - right, 1}) * 2 - reflected;
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

// NumPy's wrap: each pad position takes the original element a whole number of periods away.
void pad_wrapped(const Array& roi, std::size_t axis, std::int64_t left, std::int64_t right, std::int64_t period) {
    const std::int64_t length = roi.shape()[axis];
    auto fill = [&](std::int64_t from, std::int64_t to) {
        std::vector<std::int64_t> sources;
        for (std::int64_t i = from; i < to; ++i) sources.push_back(left + (((i - left) % period) + period) % period);
        const Array where_from = Array::from_host(std::span<const std::int64_t>(sources),
                                                  {static_cast<std::int64_t>(sources.size())}, roi.device());
        detail::copy_elements(take(roi, where_from, static_cast<std::int64_t>(axis)),
                              along_axis(roi, axis, Slice{from, to, 1}));
    };
    if (left > 0) fill(0, left);
    if (right > 0) fill(length - right, length);
}

// A statistic's value rounded as NumPy's pad rounds it for an integer array (numpy.around: halves to even).
Array rounded_for(const Array& value, DType dtype) {
    const char letter = kind_char(dtype);
    return (letter == 'i' || letter == 'u') ? around(value, 0).astype(dtype) : value.astype(dtype);
}

// NumPy's maximum, minimum, mean and median modes: the statistic of the `stat_length` elements
// nearest each edge (all of the original extent when none), broadcast over that side's pad.
void pad_with_statistic(const Array& roi, std::size_t axis, std::int64_t left, std::int64_t right, std::int64_t period,
                        PadMode mode, std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>> stat_length) {
    const std::int64_t length = roi.shape()[axis];
    auto statistic = [&](const Array& chunk) {
        if (chunk.shape()[axis] == 0 && (mode == PadMode::maximum || mode == PadMode::minimum))
            throw InvalidArgumentError("stat_length of 0 yields no value for padding");
        const std::vector<std::int64_t> along{static_cast<std::int64_t>(axis)};
        ReduceOptions reduce;
        reduce.axis = along;
        reduce.keepdims = true;
        switch (mode) {
            case PadMode::maximum: return amax(chunk, reduce);
            case PadMode::minimum: return amin(chunk, reduce);
            case PadMode::mean: return rounded_for(mean(chunk, reduce), chunk.dtype());
            default: {
                QuantileOptions options;
                options.axis = along;
                options.keepdims = true;
                return rounded_for(median(chunk, options), chunk.dtype());
            }
        }
    };
    auto count = [&](const std::optional<std::int64_t>& asked) {
        if (asked && *asked < 0) throw InvalidArgumentError("index can't contain negative values");
        return std::min(asked.value_or(period), period);
    };
    if (left > 0) {
        const Array chunk = along_axis(roi, axis, Slice{left, left + count(stat_length.first), 1});
        detail::copy_elements(statistic(chunk), along_axis(roi, axis, Slice{0, left, 1}));
    }
    if (right > 0) {
        const std::int64_t end = length - right;
        const Array chunk = along_axis(roi, axis, Slice{end - count(stat_length.second), end, 1});
        detail::copy_elements(statistic(chunk), along_axis(roi, axis, Slice{end, length, 1}));
    }
}

// NumPy's linear_ramp: from the end value at the outer edge toward the array's edge element,
// numpy.linspace's arithmetic (k * ((edge - end) / width) + end in float64, floored for integers).
void pad_ramps(const Array& roi, std::size_t axis, std::int64_t left, std::int64_t right,
               const std::pair<Scalar, Scalar>& ends) {
    const std::int64_t length = roi.shape()[axis];
    const DType dtype = roi.dtype();
    const DType wide = kind(dtype) == DTypeKind::complex ? DType::complex128 : DType::float64;
    auto ramp = [&](std::int64_t width, const Array& edge, const Scalar& end, bool reversed) {
        Shape steps_shape(roi.ndim(), 1);
        steps_shape[axis] = width;
        Array steps = arange(Scalar::of(std::int64_t{0}), Scalar::of(width), Scalar::of(std::int64_t{1}),
                             DType::float64, roi.device())
                          .reshape(steps_shape);
        if (reversed) steps = flip(steps, std::vector<std::int64_t>{static_cast<std::int64_t>(axis)});
        const Array start = full({}, end, wide, Order::C, roi.device());
        const Array delta = edge.astype(wide) - start;
        const Array step = delta / static_cast<double>(width);
        // numpy.linspace's two forms: k * step, or (k / width) * delta where some step is 0 (one wait).
        const bool some_step_zero =
            count_nonzero(equal(step, full({}, Scalar(false), wide, Order::C, roi.device()))) > 0;
        Array values = (some_step_zero ? (steps / static_cast<double>(width)) * delta : steps * step) + start;
        const char letter = kind_char(dtype);
        if (letter == 'i' || letter == 'u') values = floor(values);
        return values.astype(dtype);
    };
    if (left > 0)
        detail::copy_elements(ramp(left, along_axis(roi, axis, Slice{left, left + 1, 1}), ends.first, false),
                              along_axis(roi, axis, Slice{0, left, 1}));
    if (right > 0)
        detail::copy_elements(
            ramp(right, along_axis(roi, axis, Slice{length - right - 1, length - right, 1}), ends.second, true),
            along_axis(roi, axis, Slice{length - right, length, 1}));
}

}  // namespace

Array pad(const Array& a, std::span<const std::pair<std::int64_t, std::int64_t>> widths, PadMode mode,
          std::span<const std::pair<Scalar, Scalar>> constants) {
    PadOptions options;
    options.mode = mode;
    options.constants.assign(constants.begin(), constants.end());
    return pad(a, widths, options);
}

Array pad(const Array& a, std::span<const std::pair<std::int64_t, std::int64_t>> widths, const PadOptions& options) {
    const PadMode mode = options.mode;
    const std::span<const std::pair<Scalar, Scalar>> constants = options.constants;
    const std::size_t ndim = a.ndim();
    if (widths.size() != ndim)
        throw InvalidArgumentError(concat("pad takes one (before, after) pair of widths per axis: ", ndim,
                                          " for this array, not ", widths.size()));
    if (!constants.empty() && constants.size() != ndim)
        throw InvalidArgumentError(concat("pad takes one (before, after) pair of constant values per axis: ", ndim,
                                          " for this array, not ", constants.size()));
    if (!options.stat_length.empty() && options.stat_length.size() != ndim)
        throw InvalidArgumentError(concat("pad takes one (before, after) pair of stat_length per axis: ", ndim,
                                          " for this array, not ", options.stat_length.size()));
    Shape shape = a.shape();
    for (std::size_t d = 0; d < ndim; ++d) {
        if (widths[d].first < 0 || widths[d].second < 0)
            throw InvalidArgumentError("index can't contain negative values");
        shape[d] += widths[d].first + widths[d].second;
    }
    if (mode != PadMode::constant && mode != PadMode::empty && a.size() == 0) {
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
    if (mode == PadMode::empty) return padded;

    for (std::size_t d = 0; d < ndim; ++d) {
        const auto [left, right] = widths[d];
        if (left == 0 && right == 0) continue;
        const Array roi = region_of_interest(padded, widths, a.shape(), d);
        const std::int64_t length = roi.shape()[d];
        const std::int64_t period = a.shape()[d];
        switch (mode) {
            case PadMode::constant: {
                const Scalar zero(false);
                if (left > 0) along_axis(roi, d, Slice{0, left, 1}).fill(constants.empty() ? zero : constants[d].first);
                if (right > 0)
                    along_axis(roi, d, Slice{length - right, length, 1})
                        .fill(constants.empty() ? zero : constants[d].second);
                break;
            }
            case PadMode::wrap: pad_wrapped(roi, d, left, right, period); break;
            case PadMode::maximum:
            case PadMode::minimum:
            case PadMode::mean:
            case PadMode::median:
                pad_with_statistic(roi, d, left, right, period, mode,
                                   options.stat_length.empty()
                                       ? std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>>{}
                                       : options.stat_length[d]);
                break;
            case PadMode::linear_ramp: {
                const std::pair<Scalar, Scalar> zeros{Scalar(std::int64_t{0}), Scalar(std::int64_t{0})};
                pad_ramps(roi, d, left, right, constants.empty() ? zeros : constants[d]);
                break;
            }
            default:
                if (mode == PadMode::edge || period == 1) {  // mirroring one element repeats it, as NumPy's
                    pad_edges(roi, d, left, right);
                    break;
                }
                std::pair<std::int64_t, std::int64_t> left_to_do{left, right};
                while (left_to_do.first > 0 || left_to_do.second > 0)
                    left_to_do = reflect_once(roi, d, left_to_do.first, left_to_do.second, period,
                                              mode == PadMode::symmetric, options.odd);
        }
    }
    return padded;
}

}  // namespace gpukit
