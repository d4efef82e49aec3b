// examples/course/course_kernels.hpp: the course's kernels (shared/seeds), as a CuPy or PyCUDA user
// writes them; the tests, the benchmarks and the examples all run these very sources.
#pragma once

namespace gpukit::course {

// The course's vector add, with the bounds check the grid computation needs.
inline constexpr const char* vector_add_source = R"(
extern "C"
__global__ void vector_add(const float * A, const float * B, float * C, const int size)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  if (item < size) {
    C[item] = A[item] + B[item];
  }
}
)";

// The same kernel exactly as the course's first notebook lays it out, for the tests of the source
// analyses, which must read it as written.
inline constexpr const char* vector_add_verbatim_source = R"cuda(
extern "C"
__global__ void vector_add(const float * A, const float * B, float * C, const int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size)
        C[i] = A[i] + B[i];
}
)cuda";

// PyCUDA's saxpy from the course.
inline constexpr const char* saxpy_source = R"(
extern "C"
__global__ void saxpy(int n, float a, float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] += a * x[i];
    }
})";

// Constant memory: one factor per block.
inline constexpr const char* sum_and_multiply_source = R"(
extern "C" {
#define BLOCKS 2

__constant__ float factors[BLOCKS];

__global__ void sum_and_multiply(const float * A, const float * B, float * C, const int size)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  C[item] = (A[item] + B[item]) * factors[blockIdx.x];
}
}
)";

// The course's histogram with global atomics (used by the two-stream test).
inline constexpr const char* histogram_source = R"(
extern "C"
__global__ void histogram(const int * input, int * output, const int size)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  if (item < size) atomicAdd(&(output[input[item]]), 1);
}
)";

// The notebook's histogram with block-shared atomics (blocks of 256 threads, 256 bins), with the
// bounds the issue's sizes need.
inline constexpr const char* histogram_shared_source = R"(
extern "C"
__global__ void histogram_shared(const int * input, int * output, const int size)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  __shared__ int temp_histogram[256];

  // initialise shared memory
  temp_histogram[threadIdx.x] = 0;
  __syncthreads();

  // update block shared memory for value in item
  if (item < size) atomicAdd(&(temp_histogram[input[item]]), 1);
  __syncthreads();

  // update the global histogram (output) using temporary histogram
  atomicAdd(&(output[threadIdx.x]), temp_histogram[threadIdx.x]);
}
)";

// Tiled matrix multiplication (out = m × n; m is h×k, n is k×w), 16×16 tiles in static shared
// memory, and the same with the tile width and both tiles in dynamic shared memory.
inline constexpr const char* matmul_source = R"(
#define TILE 16

extern "C" __global__ void matmul_naive(const float* m, const float* n, float* out, int h, int w, int k) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= h || c >= w) return;
  float o = 0;
  for (int i = 0; i < k; ++i) o += m[r * k + i] * n[i * w + c];
  out[r * w + c] = o;
}

extern "C" __global__ void matmul_tiled(const float* m, const float* n, float* out, int h, int w, int k) {
  __shared__ float ms[TILE][TILE];
  __shared__ float ns[TILE][TILE];
  int tr = threadIdx.y, tc = threadIdx.x;
  int r = blockIdx.y * TILE + tr, c = blockIdx.x * TILE + tc;
  float p = 0.0f;
  for (int phase = 0; phase < (k + TILE - 1) / TILE; ++phase) {
    int idx = phase * TILE;
    ms[tr][tc] = (r < h && idx + tc < k) ? m[r * k + idx + tc] : 0.0f;
    ns[tr][tc] = (c < w && idx + tr < k) ? n[(idx + tr) * w + c] : 0.0f;
    __syncthreads();
    for (int i = 0; i < TILE; ++i) p += ms[tr][i] * ns[i][tc];
    __syncthreads();
  }
  if (r < h && c < w) out[r * w + c] = p;
}

extern "C" __global__ void matmul_dynamic(const float* m, const float* n, float* out, int h, int w, int k, int tw) {
  extern __shared__ float shared[];
  float* ms = shared;
  float* ns = shared + tw * tw;
  int tr = threadIdx.y, tc = threadIdx.x;
  int r = blockIdx.y * blockDim.y + tr, c = blockIdx.x * blockDim.x + tc;
  float p = 0.0f;
  for (int phase = 0; phase < (k + tw - 1) / tw; ++phase) {
    int idx = phase * tw;
    ms[tr * tw + tc] = (r < h && idx + tc < k) ? m[r * k + idx + tc] : 0.0f;
    ns[tr * tw + tc] = (c < w && idx + tr < k) ? n[(idx + tr) * w + c] : 0.0f;
    __syncthreads();
    for (int i = 0; i < tw; ++i) p += ms[tr * tw + i] * ns[i * tw + tc];
    __syncthreads();
  }
  if (r < h && c < w) out[r * w + c] = p;
}
)";

// Sum and abs-sum reductions: a shared-memory tree per block, one partial sum per block.
inline constexpr const char* reduction_source = R"(
template <bool Absolute>
__device__ void block_sum(const float* input, float* partial, int size) {
  extern __shared__ float cache[];
  int item = blockIdx.x * blockDim.x + threadIdx.x;
  float value = item < size ? input[item] : 0.0f;
  cache[threadIdx.x] = Absolute ? fabsf(value) : value;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) cache[threadIdx.x] += cache[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = cache[0];
}

extern "C" __global__ void sum_reduce(const float* input, float* partial, int size) {
  block_sum<false>(input, partial, size);
}

extern "C" __global__ void abs_sum_reduce(const float* input, float* partial, int size) {
  block_sum<true>(input, partial, size);
}
)";

}  // namespace gpukit::course
