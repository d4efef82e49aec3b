// src/backends/sim/device_memory.hpp: the simulated device's memory.
//
// One shared-memory file (a memfd), sparse, as large as the machine's memory, mapped MAP_SHARED at
// one address in this process and, at the same address, in the device process that runs the
// kernels (device_process.hpp): a device pointer means the same in both, the host reads device
// memory without a copy (NumPy views of gpukit arrays), and a kernel's wild write lands in the
// device process, never in this one. Pinned memory lives here too, so that kernels may read it as
// they can on a GPU. The mapping sits high in the address space, where a freshly started process
// has nothing, so that the device process can map it at the same address.
//
// The allocator is best fit by size over address-ordered free ranges, 256-byte aligned like
// cudaMalloc, with an untouched red zone after each allocation (an eighth of it); freed ranges of 128 KiB and more give
// their pages back to the system (as malloc's large blocks do). After fork(), the child keeps a private copy-on-write
// view of the memory, so that nothing it writes reaches the parent's device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace gpukit::detail::sim {

class DeviceMemory {
public:
    // Reserves address space for `capacity` bytes of allocations (and their red zones) backed by
    // a new memfd. Throws
    // BackendUnavailableError when the system refuses.
    explicit DeviceMemory(std::size_t capacity);
    ~DeviceMemory();
    DeviceMemory(const DeviceMemory&) = delete;
    DeviceMemory& operator=(const DeviceMemory&) = delete;

    std::uint64_t base() const noexcept { return base_; }
    std::size_t capacity() const noexcept { return capacity_; }
    int fd() const noexcept { return fd_; }  // close-on-exec; the device process gets a copy
    bool contains(std::uint64_t address, std::size_t bytes) const noexcept {
        return address >= base_ && bytes <= capacity_ && address - base_ <= capacity_ - bytes;
    }

    // The address of `bytes` (> 0) new bytes aligned to `alignment` (a power of two up to the page
    // size), or nullopt when no free range holds them.
    std::optional<std::uint64_t> allocate(std::size_t bytes, std::size_t alignment = 256);
    // Frees an address allocate() returned; returns the bytes it held (0 for an unknown address).
    std::size_t release(std::uint64_t address) noexcept;
    // Every live allocation: (address, bytes asked for).
    std::vector<std::pair<std::uint64_t, std::size_t>> live() const;

private:
    void take(std::uint64_t begin, std::uint64_t end);  // removes [begin, end) from the free ranges
    void give(std::uint64_t begin, std::uint64_t end);  // adds it back, merged with its neighbours
    void erase_free(std::map<std::uint64_t, std::uint64_t>::iterator range);

    int fd_ = -1;
    std::uint64_t base_ = 0;
    std::size_t capacity_ = 0;
    mutable std::mutex mutex_;
    std::map<std::uint64_t, std::uint64_t> free_;                               // begin -> end, by address (offsets)
    std::multimap<std::uint64_t, std::uint64_t> by_size_;                       // size -> begin
    std::map<std::uint64_t, std::pair<std::uint64_t, std::size_t>> allocated_;  // offset -> (end, asked)
};

}  // namespace gpukit::detail::sim
