// src/backends/sim/device_memory.cpp: the simulated device's memory.
#include "backends/sim/device_memory.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
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
std::uint64_t round_down(std::uint64_t value, std::uint64_t to) { return value / to * to; }

std::string hex(std::uint64_t value) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

// The unused bytes after each allocation (an eighth of it, 256 B to 16 MiB): a read or write a
// little past the end lands in no other allocation, so check mode reports it against this one
// and a plain run does not silently change a neighbour. Address space only: never touched.
std::uint64_t red_zone(std::uint64_t bytes) {
    return std::clamp<std::uint64_t>(round_up(bytes / 8, 256), 256, std::uint64_t{16} << 20);
}

}  // namespace

DeviceMemory::DeviceMemory(std::size_t capacity) {
    const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    page_ = page;
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
    const std::uint64_t rounded = round_up(bytes, 256);
    // An allocation of a page or more ends on a page boundary with a whole untouched page after it
    // (the guard page); smaller ones share pages.
    const bool whole_pages = bytes >= page_;
    const std::uint64_t smallest = rounded + (whole_pages ? std::max(red_zone(bytes), page_) : red_zone(bytes));
    std::lock_guard lock(mutex_);
    // The smallest free range that holds the allocation once placed.
    for (auto it = by_size_.lower_bound(smallest); it != by_size_.end(); ++it) {
        const std::uint64_t begin = it->second;
        const std::uint64_t end = begin + it->first;
        // Offsets align as addresses do: the base is page-aligned.
        std::uint64_t start = round_up(begin, alignment);
        std::uint64_t extent = start + rounded + red_zone(bytes);
        if (whole_pages) {
            const std::uint64_t last_page_end = round_up(start + rounded, page_);
            start = round_down(last_page_end - rounded, alignment);
            extent = std::max(start + rounded + red_zone(bytes), last_page_end + page_);
        }
        if (extent > end) continue;
        take(start, extent);
        allocated_.emplace(start, std::pair{extent, bytes});
        if (guarding_) open_pages(start, start + bytes);
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
    if (guarding_) close_pages(begin, begin + asked);
    if (end - begin >= give_back_bytes) {
        // The whole pages inside the range go back to the system; they read as zeros when reused.
        const std::uint64_t first = round_up(begin, page_);
        const std::uint64_t last = round_down(end, page_);
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

// ---- guard pages

void DeviceMemory::guard_pages(bool on) {
    std::lock_guard lock(mutex_);
    if (on == guarding_) return;
    guarding_ = on;
    end_page_users_.clear();
    accessible_.clear();
    unsent_.clear();
    if (on)
        for (const auto& [begin, extent] : allocated_) open_pages(begin, begin + extent.second);
}

void DeviceMemory::open_pages(std::uint64_t begin, std::uint64_t end) {
    const std::uint64_t first = round_down(begin, page_);
    const std::uint64_t last = round_down(end - 1, page_);
    std::uint64_t from = first;
    std::uint64_t to = last + page_;
    if (++end_page_users_[first] > 1) from += page_;  // another allocation opened it already
    if (last != first && ++end_page_users_[last] > 1) to -= page_;
    if (from < to) flip(from, to, true);
}

void DeviceMemory::close_pages(std::uint64_t begin, std::uint64_t end) {
    const std::uint64_t first = round_down(begin, page_);
    const std::uint64_t last = round_down(end - 1, page_);
    std::uint64_t from = first;
    std::uint64_t to = last + page_;
    const auto leave = [&](std::uint64_t page) {  // whether the page stays open for another allocation
        auto users = end_page_users_.find(page);
        if (--users->second > 0) return true;
        end_page_users_.erase(users);
        return false;
    };
    if (leave(first)) from += page_;
    if (last != first && leave(last)) to -= page_;
    if (from < to) flip(from, to, false);
}

// [begin, end) was all inaccessible and becomes accessible, or the other way round.
void DeviceMemory::flip(std::uint64_t begin, std::uint64_t end, bool accessible) {
    if (accessible) {
        std::uint64_t from = begin;
        std::uint64_t to = end;
        auto after = accessible_.lower_bound(begin);
        if (after != accessible_.end() && after->first == end) {
            to = after->second;
            after = accessible_.erase(after);
        }
        if (after != accessible_.begin()) {
            auto before = std::prev(after);
            if (before->second == begin) {
                from = before->first;
                accessible_.erase(before);
            }
        }
        accessible_.emplace(from, to);
    } else {
        auto holder = std::prev(accessible_.upper_bound(begin));  // the range holding all of [begin, end)
        const std::uint64_t from = holder->first;
        const std::uint64_t to = holder->second;
        accessible_.erase(holder);
        if (from < begin) accessible_.emplace(from, begin);
        if (end < to) accessible_.emplace(end, to);
    }
    toggle_unsent(begin);
    toggle_unsent(end);
}

void DeviceMemory::toggle_unsent(std::uint64_t edge) {
    if (!unsent_.erase(edge)) unsent_.insert(edge);
}

std::vector<DeviceMemory::ProtectionChange> DeviceMemory::take_protection_changes(std::size_t most) {
    std::lock_guard lock(mutex_);
    std::vector<ProtectionChange> changes;
    while (changes.size() < most && !unsent_.empty()) {
        const std::uint64_t begin = *unsent_.begin();
        const std::uint64_t end = *std::next(unsent_.begin());
        // The range as it is now: accessible and inaccessible stretches.
        std::uint64_t at = begin;
        while (at < end && changes.size() < most) {
            auto next = accessible_.upper_bound(at);
            const bool open = next != accessible_.begin() && std::prev(next)->second > at;
            const std::uint64_t stop = open                        ? std::min(end, std::prev(next)->second)
                                       : next != accessible_.end() ? std::min(end, next->first)
                                                                   : end;
            changes.push_back({base_ + at, stop - at, open});
            at = stop;
        }
        toggle_unsent(begin);  // [begin, at) is sent
        toggle_unsent(at);
    }
    return changes;
}

bool DeviceMemory::protection_changes_left() const {
    std::lock_guard lock(mutex_);
    return !unsent_.empty();
}

void DeviceMemory::resend_protection() {
    std::lock_guard lock(mutex_);
    unsent_.clear();
    for (const auto& [begin, end] : accessible_) unsent_.insert({begin, end});  // merged: no two share an edge
}

std::string DeviceMemory::describe(std::uint64_t address) const {
    std::lock_guard lock(mutex_);
    if (address < base_ || address - base_ >= capacity_) return "outside device memory";
    const std::uint64_t offset = address - base_;
    auto after = allocated_.upper_bound(offset);
    const auto named = [&](std::map<std::uint64_t, std::pair<std::uint64_t, std::size_t>>::const_iterator it) {
        return concat("the allocation at ", hex(base_ + it->first), " of ", it->second.second, " bytes");
    };
    // Far from every allocation, naming the nearest says nothing about the bug.
    constexpr std::uint64_t near_bytes = std::uint64_t{1} << 20;
    if (after != allocated_.begin()) {
        auto before = std::prev(after);
        const std::uint64_t end = before->first + before->second.second;
        if (offset < end) return concat("inside ", named(before));
        if ((after == allocated_.end() || offset - end <= after->first - offset) && offset - end <= near_bytes)
            return concat("in no allocation: ", offset - end, " bytes after the end of ", named(before));
    }
    if (after != allocated_.end() && after->first - offset <= near_bytes)
        return concat("in no allocation: ", after->first - offset, " bytes before ", named(after));
    return "in no allocation";
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
