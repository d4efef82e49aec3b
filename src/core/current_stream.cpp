// src/core/current_stream.cpp: each thread's current stream of each device.
#include "gpukit/current_stream.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace gpukit {

namespace {

struct CurrentStream {
    Device device;
    StreamRef stream;
    std::shared_ptr<const void> owner;
};

// Only the devices whose current stream was set; a thread uses few, so a short list.
thread_local std::vector<CurrentStream> current_streams;

CurrentStream* find(const Device& device) noexcept {
    const auto found = std::find_if(current_streams.begin(), current_streams.end(),
                                    [&](const CurrentStream& entry) { return entry.device == device; });
    return found == current_streams.end() ? nullptr : &*found;
}

void set_for(const Device& device, StreamRef stream, std::shared_ptr<const void> owner) {
    if (CurrentStream* entry = find(device)) {
        // Swapped out first: the old owner may run code (a Python finalizer) that looks here.
        std::shared_ptr<const void> previous_owner = std::exchange(entry->owner, std::move(owner));
        entry->stream = stream;
        return;
    }
    current_streams.push_back({device, stream, std::move(owner)});
}

}  // namespace

StreamRef current_stream(const Device& device) {
    if (const CurrentStream* entry = find(device)) return entry->stream;
    return StreamRef::default_stream(device);
}

std::shared_ptr<const void> current_stream_owner(const Device& device) {
    const CurrentStream* entry = find(device);
    return entry ? entry->owner : nullptr;
}

void set_current_stream(StreamRef stream, std::shared_ptr<const void> owner) {
    const Device device = stream.device();
    // A default StreamRef means the current device's default stream; pin it to this device.
    set_for(device, stream.is_default() ? StreamRef::default_stream(device) : stream, std::move(owner));
}

void reset_current_streams() noexcept {
    // Moved out first: an owner's release may run code (a Python finalizer) that looks here.
    std::vector<CurrentStream> released = std::move(current_streams);
    current_streams.clear();
}

StreamScope::StreamScope(StreamRef stream, std::shared_ptr<const void> owner)
    : device_(stream.device()), previous_(current_stream(device_)), previous_owner_(current_stream_owner(device_)) {
    set_current_stream(stream, std::move(owner));
}

// By device_: asking previous_ its device would throw if its Stream has been destroyed since.
StreamScope::~StreamScope() { set_for(device_, previous_, std::move(previous_owner_)); }

}  // namespace gpukit
