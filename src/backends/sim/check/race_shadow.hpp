// src/backends/sim/check/race_shadow.hpp: racecheck's bookkeeping per 4-byte word, and its shadow of
// a range of global memory.
//
// Two accesses to one word race when they come from different threads, at least one writes,
// not both are atomic, and nothing orders them. Threads of one block are ordered by a
// __syncthreads between them, lanes of one warp also by a warp collective. Beyond barriers,
// memory is published the way CUDA code publishes it: a thread writes, executes __threadfence,
// then an atomic; a thread that performs an atomic after that sees the write (the last-block
// reduction, a spin lock). A plain read of a word that atomics update is not reported either:
// it starts every atomicCAS loop (the CUDA guide's own atomicAdd for double), and the CAS decides.
//
// Each word remembers its last writer and two recent readers in 48 bytes, so that the shadow of
// a large allocation stays a small multiple of it.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "backends/sim/prelude/gpukit_sim_abi.h"

namespace gpukit::detail::sim::check {

// Who accesses, and at which point of the block's synchronisation.
struct AccessAgent {
    std::uint64_t block = 0;        // linear block index
    unsigned thread = 0;            // linear thread index in the block; its warp is thread / 32
    unsigned block_generation = 0;  // block barriers completed so far
    unsigned warp_generation = 0;   // warp collectives completed so far by this warp
    std::uint32_t last_atomic = 0;  // the launch's sync clock at this thread's latest atomic; 0: none
};

// One remembered access. `who` packs the agent (block modulo 2^24, generations modulo 2^16 and
// 2^12: a wrap can only hide a race, never invent one); 0 means none.
struct ShadowAccess {
    std::uint64_t who = 0;
    std::uint32_t pc = 0;    // the instruction's offset in the module's image
    std::uint32_t time = 0;  // the sync clock when it happened
};

struct ShadowWord {
    ShadowAccess writer;
    ShadowAccess readers[2];
};

// What one launch knows of ordering beyond barriers: a clock that every atomic and every fence
// advances, and per block (hashed) the clock at its latest __threadfence.
class SyncClock {
public:
    SyncClock() : fences_(std::make_unique<std::atomic<std::uint32_t>[]>(fence_slots)) {}
    std::uint32_t now() const noexcept { return clock_.load(std::memory_order_relaxed); }
    std::uint32_t tick() noexcept { return clock_.fetch_add(1, std::memory_order_relaxed) + 1; }
    void fence(std::uint64_t block) noexcept { fences_[block % fence_slots].store(tick(), std::memory_order_relaxed); }
    std::uint32_t last_fence(std::uint64_t block) const noexcept {
        return fences_[block % fence_slots].load(std::memory_order_relaxed);
    }

private:
    static constexpr std::size_t fence_slots = 4096;
    std::atomic<std::uint32_t> clock_{1};
    std::unique_ptr<std::atomic<std::uint32_t>[]> fences_;
};

// The parts of a packed agent a report needs.
struct UnpackedAgent {
    std::uint64_t block;  // modulo 2^24
    unsigned thread;
    bool atomic;
};

ShadowAccess shadow_access(const AccessAgent& agent, bool atomic, std::uint32_t pc, std::uint32_t time);
UnpackedAgent unpack(const ShadowAccess& access);

struct Race {
    const char* kind;  // "read-after-write", "write-after-read", "write-after-write"
    ShadowAccess earlier;
    bool earlier_is_write;
};

// Records `now` (made by `agent`) in `word` and returns the race it forms with an earlier
// access, if any.
std::optional<Race> observe(ShadowWord& word, const ShadowAccess& now, const AccessAgent& agent, bool is_write,
                            const SyncClock& clock);

// The shadow of one range of global memory: a record and a spin lock per 4-byte word, in address
// space reserved for the whole range at once, which the kernel fills with zero pages (huge ones
// where it can) only where the launch touches it.
class GlobalShadow {
public:
    GlobalShadow(std::uintptr_t begin, std::uintptr_t end);
    ~GlobalShadow();
    GlobalShadow(const GlobalShadow&) = delete;
    GlobalShadow& operator=(const GlobalShadow&) = delete;

    ShadowWord& word(std::uintptr_t address) const { return words_[address / 4 - first_word_]; }
    std::atomic<std::uint8_t>& lock(std::uintptr_t address) const { return locks_[address / 4 - first_word_]; }

private:
    std::uintptr_t first_word_;
    std::size_t bytes_;
    void* mapping_;
    ShadowWord* words_;
    std::atomic<std::uint8_t>* locks_;
};

}  // namespace gpukit::detail::sim::check
