// gpukit/array_memory.hpp: the memory behind arrays, shared by every view of it.
//
// An Array holds its memory by shared_ptr, so views keep it alive. ArrayMemory is the owner: a
// block of the device's memory pool (gpukit/memory_pool.hpp), a module's __device__ or
// __constant__ variable (ModuleGlobalMemory), or another library's memory (the Python bindings'
// imported DLPack tensors and CUDA Array Interface objects derive their own).
//
// Memory a kernel launch was given may still be in use when the last array lets go of it. The
// simulator frees memory at once, and other libraries' caching allocators hand freed memory to
// their next user without waiting for gpukit's streams; so an owner whose memory went to a launch
// waits for the device before the memory goes. (On CUDA, freeing waits anyway: it costs nothing
// there.) A launch's error that surfaces during that wait (a sticky CUDA error, a check-mode
// HazardError) cannot leave a destructor: it is deferred, and the next synchronising call raises
// it, as it would have had the memory not been freed first. A pool block needs no such wait when
// every launch that used it ran on the stream it was allocated on: the pool hands it out again in
// that stream's order (gpukit/memory_pool.hpp); so launches say which stream they run on.
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>

#include "gpukit/device.hpp"
#include "gpukit/memory.hpp"
#include "gpukit/module.hpp"
#include "gpukit/stream.hpp"

namespace gpukit {

class ArrayMemory {
public:
    virtual ~ArrayMemory() = default;
    ArrayMemory(const ArrayMemory&) = delete;
    ArrayMemory& operator=(const ArrayMemory&) = delete;

    const Device& device() const noexcept { return device_; }
    // The bytes gpukit allocated for this memory (as many as were asked for), when it did; null
    // for memory someone else owns. Two owners never share an allocation.
    virtual const BufferView* allocation() const noexcept { return nullptr; }

    // A launch was given this memory: it must outlive the work. Kernel launches mark the memory
    // of every array they are passed, and so do an array's copies and fills that are still
    // running on a stream when they return. Say the stream the work runs on where it is known:
    // work on an unnamed stream makes the owner wait for the whole device before the memory goes.
    void mark_used_by_launch() noexcept;
    void mark_used_by_launch(const StreamRef& stream) noexcept;
    bool used_by_launch() const noexcept { return used_by_launch_.load(std::memory_order_relaxed); }
    // Work that returns done (a synchronous transfer) is about to use the memory on `stream`:
    // where the memory came in another stream's order (a pool block), `stream` waits for it first.
    void prepare_use_on(const StreamRef& stream) noexcept { static_cast<void>(takes_in_order(stream)); }

protected:
    explicit ArrayMemory(Device device) noexcept : device_(device) {}
    // Every derived destructor calls this before its memory goes. Never throws: an error the wait
    // raises is deferred (see raise_deferred_launch_error).
    void wait_for_launches() noexcept;
    // Whether a launch used the memory on a stream that takes_in_order() did not accept, or on one
    // it was not told.
    bool used_out_of_order() const noexcept { return used_out_of_order_.load(std::memory_order_relaxed); }
    // Whether work on `stream` is ordered after everything that used this memory before it: true
    // for a pool block's own stream. The default: false. Called before the work is enqueued, so
    // an owner may also order `stream` after earlier work here (a pool block does).
    virtual bool takes_in_order(const StreamRef& stream) noexcept {
        static_cast<void>(stream);
        return false;
    }

private:
    Device device_;
    std::atomic<bool> used_by_launch_{false};
    std::atomic<bool> used_out_of_order_{false};
};

// A module's __device__ or __constant__ variable; keeps the module loaded.
class ModuleGlobalMemory final : public ArrayMemory {
public:
    explicit ModuleGlobalMemory(Module module) : ArrayMemory(module.device()), module_(std::move(module)) {}
    ~ModuleGlobalMemory() override { wait_for_launches(); }

private:
    Module module_;
};

// How owners wait for the device before their memory goes. The default is Device::synchronize.
// An embedding that holds a lock other threads need while objects die (Python's GIL) installs a
// wait that lets go of it meanwhile. The wait may throw; the owner defers what it throws.
using DeviceWait = void (*)(const Device& device);
void set_device_wait(DeviceWait wait) noexcept;
// Waits for `device` with the installed wait, deferring what it throws: for owners whose
// resource a launch may still use as they go (array memory; a module's code).
void wait_for_device_quietly(const Device& device) noexcept;

// Keeps `error` (the first one, if several) for the next raise_deferred_launch_error. Process-wide.
void defer_launch_error(std::exception_ptr error) noexcept;
// Rethrows the deferred launch error, if any, once. Array calls that wait for the device call it
// first, and so does every synchronising call of the Python bindings.
void raise_deferred_launch_error();

}  // namespace gpukit
