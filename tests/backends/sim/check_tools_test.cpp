// tests/backends/sim/check_tools_test.cpp: the simulator's table of check-mode tools against the
// public one (gpukit/check_tools.def makes both), so that neither can drift from the other.
#include "backends/sim/check/tools.hpp"

#include <gtest/gtest.h>

#include <iterator>

#include "gpukit/check.hpp"

namespace {

using namespace gpukit;
using namespace gpukit::detail::sim::check;

TEST(CheckTools, EveryToolHasARuntimeOfItsName) {
    ASSERT_EQ(tool_definitions().size(), std::size(check_tool_table));
    for (std::size_t i = 0; i < std::size(check_tool_table); ++i) {
        const CheckToolInfo& row = check_tool_table[i];
        const ToolDefinition& definition = *tool_definitions()[i];
        EXPECT_EQ(definition.tool, row.tool) << row.name;
        EXPECT_EQ(definition.name, row.name);
        EXPECT_EQ(&definition_of(row.tool), &definition) << row.name;
        EXPECT_NE(definition.make, nullptr) << row.name;
    }
}

TEST(CheckTools, WhatTheToolsNeedTogether) {
    EXPECT_TRUE(needs_of(CheckTool::racecheck).every_store);
    EXPECT_TRUE(needs_of(CheckTools::all()).every_store);
    EXPECT_FALSE(needs_of(CheckTool::memcheck | CheckTool::synccheck | CheckTool::initcheck).every_store);
    EXPECT_EQ(needs_of(CheckTool::synccheck).accesses, Accesses::none);
    EXPECT_EQ(needs_of(CheckTool::synccheck | CheckTool::memcheck).accesses, Accesses::unproven);
    EXPECT_EQ(needs_of(CheckTools::all()).accesses, Accesses::unproven);
    EXPECT_EQ(needs_of(CheckTool::racecheck).accesses, Accesses::unproven);  // the kernel records most itself
}

// A tool is called only for the hooks its class overrides.
class CountsFences final : public Tool {
public:
    void fence(const AccessSite&) override { ++fences; }
    int fences = 0;
};

TEST(CheckTools, AToolTakesTheHooksItOverrides) {
    constexpr Hooks hooks = hooks_of<CountsFences>();
    EXPECT_TRUE(hooks.contains(Hook::fence));
    for (std::size_t hook = 0; hook < hook_count; ++hook)
        if (static_cast<Hook>(hook) != Hook::fence) EXPECT_FALSE(hooks.contains(static_cast<Hook>(hook))) << hook;
}

}  // namespace
