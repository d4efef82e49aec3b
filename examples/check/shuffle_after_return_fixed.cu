// A warp fold: the whole warp shuffles, then the upper half returns.
extern "C" __global__ void fold(const float* in, float* out) {
  int lane = threadIdx.x;
  float v = in[lane];
  v += __shfl_down_sync(0xffffffff, v, 16);
  if (lane >= 16) return;
  out[lane] = v;
}
