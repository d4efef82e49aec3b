// src/backends/sim/prelude/gpukit_sim_race.h: racecheck's judgement of one access against the
// records of the word it touches. Compiled into check-mode modules, which judge the common cases
// themselves (gpukit_sim_check.h), and into the runtime, which judges the rest and reports races
// (check/race_shadow.cpp): one definition, so that both judge alike.
//
// Two accesses race when they come from different threads, touch a common byte, at least one
// writes, not both are atomic, and nothing orders them. The kernel knows the order a block shows
// (program order, a __syncthreads, a warp collective between lanes of one warp); order across
// blocks, through a __threadfence and then atomics, is the runtime's to judge: an access the
// kernel cannot prove ordered goes to it.
#pragma once

#include "gpukit_sim_abi.h"

#define GPUKIT_SIM_RACE_INLINE __attribute__((always_inline, no_sanitize_thread)) inline

namespace gpukit_sim {

// The access being judged, as the records keep it.
struct RaceAccess {
    unsigned long long who;   // ThreadContext::race_who, with race_atomic for an atomic
    unsigned long long meta;  // its time, bytes and instruction (RaceRecord::meta)
    unsigned bytes;           // the bytes of the word it touches, bit 0 the lowest address
    bool write;
    bool atomic;
    unsigned launch_time;  // AccessFilter::launch_time
};

GPUKIT_SIM_RACE_INLINE unsigned long long race_field(unsigned long long who, unsigned shift, unsigned bits) {
    return (who >> shift) & ((1ull << bits) - 1);
}
GPUKIT_SIM_RACE_INLINE unsigned race_bytes(unsigned long long meta) {
    return static_cast<unsigned>(meta >> race_bytes_shift) & 15u;
}
GPUKIT_SIM_RACE_INLINE unsigned race_time(unsigned long long meta) { return static_cast<unsigned>(meta); }
GPUKIT_SIM_RACE_INLINE unsigned long long race_meta(unsigned time, unsigned bytes, unsigned long pc_offset) {
    return time | static_cast<unsigned long long>(bytes) << race_bytes_shift |
           static_cast<unsigned long long>(pc_offset & ((1ul << (64 - race_pc_shift)) - 1)) << race_pc_shift;
}

// The bytes of the word at `word` that [address, address + size) touches.
GPUKIT_SIM_RACE_INLINE unsigned race_word_bytes(unsigned long word, unsigned long address, unsigned long size) {
    const unsigned long first = address > word ? address - word : 0;
    const unsigned long end = address + size - word < 4 ? address + size - word : 4;
    return ((1u << end) - 1u) & ~((1u << first) - 1u);
}

// Whether the record holds an access of this launch: the records of global memory outlive
// launches, and a record older than the launch counts as none.
GPUKIT_SIM_RACE_INLINE bool race_live(const RaceRecord& record, unsigned launch_time) {
    return (record.who & race_valid) != 0 && race_time(record.meta) >= launch_time;
}

// Whether the block itself orders `earlier` before what the thread of `now` does now: the same
// thread; a __syncthreads completed since (its block generation moved on); or lanes of one warp
// with a collective between them.
GPUKIT_SIM_RACE_INLINE bool race_ordered_in_block(unsigned long long earlier, unsigned long long now) {
    constexpr unsigned long long thread = ((1ull << race_thread_bits) - 1) << race_thread_shift;
    constexpr unsigned long long warp = ((1ull << (race_thread_bits - 5)) - 1) << (race_thread_shift + 5);
    constexpr unsigned long long block = ((1ull << race_block_bits) - 1) << race_block_shift;
    constexpr unsigned long long block_generation = ((1ull << race_block_generation_bits) - 1)
                                                    << race_block_generation_shift;
    constexpr unsigned long long warp_generation = ((1ull << race_warp_generation_bits) - 1)
                                                   << race_warp_generation_shift;
    const unsigned long long differ = earlier ^ now;
    if (differ & block) return false;
    if (!(differ & thread) || (differ & block_generation)) return true;
    return !(differ & warp) && (differ & warp_generation);
}

// Whether `earlier` (a write when `earlier_writes`) may race with `now`, as far as the block can
// tell: a common byte, one of them writes, not both atomic, not a plain read beside atomics (the
// first look of a CAS loop, which the CAS decides), and no order the block shows.
GPUKIT_SIM_RACE_INLINE bool race_may_conflict(const RaceRecord& earlier, bool earlier_writes, const RaceAccess& now) {
    if (!(race_bytes(earlier.meta) & now.bytes)) return false;
    if (!earlier_writes && !now.write) return false;
    const bool earlier_atomic = (earlier.who & race_atomic) != 0;
    if (earlier_atomic && now.atomic) return false;
    if (earlier_atomic != now.atomic && !(earlier_atomic ? now.write : earlier_writes)) return false;
    return !race_ordered_in_block(earlier.who, now.who);
}

// Observes `now` in the records of one word: `judge(earlier, earlier_writes)` hears of each live
// record that may race with it and answers whether to go on (false: nothing is recorded, and
// race_observe answers false). Then the access is recorded: a write as the writer, a read in a
// reader slot that holds none, the same thread, or an access ordered before it; when every slot
// holds an unordered read of another thread, those are enough for a later writer to meet.
template <unsigned Readers, class Judge>
GPUKIT_SIM_RACE_INLINE bool race_observe(RaceRecord& writer, RaceRecord* readers, const RaceAccess& now,
                                         Judge&& judge) {
    const bool writer_live = race_live(writer, now.launch_time);
    if (writer_live && race_may_conflict(writer, true, now) && !judge(writer, true)) return false;
    if (now.write) {
        for (unsigned i = 0; i < Readers; ++i)
            if (race_live(readers[i], now.launch_time) && race_may_conflict(readers[i], false, now) &&
                !judge(readers[i], false))
                return false;
        // The same thread at the same point of its synchronisation: one record of both writes' bytes.
        const unsigned long long bytes =
            writer_live && writer.who == now.who ? race_bytes(writer.meta) | now.bytes : now.bytes;
        writer.meta = (now.meta & ~(15ull << race_bytes_shift)) | bytes << race_bytes_shift;
        writer.who = now.who;
        return true;
    }
    for (unsigned i = 0; i < Readers; ++i) {
        RaceRecord& reader = readers[i];
        const bool live = race_live(reader, now.launch_time);
        if (live && reader.who == now.who) {
            reader.meta |= static_cast<unsigned long long>(now.bytes) << race_bytes_shift;
            return true;
        }
        if (!live || race_ordered_in_block(reader.who, now.who)) {
            reader = RaceRecord{now.who, now.meta};
            return true;
        }
    }
    return true;
}

GPUKIT_SIM_RACE_INLINE void race_pause() {
#if defined(__x86_64__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

// A global cell is updated under the lock bit of its writer's `who`: returns that `who`, unlocked.
GPUKIT_SIM_RACE_INLINE unsigned long long race_lock_cell(GlobalRaceCell& cell) {
    unsigned long long who = __atomic_load_n(&cell.writer.who, __ATOMIC_RELAXED);
    for (;;) {
        if (who & race_lock) {
            race_pause();
            who = __atomic_load_n(&cell.writer.who, __ATOMIC_RELAXED);
        } else if (__atomic_compare_exchange_n(&cell.writer.who, &who, who | race_lock, true, __ATOMIC_ACQUIRE,
                                               __ATOMIC_RELAXED)) {
            return who;
        }
    }
}
GPUKIT_SIM_RACE_INLINE void race_unlock_cell(GlobalRaceCell& cell, unsigned long long who) {
    __atomic_store_n(&cell.writer.who, who, __ATOMIC_RELEASE);
}

// Observes `now` in a global cell, under its lock.
template <class Judge>
GPUKIT_SIM_RACE_INLINE bool race_observe_global(GlobalRaceCell& cell, const RaceAccess& now, Judge&& judge) {
    const unsigned long long locked = race_lock_cell(cell);
    RaceRecord writer{locked, cell.writer.meta};
    const bool done = race_observe<1>(writer, &cell.reader, now, judge);
    if (!done) {
        race_unlock_cell(cell, locked);
        return false;
    }
    cell.writer.meta = writer.meta;
    race_unlock_cell(cell, writer.who);
    return true;
}

}  // namespace gpukit_sim
