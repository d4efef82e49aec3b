// src/backends/sim/allocations.cpp: the simulator's device allocations, for check mode.
#include "backends/sim/allocations.hpp"

#include <deque>
#include <map>
#include <iterator>
#include <mutex>
#include <shared_mutex>

namespace gpukit::detail::sim {

struct AllocationTable::State {
    mutable std::shared_mutex mutex;
    std::map<std::uint64_t, std::size_t> live;  // address -> size
    std::deque<Allocation> freed;               // the most recent last
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
    state_->live[address] = size;
}

void AllocationTable::remove(std::uint64_t address) {
    std::unique_lock lock(state_->mutex);
    auto it = state_->live.find(address);
    if (it == state_->live.end()) return;
    state_->freed.push_back({it->first, it->second});
    if (state_->freed.size() > remembered_frees) state_->freed.pop_front();
    state_->live.erase(it);
}

std::optional<Allocation> AllocationTable::containing(std::uint64_t address, std::size_t size) const {
    std::shared_lock lock(state_->mutex);
    auto it = state_->live.upper_bound(address);
    if (it == state_->live.begin()) return std::nullopt;
    --it;
    if (address + size <= it->first + it->second) return Allocation{it->first, it->second};
    return std::nullopt;
}

std::optional<Allocation> AllocationTable::nearest(std::uint64_t address) const {
    std::shared_lock lock(state_->mutex);
    if (state_->live.empty()) return std::nullopt;
    auto after = state_->live.upper_bound(address);
    std::optional<Allocation> best;
    std::uint64_t best_distance = ~std::uint64_t{0};
    if (after != state_->live.end()) {
        best = Allocation{after->first, after->second};
        best_distance = after->first - address;
    }
    if (after != state_->live.begin()) {
        auto before = std::prev(after);
        const std::uint64_t end = before->first + before->second;
        const std::uint64_t distance = address >= end ? address - end : 0;
        if (distance <= best_distance) best = Allocation{before->first, before->second};
    }
    return best;
}

std::optional<Allocation> AllocationTable::freed_containing(std::uint64_t address) const {
    std::shared_lock lock(state_->mutex);
    for (auto it = state_->freed.rbegin(); it != state_->freed.rend(); ++it)
        if (address >= it->address && address < it->address + it->size) return *it;
    return std::nullopt;
}

}  // namespace gpukit::detail::sim
