// tests/gpu/course_kernels.hpp: the course's first kernels (shared/seeds 001, 002), verbatim in
// spirit: the same sources a CuPy or PyCUDA user writes.
#pragma once

namespace gpukit::testing {

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

}  // namespace gpukit::testing
