// src/backends/sim/worker_pool.hpp: the OS threads that run the blocks of every launch.
//
// One thread per core (GPUKIT_SIM_THREADS overrides). A block runs from start to end on one
// worker, so its fibers never change OS thread (their thread-local shared memory stays theirs).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

namespace gpukit::detail::sim {

class WorkerPool {
public:
    static WorkerPool& instance();
    unsigned size() const noexcept;
    // The threads instance() starts (or started), without starting them.
    static unsigned configured_size();

    // Calls run_one(i) for every i in [0, count) on the workers and waits for all of them; a
    // count of 1 runs on the calling thread instead (no worker to wake, no wake-up to wait for).
    // The first exception a block throws is rethrown here; the blocks not yet started are skipped.
    // `finished`, when given, counts the calls that returned (how far a long launch got).
    void run(std::uint64_t count, const std::function<void(std::uint64_t)>& run_one,
             std::atomic<std::uint64_t>* finished = nullptr);

    struct Impl;

private:
    WorkerPool();
    Impl* impl_;
};

}  // namespace gpukit::detail::sim
