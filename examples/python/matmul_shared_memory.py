"""Matrix multiplication, naive and tiled: shared memory cuts the trips to global memory.

out = m @ n with m of h x k and n of k x w, one thread per element of out. The naive kernel reads
a row of m and a column of n from global memory for every output element. The tiled kernels load
16 x 16 tiles of m and n into shared memory once per block, wait for the whole tile
(__syncthreads), and let every thread of the block read it from there: once with tiles in static
shared memory, whose size is fixed at compile time, once in dynamic shared memory, sized by the
launch. The sizes are not multiples of 16, so the tiles at the edges are padded with zeros.
All three are checked against NumPy and timed against it.

The naive kernel is the CUDA MODE lecture's CUDA C, given extern "C" so it keeps its name. The
tiled kernels were Numba @cuda.jit Python functions; these are their CUDA C equivalents: the
lecture's matmul_k_numba (dynamic shared memory) and the Numba notebook's cuda_fast_matmul
(static shared memory), whose tile loads had no bounds checks (right only when 16 divides every
side, and it counted the tiles by gridDim.x, right only for square matrices); here it guards
them as the lecture's version does.
"""

import math

import numpy

import _common
import gpukit

args = _common.parse_args(__doc__, sizes={"quick": (70, 45, 33), "sim": (300, 200, 250), "cuda": (5120, 256, 5120)},
                          size_help="h k w: out (h x w) = m (h x k) @ n (k x w)")

h, k, w = args.size
m = args.rng.random((h, k), dtype=numpy.float32)
n = args.rng.random((k, w), dtype=numpy.float32)
expected = m.astype(numpy.float64) @ n.astype(numpy.float64)
# float32 dot products of k terms: each off by at most about k * eps * sum(|m_ri * n_ic|).
tolerance = k * numpy.finfo(numpy.float32).eps * (numpy.abs(m) @ numpy.abs(n))

matmul_source = r'''
// The lecture's CUDA C; extern "C" added so that it keeps its name.
extern "C" __global__ void matmul_k(float* m, float* n, float* out, int h, int w, int k) {
  // Calculate global thread indices
  int r = blockIdx.y*blockDim.y + threadIdx.y;
  int c = blockIdx.x*blockDim.x + threadIdx.x;
  // Check if thread is within matrix bounds
  if (r >= h || c >= w) return;
  // Perform dot product for this element
  float o = 0;
  for (int i = 0; i < k; ++i) o += m[r*k+i] * n[i*w+c];
  out[r*w+c] = o;
}

// The Numba notebook's @cuda.jit cuda_fast_matmul in CUDA C: tiles of TPB x TPB in static shared
// memory (cuda.shared.array(shape=(TPB, TPB), ...)), its tile loads guarded.
#define TPB 16

extern "C" __global__ void matmul_static_tiles(float* m, float* n, float* out, int h, int w, int k) {
  __shared__ float sm[TPB][TPB];
  __shared__ float sn[TPB][TPB];
  int tr = threadIdx.y, tc = threadIdx.x;
  int r = blockIdx.y*TPB + tr, c = blockIdx.x*TPB + tc;
  float p = 0.0f;
  for (int ph = 0; ph < (k + TPB - 1) / TPB; ++ph) {
    int idx = ph*TPB;
    // Preload the tiles, zeros past the edges; no thread returns early, all reach the barriers
    sm[tr][tc] = (r < h && idx+tc < k) ? m[r*k + idx+tc] : 0.0f;
    sn[tr][tc] = (c < w && idx+tr < k) ? n[(idx+tr)*w + c] : 0.0f;
    __syncthreads();
    for (int i = 0; i < TPB; ++i) p += sm[tr][i] * sn[i][tc];
    // Wait until every thread has used the tiles before the next phase overwrites them
    __syncthreads();
  }
  if (r < h && c < w) out[r*w + c] = p;
}

// The lecture's @cuda.jit matmul_k_numba in CUDA C: tiles of tw x tw in dynamic shared memory
// (cuda.shared.array(0, ...)), both in the one buffer the launch sizes.
extern "C" __global__ void matmul_dynamic_tiles(float* m, float* n, float* out, int h, int w, int k, int tw) {
  extern __shared__ float shar[];
  float* ms = shar;
  float* ns = shar + tw*tw;
  int tc = threadIdx.x, tr = threadIdx.y;
  int r = blockIdx.y*blockDim.y + tr, c = blockIdx.x*blockDim.x + tc;
  float p = 0.0f;
  for (int ph = 0; ph < (k + tw - 1) / tw; ++ph) {
    int idx = ph*tw;
    ms[tr*tw + tc] = (r < h && idx+tc < k) ? m[r*k + tc+idx] : 0.0f;
    ns[tr*tw + tc] = (c < w && idx+tr < k) ? n[(tr+idx)*w + c] : 0.0f;
    __syncthreads();
    for (int i = 0; i < tw; ++i) p += ms[tr*tw + i] * ns[i*tw + tc];
    __syncthreads();
  }
  if (r < h && c < w) out[r*w + c] = p;
}
'''

module = gpukit.RawModule(matmul_source)
tile = 16
tpb = (tile, tile)  # threads per block: one per element of a tile
blocks = (math.ceil(w / tpb[0]), math.ceil(h / tpb[1]))
dynamic_shared_bytes = 2 * tile * tile * numpy.dtype(numpy.float32).itemsize
m_gpu, n_gpu = gpukit.asarray(m), gpukit.asarray(n)

numpy_time = gpukit.benchmark(numpy.matmul, (m, n), n_repeat=args.repeats, n_warmup=1).cpu_times.mean()
print(f"{h}x{k} @ {k}x{w}: NumPy {numpy_time * 1e3:.3f} ms")
all_correct = True
# Each kernel, the arguments it takes beyond the matrices and sizes, and its dynamic shared memory.
kernels = [("matmul_k", (), 0),
           ("matmul_static_tiles", (), 0),
           ("matmul_dynamic_tiles", (tile,), dynamic_shared_bytes)]
for name, extra_args, shared_mem in kernels:
    kernel = module.get_function(name)
    out_gpu = gpukit.zeros((h, w), numpy.float32)
    launch_args = (blocks, tpb, (m_gpu, n_gpu, out_gpu, h, w, k, *extra_args))
    kernel(*launch_args, shared_mem=shared_mem)
    correct = _common.agrees(name, out_gpu.get(), expected, atol=tolerance)
    all_correct &= correct
    seconds = gpukit.benchmark(kernel, launch_args, {"shared_mem": shared_mem}, n_repeat=args.repeats,
                               n_warmup=1).gpu_times.mean()
    print(f"{name:>21}: {'correct' if correct else 'WRONG'}, {seconds * 1e3:.3f} ms "
          f"({2 * h * k * w / seconds / 1e9:.1f} GFLOP/s)")

_common.finish(all_correct, f"matmul {h}x{k} @ {k}x{w}: naive, static tiles, dynamic tiles")
