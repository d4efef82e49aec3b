// tests/device/course_programs_test.cpp: the course's first programs, on the GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "course/course_kernels.hpp"
#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

using namespace gpukit::course;

class CoursePrograms : public DeviceTest {};

std::vector<float> run_vector_add(const Kernel& kernel, const std::vector<float>& a, const std::vector<float>& b,
                                  std::uint32_t block) {
    const int size = static_cast<int>(a.size());
    auto da = DeviceBuffer::from_host(std::span<const float>(a));
    auto db = DeviceBuffer::from_host(std::span<const float>(b));
    DeviceBuffer dc(a.size() * sizeof(float));
    memset(dc, 0xff);  // poison: every element must be written
    kernel({.grid = grid_for(a.size(), block), .block = block}, da, db, dc, size);
    std::vector<float> c(a.size());
    copy(std::span<float>(c), dc.view());
    return c;
}

TEST_F(CoursePrograms, VectorAddWithTheGridComputedFromAnArbitrarySize) {
    auto kernel = Module::compile(vector_add_source).kernel("vector_add");
    for (std::size_t size : {std::size_t{1}, std::size_t{31}, std::size_t{1024}, std::size_t{2048},
                             std::size_t{1000003}, (std::size_t{1} << 22) + 7}) {
        for (std::uint32_t block : {32u, 256u, 1024u}) {
            const auto a = random_floats(size, 1);
            const auto b = random_floats(size, 2);
            const auto c = run_vector_add(kernel, a, b, block);
            for (std::size_t i = 0; i < size; ++i)
                ASSERT_EQ(c[i], a[i] + b[i]) << "size " << size << " block " << block << " element " << i;
        }
    }
}

TEST_F(CoursePrograms, Saxpy) {
    auto saxpy = Module::compile(saxpy_source).kernel("saxpy");
    const int n = 1024 * 2048;
    const float a = 3.141f;
    const auto x = random_floats(n, 3);
    const auto y = random_floats(n, 4);
    auto dx = DeviceBuffer::from_host(std::span<const float>(x));
    auto dy = DeviceBuffer::from_host(std::span<const float>(y));
    saxpy({.grid = grid_for(n, 256), .block = 256}, n, a, dx, dy);
    std::vector<float> result(n);
    copy(std::span<float>(result), dy.view());
    // The GPU contracts y + a * x into one fused multiply-add: compare with that, to rounding.
    for (int i = 0; i < n; ++i) {
        const double expected = static_cast<double>(y[i]) + static_cast<double>(a) * x[i];
        ASSERT_NEAR(result[i], expected, 1e-6 * (std::abs(y[i]) + std::abs(a * x[i])) + 1e-12) << i;
    }
}

TEST_F(CoursePrograms, SumAndMultiplyWithConstantMemory) {
    auto module = Module::compile(sum_and_multiply_source);
    const std::vector<float> factors = random_floats(2, 5);
    module.write_global("factors", std::span<const float>(factors));
    EXPECT_EQ(module.read_global<float>("factors"), factors);
    EXPECT_EQ(module.global("factors").memory.size_bytes(), 2 * sizeof(float));

    const int size = 2048;
    const auto a = random_floats(size, 6);
    const auto b = random_floats(size, 7);
    auto da = DeviceBuffer::from_host(std::span<const float>(a));
    auto db = DeviceBuffer::from_host(std::span<const float>(b));
    DeviceBuffer dc(size * sizeof(float));
    module.kernel("sum_and_multiply")({.grid = 2, .block = size / 2}, da, db, dc, size);
    std::vector<float> c(size);
    copy(std::span<float>(c), dc.view());
    for (int i = 0; i < size; ++i) ASSERT_FLOAT_EQ(c[i], (a[i] + b[i]) * factors[i / (size / 2)]) << i;
}

TEST_F(CoursePrograms, TwoStreamsWithAnEventDependency) {
    auto histogram = Module::compile(histogram_source).kernel("histogram");
    const int size = 1 << 22;
    const int bins = 256;
    std::vector<int> input(size);
    std::mt19937 random(8);
    for (auto& v : input) v = static_cast<int>(random() % bins);
    auto d_input = DeviceBuffer::from_host(std::span<const int>(input));
    DeviceBuffer d_output(bins * sizeof(int));
    memset(d_output, 0);

    Stream stream_one;
    Stream stream_two;
    Event sync_point;
    const LaunchConfig on_one{.grid = grid_for(size, 256), .block = 256, .stream = stream_one};
    const LaunchConfig on_two{.grid = grid_for(size, 256), .block = 256, .stream = stream_two};
    histogram(on_one, d_input, d_output, size);
    sync_point.record(stream_one);
    histogram(on_one, d_input, d_output, size);
    stream_two.wait(sync_point);
    histogram(on_two, d_input, d_output, size);
    // Copy on stream two once its kernel is done; stream one must be done too for all 3 passes.
    Event two_done;
    stream_one.synchronize();
    two_done.record(stream_two);
    two_done.synchronize();
    EXPECT_TRUE(stream_two.query());

    std::vector<int> counts(bins);
    copy(std::span<int>(counts), d_output.view());
    std::vector<int> expected(bins, 0);
    for (int v : input) expected[v] += 3;
    EXPECT_EQ(counts, expected);
}

TEST_F(CoursePrograms, TheTwoBlockLaunchOfTheNotebookNowCoversAllElements) {
    // The notebook split 2048 elements into 2 blocks of 1024 with `item = threadIdx.x`, which
    // left half the output unwritten; with the global index both halves are written.
    auto kernel = Module::compile(vector_add_source).kernel("vector_add");
    const auto a = random_floats(2048, 9);
    const auto b = random_floats(2048, 10);
    const auto c = run_vector_add(kernel, a, b, 1024);
    for (std::size_t i = 0; i < a.size(); ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;
}

std::vector<int> random_bins(std::size_t n, int bins, unsigned seed) {
    std::vector<int> values(n);
    std::mt19937 random(seed);
    for (auto& v : values) v = static_cast<int>(random() % static_cast<unsigned>(bins));
    return values;
}

std::vector<int> reference_histogram(const std::vector<int>& input, int bins) {
    std::vector<int> counts(bins, 0);
    for (int v : input) ++counts[v];
    return counts;
}

// The notebook's two histograms, one launch per size, against the CPU.
void check_histogram(const Kernel& histogram, std::initializer_list<int> sizes, unsigned seed) {
    for (int size : sizes) {
        const auto input = random_bins(size, 256, seed + size);
        auto d_input = DeviceBuffer::from_host(std::span<const int>(input));
        DeviceBuffer d_output(256 * sizeof(int));
        memset(d_output, 0);
        histogram({.grid = grid_for(size, 256), .block = 256}, d_input, d_output, size);
        std::vector<int> counts(256);
        copy(std::span<int>(counts), d_output.view());
        EXPECT_EQ(counts, reference_histogram(input, 256)) << histogram.name() << ", size " << size;
    }
}

TEST_F(CoursePrograms, HistogramWithGlobalAtomics) {
    check_histogram(Module::compile(histogram_source).kernel("histogram"), {1, 255, 256, 100003, 1 << 20}, 40);
}

TEST_F(CoursePrograms, HistogramWithSharedAtomics) {
    check_histogram(Module::compile(histogram_shared_source).kernel("histogram_shared"),
                    {1, 256, 1000, 100003, 1 << 20}, 50);
}

std::vector<float> reference_matmul(const std::vector<float>& m, const std::vector<float>& n, int h, int w, int k) {
    std::vector<float> out(static_cast<std::size_t>(h) * w);
    for (int r = 0; r < h; ++r)
        for (int c = 0; c < w; ++c) {
            double sum = 0;
            for (int i = 0; i < k; ++i) sum += static_cast<double>(m[r * k + i]) * n[i * w + c];
            out[static_cast<std::size_t>(r) * w + c] = static_cast<float>(sum);
        }
    return out;
}

TEST_F(CoursePrograms, MatmulNaiveTiledAndDynamic) {
    auto module = Module::compile(matmul_source);
    struct Shape {
        int h, w, k;
    };
    for (const Shape shape :
         {Shape{1, 1, 1}, Shape{16, 16, 16}, Shape{17, 33, 65}, Shape{100, 37, 250}, Shape{128, 128, 128}}) {
        const auto m = random_floats(static_cast<std::size_t>(shape.h) * shape.k, 61);
        const auto n = random_floats(static_cast<std::size_t>(shape.k) * shape.w, 62);
        const auto expected = reference_matmul(m, n, shape.h, shape.w, shape.k);
        auto dm = DeviceBuffer::from_host(std::span<const float>(m));
        auto dn = DeviceBuffer::from_host(std::span<const float>(n));
        DeviceBuffer dout(expected.size() * sizeof(float));
        const Dim3 block(16, 16);
        const Dim3 grid = grid_for(shape.w, shape.h, block);
        for (const char* variant : {"matmul_naive", "matmul_tiled", "matmul_dynamic"}) {
            memset(dout, 0xff);
            auto kernel = module.kernel(variant);
            if (std::string(variant) == "matmul_dynamic")
                kernel({.grid = grid, .block = block, .shared_bytes = 2 * 16 * 16 * sizeof(float)}, dm, dn, dout,
                       shape.h, shape.w, shape.k, 16);
            else
                kernel({.grid = grid, .block = block}, dm, dn, dout, shape.h, shape.w, shape.k);
            std::vector<float> out(expected.size());
            copy(std::span<float>(out), dout.view());
            for (std::size_t i = 0; i < out.size(); ++i)
                ASSERT_NEAR(out[i], expected[i], 1e-4f * (1 + std::abs(expected[i])) * std::sqrt(float(shape.k)))
                    << variant << " " << shape.h << "x" << shape.w << "x" << shape.k << " element " << i;
        }
    }
}

TEST_F(CoursePrograms, SumAndAbsSumReductionsAgainstTheCpu) {
    auto module = Module::compile(reduction_source);
    for (int size : {1, 255, 256, 257, 100003, 1 << 20}) {
        const auto input = random_floats(size, 70 + size);
        auto d_input = DeviceBuffer::from_host(std::span<const float>(input));
        const int block = 256;
        const Dim3 grid = grid_for(size, block);
        DeviceBuffer partial(grid.x * sizeof(float));
        for (bool absolute : {false, true}) {
            module.kernel(absolute ? "abs_sum_reduce" : "sum_reduce")(
                {.grid = grid, .block = block, .shared_bytes = block * sizeof(float)}, d_input, partial, size);
            std::vector<float> partials(grid.x);
            copy(std::span<float>(partials), partial.view());
            double gpu = 0, cpu = 0;
            for (float p : partials) gpu += p;
            for (float v : input) cpu += absolute ? std::abs(v) : v;
            EXPECT_NEAR(gpu, cpu, 1e-4 * (1 + std::abs(cpu)) + 1e-3)
                << (absolute ? "abs-sum" : "sum") << " of " << size;
        }
    }
}

}  // namespace
}  // namespace gpukit::testing
