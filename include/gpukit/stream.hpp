// gpukit/stream.hpp: streams, owning (Stream) and non-owning (StreamRef).
//
// Default-stream semantics: a default-constructed StreamRef is the device's legacy default
// stream (CUDA stream 0). Work on it waits for all earlier work on the device's blocking streams,
// and blocking streams wait for it. Streams created by gpukit are blocking unless created with
// StreamFlags::non_blocking, so they behave like CuPy's and PyCUDA's by default. Synchronous
// gpukit calls (copy, memset) are ordered on the default stream.
#pragma once

#include <memory>

#include "gpukit/device.hpp"

namespace gpukit {

class Event;

namespace detail {
struct StreamState;
struct StreamAccess;
}  // namespace detail

enum class StreamFlags { blocking, non_blocking };

// A stream to enqueue work on, or the default stream. Cheap to copy. Using a StreamRef whose
// Stream has been destroyed throws UsageError instead of touching a dead handle.
class StreamRef {
public:
    StreamRef() = default;  // the current device's default stream
    static StreamRef default_stream(Device device);

    bool is_default() const noexcept { return !is_owned_; }
    Device device() const;

    void synchronize() const;
    // At most `timeout` (see Device::synchronize(timeout)); WaitTimeoutError past it.
    void synchronize(std::chrono::duration<double> timeout) const;
    // True when all work enqueued so far has finished.
    bool query() const;
    // Work enqueued on this stream after this call waits until `event` has completed.
    void wait(const Event& event) const;

    // The backend's native handle (a CUstream for CUDA). Throws UsageError if destroyed.
    void* native_handle() const;

    // Whether both refer to the same stream. A ref to a destroyed stream equals only the refs to
    // that stream, never one to a stream created since (even where the handle is reused).
    friend bool operator==(const StreamRef& a, const StreamRef& b) noexcept;

private:
    friend class Stream;
    friend struct detail::StreamAccess;
    explicit StreamRef(std::weak_ptr<detail::StreamState> state) : state_(std::move(state)), is_owned_(true) {}

    std::weak_ptr<detail::StreamState> state_;    // empty for a default stream
    detail::Backend* default_backend_ = nullptr;  // default stream of a named device; null: current
    int default_ordinal_ = 0;
    bool is_owned_ = false;
};

// An owned stream. Move-only; destroying it waits for nothing and frees the handle once the
// work already enqueued has finished (the driver defers the release).
class Stream {
public:
    explicit Stream(StreamFlags flags = StreamFlags::blocking);
    explicit Stream(Device device, StreamFlags flags = StreamFlags::blocking);
    ~Stream();
    Stream(Stream&&) noexcept = default;
    Stream& operator=(Stream&&) noexcept = default;
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

    StreamRef ref() const;
    // A Stream passes where a StreamRef is taken, as an owner passes for its reference.
    operator StreamRef() const { return ref(); }  // NOLINT(google-explicit-constructor)

    Device device() const;
    void synchronize() const { ref().synchronize(); }
    void synchronize(std::chrono::duration<double> timeout) const { ref().synchronize(timeout); }
    bool query() const { return ref().query(); }
    void wait(const Event& event) const;

private:
    const detail::StreamState& state() const;
    std::shared_ptr<detail::StreamState> state_;
};

}  // namespace gpukit
