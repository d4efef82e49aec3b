// src/backends/cuda/device_waiter.cpp: CUDA's waits made interruptible and timed.
#include "backends/cuda/device_waiter.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>

#include "gpukit/device.hpp"
#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit::detail::cuda {

namespace {

using Clock = std::chrono::steady_clock;

// How long the caller looks for the thread's answer before it sleeps: short waits keep the
// latency of CUDA's own spinning wait.
constexpr auto poll_window = std::chrono::milliseconds(2);
// How long the thread stays awake for the next wait after one: a loop of launches and waits
// then hands each wait over without waking a sleeping thread.
constexpr auto stay_awake = std::chrono::microseconds(200);
// How often a sleeping caller looks at the deadline and the interrupt check.
constexpr auto wait_slice = std::chrono::milliseconds(50);

}  // namespace

struct DeviceWaiter::Shared {
    struct Job {
        std::function<CUresult()> blocking;
        CUresult result = CUDA_SUCCESS;
        std::atomic<bool> done{false};  // set after `result`, under the mutex
    };

    const DriverApi* api = nullptr;
    CUcontext context = nullptr;
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<std::shared_ptr<Job>> jobs;  // not yet taken by a thread
    std::atomic<std::uint64_t> submitted{0};
    int idle = 0;      // threads without a job: awake for a moment, then sleeping
    int sleeping = 0;  // of those, the ones waiting on `changed`
    bool closing = false;

    // One thread: runs the blocking call of each job it takes and posts its result. Each wait has
    // a thread of its own, so that one for an endless kernel holds up no other.
    void run() {
        api->cuCtxSetCurrent(context);
        std::unique_lock lock(mutex);
        for (;;) {
            if (jobs.empty()) {
                if (closing) return;
                ++idle;
                const std::uint64_t seen = submitted.load();
                lock.unlock();
                for (const auto until = Clock::now() + stay_awake; submitted.load() == seen && Clock::now() < until;)
                    std::this_thread::yield();
                lock.lock();
                if (jobs.empty() && !closing) {
                    ++sleeping;
                    changed.wait(lock, [&] { return closing || !jobs.empty(); });
                    --sleeping;
                }
                --idle;
                continue;
            }
            const std::shared_ptr<Job> job = jobs.front();
            jobs.pop_front();
            lock.unlock();
            const CUresult result = job->blocking();
            lock.lock();
            job->result = result;
            job->done.store(true, std::memory_order_release);
            changed.notify_all();
        }
    }
};

DeviceWaiter::DeviceWaiter(const DriverApi& api, CUcontext context) : shared_(std::make_shared<Shared>()) {
    shared_->api = &api;
    shared_->context = context;
}

DeviceWaiter::~DeviceWaiter() {
    const std::lock_guard lock(shared_->mutex);
    shared_->closing = true;
    shared_->changed.notify_all();
}

bool DeviceWaiter::needed(const Deadline& deadline) noexcept {
    return deadline.has_value() || wait_interrupt_check() != nullptr;
}

CUresult DeviceWaiter::wait(const std::function<CUresult()>& blocking, const std::function<CUresult()>& query,
                            const Deadline& deadline, const std::string& what) {
    const auto past_deadline = [&](Clock::time_point now) {
        if (deadline && now >= deadline->deadline)
            throw WaitTimeoutError(concat("Waiting for ", what, " timed out after ", deadline->seconds,
                                          " s; the GPU goes on running it (CUDA cannot stop a running kernel)"),
                                   deadline->seconds);
    };
    if (query) {  // work already done needs no thread
        const CUresult status = query();
        if (status != CUDA_ERROR_NOT_READY) return status == CUDA_SUCCESS ? blocking() : status;
    }

    Shared& shared = *shared_;
    auto job = std::make_shared<Shared::Job>();
    job->blocking = blocking;
    std::unique_lock lock(shared.mutex);
    shared.jobs.push_back(job);
    ++shared.submitted;
    if (static_cast<int>(shared.jobs.size()) > shared.idle) {
        // Detached: a wait for an endless kernel never returns, and the process must still end.
        std::thread([keep = shared_] { keep->run(); }).detach();
    } else if (shared.sleeping > 0) {
        shared.changed.notify_all();
    }
    lock.unlock();
    for (const auto until = Clock::now() + poll_window;;) {
        if (job->done.load(std::memory_order_acquire)) return job->result;
        const auto now = Clock::now();
        past_deadline(now);
        if (now >= until) break;
        std::this_thread::yield();
    }
    lock.lock();
    for (;;) {
        auto until = Clock::now() + wait_slice;
        if (deadline && deadline->deadline < until) until = deadline->deadline;
        shared.changed.wait_until(lock, until, [&] { return job->done.load(); });
        if (job->done) return job->result;
        past_deadline(Clock::now());
        if (const WaitInterruptCheck check = wait_interrupt_check()) {
            lock.unlock();
            const bool interrupted = check();
            lock.lock();
            if (job->done) return job->result;
            if (interrupted)
                throw WaitInterruptedError(concat("Waiting for ", what,
                                                  " was interrupted; the GPU goes on running it (CUDA cannot stop a "
                                                  "running kernel)"));
        }
    }
}

}  // namespace gpukit::detail::cuda
