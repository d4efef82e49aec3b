// src/backends/sim/check/launch_checker.hpp: check mode's dispatcher for one launch: what its tools
// share, and each access handed to the tools that judge it.
//
// Most accesses never get here: the kernel judges them with the filter and the records the tools
// hand it (gpukit_sim::AccessFilter). What does is fine without asking any tool inside the
// simulated thread's own stack (local memory) or the block's context. Otherwise it is in one of
// the block's __shared__ variables (within or past the part the launch may use) or the red zone
// around one, in global memory (a live allocation or a variable of the module), next to a
// variable of the source in the module's image (in its red zone, most often), or in none of them,
// and the tools that take that hook judge it. The red zones (red_zones.hpp) are why an index run
// out of one variable is told from an access to its neighbour.
//
// The allocations are read once, when the launch starts: an access then costs a search of a
// small sorted array, not a lock shared by every worker.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backends/sim/allocations.hpp"
#include "backends/sim/check/hazard_log.hpp"
#include "backends/sim/check/tool.hpp"
#include "backends/sim/prelude/gpukit_sim_abi.h"
#include "backends/sim/sim_module.hpp"
#include "gpukit/check.hpp"

namespace gpukit::detail::sim::check {

class LaunchChecker {
public:
    LaunchChecker(const SimModule& module, std::string kernel, CheckTools tools, gpukit_sim::Index3 grid,
                  gpukit_sim::Index3 block, std::size_t dynamic_shared_bytes);
    ~LaunchChecker();
    LaunchChecker(const LaunchChecker&) = delete;
    LaunchChecker& operator=(const LaunchChecker&) = delete;

    // The hooks the launch's tools take: the block runner reports only those.
    Hooks hooks() const noexcept { return hooks_; }
    // The tools that take `hook`, in CheckTool's order.
    std::span<Tool* const> tools_for(Hook hook) const noexcept {
        const auto& takers = takers_[static_cast<std::size_t>(hook)];
        return {takers.tools.data(), takers.count};
    }

    // A worker starts a block (`block` filled in by the block runner): the tools set up what they
    // keep per block. Returns the filter the block's threads use: the launch's, with this
    // worker's __shared__ variables added.
    const gpukit_sim::AccessFilter& block_starts(BlockSite& block);

    // Whether the access may happen; the tools record what they find.
    Verdict check(const AccessSite& site, const Access& access);

    // The distinct hazards found, with source lines resolved.
    std::vector<Hazard> hazards() const { return log_.hazards(); }

private:
    struct Takers {
        std::array<Tool*, tool_count> tools{};
        std::size_t count = 0;
    };

    const GlobalRange* range_of(std::uintptr_t address, std::size_t size) const;
    // The source's variable an access outside every variable belongs to: the one whose red zone
    // it is in (red_zones.hpp) or it runs out of; else the nearer of its neighbours in the
    // segment (or, outside the image, within 64 KiB).
    const ModuleVariable* variable_next_to(std::uintptr_t address, std::size_t size) const;
    // Asks the tools that take `hook`, in order, until one stops the access.
    template <class Ask>
    Verdict ask(Hook hook, Ask&& ask) const {
        for (Tool* tool : tools_for(hook))
            if (ask(*tool) == Verdict::stop) return Verdict::stop;
        return Verdict::proceed;
    }

    const SimModule& module_;
    ToolNeeds needs_;
    std::size_t dynamic_shared_bytes_;
    std::size_t shared_extent_;  // bytes of the thread-local block the shared variables span
    AllocationTable::Snapshot allocations_;
    std::vector<GlobalRange> ranges_;  // by address
    std::vector<gpukit_sim::AccessRange> filter_ranges_;
    gpukit_sim::AccessFilter filter_{};
    std::uint64_t serial_;  // tells launches apart, even one whose checker lands at an earlier one's address
    HazardLog log_;
    LaunchInfo info_;
    std::vector<std::unique_ptr<Tool>> tools_;
    std::array<Takers, hook_count> takers_{};
    Hooks hooks_;
};

}  // namespace gpukit::detail::sim::check
