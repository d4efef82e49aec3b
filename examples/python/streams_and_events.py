"""Two streams and an event: independent kernels side by side, and one made to wait for another.

First the shared-memory and the global-atomics histogram kernels go on two streams, free to
overlap: neither depends on the other, and atomics make their sum right in any order. Then three
histograms: two on stream one with an event recorded between them, and one on stream two that
waits for that event, so it starts only after stream one's first kernel has finished. After
synchronising both streams, the histogram holds 2 and then 3 times numpy.bincount's counts.

Ported from the first notebook (CuPy) unchanged: `with stream:` makes a stream current, and
Event.record(stream=...) and Stream.wait_event(...) are CuPy's names.
"""

import math

import numpy

import _common
import gpukit

args = _common.parse_args(__doc__, sizes={"quick": 2**16, "sim": 2**20, "cuda": 2**25},
                          size_help="the number of values (a multiple of 256)")

size = args.size
threads_per_block = 256  # one thread per bin; the kernels have no bounds check
if size % threads_per_block:
    raise SystemExit(f"the histogram kernels have no bounds check: the size must be a multiple of "
                     f"{threads_per_block}, not {size}")
values = args.rng.integers(256, size=size, dtype=numpy.int32)
expected = numpy.bincount(values, minlength=256)

histogram_cuda = r'''
extern "C"
__global__ void histogram(const int * input, int * output)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;

  atomicAdd(&(output[input[item]]), 1);
}
'''

histogram_cuda_shared = r'''
extern "C"
__global__ void histogram(const int * input, int * output)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  __shared__ int temp_histogram[256];

  // initialise shared memory
  temp_histogram[threadIdx.x] = 0;
  __syncthreads();

  // update block shared memory for value in item
  atomicAdd(&(temp_histogram[input[item]]), 1);
  __syncthreads();

  // update the global histogram (output) using temporary histogram
  atomicAdd(&(output[threadIdx.x]), temp_histogram[threadIdx.x]);
}
'''

histogram_gpu = gpukit.RawKernel(histogram_cuda, "histogram")
histogram_gpu_shared = gpukit.RawKernel(histogram_cuda_shared, "histogram")
grid_size = (math.ceil(size / threads_per_block), 1, 1)
block_size = (threads_per_block, 1, 1)
input_gpu = gpukit.asarray(values)
output_gpu = gpukit.zeros(256, numpy.int32)

# Two kernels that do not depend on each other, one per stream.
stream_one = gpukit.Stream()
stream_two = gpukit.Stream()
with stream_one:
    histogram_gpu_shared(grid_size, block_size, (input_gpu, output_gpu))
with stream_two:
    histogram_gpu(grid_size, block_size, (input_gpu, output_gpu))
stream_one.synchronize()
stream_two.synchronize()
independent_correct = _common.agrees("two streams", output_gpu.get(), 2 * expected)
print(f"two histograms on two streams: {'correct' if independent_correct else 'WRONG'}")

# Stream two's kernel waits for the event recorded after stream one's first kernel.
output_gpu.fill(0)
sync_point = gpukit.Event()
with stream_one:
    histogram_gpu(grid_size, block_size, (input_gpu, output_gpu))
    sync_point.record(stream=stream_one)
    histogram_gpu(grid_size, block_size, (input_gpu, output_gpu))
with stream_two:
    stream_two.wait_event(sync_point)
    histogram_gpu(grid_size, block_size, (input_gpu, output_gpu))
stream_one.synchronize()
stream_two.synchronize()
ordered_correct = _common.agrees("two streams and an event", output_gpu.get(), 3 * expected)
print(f"three histograms, stream two waiting for stream one's event: {'correct' if ordered_correct else 'WRONG'}")

_common.finish(independent_correct and ordered_correct and sync_point.done(),
               f"streams and events: histograms of {size} values on two streams and an event")
