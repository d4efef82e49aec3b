// The course's tiled matmul (size a multiple of the tile) without the barrier after the
// multiply: a fast thread loads the next phase's tile while slower ones still read this one.
#define TILE 16
extern "C" __global__ void matmul_tiled(const float* m, const float* n, float* out, int size) {
  __shared__ float ms[TILE][TILE];
  __shared__ float ns[TILE][TILE];
  int tr = threadIdx.y, tc = threadIdx.x;
  int r = blockIdx.y * TILE + tr, c = blockIdx.x * TILE + tc;
  float p = 0.0f;
  for (int phase = 0; phase < size / TILE; ++phase) {
    ms[tr][tc] = m[r * size + phase * TILE + tc];
    ns[tr][tc] = n[(phase * TILE + tr) * size + c];
    __syncthreads();
    for (int i = 0; i < TILE; ++i) p += ms[tr][i] * ns[i][tc];
    // mistake: no __syncthreads() here
  }
  out[r * size + c] = p;
}
