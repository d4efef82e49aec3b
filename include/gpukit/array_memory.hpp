// gpukit/array_memory.hpp: the memory behind arrays, shared by every view of it.
//
// An Array holds its memory by shared_ptr, so views keep it alive. ArrayMemory is the owner: a
// gpukit allocation (AllocatedMemory), a module's __device__ or __constant__ variable
// (ModuleGlobalMemory), or another library's memory (the Python bindings' imported DLPack tensors
// and CUDA Array Interface objects derive their own).
//
// Memory a kernel launch was given may still be in use when the last array lets go of it. The
// simulator frees memory at once, and other libraries' caching allocators hand freed memory to
// their next user without waiting for gpukit's streams; so an owner whose memory went to a launch
// waits for the device before the memory goes. (On CUDA, freeing waits anyway: it costs nothing
// there.) A launch's error that surfaces during that wait (a sticky CUDA error, a check-mode
// HazardError) cannot leave a destructor: it is deferred, and the next synchronising call raises
// it, as it would have had the memory not been freed first.
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>

#include "gpukit/device.hpp"
#include "gpukit/memory.hpp"
#include "gpukit/module.hpp"

namespace gpukit {

class ArrayMemory {
public:
    virtual ~ArrayMemory() = default;
    ArrayMemory(const ArrayMemory&) = delete;
    ArrayMemory& operator=(const ArrayMemory&) = delete;

    const Device& device() const noexcept { return device_; }
    // The allocation, when gpukit made one for this memory; null for memory someone else owns.
    virtual const DeviceBuffer* allocation() const noexcept { return nullptr; }

    // A launch was given this memory: wait for the device before it goes. Kernel launches mark
    // the memory of every array they are passed, and so do an array's copies and fills that are
    // still running on a stream when they return.
    void mark_used_by_launch() noexcept { used_by_launch_.store(true, std::memory_order_relaxed); }
    bool used_by_launch() const noexcept { return used_by_launch_.load(std::memory_order_relaxed); }

protected:
    explicit ArrayMemory(Device device) noexcept : device_(device) {}
    // Every derived destructor calls this before its memory goes. Never throws: an error the wait
    // raises is deferred (see raise_deferred_launch_error).
    void wait_for_launches() noexcept;

private:
    Device device_;
    std::atomic<bool> used_by_launch_{false};
};

// A new allocation on a device, freed with the last array viewing it.
class AllocatedMemory final : public ArrayMemory {
public:
    AllocatedMemory(Device device, std::size_t size_bytes) : ArrayMemory(device), buffer_(device, size_bytes) {}
    ~AllocatedMemory() override { wait_for_launches(); }

    const DeviceBuffer* allocation() const noexcept override { return &buffer_; }

private:
    DeviceBuffer buffer_;
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
