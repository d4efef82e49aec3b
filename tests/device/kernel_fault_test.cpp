// tests/device/kernel_fault_test.cpp: a kernel that faults (a bad access, a division by zero, an
// assert, abort(), exit(), __trap(), a stack overflow) ends its launch with a KernelFaultError
// naming the kernel, the block, the thread and the line where known, and the device stays
// usable; a kernel that never ends can be given up with a timeout or an interrupt. On a GPU these
// are sticky errors (tests/gpu_sticky); here they run on the simulator, whose device process
// contains them.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

class KernelFaults : public DeviceTest {
protected:
    void SetUp() override {
        DeviceTest::SetUp();
        if (IsSkipped()) return;
        if (!on_simulator()) GTEST_SKIP() << "on a GPU a faulting kernel is a sticky error (gpu_sticky tests)";
    }

    // The KernelFaultError that launching `name` of `source` on `grid` x `block` ends with (the
    // kernel's one parameter is a buffer of 1024 ints).
    static KernelFaultError fault_of(const char* source, const char* name, unsigned grid, unsigned block) {
        auto kernel = Module::compile(source).kernel(name);
        DeviceBuffer out(1024 * sizeof(int));
        try {
            kernel({.grid = grid, .block = block}, out);
            Device::current().synchronize();
        } catch (const KernelFaultError& e) {
            return e;
        }
        ADD_FAILURE() << name << " did not end with a KernelFaultError";
        return KernelFaultError(FaultKind::process_ended, "none", {});
    }

    // The device runs a correct kernel right after a fault, with random inputs.
    static void expect_device_usable() {
        auto add = Module::compile(R"(
extern "C" __global__ void add(const float* a, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
})")
                       .kernel("add");
        const int n = 3000;
        const auto a = random_floats(n, 7), b = random_floats(n, 8);
        auto da = DeviceBuffer::from_host(std::span<const float>(a));
        auto db = DeviceBuffer::from_host(std::span<const float>(b));
        DeviceBuffer dout(n * sizeof(float));
        add({.grid = (n + 255) / 256, .block = 256}, da, db, dout, n);
        std::vector<float> out(n);
        copy(std::span<float>(out), dout.view());
        for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], a[i] + b[i]) << "at " << i;
    }
};

TEST_F(KernelFaults, ANullPointerWriteNamesTheKernelBlockThreadAndLine) {
    if (checking_everything()) GTEST_SKIP() << "check mode stops the access before it happens";
    const auto e = fault_of(R"(
extern "C" __global__ void wild(int* out) {
  if (blockIdx.x == 2 && threadIdx.x == 5) out = nullptr;
  out[threadIdx.x] = 1;
})",
                            "wild", 4, 64);
    EXPECT_EQ(e.kind(), FaultKind::memory_access);
    EXPECT_EQ(e.site().kernel, "wild");
    EXPECT_TRUE(e.site().thread_known);
    EXPECT_EQ(e.site().block, Dim3(2, 0, 0));
    EXPECT_EQ(e.site().thread, Dim3(5, 0, 0));
    EXPECT_EQ(e.site().line, 4);
    EXPECT_EQ(e.site().address, 5 * sizeof(int));
    expect_contains(e.what(), "Kernel wild");
    expect_contains(e.what(), "null pointer");
    expect_contains(e.what(), "thread (5,0,0) of block (2,0,0)");
    expect_device_usable();
}

TEST_F(KernelFaults, AReadThroughAnIntegerPointerIsReported) {
    if (checking_everything()) GTEST_SKIP() << "check mode stops the access before it happens";
    const auto e = fault_of(R"(
extern "C" __global__ void from_integer(int* out) {
  const int* p = reinterpret_cast<const int*>(0x1234567890ULL + threadIdx.x * 4096);
  out[threadIdx.x] = *p;
})",
                            "from_integer", 1, 32);
    EXPECT_EQ(e.kind(), FaultKind::memory_access);
    EXPECT_EQ(e.site().line, 4);
    EXPECT_GE(e.site().address, 0x1234567890ULL);
    expect_contains(e.what(), "not device memory");
    expect_device_usable();
}

TEST_F(KernelFaults, AWriteFarPastAnAllocationNeverReachesTheHostsMemory) {
    if (checking_everything()) GTEST_SKIP() << "check mode stops the access before it happens";
    // The kernel writes through the address of a variable of this process: with the kernels in a
    // process of their own, it cannot change it (it faults there, or writes that process's memory).
    std::vector<std::uint64_t> host(64);
    std::iota(host.begin(), host.end(), 1000);
    const auto before = host;
    auto kernel = Module::compile(R"(
extern "C" __global__ void scribble(unsigned long long address) {
  reinterpret_cast<unsigned long long*>(address)[threadIdx.x] = 0xdeadbeefULL;
})")
                      .kernel("scribble");
    try {
        kernel({.grid = 1, .block = 64},
               static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(host.data())));
        Device::current().synchronize();
    } catch (const KernelFaultError& e) {
        EXPECT_EQ(e.kind(), FaultKind::memory_access);
    }
    EXPECT_EQ(host, before);
    expect_device_usable();
}

// Device memory that no allocation holds is inaccessible to kernels (the simulator's guard pages):
// an access far past an array faults as an illegal address does on a GPU, instead of changing
// memory silently.
TEST_F(KernelFaults, AnAccessFarPastAnArrayFaultsInTheBlockAndThreadThatMadeIt) {
    if (checking_everything()) GTEST_SKIP() << "check mode stops the access before it happens";
    auto module = Module::compile(R"(
extern "C" __global__ void far_write(float* p) {
  if (blockIdx.x == 37 && threadIdx.x == 5) p[1 << 26] = 1.0f;
}
extern "C" __global__ void far_read(float* p) {
  if (threadIdx.x == 3) p[0] = p[(1 << 24) + threadIdx.x];
})");
    const auto values = random_floats(1000, 4);
    auto p = DeviceBuffer::from_host(std::span<const float>(values));
    // 256 MiB past p: inside the simulator's device memory (as large as the machine's), in no allocation.
    const std::uint64_t far = p.address() + (std::uint64_t{1} << 26) * sizeof(float);
    const std::string write = GPUKIT_MESSAGE_OF(KernelFaultError, {
        try {
            module.kernel("far_write")({.grid = 64, .block = 64}, p);
            Device::current().synchronize();
        } catch (const KernelFaultError& e) {
            EXPECT_EQ(e.kind(), FaultKind::memory_access);
            EXPECT_EQ(e.site().kernel, "far_write");
            EXPECT_TRUE(e.site().thread_known);
            EXPECT_EQ(e.site().block, Dim3(37, 0, 0));
            EXPECT_EQ(e.site().thread, Dim3(5, 0, 0));
            EXPECT_EQ(e.site().line, 3);
            EXPECT_EQ(e.site().address, far);
            throw;
        }
    });
    expect_contains(write, "thread (5,0,0) of block (37,0,0)");
    expect_contains(write, "in no allocation");
    const std::string read = GPUKIT_MESSAGE_OF(KernelFaultError, {
        try {
            module.kernel("far_read")({.grid = 1, .block = 8}, p);
            Device::current().synchronize();
        } catch (const KernelFaultError& e) {
            EXPECT_EQ(e.site().thread, Dim3(3, 0, 0));
            EXPECT_EQ(e.site().line, 6);
            EXPECT_EQ(e.site().address, p.address() + ((std::uint64_t{1} << 24) + 3) * sizeof(float));
            throw;
        }
    });
    expect_contains(read, "Kernel far_read read or wrote memory it cannot reach");
    // Nothing reached the array, and it is still there, readable by kernels, after the restart.
    std::vector<float> after(values.size());
    copy(std::span<float>(after), p.view());
    EXPECT_EQ(after, values);
    auto twice = Module::compile(R"(
extern "C" __global__ void twice(float* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= 2.0f;
})")
                     .kernel("twice");
    twice({.grid = 4, .block = 256}, p, 1000);
    copy(std::span<float>(after), p.view());
    for (std::size_t i = 0; i < values.size(); ++i) ASSERT_EQ(after[i], 2.0f * values[i]) << i;
    expect_device_usable();
}

// An allocation of a page or more ends on a page boundary before a page no allocation touches:
// p[n] just past an array whose size is a multiple of 256 bytes faults, as under cuda-memcheck.
// Within the last page, past an array of another size, the access goes unnoticed, as on a GPU.
TEST_F(KernelFaults, AnAccessJustPastAnArrayOfWholePagesFaults) {
    if (checking_everything()) GTEST_SKIP() << "check mode stops the access before it happens";
    const char* source = R"(
extern "C" __global__ void overrun(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i;
})";
    auto overrun = Module::compile(source).kernel("overrun");
    DeviceBuffer ints(1088 * sizeof(int));  // 17 x 256 bytes; 1280 threads write 192 past the end
    try {
        overrun({.grid = 5, .block = 256}, ints, 1088);
        Device::current().synchronize();
        ADD_FAILURE() << "the write past the end did not fault";
    } catch (const KernelFaultError& e) {
        EXPECT_EQ(e.kind(), FaultKind::memory_access);
        EXPECT_EQ(e.site().block, Dim3(4, 0, 0));
        EXPECT_EQ(e.site().thread, Dim3(64, 0, 0));  // out[1088], the first int past the end
        EXPECT_EQ(e.site().address, ints.address() + 1088 * sizeof(int));
        expect_contains(e.what(), "0 bytes after the end of the allocation at ");
    }
    DeviceBuffer odd(1000 * sizeof(int));  // rounded to 1024 ints: the 24 past it are its own
    overrun({.grid = 4, .block = 256}, odd, 1000);
    std::vector<int> values(1000);
    copy(std::span<int>(values), odd.view());
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(values[i], i);
    expect_device_usable();
}

// What kernels may read besides their arrays stays accessible: pinned memory, a module's
// variables through their device address, memory allocated before a restart of the device process.
TEST_F(KernelFaults, PinnedMemoryAndVariablesStayReachableAcrossARestart) {
    if (checking_everything()) GTEST_SKIP() << "check mode stops the access before it happens";
    auto module = Module::compile(R"(
__device__ float scale[4] = {1.0f, 2.0f, 3.0f, 4.0f};
extern "C" __global__ void wild(int* out) { reinterpret_cast<int*>(16)[threadIdx.x] = 1; }
extern "C" __global__ void gather(const float* in, const float* factors, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * factors[i % 4] * scale[i % 4];
})");
    const int n = 5000;
    const auto input = random_floats(n, 9);
    PinnedBuffer pinned(n * sizeof(float));
    std::memcpy(pinned.as<float>().data(), input.data(), n * sizeof(float));
    const auto factors = module.global("scale");
    DeviceBuffer out(n * sizeof(float));
    auto check = [&] {
        module.kernel("gather")({.grid = (n + 255) / 256, .block = 256}, DevicePtr{pinned.address()},
                                DevicePtr{factors.memory.address()}, out, n);
        std::vector<float> got(n);
        copy(std::span<float>(got), out.view());
        for (int i = 0; i < n; ++i) {
            const float f = static_cast<float>(i % 4 + 1);
            ASSERT_EQ(got[i], input[i] * f * f) << i;
        }
    };
    check();
    try {  // the device process is replaced
        module.kernel("wild")({.grid = 1, .block = 4}, out);
        Device::current().synchronize();
        ADD_FAILURE() << "no fault";
    } catch (const KernelFaultError&) {}
    check();
}

// Each allocation of a page or more is a range of its own in the device process; past the
// system's limit on ranges (vm.max_map_count) guarding stops, with a warning, and kernels go on.
TEST_F(KernelFaults, MoreSeparateAllocationsThanTheSystemsMapLimitStillRun) {
    if (checking_everything()) GTEST_SKIP() << "the plain run is enough";
    long limit = 0;
    if (FILE* file = std::fopen("/proc/sys/vm/max_map_count", "r")) {
        if (std::fscanf(file, "%ld", &limit) != 1) limit = 0;
        std::fclose(file);
    }
    if (limit <= 0 || limit > 300000) GTEST_SKIP() << "vm.max_map_count is " << limit << ": too many buffers to reach";
    auto add = Module::compile(R"(
extern "C" __global__ void add(float* p, float value) { p[threadIdx.x] += value; })")
                   .kernel("add");
    std::vector<DeviceBuffer> buffers;
    const auto count = static_cast<std::size_t>(limit / 2 + 2000);
    buffers.reserve(count);
    // The device process says it once, when it applies the allocations: at the launch, or earlier
    // where the host's journal of them filled up first (CI saw both).
    ::testing::internal::CaptureStderr();
    for (std::size_t i = 0; i < count; ++i) buffers.emplace_back(4096);
    const auto values = random_floats(1024, 13);
    copy(buffers.back().view(), std::span<const float>(values));
    add({.grid = 1, .block = 1024}, buffers.back(), 0.5f);
    Device::current().synchronize();
    const std::string said = ::testing::internal::GetCapturedStderr();
    expect_contains(said, "no longer guards the device memory between allocations");
    std::vector<float> back(1024);
    copy(std::span<float>(back), buffers.back().view());
    for (int i = 0; i < 1024; ++i) ASSERT_EQ(back[i], values[i] + 0.5f) << i;
    buffers.clear();
    // A new device process (after a fault) guards again.
    const auto wild = fault_of(R"(
extern "C" __global__ void wild(int* out) { reinterpret_cast<int*>(16)[threadIdx.x] = 1; })",
                               "wild", 1, 1);
    EXPECT_EQ(wild.kind(), FaultKind::memory_access);
    const auto far = fault_of(R"(
extern "C" __global__ void far(int* out) { out[1 << 24] = 1; })",
                              "far", 1, 1);
    expect_contains(far.what(), "in no allocation");
    expect_device_usable();
}

TEST_F(KernelFaults, IntegerDivisionByZeroIsANamedErrorNotASignal) {
    if (checking_everything()) GTEST_SKIP() << "check mode reports it as a hazard";
    const auto e = fault_of(R"(
extern "C" __global__ void divide(int* out) {
  volatile int zero = threadIdx.x - threadIdx.x;
  out[threadIdx.x] = 100 / zero;
})",
                            "divide", 1, 8);
    EXPECT_EQ(e.kind(), FaultKind::integer_division);
    EXPECT_EQ(e.site().line, 4);
    expect_contains(e.what(), "divided an integer by zero");
    expect_device_usable();
}

TEST_F(KernelFaults, AFailedAssertReportsLikeCudasDeviceAssert) {
    const auto e = fault_of(R"(#include <cassert>
extern "C" __global__ void checked(int* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
  assert(threadIdx.x != 3 || blockIdx.x != 1);
})",
                            "checked", 2, 32);
    EXPECT_EQ(e.kind(), FaultKind::assertion);
    EXPECT_EQ(e.site().block, Dim3(1, 0, 0));
    EXPECT_EQ(e.site().thread, Dim3(3, 0, 0));
    EXPECT_EQ(e.site().line, 4);
    expect_contains(e.what(),
                    "block: [1,0,0], thread: [3,0,0] Assertion `threadIdx.x != 3 || blockIdx.x != 1` failed.");
    expect_device_usable();
}

TEST_F(KernelFaults, AbortExitAndTrapEndTheLaunchNotTheProcess) {
    struct Case {
        const char* call;
        FaultKind kind;
        const char* said;
    };
    for (const Case& c :
         {Case{"abort()", FaultKind::abort, "abort()"}, Case{"exit(3)", FaultKind::exit, "called exit(3)"},
          Case{"__trap()", FaultKind::trap, "__trap()"}}) {
        SCOPED_TRACE(c.call);
        const std::string source = std::string(R"(#include <cstdlib>
extern "C" __global__ void ends(int* out) {
  out[threadIdx.x] = 1;
  if (threadIdx.x == 7) )") + c.call +
                                   R"(;
})";
        const auto e = fault_of(source.c_str(), "ends", 1, 32);
        EXPECT_EQ(e.kind(), c.kind);
        EXPECT_EQ(e.site().thread, Dim3(7, 0, 0));
        expect_contains(e.what(), c.said);
    }
    expect_device_usable();
}

TEST_F(KernelFaults, AStackOverflowIsNamed) {
    const auto e = fault_of(R"(
__device__ int deep(int n) {
  volatile char frame[512];
  frame[n % 512] = static_cast<char>(n);
  return n == 0 ? 0 : deep(n - 1) + frame[(n * 7) % 512];
}
extern "C" __global__ void recurse(int* out) { out[threadIdx.x] = deep(1 << 20); })",
                            "recurse", 1, 4);
    EXPECT_EQ(e.kind(), FaultKind::stack_overflow);
    expect_contains(e.what(), "overflowed its stack");
    expect_device_usable();
}

// Written as a tail call, which an optimiser turns into an endless loop (the launch hung): the
// simulator keeps recursion as recursion, so it overflows the stack and says so at once.
TEST_F(KernelFaults, UnboundedTailRecursionIsAStackOverflowNotAHang) {
    const auto start = std::chrono::steady_clock::now();
    const auto e = fault_of(R"(
__device__ float deep(float x, int d) {
  volatile float pad[64];
  pad[d & 63] = x;
  return d > 0 ? deep(x + pad[(d * 7) & 63], d + 1) : x;
}
extern "C" __global__ void recurse(int* out) {
  out[threadIdx.x] = static_cast<int>(deep(1.0f, blockIdx.x + 1));
})",
                            "recurse", 3, 16);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
    EXPECT_EQ(e.kind(), FaultKind::stack_overflow);
    EXPECT_EQ(e.site().kernel, "recurse");
    EXPECT_TRUE(e.site().thread_known);
    EXPECT_LT(e.site().block.x, 3u);
    EXPECT_LT(e.site().thread.x, 16u);
    expect_contains(e.what(), "overflowed its stack");
    expect_device_usable();
}

// Frames larger than the stack's guard page probe it on the way down instead of jumping past it
// (into another simulated thread's stack): still a stack overflow, with the thread named.
TEST_F(KernelFaults, AStackOverflowThroughFramesLargerThanAPageIsNamed) {
    const auto e = fault_of(R"(
__device__ float deep(float x, int d) {
  volatile float pad[4096];
  pad[(d * 13) & 4095] = x;
  return d > 0 ? deep(x + pad[(d * 7) & 4095], d + 1) + pad[d & 4095] : x;
}
extern "C" __global__ void big_frames(int* out) {
  out[threadIdx.x] = static_cast<int>(deep(1.0f, threadIdx.x + 1));
})",
                            "big_frames", 2, 32);
    EXPECT_EQ(e.kind(), FaultKind::stack_overflow);
    EXPECT_TRUE(e.site().thread_known);
    expect_contains(e.what(), "overflowed its stack");
    expect_device_usable();
}

// Recursion that fits in the stack runs to its end, tail calls and all.
TEST_F(KernelFaults, DeepRecursionThatFitsRuns) {
    auto kernel = Module::compile(R"(
__device__ float sum_to(const float* values, int i, float total) {
  volatile float pad[16];
  pad[i & 15] = values[i];
  return i == 0 ? total + pad[0] : sum_to(values, i - 1, total + pad[i & 15]);
}
extern "C" __global__ void sums(const float* values, float* out, int depth) {
  out[threadIdx.x] = sum_to(values, depth - 1 - threadIdx.x, 0.0f);
})")
                      .kernel("sums");
    const int depth = 200;  // 200 frames of ~100 bytes in a 64 KiB stack
    const auto values = random_floats(depth, 12);
    auto dv = DeviceBuffer::from_host(std::span<const float>(values));
    DeviceBuffer dout(32 * sizeof(float));
    kernel({.grid = 1, .block = 32}, dv, dout, depth);
    std::vector<float> out(32);
    copy(std::span<float>(out), dout.view());
    for (int t = 0; t < 32; ++t) {
        float expected = 0.0f;  // the kernel's order: from the top index down
        for (int i = depth - 1 - t; i > 0; --i) expected += values[i];
        expected += values[0];
        EXPECT_EQ(out[t], expected) << "thread " << t;
    }
}

TEST_F(KernelFaults, WorkQueuedAfterAFaultIsSkippedUntilTheErrorIsReported) {
    if (checking_everything()) GTEST_SKIP() << "check mode stops the access before it happens";
    auto module = Module::compile(R"(
extern "C" __global__ void wild(int* out) { reinterpret_cast<int*>(16)[threadIdx.x] = 1; }
extern "C" __global__ void mark(int* out) { out[threadIdx.x] = 42; })");
    auto out = DeviceBuffer::from_host(std::span<const int>(std::vector<int>(32, 0)));
    module.kernel("wild")({.grid = 1, .block = 32}, out);
    module.kernel("mark")({.grid = 1, .block = 32}, out);
    EXPECT_THROW(Device::current().synchronize(), KernelFaultError);
    std::vector<int> values(32);
    copy(std::span<int>(values), out.view());
    EXPECT_EQ(values, std::vector<int>(32, 0));  // mark was skipped
    module.kernel("mark")({.grid = 1, .block = 32}, out);
    copy(std::span<int>(values), out.view());
    EXPECT_EQ(values, std::vector<int>(32, 42));
}

const char* spinning_kernel = R"(
extern "C" __global__ void spin(volatile int* flag) {
  while (flag[0] == 0) {}
})";

TEST_F(KernelFaults, ASynchronizeTimeoutGivesUpAKernelThatNeverEnds) {
    auto kernel = Module::compile(spinning_kernel).kernel("spin");
    auto flag = DeviceBuffer::from_host(std::span<const int>(std::vector<int>{0}));
    kernel({.grid = 1, .block = 1}, flag);
    const auto start = std::chrono::steady_clock::now();
    const std::string message =
        GPUKIT_MESSAGE_OF(WaitTimeoutError, Device::current().synchronize(std::chrono::milliseconds(500)));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
    expect_contains(message, "timed out after 0.5 s");
    EXPECT_THROW(Device::current().synchronize(std::chrono::duration<double>(-1)), InvalidArgumentError);
    expect_device_usable();
}

// A wait that gives up while the device process is still restarting from an earlier give-up
// (the launch it waits for has not reached a device process yet) must stop that launch all the
// same: it must not start in the new process and spin there, leaving the wait for ever.
TEST_F(KernelFaults, AGiveUpDuringTheDeviceProcessRestartStopsTheLaunchWaitingForIt) {
    auto kernel = Module::compile(spinning_kernel).kernel("spin");
    auto flag = DeviceBuffer::from_host(std::span<const int>(std::vector<int>{0}));
    for (int round = 0; round < 3; ++round) {
        kernel({.grid = 1, .block = 1}, flag);
        EXPECT_THROW(Device::current().synchronize(std::chrono::milliseconds(200)), WaitTimeoutError);
        // The device process restarts now; this launch waits for it, and this wait gives up first.
        Stream stream;
        kernel({.grid = 1, .block = 1, .stream = stream}, flag);
        const auto start = std::chrono::steady_clock::now();
        EXPECT_THROW(stream.synchronize(std::chrono::milliseconds(1)), WaitTimeoutError);
        EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
    }
    expect_device_usable();
}

std::atomic<int> interrupt_calls{0};

TEST_F(KernelFaults, AnInterruptCheckEndsAWaitAndTheDeviceIsUsable) {
    auto kernel = Module::compile(spinning_kernel).kernel("spin");
    auto flag = DeviceBuffer::from_host(std::span<const int>(std::vector<int>{0}));
    interrupt_calls = 0;
    set_wait_interrupt_check([] { return ++interrupt_calls >= 3; });
    kernel({.grid = 2, .block = 32}, flag);
    const std::string message = GPUKIT_MESSAGE_OF(WaitInterruptedError, Device::current().synchronize());
    set_wait_interrupt_check(nullptr);
    EXPECT_GE(interrupt_calls.load(), 3);
    expect_contains(message, "was interrupted");
    expect_device_usable();
}

}  // namespace
}  // namespace gpukit::testing
