// src/array/upload.hpp: small host data the library made itself (edges, tables), on the device
// without waiting for it.
#pragma once

#include <span>

#include "gpukit/array.hpp"

namespace gpukit::detail {

// A new 1-D array of `values` on `device`, the copy queued on the device's current stream: the
// host does not wait for the device's earlier work, as Array::from_host's synchronous copy does.
// For the library's own buffers (ordinary memory, never a user's pinned memory); larger ones than
// a backend stages in one call are copied as from_host copies.
Array upload(std::span<const std::byte> bytes, DType dtype, Device device);

template <class T>
Array upload(std::span<const T> values, DType dtype, Device device) {
    return upload(std::as_bytes(values), dtype, device);
}

}  // namespace gpukit::detail
