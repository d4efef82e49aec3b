// python/src/python_stream.hpp: gpukit.Stream, and the `stream=` argument of Python calls.
//
// A gpukit.Stream is a stream made from Python, or Stream.null: the default stream of whichever
// device the work runs on. The current stream is C++'s (gpukit/current_stream.hpp); `with stream:`
// and stream.use() set it, holding the Python object while it is current.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <optional>

#include "gpukit/current_stream.hpp"
#include "gpukit/stream.hpp"

namespace gpukit::python {

class PythonStream {
public:
    PythonStream() = default;  // Stream.null
    PythonStream(Device device, StreamFlags flags) : owned_(std::in_place, device, flags), ref_(owned_->ref()) {}
    explicit PythonStream(StreamRef borrowed) : ref_(borrowed) {}  // one C++ made current

    bool is_default() const noexcept { return ref_.is_default(); }
    // The stream for work on `device`: this one, or (Stream.null) the device's default stream.
    StreamRef for_device(const Device& device) const { return is_default() ? StreamRef::default_stream(device) : ref_; }
    // Its device; the current device for Stream.null.
    Device device() const { return is_default() ? Device::current() : ref_.device(); }
    std::uintptr_t handle() const { return is_default() ? 0 : reinterpret_cast<std::uintptr_t>(ref_.native_handle()); }

private:
    std::optional<Stream> owned_;
    StreamRef ref_;
};

// What `stream=` means for work on `device`: None, the current stream; a gpukit.Stream, that one.
// TypeError for anything else.
StreamRef stream_argument(nanobind::handle stream, const Device& device);

// Makes an explicit `stream=` the current stream for the length of a call (nothing for None).
class StreamArgumentScope {
public:
    StreamArgumentScope(nanobind::handle stream, const Device& device) {
        if (!stream.is_none()) scope_.emplace(stream_argument(stream, device));
    }

private:
    std::optional<StreamScope> scope_;
};

}  // namespace gpukit::python
