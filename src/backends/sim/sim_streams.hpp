// src/backends/sim/sim_streams.hpp: streams and events of the simulated device.
//
// Each stream is a queue with a thread of its own: work on it runs in order and asynchronously
// with the host, as on a GPU. The legacy default stream keeps CUDA's semantics: its work waits
// for earlier work on every blocking stream, and work on blocking streams waits for earlier work
// on it. An error raised by work on a stream (a deadlocked block, a faulting kernel) is reported by
// the next call that synchronises with that stream.
//
// A faulting kernel is like CUDA's sticky error, but for its stream only and until reported: the
// work queued after it on the stream is skipped (event records still complete, so nothing waits
// for ever), and once a synchronising call has raised the error the stream runs new work again.
//
// Waits can end early. A deadline ends them with WaitTimeoutError, the interrupt check
// (gpukit/device.hpp: Ctrl-C in Python) with WaitInterruptedError; before either, the device's
// work is given up where it can be (abandon_all): the running launches are stopped (the device
// process restarted) and everything queued on every stream is skipped, so the device is usable
// again. Streams other than those the interrupted wait was for report the loss at their next
// synchronisation (LaunchAbandonedError).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "backends/backend.hpp"

namespace gpukit::detail::sim {

class SimStream;
struct SimEvent;

class StreamScheduler {
public:
    StreamScheduler();
    ~StreamScheduler();
    StreamScheduler(const StreamScheduler&) = delete;
    StreamScheduler& operator=(const StreamScheduler&) = delete;

    // How running work is stopped when a wait gives up: returns false where it cannot be (kernels
    // running in this process).
    void set_stopper(std::function<bool(const std::string& why)> stop);

    SimStream* default_stream();
    SimStream* create_stream(bool blocking);
    // Retires the stream at once, as cudaStreamDestroy does: the work already enqueued on it
    // still runs (and counts for synchronize_all, the legacy default stream's order and put-off
    // actions), and its thread ends after it. Never waits for that work, which may never end.
    void destroy_stream(SimStream* stream);

    // Enqueues `work` on `stream` (null: the default stream).
    void enqueue(SimStream* stream, std::function<void()> work);
    // For work running on a stream, to call as it runs: a check that says whether the work has
    // been given up since it was taken off its queue (a wait that gave up the device's work
    // stops what runs through the stopper, which must then refuse to start it). Empty on a
    // thread that runs no stream's work.
    static std::function<bool()> given_up_check();
    // Runs `work` now on the calling thread, ordered as legacy default-stream work: after
    // everything enqueued on the default and blocking streams so far. Rethrows a pending error
    // of the default stream first.
    void run_synchronously(const std::function<void()>& work);

    // Runs `action` once the work enqueued so far on every stream has ended (at once when there
    // is none): what freeing memory waits for, as cudaFree does, without blocking the caller. The
    // action runs on a stream's thread under the scheduler's lock, before anything can see the
    // work as done: it must be short and must not call the scheduler.
    void after_queued_work(std::function<void()> action);
    // Waits until every action after_queued_work() put off has run (an allocation that found no
    // room waits for the memory that queued work still holds).
    void finish_put_off_actions(const Deadline& deadline = std::nullopt);

    // Waits for the stream's work so far; rethrows (and clears) the first error it raised.
    void synchronize(SimStream* stream, const Deadline& deadline = std::nullopt);
    bool query(SimStream* stream);
    void synchronize_all(const Deadline& deadline = std::nullopt);

    SimEvent* create_event(bool timing);
    void destroy_event(SimEvent* event);
    void record(SimEvent* event, SimStream* stream);
    void synchronize(SimEvent* event, const Deadline& deadline = std::nullopt);
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
