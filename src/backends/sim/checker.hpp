// src/backends/sim/checker.hpp: check mode's judgement of each memory access of a launch.
//
// memcheck: an access is fine inside the simulated thread's own stack (local memory), inside one
// of the block's __shared__ variables (the dynamic buffer only up to the bytes the launch asked
// for), inside a live device allocation, inside the module's globals, or in the block's context.
// Anything else is reported with the nearest allocation, and the thread stops before the access.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

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
    RaceWord* shared_shadow;       // one word per 4 bytes from shared_begin; null without racecheck
    std::size_t shared_shadow_words;
    std::uint64_t shared_serial;   // the block run the shared shadow belongs to
    // initcheck: per byte from shared_begin, the serial of the block run that last wrote it
    std::uint32_t* shared_written;  // null without initcheck
    std::uint32_t shared_written_serial;
};

class LaunchChecker {
public:
    LaunchChecker(const SimModule& module, std::string kernel, CheckTool tools, std::size_t dynamic_shared_bytes);

    CheckTool tools() const noexcept { return tools_; }
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
    void record(const AccessSite& site, std::uintptr_t address, std::size_t size, unsigned flags, const void* pc,
                std::string what, std::string detail, CheckTool tool = CheckTool::memcheck);
    void check_shared_initialised(const AccessSite& site, const SharedVariable& variable, std::uintptr_t variable_begin,
                                  std::uintptr_t address, std::size_t size, unsigned flags, const void* pc);
    void check_races(const AccessSite& site, RaceWord* shadow, std::uint64_t serial, const char* space,
                     std::uintptr_t address, std::size_t size, unsigned flags, const void* pc);
    void check_global_races(const AccessSite& site, std::uintptr_t address, std::size_t size, unsigned flags,
                            const void* pc);

    const SimModule& module_;
    std::string kernel_;
    CheckTool tools_;
    std::size_t dynamic_shared_bytes_;
    mutable std::mutex mutex_;
    std::map<std::tuple<const void*, std::string>, Hazard> hazards_;  // by (pc, what)
    std::map<std::tuple<const void*, std::string>, const void*> pcs_;
    std::map<std::tuple<const void*, std::string>, const void*> other_pcs_;  // racecheck's earlier access
    // synccheck's, by (file, line, what, the access that decides whether it stands)
    std::map<std::tuple<std::string, int, std::string, const void*>, Hazard> sync_hazards_;

    // Global memory's race shadow, sharded by address so that workers rarely wait on each other.
    static constexpr std::size_t shards = 64;
    struct Shard {
        std::mutex mutex;
        std::unordered_map<std::uintptr_t, RaceWord> words;
    };
    std::unique_ptr<Shard[]> global_shadow_;
};

}  // namespace gpukit::detail::sim
