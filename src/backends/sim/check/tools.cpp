// src/backends/sim/check/tools.cpp: the table of check-mode tools' runtimes, made from the rows of
// gpukit/check_tools.def.
#include "backends/sim/check/tools.hpp"

#include <algorithm>
#include <iterator>

namespace gpukit::detail::sim::check {

namespace {

constexpr const ToolDefinition* definitions[] = {
#define GPUKIT_CHECK_TOOL(name, summary) &name##_tool,
#include "gpukit/check_tools.def"
#undef GPUKIT_CHECK_TOOL
};
static_assert(std::size(definitions) == tool_count);

}  // namespace

std::span<const ToolDefinition* const> tool_definitions() { return definitions; }

const ToolDefinition& definition_of(CheckTool tool) { return *definitions[static_cast<std::size_t>(tool)]; }

ToolNeeds needs_of(CheckTools tools) {
    ToolNeeds all;
    for (const ToolDefinition* definition : definitions) {
        if (!tools.contains(definition->tool)) continue;
        const ToolNeeds& needs = definition->needs;
        all.accesses = std::max(all.accesses, needs.accesses);
        all.unwritten_allocations |= needs.unwritten_allocations;
        all.every_store |= needs.every_store;
    }
    return all;
}

void before_unwatched_launch(CheckTools watching, std::span<const std::vector<unsigned char>> arguments) {
    for (const ToolDefinition* definition : definitions)
        if (definition->unwatched_launch && !watching.contains(definition->tool))
            definition->unwatched_launch(arguments);
}

}  // namespace gpukit::detail::sim::check
