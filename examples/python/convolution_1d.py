"""1-D convolution, straight from global memory and through a shared-memory tile with a halo.

out[i] = sum over j of signal[i + r - j] * filter[j], for a filter of 2r + 1 taps, the signal
taken as zero outside its ends: the middle of numpy.convolve's full convolution. Neighbouring outputs
read nearly the same samples; the first kernel reads each of them from global memory once per
tap. The second loads the block's samples once into shared memory, with the r samples on either
side that its edge threads also need (the halo), and reads the taps from constant memory, where
every thread of a warp reading the same tap costs a single read. Both are checked against NumPy
and timed.

The course sets this as an exercise without code; these kernels are written for it.
"""

import math

import numpy

import _common
import gpukit

args = _common.parse_args(__doc__, sizes={"quick": 10_007, "sim": 2**20, "cuda": 2**22},
                          size_help="the number of samples")


def same_size_convolution(signal, taps):
    """out[i] = sum over j of signal[i + r - j] * taps[j]: the full convolution without its first and
    last r samples (numpy's mode='same' would return len(taps) samples for a shorter signal)."""
    radius = len(taps) // 2
    return numpy.convolve(signal, taps)[radius:radius + len(signal)]


size = args.size
filter_size = 63
signal = args.rng.normal(size=size).astype(numpy.float32)
taps = args.rng.uniform(-1, 1, filter_size).astype(numpy.float32)  # not symmetric: a flipped filter shows
expected = same_size_convolution(signal.astype(numpy.float64), taps.astype(numpy.float64))
# float32 sums of filter_size products: each off by at most about filter_size * eps * sum(|products|).
tolerance = filter_size * numpy.finfo(numpy.float32).eps * same_size_convolution(numpy.abs(signal), numpy.abs(taps))

convolution_source = r'''
// One thread per output sample; signal and filter read from global memory.
extern "C" __global__ void convolve_global(const float* signal, const float* filter, float* out,
                                           int size, int filter_size)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= size) return;
  int radius = filter_size / 2;
  float sum = 0.0f;
  for (int j = 0; j < filter_size; ++j) {
    int source = i + radius - j;
    if (source >= 0 && source < size) sum += signal[source] * filter[j];
  }
  out[i] = sum;
}

#define MAX_FILTER_SIZE 255
__constant__ float filter_taps[MAX_FILTER_SIZE];

// The block's blockDim.x samples and a halo of filter_size / 2 on each side, in dynamic shared
// memory (blockDim.x + filter_size - 1 floats); the taps in constant memory.
extern "C" __global__ void convolve_tiled(const float* signal, float* out, int size, int filter_size)
{
  extern __shared__ float tile[];
  int radius = filter_size / 2;
  int first = blockIdx.x * blockDim.x - radius;  // the signal index of tile[0]
  for (int t = threadIdx.x; t < blockDim.x + filter_size - 1; t += blockDim.x) {
    int source = first + t;
    tile[t] = (source >= 0 && source < size) ? signal[source] : 0.0f;
  }
  __syncthreads();  // the whole tile is loaded before anyone reads a neighbour's sample

  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= size) return;
  float sum = 0.0f;
  for (int j = 0; j < filter_size; ++j) sum += tile[threadIdx.x + 2 * radius - j] * filter_taps[j];
  out[i] = sum;
}
'''

module = gpukit.RawModule(convolution_source)
module.get_global("filter_taps", numpy.float32)[:filter_size] = taps
threads_per_block = 256
grid = math.ceil(size / threads_per_block)
tile_bytes = (threads_per_block + filter_size - 1) * numpy.dtype(numpy.float32).itemsize
signal_gpu, taps_gpu = gpukit.asarray(signal), gpukit.asarray(taps)

numpy_time = gpukit.benchmark(same_size_convolution, (signal, taps), n_repeat=args.repeats,
                              n_warmup=1).cpu_times.mean()
print(f"{size} samples, {filter_size} taps: NumPy {numpy_time * 1e3:.3f} ms")
all_correct = True
for name, kernel_args, shared_mem in (
        ("convolve_global", (signal_gpu, taps_gpu), 0),
        ("convolve_tiled", (signal_gpu,), tile_bytes)):
    kernel = module.get_function(name)
    out_gpu = gpukit.zeros(size, numpy.float32)
    launch_args = (grid, threads_per_block, (*kernel_args, out_gpu, size, filter_size))
    kernel(*launch_args, shared_mem=shared_mem)
    correct = _common.agrees(name, out_gpu.get(), expected, atol=tolerance)
    all_correct &= correct
    seconds = gpukit.benchmark(kernel, launch_args, {"shared_mem": shared_mem}, n_repeat=args.repeats,
                               n_warmup=1).gpu_times.mean()
    print(f"{name:>16}: {'correct' if correct else 'WRONG'}, {seconds * 1e3:.3f} ms")

_common.finish(all_correct, f"1-D convolution of {size} samples by {filter_size} taps, global and tiled")
