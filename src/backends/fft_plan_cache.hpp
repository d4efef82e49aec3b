// src/backends/fft_plan_cache.hpp: the plans an FFT library made lately, reused by key.
//
// Making a plan costs far more than running a small transform (cuFFT picks kernels and may
// allocate a work area), and programs repeat the same shapes: the last `capacity` plans stay,
// the least recently used goes first. A plan in use when it is dropped lives on with its users
// (shared ownership), so work still queued on it is safe.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <utility>

#include "backends/fft_library.hpp"

namespace gpukit::detail {

template <class Plan>
class FftPlanCache {
public:
    explicit FftPlanCache(std::size_t capacity = 16) : capacity_(capacity) {}

    // The plan for `key`, made by make() when it is not cached. Thread safe; make() runs under
    // the cache's lock, so two threads never make the same plan twice.
    template <class Make>
    std::shared_ptr<Plan> get(const FftPlanKey& key, Make&& make) {
        std::lock_guard lock(mutex_);
        for (auto it = entries_.begin(); it != entries_.end(); ++it) {
            if (it->first == key) {
                entries_.splice(entries_.begin(), entries_, it);  // most recently used first
                return entries_.front().second;
            }
        }
        std::shared_ptr<Plan> plan = make();
        entries_.emplace_front(key, plan);
        if (entries_.size() > capacity_) entries_.pop_back();
        return plan;
    }

    std::size_t size() const {
        std::lock_guard lock(mutex_);
        return entries_.size();
    }
    void clear() {
        std::lock_guard lock(mutex_);
        entries_.clear();
    }

private:
    std::size_t capacity_;
    mutable std::mutex mutex_;
    std::list<std::pair<FftPlanKey, std::shared_ptr<Plan>>> entries_;
};

}  // namespace gpukit::detail
