// A shared-memory histogram: each thread zeroes one bin, and all wait until every bin is zeroed.
extern "C" __global__ void histogram(const int* in, int* counts, int n) {
  __shared__ int bins[64];
  int t = threadIdx.x;
  bins[t] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + t;
  if (i < n) atomicAdd(&bins[in[i] % 64], 1);
  __syncthreads();
  atomicAdd(&counts[t], bins[t]);
}
