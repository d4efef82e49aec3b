// src/core/stream_access.hpp: what a StreamRef refers to, resolved for a backend call.
#pragma once

#include "backends/backend.hpp"
#include "gpukit/stream.hpp"

namespace gpukit::detail {

// Owns a native stream; shared by a Stream and the StreamRefs that are using it at the moment.
struct StreamState {
    StreamState(Backend& backend_, int device_, StreamFlags flags)
        : backend(&backend_), device(device_), handle(backend_.create_stream(device_, flags)) {}
    ~StreamState() { backend->release_stream(device, handle); }
    StreamState(const StreamState&) = delete;
    StreamState& operator=(const StreamState&) = delete;

    Backend* backend;
    int device;
    NativeStream handle;
};

struct StreamAccess {
    // The native stream to enqueue work for `device` on. Throws UsageError for a destroyed
    // stream and InvalidArgumentError for a stream of another device. `action` names the work.
    static NativeStream resolve(const StreamRef& stream, const Device& device, const char* action);
    // The device a stream belongs to (the current device for the default stream).
    static Device device_of(const StreamRef& stream);
};

}  // namespace gpukit::detail
