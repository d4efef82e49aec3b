// gpukit/current_stream.hpp: the stream work goes to when none is named.
//
// Each thread has a current stream per device: the device's default stream until something is
// made current. Array transfers, copies and fills run on it; in Python, `with stream:`,
// stream.use() and launches without stream= use it too.
//
//   gpukit::Stream stream;
//   {
//       gpukit::StreamScope scope(stream);  // current for stream's device until the scope ends
//       array.fill(1.0f);                   // enqueued on `stream`
//   }
#pragma once

#include <memory>

#include "gpukit/device.hpp"
#include "gpukit/stream.hpp"

namespace gpukit {

// The calling thread's current stream of `device`.
StreamRef current_stream(const Device& device = Device::current());

// Makes `stream` the current stream of its device on the calling thread, until set again. A
// StreamRef does not keep its Stream alive; `owner`, when given, is kept alive while the stream
// is current, for a stream nothing else would keep (the Python bindings give the Python object).
void set_current_stream(StreamRef stream, std::shared_ptr<const void> owner = {});
// The owner given with the current stream of `device`; null when none was given.
std::shared_ptr<const void> current_stream_owner(const Device& device = Device::current());

// Makes the default stream current again for every device on the calling thread, letting go of the
// owners given (an embedding that must drop them before it shuts down calls it).
void reset_current_streams() noexcept;

// Makes a stream current for its device until the scope ends, then restores the one before.
class StreamScope {
public:
    explicit StreamScope(StreamRef stream, std::shared_ptr<const void> owner = {});
    ~StreamScope();
    StreamScope(const StreamScope&) = delete;
    StreamScope& operator=(const StreamScope&) = delete;

private:
    Device device_;
    StreamRef previous_;
    std::shared_ptr<const void> previous_owner_;
};

}  // namespace gpukit
