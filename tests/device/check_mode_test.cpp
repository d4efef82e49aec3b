// tests/device/check_mode_test.cpp: check mode's memcheck on the course's own mistakes, each next
// to its fixed twin, which must report nothing.
#include <gtest/gtest.h>

#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

class CheckMode : public DeviceTest {
protected:
    void SetUp() override {
        DeviceTest::SetUp();
        if (IsSkipped()) return;
        if (!on_simulator()) GTEST_SKIP() << "check mode is the simulator's (on a GPU, use compute-sanitizer)";
        take_check_report();  // start clean
    }

    static Kernel checked(const char* source, const char* name) {
        CompileOptions options;
        options.check = CheckTool::memcheck;
        return Module::compile(source, options).kernel(name);
    }

    static const Hazard& only_hazard(const CheckReport& report) {
        EXPECT_EQ(report.hazards.size(), 1u) << report.text();
        return report.hazards.at(0);
    }
};

constexpr const char* unchecked_vector_add = R"(
extern "C" __global__ void vector_add(const float* A, const float* B, float* C, const int size) {
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  C[item] = A[item] + B[item];
})";

constexpr const char* checked_vector_add = R"(
extern "C" __global__ void vector_add(const float* A, const float* B, float* C, const int size) {
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  if (item < size) C[item] = A[item] + B[item];
})";

TEST_F(CheckMode, VectorAddWithoutABoundsCheckAndAGridThatOvershoots) {
    const int n = 1000;
    const auto a = random_floats(n, 1), b = random_floats(n, 2);
    auto da = DeviceBuffer::from_host(std::span<const float>(a));
    auto db = DeviceBuffer::from_host(std::span<const float>(b));
    DeviceBuffer dc(n * sizeof(float));
    checked(unchecked_vector_add, "vector_add")({.grid = grid_for(n, 256), .block = 256}, da, db, dc, n);
    const auto report = take_check_report();
    const Hazard& hazard = only_hazard(report);
    EXPECT_EQ(hazard.what, "Invalid __global__ read of size 4 bytes");
    EXPECT_EQ(hazard.kernel, "vector_add");
    EXPECT_EQ(hazard.file, "kernel.cu");
    EXPECT_EQ(hazard.line, 4);
    EXPECT_EQ(hazard.occurrences, 24u);  // threads 1000..1023
    EXPECT_EQ(hazard.block, Dim3(3, 0, 0));  // block indices count from 0
    EXPECT_GE(hazard.thread.x, 232u);
    expect_contains(hazard.detail, "is 0 bytes after the nearest allocation");
    expect_contains(hazard.detail, "of size 4000 bytes");
    expect_contains(report.text(), "========= Invalid __global__ read of size 4 bytes");
    expect_contains(report.text(), "=========     at vector_add in kernel.cu:4");
    expect_contains(report.text(), "========= ERROR SUMMARY: 24 errors");
    // The threads that would have read past the end stopped there: the rest of C is right.
    std::vector<float> c(n);
    copy(std::span<float>(c), dc.view());
    for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;

    // The fixed twin reports nothing.
    checked(checked_vector_add, "vector_add")({.grid = grid_for(n, 256), .block = 256}, da, db, dc, n);
    EXPECT_TRUE(take_check_report().clean());
}

TEST_F(CheckMode, SharedHistogramReadingPastTheInput) {
    const char* planted = R"(
extern "C" __global__ void histogram(const int* input, int* output, const int size) {
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  __shared__ int temp_histogram[256];
  temp_histogram[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&(temp_histogram[input[item]]), 1);
  __syncthreads();
  atomicAdd(&(output[threadIdx.x]), temp_histogram[threadIdx.x]);
})";
    const int n = 1000;  // not a multiple of the block
    std::vector<int> input(n);
    for (int i = 0; i < n; ++i) input[i] = (i * 7) % 256;
    auto din = DeviceBuffer::from_host(std::span<const int>(input));
    DeviceBuffer dout(256 * sizeof(int));
    memset(dout, 0);
    checked(planted, "histogram")({.grid = grid_for(n, 256), .block = 256}, din, dout, n);
    const auto report = take_check_report();
    const Hazard& hazard = only_hazard(report);
    EXPECT_EQ(hazard.what, "Invalid __global__ read of size 4 bytes") << report.text();
    EXPECT_EQ(hazard.line, 7);
    EXPECT_EQ(hazard.occurrences, 24u);
}

TEST_F(CheckMode, ABoundsTestWrittenWithAndInsteadOfOr) {
    const char* planted = R"(
extern "C" __global__ void scale(float* m, int rows, int cols) {
  int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows && c >= cols) return;   // should be ||
  m[r * cols + c] *= 2.0f;
})";
    const char* fixed = R"(
extern "C" __global__ void scale(float* m, int rows, int cols) {
  int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows || c >= cols) return;
  m[r * cols + c] *= 2.0f;
})";
    const int rows = 100, cols = 100;
    DeviceBuffer m(rows * cols * sizeof(float));
    memset(m, 0);
    const Dim3 block(16, 16);
    checked(planted, "scale")({.grid = grid_for(cols, rows, block), .block = block}, m, rows, cols);
    const auto report = take_check_report();
    ASSERT_FALSE(report.clean());
    EXPECT_EQ(report.hazards[0].line, 5);
    checked(fixed, "scale")({.grid = grid_for(cols, rows, block), .block = block}, m, rows, cols);
    EXPECT_TRUE(take_check_report().clean());
}

TEST_F(CheckMode, DynamicSharedMemoryBeyondWhatTheLaunchAskedFor) {
    const char* source = R"(
extern "C" __global__ void stage(const float* in, float* out) {
  extern __shared__ float staged[];
  staged[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = staged[blockDim.x - 1 - threadIdx.x];
})";
    const auto in = random_floats(128, 3);
    auto din = DeviceBuffer::from_host(std::span<const float>(in));
    DeviceBuffer dout(128 * sizeof(float));
    auto kernel = checked(source, "stage");
    kernel({.grid = 1, .block = 128, .shared_bytes = 64 * sizeof(float)}, din, dout);  // half of what it uses
    const auto report = take_check_report();
    ASSERT_FALSE(report.clean());
    EXPECT_EQ(report.hazards[0].what, "Invalid __shared__ write of size 4 bytes");
    expect_contains(report.hazards[0].detail, "past the 256 bytes the launch asked for");
    kernel({.grid = 1, .block = 128, .shared_bytes = 128 * sizeof(float)}, din, dout);
    const auto fixed = take_check_report();
    EXPECT_TRUE(fixed.clean()) << fixed.text();
}

TEST_F(CheckMode, FreedMemoryAndHostPointers) {
    const char* source = R"(
extern "C" __global__ void touch(float* p) { p[threadIdx.x] = 1.0f; })";
    auto kernel = checked(source, "touch");
    std::uint64_t freed_address = 0;
    {
        DeviceBuffer gone(64 * sizeof(float));
        freed_address = gone.address();
    }
    kernel({.grid = 1, .block = 32}, DevicePtr{freed_address});
    auto report = take_check_report();
    ASSERT_FALSE(report.clean());
    expect_contains(report.hazards[0].detail, "that was freed");

    static float host[64];  // not from the heap, where a freed buffer's address may come back
    kernel({.grid = 1, .block = 32}, DevicePtr{reinterpret_cast<std::uint64_t>(host)});
    report = take_check_report();
    ASSERT_FALSE(report.clean());
    EXPECT_EQ(report.hazards[0].what, "Invalid __global__ write of size 4 bytes");
    EXPECT_EQ(host[0], 0.0f);  // the write never happened
}

TEST_F(CheckMode, EnvironmentNamesTheTools) {
    EXPECT_EQ(parse_check_tools("memcheck,racecheck"), CheckTool::memcheck | CheckTool::racecheck);
    EXPECT_EQ(parse_check_tools("all"), CheckTool::all);
    EXPECT_EQ(parse_check_tools(""), CheckTool::none);
    EXPECT_THROW(parse_check_tools("memchek"), InvalidArgumentError);
    EXPECT_EQ(to_string(CheckTool::memcheck | CheckTool::initcheck), "memcheck,initcheck");
}

}  // namespace
}  // namespace gpukit::testing
