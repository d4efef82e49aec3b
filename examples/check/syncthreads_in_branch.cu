// A reversal through shared memory whose barrier sits in a branch: threads 48-63 never reach it
// and read elements the others may not have written yet.
extern "C" __global__ void reverse(const float* in, float* out) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  if (t < 48) __syncthreads();  // mistake: a barrier only part of the block reaches
  out[blockIdx.x * 64 + t] = s[63 - t];
}
