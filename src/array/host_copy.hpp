// src/array/host_copy.hpp: moving elements between host layouts: strided copies, dtype
// conversion and broadcasting, the host half of every transfer that is not one contiguous block.
#pragma once

#include "gpukit/array.hpp"

namespace gpukit::detail {

// Copies the elements of `src` into `dst`, which has the same shape, converting them to dst's
// dtype as astype does (src/array/convert.hpp).
void copy_host_elements(const ConstHostView& src, const HostView& dst);

// `src` seen in `shape` by NumPy's broadcasting rules: dimensions of extent 1, and missing leading
// ones, repeat (stride 0). Throws InvalidArgumentError when the shapes do not broadcast.
ConstHostView broadcast_to(const ConstHostView& src, const Shape& shape);

}  // namespace gpukit::detail
