// tests/device/device_kernels.hpp: kernels that more than one device test file runs (the course's
// own are in python/gpukit/kernels/course, embedded as course/course_kernels.hpp).
#pragma once

#include <string>

namespace gpukit::testing {

// The last-block reduction publishes each block's partial sum with __threadfence before the
// atomic that counts finished blocks; without the fence the last block may read a stale sum.
inline std::string last_block_sum_source(bool fence) {
    return std::string(R"(
__device__ unsigned int finished = 0;
extern "C" __global__ void last_block_sum(const int* in, int* partial, int* total, int n) {
  __shared__ bool is_last;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = __syncthreads_count(i < n && in[i] > 0);
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = s;
)") + (fence ? "    __threadfence();\n" : "") +
           R"(    unsigned ticket = atomicInc(&finished, gridDim.x);
    is_last = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (is_last && threadIdx.x == 0) {
    int sum = 0;
    for (int b = 0; b < gridDim.x; ++b) sum += ((volatile int*)partial)[b];
    *total = sum;
    finished = 0;
  }
})";
}

}  // namespace gpukit::testing
