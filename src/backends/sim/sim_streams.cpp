// src/backends/sim/sim_streams.cpp: streams and events of the simulated device.
#include "backends/sim/sim_streams.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "gpukit/device.hpp"
#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit::detail::sim {

using Clock = std::chrono::steady_clock;

namespace {

// A condition checked under the scheduler's lock before a piece of work may start.
using Ready = std::function<bool()>;

struct Work {
    std::function<void()> run;
    std::vector<Ready> after;
    std::uint64_t epoch = 0;   // the scheduler's epoch when it was enqueued: older work is skipped
    bool always_runs = false;  // bookkeeping (an event record) that runs even when skipped
};

// The scheduler epoch the work running on this thread (a stream's) was taken off its queue in.
struct RunningWork {
    const std::atomic<std::uint64_t>* epoch = nullptr;  // the scheduler's, null when none runs
    std::uint64_t taken_in = 0;
};
thread_local RunningWork running_work;

// How often a wait looks at the clock and asks the interrupt check.
constexpr auto wait_slice = std::chrono::milliseconds(100);

// Errors after which a stream skips its later work until they are reported: the launch did not
// run to its end, so what follows would read what it did not write.
bool stops_the_stream(const std::exception_ptr& error) {
    try {
        std::rethrow_exception(error);
    } catch (const KernelFaultError&) {
        return true;
    } catch (const LaunchTimeoutError&) {
        return true;
    } catch (const LaunchAbandonedError&) {
        return true;
    } catch (...) {
        return false;
    }
}

}  // namespace

class SimStream {
public:
    bool is_default = false;
    bool blocking = true;
    std::deque<Work> queue;
    std::uint64_t enqueued = 0;
    std::uint64_t completed = 0;
    std::exception_ptr error;
    bool skipping = false;  // an error that stops the stream is waiting to be reported
    bool stopping = false;
    bool retired = false;  // destroyed: serves what was enqueued, then ends
    bool ended = false;    // its thread has left serve()
    std::thread thread;
};

struct SimEvent {
    bool timing = true;
    std::uint64_t recorded = 0;   // records asked for
    std::uint64_t completed = 0;  // records that have happened
    Clock::time_point when{};
    std::weak_ptr<SimStream> stream;  // of the latest record
};

// An action that waits for the work enqueued before it (after_queued_work).
struct PutOff {
    std::vector<std::pair<std::shared_ptr<SimStream>, std::uint64_t>> targets;  // stream, work to complete
    std::function<void()> action;
};

struct StreamScheduler::State {
    std::mutex mutex;
    std::condition_variable changed;
    std::map<SimStream*, std::shared_ptr<SimStream>> streams;  // with the retired ones whose work runs
    std::vector<std::shared_ptr<SimStream>> retired;           // destroyed streams whose thread is not joined
    std::map<SimEvent*, std::shared_ptr<SimEvent>> events;
    std::shared_ptr<SimStream> default_stream;
    // Raised (under the lock) when the device's work is given up; read without it by the running
    // work's given_up_check(), which the stopper asks under locks of its own.
    std::atomic<std::uint64_t> epoch{0};
    std::function<bool(const std::string&)> stop;
    std::vector<PutOff> put_off;

    std::shared_ptr<SimStream> start(bool is_default, bool blocking) {
        auto stream = std::make_shared<SimStream>();
        stream->is_default = is_default;
        stream->blocking = blocking;
        stream->thread = std::thread([this, raw = stream.get()] { serve(*raw); });
        streams.emplace(stream.get(), stream);
        return stream;
    }

    void serve(SimStream& stream) {
        std::unique_lock lock(mutex);
        for (;;) {
            changed.wait(lock, [&] {
                if (stream.stopping && stream.queue.empty()) return true;
                if (stream.queue.empty()) return false;
                for (const auto& ready : stream.queue.front().after)
                    if (!ready()) return false;
                return true;
            });
            if (stream.queue.empty()) {  // stopping
                // A retired stream's work has all ended: it counts for nothing any more.
                if (stream.retired) streams.erase(&stream);
                stream.ended = true;
                changed.notify_all();
                return;
            }
            Work work = std::move(stream.queue.front());
            stream.queue.pop_front();
            const bool skip = (work.epoch != epoch.load() || stream.skipping) && !work.always_runs;
            lock.unlock();
            std::exception_ptr failure;
            if (!skip) {
                // A give-up from now on may find this work between here and the device process:
                // the stopper asks given_up_check() to keep it from starting there.
                running_work = {&epoch, work.epoch};
                try {
                    work.run();
                } catch (...) {
                    failure = std::current_exception();
                }
                running_work = {};
            }
            lock.lock();
            if (failure) {
                if (!stream.error) stream.error = failure;
                if (stops_the_stream(failure)) stream.skipping = true;
            }
            ++stream.completed;
            if (!put_off.empty()) run_put_off_actions();
            changed.notify_all();
        }
    }

    // The put-off actions whose work has all ended, in the order they were put off.
    void run_put_off_actions() {
        std::erase_if(put_off, [](PutOff& entry) {
            for (const auto& [stream, target] : entry.targets)
                if (stream->completed < target) return false;
            entry.action();
            return true;
        });
    }

    Work work(std::function<void()> run, const SimStream& stream, bool always_runs = false) {
        return Work{std::move(run), implicit_order(stream), epoch.load(), always_runs};
    }

    // What work enqueued on `stream` now must wait for, per the legacy default stream's rules.
    std::vector<Ready> implicit_order(const SimStream& stream) {
        std::vector<Ready> after;
        auto until_done = [](std::shared_ptr<SimStream> other) {
            const std::uint64_t target = other->enqueued;
            return [other = std::move(other), target] { return other->completed >= target; };
        };
        if (stream.is_default) {
            for (const auto& [raw, other] : streams)
                if (!other->is_default && other->blocking && other->enqueued > other->completed)
                    after.push_back(until_done(other));
        } else if (stream.blocking && default_stream->enqueued > default_stream->completed) {
            after.push_back(until_done(default_stream));
        }
        return after;
    }

    std::shared_ptr<SimStream> resolve(SimStream* stream) {
        if (!stream) return default_stream;
        auto it = streams.find(stream);
        if (it == streams.end() || it->second->retired)
            throw UsageError("The simulator has no such stream (it was destroyed)");
        return it->second;
    }

    std::shared_ptr<SimEvent> resolve(SimEvent* event) {
        auto it = events.find(event);
        if (it == events.end()) throw UsageError("The simulator has no such event (it was destroyed)");
        return it->second;
    }

    // Waits until `done`; past the deadline, or when the interrupt check says so, gives up the
    // device's work (where it can) and throws. `waited`: the streams whose work the caller waits
    // for, which the caller's error reports; `what` names that work in the message.
    template <class Done>
    void wait(std::unique_lock<std::mutex>& lock, Done done, const Deadline& deadline,
              const std::vector<std::shared_ptr<SimStream>>& waited, const char* what) {
        while (!done()) {
            auto until = Clock::now() + wait_slice;
            if (deadline && deadline->deadline < until) until = deadline->deadline;
            changed.wait_until(lock, until, done);
            if (done()) return;
            if (deadline && Clock::now() >= deadline->deadline) {
                const bool stopped = give_up(lock, waited, concat("waiting for ", what, " timed out"));
                throw WaitTimeoutError(concat("Waiting for ", what, " timed out after ", deadline->seconds, " s. ",
                                              stopped ? given_up : still_running),
                                       deadline->seconds);
            }
            if (const WaitInterruptCheck check = wait_interrupt_check()) {
                lock.unlock();
                const bool interrupted = check();
                lock.lock();
                if (interrupted) {
                    const bool stopped = give_up(lock, waited, concat("waiting for ", what, " was interrupted"));
                    throw WaitInterruptedError(
                        concat("Waiting for ", what, " was interrupted. ", stopped ? given_up : still_running));
                }
            }
        }
    }

    static constexpr const char* given_up =
        "The simulator gave up the device's work so that the device is usable again: the running launches were "
        "stopped (its device process was restarted) and the work queued on every stream was skipped; device memory "
        "keeps what that work wrote";
    static constexpr const char* still_running =
        "The work goes on running: kernels run in this process (GPUKIT_SIM_ISOLATION=0), where they cannot be "
        "stopped";

    // Stops the running work and skips everything queued; returns false where it cannot (then
    // nothing changes). The streams in `waited` are left without an error (the caller reports
    // it); the others that lost work report LaunchAbandonedError.
    bool give_up(std::unique_lock<std::mutex>& lock, const std::vector<std::shared_ptr<SimStream>>& waited,
                 const std::string& why) {
        if (!stop) return false;
        ++epoch;
        std::vector<std::pair<std::shared_ptr<SimStream>, std::uint64_t>> targets;
        for (const auto& [raw, stream] : streams) {
            targets.emplace_back(stream, stream->enqueued);
            if (stream->enqueued > stream->completed && !stream->error)
                stream->error = std::make_exception_ptr(
                    LaunchAbandonedError(concat("Work on this stream was abandoned: ", why,
                                                " in another thread or on another stream, and "
                                                "the simulator gave up the device's work to keep the device usable")));
        }
        changed.notify_all();
        const auto stop_now = stop;
        lock.unlock();
        stop_now(why);
        lock.lock();
        // The running work ends at once (its launches fail), the queued work is skipped.
        changed.wait(lock, [&] {
            for (const auto& [stream, target] : targets)
                if (stream->completed < target) return false;
            return true;
        });
        for (const auto& stream : waited) {
            stream->error = nullptr;
            stream->skipping = false;
        }
        return true;
    }

    void rethrow_error(SimStream& stream) {
        if (stream.error) {
            auto error = std::exchange(stream.error, nullptr);
            stream.skipping = false;
            std::rethrow_exception(error);
        }
    }
};

StreamScheduler::StreamScheduler() : state_(std::make_unique<State>()) {
    std::lock_guard lock(state_->mutex);
    state_->default_stream = state_->start(true, true);
}

StreamScheduler::~StreamScheduler() {
    std::vector<std::shared_ptr<SimStream>> all;
    {
        std::lock_guard lock(state_->mutex);
        all = std::exchange(state_->retired, {});
        for (auto& [raw, stream] : state_->streams) {
            stream->stopping = true;
            if (!stream->retired) all.push_back(stream);
        }
        state_->changed.notify_all();
    }
    for (auto& stream : all)
        if (stream->thread.joinable()) stream->thread.join();
}

void StreamScheduler::set_stopper(std::function<bool(const std::string&)> stop) {
    std::lock_guard lock(state_->mutex);
    state_->stop = std::move(stop);
}

SimStream* StreamScheduler::default_stream() { return state_->default_stream.get(); }

SimStream* StreamScheduler::create_stream(bool blocking) {
    std::lock_guard lock(state_->mutex);
    return state_->start(false, blocking).get();
}

void StreamScheduler::destroy_stream(SimStream* raw) {
    std::vector<std::shared_ptr<SimStream>> ended;
    {
        std::lock_guard lock(state_->mutex);
        auto it = state_->streams.find(raw);
        if (it == state_->streams.end() || it->second->retired) return;
        // The work already enqueued still runs; the thread ends after it and is joined later
        // (here at a later destroy_stream, or by the destructor).
        it->second->retired = true;
        it->second->stopping = true;
        state_->retired.push_back(it->second);
        state_->changed.notify_all();
        std::erase_if(state_->retired, [&](std::shared_ptr<SimStream>& stream) {
            if (!stream->ended) return false;
            ended.push_back(std::move(stream));
            return true;
        });
    }
    for (auto& stream : ended) stream->thread.join();  // it has left serve(): at once
}

void StreamScheduler::enqueue(SimStream* raw, std::function<void()> work) {
    std::lock_guard lock(state_->mutex);
    auto stream = state_->resolve(raw);
    stream->queue.push_back(state_->work(std::move(work), *stream));
    ++stream->enqueued;
    state_->changed.notify_all();
}

std::function<bool()> StreamScheduler::given_up_check() {
    const RunningWork work = running_work;
    if (!work.epoch) return {};
    return [work] { return work.epoch->load() != work.taken_in; };
}

void StreamScheduler::run_synchronously(const std::function<void()>& work) {
    {
        std::unique_lock lock(state_->mutex);
        auto after = state_->implicit_order(*state_->default_stream);
        after.push_back([stream = state_->default_stream, target = state_->default_stream->enqueued] {
            return stream->completed >= target;
        });
        state_->wait(
            lock,
            [&] {
                for (const auto& ready : after)
                    if (!ready()) return false;
                return true;
            },
            std::nullopt, {state_->default_stream}, "the earlier work on the default stream");
        state_->rethrow_error(*state_->default_stream);
    }
    work();
}

void StreamScheduler::after_queued_work(std::function<void()> action) {
    std::unique_lock lock(state_->mutex);
    PutOff entry;
    for (const auto& [raw, stream] : state_->streams)
        if (stream->enqueued > stream->completed) entry.targets.emplace_back(stream, stream->enqueued);
    if (entry.targets.empty()) {
        lock.unlock();
        action();
        return;
    }
    entry.action = std::move(action);
    state_->put_off.push_back(std::move(entry));
}

void StreamScheduler::finish_put_off_actions(const Deadline& deadline) {
    std::unique_lock lock(state_->mutex);
    // No stream is this wait's own: one that loses its work to a timeout reports it itself.
    state_->wait(
        lock, [&] { return state_->put_off.empty(); }, deadline, {}, "the work queued before memory was freed");
}

void StreamScheduler::synchronize(SimStream* raw, const Deadline& deadline) {
    std::unique_lock lock(state_->mutex);
    auto stream = state_->resolve(raw);
    const std::uint64_t target = stream->enqueued;
    state_->wait(
        lock, [&] { return stream->completed >= target; }, deadline, {stream}, "the stream's work");
    state_->rethrow_error(*stream);
}

bool StreamScheduler::query(SimStream* raw) {
    std::lock_guard lock(state_->mutex);
    auto stream = state_->resolve(raw);
    return stream->completed >= stream->enqueued;
}

void StreamScheduler::synchronize_all(const Deadline& deadline) {
    std::unique_lock lock(state_->mutex);
    std::vector<std::shared_ptr<SimStream>> all;
    std::vector<std::uint64_t> targets;
    for (auto& [raw, stream] : state_->streams) {
        all.push_back(stream);
        targets.push_back(stream->enqueued);
    }
    state_->wait(
        lock,
        [&] {
            for (std::size_t i = 0; i < all.size(); ++i)
                if (all[i]->completed < targets[i]) return false;
            return true;
        },
        deadline, all, "the device's work");
    for (auto& stream : all) state_->rethrow_error(*stream);
}

SimEvent* StreamScheduler::create_event(bool timing) {
    std::lock_guard lock(state_->mutex);
    auto event = std::make_shared<SimEvent>();
    event->timing = timing;
    SimEvent* raw = event.get();
    state_->events.emplace(raw, std::move(event));
    return raw;
}

void StreamScheduler::destroy_event(SimEvent* raw) {
    std::lock_guard lock(state_->mutex);
    state_->events.erase(raw);  // pending records keep their own reference
}

void StreamScheduler::record(SimEvent* raw, SimStream* raw_stream) {
    std::lock_guard lock(state_->mutex);
    auto event = state_->resolve(raw);
    auto stream = state_->resolve(raw_stream);
    const std::uint64_t generation = ++event->recorded;
    event->stream = stream;
    State* state = state_.get();
    // Completes even where the stream skips its work: nothing may wait for ever on an event.
    stream->queue.push_back(state_->work(
        [state, event, generation] {
            const auto now = Clock::now();
            std::lock_guard inner(state->mutex);
            event->when = now;
            if (event->completed < generation) event->completed = generation;
        },
        *stream, true));
    ++stream->enqueued;
    state_->changed.notify_all();
}

void StreamScheduler::synchronize(SimEvent* raw, const Deadline& deadline) {
    std::unique_lock lock(state_->mutex);
    auto event = state_->resolve(raw);
    const std::uint64_t target = event->recorded;
    std::vector<std::shared_ptr<SimStream>> waited;
    if (auto stream = event->stream.lock()) waited.push_back(std::move(stream));
    state_->wait(
        lock, [&] { return event->completed >= target; }, deadline, waited, "the event's work");
}

bool StreamScheduler::query(SimEvent* raw) {
    std::lock_guard lock(state_->mutex);
    auto event = state_->resolve(raw);
    return event->completed >= event->recorded;
}

void StreamScheduler::wait(SimStream* raw_stream, SimEvent* raw) {
    std::lock_guard lock(state_->mutex);
    auto stream = state_->resolve(raw_stream);
    auto event = state_->resolve(raw);
    const std::uint64_t generation = event->recorded;
    Work work = state_->work([] {}, *stream);
    work.after.push_back([event, generation] { return event->completed >= generation; });
    stream->queue.push_back(std::move(work));
    ++stream->enqueued;
    state_->changed.notify_all();
}

float StreamScheduler::elapsed_ms(SimEvent* raw_start, SimEvent* raw_end) {
    std::lock_guard lock(state_->mutex);
    auto start = state_->resolve(raw_start);
    auto end = state_->resolve(raw_end);
    if (start->completed < start->recorded || end->completed < end->recorded)
        throw InvalidArgumentError("Event::elapsed_ms: an event has not completed yet; synchronize it first");
    return std::chrono::duration<float, std::milli>(end->when - start->when).count();
}

}  // namespace gpukit::detail::sim
