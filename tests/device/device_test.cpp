// tests/device/device_test.cpp: devices, their properties and the current device.
#include <gtest/gtest.h>
#include <algorithm>

#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

class Devices : public DeviceTest {};

TEST_F(Devices, ListsEveryDeviceWithItsLimits) {
    const auto all = devices();
    ASSERT_FALSE(all.empty());
    for (const auto& device : all) {
        const auto& p = device.properties();
        EXPECT_EQ(p.backend, tested_backend());
        EXPECT_EQ(p.ordinal, device.ordinal());
        EXPECT_FALSE(p.name.empty());
        EXPECT_GE(p.compute_capability.major, 5);
        EXPECT_EQ(p.architecture(),
                  "sm_" + std::to_string(p.compute_capability.major) + std::to_string(p.compute_capability.minor));
        EXPECT_GT(p.total_memory, std::size_t{1} << 30);
        EXPECT_GT(p.multiprocessor_count, 0);
        EXPECT_EQ(p.limits.max_threads_per_block, 1024);
        EXPECT_EQ(p.limits.max_block_dim, Dim3(1024, 1024, 64));
        EXPECT_EQ(p.limits.max_grid_dim, Dim3(2147483647u, 65535, 65535));
        EXPECT_EQ(p.limits.shared_memory_per_block, 48u * 1024);
        EXPECT_FALSE(p.target.empty());
        EXPECT_GE(p.limits.shared_memory_per_block_optin, p.limits.shared_memory_per_block);
        EXPECT_EQ(p.limits.warp_size, 32);
        EXPECT_GT(p.registers_per_block, 0);
        EXPECT_EQ(p.pci_bus_id.empty(), on_simulator());  // the simulator sits on no bus
        const auto memory = device.memory_info();
        EXPECT_GT(memory.free_bytes, 0u);
        EXPECT_EQ(memory.total_bytes, p.total_memory);
    }
}

TEST_F(Devices, TheSimulatorIsADeviceOfItsOwn) {
    const auto all = all_devices();
    ASSERT_FALSE(all.empty());
    EXPECT_TRUE(all.back().backend_info().capabilities.simulated);
    EXPECT_EQ(all.back().properties().limits.max_threads_per_block, 1024);
    EXPECT_EQ(all.back().properties().limits.warp_size, 32);
    // The simulator's devices (GPUKIT_SIM_DEVICES of them: main.cpp asks for 4) come last, numbered from 0.
    const auto simulated = static_cast<std::size_t>(
        std::count_if(all.begin(), all.end(), [](const Device& d) { return d.backend_info().capabilities.simulated; }));
    ASSERT_EQ(simulated, 4U);
    for (std::size_t i = 0; i < all.size(); ++i) {
        const bool among_simulated = i + simulated >= all.size();
        EXPECT_EQ(all[i].backend_info().capabilities.simulated, among_simulated);
        if (among_simulated) EXPECT_EQ(all[i].ordinal(), static_cast<int>(i + simulated - all.size()));
    }
    if (!on_simulator()) EXPECT_EQ(all.size(), devices().size() + simulated);
    // A kernel runs on the simulator even where the process selected the GPU.
    auto kernel =
        Module::compile(R"(extern "C" __global__ void twice(int* x) { x[threadIdx.x] *= 2; })", {}, all.back())
            .kernel("twice");
    std::vector<int> values = {1, 2, 3, 4};
    auto buffer = DeviceBuffer::from_host(std::span<const int>(values), all.back());
    kernel({.grid = 1, .block = 4}, buffer);
    copy(std::span<int>(values), buffer.view());
    EXPECT_EQ(values, (std::vector<int>{2, 4, 6, 8}));
}

TEST_F(Devices, CurrentDeviceAndScope) {
    const Device first = device(0);
    EXPECT_EQ(Device::current(), first);
    {
        DeviceScope scope(first);
        EXPECT_EQ(Device::current(), first);
    }
    EXPECT_EQ(Device::current().describe(), "device 0 (" + first.properties().name + ")");
    EXPECT_THROW(device(devices().size()), InvalidArgumentError);
    EXPECT_EQ(selected_backend().name, tested_backend());
    EXPECT_THROW(select_backend(on_simulator() ? "cuda" : "sim"), UsageError);
    EXPECT_NO_THROW(select_backend(tested_backend()));
    first.synchronize();
}

}  // namespace
}  // namespace gpukit::testing
