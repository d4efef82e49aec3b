// src/backends/sim/check/racecheck.cpp: racecheck: two threads touch a common byte, one writes, and
// nothing orders them, in shared or global memory.
//
// Every store the source makes survives (-Og), and every access is recorded in the cell of each
// word it touches (check/race_shadow.hpp): the block's cells of shared memory, or the global
// range's. The kernel records most accesses itself; those it cannot prove ordered, atomics and
// fences come here, where the ordering across blocks is judged and races are reported.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "backends/sim/check/hazard_log.hpp"
#include "backends/sim/check/race_shadow.hpp"
#include "backends/sim/check/tools.hpp"
#include "util/text.hpp"

namespace gpukit::detail::sim::check {

namespace {

// The index, x fastest, of the `linear`-th element of a grid or block of extent `extent`.
gpukit_sim::Index3 index_of(std::uint64_t linear, gpukit_sim::Index3 extent) {
    return {static_cast<unsigned>(linear % extent.x), static_cast<unsigned>(linear / extent.x % extent.y),
            static_cast<unsigned>(linear / (std::uint64_t{extent.x} * extent.y))};
}

// The cells of a worker's __shared__ memory: one per 4 bytes from the worker's copy of the
// variables, aligned to 4 bytes in memory whatever the alignment of the thread-local block.
struct SharedShadow final : WorkerState {
    std::vector<gpukit_sim::SharedRaceCell> cells;
};

class Racecheck final : public Tool {
public:
    explicit Racecheck(const LaunchInfo& launch)
        : launch_(launch), store_(ShadowStore::instance()), launch_time_(store_.start_launch()) {
        shadows_.reserve(launch.ranges.size());
        for (const auto& range : launch.ranges)
            shadows_.push_back(range.lifetime ? store_.acquire(range.begin, range.end, range.lifetime)
                                              : std::make_shared<GlobalShadow>(range.begin, range.end));
    }
    ~Racecheck() override {
        for (const auto& shadow : shadows_) store_.release(shadow);
        store_.end_launch();
    }
    Racecheck(const Racecheck&) = delete;
    Racecheck& operator=(const Racecheck&) = delete;

    // The block's cells of shared memory start empty; only the bytes this launch can use are
    // cleared (the dynamic buffer's capacity is far larger than a launch asks for). Its threads'
    // records name the block and start from the clock now.
    void block_starts(BlockSite& block) override {
        auto& cells = block.state<SharedShadow>(CheckTool::racecheck).cells;
        const SimModule& module = launch_.module;
        const std::uintptr_t first_word = block.shared_begin / 4;
        cells.resize((block.shared_begin + module.thread_local_bytes() + 3) / 4 - first_word);
        for (const auto& variable : module.shared_variables()) {
            const std::uintptr_t begin = block.shared_begin + variable.offset;
            const std::size_t used = variable.dynamic ? launch_.dynamic_shared_bytes : variable.size;
            const std::size_t first = begin / 4 - first_word;
            const std::size_t end = std::min(cells.size(), (begin + used + 3) / 4 - first_word);
            if (first < end) std::fill(cells.begin() + first, cells.begin() + end, gpukit_sim::SharedRaceCell{});
        }
        block.context->who_base =
            gpukit_sim::race_valid | gpukit_sim::race_field(block.linear, 0, gpukit_sim::race_block_bits)
                                         << gpukit_sim::race_block_shift;
        block.context->sync_time = store_.clock().now();
    }

    void fill_filter(gpukit_sim::AccessFilter& filter, std::span<gpukit_sim::AccessRange> ranges) override {
        filter.launch_time = launch_time_;
        for (std::size_t i = 0; i < ranges.size(); ++i) ranges[i].race_cells = shadows_[i]->cell(ranges[i].begin);
    }

    void fill_shared_ranges(BlockSite& block, std::span<const SharedArea>,
                            std::span<gpukit_sim::AccessRange> ranges) override {
        auto& cells = block.made_state<SharedShadow>(CheckTool::racecheck).cells;
        for (auto& range : ranges) range.race_cells = &cells[range.begin / 4 - block.shared_begin / 4];
    }

    void fence(const AccessSite& site) override {
        site.block.context->sync_time = store_.clock().fence(site.block.linear);
    }

    Verdict global_access(const AccessSite& site, const GlobalRange& range, const Access& access) override {
        const GlobalShadow& shadow = *shadows_[range.index];
        observe_words(site, access, "__global__",
                      [&](std::uintptr_t word, const gpukit_sim::RaceAccess& now, const RaceJudge& judge, Race& race) {
                          return observe_global(*shadow.cell(word), now, judge, race);
                      });
        return Verdict::proceed;
    }

    // A block's shared memory is touched by one worker at a time: no lock.
    Verdict shared_access(const AccessSite& site, const SharedArea&, const Access& access) override {
        gpukit_sim::SharedRaceCell* cells = site.block.made_state<SharedShadow>(CheckTool::racecheck).cells.data();
        const std::uintptr_t first_word = site.block.shared_begin / 4;
        observe_words(site, access, "__shared__",
                      [&](std::uintptr_t word, const gpukit_sim::RaceAccess& now, const RaceJudge& judge, Race& race) {
                          return observe_shared(cells[word / 4 - first_word], now, judge, race);
                      });
        return Verdict::proceed;
    }

private:
    // Each 4-byte word the access touches, observed in its cell by `observe_word`.
    template <class ObserveWord>
    void observe_words(const AccessSite& site, const Access& access, const char* space, ObserveWord&& observe_word) {
        // An atomic advances the clock; what a thread did before its latest atomic is what others
        // may see published (race_shadow.hpp).
        std::uint32_t time = site.block.context->sync_time;
        if (access.atomic()) {
            time = site.thread_state.last_atomic = site.block.context->sync_time = store_.clock().tick();
        }
        const RaceJudge judge{store_.clock(), site.thread_state.last_atomic};
        gpukit_sim::RaceAccess now{site.context.race_who | (access.atomic() ? gpukit_sim::race_atomic : 0),
                                   0,
                                   0,
                                   access.writes(),
                                   access.atomic(),
                                   launch_time_};
        const auto pc_offset = reinterpret_cast<std::uintptr_t>(access.pc) - launch_.module.base();
        for (std::uintptr_t word = access.address & ~std::uintptr_t{3}; word < access.address + access.size;
             word += 4) {
            now.bytes = gpukit_sim::race_word_bytes(word, access.address, access.size);
            now.meta = gpukit_sim::race_meta(time, now.bytes, pc_offset);
            Race race{};
            if (observe_word(word, now, judge, race)) [[unlikely]]
                report(site, race, word, now.bytes, access, space);
        }
    }

    void report(const AccessSite& site, const Race& race, std::uintptr_t word, unsigned bytes, const Access& access,
                const char* space) {
        launch_.log.at_access(access.pc, concat("race ", race.kind, " ", space), [&] {
            const RaceAgent earlier = agent_of(race.earlier.who);
            const unsigned common = bytes & gpukit_sim::race_bytes(race.earlier.meta);
            const unsigned first = static_cast<unsigned>(__builtin_ctz(common));
            const auto count = static_cast<std::size_t>(__builtin_popcount(common));
            Hazard hazard = launch_.log.hazard(CheckTool::racecheck, site.block.index, site.thread);
            hazard.what = concat("Race (", race.kind, ") on ", space, " memory");
            hazard.address = word + first;
            hazard.size = count;
            hazard.is_write = access.writes();
            const bool other_block = earlier.block != site.block.linear % (std::uint64_t{1} << 24);
            hazard.detail = concat("both touch ", count == 1 ? "the byte" : concat("the ", count, " bytes"), " at ",
                                   hex(word + first),
                                   other_block ? " from different blocks, which nothing orders"
                                               : " with no __syncthreads (or warp synchronisation) between them");
            hazard.other_access = race.earlier_is_write ? "Write" : "Read";
            hazard.other_block = other_block ? dim(index_of(earlier.block, launch_.grid)) : hazard.block;
            hazard.other_thread = dim(index_of(earlier.thread, launch_.block));
            // The records keep the earlier instruction as its offset in the module's image.
            const auto pc_offset = race.earlier.meta >> gpukit_sim::race_pc_shift;
            const auto* other_pc = reinterpret_cast<const void*>(launch_.module.base() + pc_offset);
            return HazardLog::AtAccess{std::move(hazard), other_pc};
        });
    }

    const LaunchInfo& launch_;
    ShadowStore& store_;
    std::uint32_t launch_time_;
    std::vector<std::shared_ptr<GlobalShadow>> shadows_;  // one per range of LaunchInfo::ranges
};

}  // namespace

constinit const ToolDefinition racecheck_tool =
    define_tool<Racecheck>(CheckTool::racecheck, "racecheck", {.accesses = Accesses::unproven, .every_store = true});

}  // namespace gpukit::detail::sim::check
