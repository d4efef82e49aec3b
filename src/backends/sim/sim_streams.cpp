// src/backends/sim/sim_streams.cpp: streams and events of the simulated device.
#include "backends/sim/sim_streams.hpp"

#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "gpukit/error.hpp"

namespace gpukit::detail::sim {

using Clock = std::chrono::steady_clock;

namespace {

// A condition checked under the scheduler's lock before a piece of work may start.
using Ready = std::function<bool()>;

struct Work {
    std::function<void()> run;
    std::vector<Ready> after;
};

}  // namespace

class SimStream {
public:
    bool is_default = false;
    bool blocking = true;
    std::deque<Work> queue;
    std::uint64_t enqueued = 0;
    std::uint64_t completed = 0;
    std::exception_ptr error;
    bool stopping = false;
    std::thread thread;
};

struct SimEvent {
    bool timing = true;
    std::uint64_t recorded = 0;   // records asked for
    std::uint64_t completed = 0;  // records that have happened
    Clock::time_point when{};
};

struct StreamScheduler::State {
    std::mutex mutex;
    std::condition_variable changed;
    std::map<SimStream*, std::shared_ptr<SimStream>> streams;
    std::map<SimEvent*, std::shared_ptr<SimEvent>> events;
    std::shared_ptr<SimStream> default_stream;

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
            if (stream.queue.empty()) return;  // stopping
            Work work = std::move(stream.queue.front());
            stream.queue.pop_front();
            lock.unlock();
            std::exception_ptr failure;
            try {
                work.run();
            } catch (...) {
                failure = std::current_exception();
            }
            lock.lock();
            if (failure && !stream.error) stream.error = failure;
            ++stream.completed;
            changed.notify_all();
        }
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
        if (it == streams.end()) throw UsageError("The simulator has no such stream (it was destroyed)");
        return it->second;
    }

    std::shared_ptr<SimEvent> resolve(SimEvent* event) {
        auto it = events.find(event);
        if (it == events.end()) throw UsageError("The simulator has no such event (it was destroyed)");
        return it->second;
    }

    void wait_idle(std::unique_lock<std::mutex>& lock, SimStream& stream) {
        const std::uint64_t target = stream.enqueued;
        changed.wait(lock, [&] { return stream.completed >= target; });
    }

    void rethrow_error(SimStream& stream) {
        if (stream.error) {
            auto error = std::exchange(stream.error, nullptr);
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
        for (auto& [raw, stream] : state_->streams) {
            stream->stopping = true;
            all.push_back(stream);
        }
        state_->changed.notify_all();
    }
    for (auto& stream : all)
        if (stream->thread.joinable()) stream->thread.join();
}

SimStream* StreamScheduler::default_stream() { return state_->default_stream.get(); }

SimStream* StreamScheduler::create_stream(bool blocking) {
    std::lock_guard lock(state_->mutex);
    return state_->start(false, blocking).get();
}

void StreamScheduler::destroy_stream(SimStream* raw) {
    std::shared_ptr<SimStream> stream;
    {
        std::unique_lock lock(state_->mutex);
        auto it = state_->streams.find(raw);
        if (it == state_->streams.end()) return;
        stream = it->second;
        state_->wait_idle(lock, *stream);  // the work already enqueued still runs
        stream->stopping = true;
        state_->streams.erase(it);
        state_->changed.notify_all();
    }
    stream->thread.join();
}

void StreamScheduler::enqueue(SimStream* raw, std::function<void()> work) {
    std::lock_guard lock(state_->mutex);
    auto stream = state_->resolve(raw);
    stream->queue.push_back({std::move(work), state_->implicit_order(*stream)});
    ++stream->enqueued;
    state_->changed.notify_all();
}

void StreamScheduler::run_synchronously(const std::function<void()>& work) {
    {
        std::unique_lock lock(state_->mutex);
        auto after = state_->implicit_order(*state_->default_stream);
        after.push_back([stream = state_->default_stream, target = state_->default_stream->enqueued] {
            return stream->completed >= target;
        });
        state_->changed.wait(lock, [&] {
            for (const auto& ready : after)
                if (!ready()) return false;
            return true;
        });
        state_->rethrow_error(*state_->default_stream);
    }
    work();
}

void StreamScheduler::synchronize(SimStream* raw) {
    std::unique_lock lock(state_->mutex);
    auto stream = state_->resolve(raw);
    state_->wait_idle(lock, *stream);
    state_->rethrow_error(*stream);
}

bool StreamScheduler::query(SimStream* raw) {
    std::lock_guard lock(state_->mutex);
    auto stream = state_->resolve(raw);
    return stream->completed >= stream->enqueued;
}

void StreamScheduler::synchronize_all() {
    std::unique_lock lock(state_->mutex);
    std::vector<std::shared_ptr<SimStream>> all;
    for (auto& [raw, stream] : state_->streams) all.push_back(stream);
    for (auto& stream : all) state_->wait_idle(lock, *stream);
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
    State* state = state_.get();
    stream->queue.push_back({[state, event, generation] {
                                 const auto now = Clock::now();
                                 std::lock_guard inner(state->mutex);
                                 event->when = now;
                                 if (event->completed < generation) event->completed = generation;
                             },
                             state_->implicit_order(*stream)});
    ++stream->enqueued;
    state_->changed.notify_all();
}

void StreamScheduler::synchronize(SimEvent* raw) {
    std::unique_lock lock(state_->mutex);
    auto event = state_->resolve(raw);
    const std::uint64_t target = event->recorded;
    state_->changed.wait(lock, [&] { return event->completed >= target; });
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
    auto after = state_->implicit_order(*stream);
    after.push_back([event, generation] { return event->completed >= generation; });
    stream->queue.push_back({[] {}, std::move(after)});
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
