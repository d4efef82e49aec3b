"""A histogram of 256 bins, with atomics on global memory and with atomics on shared memory.

Many threads add to the same bin at once, so the increment must be atomic: the course's first, plain
`output[input[item]] = output[input[item]] + 1` loses counts, and the simulator's racecheck shows
the threads that collide. The first atomic kernel adds straight to the global histogram; the second
counts into a per-block histogram in shared memory and adds it to the global one once per block, so
far fewer atomics contend for the same global words. Both are checked against numpy.bincount and
timed against each other and the CPU.

Ported from the first notebook (CuPy) unchanged, but for the `;` and `}` the plain kernel lacked
there. The kernels have no bounds check, so the input's size must be a multiple of the 256-thread
block, and the shared version needs exactly one thread per bin. (The notebook ran both kernels into
one output and got "Oh no!"; here each starts from zeros.)
"""

import math

import numpy

import _common
import gpukit

args = _common.parse_args(__doc__, sizes={"quick": 2**16, "sim": 2**20, "cuda": 2**25},
                          size_help="the number of values (a multiple of 256)")

bins = 256
threads_per_block = 256  # one thread per bin, as the shared version needs
size = args.size
if size % threads_per_block:
    raise SystemExit(f"the course's histogram kernels have no bounds check: the size must be a multiple of "
                     f"{threads_per_block}, not {size}")

values = args.rng.integers(bins, size=size, dtype=numpy.int32)
expected = numpy.bincount(values, minlength=bins)

# Two threads that read the same bin before either writes it back both write count + 1.
histogram_racy_source = r'''
extern "C"
__global__ void histogram(const int * input, int * output)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;

  output[input[item]] = output[input[item]] + 1;
}
'''

histogram_source = r'''
extern "C"
__global__ void histogram(const int * input, int * output)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;

  atomicAdd(&(output[input[item]]), 1);
}
'''

histogram_shared_source = r'''
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

# The plain increment in check mode, on the simulator whatever the backend: one block is enough.
with _common.simulator():
    racy = gpukit.RawKernel(histogram_racy_source, "histogram", check="racecheck")
    racy((1, 1, 1), (threads_per_block, 1, 1),
         (gpukit.asarray(values[:threads_per_block]), gpukit.zeros(bins, numpy.int32)))
    report = gpukit.take_check_report()
print("the plain increment, in check mode:")
print(report.text())
race_found = any(hazard.tool == "racecheck" for hazard in report)

grid_size = (math.ceil(size / threads_per_block), 1, 1)
block_size = (threads_per_block, 1, 1)
input_gpu = gpukit.asarray(values)
output_gpu = gpukit.zeros(bins, numpy.int32)

all_correct = True
for name, source in (("global atomics", histogram_source), ("shared atomics", histogram_shared_source)):
    histogram = gpukit.RawKernel(source, "histogram")
    output_gpu.fill(0)
    histogram(grid_size, block_size, (input_gpu, output_gpu))
    correct = _common.agrees(name, output_gpu.get(), expected)
    all_correct &= correct
    # Each timed run adds to the histogram again; only the first result is checked.
    times = gpukit.benchmark(histogram, (grid_size, block_size, (input_gpu, output_gpu)),
                             n_repeat=args.repeats, n_warmup=1)
    print(f"{name}: {'correct' if correct else 'WRONG'}, {times.gpu_times.mean() * 1e3:.3f} ms per histogram")

cpu_times = gpukit.benchmark(numpy.bincount, (values,), {"minlength": bins}, n_repeat=args.repeats, n_warmup=1)
print(f"numpy.bincount on the CPU: {cpu_times.cpu_times.mean() * 1e3:.3f} ms")

_common.finish(all_correct and race_found, f"histogram of {size} values into {bins} bins, global and shared atomics")
