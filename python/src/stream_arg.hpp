// python/src/stream_arg.hpp: how a binding reads the stream argument Python passes.
//
// The Python layer resolves "the current stream" and hands the extension either a _core.Stream or
// None, which means the legacy default stream of the device the work runs on.
#pragma once

#include "gpukit/stream.hpp"

namespace gpukit::python {

inline StreamRef stream_or_default(const Stream* stream, const Device& device) {
    return stream ? stream->ref() : StreamRef::default_stream(device);
}

}  // namespace gpukit::python
