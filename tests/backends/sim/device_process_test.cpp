// tests/backends/sim/device_process_test.cpp: the simulator's device process seen from the host:
// a give-up (abandon) restarts it for the requests in flight at the time only; a request made
// right after waits for the next process instead of failing in the killed one; destroying it
// while it restarts returns.
#include "backends/sim/device_process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "backends/sim/device_memory.hpp"
#include "backends/sim/host_compiler.hpp"
#include "backends/sim/sim_module.hpp"
#include "gpukit/error.hpp"

namespace gpukit::detail::sim {
namespace {

// abandon() kills the device process; until the supervising thread has seen it die, the process
// still counted as ready, so a request made at once went to it and failed with the give-up's
// reason: an earlier wait's timeout leaking into the next operation (the intermittent failure of
// KernelFaults.AGiveUpDuringTheDeviceProcessRestartStopsTheLaunchWaitingForIt under load, whose
// next module load failed with "waiting for the stream's work timed out").
TEST(DeviceProcessAbandon, ARequestRightAfterAnAbandonRunsInTheNextDeviceProcess) {
    DeviceMemory memory(std::size_t{256} << 20);
    DeviceProcess process(memory, 0);
    if (!process.start()) GTEST_SKIP() << process.start_failure();
    const CompileOptions options;
    const CompiledImage image = host_compiler().compile(
        CompileInput{"extern \"C\" __global__ void k(int* out) { out[0] = 1; }\n", options, "host", {}});
    std::optional<std::uint64_t> data;
    if (const std::size_t bytes = module_data_bytes(image.data)) {
        data = memory.allocate(bytes, static_cast<std::size_t>(sysconf(_SC_PAGESIZE)));
        ASSERT_TRUE(data);
    }
    const int rounds = 20;
    for (int round = 0; round < rounds; ++round) {
        const std::uint64_t starts = process.starts();
        ASSERT_TRUE(process.abandon("the test gave up the device's work"));
        // At once, before the supervisor can have seen the death: this load must not share it.
        try {
            const ModuleInfo info = process.load(static_cast<std::uint64_t>(round) + 1, image.data, data.value_or(0));
            EXPECT_EQ(info.kernels.size(), 1u);
        } catch (const std::exception& e) {
            ADD_FAILURE() << "round " << round << ": the load after the abandon failed: " << e.what();
        }
        EXPECT_EQ(process.starts(), starts + 1) << "round " << round << ": the load ran in the killed process";
    }
}

// Destroyed while the device process is being started again, the owner ends that process and
// returns: its destructor could see no pid yet, kill nothing, and wait forever for the supervisor,
// which waited for the process it had just started.
TEST(DeviceProcessAbandon, DestroyingItWhileItRestartsReturns) {
    for (int round = 0; round < 40; ++round) {
        DeviceMemory memory(std::size_t{64} << 20);
        auto process = std::make_unique<DeviceProcess>(memory, 0);
        if (!process->start()) GTEST_SKIP() << process->start_failure();
        ASSERT_TRUE(process->abandon("the test gave up the device's work"));
        // At moments spread over the restart: the window was the spawn, before the new pid was known.
        std::this_thread::sleep_for(std::chrono::microseconds(100 * round));
        const auto begin = std::chrono::steady_clock::now();
        process.reset();
        EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(10)) << "round " << round;
    }
}

}  // namespace
}  // namespace gpukit::detail::sim
