// gpukit/event.hpp: events, for ordering streams and timing work on them.
#pragma once

#include <memory>

#include "gpukit/stream.hpp"

namespace gpukit {

namespace detail {
struct EventState;
}

enum class EventFlags { timing, no_timing };

class Event {
public:
    explicit Event(EventFlags flags = EventFlags::timing);
    explicit Event(Device device, EventFlags flags = EventFlags::timing);
    ~Event();
    Event(Event&&) noexcept;
    Event& operator=(Event&&) noexcept;
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;

    Device device() const;
    // Captures the work enqueued on `stream` so far.
    void record(StreamRef stream = {});
    // Waits until the captured work has finished.
    void synchronize() const;
    // At most `timeout` (see Device::synchronize(timeout)); WaitTimeoutError past it.
    void synchronize(std::chrono::duration<double> timeout) const;
    // True when the captured work has finished (or nothing was recorded).
    bool query() const;
    bool is_recorded() const;

    // Milliseconds between two recorded events with timing enabled; `end` must have completed.
    static float elapsed_ms(const Event& start, const Event& end);

    void* native_handle() const;

private:
    const detail::EventState& state() const;
    std::unique_ptr<detail::EventState> state_;
};

}  // namespace gpukit
