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
