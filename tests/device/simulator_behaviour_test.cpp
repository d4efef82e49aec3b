// tests/device/simulator_behaviour_test.cpp: what a kernel's mistakes and options do, on either
// backend: deadlocks end with a report (simulator), compile
// options reach the compiler, oversized static shared memory is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

class SimulatorBehaviour : public DeviceTest {};

TEST_F(SimulatorBehaviour, DefinesHeadersAndIncludeDirectoriesReachTheCompiler) {
    const auto dir = std::filesystem::temp_directory_path() / ("gpukit_include_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "scale.h") << "__device__ inline float scale(float x) { return x * SCALE; }\n";
    CompileOptions options;
    options.define("SCALE", "3.0f").define("OFFSET", "7").header("offset.h", "#define ADD_OFFSET(x) ((x) + OFFSET)\n");
    options.include_dir(dir);
    auto kernel = Module::compile(R"(
#include "offset.h"
#include "scale.h"
extern "C" __global__ void transform(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = ADD_OFFSET(scale(in[i]));
})",
                                  options)
                      .kernel("transform");
    std::filesystem::remove_all(dir);
    const int n = 777;
    const auto in = random_floats(n, 81);
    auto din = DeviceBuffer::from_host(std::span<const float>(in));
    DeviceBuffer dout(n * sizeof(float));
    kernel({.grid = grid_for(n, 128), .block = 128}, din, dout, n);
    std::vector<float> out(n);
    copy(std::span<float>(out), dout.view());
    for (int i = 0; i < n; ++i) ASSERT_FLOAT_EQ(out[i], in[i] * 3.0f + 7) << i;
}

TEST_F(SimulatorBehaviour, StaticSharedMemoryBeyond48KiBIsRefused) {
    const char* source = R"(
extern "C" __global__ void too_big(float* out) {
  __shared__ float big[13000];
  big[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = big[(threadIdx.x + 1) % blockDim.x];
})";
    DeviceBuffer out(256 * sizeof(float));
    if (on_simulator()) {
        auto kernel = Module::compile(source).kernel("too_big");
        EXPECT_EQ(kernel.attributes().static_shared_bytes, 52000u);
        const auto text = GPUKIT_MESSAGE_OF(LaunchConfigError, kernel({.grid = 1, .block = 256}, out));
        expect_contains(text, "52000 bytes) of static __shared__ memory");
    } else {
        EXPECT_THROW(Module::compile(source), CompileError);  // ptxas refuses it
    }
}

TEST_F(SimulatorBehaviour, ABarrierALiveThreadCanNeverReachEndsWithAReport) {
    if (!on_simulator()) GTEST_SKIP() << "on a GPU this kernel hangs; the simulator reports it";
    auto kernel = Module::compile(R"(
extern "C" __global__ void stuck(int* out) {
  if (threadIdx.x < 16) {
    __syncwarp();          // waits for lanes 16-31 ...
  } else {
    __syncthreads();       // ... which wait here for lanes 0-15
  }
  out[threadIdx.x] = 1;
})")
                      .kernel("stuck");
    DeviceBuffer out(64 * sizeof(int));
    kernel({.grid = 2, .block = 32}, out);
    const auto text = GPUKIT_MESSAGE_OF(LaunchError, Device::current().synchronize());
    expect_contains(text, "Kernel stuck cannot finish block (");
    expect_contains(text, "threads 0-15 wait at __syncwarp(mask 0xffffffff) at kernel.cu:4");
    expect_contains(text, "threads 16-31 wait at __syncthreads() at kernel.cu:6");
    // The device goes on working.
    auto ok = Module::compile(R"(extern "C" __global__ void fill(int* out) { out[threadIdx.x] = 7; })").kernel("fill");
    ok({.grid = 1, .block = 64}, out);
    std::vector<int> values(64);
    copy(std::span<int>(values), out.view());
    EXPECT_EQ(values, std::vector<int>(64, 7));
}

TEST_F(SimulatorBehaviour, SpinningForeverOnAFlagEndsWithAReport) {
    if (!on_simulator()) GTEST_SKIP() << "on a GPU this kernel hangs; the simulator reports it";
    ::setenv("GPUKIT_SIM_WATCHDOG_SECONDS", "1", 1);
    auto kernel = Module::compile(R"(
extern "C" __global__ void waits_forever(int* flag) {
  if (threadIdx.x == 0) {
    while (atomicCAS(flag, 1, 1) != 1) {}   // nobody ever sets it
  }
  __syncthreads();
})")
                      .kernel("waits_forever");
    auto flag = DeviceBuffer::from_host(std::span<const int>(std::vector<int>{0}));
    kernel({.grid = 1, .block = 64}, flag);
    const auto text = GPUKIT_MESSAGE_OF(LaunchError, Device::current().synchronize());
    expect_contains(text, "threads 1-63 wait at __syncthreads() at kernel.cu:6");
    expect_contains(text, "thread 0 has retried a failed atomicCAS");
}

TEST_F(SimulatorBehaviour, ASpinLockInsideABlockMakesProgress) {
    auto kernel = Module::compile(R"(
extern "C" __global__ void locked_sum(int* lock, int* total) {
  // Each thread takes the block's lock, adds, releases: fibers must let the holder run.
  bool done = false;
  while (!done) {
    if (atomicCAS(lock, 0, 1) == 0) {
      *total += threadIdx.x + 1;
      __threadfence();
      atomicExch(lock, 0);
      done = true;
    }
  }
  __syncthreads();
})")
                      .kernel("locked_sum");
    auto lock = DeviceBuffer::from_host(std::span<const int>(std::vector<int>{0}));
    auto total = DeviceBuffer::from_host(std::span<const int>(std::vector<int>{0}));
    kernel({.grid = 1, .block = 32}, lock, total);
    int sum = 0;
    copy(std::span<int>(&sum, 1), total.view());
    EXPECT_EQ(sum, 32 * 33 / 2);
}

// A crashing kernel: tests/device/kernel_fault_test.cpp.

}  // namespace
}  // namespace gpukit::testing
