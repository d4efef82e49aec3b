// src/backends/sim/check/racecheck.cpp: racecheck: two threads touch one word, one writes, and
// nothing orders them, in shared or global memory.
//
// Every access reaches it (the filter passes none) and every store survives (-Og): each one is
// recorded in a shadow of the word it touches, the block's shadow of shared memory or the global
// range's, which tells whether an earlier access races with it (check/race_shadow.hpp).
#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/sim/check/hazard_log.hpp"
#include "backends/sim/check/race_shadow.hpp"
#include "backends/sim/check/tools.hpp"
#include "util/text.hpp"

namespace gpukit::detail::sim::check {

namespace {

// Tells the core a spin-wait loop is running (kinder to the hyperthread that holds the lock).
inline void spin_pause() {
#if defined(__x86_64__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// The index, x fastest, of the `linear`-th element of a grid or block of extent `extent`.
gpukit_sim::Index3 index_of(std::uint64_t linear, gpukit_sim::Index3 extent) {
    return {static_cast<unsigned>(linear % extent.x), static_cast<unsigned>(linear / extent.x % extent.y),
            static_cast<unsigned>(linear / (std::uint64_t{extent.x} * extent.y))};
}

// The shadow of a worker's __shared__ memory: one record per 4 bytes from the worker's copy of
// the variables, aligned to 4 bytes in memory whatever the alignment of the thread-local block.
struct SharedShadow final : WorkerState {
    std::vector<ShadowWord> words;
};

class Racecheck final : public Tool {
public:
    explicit Racecheck(const LaunchInfo& launch) : launch_(launch) {
        shadows_.reserve(launch.ranges.size());
        for (const auto& range : launch.ranges)
            shadows_.push_back(std::make_unique<GlobalShadow>(range.begin, range.end));
    }

    // The shadow of the block's shared memory starts empty; only the bytes this launch can use are
    // cleared (the dynamic buffer's capacity is far larger than a launch asks for).
    void block_starts(BlockSite& block) override {
        auto& words = block.state<SharedShadow>(CheckTool::racecheck).words;
        const SimModule& module = launch_.module;
        const std::uintptr_t first_word = block.shared_begin / 4;
        words.resize((block.shared_begin + module.thread_local_bytes() + 3) / 4 - first_word);
        for (const auto& variable : module.shared_variables()) {
            const std::uintptr_t begin = block.shared_begin + variable.offset;
            const std::size_t used = variable.dynamic ? launch_.dynamic_shared_bytes : variable.size;
            const std::size_t first = begin / 4 - first_word;
            const std::size_t end = std::min(words.size(), (begin + used + 3) / 4 - first_word);
            if (first < end) std::fill(words.begin() + first, words.begin() + end, ShadowWord{});
        }
    }

    void fence(const AccessSite& site) override { clock_.fence(site.block.linear); }

    Verdict global_access(const AccessSite& site, const GlobalRange& range, const Access& access) override {
        const GlobalShadow& shadow = *shadows_[range.index];
        observe_words(site, access, "__global__",
                      [&](std::uintptr_t word, const ShadowAccess& now, const AccessAgent& agent) {
                          std::atomic<std::uint8_t>& lock = shadow.lock(word);
                          while (lock.exchange(1, std::memory_order_acquire)) spin_pause();
                          const auto race = observe(shadow.word(word), now, agent, access.writes(), clock_);
                          lock.store(0, std::memory_order_release);
                          return race;
                      });
        return Verdict::proceed;
    }

    // A block's shared memory is touched by one worker at a time: no lock.
    Verdict shared_access(const AccessSite& site, const SharedArea&, const Access& access) override {
        ShadowWord* words = site.block.made_state<SharedShadow>(CheckTool::racecheck).words.data();
        const std::uintptr_t first_word = site.block.shared_begin / 4;
        observe_words(site, access, "__shared__",
                      [&](std::uintptr_t word, const ShadowAccess& now, const AccessAgent& agent) {
                          return observe(words[word / 4 - first_word], now, agent, access.writes(), clock_);
                      });
        return Verdict::proceed;
    }

private:
    // Each 4-byte word the access touches, observed in its shadow by `observe_word`.
    template <class ObserveWord>
    void observe_words(const AccessSite& site, const Access& access, const char* space, ObserveWord&& observe_word) {
        // An atomic advances the launch's sync clock; what a thread did before its latest atomic
        // is what others may see published (race_shadow.hpp).
        std::uint32_t time;
        if (access.atomic()) {
            time = site.thread_state.last_atomic = clock_.tick();
        } else {
            time = clock_.now();
        }
        const AccessAgent agent{site.block.linear, site.thread_linear, site.block_generation, site.warp_generation,
                                site.thread_state.last_atomic};
        const ShadowAccess now = shadow_access(
            agent, access.atomic(),
            static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(access.pc) - launch_.module.base()), time);
        for (std::uintptr_t word = access.address & ~std::uintptr_t{3}; word < access.address + access.size;
             word += 4) {
            if (const std::optional<Race> race = observe_word(word, now, agent)) [[unlikely]]
                report(site, *race, word, access, space);
        }
    }

    void report(const AccessSite& site, const Race& race, std::uintptr_t word_address, const Access& access,
                const char* space) {
        launch_.log.at_access(access.pc, concat("race ", race.kind, " ", space), [&] {
            const UnpackedAgent earlier = unpack(race.earlier);
            Hazard hazard = launch_.log.hazard(CheckTool::racecheck, site.block.index, site.thread);
            hazard.what = concat("Race (", race.kind, ") on ", space, " memory");
            hazard.address = word_address;
            hazard.size = 4;
            hazard.is_write = access.writes();
            const bool other_block = earlier.block != site.block.linear % (std::uint64_t{1} << 24);
            hazard.detail = concat("both touch the 4 bytes at ", hex(word_address),
                                   other_block ? " from different blocks, which nothing orders"
                                               : " with no __syncthreads (or warp synchronisation) between them");
            hazard.other_access = race.earlier_is_write ? "Write" : "Read";
            hazard.other_block = other_block ? dim(index_of(earlier.block, launch_.grid)) : hazard.block;
            hazard.other_thread = dim(index_of(earlier.thread, launch_.block));
            // The shadow keeps the earlier instruction as its offset in the module's image.
            const auto* other_pc = reinterpret_cast<const void*>(launch_.module.base() + race.earlier.pc);
            return HazardLog::AtAccess{std::move(hazard), other_pc};
        });
    }

    const LaunchInfo& launch_;
    SyncClock clock_;
    std::vector<std::unique_ptr<GlobalShadow>> shadows_;  // one per range of LaunchInfo::ranges
};

}  // namespace

constinit const ToolDefinition racecheck_tool =
    define_tool<Racecheck>(CheckTool::racecheck, "racecheck", {.accesses = Accesses::every, .every_store = true});

}  // namespace gpukit::detail::sim::check
