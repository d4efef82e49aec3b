// src/backends/sim/device_memory.cpp: the simulated device's memory.
#include "backends/sim/device_memory.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit::detail::sim {

namespace {

constexpr std::uint64_t give_back_bytes = std::uint64_t{128} * 1024;

// Where a freshly started process has nothing mapped (on x86-64 and on 48-bit arm64 the program
// sits near 0x55..., libraries and stacks near 0x7f...): the device process can map the same
// range. Where the address space is smaller, the system picks, and the device process tries there.
constexpr std::uint64_t preferred_bases[] = {0x200000000000, 0x300000000000, 0x100000000000, 0x400000000000};

// The mapping a forked child must stop sharing (there is one device memory per process).
std::atomic<DeviceMemory*> the_memory{nullptr};

void after_fork_in_child() {
    DeviceMemory* memory = the_memory.load();
    if (!memory) return;
    // Copy-on-write from here on: the child reads the device memory as it was, its writes stay its own.
    void* base = reinterpret_cast<void*>(memory->base());
    if (mmap(base, memory->capacity(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED | MAP_NORESERVE, memory->fd(),
             0) == MAP_FAILED)
        munmap(base, memory->capacity());  // no view at all rather than one that writes the parent's device
}

std::uint64_t round_up(std::uint64_t value, std::uint64_t to) { return (value + to - 1) / to * to; }

// The unused bytes after each allocation (an eighth of it, 256 B to 16 MiB): a read or write a
// little past the end lands in no other allocation, so check mode reports it against this one
// and a plain run does not silently change a neighbour. Address space only: never touched.
std::uint64_t red_zone(std::uint64_t bytes) {
    return std::clamp<std::uint64_t>(round_up(bytes / 8, 256), 256, std::uint64_t{16} << 20);
}

}  // namespace

DeviceMemory::DeviceMemory(std::size_t capacity) {
    const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    // Room for the red zones too (address space of a sparse file: it costs nothing until used).
    capacity_ = static_cast<std::size_t>(round_up(capacity + capacity / 4 + (std::uint64_t{64} << 20), page));
    fd_ = memfd_create("gpukit-sim-device-memory", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd_ < 0)
        throw BackendUnavailableError(
            concat("The simulator cannot create its device memory (memfd_create: ", std::strerror(errno), ")"));
    if (ftruncate(fd_, static_cast<off_t>(capacity_)) != 0) {
        const int error = errno;
        close(fd_);
        throw BackendUnavailableError(concat("The simulator cannot size its device memory to ", format_bytes(capacity_),
                                             " (ftruncate: ", std::strerror(error), ")"));
    }
    // The device process holds the descriptor, and its kernels could shrink the file under this
    // process's mapping (SIGBUS here at the next touch): its size is sealed.
    if (fcntl(fd_, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
        const int error = errno;
        close(fd_);
        throw BackendUnavailableError(
            concat("The simulator cannot seal its device memory's size (fcntl: ", std::strerror(error), ")"));
    }
    void* mapped = MAP_FAILED;
    for (std::uint64_t hint : preferred_bases) {
        mapped = mmap(reinterpret_cast<void*>(hint), capacity_, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_FIXED_NOREPLACE | MAP_NORESERVE, fd_, 0);
        if (mapped != MAP_FAILED && mapped != reinterpret_cast<void*>(hint)) {
            munmap(mapped, capacity_);  // a kernel without MAP_FIXED_NOREPLACE took it as a hint
            mapped = MAP_FAILED;
        }
        if (mapped != MAP_FAILED) break;
    }
    if (mapped == MAP_FAILED)
        mapped = mmap(nullptr, capacity_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd_, 0);
    if (mapped == MAP_FAILED) {
        const int error = errno;
        close(fd_);
        throw BackendUnavailableError(concat("The simulator cannot map ", format_bytes(capacity_),
                                             " of device memory (mmap: ", std::strerror(error), ")"));
    }
    base_ = reinterpret_cast<std::uint64_t>(mapped);
    // Offset 0 stays unused, so that no allocation is at the base (a null-looking offset).
    give(page, capacity_);
    DeviceMemory* expected = nullptr;
    if (the_memory.compare_exchange_strong(expected, this)) {
        static const int registered = pthread_atfork(nullptr, nullptr, after_fork_in_child);
        (void)registered;
    }
}

DeviceMemory::~DeviceMemory() {
    DeviceMemory* self = this;
    the_memory.compare_exchange_strong(self, nullptr);
    munmap(reinterpret_cast<void*>(base_), capacity_);
    close(fd_);
}

std::optional<std::uint64_t> DeviceMemory::allocate(std::size_t bytes, std::size_t alignment) {
    if (bytes == 0 || bytes > capacity_) return std::nullopt;
    const std::uint64_t rounded = round_up(bytes, 256) + red_zone(bytes);
    std::lock_guard lock(mutex_);
    // The smallest free range that holds the allocation once aligned.
    for (auto it = by_size_.lower_bound(rounded); it != by_size_.end(); ++it) {
        const std::uint64_t begin = it->second;
        const std::uint64_t end = begin + it->first;
        const std::uint64_t start = round_up(base_ + begin, alignment) - base_;
        if (start + rounded > end) continue;
        take(start, start + rounded);
        allocated_.emplace(start, std::pair{start + rounded, bytes});
        return base_ + start;
    }
    return std::nullopt;
}

std::size_t DeviceMemory::release(std::uint64_t address) noexcept {
    if (address < base_) return 0;
    std::lock_guard lock(mutex_);
    auto it = allocated_.find(address - base_);
    if (it == allocated_.end()) return 0;
    const std::uint64_t begin = it->first;
    const std::uint64_t end = it->second.first;
    const std::size_t asked = it->second.second;
    allocated_.erase(it);
    if (end - begin >= give_back_bytes) {
        // The whole pages inside the range go back to the system; they read as zeros when reused.
        const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
        const std::uint64_t first = round_up(begin, page);
        const std::uint64_t last = end / page * page;
        if (last > first)
            fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(first),
                      static_cast<off_t>(last - first));
    }
    give(begin, end);
    return asked;
}

std::vector<std::pair<std::uint64_t, std::size_t>> DeviceMemory::live() const {
    std::lock_guard lock(mutex_);
    std::vector<std::pair<std::uint64_t, std::size_t>> all;
    all.reserve(allocated_.size());
    for (const auto& [offset, extent] : allocated_) all.emplace_back(base_ + offset, extent.second);
    return all;
}

void DeviceMemory::erase_free(std::map<std::uint64_t, std::uint64_t>::iterator range) {
    const std::uint64_t size = range->second - range->first;
    for (auto [it, end] = by_size_.equal_range(size); it != end; ++it)
        if (it->second == range->first) {
            by_size_.erase(it);
            break;
        }
    free_.erase(range);
}

void DeviceMemory::take(std::uint64_t begin, std::uint64_t end) {
    auto range = std::prev(free_.upper_bound(begin));  // the free range holding [begin, end)
    const std::uint64_t range_begin = range->first;
    const std::uint64_t range_end = range->second;
    erase_free(range);
    if (range_begin < begin) {
        free_.emplace(range_begin, begin);
        by_size_.emplace(begin - range_begin, range_begin);
    }
    if (end < range_end) {
        free_.emplace(end, range_end);
        by_size_.emplace(range_end - end, end);
    }
}

void DeviceMemory::give(std::uint64_t begin, std::uint64_t end) {
    auto next = free_.lower_bound(begin);
    if (next != free_.end() && next->first == end) {
        end = next->second;
        erase_free(next);
    }
    auto after = free_.lower_bound(begin);
    if (after != free_.begin()) {
        auto before = std::prev(after);
        if (before->second == begin) {
            begin = before->first;
            erase_free(before);
        }
    }
    free_.emplace(begin, end);
    by_size_.emplace(end - begin, begin);
}

}  // namespace gpukit::detail::sim
