// src/backends/sim/allocations.cpp: the simulator's device allocations, for check mode.
#include "backends/sim/allocations.hpp"

#include <algorithm>
#include <atomic>
#include <deque>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>

namespace gpukit::detail::sim {

struct AllocationTable::State {
    mutable std::shared_mutex mutex;
    struct Live {
        std::size_t size;
        std::shared_ptr<WrittenBytes> written;
    };
    std::map<std::uint64_t, Live> live;  // by address
    std::deque<Allocation> freed;        // the most recent last
};

namespace {
constexpr std::size_t remembered_frees = 256;
}

AllocationTable::AllocationTable() : state_(new State) {}

AllocationTable& AllocationTable::instance() {
    static AllocationTable* table = new AllocationTable;  // never destroyed: buffers may outlive statics
    return *table;
}

void AllocationTable::add(std::uint64_t address, std::size_t size) {
    std::unique_lock lock(state_->mutex);
    state_->live[address] = State::Live{size, std::make_shared<WrittenBytes>()};
}

void AllocationTable::remove(std::uint64_t address) {
    std::unique_lock lock(state_->mutex);
    auto it = state_->live.find(address);
    if (it == state_->live.end()) return;
    state_->freed.push_back({it->first, it->second.size});
    if (state_->freed.size() > remembered_frees) state_->freed.pop_front();
    state_->live.erase(it);
}

AllocationTable::Snapshot AllocationTable::snapshot() const {
    std::shared_lock lock(state_->mutex);
    Snapshot snapshot;
    snapshot.allocations.reserve(state_->live.size());
    snapshot.keep_alive.reserve(state_->live.size());
    for (const auto& [address, live] : state_->live) {
        snapshot.allocations.push_back({address, live.size, live.written.get()});
        snapshot.keep_alive.push_back(live.written);
    }
    return snapshot;
}

std::optional<Allocation> AllocationTable::containing(std::uint64_t address, std::size_t size) const {
    std::shared_lock lock(state_->mutex);
    auto it = state_->live.upper_bound(address);
    if (it == state_->live.begin()) return std::nullopt;
    --it;
    if (address + size <= it->first + it->second.size)
        return Allocation{it->first, it->second.size, it->second.written.get()};
    return std::nullopt;
}

std::optional<Allocation> AllocationTable::nearest(std::uint64_t address) const {
    std::shared_lock lock(state_->mutex);
    if (state_->live.empty()) return std::nullopt;
    auto after = state_->live.upper_bound(address);
    std::optional<Allocation> best;
    std::uint64_t best_distance = ~std::uint64_t{0};
    if (after != state_->live.end()) {
        best = Allocation{after->first, after->second.size, after->second.written.get()};
        best_distance = after->first - address;
    }
    if (after != state_->live.begin()) {
        auto before = std::prev(after);
        const std::uint64_t end = before->first + before->second.size;
        const std::uint64_t distance = address >= end ? address - end : 0;
        if (distance <= best_distance)
            best = Allocation{before->first, before->second.size, before->second.written.get()};
    }
    return best;
}

void AllocationTable::mark_written(std::uint64_t address, std::size_t size) {
    std::shared_lock lock(state_->mutex);
    const std::uint64_t end = address + size;
    auto it = state_->live.upper_bound(address);
    if (it != state_->live.begin()) --it;
    for (; it != state_->live.end() && it->first < end; ++it) {
        const std::uint64_t begin = std::max(address, it->first);
        const std::uint64_t stop = std::min(end, it->first + it->second.size);
        if (begin < stop)
            Allocation{it->first, it->second.size, it->second.written.get()}.mark_written(begin, stop - begin);
    }
}

bool Allocation::all_written(std::uint64_t begin, std::size_t bytes) const {
    if (!written || written->whole.load(std::memory_order_relaxed)) return true;
    const std::uint64_t* bits = written->bits.load(std::memory_order_acquire);
    if (!bits) return false;  // nothing written yet
    for (std::uint64_t offset = begin - address; offset < begin - address + bytes; ++offset) {
        const std::uint64_t word = std::atomic_ref(bits[offset / 64]).load(std::memory_order_relaxed);
        if (!(word & (std::uint64_t{1} << (offset % 64)))) return false;
    }
    return true;
}

void Allocation::mark_written(std::uint64_t begin, std::size_t bytes) const {
    if (!written || written->whole.load(std::memory_order_relaxed)) return;
    if (begin == address && bytes >= size) {
        written->whole.store(true, std::memory_order_relaxed);
        return;
    }
    std::uint64_t* bits = written->bits.load(std::memory_order_acquire);
    if (!bits) {  // the first partial write: make the bits, or take the ones another thread made
        auto* made = new std::uint64_t[(size + 63) / 64]();
        if (written->bits.compare_exchange_strong(bits, made, std::memory_order_acq_rel)) {
            bits = made;
        } else {
            delete[] made;
        }
    }
    std::uint64_t offset = begin - address;
    const std::uint64_t stop = offset + bytes;
    while (offset < stop) {
        const std::uint64_t bit = offset % 64;
        const std::uint64_t count = std::min<std::uint64_t>(64 - bit, stop - offset);
        const std::uint64_t mask = (count == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << count) - 1)) << bit;
        std::atomic_ref word(bits[offset / 64]);
        if ((word.load(std::memory_order_relaxed) & mask) != mask) word.fetch_or(mask, std::memory_order_relaxed);
        offset += count;
    }
}

std::optional<Allocation> AllocationTable::freed_containing(std::uint64_t address) const {
    std::shared_lock lock(state_->mutex);
    for (auto it = state_->freed.rbegin(); it != state_->freed.rend(); ++it)
        if (address >= it->address && address < it->address + it->size) return *it;
    return std::nullopt;
}

}  // namespace gpukit::detail::sim
