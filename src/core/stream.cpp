// src/core/stream.cpp: owned streams and references to them.
#include "gpukit/stream.hpp"
#include "gpukit/event.hpp"

#include "core/check_report.hpp"
#include "core/stream_access.hpp"
#include "core/wait_limit.hpp"
#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit {

namespace detail {

namespace {
[[noreturn]] void destroyed(const char* action) {
    throw UsageError(concat("Cannot ", action,
                            ": the stream was destroyed. A StreamRef does not keep its Stream "
                            "alive; keep the Stream until the work enqueued through it is done"));
}
}  // namespace

Device StreamAccess::device_of(const StreamRef& stream) {
    if (stream.is_owned_) {
        auto state = stream.state_.lock();
        if (!state) destroyed("use a stream");
        return Device(*state->backend, state->device);
    }
    if (stream.default_backend_) return Device(*stream.default_backend_, stream.default_ordinal_);
    return Device::current();
}

NativeStream StreamAccess::resolve(const StreamRef& stream, const Device& device, const char* action) {
    if (!stream.is_owned_) {
        if (stream.default_backend_ &&
            (stream.default_backend_ != &device.backend() || stream.default_ordinal_ != device.ordinal()))
            throw InvalidArgumentError(concat("Cannot ", action, " on ", device.describe(),
                                              " through the default stream of device ", stream.default_ordinal_));
        return nullptr;
    }
    auto state = stream.state_.lock();
    if (!state) destroyed(action);
    if (state->backend != &device.backend() || state->device != device.ordinal())
        throw InvalidArgumentError(
            concat("Cannot ", action, " on ", device.describe(), " through a stream of device ", state->device));
    return state->handle;
}

}  // namespace detail

StreamRef StreamRef::default_stream(Device device) {
    StreamRef ref;
    ref.default_backend_ = &device.backend();
    ref.default_ordinal_ = device.ordinal();
    return ref;
}

Device StreamRef::device() const { return detail::StreamAccess::device_of(*this); }

void StreamRef::synchronize() const {
    const detail::ReportAfterSync report;
    const Device d = device();
    d.backend().synchronize_stream(d.ordinal(), detail::StreamAccess::resolve(*this, d, "synchronize a stream"),
                                   std::nullopt);
}

void StreamRef::synchronize(std::chrono::duration<double> timeout) const {
    const detail::ReportAfterSync report;
    const Device d = device();
    const auto deadline = detail::deadline_after(timeout, "Stream::synchronize");
    d.backend().synchronize_stream(d.ordinal(), detail::StreamAccess::resolve(*this, d, "synchronize a stream"),
                                   deadline);
}

bool StreamRef::query() const {
    const Device d = device();
    return d.backend().query_stream(d.ordinal(), detail::StreamAccess::resolve(*this, d, "query a stream"));
}

void StreamRef::wait(const Event& event) const {
    const Device d = device();
    // An event of another device of the backend orders work across devices (as CUDA allows).
    if (&event.device().backend() != &d.backend())
        throw InvalidArgumentError(detail::concat("A stream of ", d.describe(), " on ", d.backend_info().name,
                                                  " cannot wait for an event of ", event.device().describe(), " on ",
                                                  event.device().backend_info().name));
    d.backend().stream_wait_event(d.ordinal(), detail::StreamAccess::resolve(*this, d, "make a stream wait"),
                                  event.native_handle());
}

void* StreamRef::native_handle() const {
    const Device d = device();
    return detail::StreamAccess::resolve(*this, d, "read a stream's handle");
}

bool operator==(const StreamRef& a, const StreamRef& b) noexcept {
    if (a.is_owned_ != b.is_owned_) return false;
    // By owner: the weak references keep the state's control block, so it is never another's.
    if (a.is_owned_) return !a.state_.owner_before(b.state_) && !b.state_.owner_before(a.state_);
    if (a.default_backend_ && b.default_backend_)
        return a.default_backend_ == b.default_backend_ && a.default_ordinal_ == b.default_ordinal_;
    try {  // a default-constructed ref means the current device's default stream
        return detail::StreamAccess::device_of(a) == detail::StreamAccess::device_of(b);
    } catch (...) {
        return false;
    }
}

Stream::Stream(StreamFlags flags) : Stream(Device::current(), flags) {}

Stream::Stream(Device device, StreamFlags flags)
    : state_(std::make_shared<detail::StreamState>(device.backend(), device.ordinal(), flags)) {}

Stream::~Stream() = default;

const detail::StreamState& Stream::state() const {
    if (!state_) throw UsageError("Use of a moved-from gpukit::Stream");
    return *state_;
}

StreamRef Stream::ref() const {
    state();
    return StreamRef(state_);
}

Device Stream::device() const { return Device(*state().backend, state().device); }

void Stream::wait(const Event& event) const { ref().wait(event); }

}  // namespace gpukit
