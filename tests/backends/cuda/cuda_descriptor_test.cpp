// tests/backends/cuda/cuda_descriptor_test.cpp: what the CUDA backend says of itself and of the
// driver and NVRTC it found (or did not).
#include "backends/cuda/cuda_backend.hpp"

#include <gtest/gtest.h>

#include <regex>

namespace gpukit {
namespace {

TEST(CudaDescriptor, CapabilitiesOfAGpuBackend) {
    const BackendInfo& info = detail::cuda_backend_descriptor().info;
    EXPECT_TRUE(info.built);
    EXPECT_FALSE(info.capabilities.simulated);
    EXPECT_FALSE(info.capabilities.check_mode);  // compute-sanitizer's job on a GPU
    EXPECT_TRUE(info.capabilities.loads_binary_images);
    EXPECT_EQ(info.capabilities.dlpack_device_type, 2);  // kDLCUDA
    EXPECT_FALSE(info.capabilities.sandbox);             // its kernels are the GPU's, not native code
}

TEST(CudaDescriptor, ToolchainNamesTheHeadersDriverAndNvrtc) {
    const auto parts = detail::cuda_backend_descriptor().toolchain();
    ASSERT_EQ(parts.size(), 3u);
    EXPECT_EQ(parts[0].role, "headers");
    EXPECT_TRUE(std::regex_match(parts[0].version, std::regex(R"(\d+\.\d+)"))) << parts[0].version;
    EXPECT_EQ(parts[1].role, "driver");
    EXPECT_EQ(parts[2].role, "NVRTC");
    // Without a usable driver there is no CUDA backend.
    if (!parts[1].problem.empty()) EXPECT_FALSE(backend_unavailable_reason("cuda").empty());
}

}  // namespace
}  // namespace gpukit
