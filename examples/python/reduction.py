"""Sum reduction and abs-sum on the device, compared with NumPy on the CPU, correctness and time.

The Numba notebook sums a vector of normal random float32 with `@cuda.reduce` and finds the GPU
slower than NumPy, until the data is copied to the device before timing: the copy, not the sum,
was the cost. It then sums absolute values, the CPU with NumPy, the GPU with a reduce operator
that subtracts negative values. Here both are timed the same way, with and without the copy.

Numba's `@cuda.reduce` builds its kernel from a Python function; this is the CUDA C equivalent:
each block folds 2 * 256 elements into one partial result in shared memory, and the host launches
again on the partial results until one value is left. The abs-sum takes |x| as it loads the
input; the later passes add partial results, which are never negative.
"""

import math

import numpy

import _common
import gpukit

args = _common.parse_args(__doc__, sizes={"quick": 100_003, "sim": 2**21, "cuda": 2**26},
                          size_help="the number of float32 values")

size = args.size
values = args.rng.normal(loc=0, scale=10, size=size).astype(numpy.float32)
exact_sum = values.astype(numpy.float64).sum()
exact_abs_sum = numpy.abs(values.astype(numpy.float64)).sum()
# A float32 tree of partial sums is off by at most about eps * depth * sum(|x|) from the exact sum.
tolerance = numpy.finfo(numpy.float32).eps * (math.log2(size) + 2) * exact_abs_sum


def numpy_reduce(vec):
    """The notebook's CPU abs-sum."""
    return (vec * numpy.where(vec < 0, -1, 1)).sum()


reduction_source = r'''
// The equivalent of Numba's @cuda.reduce of `a + b`, in CUDA C: one partial result per block of
// BLOCK threads, each thread adding two elements, then a tree in shared memory.
#define BLOCK 256

template <bool Absolute>
__device__ float load(const float * input, int item, int size)
{
  if (item >= size) return 0.0f;
  return Absolute ? fabsf(input[item]) : input[item];
}

template <bool Absolute>
__device__ void reduce_block(const float * input, float * partial, int size)
{
  __shared__ float cache[BLOCK];
  int item = blockIdx.x * (2 * BLOCK) + threadIdx.x;
  cache[threadIdx.x] = load<Absolute>(input, item, size) + load<Absolute>(input, item + BLOCK, size);
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) cache[threadIdx.x] += cache[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = cache[0];
}

extern "C" __global__ void sum_reduce(const float * input, float * partial, const int size)
{
  reduce_block<false>(input, partial, size);
}

extern "C" __global__ void abs_sum_reduce(const float * input, float * partial, const int size)
{
  reduce_block<true>(input, partial, size);
}
'''
BLOCK = 256  # the kernels' BLOCK: threads per block, each adding two elements
module = gpukit.RawModule(reduction_source)
sum_reduce = module.get_function("sum_reduce")
abs_sum_reduce = module.get_function("abs_sum_reduce")


def device_reduce(first_pass, values_gpu):
    """The reduction of ``values_gpu`` as a Python float, as Numba's reduce returns it."""
    kernel = first_pass
    while True:
        size = values_gpu.size
        blocks = math.ceil(size / (2 * BLOCK))
        partial_gpu = gpukit.empty(blocks, numpy.float32)
        kernel(blocks, BLOCK, (values_gpu, partial_gpu, size))
        if blocks == 1:
            return partial_gpu.item()
        values_gpu, kernel = partial_gpu, sum_reduce


values_gpu = gpukit.asarray(values)
all_correct = True
# Each reduction: its NumPy version, its first pass on the device, its exact result.
reductions = [("sum", numpy.sum, sum_reduce, exact_sum),
              ("abs-sum", numpy_reduce, abs_sum_reduce, exact_abs_sum)]
for name, numpy_version, kernel, exact in reductions:
    result = device_reduce(kernel, values_gpu)
    correct = _common.agrees(name, result, exact, atol=tolerance)
    all_correct &= correct

    cpu = gpukit.benchmark(numpy_version, (values,), n_repeat=args.repeats, n_warmup=1)
    with_copy = gpukit.benchmark(lambda kernel=kernel: device_reduce(kernel, gpukit.asarray(values)),
                                 n_repeat=args.repeats, n_warmup=1)
    on_device = gpukit.benchmark(device_reduce, (kernel, values_gpu), n_repeat=args.repeats, n_warmup=1)
    print(f"{name} of {size} float32: {result:.7g}, {'correct' if correct else 'WRONG'}\n"
          f"  NumPy {cpu.cpu_times.mean() * 1e3:.3f} ms | gpukit with the copy to the device "
          f"{with_copy.cpu_times.mean() * 1e3:.3f} ms | on data already there "
          f"{on_device.cpu_times.mean() * 1e3:.3f} ms "
          f"(events: {on_device.gpu_times.mean() * 1e3:.3f} ms)")

_common.finish(all_correct, f"reduction: sum and abs-sum of {size} float32")
