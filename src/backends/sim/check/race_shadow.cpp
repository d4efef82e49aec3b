// src/backends/sim/check/race_shadow.cpp: racecheck's records of global memory, the clock that
// orders accesses across blocks, and the judgement of an access the kernel sent on.
#include "backends/sim/check/race_shadow.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <new>

namespace gpukit::detail::sim::check {

namespace {

using gpukit_sim::race_field;

// Past half the clock's range, the next launch with no other running starts it again.
constexpr std::uint32_t clock_restart = std::uint32_t{1} << 31;

const char* race_kind(bool earlier_writes, bool now_writes) {
    if (!earlier_writes) return "write-after-read";
    return now_writes ? "write-after-write" : "read-after-write";
}

// The judge for gpukit_sim::race_observe: keeps the first race, and goes on to record the access.
struct Finder {
    const RaceJudge& judge;
    bool now_writes;
    Race& race;
    bool found = false;

    bool operator()(const gpukit_sim::RaceRecord& earlier, bool earlier_writes) {
        if (!found && judge.concurrent(earlier)) {
            race = Race{race_kind(earlier_writes, now_writes), earlier, earlier_writes};
            found = true;
        }
        return true;
    }
};

}  // namespace

void SyncClock::reset() noexcept {
    clock_.store(1, std::memory_order_relaxed);
    for (std::size_t i = 0; i < fence_slots; ++i) fences_[i].store(0, std::memory_order_relaxed);
}

GlobalShadow::GlobalShadow(std::uintptr_t begin, std::uintptr_t end) : first_word_(begin / 4) {
    const std::size_t words = std::max<std::uintptr_t>((end + 3) / 4 - first_word_, 1);
    bytes_ = words * sizeof(gpukit_sim::GlobalRaceCell);
    mapping_ = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapping_ == MAP_FAILED) throw std::bad_alloc();
    madvise(mapping_, bytes_, MADV_HUGEPAGE);  // fewer faults; a hint the kernel may ignore
    cells_ = static_cast<gpukit_sim::GlobalRaceCell*>(mapping_);
}

GlobalShadow::~GlobalShadow() { munmap(mapping_, bytes_); }

ShadowStore& ShadowStore::instance() {
    static ShadowStore* store = new ShadowStore;  // never destroyed: launches may run at exit
    return *store;
}

std::uint32_t ShadowStore::start_launch() {
    std::lock_guard lock(mutex_);
    if (launches_ == 0 && clock_.now() >= clock_restart) {
        entries_.clear();  // their records would look new again
        clock_.reset();
    }
    ++launches_;
    return clock_.tick();
}

void ShadowStore::end_launch() {
    std::lock_guard lock(mutex_);
    --launches_;
}

std::shared_ptr<GlobalShadow> ShadowStore::acquire(std::uintptr_t begin, std::uintptr_t end,
                                                   const std::shared_ptr<const void>& lifetime) {
    std::lock_guard lock(mutex_);
    std::erase_if(entries_, [](const Entry& entry) { return !entry.in_use && entry.lifetime.expired(); });
    const auto same_allocation = [&](const Entry& entry) {
        return entry.begin == begin && entry.end == end && !entry.lifetime.owner_before(lifetime) &&
               !lifetime.owner_before(entry.lifetime);
    };
    auto it = std::find_if(entries_.begin(), entries_.end(), same_allocation);
    if (it != entries_.end()) {
        if (it->in_use) return std::make_shared<GlobalShadow>(begin, end);  // another launch runs with it
        it->in_use = true;
        return it->shadow;
    }
    auto shadow = std::make_shared<GlobalShadow>(begin, end);
    entries_.push_back({begin, end, lifetime, shadow, true, 0});
    return shadow;
}

void ShadowStore::release(const std::shared_ptr<GlobalShadow>& shadow) {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.shadow == shadow; });
    if (it == entries_.end()) return;
    it->in_use = false;
    it->last_use = ++uses_;
    std::erase_if(entries_, [](const Entry& entry) { return !entry.in_use && entry.lifetime.expired(); });
    // Within the budget, the most recently used stay.
    std::size_t kept = 0;
    for (const auto& entry : entries_) kept += entry.shadow->bytes();
    while (kept > kept_bytes) {
        auto oldest = entries_.end();
        for (auto e = entries_.begin(); e != entries_.end(); ++e)
            if (!e->in_use && (oldest == entries_.end() || e->last_use < oldest->last_use)) oldest = e;
        if (oldest == entries_.end()) break;
        kept -= oldest->shadow->bytes();
        entries_.erase(oldest);
    }
}

RaceAgent agent_of(std::uint64_t who) {
    return {race_field(who, gpukit_sim::race_block_shift, gpukit_sim::race_block_bits),
            static_cast<unsigned>(race_field(who, gpukit_sim::race_thread_shift, gpukit_sim::race_thread_bits))};
}

bool RaceJudge::concurrent(const gpukit_sim::RaceRecord& earlier) const {
    const std::uint32_t time = gpukit_sim::race_time(earlier.meta);
    const bool published =
        (earlier.who & gpukit_sim::race_atomic) != 0 || clock.last_fence(agent_of(earlier.who).block) > time;
    return !(published && last_atomic > time);
}

bool observe_global(gpukit_sim::GlobalRaceCell& cell, const gpukit_sim::RaceAccess& now, const RaceJudge& judge,
                    Race& race) {
    Finder finder{judge, now.write, race};
    gpukit_sim::race_observe_global(cell, now, finder);
    return finder.found;
}

bool observe_shared(gpukit_sim::SharedRaceCell& cell, const gpukit_sim::RaceAccess& now, const RaceJudge& judge,
                    Race& race) {
    Finder finder{judge, now.write, race};
    gpukit_sim::race_observe<2>(cell.writer, cell.readers, now, finder);
    return finder.found;
}

}  // namespace gpukit::detail::sim::check
