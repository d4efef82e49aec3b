// src/core/event.cpp: events for ordering and timing streams.
#include "gpukit/event.hpp"

#include "backends/backend.hpp"
#include "core/check_report.hpp"
#include "core/stream_access.hpp"
#include "core/wait_limit.hpp"
#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit {

namespace detail {
// Owns a native event.
struct EventState {
    EventState(Backend& backend_, int device_, EventFlags flags_)
        : backend(&backend_), device(device_), flags(flags_), handle(backend_.create_event(device_, flags_)) {}
    ~EventState() { backend->release_event(device, handle); }
    EventState(const EventState&) = delete;
    EventState& operator=(const EventState&) = delete;

    Backend* backend;
    int device;
    EventFlags flags;
    NativeEvent handle;
    bool recorded = false;
};
}  // namespace detail

Event::Event(EventFlags flags) : Event(Device::current(), flags) {}

Event::Event(Device device, EventFlags flags)
    : state_(std::make_unique<detail::EventState>(device.backend(), device.ordinal(), flags)) {}

Event::~Event() = default;
Event::Event(Event&&) noexcept = default;
Event& Event::operator=(Event&&) noexcept = default;

const detail::EventState& Event::state() const {
    if (!state_) throw UsageError("Use of a moved-from gpukit::Event");
    return *state_;
}

Device Event::device() const { return Device(*state().backend, state().device); }

void Event::record(StreamRef stream) {
    const auto& s = state();
    const Device d = device();
    s.backend->record_event(s.device, s.handle, detail::StreamAccess::resolve(stream, d, "record an event"));
    state_->recorded = true;
}

void Event::synchronize() const {
    const detail::ReportAfterSync report;
    const auto& s = state();
    s.backend->synchronize_event(s.device, s.handle, std::nullopt);
}

void Event::synchronize(std::chrono::duration<double> timeout) const {
    const detail::ReportAfterSync report;
    const auto& s = state();
    s.backend->synchronize_event(s.device, s.handle, detail::deadline_after(timeout, "Event::synchronize"));
}

bool Event::query() const {
    const auto& s = state();
    return s.backend->query_event(s.device, s.handle);
}

bool Event::is_recorded() const { return state().recorded; }

float Event::elapsed_ms(const Event& start, const Event& end) {
    const auto& a = start.state();
    const auto& b = end.state();
    if (a.backend != b.backend || a.device != b.device)
        throw InvalidArgumentError("Event::elapsed_ms: the two events belong to different devices");
    if (a.flags == EventFlags::no_timing || b.flags == EventFlags::no_timing)
        throw InvalidArgumentError("Event::elapsed_ms: both events need EventFlags::timing");
    if (!a.recorded || !b.recorded)
        throw InvalidArgumentError(
            detail::concat("Event::elapsed_ms: the ", a.recorded ? "end" : "start", " event was never recorded"));
    return a.backend->elapsed_ms(a.device, a.handle, b.handle);
}

void* Event::native_handle() const { return state().handle; }

}  // namespace gpukit
