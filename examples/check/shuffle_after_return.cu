// A warp fold whose upper half returns before the shuffle: lanes 0-15 read from lanes that are gone.
extern "C" __global__ void fold(const float* in, float* out) {
  int lane = threadIdx.x;
  float v = in[lane];
  if (lane >= 16) return;
  v += __shfl_down_sync(0xffffffff, v, 16);  // mistake: lanes 16-31 have returned
  out[lane] = v;
}
