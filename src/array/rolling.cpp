// src/array/rolling.cpp: roll (gpukit/shape_ops.hpp). Along each rolled axis the array is two
// slices that trade places; the result is written as every combination of them (2^axes device
// copies, NumPy's way), each slice of the source into its place in the result.
#include <map>
#include <vector>

#include "array/device_copy.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/shape_ops.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

Array roll(const Array& a, std::span<const std::int64_t> shifts, std::span<const std::int64_t> axes) {
    if (axes.empty()) {  // over the flattened array: every shift adds up along its one axis
        if (shifts.empty()) throw InvalidArgumentError("roll needs a shift");
        const std::vector<std::int64_t> along(shifts.size(), 0);
        return roll(a.ravel(), shifts, along).reshape(a.shape());
    }
    // shift and axis broadcast against each other, as NumPy's.
    if (shifts.size() != axes.size() && shifts.size() != 1 && axes.size() != 1)
        throw InvalidArgumentError(
            concat("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch "
                   "is between arg 0 with shape (",
                   shifts.size(), ",) and arg 1 with shape (", axes.size(), ",)."));
    const std::size_t count = std::max(shifts.size(), axes.size());
    std::map<std::size_t, std::int64_t> total;  // per axis: the sum of its shifts
    for (std::size_t k = 0; k < count; ++k)
        total[normalize_axis(axes[axes.size() == 1 ? 0 : k], a.ndim())] += shifts[shifts.size() == 1 ? 0 : k];

    // Per axis: (source slice, result slice) pairs; one full pair where the axis does not move.
    std::vector<std::vector<std::pair<Slice, Slice>>> moves(a.ndim(), {{Slice{}, Slice{}}});
    for (const auto& [axis, shift] : total) {
        const std::int64_t extent = a.shape()[axis] ? a.shape()[axis] : 1;  // an empty axis: nothing matters
        const std::int64_t offset = ((shift % extent) + extent) % extent;   // Python's modulo
        if (offset)
            moves[axis] = {{Slice{std::nullopt, -offset, 1}, Slice{offset, std::nullopt, 1}},
                           {Slice{-offset, std::nullopt, 1}, Slice{std::nullopt, offset, 1}}};
    }
    LikeOptions like;
    Array result = empty_like(a, like);
    std::vector<std::size_t> choice(a.ndim(), 0);
    while (true) {
        std::vector<Index> from, to;
        for (std::size_t d = 0; d < a.ndim(); ++d) {
            from.emplace_back(moves[d][choice[d]].first);
            to.emplace_back(moves[d][choice[d]].second);
        }
        detail::copy_elements(a.index(from), result.index(to));
        std::size_t d = a.ndim();
        while (d > 0 && ++choice[d - 1] == moves[d - 1].size()) choice[--d] = 0;
        if (d == 0) break;
    }
    return result;
}

}  // namespace gpukit
