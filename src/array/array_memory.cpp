// src/array/array_memory.cpp: owners wait for launches before their memory goes; deferred errors.
#include "gpukit/array_memory.hpp"

#include <mutex>
#include <utility>

#include "gpukit/current_stream.hpp"

namespace gpukit {

namespace {

std::atomic<DeviceWait> installed_wait{nullptr};

std::mutex deferred_mutex;
std::exception_ptr deferred_error;            // guarded by deferred_mutex
std::atomic<bool> has_deferred_error{false};  // lets the common case skip the lock

}  // namespace

void set_device_wait(DeviceWait wait) noexcept { installed_wait.store(wait); }

void wait_for_device_quietly(const Device& device) noexcept {
    try {
        if (const DeviceWait wait = installed_wait.load())
            wait(device);
        else
            device.synchronize();
    } catch (...) {
        // The resource goes all the same; the error reaches the user at the next synchronisation.
        defer_launch_error(std::current_exception());
    }
}

void ArrayMemory::mark_used_by_launch() noexcept {
    used_by_launch_.store(true, std::memory_order_relaxed);
    used_out_of_order_.store(true, std::memory_order_relaxed);
    // Most work that does not say its stream runs on the current one: order that one at least.
    try {
        prepare_use_on(current_stream(device_));
    } catch (...) {
        // No current stream to be had: the work's own ordering is all there is.
    }
}

void ArrayMemory::mark_used_by_launch(const StreamRef& stream) noexcept {
    used_by_launch_.store(true, std::memory_order_relaxed);
    if (!takes_in_order(stream)) used_out_of_order_.store(true, std::memory_order_relaxed);
}

void ArrayMemory::wait_for_launches() noexcept {
    if (used_by_launch()) wait_for_device_quietly(device_);
}

void defer_launch_error(std::exception_ptr error) noexcept {
    const std::lock_guard lock(deferred_mutex);
    if (!deferred_error) deferred_error = std::move(error);
    has_deferred_error.store(true);
}

void raise_deferred_launch_error() {
    if (!has_deferred_error.load()) return;
    std::exception_ptr error;
    {
        const std::lock_guard lock(deferred_mutex);
        error = std::exchange(deferred_error, nullptr);
        has_deferred_error.store(false);
    }
    if (error) std::rethrow_exception(error);
}

}  // namespace gpukit
