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
