// tests/device/resource_leak_test.cpp: 10^5 cycles of allocate, launch, free leave the process's
// memory where it was: resident memory (this process and the processes it started, such as the
// simulator's device process) and, on a GPU, the device's free memory.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

// Resident bytes of process `pid` (from /proc/PID/statm); 0 when it is gone.
std::uint64_t resident_bytes(const std::string& pid) {
    std::ifstream statm("/proc/" + pid + "/statm");
    std::uint64_t size = 0, resident = 0;
    if (!(statm >> size >> resident)) return 0;
    return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

// Resident bytes of this process and of its children (the simulator's device process); `processes`
// counts them.
std::uint64_t resident_bytes_with_children(int* processes = nullptr) {
    std::uint64_t total = resident_bytes(std::to_string(getpid()));
    if (processes) *processes = 1;
    std::error_code ignored;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ignored)) {
        std::ifstream children(task.path() / "children");
        std::string pid;
        while (children >> pid) {
            total += resident_bytes(pid);
            if (processes) ++*processes;
        }
    }
    return total;
}

class ResourceLeaks : public DeviceTest {};

TEST_F(ResourceLeaks, AHundredThousandAllocateLaunchFreeCyclesKeepMemoryFlat) {
    if (checking_everything()) GTEST_SKIP() << "check mode's shadow memory grows by design; the plain run measures";
    auto fill = Module::compile(R"(
extern "C" __global__ void fill(unsigned* out, unsigned n, unsigned seed) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = seed * 2654435761u + i;
})")
                    .kernel("fill");
    std::mt19937 random(5);
    std::uniform_int_distribution<unsigned> elements(1, 16384);  // 4 B to 64 KiB: the allocator's small and large paths
    const auto cycle = [&](unsigned seed, bool verify) {
        const unsigned n = elements(random);
        DeviceBuffer buffer(n * sizeof(unsigned));
        fill({.grid = (n + 255) / 256, .block = 256}, buffer, n, seed);
        if (!verify) return;
        std::vector<unsigned> values(n);
        copy(std::span<unsigned>(values), buffer.view());
        for (unsigned i = 0; i < n; ++i) ASSERT_EQ(values[i], seed * 2654435761u + i) << "cycle " << seed;
    };
    const int warm_up = 10'000, measured = 90'000;
    for (int i = 0; i < warm_up; ++i) cycle(i, i % 1000 == 0);
    Device::current().synchronize();
    const std::uint64_t resident_before = resident_bytes_with_children();
    const std::size_t free_before = Device::current().memory_info().free_bytes;
    for (int i = warm_up; i < warm_up + measured; ++i) cycle(i, i % 1000 == 0);
    Device::current().synchronize();
    int processes = 0;
    const std::uint64_t resident_after = resident_bytes_with_children(&processes);
    const std::size_t free_after = Device::current().memory_info().free_bytes;
    const double growth_mib = (double(resident_after) - double(resident_before)) / (1 << 20);
    std::printf("resident memory of %d processes after %d cycles: %.1f MiB, after %d more: %.1f MiB\n", processes,
                warm_up, double(resident_before) / (1 << 20), measured, double(resident_after) / (1 << 20));
    EXPECT_LT(growth_mib, 16.0) << "resident memory grew over " << measured << " cycles";
    if (!on_simulator()) {  // the simulator's free memory is the machine's, which other programs change
        EXPECT_GE(double(free_after) + (4 << 20), double(free_before))
            << "device memory lost over " << measured << " cycles";
    }
}

}  // namespace
}  // namespace gpukit::testing
