// tests/device/builtins_test.cpp: one test per CUDA built-in the simulator supports, each checked
// against a CPU reference; the same bodies run on the GPU, so the two check each other.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

#include "device/device_kernels.hpp"
#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

class Builtins : public DeviceTest {
protected:
    template <class T>
    static DeviceBuffer upload(const std::vector<T>& values) {
        return DeviceBuffer::from_host(std::span<const T>(values));
    }
    template <class T>
    static std::vector<T> download(const DeviceBuffer& buffer) {
        std::vector<T> values(buffer.size_bytes() / sizeof(T));
        copy(std::span<T>(values), buffer.view());
        return values;
    }
};

std::vector<int> random_ints(std::size_t n, int low, int high, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> uniform(low, high);
    std::vector<int> values(n);
    for (auto& v : values) v = uniform(random);
    return values;
}

TEST_F(Builtins, SyncthreadsOrdersSharedMemory) {
    auto kernel = Module::compile(R"(
extern "C" __global__ void rotate(const int* in, int* out) {
  __shared__ int s[256];
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  s[t] = in[base + t];
  __syncthreads();
  out[base + t] = s[(t + 1) % blockDim.x];
})")
                      .kernel("rotate");
    const auto in = random_ints(256 * 7, -1000, 1000, 1);
    auto din = upload(in);
    DeviceBuffer dout(in.size() * sizeof(int));
    kernel({.grid = 7, .block = 256}, din, dout);
    const auto out = download<int>(dout);
    for (int b = 0; b < 7; ++b)
        for (int t = 0; t < 256; ++t) ASSERT_EQ(out[b * 256 + t], in[b * 256 + (t + 1) % 256]) << b << " " << t;
}

TEST_F(Builtins, SyncthreadsCountAndOr) {
    auto kernel = Module::compile(R"(
extern "C" __global__ void votes(const int* in, int* out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int count = __syncthreads_count(v > 0);
  int all = __syncthreads_and(v > 0);
  int any = __syncthreads_or(v > 0);
  if (threadIdx.x == 0) { out[3 * blockIdx.x] = count; out[3 * blockIdx.x + 1] = all; out[3 * blockIdx.x + 2] = any; }
})")
                      .kernel("votes");
    const int blocks = 5, threads = 96;
    std::vector<int> in = random_ints(blocks * threads, -5, 5, 2);
    std::fill(in.begin() + threads, in.begin() + 2 * threads, 1);       // block 1: all positive
    std::fill(in.begin() + 2 * threads, in.begin() + 3 * threads, -1);  // block 2: none positive
    auto din = upload(in);
    DeviceBuffer dout(3 * blocks * sizeof(int));
    kernel({.grid = blocks, .block = threads}, din, dout);
    const auto out = download<int>(dout);
    for (int b = 0; b < blocks; ++b) {
        const auto first = in.begin() + b * threads, last = first + threads;
        const int count = static_cast<int>(std::count_if(first, last, [](int v) { return v > 0; }));
        EXPECT_EQ(out[3 * b], count) << b;
        EXPECT_EQ(out[3 * b + 1] != 0, count == threads) << b;
        EXPECT_EQ(out[3 * b + 2] != 0, count > 0) << b;
    }
}

TEST_F(Builtins, ThreadsThatReturnedCountAsArrivedAtLaterBarriers) {
    auto kernel = Module::compile(R"(
extern "C" __global__ void early_return(int* out, int live) {
  __shared__ int s[128];
  int t = threadIdx.x;
  if (t >= live) return;
  s[t] = t * 10;
  __syncthreads();
  int n = __syncthreads_count(1);
  out[t] = s[(t + 1) % live] + 1000 * n;
})")
                      .kernel("early_return");
    for (int live : {1, 31, 32, 33, 100, 128}) {
        DeviceBuffer dout(128 * sizeof(int));
        memset(dout, 0xff);
        kernel({.grid = 1, .block = 128}, dout, live);
        const auto out = download<int>(dout);
        for (int t = 0; t < live; ++t) ASSERT_EQ(out[t], ((t + 1) % live) * 10 + 1000 * live) << live << " " << t;
        for (int t = live; t < 128; ++t) ASSERT_EQ(out[t], -1);
    }
}

TEST_F(Builtins, Syncwarp) {
    auto kernel = Module::compile(R"(
extern "C" __global__ void warp_rotate(int* out) {
  __shared__ int s[64];
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  s[t] = t * 3;
  __syncwarp();
  out[t] = s[warp * 32 + (lane + 1) % 32];
})")
                      .kernel("warp_rotate");
    DeviceBuffer dout(64 * sizeof(int));
    kernel({.grid = 1, .block = 64}, dout);
    const auto out = download<int>(dout);
    for (int t = 0; t < 64; ++t) EXPECT_EQ(out[t], ((t / 32) * 32 + (t % 32 + 1) % 32) * 3) << t;
}

TEST_F(Builtins, Shuffles) {
    auto kernel = Module::compile(R"(
extern "C" __global__ void shuffles(const float* in, float* out) {
  int t = threadIdx.x;
  float x = in[t];
  out[6 * t + 0] = __shfl_sync(0xffffffffu, x, 3);
  out[6 * t + 1] = __shfl_sync(0xffffffffu, x, 5, 8);
  out[6 * t + 2] = __shfl_up_sync(0xffffffffu, x, 2);
  out[6 * t + 3] = __shfl_down_sync(0xffffffffu, x, 4);
  out[6 * t + 4] = __shfl_xor_sync(0xffffffffu, x, 1);
  float sum = x;  // warp reduction
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  out[6 * t + 5] = __shfl_sync(0xffffffffu, sum, 0);
})")
                      .kernel("shuffles");
    const int n = 64;
    std::vector<float> in(n);
    for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i * i % 37);
    auto din = upload(in);
    DeviceBuffer dout(6 * n * sizeof(float));
    kernel({.grid = 1, .block = n}, din, dout);
    const auto out = download<float>(dout);
    for (int t = 0; t < n; ++t) {
        const int lane = t % 32, base = t - lane;
        EXPECT_EQ(out[6 * t + 0], in[base + 3]) << t;
        EXPECT_EQ(out[6 * t + 1], in[base + (lane / 8) * 8 + 5]) << t;
        EXPECT_EQ(out[6 * t + 2], lane >= 2 ? in[t - 2] : in[t]) << t;
        EXPECT_EQ(out[6 * t + 3], lane + 4 < 32 ? in[t + 4] : in[t]) << t;
        EXPECT_EQ(out[6 * t + 4], in[base + (lane ^ 1)]) << t;
        EXPECT_EQ(out[6 * t + 5], std::accumulate(in.begin() + base, in.begin() + base + 32, 0.0f)) << t;
    }
}

TEST_F(Builtins, BallotAnyAllAndActivemask) {
    auto kernel = Module::compile(R"(
extern "C" __global__ void votes(const int* in, unsigned* out) {
  int t = threadIdx.x;
  int p = in[t] > 0;
  out[4 * t + 0] = __ballot_sync(0xffffffffu, p);
  out[4 * t + 1] = __any_sync(0xffffffffu, p);
  out[4 * t + 2] = __all_sync(0xffffffffu, p);
  out[4 * t + 3] = __activemask();
})")
                      .kernel("votes");
    const int n = 40;  // a full warp and a warp of 8 lanes
    auto in = random_ints(n, -3, 3, 3);
    auto din = upload(in);
    DeviceBuffer dout(4 * n * sizeof(unsigned));
    kernel({.grid = 1, .block = n}, din, dout);
    const auto out = download<unsigned>(dout);
    for (int t = 0; t < n; ++t) {
        const int base = t - t % 32, lanes = std::min(32, n - base);
        unsigned ballot = 0;
        for (int l = 0; l < lanes; ++l) ballot |= (in[base + l] > 0 ? 1u : 0u) << l;
        const unsigned existing = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
        EXPECT_EQ(out[4 * t + 0], ballot) << t;
        EXPECT_EQ(out[4 * t + 1], ballot != 0 ? 1u : 0u) << t;
        EXPECT_EQ(out[4 * t + 2], ballot == existing ? 1u : 0u) << t;
        EXPECT_EQ(out[4 * t + 3], existing) << t;
    }
}

TEST_F(Builtins, WarpIntrinsicsUnderDivergence) {
    auto kernel = Module::compile(R"(
extern "C" __global__ void divergent(const int* in, int* out) {
  int t = threadIdx.x, lane = t % 32;
  int x = in[t];
  if (lane < 16) {
    out[3 * t] = __shfl_sync(0x0000ffffu, x, 2);
    out[3 * t + 1] = (int)__ballot_sync(0x0000ffffu, x > 0);
  } else {
    out[3 * t] = __shfl_down_sync(0xffff0000u, x, 1);
    out[3 * t + 1] = (int)__ballot_sync(0xffff0000u, x > 0);
  }
  if (lane % 2 == 0) out[3 * t + 2] = (int)__activemask();
  else out[3 * t + 2] = 0;
})")
                      .kernel("divergent");
    const int n = 64;
    auto in = random_ints(n, -5, 5, 4);
    auto din = upload(in);
    DeviceBuffer dout(3 * n * sizeof(int));
    kernel({.grid = 1, .block = n}, din, dout);
    const auto out = download<int>(dout);
    for (int t = 0; t < n; ++t) {
        const int lane = t % 32, base = t - lane;
        unsigned low = 0, high = 0;
        for (int l = 0; l < 16; ++l) low |= (in[base + l] > 0 ? 1u : 0u) << l;
        for (int l = 16; l < 32; ++l) high |= (in[base + l] > 0 ? 1u : 0u) << l;
        if (lane < 16) {
            EXPECT_EQ(out[3 * t], in[base + 2]) << t;
            EXPECT_EQ(static_cast<unsigned>(out[3 * t + 1]), low) << t;
        } else {
            EXPECT_EQ(out[3 * t], lane + 1 < 32 ? in[t + 1] : in[t]) << t;
            EXPECT_EQ(static_cast<unsigned>(out[3 * t + 1]), high) << t;
        }
        if (lane % 2 == 0) {
            const unsigned mask = static_cast<unsigned>(out[3 * t + 2]);
            EXPECT_TRUE(mask & (1u << lane)) << t;
            EXPECT_EQ(mask & 0xaaaaaaaau, 0u) << "odd lanes took the other branch; thread " << t;
        }
    }
}

TEST_F(Builtins, IntegerAtomicsAcrossBlocks) {
    auto kernel = Module::compile(R"(
extern "C" __global__ void atomics(const int* in, int* ints, unsigned* uints, unsigned long long* ulls, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i];
  atomicAdd(&ints[0], v);
  atomicSub(&ints[1], v);
  atomicMin(&ints[2], v);
  atomicMax(&ints[3], v);
  atomicAnd(&ints[4], ~(1 << (i % 31)));
  atomicOr(&ints[5], 1 << (i % 31));
  atomicXor(&ints[6], v);
  atomicExch(&ints[7], 7);
  atomicAdd(&uints[0], 1u);
  atomicInc(&uints[1], 9u);
  atomicDec(&uints[2], 9u);
  atomicMin(&uints[3], (unsigned)(v + 1000));
  atomicMax(&uints[4], (unsigned)(v + 1000));
  atomicAdd(&ulls[0], (unsigned long long)(v + 1000));
  atomicMax(&ulls[1], (unsigned long long)(v + 1000));
  unsigned long long seen = ulls[2], assumed;
  do { assumed = seen; seen = atomicCAS(&ulls[2], assumed, assumed + 1); } while (seen != assumed);
  int old = ints[8], expected;
  do { expected = old; old = atomicCAS(&ints[8], expected, expected + 2); } while (old != expected);
})")
                      .kernel("atomics");
    const int n = 100003;
    const auto in = random_ints(n, -999, 999, 5);
    auto din = upload(in);
    auto ints = upload(std::vector<int>{0, 0, 1 << 30, -(1 << 30), -1, 0, 0, 0, 0});
    auto uints = upload(std::vector<unsigned>{0, 0, 0, 0xffffffffu, 0});
    auto ulls = upload(std::vector<unsigned long long>{0, 0, 0});
    kernel({.grid = grid_for(n, 128), .block = 128}, din, ints, uints, ulls, n);
    const auto i = download<int>(ints);
    const auto u = download<unsigned>(uints);
    const auto l = download<unsigned long long>(ulls);
    long long sum = 0;
    int x = 0;
    for (int v : in) sum += v, x ^= v;
    EXPECT_EQ(i[0], sum);
    EXPECT_EQ(i[1], -sum);
    EXPECT_EQ(i[2], *std::min_element(in.begin(), in.end()));
    EXPECT_EQ(i[3], *std::max_element(in.begin(), in.end()));
    EXPECT_EQ(i[4], static_cast<int>(0x80000000u));
    EXPECT_EQ(i[5], 0x7fffffff);
    EXPECT_EQ(i[6], x);
    EXPECT_EQ(i[7], 7);
    EXPECT_EQ(i[8], 2 * n);
    EXPECT_EQ(u[0], static_cast<unsigned>(n));
    EXPECT_EQ(u[1], static_cast<unsigned>(n % 10));  // wraps to 0 after 9
    EXPECT_EQ(u[2], static_cast<unsigned>((10 - n % 10) % 10));
    EXPECT_EQ(u[3], static_cast<unsigned>(*std::min_element(in.begin(), in.end()) + 1000));
    EXPECT_EQ(u[4], static_cast<unsigned>(*std::max_element(in.begin(), in.end()) + 1000));
    EXPECT_EQ(l[0], static_cast<unsigned long long>(sum + 1000LL * n));
    EXPECT_EQ(l[1], static_cast<unsigned long long>(*std::max_element(in.begin(), in.end()) + 1000));
    EXPECT_EQ(l[2], static_cast<unsigned long long>(n));
}

TEST_F(Builtins, FloatingPointAtomicsAcrossBlocks) {
    auto kernel = Module::compile(R"(
extern "C" __global__ void fp_atomics(float* f, double* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&f[0], 1.0f);
  atomicAdd(&d[0], 0.5);
  float old = atomicExch(&f[1], (float)i);
  (void)old;
})")
                      .kernel("fp_atomics");
    const int n = 1 << 20;  // exactly representable sums
    auto f = upload(std::vector<float>{0.0f, -1.0f});
    auto d = upload(std::vector<double>{0.0});
    kernel({.grid = grid_for(n, 256), .block = 256}, f, d, n);
    const auto fv = download<float>(f);
    EXPECT_EQ(fv[0], static_cast<float>(n));
    EXPECT_GE(fv[1], 0.0f);
    EXPECT_LT(fv[1], static_cast<float>(n));
    EXPECT_EQ(download<double>(d)[0], 0.5 * n);
}

TEST_F(Builtins, ThreadfenceLastBlockReduction) {
    // Each block writes its partial sum; the block that finishes last adds them up.
    auto kernel = Module::compile(last_block_sum_source(true)).kernel("last_block_sum");
    const int n = 50000;
    const auto in = random_ints(n, -1, 1, 6);
    auto din = upload(in);
    const Dim3 grid = grid_for(n, 128);
    DeviceBuffer partial(grid.x * sizeof(int));
    auto total = upload(std::vector<int>{-1});
    kernel({.grid = grid, .block = 128}, din, partial, total, n);
    EXPECT_EQ(download<int>(total)[0], std::count_if(in.begin(), in.end(), [](int v) { return v > 0; }));
}

TEST_F(Builtins, PrintfFromAKernel) {
    auto kernel = Module::compile(R"(
extern "C" __global__ void hello(int value) {
  if (threadIdx.x == 3) printf("hello from thread %d of block %d: %d\n", (int)threadIdx.x, (int)blockIdx.x, value);
})")
                      .kernel("hello");
    ::testing::internal::CaptureStdout();
    kernel({.grid = 2, .block = 8}, 42);
    Device::current().synchronize();
    std::fflush(stdout);
    const std::string printed = ::testing::internal::GetCapturedStdout();
    expect_contains(printed, "hello from thread 3 of block 0: 42");
    expect_contains(printed, "hello from thread 3 of block 1: 42");
}

TEST_F(Builtins, MathAndFastMath) {
    auto kernel = Module::compile(R"(
extern "C" __global__ void math(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  out[8 * i + 0] = sinf(v) + cosf(v);
  out[8 * i + 1] = expf(v) * logf(fabsf(v) + 1.0f);
  out[8 * i + 2] = sqrtf(fabsf(v)) + rsqrtf(fabsf(v) + 1.0f);
  out[8 * i + 3] = __expf(v);
  out[8 * i + 4] = __fdividef(v, 3.0f);
  out[8 * i + 5] = __sinf(v);
  out[8 * i + 6] = fminf(v, 0.25f) + fmaxf(v, -0.25f) + min(1, 2) + max(3.0f, 2.0f);
  out[8 * i + 7] = __saturatef(v * 2.0f) + powf(fabsf(v), 1.5f) + tanhf(v);
})")
                      .kernel("math");
    const int n = 10000;
    const auto x = random_floats(n, 7);
    auto dx = upload(x);
    DeviceBuffer dout(8 * n * sizeof(float));
    kernel({.grid = grid_for(n, 128), .block = 128}, dx, dout, n);
    const auto out = download<float>(dout);
    for (int i = 0; i < n; ++i) {
        const double v = x[i];
        const double expected[8] = {std::sin(v) + std::cos(v),
                                    std::exp(v) * std::log(std::fabs(v) + 1),
                                    std::sqrt(std::fabs(v)) + 1 / std::sqrt(std::fabs(v) + 1),
                                    std::exp(v),
                                    v / 3,
                                    std::sin(v),
                                    std::min(v, 0.25) + std::max(v, -0.25) + 1 + 3,
                                    std::clamp(2 * v, 0.0, 1.0) + std::pow(std::fabs(v), 1.5) + std::tanh(v)};
        for (int k = 0; k < 8; ++k)
            ASSERT_NEAR(out[8 * i + k], expected[k], 2e-5 * (1 + std::abs(expected[k])))
                << "x=" << v << " formula " << k;
    }
}

TEST_F(Builtins, VectorTypesLdgRestrictForceinlineDeviceFunctionsAndTemplates) {
    CompileOptions options;
    options.name_expression("scale_add<float4>");
    auto kernel = Module::compile(R"(
__device__ __forceinline__ float4 add4(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
template <class T>
__global__ void scale_add(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ out, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T x = __ldg(&a[i]);
  T y = b[i];
  y.x *= s; y.y *= s; y.z *= s; y.w *= s;
  out[i] = add4(x, y);
})",
                                  options)
                      .kernel("scale_add<float4>");
    const int n = 1001;
    const auto a = random_floats(4 * n, 8), b = random_floats(4 * n, 9);
    auto da = upload(a), db = upload(b);
    DeviceBuffer dout(4 * n * sizeof(float));
    kernel({.grid = grid_for(n, 64), .block = 64}, da, db, dout, 0.5f, n);
    const auto out = download<float>(dout);
    for (int i = 0; i < 4 * n; ++i) ASSERT_FLOAT_EQ(out[i], a[i] + 0.5f * b[i]) << i;
}

TEST_F(Builtins, HalfPrecisionBasics) {
    auto kernel = Module::compile(R"(
#include <cuda_fp16.h>
extern "C" __global__ void halves(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half h = __float2half(in[i]);
  __half twice = __hadd(h, h);
  __half product = __hmul(h, __float2half(0.5f));
  out[2 * i] = __half2float(twice);
  out[2 * i + 1] = __half2float(product);
})")
                      .kernel("halves");
    const int n = 500;
    const auto in = random_floats(n, 10);
    auto din = upload(in);
    DeviceBuffer dout(2 * n * sizeof(float));
    kernel({.grid = grid_for(n, 128), .block = 128}, din, dout, n);
    const auto out = download<float>(dout);
    for (int i = 0; i < n; ++i) {
        EXPECT_NEAR(out[2 * i], 2 * in[i], 2e-3 * (1 + std::abs(in[i]))) << i;
        EXPECT_NEAR(out[2 * i + 1], 0.5f * in[i], 1e-3 * (1 + std::abs(in[i]))) << i;
    }
}

TEST_F(Builtins, ConstantAndDeviceGlobals) {
    auto module = Module::compile(R"(
__constant__ float coefficients[4];
__device__ int calls;
extern "C" __global__ void polynomial(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  y[i] = coefficients[0] + v * (coefficients[1] + v * (coefficients[2] + v * coefficients[3]));
  atomicAdd(&calls, 1);
})");
    const std::vector<float> c = {0.5f, -1.0f, 2.0f, 0.25f};
    module.write_global("coefficients", std::span<const float>(c));
    module.write_global("calls", std::span<const int>(std::vector<int>{0}));
    const int n = 3000;
    const auto x = random_floats(n, 11);
    auto dx = upload(x);
    DeviceBuffer dy(n * sizeof(float));
    module.kernel("polynomial")({.grid = grid_for(n, 256), .block = 256}, dx, dy, n);
    const auto y = download<float>(dy);
    for (int i = 0; i < n; ++i) ASSERT_NEAR(y[i], c[0] + x[i] * (c[1] + x[i] * (c[2] + x[i] * c[3])), 1e-5f) << i;
    EXPECT_EQ(module.read_global<int>("calls"), std::vector<int>{n});
}

TEST_F(Builtins, ThreeDimensionalGridsAndBlocks) {
    auto kernel = Module::compile(R"(
extern "C" __global__ void coordinates(unsigned* out) {
  unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned i = block * (blockDim.x * blockDim.y * blockDim.z) + thread;
  out[i] = (blockIdx.x << 24) | (blockIdx.y << 16) | (blockIdx.z << 12) | (threadIdx.x << 8) | (threadIdx.y << 4) | threadIdx.z;
})")
                      .kernel("coordinates");
    const Dim3 grid(3, 2, 4), block(5, 3, 2);
    DeviceBuffer dout(grid.volume() * block.volume() * sizeof(unsigned));
    kernel({.grid = grid, .block = block}, dout);
    const auto out = download<unsigned>(dout);
    std::size_t i = 0;
    for (unsigned bz = 0; bz < 4; ++bz)
        for (unsigned by = 0; by < 2; ++by)
            for (unsigned bx = 0; bx < 3; ++bx)
                for (unsigned tz = 0; tz < 2; ++tz)
                    for (unsigned ty = 0; ty < 3; ++ty)
                        for (unsigned tx = 0; tx < 5; ++tx, ++i)
                            ASSERT_EQ(out[i], (bx << 24) | (by << 16) | (bz << 12) | (tx << 8) | (ty << 4) | tz) << i;
}

}  // namespace
}  // namespace gpukit::testing
