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
//
// Guard pages (with guard_pages(true), which the device process asks for): in the device process
// every page that no live allocation's bytes touch is inaccessible, so a kernel's access that
// leaves every allocation faults there (an illegal address, as on a GPU) instead of changing
// memory silently. This process's own mapping stays readable and writable (the host reads device
// memory through it). The allocator keeps the record of which pages are accessible (a page two
// allocations share stays so while either lives) and of what changed since the device process
// last heard: a request that runs code there takes the changes along (device_process.hpp), so an
// allocation costs no round trip. An allocation of a page or more ends on a page boundary and is
// followed by at least one whole page that no allocation touches: an access just past such an
// array whose size is a multiple of 256 bytes faults, as under cuda-memcheck. What stays silent, as on a
// GPU: an access past the end that stays within the allocation's last page (at most its rounding
// to 256 bytes for allocations of a page or more; for smaller ones, which share pages, up to the
// end of the page, which may hold a neighbour).

#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
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

    // ---- guard pages (see above)

    // Starts (or stops and forgets) the record of accessible pages.
    void guard_pages(bool on);
    struct ProtectionChange {
        std::uint64_t address;  // page-aligned
        std::uint64_t bytes;    // whole pages
        bool accessible;
    };
    // At most `most` changes since the last call, in address order; the rest stay for the next call.
    std::vector<ProtectionChange> take_protection_changes(std::size_t most);
    bool protection_changes_left() const;
    // A new device process, where no page is accessible: the next changes taken open every page
    // that live allocations touch.
    void resend_protection();
    // What an address that faulted is, for the report: "in no allocation: 8 bytes after the end of
    // the allocation at 0x... of 4096 bytes" (an allocation within 1 MiB), "in no allocation".
    std::string describe(std::uint64_t address) const;

private:
    void take(std::uint64_t begin, std::uint64_t end);  // removes [begin, end) from the free ranges
    void give(std::uint64_t begin, std::uint64_t end);  // adds it back, merged with its neighbours
    void erase_free(std::map<std::uint64_t, std::uint64_t>::iterator range);
    // The pages of the bytes [begin, end) of an allocation become accessible (close: inaccessible
    // where no other allocation touches them).
    void open_pages(std::uint64_t begin, std::uint64_t end);
    void close_pages(std::uint64_t begin, std::uint64_t end);
    void flip(std::uint64_t begin, std::uint64_t end, bool accessible);
    void toggle_unsent(std::uint64_t edge);

    int fd_ = -1;
    std::uint64_t base_ = 0;
    std::size_t capacity_ = 0;
    mutable std::mutex mutex_;
    std::map<std::uint64_t, std::uint64_t> free_;                               // begin -> end, by address (offsets)
    std::multimap<std::uint64_t, std::uint64_t> by_size_;                       // size -> begin
    std::map<std::uint64_t, std::pair<std::uint64_t, std::size_t>> allocated_;  // offset -> (end, asked)
    std::uint64_t page_ = 0;
    bool guarding_ = false;
    // Pages at either end of a live allocation's bytes -> how many live allocations touch them (a
    // page inside an allocation's bytes is only its own).
    std::map<std::uint64_t, std::uint32_t> end_page_users_;
    std::map<std::uint64_t, std::uint64_t> accessible_;  // begin -> end, pages, merged (offsets)
    // The edges of the page ranges whose accessibility changed since the device process last took
    // them: a range changed twice (freed, then allocated again) has not changed.
    std::set<std::uint64_t> unsent_;
};

}  // namespace gpukit::detail::sim
