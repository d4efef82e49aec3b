// src/array/along_axis.hpp: the part of an array one slice of one axis selects, the building block
// of joining, splitting, padding and rolling (each writes or reads arrays a slice at a time).
#pragma once

#include <vector>

#include "gpukit/array.hpp"

namespace gpukit::detail {

// a[:, ..., :, slice] with the slice at `axis` (Python's slice semantics: negative bounds count
// from the end, bounds clamp).
inline Array along_axis(const Array& a, std::size_t axis, const Slice& slice) {
    std::vector<Index> key(axis, Slice{});
    key.emplace_back(slice);
    return a.index(key);
}

}  // namespace gpukit::detail
