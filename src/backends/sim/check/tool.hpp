// src/backends/sim/check/tool.hpp: the interface a check-mode tool implements, and what the
// dispatcher (LaunchChecker) and the block runner tell it.
//
// A tool is a row of gpukit/check_tools.def and a file in this folder that defines `<row>_tool`
// (declared in check/tools.hpp): what it needs from the compiler and from the kernel's access
// filter, and how to make its Tool for one launch. A Tool sees the launch through hooks: the
// accesses the filter lets through to the runtime, block starts, and what the block runner sees
// of barriers and warp collectives. Only the hooks a tool's class overrides are called
// (define_tool finds them), so a hook no active tool takes costs nothing.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "backends/sim/allocations.hpp"
#include "backends/sim/prelude/gpukit_sim_abi.h"
#include "backends/sim/sim_module.hpp"
#include "gpukit/check.hpp"

namespace gpukit::detail::sim::check {

class HazardLog;

inline constexpr std::size_t tool_count = std::size(check_tool_table);

// Whether an access may happen: `stop` ends the simulated thread before it.
enum class Verdict : bool { stop = false, proceed = true };

// One memory access a kernel is about to make.
struct Access {
    std::uintptr_t address;
    std::size_t size;
    unsigned flags;  // gpukit_sim::AccessFlags
    const void* pc;  // the instruction after it

    bool writes() const noexcept { return (flags & gpukit_sim::access_write) != 0; }
    bool atomic() const noexcept { return (flags & gpukit_sim::access_atomic) != 0; }
    // A plain read, or an atomic: it modifies what it reads.
    bool reads() const noexcept { return !writes() || atomic(); }
};

// Global memory a kernel may touch: a live allocation, or a variable of the module's image.
struct GlobalRange {
    std::uintptr_t begin;
    std::uintptr_t end;
    const Allocation* allocation;          // null for a variable
    const ModuleVariable* variable;        // null for an allocation
    std::shared_ptr<const void> lifetime;  // an allocation's: expires once it is freed and no launch holds it
    std::size_t index;                     // in LaunchInfo::ranges
};

// One __shared__ variable in the worker's copy of them: the launch may use [begin, end), which is
// less than the variable for the dynamic buffer (only the bytes the launch asked for).
struct SharedArea {
    const SharedVariable& variable;
    std::uintptr_t begin;
    std::uintptr_t end;
};

// What every tool of one launch shares; lives as long as the launch's tools.
struct LaunchInfo {
    const SimModule& module;
    gpukit_sim::Index3 grid;
    gpukit_sim::Index3 block;
    std::size_t dynamic_shared_bytes;
    std::span<const GlobalRange> ranges;  // by address
    HazardLog& log;
};

// What a tool keeps on one worker from block to block and from launch to launch (racecheck's
// shadow of the worker's __shared__ memory), so that a block starts without allocating.
class WorkerState {
public:
    virtual ~WorkerState() = default;
};

// The block a worker runs, as the tools see it. The block runner keeps one per worker and fills it
// in at each block; what the tools and the dispatcher keep in it outlives the block.
struct BlockSite {
    gpukit_sim::Index3 index{};
    std::uint64_t linear = 0;
    std::uintptr_t shared_begin = 0;              // the worker's copy of the module's __shared__ variables
    gpukit_sim::BlockContext* context = nullptr;  // the tools keep its check-mode fields up to date
    std::array<std::unique_ptr<WorkerState>, tool_count> states;  // by CheckTool

    // The dispatcher's: the launch's filter with this worker's __shared__ variables added.
    std::vector<gpukit_sim::AccessRange> filter_ranges;
    std::array<const gpukit_sim::AccessRange*, gpukit_sim::kRangeCacheSize> range_cache{};
    gpukit_sim::AccessFilter filter{};
    std::uint64_t filter_launch = 0;  // the launch serial `filter` was made for

    // `tool`'s state on this worker, made at its first block here.
    template <class State>
    State& state(CheckTool tool) {
        auto& slot = states[static_cast<std::size_t>(tool)];
        if (!slot) slot = std::make_unique<State>();
        return static_cast<State&>(*slot);
    }
    // The same, on the access path: made already, by the tool's block_starts.
    template <class State>
    State& made_state(CheckTool tool) const {
        return static_cast<State&>(*states[static_cast<std::size_t>(tool)]);
    }
};

// What the tools keep per simulated thread, zero when it starts; the block runner keeps it with
// the thread.
struct ThreadState {
    std::uint32_t last_atomic = 0;  // racecheck: the launch's sync clock at the thread's latest atomic
};

// Where the accessing thread stands.
struct AccessSite {
    BlockSite& block;
    const gpukit_sim::ThreadContext& context;
    gpukit_sim::Index3 thread;
    unsigned thread_linear;
    unsigned block_generation;   // block barriers the block has completed
    unsigned warp_generation;    // collectives the thread's warp has completed
    std::uintptr_t stack_begin;  // the simulated thread's stack region
    std::uintptr_t stack_end;
    ThreadState& thread_state;
};

// A thread at a block barrier or in a warp collective.
struct SyncSite {
    gpukit_sim::Index3 thread;
    unsigned lane;
    const char* file;
    int line;
    int kind;       // gpukit_sim::BarrierKind or gpukit_sim::WarpKind
    unsigned mask;  // a collective's, as the kernel passed it
};

// One tool's work on one launch.
class Tool {
public:
    virtual ~Tool() = default;

    // A worker starts a block of the launch.
    virtual void block_starts(BlockSite&) {}

    // ---- The kernel's filter (gpukit_sim::AccessFilter), made once per launch: a tool that judges
    // accesses in the kernel hands it its records.

    // The launch's global ranges, in LaunchInfo::ranges' order.
    virtual void fill_filter(gpukit_sim::AccessFilter&, std::span<gpukit_sim::AccessRange> /*global*/) {}
    // A worker's first block of the launch: the ranges of its copy of the __shared__ variables, in
    // `areas`' order.
    virtual void fill_shared_ranges(BlockSite&, std::span<const SharedArea> /*areas*/,
                                    std::span<gpukit_sim::AccessRange> /*ranges*/) {}

    // ---- Accesses that reach the runtime (which ones: ToolNeeds::accesses). The tools see an
    // access in CheckTool's order; the first that answers `stop` ends the thread before it, and
    // the tools after it do not see it.

    // A __threadfence: what the thread wrote before it is published.
    virtual void fence(const AccessSite&) {}
    // Inside a live allocation or the module's image.
    virtual Verdict global_access(const AccessSite&, const GlobalRange&, const Access&) { return Verdict::proceed; }
    // Inside the part of a __shared__ variable the launch may use.
    virtual Verdict shared_access(const AccessSite&, const SharedArea&, const Access&) { return Verdict::proceed; }
    // Outside the part of a __shared__ variable the launch may use: past it (the dynamic buffer),
    // or in the red zone around the variable (red_zones.hpp), which is no variable's.
    virtual Verdict shared_overrun(const AccessSite&, const SharedArea&, const Access&) { return Verdict::proceed; }
    // Outside every variable, next to a variable of the source: in its red zone (red_zones.hpp)
    // or past it in the module's image, or before its start.
    virtual Verdict variable_overrun(const AccessSite&, const ModuleVariable&, const Access&) {
        return Verdict::proceed;
    }
    // Neither the thread's stack, the block's context, shared nor global memory.
    virtual Verdict stray_access(const AccessSite&, const Access&) { return Verdict::proceed; }

    // ---- What the block runner sees of synchronisation.

    // A lane calls a warp collective with a mask that leaves the lane out (it takes part anyway).
    virtual void mask_without_lane(const BlockSite&, const SyncSite&) {}
    // A block barrier releases `thread`, which waited at another barrier than `first`, the first
    // thread to arrive.
    virtual void barrier_divergence(const BlockSite&, const SyncSite& /*thread*/, const SyncSite& /*first*/) {}
    // A collective completes for `reader`, whose mask names lane `source`, which has returned.
    virtual void returned_lane_read(const BlockSite&, const SyncSite& /*reader*/, unsigned /*source*/) {}
    // `thread` returns while `waiting` threads wait at a block barrier, `first` the first of them.
    // `last_access`: the instruction after the thread's latest memory access; null: none.
    virtual void return_during_barrier(const BlockSite&, gpukit_sim::Index3 /*thread*/, const void* /*last_access*/,
                                       const SyncSite& /*first*/, unsigned /*waiting*/) {}
};

// Tool's hooks, to tell which ones a tool takes.
enum class Hook : unsigned {
    block_starts,
    fill_filter,
    fill_shared_ranges,
    fence,
    global_access,
    shared_access,
    shared_overrun,
    variable_overrun,
    stray_access,
    mask_without_lane,
    barrier_divergence,
    returned_lane_read,
    return_during_barrier,
};
inline constexpr std::size_t hook_count = 13;

class Hooks {
public:
    constexpr bool contains(Hook hook) const noexcept { return (bits_ & bit(hook)) != 0; }
    constexpr Hooks& operator|=(Hook hook) noexcept {
        bits_ |= bit(hook);
        return *this;
    }
    constexpr Hooks& operator|=(Hooks hooks) noexcept {
        bits_ |= hooks.bits_;
        return *this;
    }

private:
    static constexpr std::uint32_t bit(Hook hook) { return std::uint32_t{1} << static_cast<unsigned>(hook); }
    std::uint32_t bits_ = 0;
};

// The hooks `T` overrides: those its own class declares, for which `&T::hook` names a member of
// T rather than Tool's. A tool declares its overrides public.
template <class T>
constexpr Hooks hooks_of() {
    static_assert(std::is_base_of_v<Tool, T>);
    Hooks hooks;
    auto take = [&hooks](Hook hook, bool overridden) {
        if (overridden) hooks |= hook;
    };
    take(Hook::block_starts, !std::is_same_v<decltype(&T::block_starts), decltype(&Tool::block_starts)>);
    take(Hook::fill_filter, !std::is_same_v<decltype(&T::fill_filter), decltype(&Tool::fill_filter)>);
    take(Hook::fill_shared_ranges,
         !std::is_same_v<decltype(&T::fill_shared_ranges), decltype(&Tool::fill_shared_ranges)>);
    take(Hook::fence, !std::is_same_v<decltype(&T::fence), decltype(&Tool::fence)>);
    take(Hook::global_access, !std::is_same_v<decltype(&T::global_access), decltype(&Tool::global_access)>);
    take(Hook::shared_access, !std::is_same_v<decltype(&T::shared_access), decltype(&Tool::shared_access)>);
    take(Hook::shared_overrun, !std::is_same_v<decltype(&T::shared_overrun), decltype(&Tool::shared_overrun)>);
    take(Hook::variable_overrun, !std::is_same_v<decltype(&T::variable_overrun), decltype(&Tool::variable_overrun)>);
    take(Hook::stray_access, !std::is_same_v<decltype(&T::stray_access), decltype(&Tool::stray_access)>);
    take(Hook::mask_without_lane, !std::is_same_v<decltype(&T::mask_without_lane), decltype(&Tool::mask_without_lane)>);
    take(Hook::barrier_divergence,
         !std::is_same_v<decltype(&T::barrier_divergence), decltype(&Tool::barrier_divergence)>);
    take(Hook::returned_lane_read,
         !std::is_same_v<decltype(&T::returned_lane_read), decltype(&Tool::returned_lane_read)>);
    take(Hook::return_during_barrier,
         !std::is_same_v<decltype(&T::return_during_barrier), decltype(&Tool::return_during_barrier)>);
    return hooks;
}

// Which accesses reach the runtime, for a tool to judge.
enum class Accesses : std::uint8_t {
    none,      // none: the filter passes them all (the tool watches synchronisation only)
    unproven,  // those the kernel cannot judge: outside every known range, misaligned, fences, atomics,
               // and those its records send on (an uninitialised read, a possible race)
};

// What a tool needs from the compiler and from the kernel's filter (gpukit_sim::AccessFilter).
struct ToolNeeds {
    Accesses accesses = Accesses::none;
    // With `unproven`: every access to an allocation not yet written whole too.
    bool unwritten_allocations = false;
    // Every store the source makes kept, at -Og: from -O1 on, a store that the next thread of the
    // block loop overwrites is dropped (the course's block-wide __shared__ scratch array).
    bool every_store = false;
};

// A tool's entry in the table (check/tools.cpp), defined in the tool's own file as `<row>_tool`.
struct ToolDefinition {
    CheckTool tool;
    std::string_view name;  // the row's; the table's test compares them
    ToolNeeds needs;
    Hooks hooks;  // those the tools `make` makes take
    std::unique_ptr<Tool> (*make)(const LaunchInfo& launch);
    // A launch this tool does not watch, fast mode's included (null: nothing to do).
    void (*unwatched_launch)(std::span<const std::vector<unsigned char>> arguments);
};

// The definition of tool `T`, made with a LaunchInfo for each launch that asks for it.
template <class T>
constexpr ToolDefinition define_tool(CheckTool tool, std::string_view name, ToolNeeds needs,
                                     void (*unwatched_launch)(std::span<const std::vector<unsigned char>>) = nullptr) {
    return {tool,
            name,
            needs,
            hooks_of<T>(),
            [](const LaunchInfo& launch) -> std::unique_ptr<Tool> { return std::make_unique<T>(launch); },
            unwatched_launch};
}

}  // namespace gpukit::detail::sim::check
