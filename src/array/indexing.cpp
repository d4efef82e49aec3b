// src/array/indexing.cpp: basic indexing (see gpukit/indexing.hpp), NumPy's rules and messages.
#include "gpukit/indexing.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

SliceRange resolve(const Slice& slice, std::int64_t extent) {
    constexpr std::int64_t most = std::numeric_limits<std::int64_t>::max();
    std::int64_t step = slice.step.value_or(1);
    if (step == 0) throw InvalidArgumentError("slice step cannot be zero");
    step = std::max(step, -most);  // so that -step exists, as Python clamps it
    // Python's slice.indices(): negative bounds count from the end, then clamp to the dimension.
    const std::int64_t lower = step < 0 ? -1 : 0;
    const std::int64_t upper = step < 0 ? extent - 1 : extent;
    const auto bound = [&](const std::optional<std::int64_t>& given, std::int64_t absent) {
        if (!given) return absent;
        std::int64_t index = *given;
        if (index < 0) return std::max(index + extent, lower);
        return std::min(index, upper);
    };
    const std::int64_t start = bound(slice.start, step < 0 ? upper : lower);
    const std::int64_t stop = bound(slice.stop, step < 0 ? lower : upper);
    std::int64_t length = 0;
    if (step > 0 && start < stop) length = (stop - start - 1) / step + 1;
    if (step < 0 && stop < start) length = (start - stop - 1) / -step + 1;
    return {start, step, length};
}

namespace {

bool selects_a_dimension(const Index& item) {
    return std::holds_alternative<std::int64_t>(item) || std::holds_alternative<Slice>(item);
}

}  // namespace

ViewLayout select(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                  std::span<const Index> key) {
    const auto ellipses =
        std::count_if(key.begin(), key.end(), [](const Index& item) { return std::holds_alternative<Ellipsis>(item); });
    if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
    const auto selecting = static_cast<std::size_t>(std::count_if(key.begin(), key.end(), selects_a_dimension));
    if (selecting > shape.size())
        throw IndexError(concat("too many indices for array: array is ", shape.size(), "-dimensional, but ", selecting,
                                " were indexed"));

    ViewLayout view;
    std::size_t dim = 0;
    const auto full_slices = [&](std::size_t count) {
        for (std::size_t i = 0; i < count; ++i, ++dim) {
            view.shape.push_back(shape[dim]);
            view.strides.push_back(strides[dim]);
        }
    };
    for (const Index& item : key) {
        if (std::holds_alternative<Ellipsis>(item)) {
            full_slices(shape.size() - selecting);
        } else if (std::holds_alternative<NewAxis>(item)) {
            view.shape.push_back(1);
            view.strides.push_back(0);
        } else if (const auto* slice = std::get_if<Slice>(&item)) {
            const SliceRange range = resolve(*slice, shape[dim]);
            view.shape.push_back(range.length);
            view.strides.push_back(strides[dim] * range.step);
            if (range.length) view.offset += range.start * strides[dim];
            ++dim;
        } else {
            const std::int64_t index = std::get<std::int64_t>(item);
            if (index < -shape[dim] || index >= shape[dim])
                throw IndexError(
                    concat("index ", index, " is out of bounds for axis ", dim, " with size ", shape[dim]));
            view.offset += (index < 0 ? index + shape[dim] : index) * strides[dim];
            ++dim;
        }
    }
    full_slices(shape.size() - dim);  // the dimensions the key leaves out are taken whole
    return view;
}

}  // namespace gpukit
