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
