// src/backends/sim/check/race_shadow.cpp: racecheck's bookkeeping per 4-byte word, and its shadow
// of a range of global memory.
#include "backends/sim/check/race_shadow.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <new>

namespace gpukit::detail::sim::check {

namespace {

// Layout of ShadowAccess::who, low bits first.
constexpr unsigned valid_bit = 0, atomic_bit = 1;
constexpr unsigned thread_shift = 2, thread_bits = 10;  // up to 1024 threads a block
constexpr unsigned block_shift = 12, block_bits = 24;
constexpr unsigned block_generation_shift = 36, block_generation_bits = 16;
constexpr unsigned warp_generation_shift = 52, warp_generation_bits = 12;

constexpr std::uint64_t field(std::uint64_t who, unsigned shift, unsigned bits) {
    return (who >> shift) & ((std::uint64_t{1} << bits) - 1);
}

bool is_atomic(std::uint64_t who) { return field(who, atomic_bit, 1) != 0; }

// Whether nothing orders `earlier` before the access `agent` makes now.
bool concurrent(const ShadowAccess& earlier, const AccessAgent& agent, const SyncClock& clock) {
    const std::uint64_t who = earlier.who;
    const bool same_block = field(who, block_shift, block_bits) == field(agent.block, 0, block_bits);
    const unsigned thread = static_cast<unsigned>(field(who, thread_shift, thread_bits));
    if (same_block) {
        if (thread == agent.thread) return false;
        if (field(who, block_generation_shift, block_generation_bits) !=
            field(agent.block_generation, 0, block_generation_bits))
            return false;
        if (thread / 32 == agent.thread / 32 && field(who, warp_generation_shift, warp_generation_bits) !=
                                                    field(agent.warp_generation, 0, warp_generation_bits))
            return false;
    }
    // Published: an atomic (the word's own modification order), or a plain access its block
    // fenced afterwards; either way seen by a thread that has performed an atomic since.
    const bool published = is_atomic(who) || clock.last_fence(field(who, block_shift, block_bits)) > earlier.time;
    return !(published && agent.last_atomic > earlier.time);
}

bool conflict(const ShadowAccess& earlier, bool earlier_is_write, const ShadowAccess& now, bool now_is_write,
              const AccessAgent& agent, const SyncClock& clock) {
    if (!earlier.who) return false;
    const bool earlier_atomic = is_atomic(earlier.who), now_atomic = is_atomic(now.who);
    if (earlier_atomic && now_atomic) return false;
    if (earlier_atomic != now_atomic && !(earlier_atomic ? now_is_write : earlier_is_write))
        return false;  // a plain read beside atomics: a CAS loop's first look
    return concurrent(earlier, agent, clock);
}

bool same_thread(std::uint64_t a, std::uint64_t b) {
    constexpr std::uint64_t identity =
        ((std::uint64_t{1} << thread_bits) - 1) << thread_shift | ((std::uint64_t{1} << block_bits) - 1) << block_shift;
    return (a & identity) == (b & identity);
}

}  // namespace

ShadowAccess shadow_access(const AccessAgent& agent, bool atomic, std::uint32_t pc, std::uint32_t time) {
    const std::uint64_t who = std::uint64_t{1} << valid_bit | std::uint64_t{atomic} << atomic_bit |
                              field(agent.thread, 0, thread_bits) << thread_shift |
                              field(agent.block, 0, block_bits) << block_shift |
                              field(agent.block_generation, 0, block_generation_bits) << block_generation_shift |
                              field(agent.warp_generation, 0, warp_generation_bits) << warp_generation_shift;
    return ShadowAccess{who, pc, time};
}

UnpackedAgent unpack(const ShadowAccess& access) {
    return UnpackedAgent{field(access.who, block_shift, block_bits),
                         static_cast<unsigned>(field(access.who, thread_shift, thread_bits)), is_atomic(access.who)};
}

std::optional<Race> observe(ShadowWord& word, const ShadowAccess& now, const AccessAgent& agent, bool is_write,
                            const SyncClock& clock) {
    std::optional<Race> race;
    if (conflict(word.writer, true, now, is_write, agent, clock))
        race = Race{is_write ? "write-after-write" : "read-after-write", word.writer, true};
    if (!race && is_write) {
        for (const auto& reader : word.readers)
            if (conflict(reader, false, now, is_write, agent, clock)) {
                race = Race{"write-after-read", reader, false};
                break;
            }
    }
    if (is_write) {
        word.writer = now;
    } else if (!word.readers[0].who || same_thread(word.readers[0].who, now.who)) {
        word.readers[0] = now;
    } else {
        word.readers[1] = now;  // a second, different reader: enough to find a later writer's race
    }
    return race;
}

GlobalShadow::GlobalShadow(std::uintptr_t begin, std::uintptr_t end) : first_word_(begin / 4) {
    const std::size_t words = std::max<std::uintptr_t>((end + 3) / 4 - first_word_, 1);
    bytes_ = words * (sizeof(ShadowWord) + 1);
    mapping_ = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapping_ == MAP_FAILED) throw std::bad_alloc();
    madvise(mapping_, bytes_, MADV_HUGEPAGE);  // fewer faults; a hint the kernel may ignore
    words_ = static_cast<ShadowWord*>(mapping_);
    locks_ = reinterpret_cast<std::atomic<std::uint8_t>*>(words_ + words);
}

GlobalShadow::~GlobalShadow() { munmap(mapping_, bytes_); }

}  // namespace gpukit::detail::sim::check
