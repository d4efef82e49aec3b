// tests/device/check_mode_test.cpp: check mode's tools on the course's own mistakes, each next
// to its fixed twin, which must report nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <tuple>

#include "device/device_kernels.hpp"
#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

class CheckMode : public DeviceTest {
protected:
    void SetUp() override {
        DeviceTest::SetUp();
        if (IsSkipped()) return;
        if (!on_simulator()) GTEST_SKIP() << "check mode is the simulator's (on a GPU, use compute-sanitizer)";
        if (checking_everything())
            GTEST_SKIP() << "these tests choose their own tools; under --check they would only run again, "
                            "the 1000x1000 one for minutes";
        take_check_report();  // start clean
    }

    static Kernel checked(const char* source, const char* name, CheckTools tools = CheckTool::memcheck) {
        CompileOptions options;
        options.check = tools;
        return Module::compile(source, options).kernel(name);
    }

    static std::vector<Hazard> races(const CheckReport& report) {
        std::vector<Hazard> found;
        for (const auto& hazard : report.hazards)
            if (hazard.tool == CheckTool::racecheck) found.push_back(hazard);
        return found;
    }

    static std::vector<float> floats_of(const DeviceBuffer& buffer) {
        std::vector<float> host(buffer.size_bytes() / sizeof(float));
        copy(std::span<float>(host), buffer.view());
        return host;
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
    EXPECT_EQ(hazard.occurrences, 24u);      // threads 1000..1023
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

// What GPUKIT_CHECK turns on: each hazard printed once to stderr, compute-sanitizer style, at the
// first synchronisation after its launch, and still handed to take_check_report().
TEST_F(CheckMode, PrintsEachHazardOnceOnStderrAtTheNextSynchronisation) {
    struct PrintingOn {
        bool before = print_check_report();
        PrintingOn() { set_print_check_report(true); }
        PrintingOn(const PrintingOn&) = delete;
        PrintingOn& operator=(const PrintingOn&) = delete;
        ~PrintingOn() { set_print_check_report(before); }
    } printing;
    const int n = 1000;
    const auto a = random_floats(n, 5), b = random_floats(n, 6);
    auto da = DeviceBuffer::from_host(std::span<const float>(a));
    auto db = DeviceBuffer::from_host(std::span<const float>(b));
    DeviceBuffer dc(n * sizeof(float));
    auto count = [](const std::string& text, const std::string& word) {
        std::size_t found = 0;
        for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++found;
        return found;
    };

    ::testing::internal::CaptureStderr();
    checked(unchecked_vector_add, "vector_add")({.grid = grid_for(n, 256), .block = 256}, da, db, dc, n);
    Device::current().synchronize();
    Device::current().synchronize();  // nothing new: nothing printed
    std::vector<float> c(n);
    copy(std::span<float>(c), dc.view());
    const std::string printed = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(count(printed, "========= Invalid __global__ read of size 4 bytes\n"), 1u) << printed;
    expect_contains(printed, "=========     at vector_add in kernel.cu:4\n");
    expect_contains(printed, "=========     (24 times from this line)\n");
    EXPECT_EQ(count(printed, "ERROR SUMMARY"), 0u) << printed;  // the summary waits for the exit
    for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;

    // The printed hazard is still in the report, and taking it prints nothing again.
    ::testing::internal::CaptureStderr();
    const auto report = take_check_report();
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
    EXPECT_EQ(only_hazard(report).line, 4);

    // A hazard taken before any synchronisation is printed as it is taken, once; the twin prints nothing.
    ::testing::internal::CaptureStderr();
    checked(unchecked_vector_add, "vector_add")({.grid = grid_for(n, 256), .block = 256}, da, db, dc, n);
    EXPECT_EQ(take_check_report().hazards.size(), 1u);
    checked(checked_vector_add, "vector_add")({.grid = grid_for(n, 256), .block = 256}, da, db, dc, n);
    Device::current().synchronize();
    EXPECT_TRUE(take_check_report().clean());
    const std::string again = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(count(again, "========= Invalid __global__"), 1u) << again;
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

// Outside check mode an access far past every allocation faults (the simulator's guard pages);
// memcheck stops it before it happens and reports it, and the launch goes on.
TEST_F(CheckMode, AnAccessFarPastAnArrayIsAHazardNotAFault) {
    const char* source = R"(
extern "C" __global__ void far(float* p) {
  if (blockIdx.x == 3 && threadIdx.x == 5) p[1 << 26] = 1.0f;
  p[blockIdx.x * blockDim.x + threadIdx.x] = 2.0f;
})";
    DeviceBuffer p(256 * sizeof(float));
    checked(source, "far")({.grid = 4, .block = 64}, p);
    const auto report = take_check_report();
    const Hazard& hazard = only_hazard(report);
    EXPECT_EQ(hazard.what, "Invalid __global__ write of size 4 bytes");
    EXPECT_EQ(hazard.block, Dim3(3, 0, 0));
    EXPECT_EQ(hazard.thread, Dim3(5, 0, 0));
    EXPECT_EQ(hazard.address, p.address() + (std::uint64_t{1} << 26) * sizeof(float));
    std::vector<float> values(256);
    copy(std::span<float>(values), p.view());
    for (int i = 0; i < 256; ++i) {
        if (i == 3 * 64 + 5) continue;  // stopped at the bad write
        ASSERT_EQ(values[i], 2.0f) << i;
    }
}

TEST_F(CheckMode, HistogramWithANonAtomicIncrement) {
    const char* planted = R"(
extern "C" __global__ void histogram(const int* input, int* output, const int size) {
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  if (item < size) output[input[item]] += 1;
})";
    const char* fixed = R"(
extern "C" __global__ void histogram(const int* input, int* output, const int size) {
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  if (item < size) atomicAdd(&output[input[item]], 1);
})";
    const int n = 2000;
    std::vector<int> input(n);
    for (int i = 0; i < n; ++i) input[i] = (i * 13) % 16;
    auto din = DeviceBuffer::from_host(std::span<const int>(input));
    DeviceBuffer dout(16 * sizeof(int));
    memset(dout, 0);
    checked(planted, "histogram", CheckTool::racecheck)({.grid = grid_for(n, 256), .block = 256}, din, dout, n);
    const auto report = take_check_report();
    const auto found = races(report);
    ASSERT_FALSE(found.empty()) << report.text();
    EXPECT_EQ(found[0].line, 4);
    EXPECT_EQ(found[0].other_line, 4);
    expect_contains(found[0].what, "on __global__ memory");
    expect_contains(report.text(), "========= Race reported between");
    memset(dout, 0);
    checked(fixed, "histogram", CheckTool::racecheck)({.grid = grid_for(n, 256), .block = 256}, din, dout, n);
    const auto clean = take_check_report();
    EXPECT_TRUE(clean.clean()) << clean.text();
}

// The course's tiled matmul with one of its two __syncthreads left out.
std::string tiled_matmul(bool first_barrier, bool second_barrier) {
    return std::string(R"(
#define TILE 16
extern "C" __global__ void matmul_tiled(const float* m, const float* n, float* out, int size) {
  __shared__ float ms[TILE][TILE];
  __shared__ float ns[TILE][TILE];
  int tr = threadIdx.y, tc = threadIdx.x;
  int r = blockIdx.y * TILE + tr, c = blockIdx.x * TILE + tc;
  float p = 0.0f;
  for (int phase = 0; phase < size / TILE; ++phase) {
    ms[tr][tc] = m[r * size + phase * TILE + tc];
    ns[tr][tc] = n[(phase * TILE + tr) * size + c];
)") + (first_barrier ? "    __syncthreads();\n" : "    \n") +
           R"(    for (int i = 0; i < TILE; ++i) p += ms[tr][i] * ns[i][tc];
)" + (second_barrier ? "    __syncthreads();\n" : "    \n") +
           R"(  }
  out[r * size + c] = p;
})";
}

TEST_F(CheckMode, TiledMatmulMissingEachOfItsBarriers) {
    const int size = 32;
    const auto m = random_floats(size * size, 4), n = random_floats(size * size, 5);
    auto dm = DeviceBuffer::from_host(std::span<const float>(m));
    auto dn = DeviceBuffer::from_host(std::span<const float>(n));
    DeviceBuffer dout(size * size * sizeof(float));
    const LaunchConfig config{.grid = {2, 2}, .block = {16, 16}};
    // Without the first barrier a tile is read (line 13) before all of it is written (lines 10-11);
    // without the second, the next phase overwrites it (lines 10-11) while it is still read.
    for (auto [first, second] : {std::tuple{false, true}, std::tuple{true, false}}) {
        const std::string source = tiled_matmul(first, second);
        checked(source.c_str(), "matmul_tiled", CheckTool::racecheck)(config, dm, dn, dout, size);
        const auto report = take_check_report();
        const auto found = races(report);
        ASSERT_FALSE(found.empty()) << "no race found without barrier " << (first ? 2 : 1);
        (void)second;
        bool tile_race = false;
        for (const auto& race : found) {
            const bool lines = (race.line == 13 && (race.other_line == 10 || race.other_line == 11)) ||
                               (race.other_line == 13 && (race.line == 10 || race.line == 11));
            tile_race |= lines && race.what.find("__shared__") != std::string::npos;
        }
        EXPECT_TRUE(tile_race) << "expected a race between lines 10-11 and 13\n" << report.text();
    }
    const std::string fixed = tiled_matmul(true, true);
    checked(fixed.c_str(), "matmul_tiled", CheckTool::racecheck)(config, dm, dn, dout, size);
    const auto clean = take_check_report();
    EXPECT_TRUE(clean.clean()) << clean.text();
}

// The course's tiled matmul for any size, with its tile loads guarded or not.
std::string tiled_matmul_any_size(bool guarded) {
    return std::string(R"(
#define TILE 16
extern "C" __global__ void matmul_tiled(const float* m, const float* n, float* out, int size) {
  __shared__ float ms[TILE][TILE];
  __shared__ float ns[TILE][TILE];
  int tr = threadIdx.y, tc = threadIdx.x;
  int r = blockIdx.y * TILE + tr, c = blockIdx.x * TILE + tc;
  float p = 0.0f;
  for (int phase = 0; phase < (size + TILE - 1) / TILE; ++phase) {
    int idx = phase * TILE;
)") +
           (guarded ? R"(    ms[tr][tc] = (r < size && idx + tc < size) ? m[r * size + idx + tc] : 0.0f;
    ns[tr][tc] = (c < size && idx + tr < size) ? n[(idx + tr) * size + c] : 0.0f;
)"
                    : R"(    ms[tr][tc] = m[r * size + idx + tc];
    ns[tr][tc] = n[(idx + tr) * size + c];
)") + R"(    __syncthreads();
    for (int i = 0; i < TILE; ++i) p += ms[tr][i] * ns[i][tc];
    __syncthreads();
  }
  if (r < size && c < size) out[r * size + c] = p;
})";
}

TEST_F(CheckMode, TileLoadsWithoutBoundsChecksOn1000By1000) {
    const int size = 1000;  // not a multiple of the 16-wide tile: the last tiles hang over the edge
    const auto m = random_floats(size * size, 11), n = random_floats(size * size, 12);
    auto dm = DeviceBuffer::from_host(std::span<const float>(m));
    auto dn = DeviceBuffer::from_host(std::span<const float>(n));
    DeviceBuffer dout(size * size * sizeof(float));
    const LaunchConfig config{.grid = grid_for(size, size, Dim3(16, 16)), .block = Dim3(16, 16)};
    const auto planted = tiled_matmul_any_size(false);
    checked(planted.c_str(), "matmul_tiled")(config, dm, dn, dout, size);
    auto report = take_check_report();
    bool m_load = false, n_load = false;
    for (const auto& hazard : report.hazards) {
        // With initcheck on as well, the tile elements a stopped thread never loaded are reported too.
        if (hazard.tool != CheckTool::memcheck) continue;
        EXPECT_EQ(hazard.what, "Invalid __global__ read of size 4 bytes") << report.text();
        m_load |= hazard.line == 11;
        n_load |= hazard.line == 12;
    }
    EXPECT_TRUE(m_load && n_load) << "expected reads past the end of both inputs\n" << report.text();

    const auto fixed = tiled_matmul_any_size(true);
    checked(fixed.c_str(), "matmul_tiled")(config, dm, dn, dout, size);
    report = take_check_report();
    EXPECT_TRUE(report.clean()) << report.text();
    std::vector<float> out(size * size);
    copy(std::span<float>(out), dout.view());
    for (int probe = 0; probe < 50; ++probe) {
        const int r = (probe * 97 + 999) % size, c = (probe * 61 + 998) % size;
        double ref = 0;
        for (int i = 0; i < size; ++i) ref += double(m[r * size + i]) * n[i * size + c];
        EXPECT_NEAR(out[r * size + c], ref, 1e-3 * (1 + std::abs(ref))) << r << "," << c;
    }
}

TEST_F(CheckMode, AWriteWriteRaceBetweenBlocks) {
    const char* planted = R"(
extern "C" __global__ void last_writer(int* out) {
  if (threadIdx.x == 0) out[0] = blockIdx.x;
})";
    const char* fixed = R"(
extern "C" __global__ void last_writer(int* out) {
  if (threadIdx.x == 0) atomicMax(&out[0], (int)blockIdx.x);
})";
    DeviceBuffer out(sizeof(int));
    memset(out, 0);
    checked(planted, "last_writer", CheckTool::racecheck)({.grid = 4, .block = 32}, out);
    const auto report = take_check_report();
    const auto found = races(report);
    ASSERT_EQ(found.size(), 1u) << report.text();
    expect_contains(found[0].what, "write-after-write");
    expect_contains(found[0].detail, "from different blocks");
    EXPECT_NE(found[0].block, found[0].other_block);
    checked(fixed, "last_writer", CheckTool::racecheck)({.grid = 4, .block = 32}, out);
    EXPECT_TRUE(take_check_report().clean());
}

TEST_F(CheckMode, ALastBlockReductionWithoutItsThreadfence) {
    const int n = 5000;
    std::vector<int> in(n);
    for (int i = 0; i < n; ++i) in[i] = (i * 7919 + 13) % 3 - 1;
    auto din = DeviceBuffer::from_host(std::span<const int>(in));
    const Dim3 grid = grid_for(n, 128);
    DeviceBuffer partial(grid.x * sizeof(int));
    DeviceBuffer total(sizeof(int));
    const LaunchConfig config{.grid = grid, .block = 128};
    checked(last_block_sum_source(false).c_str(), "last_block_sum", CheckTool::racecheck)(config, din, partial, total,
                                                                                          n);
    auto report = take_check_report();
    const auto found = races(report);
    ASSERT_EQ(found.size(), 1u) << report.text();
    expect_contains(found[0].what, "read-after-write");
    expect_contains(found[0].detail, "from different blocks");
    EXPECT_EQ(found[0].line, 15) << report.text();       // the last block's read of partial[b]
    EXPECT_EQ(found[0].other_line, 8) << report.text();  // another block's unfenced write

    checked(last_block_sum_source(true).c_str(), "last_block_sum", CheckTool::racecheck)(config, din, partial, total,
                                                                                         n);
    report = take_check_report();
    EXPECT_TRUE(report.clean()) << report.text();
    int sum = 0;
    copy(std::span<int>(&sum, 1), total.view());
    EXPECT_EQ(sum, std::count_if(in.begin(), in.end(), [](int v) { return v > 0; }));
}

// The course's "shared memory" vector add keeps one scratch array for the whole block: every
// thread writes the same three floats. Modules checked by racecheck keep every store the source makes
// (-Og), so the race is seen even though an optimiser could forward each thread's own stores.
TEST_F(CheckMode, AScratchArrayTheWholeBlockShares) {
    const char* planted = R"(
extern "C" __global__ void vector_add(const float* A, const float* B, float* C, const int size) {
  int item = blockIdx.x * blockDim.x + threadIdx.x;
  __shared__ float temp[3];
  if (item < size) {
    temp[0] = A[item];
    temp[1] = B[item];
    temp[2] = temp[0] + temp[1];
    C[item] = temp[2];
  }
})";
    const std::string fixed = std::string(planted).replace(std::string(planted).find("__shared__ "), 11, "");
    const int n = 1000;
    const auto a = random_floats(n, 15), b = random_floats(n, 16);
    auto da = DeviceBuffer::from_host(std::span<const float>(a));
    auto db = DeviceBuffer::from_host(std::span<const float>(b));
    DeviceBuffer dc(n * sizeof(float));
    const LaunchConfig config{.grid = grid_for(n, 256), .block = 256};
    checked(planted, "vector_add", CheckTool::racecheck)(config, da, db, dc, n);
    auto report = take_check_report();
    const auto found = races(report);
    ASSERT_FALSE(found.empty()) << report.text();
    for (const auto& race : found)
        EXPECT_EQ(race.what, "Race (write-after-write) on __shared__ memory") << report.text();
    EXPECT_TRUE(std::any_of(found.begin(), found.end(), [](const Hazard& h) { return h.line == 6; })) << report.text();

    checked(fixed.c_str(), "vector_add", CheckTool::racecheck)(config, da, db, dc, n);
    report = take_check_report();
    EXPECT_TRUE(report.clean()) << report.text();
    std::vector<float> c(n);
    copy(std::span<float>(c), dc.view());
    for (int i = 0; i < n; ++i) EXPECT_EQ(c[i], a[i] + b[i]) << i;
}

std::vector<Hazard> sync_errors(const CheckReport& report) {
    std::vector<Hazard> found;
    for (const auto& hazard : report.hazards)
        if (hazard.tool == CheckTool::synccheck) found.push_back(hazard);
    return found;
}

// A reversal through shared memory in 64-thread blocks, with its barrier in various places.
std::string reverse_kernel(const char* before_barrier, const char* barrier) {
    return std::string(R"(
extern "C" __global__ void reverse(const float* in, float* out) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
)") + before_barrier +
           "\n" + barrier + R"(
  out[blockIdx.x * 64 + t] = s[63 - t];
})";
}

TEST_F(CheckMode, SyncthreadsInsideABranch) {
    const auto in = random_floats(128, 6);
    auto din = DeviceBuffer::from_host(std::span<const float>(in));
    DeviceBuffer dout(128 * sizeof(float));
    const LaunchConfig config{.grid = 2, .block = 64};

    // Threads 48-63 skip the barrier and go on: line 7 is reached by only part of the block.
    auto source = reverse_kernel("", "  if (t < 48) __syncthreads();");
    checked(source.c_str(), "reverse", CheckTool::synccheck)(config, din, dout);
    auto report = take_check_report();
    auto found = sync_errors(report);
    ASSERT_EQ(found.size(), 1u) << report.text();
    EXPECT_EQ(found[0].what, "Barrier error detected. Divergent thread(s) in block");
    EXPECT_EQ(found[0].line, 7);
    EXPECT_EQ(found[0].occurrences, 32u);  // 16 threads in each of 2 blocks
    expect_contains(found[0].detail, "returned without reaching this __syncthreads, which 48 threads wait at");
    expect_contains(found[0].detail, "its last access, at kernel.cu:8");
    expect_contains(report.text(), "========= Barrier error detected. Divergent thread(s) in block");

    // Two different barriers: the halves of the block wait at lines 7 and 8.
    source = reverse_kernel("", "  if (t < 32) __syncthreads();\n  else __syncthreads();");
    checked(source.c_str(), "reverse", CheckTool::synccheck)(config, din, dout);
    report = take_check_report();
    found = sync_errors(report);
    ASSERT_EQ(found.size(), 1u) << report.text();
    EXPECT_EQ(found[0].line, 8);
    EXPECT_EQ(found[0].other_line, 7);
    EXPECT_EQ(found[0].occurrences, 64u);
    expect_contains(found[0].detail, "while thread (0,0,0) waits at the one at kernel.cu:7");

    // Fixed twins: the barrier outside the branch, and an early return before it (exited threads
    // count as arrived, on the GPU too).
    source = reverse_kernel("", "  __syncthreads();");
    checked(source.c_str(), "reverse", CheckTool::synccheck)(config, din, dout);
    report = take_check_report();
    EXPECT_TRUE(report.clean()) << report.text();
    std::vector<float> got(128);
    copy(std::span<float>(got), dout.view());
    for (int i = 0; i < 128; ++i) EXPECT_EQ(got[i], in[(i / 64) * 64 + 63 - i % 64]) << i;
    const char* early_return = R"(
extern "C" __global__ void halves(const float* in, float* out) {
  __shared__ float s[64];
  int t = threadIdx.x;
  if (t >= 40) return;
  s[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  out[blockIdx.x * 64 + t] = s[39 - t];
})";
    checked(early_return, "halves", CheckTool::synccheck)(config, din, dout);
    report = take_check_report();
    EXPECT_TRUE(report.clean()) << report.text();
}

TEST_F(CheckMode, AShuffleAfterHalfTheWarpReturned) {
    const auto in = random_floats(32, 7);
    auto din = DeviceBuffer::from_host(std::span<const float>(in));
    DeviceBuffer dout(32 * sizeof(float));
    // Lanes 0-15 read lanes 16-31, which have returned.
    const char* planted = R"(
extern "C" __global__ void fold(const float* in, float* out) {
  int lane = threadIdx.x;
  float v = in[lane];
  if (lane >= 16) return;
  v += __shfl_down_sync(0xffffffff, v, 16);
  out[lane] = v;
})";
    checked(planted, "fold", CheckTool::synccheck)({.grid = 1, .block = 32}, din, dout);
    auto report = take_check_report();
    auto found = sync_errors(report);
    ASSERT_EQ(found.size(), 1u) << report.text();
    EXPECT_EQ(found[0].line, 6);
    EXPECT_EQ(found[0].occurrences, 16u);
    expect_contains(found[0].detail, "lane 0 reads lane 16 through __shfl_down_sync");

    // A mask that leaves the calling lane out.
    const char* bad_mask = R"(
extern "C" __global__ void fold(const float* in, float* out) {
  int lane = threadIdx.x;
  out[lane] = __shfl_sync(0x0000ffff, in[lane], 0);
})";
    checked(bad_mask, "fold", CheckTool::synccheck)({.grid = 1, .block = 32}, din, dout);
    report = take_check_report();
    found = sync_errors(report);
    ASSERT_EQ(found.size(), 1u) << report.text();
    EXPECT_EQ(found[0].what, "Invalid arguments to a warp intrinsic");
    EXPECT_EQ(found[0].occurrences, 16u);
    expect_contains(found[0].detail, "the mask 0x0000ffff of __shfl_sync leaves out the calling lane 16");

    // Fixed twin: shuffle while the whole warp is there, then return.
    const char* fixed = R"(
extern "C" __global__ void fold(const float* in, float* out) {
  int lane = threadIdx.x;
  float v = in[lane];
  v += __shfl_down_sync(0xffffffff, v, 16);
  if (lane >= 16) return;
  out[lane] = v;
})";
    checked(fixed, "fold", CheckTool::synccheck)({.grid = 1, .block = 32}, din, dout);
    report = take_check_report();
    EXPECT_TRUE(report.clean()) << report.text();
    std::vector<float> got(32);
    copy(std::span<float>(got), dout.view());
    for (int i = 0; i < 16; ++i) EXPECT_FLOAT_EQ(got[i], in[i] + in[i + 16]) << i;
}

// initcheck's hazards in source order (the report's order follows code addresses).
std::vector<Hazard> uninitialised_reads(const CheckReport& report) {
    std::vector<Hazard> found;
    for (const auto& hazard : report.hazards)
        if (hazard.tool == CheckTool::initcheck) found.push_back(hazard);
    std::sort(found.begin(), found.end(), [](const Hazard& a, const Hazard& b) { return a.line < b.line; });
    return found;
}

// The course's shared-memory histogram, with and without zeroing its bins first.
std::string shared_histogram(bool zero_bins) {
    return std::string(R"(
extern "C" __global__ void histogram(const int* in, int* counts, int n) {
  __shared__ int bins[64];
  int t = threadIdx.x;
)") + (zero_bins ? "  bins[t] = 0;\n  __syncthreads();\n" : "\n\n") +
           R"(  int i = blockIdx.x * blockDim.x + t;
  if (i < n) atomicAdd(&bins[in[i] % 64], 1);
  __syncthreads();
  atomicAdd(&counts[t], bins[t]);
})";
}

TEST_F(CheckMode, AnUninitialisedSharedRead) {
    const int n = 1000;
    std::vector<int> in(n);
    for (int i = 0; i < n; ++i) in[i] = (i * 7919 + 13) % 1000;
    auto din = DeviceBuffer::from_host(std::span<const int>(in));
    DeviceBuffer dcounts(64 * sizeof(int));
    memset(dcounts, 0);
    const LaunchConfig config{.grid = grid_for(n, 64), .block = 64};
    const auto planted = shared_histogram(false);
    checked(planted.c_str(), "histogram", CheckTool::initcheck)(config, din, dcounts, n);
    auto report = take_check_report();
    auto found = uninitialised_reads(report);
    ASSERT_EQ(found.size(), 2u) << report.text();  // the atomic increment (line 8) and the final read (line 10)
    EXPECT_EQ(found[0].what, "Uninitialized __shared__ memory read of size 4 bytes");
    EXPECT_EQ(found[0].line, 8);
    EXPECT_EQ(found[1].line, 10);
    expect_contains(found[0].detail, "bytes into __shared__ histogram::bins, which no thread of block");
    expect_contains(report.text(), "========= Uninitialized __shared__ memory read of size 4 bytes");

    memset(dcounts, 0);
    const auto fixed = shared_histogram(true);
    checked(fixed.c_str(), "histogram", CheckTool::initcheck)(config, din, dcounts, n);
    report = take_check_report();
    EXPECT_TRUE(report.clean()) << report.text();
    std::vector<int> counts(64), expected(64, 0);
    for (int v : in) ++expected[v % 64];
    copy(std::span<int>(counts), dcounts.view());
    EXPECT_EQ(counts, expected);
}

TEST_F(CheckMode, DeviceMemoryReadBeforeAnythingWroteIt) {
    const int n = 300;
    const auto x = random_floats(n, 8);
    auto dx = DeviceBuffer::from_host(std::span<const float>(x));
    const char* accumulate = R"(
extern "C" __global__ void accumulate(const float* x, float* total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) total[i] += x[i];
})";
    const LaunchConfig config{.grid = grid_for(n, 128), .block = 128};
    DeviceBuffer never_written(n * sizeof(float));
    checked(accumulate, "accumulate", CheckTool::initcheck)(config, dx, never_written, n);
    auto report = take_check_report();
    const auto& hazard = only_hazard(report);
    EXPECT_EQ(hazard.tool, CheckTool::initcheck);
    EXPECT_EQ(hazard.what, "Uninitialized __global__ memory read of size 4 bytes");
    EXPECT_EQ(hazard.line, 4);
    EXPECT_EQ(hazard.occurrences, static_cast<std::uint64_t>(n));
    expect_contains(hazard.detail, "which no copy, memset or kernel wrote before this read");

    // Fixed twins: zeroed first; written by a checked kernel; written by a kernel without initcheck.
    DeviceBuffer zeroed(n * sizeof(float));
    memset(zeroed, 0);
    checked(accumulate, "accumulate", CheckTool::initcheck)(config, dx, zeroed, n);
    const char* fill = R"(
extern "C" __global__ void fill(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.0f;
})";
    DeviceBuffer filled(n * sizeof(float));
    checked(fill, "fill", CheckTool::initcheck)(config, filled, n);
    checked(accumulate, "accumulate", CheckTool::initcheck)(config, dx, filled, n);
    DeviceBuffer filled_unchecked(n * sizeof(float));
    Module::compile(fill).kernel("fill")(config, filled_unchecked, n);
    checked(accumulate, "accumulate", CheckTool::initcheck)(config, dx, filled_unchecked, n);
    report = take_check_report();
    EXPECT_TRUE(report.clean()) << report.text();
    std::vector<float> got(n);
    copy(std::span<float>(got), filled.view());
    for (int i = 0; i < n; ++i) EXPECT_FLOAT_EQ(got[i], 1.0f + x[i]) << i;
}

TEST_F(CheckMode, RaisingOnAHazard) {
    const int n = 1000;
    const auto a = random_floats(n, 9), b = random_floats(n, 10);
    auto da = DeviceBuffer::from_host(std::span<const float>(a));
    auto db = DeviceBuffer::from_host(std::span<const float>(b));
    DeviceBuffer dc(n * sizeof(float));
    const LaunchConfig config{.grid = grid_for(n, 256), .block = 256};
    set_raise_on_hazard(true);
    struct Restore {
        ~Restore() { set_raise_on_hazard(false); }
    } restore;
    checked(unchecked_vector_add, "vector_add")(config, da, db, dc, n);
    try {
        Device::current().synchronize();
        ADD_FAILURE() << "no HazardError";
    } catch (const HazardError& e) {
        EXPECT_EQ(e.hazard().line, 4);
        expect_contains(e.what(), "Invalid __global__ read of size 4 bytes in vector_add at kernel.cu:4");
    }
    EXPECT_EQ(take_check_report().hazards.size(), 1u);  // still in the report
    // The process goes on: the fixed kernel runs, checked, and raises nothing.
    checked(checked_vector_add, "vector_add")(config, da, db, dc, n);
    Device::current().synchronize();
    std::vector<float> c(n);
    copy(std::span<float>(c), dc.view());
    for (int i = 0; i < n; ++i) EXPECT_EQ(c[i], a[i] + b[i]) << i;
    EXPECT_TRUE(take_check_report().clean());
}

TEST_F(CheckMode, EnvironmentNamesTheTools) {
    EXPECT_EQ(CheckTools::parse("memcheck,racecheck"), CheckTool::memcheck | CheckTool::racecheck);
    EXPECT_EQ(CheckTools::parse("all"), CheckTools::all());
    EXPECT_EQ(CheckTools::parse(""), CheckTools{});
    EXPECT_EQ(CheckTools::parse("none"), CheckTools{});
    EXPECT_THROW(CheckTools::parse("memchek"), InvalidArgumentError);
    EXPECT_EQ((CheckTool::memcheck | CheckTool::initcheck).to_string(), "memcheck,initcheck");
    EXPECT_EQ(CheckTools{}.to_string(), "none");
    EXPECT_TRUE(CheckTools::all().contains(CheckTool::memcheck | CheckTool::synccheck));
    EXPECT_FALSE(CheckTools(CheckTool::racecheck).contains(CheckTool::memcheck));
    EXPECT_EQ(CheckTools::from_bits(CheckTools::all().bits()), CheckTools::all());
}

// Each __constant__ and __device__ variable is bounded on its own, as an allocation is: reading
// past a __constant__ array is a constant-memory access out of bounds, named by the variable.
TEST_F(CheckMode, ConstantAndDeviceVariablesAreBoundedOneByOne) {
    const char* weigh = R"(
__constant__ float coefficients[4];
extern "C" __global__ void weigh(const float* x, float* y, int taps) {
  int i = threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < taps; ++t) sum += coefficients[t] * x[i + t];
  y[i] = sum;
})";
    const auto x = random_floats(64, 17), weights = random_floats(4, 18);
    auto dx = DeviceBuffer::from_host(std::span<const float>(x));
    DeviceBuffer dy(32 * sizeof(float));
    auto module = Module::compile(weigh, CompileOptions{.check = CheckTool::memcheck});
    module.write_global("coefficients", std::span<const float>(weights));
    for (const int taps : {6, 1000}) {  // just past the array, and far past it
        module.kernel("weigh")({.grid = 1, .block = 32}, dx, dy, taps);
        const auto report = take_check_report();
        const Hazard& hazard = only_hazard(report);
        EXPECT_EQ(hazard.what, "Invalid __constant__ read of size 4 bytes") << report.text();
        EXPECT_EQ(hazard.line, 6);
        EXPECT_EQ(hazard.file, "kernel.cu");
        EXPECT_EQ(hazard.occurrences, 32u);  // each thread stops at its first
        expect_contains(hazard.detail, "0 bytes after the end of __constant__ coefficients");
        expect_contains(hazard.detail, "16 bytes): offset 16 of it");
    }
    // The fixed twin: four taps, the right sums.
    module.kernel("weigh")({.grid = 1, .block = 32}, dx, dy, 4);
    const auto clean = take_check_report();
    EXPECT_TRUE(clean.clean()) << clean.text();
    std::vector<float> y(32);
    copy(std::span<float>(y), dy.view());
    for (int i = 0; i < 32; ++i) {
        float sum = 0.0f;
        for (int t = 0; t < 4; ++t) sum += weights[t] * x[i + t];
        EXPECT_FLOAT_EQ(y[i], sum) << i;
    }

    const char* count = R"(
__device__ int counts[8];
extern "C" __global__ void count(int bins) {
  atomicAdd(&counts[threadIdx.x % bins], 1);
})";
    auto counting = Module::compile(count, CompileOptions{.check = CheckTool::memcheck});
    counting.kernel("count")({.grid = 1, .block = 32}, 9);  // bin 8 is one past the end
    auto report = take_check_report();
    const Hazard& hazard = only_hazard(report);
    EXPECT_EQ(hazard.what, "Invalid __global__ atomic of size 4 bytes") << report.text();
    EXPECT_EQ(hazard.line, 4);
    expect_contains(hazard.detail, "0 bytes after the end of __device__ variable counts");
    expect_contains(hazard.detail, "32 bytes): offset 32 of it");
    EXPECT_EQ(hazard.occurrences, 3u);  // threads 8, 17 and 26
    counting.write_global("counts", std::span<const int>(std::vector<int>(8, 0)));
    counting.kernel("count")({.grid = 1, .block = 32}, 8);
    report = take_check_report();
    EXPECT_TRUE(report.clean()) << report.text();
    EXPECT_EQ(counting.read_global<int>("counts"), std::vector<int>(8, 4));
}

// The issue's kernel: an index past a four-element __constant__ table is a constant-memory read
// out of bounds of `table`, with its size and the offset, and the thread stops before it.
TEST_F(CheckMode, AConstantTableReadPastItsEndNamesTheTable) {
    const char* source = R"(
__constant__ float table[4];
extern "C" __global__ void k(float* p, int n) { p[0] = table[n]; }   // launched with n = 6
)";
    auto module = Module::compile(source, CompileOptions{.check = CheckTool::memcheck});
    const auto values = random_floats(4, 31);
    module.write_global("table", std::span<const float>(values));
    const float untouched = 12345.0f;
    auto out = DeviceBuffer::from_host(std::span<const float>(&untouched, 1));
    const std::tuple<int, const char*, const char*> cases[] = {
        {6, "8 bytes after the end of __constant__ table", "16 bytes): offset 24 of it"},
        {4, "0 bytes after the end of __constant__ table", "16 bytes): offset 16 of it"},
        {-1, "4 bytes before __constant__ table", "16 bytes): offset -4 of it"},
    };
    for (const auto& [n, where, offset] : cases) {
        module.kernel("k")({.grid = 1, .block = 1}, out, n);
        const auto report = take_check_report();
        const Hazard& hazard = only_hazard(report);
        EXPECT_EQ(hazard.tool, CheckTool::memcheck);
        EXPECT_EQ(hazard.what, "Invalid __constant__ read of size 4 bytes") << report.text();
        EXPECT_EQ(hazard.kernel, "k");
        EXPECT_EQ(hazard.file, "kernel.cu");
        EXPECT_EQ(hazard.line, 3);
        EXPECT_EQ(hazard.block, Dim3(0, 0, 0));
        EXPECT_EQ(hazard.thread, Dim3(0, 0, 0));
        EXPECT_EQ(hazard.size, 4u);
        EXPECT_FALSE(hazard.is_write);
        expect_contains(hazard.detail, where);
        expect_contains(hazard.detail, offset);
        expect_contains(report.text(), "========= Invalid __constant__ read of size 4 bytes");
        EXPECT_EQ(floats_of(out), std::vector<float>{untouched});  // it stopped before the store
    }
    for (int n = 0; n < 4; ++n) {
        module.kernel("k")({.grid = 1, .block = 1}, out, n);
        EXPECT_EQ(floats_of(out), std::vector<float>{values[n]});
        const auto clean = take_check_report();
        EXPECT_TRUE(clean.clean()) << clean.text();
    }
}

// An index run out of one variable is that variable's overrun even where its neighbour lies (each
// variable has red zones around it): reads of a __constant__ array between others, and writes to
// a __device__ array, which stop before they change its neighbour.
TEST_F(CheckMode, AnIndexRunTowardsANeighbouringVariableNamesTheOneItLeft) {
    const char* source = R"(
__constant__ float first[4];
__constant__ float table[4];
__constant__ float last[4];
__device__ int counts[8];
__device__ int neighbour[8];
extern "C" __global__ void look_up(float* p, int n) { p[0] = table[n]; }
extern "C" __global__ void store(int n, int value) { counts[n] = value; }
)";
    auto module = Module::compile(source, CompileOptions{.check = CheckTool::memcheck});
    for (const char* name : {"first", "table", "last"})
        module.write_global(name, std::span<const float>(random_floats(4, 40)));
    DeviceBuffer out(sizeof(float));
    // 64 bytes either side: as far as the red zone of a 16-byte variable reaches.
    for (int n = -16; n < 20; ++n) {
        if (n >= 0 && n < 4) continue;
        module.kernel("look_up")({.grid = 1, .block = 1}, out, n);
        const auto report = take_check_report();
        const Hazard& hazard = only_hazard(report);
        EXPECT_EQ(hazard.what, "Invalid __constant__ read of size 4 bytes") << n << "\n" << report.text();
        expect_contains(hazard.detail, "__constant__ table (at ");
        expect_contains(hazard.detail, "16 bytes): offset " + std::to_string(4 * n) + " of it");
    }

    std::mt19937 random(41);
    std::vector<int> kept(8);
    for (auto& v : kept) v = static_cast<int>(random() % 100000) + 1;
    module.write_global("neighbour", std::span<const int>(kept));
    module.write_global("counts", std::span<const int>(std::vector<int>(8, 0)));
    for (const int n : {8, 9, 15, 23, -1, -16}) {
        module.kernel("store")({.grid = 1, .block = 1}, n, -7);
        const auto report = take_check_report();
        const Hazard& hazard = only_hazard(report);
        EXPECT_EQ(hazard.what, "Invalid __global__ write of size 4 bytes") << n << "\n" << report.text();
        EXPECT_TRUE(hazard.is_write);
        EXPECT_EQ(hazard.line, 8);
        expect_contains(hazard.detail, "__device__ variable counts (at ");
        expect_contains(hazard.detail, "32 bytes): offset " + std::to_string(4 * n) + " of it");
    }
    EXPECT_EQ(module.read_global<int>("neighbour"), kept);
    EXPECT_EQ(module.read_global<int>("counts"), std::vector<int>(8, 0));
    module.kernel("store")({.grid = 1, .block = 1}, 7, 99);
    const auto clean = take_check_report();
    EXPECT_TRUE(clean.clean()) << clean.text();
    std::vector<int> expected(8, 0);
    expected[7] = 99;
    EXPECT_EQ(module.read_global<int>("counts"), expected);
}

// __shared__ arrays are bounded one by one too: an index one past a tile, or one before it, is
// an out-of-bounds shared read naming the tile, not a read of the array declared next to it.
TEST_F(CheckMode, AnIndexRunOutOfASharedArrayNamesIt) {
    const char* source = R"(
extern "C" __global__ void shift(const float* in, float* out, int n) {
  __shared__ float a[32];
  __shared__ float b[32];
  a[threadIdx.x] = in[threadIdx.x];
  b[threadIdx.x] = -in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = a[(int)threadIdx.x + n] + 0.0f * b[threadIdx.x];
})";
    const auto in = random_floats(32, 42);
    auto din = DeviceBuffer::from_host(std::span<const float>(in));
    auto kernel = checked(source, "shift");
    const std::tuple<int, unsigned, const char*> cases[] = {
        {1, 31, "0 bytes after the end of __shared__ shift::a (128 bytes): offset 128 of it"},
        {-1, 0, "4 bytes before __shared__ shift::a (128 bytes): offset -4 of it"},
    };
    for (const auto& [n, thread, where] : cases) {
        const std::vector<float> before(32, 5.0f);
        auto dout = DeviceBuffer::from_host(std::span<const float>(before));
        kernel({.grid = 1, .block = 32}, din, dout, n);
        const auto report = take_check_report();
        const Hazard& hazard = only_hazard(report);
        EXPECT_EQ(hazard.what, "Invalid __shared__ read of size 4 bytes") << report.text();
        EXPECT_EQ(hazard.line, 8);
        EXPECT_EQ(hazard.thread, Dim3(thread, 0, 0));
        EXPECT_EQ(hazard.occurrences, 1u);
        expect_contains(hazard.detail, where);
        const auto out = floats_of(dout);
        for (unsigned i = 0; i < 32; ++i)
            EXPECT_EQ(out[i], i == thread ? 5.0f : in[i + n]) << i;  // the stopped thread stored nothing
    }
    DeviceBuffer dout(32 * sizeof(float));
    kernel({.grid = 1, .block = 32}, din, dout, 0);
    const auto clean = take_check_report();
    EXPECT_TRUE(clean.clean()) << clean.text();
    EXPECT_EQ(floats_of(dout), in);
}

// racecheck tells the bytes of a word apart: threads writing neighbouring bytes (an 8-bit image
// written per pixel) do not race, two writing one byte do, and so does a wider write over them.
TEST_F(CheckMode, RacesAreJudgedByteByByte) {
    const char* per_pixel = R"(
extern "C" __global__ void threshold(const unsigned char* in, unsigned char* out, short* wide, int n) {
  __shared__ unsigned char tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  unsigned char v = tile[(threadIdx.x + 1) % blockDim.x];
  if (i < n) out[i] = v > 127 ? 255 : 0;
  if (i < n) wide[i] = (short)(v - 128);
})";
    const int n = 1001;  // not a multiple of the 4 bytes of a word
    std::vector<unsigned char> in(n);
    for (int i = 0; i < n; ++i) in[i] = static_cast<unsigned char>((i * 7919 + 13) % 256);
    auto din = DeviceBuffer::from_host(std::span<const unsigned char>(in));
    DeviceBuffer dout(n), dwide(n * sizeof(short));
    const LaunchConfig config{.grid = grid_for(n, 256), .block = 256};
    checked(per_pixel, "threshold", CheckTool::racecheck)(config, din, dout, dwide, n);
    auto report = take_check_report();
    EXPECT_TRUE(report.clean()) << report.text();
    std::vector<unsigned char> out(n);
    std::vector<short> wide(n);
    copy(std::span<unsigned char>(out), dout.view());
    copy(std::span<short>(wide), dwide.view());
    for (int i = 0; i < n; ++i) {
        const int neighbour = i / 256 * 256 + (i % 256 + 1) % 256;  // the next pixel of its block's tile
        const unsigned char v = neighbour < n ? in[neighbour] : 0;
        ASSERT_EQ(out[i], v > 127 ? 255 : 0) << i;
        ASSERT_EQ(wide[i], static_cast<short>(v - 128)) << i;
    }

    // Two threads a byte: the pairs race, one byte wide.
    const char* halves = R"(
extern "C" __global__ void halves(unsigned char* out) {
  out[threadIdx.x / 2] = (unsigned char)threadIdx.x;
})";
    DeviceBuffer small(64);
    checked(halves, "halves", CheckTool::racecheck)({.grid = 1, .block = 64}, small);
    report = take_check_report();
    auto found = races(report);
    ASSERT_EQ(found.size(), 1u) << report.text();
    EXPECT_EQ(found[0].what, "Race (write-after-write) on __global__ memory");
    EXPECT_EQ(found[0].size, 1u);
    expect_contains(found[0].detail, "both touch the byte at");
    EXPECT_EQ(found[0].occurrences, 32u);  // the second of each pair
    EXPECT_EQ(found[0].thread.x % 2, 1u);
    EXPECT_EQ(found[0].other_thread.x, found[0].thread.x - 1);

    // A 4-byte write over another thread's 1-byte write of the same word.
    const char* overlap = R"(
extern "C" __global__ void overlap(unsigned char* bytes) {
  if (threadIdx.x == 0) bytes[1] = 7;
  if (threadIdx.x == 1) *(unsigned int*)bytes = 0x01020304u;
})";
    checked(overlap, "overlap", CheckTool::racecheck)({.grid = 1, .block = 32}, small);
    report = take_check_report();
    found = races(report);
    ASSERT_EQ(found.size(), 1u) << report.text();
    EXPECT_EQ(found[0].what, "Race (write-after-write) on __global__ memory");
    EXPECT_EQ(found[0].line, 4);
    EXPECT_EQ(found[0].other_line, 3);
    EXPECT_EQ(found[0].address, small.address() + 1);  // the byte both wrote
    EXPECT_EQ(found[0].size, 1u);
}

// A kernel that streams over long arrays, a thread an element (the kernel check mode's speed is
// measured on): races planted deep inside and at the allocation's last word, where racecheck's
// look-ahead at the records runs past their end, are found with every tool on; its fixed twin is
// clean and computes the sum.
TEST_F(CheckMode, RacesInAStreamingKernelWithEveryTool) {
    const int n = (1 << 16) + 3;  // a partial last block
    const auto a = random_floats(n, 21), b = random_floats(n, 22);
    auto da = DeviceBuffer::from_host(std::span<const float>(a));
    auto db = DeviceBuffer::from_host(std::span<const float>(b));
    DeviceBuffer dc(n * sizeof(float));
    const char* planted = R"(
extern "C" __global__ void add_planted(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
  if (i == 40192) c[40191] = 0.0f;
  if (i == n - 1) c[n - 2] = 0.0f;
})";
    const LaunchConfig config{.grid = grid_for(n, 256), .block = 256};
    checked(planted, "add_planted", CheckTools::all())(config, da, db, dc, n);
    auto report = take_check_report();
    auto found = races(report);
    ASSERT_EQ(found.size(), 2u) << report.text();
    std::sort(found.begin(), found.end(), [](const Hazard& x, const Hazard& y) { return x.address < y.address; });
    // 40191 is the last thread of block 156, 40192 the first of 157: no order between the blocks,
    // which run in either order, so either write is the later one.
    EXPECT_EQ(found[0].address, dc.address() + 40191 * sizeof(float));
    EXPECT_EQ(std::min(found[0].line, found[0].other_line), 4);
    EXPECT_EQ(std::max(found[0].line, found[0].other_line), 5);
    expect_contains(found[0].detail, "from different blocks");
    // n - 2 and n - 1 share the last block, whose threads run in order: no barrier between them.
    EXPECT_EQ(found[1].address, dc.address() + (n - 2) * sizeof(float));
    EXPECT_EQ(found[1].line, 6);
    EXPECT_EQ(found[1].other_line, 4);
    expect_contains(found[1].detail, "with no __syncthreads");
    for (const auto& hazard : found) EXPECT_EQ(hazard.occurrences, 1u) << hazard.detail;
    EXPECT_EQ(report.hazards.size(), 2u) << report.text();

    const char* fixed = R"(
extern "C" __global__ void add_fixed(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
})";
    checked(fixed, "add_fixed", CheckTools::all())(config, da, db, dc, n);
    report = take_check_report();
    EXPECT_TRUE(report.clean()) << report.text();
    std::vector<float> c(n);
    copy(std::span<float>(c), dc.view());
    for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;
}

// Hazard::file is the source's name as the user gave it, whichever tool reports and wherever
// the line is: the program (CompileOptions::program_name, folders and all) or a header handed in
// CompileOptions::headers, never the compile's scratch directory.
TEST_F(CheckMode, FilesAreNamedAsTheUserNamedThem) {
    const char* header = R"(
__device__ void store(float* p, int i, float v) {
  p[i] = v;
}
__device__ void wait_here() {
  __syncthreads();
})";
    const char* source = R"(#include "helpers/store.cuh"
extern "C" __global__ void fill(float* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = 0.0f;
  store(p, i + n, 1.0f);
})";
    const char* waits = R"(#include "helpers/store.cuh"
extern "C" __global__ void halves(float* p) {
  if (threadIdx.x < 16) wait_here();
  else __syncthreads();
  p[threadIdx.x] = 1.0f;
})";
    CompileOptions options;
    options.check = CheckTool::memcheck | CheckTool::synccheck;
    options.program_name = "kernels/fill.cu";
    options.headers = {{"helpers/store.cuh", header}};
    DeviceBuffer p(64 * sizeof(float));
    Module::compile(source, options).kernel("fill")({.grid = 1, .block = 64}, p, 0);
    Module::compile(source, options).kernel("fill")({.grid = 1, .block = 32}, p, 48);
    auto report = take_check_report();
    const Hazard& in_header = only_hazard(report);
    EXPECT_EQ(in_header.what, "Invalid __global__ write of size 4 bytes") << report.text();
    EXPECT_EQ(in_header.file, "helpers/store.cuh");
    EXPECT_EQ(in_header.line, 3);

    const char* planted = R"(extern "C" __global__ void fill(float* p, int n) {
  p[threadIdx.x + n] = 0.0f;
})";
    Module::compile(planted, options).kernel("fill")({.grid = 1, .block = 32}, p, 48);
    report = take_check_report();
    EXPECT_EQ(only_hazard(report).file, "kernels/fill.cu") << report.text();
    EXPECT_EQ(only_hazard(report).line, 2);
    expect_contains(report.text(), "at fill in kernels/fill.cu:2");

    // synccheck reads its lines from the barriers themselves, not from the debug lines.
    Module::compile(waits, options).kernel("halves")({.grid = 1, .block = 32}, p);
    report = take_check_report();
    auto found = sync_errors(report);
    ASSERT_EQ(found.size(), 1u) << report.text();
    EXPECT_EQ(found[0].file, "kernels/fill.cu");
    EXPECT_EQ(found[0].line, 4);
    EXPECT_EQ(found[0].other_file, "helpers/store.cuh");
    EXPECT_EQ(found[0].other_line, 6);
    expect_contains(found[0].detail, "waits at the one at helpers/store.cuh:6");
}

// LaunchConfig::check: a module compiled for fast mode, one launch of it checked. The launch sees
// the module's variables as they are and leaves them as a plain launch would.
const char* scale_with_a_bound_off_by_one = R"(
__constant__ float scale;
__device__ int launches;
extern "C" __global__ void scaled(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) launches += 1;
  if (i <= n) y[i] = scale * x[i];
})";

TEST_F(CheckMode, OneLaunchAsksForCheckMode) {
    const int n = 1000;
    const auto x = random_floats(n + 1, 14);  // x[n] exists: only the write past y is wrong
    auto dx = DeviceBuffer::from_host(std::span<const float>(x));
    DeviceBuffer dy(n * sizeof(float));
    auto module = Module::compile(scale_with_a_bound_off_by_one);
    module.write_global("scale", std::span<const float>(std::vector<float>{2.5f}));
    module.write_global("launches", std::span<const int>(std::vector<int>{40}));
    auto scaled = module.kernel("scaled");
    for (int launch = 0; launch < 2; ++launch) {
        scaled({.grid = grid_for(n, 256), .block = 256, .check = CheckTool::memcheck}, dx, dy, n);
        const auto report = take_check_report();
        const Hazard& hazard = only_hazard(report);
        EXPECT_EQ(hazard.what, "Invalid __global__ write of size 4 bytes");
        EXPECT_EQ(hazard.line, 7);
        expect_contains(hazard.detail, "0 bytes after the nearest allocation");
    }
    std::vector<float> y(n);
    copy(std::span<float>(y), dy.view());
    for (int i = 0; i < n; ++i) EXPECT_EQ(y[i], 2.5f * x[i]) << i;
    EXPECT_EQ(module.read_global<int>("launches")[0], 42);  // both launches counted, on the module's variable
}

class LaunchCheckOnAGpu : public DeviceTest {};

TEST_F(LaunchCheckOnAGpu, SaysCheckModeIsTheSimulators) {
    if (on_simulator()) GTEST_SKIP() << "on the simulator the launch is checked (CheckMode.OneLaunchAsksForCheckMode)";
    auto kernel = Module::compile(scale_with_a_bound_off_by_one).kernel("scaled");
    DeviceBuffer x(8), y(8);
    try {
        kernel({.grid = 1, .block = 1, .check = CheckTool::memcheck}, x, y, 1);
        FAIL() << "a checked launch on a GPU must be refused";
    } catch (const InvalidArgumentError& error) {
        expect_contains(error.what(), "backend does not run check mode; the sim backend does (GPUKIT_BACKEND=sim)");
        expect_contains(error.what(), "compute-sanitizer");
    }
}

}  // namespace
}  // namespace gpukit::testing
