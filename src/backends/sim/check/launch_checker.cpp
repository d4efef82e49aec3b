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
    for (std::size_t i = 0; i < allocations_.allocations.size(); ++i) {
        const Allocation& allocation = allocations_.allocations[i];
        ranges_.push_back({allocation.address, allocation.address + allocation.size, &allocation, nullptr,
                           allocations_.keep_alive[i], 0});
    }
    // The runtime's objects in the image are no kernel data: an access there is out of bounds of
    // the variable next to it.
    for (const auto& variable : module.variables())
        if (variable.space != ModuleVariable::Space::runtime)
            ranges_.push_back({variable.begin, variable.end, nullptr, &variable, nullptr, 0});
    std::sort(ranges_.begin(), ranges_.end(),
              [](const GlobalRange& a, const GlobalRange& b) { return a.begin < b.begin; });
    for (std::size_t i = 0; i < ranges_.size(); ++i) ranges_[i].index = i;
    info_.ranges = ranges_;

    static_assert(sizeof(std::atomic<bool>) == sizeof(bool) && std::atomic<bool>::is_always_lock_free);
    for (const auto& range : ranges_) {
        const bool* written = needs_.unwritten_allocations && range.allocation && range.allocation->written
                                  ? reinterpret_cast<const bool*>(&range.allocation->written->whole)
                                  : nullptr;
        filter_ranges_.push_back({range.begin, range.end, written, nullptr, nullptr, gpukit_sim::range_global});
    }
    filter_.judge_nothing = needs_.accesses == Accesses::none;
    filter_.range_count = static_cast<unsigned>(filter_ranges_.size());
    filter_.ranges = filter_ranges_.data();
    filter_.pc_base = module.base();

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
    for (Tool* tool : tools_for(Hook::fill_filter)) tool->fill_filter(filter_, filter_ranges_);
}

LaunchChecker::~LaunchChecker() = default;

const gpukit_sim::AccessFilter& LaunchChecker::block_starts(BlockSite& block) {
    for (Tool* tool : tools_for(Hook::block_starts)) tool->block_starts(block);
    // Made once per launch on each worker: neither the launch's ranges nor this worker's copy of
    // the __shared__ variables move, nor the records the tools keep of them.
    if (block.filter_launch == serial_) return block.filter;
    block.filter_launch = serial_;
    block.filter_ranges.assign(filter_ranges_.begin(), filter_ranges_.end());
    std::vector<SharedArea> areas;
    std::vector<gpukit_sim::AccessRange> shared;
    for (const auto& variable : module_.shared_variables()) {
        const std::uintptr_t begin = block.shared_begin + variable.offset;
        const std::size_t size = variable.dynamic ? dynamic_shared_bytes_ : variable.size;
        if (!size) continue;
        areas.push_back({variable, begin, begin + size});
        shared.push_back({begin, begin + size, nullptr, nullptr, nullptr, gpukit_sim::range_shared});
    }
    for (Tool* tool : tools_for(Hook::fill_shared_ranges)) tool->fill_shared_ranges(block, areas, shared);
    block.filter_ranges.insert(block.filter_ranges.end(), shared.begin(), shared.end());
    std::sort(block.filter_ranges.begin(), block.filter_ranges.end(),
              [](const gpukit_sim::AccessRange& a, const gpukit_sim::AccessRange& b) { return a.begin < b.begin; });
    block.filter = filter_;
    block.filter.range_count = static_cast<unsigned>(block.filter_ranges.size());
    block.filter.ranges = block.filter_ranges.data();
    block.range_cache.fill(nullptr);
    block.filter.range_cache = block.range_cache.data();
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
        const auto area_of = [&](const SharedVariable& variable) {
            const std::uintptr_t begin = site.block.shared_begin + variable.offset;
            return SharedArea{variable, begin, begin + (variable.dynamic ? dynamic_shared_bytes_ : variable.size)};
        };
        for (const auto& variable : module_.shared_variables()) {
            const std::uintptr_t begin = site.block.shared_begin + variable.offset;
            if (address < begin || address >= begin + variable.size) continue;
            const SharedArea area = area_of(variable);
            if (address + size <= area.end)
                return ask(Hook::shared_access, [&](Tool& tool) { return tool.shared_access(site, area, access); });
            return ask(Hook::shared_overrun, [&](Tool& tool) { return tool.shared_overrun(site, area, access); });
        }
        // Between the variables, which only red zones and alignment leave: out of the source's
        // variable whose red zone it is in, or else of the nearest one.
        const SharedVariable* nearest = nullptr;
        std::uintptr_t nearest_distance = 0;
        for (const auto& variable : module_.shared_variables()) {
            if (!variable.red_zone) continue;
            const std::uintptr_t begin = site.block.shared_begin + variable.offset;
            const std::uintptr_t end = begin + variable.size;
            const bool in_red_zone = address + size > begin - variable.red_zone && address < end + variable.red_zone;
            const std::uintptr_t distance = in_red_zone ? 0 : (address < begin ? begin - address : address - end);
            if (!nearest || distance < nearest_distance) {
                nearest = &variable;
                nearest_distance = distance;
            }
        }
        if (nearest) {
            const SharedArea area = area_of(*nearest);
            return ask(Hook::shared_overrun, [&](Tool& tool) { return tool.shared_overrun(site, area, access); });
        }
    }
    if (const GlobalRange* range = range_of(address, size))
        return ask(Hook::global_access, [&](Tool& tool) { return tool.global_access(site, *range, access); });
    if (const ModuleVariable* variable = variable_next_to(address, size)) {
        return ask(Hook::variable_overrun, [&](Tool& tool) { return tool.variable_overrun(site, *variable, access); });
    }
    // The image's own data beside the variables (literals, the linker's tables) is fine to read.
    const bool in_image = std::any_of(module_.segments().begin(), module_.segments().end(), [&](const auto& segment) {
        return address >= segment.first && address < segment.second;
    });
    if (in_image) return Verdict::proceed;
    return ask(Hook::stray_access, [&](Tool& tool) { return tool.stray_access(site, access); });
}

const ModuleVariable* LaunchChecker::variable_next_to(std::uintptr_t address, std::size_t size) const {
    const auto from_source = [](const ModuleVariable& variable) {
        return variable.space == ModuleVariable::Space::constant || variable.space == ModuleVariable::Space::device;
    };
    // In a variable's red zone, or running from inside it into one: an index run out of it.
    for (const auto& variable : module_.variables())
        if (from_source(variable) && address + size > variable.begin - variable.red_zone &&
            address < variable.end + variable.red_zone)
            return &variable;

    // Farther (or in a module without red zones): the nearer of its neighbours.
    const auto segment_of = [&](std::uintptr_t a) {
        return std::find_if(module_.segments().begin(), module_.segments().end(),
                            [&](const auto& segment) { return a >= segment.first && a < segment.second; });
    };
    const auto segment = segment_of(address);
    const bool in_image = segment != module_.segments().end();
    constexpr std::uintptr_t near_bytes = 65536;  // outside the image: how far past a variable still counts
    // The neighbours among the variables that hold the kernel's data.
    const ModuleVariable* before = nullptr;
    const ModuleVariable* after = nullptr;
    for (const auto& variable : module_.variables()) {
        if (variable.space == ModuleVariable::Space::runtime) continue;
        if (in_image ? segment_of(variable.begin) != segment
                     : (variable.end + near_bytes < address || address + size + near_bytes < variable.begin))
            continue;
        if (variable.begin <= address) {
            if (!before || variable.begin > before->begin) before = &variable;
        } else if (!after || variable.begin < after->begin) {
            after = &variable;
        }
    }
    const ModuleVariable* chosen = nullptr;
    if (before && (address < before->end || !after)) {
        chosen = before;  // it starts inside `before` and runs past its end, or lies past it
    } else if (before && after) {
        chosen = address - before->end <= after->begin - std::min(after->begin, address + size) ? before : after;
    } else {
        chosen = after;
    }
    return chosen && from_source(*chosen) ? chosen : nullptr;
}
}  // namespace gpukit::detail::sim::check
