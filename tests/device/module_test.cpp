// tests/device/module_test.cpp: modules compiled, cached and loaded on the GPU.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "course/course_kernels.hpp"
#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

using namespace gpukit::course;

class Modules : public DeviceTest {};

constexpr const char* axpy_template_source = R"(
template <typename T>
__global__ void axpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
__device__ int counter;
)";

TEST_F(Modules, TemplateKernelsByNameExpression) {
    CompileOptions options;
    options.name_expression("axpy<float>").name_expression("axpy<double>");
    auto module = Module::compile(axpy_template_source, options);
    auto axpy_f = module.kernel("axpy<float>");
    auto axpy_d = module.kernel("axpy<double>");
    // NVRTC mangles the expression; the simulator looks the expression up as it is.
    EXPECT_EQ(axpy_f.lowered_name(), on_simulator() ? "axpy<float>" : "_Z4axpyIfEvT_PKS0_PS0_i");
    ASSERT_EQ(axpy_d.params().size(), 4u);
    EXPECT_EQ(axpy_d.params()[0].size, 8u);
    EXPECT_EQ(axpy_f.params()[0].size, 4u);
    EXPECT_EQ(axpy_f.params()[3].name, "n");

    const int n = 100003;
    std::vector<double> x(n), y(n);
    for (int i = 0; i < n; ++i) x[i] = i * 0.5, y[i] = -i;
    auto dx = DeviceBuffer::from_host(std::span<const double>(x));
    auto dy = DeviceBuffer::from_host(std::span<const double>(y));
    axpy_d({.grid = grid_for(n, 128), .block = 128}, 2.0, dx, dy, n);
    std::vector<double> out(n);
    copy(std::span<double>(out), dy.view());
    for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], 2.0 * x[i] + y[i]);

    // A float where a double is expected is refused, naming the parameter.
    const auto text = GPUKIT_MESSAGE_OF(KernelArgumentError, axpy_d({.grid = 1, .block = 1}, 2.0f, dx, dy, n));
    expect_contains(text, "parameter 0 ('T a') takes 8 bytes");

    auto names = module.kernel_names();
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"axpy<double>", "axpy<float>"}));
    const std::vector<int> value = {42};
    module.write_global("counter", std::span<const int>(value));
    EXPECT_EQ(module.read_global<int>("counter"), value);
    EXPECT_THROW(module.global("no_such_variable"), InvalidArgumentError);
    const std::vector<int> two = {1, 2};
    EXPECT_THROW(module.write_global("counter", std::span<const int>(two)), InvalidArgumentError);
}

// The check-mode tests' kernel run plainly: an index past a __constant__ array that stays in the
// module's data reads whatever lies there, on every backend, and the launch ends normally. (Under
// --check it is a hazard naming the table, which check_mode_test.cpp looks at closely.)
TEST_F(Modules, AConstantIndexPastItsArrayIsNoFault) {
    const char* source = R"(
__constant__ float table[4];
extern "C" __global__ void k(float* p, int n) { p[0] = table[n]; }   // launched with n = 6
)";
    auto module = Module::compile(source);
    const auto values = random_floats(4, 51);
    module.write_global("table", std::span<const float>(values));
    DeviceBuffer out(sizeof(float));
    module.kernel("k")({.grid = 1, .block = 1}, out, 6);
    EXPECT_NO_THROW(Device::current().synchronize());
    if (checking_everything()) {
        const auto report = take_check_report();
        ASSERT_EQ(report.hazards.size(), 1u) << report.text();
        EXPECT_EQ(report.hazards[0].what, "Invalid __constant__ read of size 4 bytes");
        expect_contains(report.hazards[0].detail, "8 bytes after the end of __constant__ table");
    }
    // The device goes on: the same kernel reads the table in bounds.
    for (int n = 0; n < 4; ++n) {
        module.kernel("k")({.grid = 1, .block = 1}, out, n);
        std::vector<float> host(1);
        copy(std::span<float>(host), out.view());
        EXPECT_EQ(host[0], values[n]) << n;
    }
}

// Kernels declared without extern "C": found by name on both backends (NVRTC mangles them).
TEST_F(Modules, CppKernelsByTheirNames) {
    auto module = Module::compile(R"(
namespace course {
__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
}
__global__ void shift(float* x, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += b;
}
__global__ void twice(float* x) {}
__global__ void twice(double* x) {}
)");
    const int n = 1000;
    const auto x = random_floats(n, 21);
    auto dx = DeviceBuffer::from_host(std::span<const float>(x));
    module.kernel("course::scale")({.grid = grid_for(n, 256), .block = 256}, dx, 3.0f, n);
    module.kernel("scale")({.grid = grid_for(n, 256), .block = 256}, dx, 0.5f, n);
    module.kernel("shift")({.grid = grid_for(n, 256), .block = 256}, dx, 1.0f, n);
    std::vector<float> out(n);
    copy(std::span<float>(out), dx.view());
    for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], x[i] * 3.0f * 0.5f + 1.0f) << i;
    EXPECT_EQ(module.kernel("shift").params()[1].name, "b");
    EXPECT_THROW(module.kernel("twice"), KernelNotFoundError);  // overloaded: a name expression says which
}

TEST_F(Modules, SameSourceAgainIsAnInProcessCacheHit) {
    const std::string source = std::string(vector_add_source) + "// module cache probe\n";
    auto first = Module::compile(source);
    const auto before = cache_stats();
    const auto start = std::chrono::steady_clock::now();
    auto second = Module::compile(source);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    const auto after = cache_stats();
    EXPECT_EQ(after.memory_hits, before.memory_hits + 1);
    EXPECT_EQ(after.misses, before.misses);
    EXPECT_EQ(first.kernel("vector_add").lowered_name(), second.kernel("vector_add").lowered_name());
    RecordProperty("in_process_hit_us", std::to_string(std::chrono::duration<double, std::micro>(elapsed).count()));
}

TEST_F(Modules, LoadsPtxProducedElsewhere) {
    if (on_simulator()) GTEST_SKIP() << "PTX is CUDA's: the simulator runs modules it compiles itself";
    const auto ptx = Module::compile_image(vector_add_source, {}, "compute_80", tested_backend());
    ASSERT_EQ(ptx.format, ImageFormat::ptx);
    auto module = Module::load(ImageFormat::ptx, ptx.data);
    auto kernel = module.kernel("vector_add");
    const int n = 777;
    const auto a = random_floats(n, 31), b = random_floats(n, 32);
    auto da = DeviceBuffer::from_host(std::span<const float>(a));
    auto db = DeviceBuffer::from_host(std::span<const float>(b));
    DeviceBuffer dc(n * sizeof(float));
    kernel({.grid = grid_for(n, 128), .block = 128}, da, db, dc, n);
    std::vector<float> c(n);
    copy(std::span<float>(c), dc.view());
    for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]);
    // Without the source, parameters still carry their sizes.
    EXPECT_EQ(kernel.params().size(), 4u);
    EXPECT_EQ(kernel.params()[3].size, 4u);
}

TEST_F(Modules, LoadsACubinFromAFile) {
    if (on_simulator()) GTEST_SKIP() << "cubins are CUDA's: the simulator runs modules it compiles itself";
    const auto arch = Device::current().properties().target;
    const auto cubin = Module::compile_image(saxpy_source, {}, arch, tested_backend());
    ASSERT_EQ(cubin.format, ImageFormat::cubin);
    const auto path =
        std::filesystem::temp_directory_path() / ("gpukit_saxpy_" + std::to_string(::getpid()) + ".cubin");
    std::ofstream(path, std::ios::binary).write(cubin.data.data(), static_cast<std::streamsize>(cubin.data.size()));
    auto saxpy = Module::load_file(path).kernel("saxpy");
    std::filesystem::remove(path);
    const int n = 5000;
    const auto x = random_floats(n, 33), y = random_floats(n, 34);
    auto dx = DeviceBuffer::from_host(std::span<const float>(x));
    auto dy = DeviceBuffer::from_host(std::span<const float>(y));
    saxpy({.grid = grid_for(n, 256), .block = 256}, n, 2.0f, dx, dy);
    std::vector<float> out(n);
    copy(std::span<float>(out), dy.view());
    for (int i = 0; i < n; ++i) ASSERT_NEAR(out[i], y[i] + 2.0f * x[i], 1e-6f) << i;
    EXPECT_THROW(Module::load_file("kernel.so"), InvalidArgumentError);
    EXPECT_THROW(Module::load_file("/nonexistent/kernel.cubin"), InvalidArgumentError);
}

TEST_F(Modules, DynamicSharedMemoryBeyond48KiBAfterOptIn) {
    constexpr const char* source = R"(
extern "C" __global__ void reverse(const int* in, int* out, int n) {
  extern __shared__ int buffer[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) buffer[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = buffer[n - 1 - i];
})";
    auto kernel = Module::compile(source).kernel("reverse");
    const int n = 100 * 1024 / 4;  // 100 KiB of ints
    std::vector<int> in(n);
    for (int i = 0; i < n; ++i) in[i] = i * 7 + 1;
    auto din = DeviceBuffer::from_host(std::span<const int>(in));
    DeviceBuffer dout(n * sizeof(int));
    const LaunchConfig config{.grid = 1, .block = 256, .shared_bytes = n * sizeof(int)};
    EXPECT_THROW(kernel(config, din, dout, n), LaunchConfigError);
    kernel.set_max_dynamic_shared_bytes(n * sizeof(int));
    EXPECT_EQ(kernel.attributes().max_dynamic_shared_bytes, n * sizeof(int));
    kernel(config, din, dout, n);
    std::vector<int> out(n);
    copy(std::span<int>(out), dout.view());
    for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], in[n - 1 - i]);
    EXPECT_THROW(kernel.set_max_dynamic_shared_bytes(std::size_t{1} << 20), LaunchConfigError);
}

TEST_F(Modules, OccupancySuggestsABlockSize) {
    auto kernel = Module::compile(vector_add_source).kernel("vector_add");
    const auto suggestion = kernel.suggest_block_size();
    EXPECT_GE(suggestion.block_size, 32u);
    EXPECT_LE(suggestion.block_size, 1024u);
    EXPECT_EQ(suggestion.block_size % 32, 0u);
    EXPECT_GE(suggestion.min_grid_size,
              static_cast<std::uint32_t>(Device::current().properties().multiprocessor_count));
    EXPECT_GT(kernel.max_active_blocks_per_multiprocessor(suggestion.block_size), 0);
    const auto attributes = kernel.attributes();
    EXPECT_EQ(attributes.num_registers > 0, !on_simulator());  // a CPU thread has no register budget
    EXPECT_EQ(attributes.static_shared_bytes, 0u);
}

// The memo's bound for one test; the configuration before it comes back afterwards.
class MemoBound {
public:
    explicit MemoBound(std::uint64_t entries) : previous_(cache_config()) {
        CacheConfig bounded = previous_;
        bounded.memory_max_entries = entries;
        configure_cache(bounded);
    }
    ~MemoBound() { configure_cache(previous_); }
    MemoBound(const MemoBound&) = delete;
    MemoBound& operator=(const MemoBound&) = delete;

private:
    CacheConfig previous_;
};

std::string marked_source(int index) {
    return "__device__ int marker;\nextern \"C\" __global__ void touch_" + std::to_string(index) +
           "(int* out) { *out = marker; }\n";
}

TEST_F(Modules, TheMemoHoldsABoundedNumberOfModulesAndGivesBackOnesStillHeld) {
    const MemoBound bound(2);
    clear_memory_cache();
    Module held = Module::compile(marked_source(0));
    const int mark[] = {4242};
    held.write_global("marker", std::span<const int>(mark));
    for (int i = 1; i <= 6; ++i) {
        Module::compile(marked_source(i));  // dropped at once: only the memo holds it
        EXPECT_LE(memory_cache_usage().modules, 2u) << "after " << i + 1 << " modules";
    }
    EXPECT_GE(cache_stats().memory_evictions, 4u);
    // `held` left the memo but not memory: compiling its source again gives the same module, with
    // the value its __device__ variable was given, and its kernel still runs.
    const Module again = Module::compile(marked_source(0));
    EXPECT_EQ(again.read_global<int>("marker"), std::vector<int>{4242});
    DeviceBuffer out(sizeof(int));
    held.kernel("touch_0")({.grid = 1, .block = 1}, out);
    std::vector<int> seen(1);
    copy(std::span<int>(seen), out.view());
    EXPECT_EQ(seen[0], 4242);
    clear_memory_cache();
}

}  // namespace
}  // namespace gpukit::testing
