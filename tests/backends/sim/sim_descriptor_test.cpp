// tests/backends/sim/sim_descriptor_test.cpp: what the simulator says of itself.
#include "backends/sim/sim_backend.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace gpukit {
namespace {

TEST(SimDescriptor, CapabilitiesOfASimulator) {
    const BackendInfo& info = detail::sim_backend_descriptor().info;
    EXPECT_TRUE(info.built);
    EXPECT_TRUE(info.capabilities.simulated);
    EXPECT_TRUE(info.capabilities.check_mode);
    EXPECT_FALSE(info.capabilities.loads_binary_images);
    EXPECT_EQ(info.capabilities.dlpack_device_type, 1);  // kDLCPU: device memory is host memory
    EXPECT_TRUE(info.capabilities.sandbox);              // set_sandbox: kernels are native code here
}

TEST(SimDescriptor, TheHostCompilerIsFoundWithItsVersion) {
    const auto parts = detail::sim_backend_descriptor().toolchain();
    ASSERT_EQ(parts.size(), 1u);
    const ToolchainPart& compiler = parts[0];
    EXPECT_EQ(compiler.role, "host compiler");
    ASSERT_TRUE(compiler.problem.empty()) << compiler.problem;
    EXPECT_TRUE(std::filesystem::path(compiler.path).is_absolute()) << compiler.path;
    EXPECT_TRUE(std::filesystem::exists(compiler.path)) << compiler.path;
}

}  // namespace
}  // namespace gpukit
