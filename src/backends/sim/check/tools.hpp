// src/backends/sim/check/tools.hpp: the table of check-mode tools' runtimes, one per row of
// gpukit/check_tools.def, and what the rest of the simulator asks of the tools together.
#pragma once

#include <span>
#include <vector>

#include "backends/sim/check/tool.hpp"
#include "gpukit/check.hpp"

namespace gpukit::detail::sim::check {

// Each row's runtime, defined in its own file (check/<row>.cpp): a row without one fails to link.
#define GPUKIT_CHECK_TOOL(name, summary) extern const ToolDefinition name##_tool;
#include "gpukit/check_tools.def"
#undef GPUKIT_CHECK_TOOL

// Every tool's definition, in CheckTool's order.
std::span<const ToolDefinition* const> tool_definitions();
const ToolDefinition& definition_of(CheckTool tool);

// What the tools of `tools` need together.
ToolNeeds needs_of(CheckTools tools);

// A launch starts that the tools outside `watching` do not watch (none watch in fast mode): each
// may account for what the kernel does unseen. `arguments`: the launch's parameter values.
void before_unwatched_launch(CheckTools watching, std::span<const std::vector<unsigned char>> arguments);

}  // namespace gpukit::detail::sim::check
