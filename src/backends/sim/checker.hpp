// src/backends/sim/checker.hpp: check mode's judgement of each memory access of a launch.
//
// memcheck: an access is fine inside the simulated thread's own stack (local memory), inside one
// of the block's __shared__ variables (the dynamic buffer only up to the bytes the launch asked
// for), inside a live device allocation, inside the module's globals, or in the block's context.
// Anything else is reported with the nearest allocation, and the thread stops before the access.
//
// The allocations are read once, when the launch starts: an access then costs a search of a
// small sorted array, not a lock shared by every worker.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "backends/sim/allocations.hpp"
#include "backends/sim/prelude/gpukit_sim_abi.h"
#include "backends/sim/race_detector.hpp"
#include "backends/sim/sim_module.hpp"
#include "gpukit/check.hpp"

namespace gpukit::detail::sim {

// Where the accessing thread stands: what the runtime knows of it at the access.
struct AccessSite {
    gpukit_sim::Index3 block;
    gpukit_sim::Index3 thread;
    std::uintptr_t stack_begin;  // the simulated thread's stack region
    std::uintptr_t stack_end;
    std::uintptr_t shared_begin;  // this worker's copy of the module's thread-local block
    const void* block_context;
    // racecheck
    AccessAgent agent;
    std::uint32_t time;         // the sync clock at this access
    ShadowWord* shared_shadow;  // one word per 4 bytes from shared_begin; null without racecheck
    // initcheck: per byte from shared_begin, the serial of the block run that last wrote it
    std::uint32_t* shared_written;  // null without initcheck
    std::uint32_t shared_written_serial;
};

// racecheck's shadow of one range of global memory: a record and a spin lock per 4-byte word, in
// address space reserved for the whole range at once, which the kernel fills with zero pages
// (huge ones where it can) only where the launch touches it.
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

class LaunchChecker {
public:
    LaunchChecker(const SimModule& module, std::string kernel, CheckTools tools, gpukit_sim::Index3 grid,
                  gpukit_sim::Index3 block, std::size_t dynamic_shared_bytes);

    CheckTools tools() const noexcept { return tools_; }
    SyncClock& clock() noexcept { return clock_; }
    // What a kernel may judge by itself (see gpukit_sim::AccessFilter); lives as long as this.
    const gpukit_sim::AccessFilter& filter() const noexcept { return filter_; }
    // Tells launches apart, even one whose checker lands at the address of an earlier one's.
    std::uint64_t serial() const noexcept { return serial_; }
    // True when the access may happen; otherwise records the hazard.
    bool check(const AccessSite& site, std::uintptr_t address, std::size_t size, unsigned flags, const void* pc);
    // synccheck: a barrier or warp collective misused at `file:line` by `thread` of `block`.
    // `other_*` names the site it conflicts with. With `later_pc`, the hazard stands only if that
    // access's line comes after `line` in the same file (the thread went past the barrier).
    void record_sync(gpukit_sim::Index3 block, gpukit_sim::Index3 thread, std::string what, const char* file, int line,
                     std::string detail, const char* other_file = nullptr, int other_line = 0,
                     gpukit_sim::Index3 other_thread = {}, const void* later_pc = nullptr);
    // The distinct hazards found, with source lines resolved.
    std::vector<Hazard> hazards() const;

private:
    // Global memory a kernel may touch: a live allocation, or a segment of the module's image.
    struct Range {
        std::uintptr_t begin;
        std::uintptr_t end;
        const Allocation* allocation;  // null for the module's image
        std::unique_ptr<GlobalShadow> shadow;  // racecheck
    };
    const Range* range_of(std::uintptr_t address, std::size_t size) const;

    void record(const AccessSite& site, std::uintptr_t address, std::size_t size, unsigned flags, const void* pc,
                std::string what, std::string detail, CheckTool tool = CheckTool::memcheck);
    int check_shared(const AccessSite& site, std::uintptr_t address, std::size_t size, unsigned flags,
                      const void* pc);
    bool report_outside(const AccessSite& site, std::uintptr_t address, std::size_t size, unsigned flags,
                        const void* pc);
    void check_shared_initialised(const AccessSite& site, const SharedVariable& variable, std::uintptr_t variable_begin,
                                  std::uintptr_t address, std::size_t size, unsigned flags, const void* pc);
    void check_global_initialised(const AccessSite& site, const Allocation& allocation, std::uintptr_t address,
                                  std::size_t size, unsigned flags, const void* pc);
    void check_races(const AccessSite& site, const Range* range, std::uintptr_t address, std::size_t size,
                     unsigned flags, const void* pc);
    void report_race(const AccessSite& site, const Race& race, std::uintptr_t word_address, bool is_write,
                     const char* space, const void* pc);

    const SimModule& module_;
    std::string kernel_;
    CheckTools tools_;
    bool memcheck_, racecheck_, initcheck_;
    gpukit_sim::Index3 grid_, block_dim_;
    std::size_t dynamic_shared_bytes_;
    std::size_t shared_extent_;  // bytes of the thread-local block the shared variables span
    AllocationTable::Snapshot allocations_;
    std::vector<Range> ranges_;  // by address
    SyncClock clock_;
    std::vector<gpukit_sim::AccessRange> filter_ranges_;
    gpukit_sim::AccessFilter filter_{};
    std::uint64_t serial_;

    mutable std::mutex mutex_;
    std::map<std::tuple<const void*, std::string>, Hazard> hazards_;  // by (pc, what)
    std::map<std::tuple<const void*, std::string>, const void*> pcs_;
    std::map<std::tuple<const void*, std::string>, const void*> other_pcs_;  // racecheck's earlier access
    // synccheck's, by (file, line, what, the access that decides whether it stands)
    std::map<std::tuple<std::string, int, std::string, const void*>, Hazard> sync_hazards_;
};

}  // namespace gpukit::detail::sim
