// src/backends/sim/sim_streams.hpp: streams and events of the simulated device.
//
// Each stream is a queue with a thread of its own: work on it runs in order and asynchronously
// with the host, as on a GPU. The legacy default stream keeps CUDA's semantics: its work waits
// for earlier work on every blocking stream, and work on blocking streams waits for earlier work
// on it. An error raised by work on a stream (a deadlocked block) is reported by the next call
// that synchronises with that stream.
#pragma once

#include <chrono>
#include <functional>
#include <memory>

namespace gpukit::detail::sim {

class SimStream;
struct SimEvent;

class StreamScheduler {
public:
    StreamScheduler();
    ~StreamScheduler();
    StreamScheduler(const StreamScheduler&) = delete;
    StreamScheduler& operator=(const StreamScheduler&) = delete;

    SimStream* default_stream();
    SimStream* create_stream(bool blocking);
    // Waits for the stream's work, then retires it.
    void destroy_stream(SimStream* stream);

    // Enqueues `work` on `stream` (null: the default stream).
    void enqueue(SimStream* stream, std::function<void()> work);
    // Runs `work` now on the calling thread, ordered as legacy default-stream work: after
    // everything enqueued on the default and blocking streams so far. Rethrows a pending error
    // of the default stream first.
    void run_synchronously(const std::function<void()>& work);

    // Waits for the stream's work so far; rethrows (and clears) the first error it raised.
    void synchronize(SimStream* stream);
    bool query(SimStream* stream);
    void synchronize_all();

    SimEvent* create_event(bool timing);
    void destroy_event(SimEvent* event);
    void record(SimEvent* event, SimStream* stream);
    void synchronize(SimEvent* event);
    bool query(SimEvent* event);
    // Later work on `stream` waits until the event's latest record has completed.
    void wait(SimStream* stream, SimEvent* event);
    // Milliseconds between the completion of two records.
    float elapsed_ms(SimEvent* start, SimEvent* end);

    struct State;

private:
    std::unique_ptr<State> state_;
};

}  // namespace gpukit::detail::sim
