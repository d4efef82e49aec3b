// src/backends/sim/check/launch_checker.cpp: check mode's dispatcher for one launch: what its tools
// share, and each access handed to the tools that judge it.
#include "backends/sim/check/launch_checker.hpp"

#include <algorithm>
#include <atomic>

#include "backends/sim/check/tools.hpp"

namespace gpukit::detail::sim::check {

namespace {

std::uint64_t next_serial() {
    static std::atomic<std::uint64_t> launches{0};
    return ++launches;
}

}  // namespace

LaunchChecker::LaunchChecker(const SimModule& module, std::string kernel, CheckTools tools, gpukit_sim::Index3 grid,
                             gpukit_sim::Index3 block, std::size_t dynamic_shared_bytes)
    : module_(module),
      needs_(needs_of(tools)),
      dynamic_shared_bytes_(dynamic_shared_bytes),
      shared_extent_(module.thread_local_bytes()),
      allocations_(AllocationTable::instance().snapshot()),
      serial_(next_serial()),
      log_(module, std::move(kernel)),
      info_{module, grid, block, dynamic_shared_bytes, {}, log_} {
    for (const auto& allocation : allocations_.allocations)
        ranges_.push_back({allocation.address, allocation.address + allocation.size, &allocation, 0});
    for (const auto& [begin, end] : module.segments()) ranges_.push_back({begin, end, nullptr, 0});
    std::sort(ranges_.begin(), ranges_.end(),
              [](const GlobalRange& a, const GlobalRange& b) { return a.begin < b.begin; });
    for (std::size_t i = 0; i < ranges_.size(); ++i) ranges_[i].index = i;
    info_.ranges = ranges_;

    static_assert(sizeof(std::atomic<bool>) == sizeof(bool) && std::atomic<bool>::is_always_lock_free);
    for (const auto& range : ranges_) {
        const bool* written = needs_.unwritten_allocations && range.allocation && range.allocation->written
                                  ? reinterpret_cast<const bool*>(&range.allocation->written->whole)
                                  : nullptr;
        filter_ranges_.push_back({range.begin, range.end, written});
    }
    filter_.judge_nothing = needs_.accesses == Accesses::none;
    filter_.call_always = needs_.accesses == Accesses::every;
    filter_.range_count = static_cast<unsigned>(filter_ranges_.size());
    filter_.ranges = filter_ranges_.data();

    for (const ToolDefinition* definition : tool_definitions()) {
        if (!tools.contains(definition->tool)) continue;
        Tool* tool = tools_.emplace_back(definition->make(info_)).get();
        for (std::size_t hook = 0; hook < hook_count; ++hook) {
            if (!definition->hooks.contains(static_cast<Hook>(hook))) continue;
            Takers& takers = takers_[hook];
            takers.tools[takers.count++] = tool;
        }
        hooks_ |= definition->hooks;
    }
}

LaunchChecker::~LaunchChecker() = default;

const gpukit_sim::AccessFilter& LaunchChecker::block_starts(BlockSite& block) {
    for (Tool* tool : tools_for(Hook::block_starts)) tool->block_starts(block);
    // Made once per launch on each worker: neither the launch's ranges nor this worker's copy of
    // the __shared__ variables move.
    if (block.filter_launch == serial_) return block.filter;
    block.filter_launch = serial_;
    block.filter_ranges.assign(filter_ranges_.begin(), filter_ranges_.end());
    // A range whose `written` stays false sends every access to it to the runtime.
    static const bool never_written = false;
    for (const auto& variable : module_.shared_variables()) {
        const std::uintptr_t begin = block.shared_begin + variable.offset;
        const std::size_t size = variable.dynamic ? dynamic_shared_bytes_ : variable.size;
        if (size)
            block.filter_ranges.push_back({begin, begin + size, needs_.every_shared_access ? &never_written : nullptr});
    }
    std::sort(block.filter_ranges.begin(), block.filter_ranges.end(),
              [](const gpukit_sim::AccessRange& a, const gpukit_sim::AccessRange& b) { return a.begin < b.begin; });
    block.filter = filter_;
    block.filter.range_count = static_cast<unsigned>(block.filter_ranges.size());
    block.filter.ranges = block.filter_ranges.data();
    return block.filter;
}

const GlobalRange* LaunchChecker::range_of(std::uintptr_t address, std::size_t size) const {
    auto it = std::upper_bound(ranges_.begin(), ranges_.end(), address,
                               [](std::uintptr_t a, const GlobalRange& range) { return a < range.begin; });
    if (it == ranges_.begin()) return nullptr;
    --it;
    return address + size <= it->end ? &*it : nullptr;
}

Verdict LaunchChecker::check(const AccessSite& site, const Access& access) {
    if (access.flags & gpukit_sim::access_fence) {
        for (Tool* tool : tools_for(Hook::fence)) tool->fence(site);
        return Verdict::proceed;
    }
    const std::uintptr_t address = access.address;
    const std::size_t size = access.size;
    // Local memory: the simulated thread's own stack.
    if (address >= site.stack_begin && address + size <= site.stack_end) return Verdict::proceed;
    // The block's built-in variables.
    const auto context = reinterpret_cast<std::uintptr_t>(site.block.context);
    if (address >= context && address + size <= context + sizeof(gpukit_sim::BlockContext)) return Verdict::proceed;

    if (address - site.block.shared_begin < shared_extent_) {
        for (const auto& variable : module_.shared_variables()) {
            const std::uintptr_t begin = site.block.shared_begin + variable.offset;
            if (address < begin || address >= begin + variable.size) continue;
            const SharedArea area{variable, begin, begin + (variable.dynamic ? dynamic_shared_bytes_ : variable.size)};
            if (address + size <= area.end)
                return ask(Hook::shared_access, [&](Tool& tool) { return tool.shared_access(site, area, access); });
            return ask(Hook::shared_overrun, [&](Tool& tool) { return tool.shared_overrun(site, area, access); });
        }
    }
    if (const GlobalRange* range = range_of(address, size))
        return ask(Hook::global_access, [&](Tool& tool) { return tool.global_access(site, *range, access); });
    return ask(Hook::stray_access, [&](Tool& tool) { return tool.stray_access(site, access); });
}

}  // namespace gpukit::detail::sim::check
