// python/src/memory_owner.hpp: the objects that own the memory behind gpukit.ndarray.
//
// A Python ndarray keeps a reference to one of these (its `_owner`) plus its own address, shape and
// strides, so views share memory and the memory lives as long as any view. DeviceMemory owns an
// allocation; ImportedMemory (dlpack.cpp) holds another library's memory through its DLPack
// capsule or its array object.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <exception>

#include "gpukit/memory.hpp"

namespace gpukit::python {

// Memory a kernel launch may still be using. The simulator frees memory at once, and caching
// allocators (PyTorch's, CuPy's) hand freed memory to the next user without waiting for our
// streams, so before letting go of memory that a launch was given, the owner waits for the device.
// (On CUDA cuMemFree waits anyway, so this costs nothing extra there.)
class MemoryOwner {
public:
    explicit MemoryOwner(Device device) : device_(device) {}
    virtual ~MemoryOwner() = default;
    MemoryOwner(const MemoryOwner&) = delete;
    MemoryOwner& operator=(const MemoryOwner&) = delete;

    const Device& device() const noexcept { return device_; }
    void mark_used_by_launch() noexcept { used_by_launch_ = true; }

protected:
    // Called by the derived destructor before the memory goes. Never throws.
    void wait_for_launches() noexcept;

private:
    Device device_;
    bool used_by_launch_ = false;
};

// A launch's error (a sticky CUDA error, a check-mode HazardError) that surfaced while an owner
// waited in its destructor, which cannot raise. The next synchronising call raises it instead, as
// it would have had the memory not been freed first. Both run with the GIL held.
void defer_launch_error(std::exception_ptr error) noexcept;
// Raises the deferred error, if any, once. Every binding that synchronises calls it first.
void raise_deferred_launch_error();

class DeviceMemory : public MemoryOwner {
public:
    DeviceMemory(Device device, std::size_t size_bytes) : MemoryOwner(device), buffer_(device, size_bytes) {}
    ~DeviceMemory() override { wait_for_launches(); }

    std::uint64_t address() const { return buffer_.address(); }
    std::size_t size_bytes() const { return buffer_.size_bytes(); }

private:
    DeviceBuffer buffer_;
};

// Page-locked host memory behind gpukit.pinned_empty's NumPy arrays.
class PinnedMemory {
public:
    PinnedMemory(Device device, std::size_t size_bytes) : buffer_(device, size_bytes) {}

    std::uintptr_t address() const { return reinterpret_cast<std::uintptr_t>(buffer_.data()); }
    std::size_t size_bytes() const noexcept { return buffer_.size_bytes(); }

private:
    PinnedBuffer buffer_;
};

}  // namespace gpukit::python
