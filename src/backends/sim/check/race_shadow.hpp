// src/backends/sim/check/race_shadow.hpp: racecheck's records of global memory, the clock that
// orders accesses across blocks, and the judgement of an access the kernel sent on.
//
// Each 4-byte word of global memory has a cell (gpukit_sim::GlobalRaceCell, 32 bytes): its latest
// writer and a reader, each with the bytes of the word it touched, so that threads writing
// different bytes of one word (a uchar image written per pixel) do not race. The kernel updates
// the cells itself when the block shows the order (gpukit_sim_race.h); what it cannot judge comes
// here. Beyond barriers, memory is published the way CUDA code publishes it: a thread writes,
// executes __threadfence, then an atomic; a thread that performs an atomic after that sees the
// write (the last-block reduction, a spin lock). A plain read of a word that atomics update is not
// reported either: it starts every atomicCAS loop (the CUDA guide's own atomicAdd for double), and
// the CAS decides.
//
// The cells of a live allocation outlive the launch: the next launch tells the old records from
// its own by their time (the clock only moves forward), so it neither clears nor faults in a
// fresh shadow. A plain access takes its block's time (its latest atomic or fence, or its start):
// older than the access, which can only make it look published sooner, hiding a race, never
// inventing one.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/sim/prelude/gpukit_sim_race.h"

namespace gpukit::detail::sim::check {

// The clock every atomic and every fence advances, one for the process, and per block (hashed)
// the time of its latest __threadfence.
class SyncClock {
public:
    SyncClock() : fences_(std::make_unique<std::atomic<std::uint32_t>[]>(fence_slots)) {}
    std::uint32_t now() const noexcept { return clock_.load(std::memory_order_relaxed); }
    std::uint32_t tick() noexcept { return clock_.fetch_add(1, std::memory_order_relaxed) + 1; }
    std::uint32_t fence(std::uint64_t block) noexcept {
        const std::uint32_t time = tick();
        fences_[block % fence_slots].store(time, std::memory_order_relaxed);
        return time;
    }
    std::uint32_t last_fence(std::uint64_t block) const noexcept {
        return fences_[block % fence_slots].load(std::memory_order_relaxed);
    }
    // Back to the start, when no launch uses the clock (and no record outlives the reset).
    void reset() noexcept;

private:
    static constexpr std::size_t fence_slots = 4096;
    std::atomic<std::uint32_t> clock_{1};
    std::unique_ptr<std::atomic<std::uint32_t>[]> fences_;
};

// The cells of one range of global memory, in address space reserved for the whole range at once,
// which the kernel fills with zero pages (huge ones where it can) only where a launch touches it.
class GlobalShadow {
public:
    GlobalShadow(std::uintptr_t begin, std::uintptr_t end);
    ~GlobalShadow();
    GlobalShadow(const GlobalShadow&) = delete;
    GlobalShadow& operator=(const GlobalShadow&) = delete;

    gpukit_sim::GlobalRaceCell* cell(std::uintptr_t address) const { return cells_ + (address / 4 - first_word_); }
    std::size_t bytes() const noexcept { return bytes_; }

private:
    std::uintptr_t first_word_;
    std::size_t bytes_;
    void* mapping_;
    gpukit_sim::GlobalRaceCell* cells_;
};

// The shadows of live allocations, kept from launch to launch, and the clock they are read by.
class ShadowStore {
public:
    static ShadowStore& instance();

    // A launch starts: its time (records older than it are stale).
    std::uint32_t start_launch();
    void end_launch();
    SyncClock& clock() noexcept { return clock_; }

    // The shadow of the allocation [begin, end) for one launch: the one the last launch left, or
    // a fresh one. `lifetime` expires when the allocation is freed, and with it the shadow.
    std::shared_ptr<GlobalShadow> acquire(std::uintptr_t begin, std::uintptr_t end,
                                          const std::shared_ptr<const void>& lifetime);
    // The launch is done with it: kept for the next, within `kept_bytes` of address space.
    void release(const std::shared_ptr<GlobalShadow>& shadow);

private:
    struct Entry {
        std::uintptr_t begin;
        std::uintptr_t end;
        std::weak_ptr<const void> lifetime;
        std::shared_ptr<GlobalShadow> shadow;
        bool in_use;
        std::uint64_t last_use;
    };
    static constexpr std::size_t kept_bytes = std::size_t{2} << 30;  // reserved, of which only touched pages count

    std::mutex mutex_;
    SyncClock clock_;
    std::vector<Entry> entries_;
    unsigned launches_ = 0;  // running now
    std::uint64_t uses_ = 0;
};

// Who made an earlier access, for the report.
struct RaceAgent {
    std::uint64_t block;  // linear, modulo 2^24
    unsigned thread;      // linear in its block
};
RaceAgent agent_of(std::uint64_t who);

struct Race {
    const char* kind;  // "read-after-write", "write-after-read", "write-after-write"
    gpukit_sim::RaceRecord earlier;
    bool earlier_is_write;
};

// What the runtime knows of the accessing thread beyond its `who`.
struct RaceJudge {
    const SyncClock& clock;
    std::uint32_t last_atomic;  // the clock at the thread's latest atomic; 0: none

    // Whether nothing orders `earlier` before the access, where the block shows no order
    // (race_may_conflict said so): published (an atomic, or a plain access its block fenced
    // afterwards) and seen by a thread that has performed an atomic since.
    bool concurrent(const gpukit_sim::RaceRecord& earlier) const;
};

// Observes `now` in a word's records (a GlobalRaceCell under its lock, or a SharedRaceCell) and
// returns the race it forms with an earlier access, if any. The access is recorded either way.
bool observe_global(gpukit_sim::GlobalRaceCell& cell, const gpukit_sim::RaceAccess& now, const RaceJudge& judge,
                    Race& race);
bool observe_shared(gpukit_sim::SharedRaceCell& cell, const gpukit_sim::RaceAccess& now, const RaceJudge& judge,
                    Race& race);

}  // namespace gpukit::detail::sim::check
