// A shared-memory histogram that never zeroes its bins: the counts start from whatever the
// shared memory held.
extern "C" __global__ void histogram(const int* in, int* counts, int n) {
  __shared__ int bins[64];
  int t = threadIdx.x;
  // mistake: no `bins[t] = 0; __syncthreads();` here
  int i = blockIdx.x * blockDim.x + t;
  if (i < n) atomicAdd(&bins[in[i] % 64], 1);
  __syncthreads();
  atomicAdd(&counts[t], bins[t]);
}
