// src/backends/sim/worker_pool.cpp: the OS threads that run the blocks of every launch.
#include "backends/sim/worker_pool.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "backends/sim/crash_report.hpp"

namespace gpukit::detail::sim {

namespace {

struct Job {
    std::uint64_t count;
    const std::function<void(std::uint64_t)>* run_one;
    std::atomic<std::uint64_t>* progress;  // blocks that returned, for the caller; may be null
    std::atomic<std::uint64_t> next{0};
    std::atomic<std::uint64_t> finished{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;  // guarded by the pool's mutex
};

unsigned configured_threads() {
    if (const char* value = std::getenv("GPUKIT_SIM_THREADS"); value && *value) {
        const long n = std::strtol(value, nullptr, 10);
        if (n >= 1 && n <= 4096) return static_cast<unsigned>(n);
    }
    const unsigned cores = std::thread::hardware_concurrency();
    return cores ? cores : 1;
}

}  // namespace

struct WorkerPool::Impl {
    std::mutex mutex;
    std::condition_variable work_ready;
    std::condition_variable job_done;
    std::deque<std::shared_ptr<Job>> jobs;  // launches with blocks left to start
    std::vector<std::thread> threads;

    void work() {
        install_crash_stack();
        for (;;) {
            std::shared_ptr<Job> job;
            {
                std::unique_lock lock(mutex);
                work_ready.wait(lock, [&] { return !jobs.empty(); });
                job = jobs.front();
            }
            for (;;) {
                const std::uint64_t index = job->next.fetch_add(1, std::memory_order_relaxed);
                if (index >= job->count) {
                    std::lock_guard lock(mutex);
                    if (!jobs.empty() && jobs.front() == job) jobs.pop_front();
                    break;
                }
                if (!job->failed.load(std::memory_order_relaxed)) {
                    try {
                        (*job->run_one)(index);
                        if (job->progress) job->progress->fetch_add(1, std::memory_order_relaxed);
                    } catch (...) {
                        std::lock_guard lock(mutex);
                        if (!job->error) job->error = std::current_exception();
                        job->failed.store(true, std::memory_order_relaxed);
                    }
                }
                if (job->finished.fetch_add(1, std::memory_order_acq_rel) + 1 == job->count) {
                    std::lock_guard lock(mutex);
                    job_done.notify_all();
                }
            }
        }
    }
};

WorkerPool::WorkerPool() : impl_(new Impl) {
    const unsigned n = configured_threads();
    for (unsigned i = 0; i < n; ++i) {
        impl_->threads.emplace_back([impl = impl_] { impl->work(); });
        impl_->threads.back().detach();  // workers live as long as the process
    }
}

WorkerPool& WorkerPool::instance() {
    static WorkerPool* pool = new WorkerPool;  // never destroyed: detached workers use it to the end
    return *pool;
}

unsigned WorkerPool::configured_size() { return configured_threads(); }

unsigned WorkerPool::size() const noexcept { return static_cast<unsigned>(impl_->threads.size()); }

void WorkerPool::run(std::uint64_t count, const std::function<void(std::uint64_t)>& run_one,
                     std::atomic<std::uint64_t>* finished) {
    if (count == 0) return;
    if (count == 1) {
        // One block runs here: waking a worker for it and waiting to be woken again cost more
        // than a small block (a tiny launch took 30 us that way, 10 us here). Blocks keep what is
        // theirs in thread-locals, so any thread can run one.
        install_crash_stack();
        run_one(0);
        if (finished) finished->fetch_add(1, std::memory_order_relaxed);
        return;
    }
    auto job = std::make_shared<Job>();
    job->count = count;
    job->run_one = &run_one;
    job->progress = finished;
    std::unique_lock lock(impl_->mutex);
    impl_->jobs.push_back(job);
    impl_->work_ready.notify_all();
    impl_->job_done.wait(lock, [&] { return job->finished.load(std::memory_order_acquire) == count; });
    if (job->error) std::rethrow_exception(job->error);
}

}  // namespace gpukit::detail::sim
