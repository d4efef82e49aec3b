"""Constant memory: read-only data that every thread reads, written from the host before the launch.

The kernel adds two vectors and scales each block's part by its own factor, factors[blockIdx.x],
which lives in a `__constant__` array of the module. The host reaches it through
RawModule.get_global, writes random factors into it, and the launch reads them. Then it writes new
factors and launches again, to show the kernel reads whatever the host put there last.

Ported from the first notebook (CuPy) unchanged, down to wrapping the global in an ndarray of two
float32 (gpukit.ndarray takes the same (shape, dtype, memptr) as cupy.ndarray); the notebook
stopped before launching, this runs it on its two blocks of 1024 threads.
"""

import numpy

import _common
import gpukit

args = _common.parse_args(__doc__)

blocks, threads_per_block = 2, 1024  # one factor per block, and no bounds check: the grid is the data
size = blocks * threads_per_block
a = args.rng.random(size, dtype=numpy.float32)
b = args.rng.random(size, dtype=numpy.float32)


def reference(factors):
    return (a + b) * numpy.repeat(factors, threads_per_block)


constant_kernel = r'''
extern "C" {
#define BLOCKS 2

__constant__ float factors[BLOCKS];

__global__ void sum_and_multiply(const float * A, const float * B, float * C, const int size)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  C[item] = (A[item] + B[item]) * factors[blockIdx.x];
}
}
'''

module = gpukit.RawModule(code=constant_kernel)
sum_and_multiply = module.get_function("sum_and_multiply")
factor_ptr = module.get_global("factors")  # the __constant__ array's bytes, as a device array view
factors_gpu = gpukit.ndarray(blocks, numpy.float32, factor_ptr)

a_gpu, b_gpu, c_gpu = gpukit.asarray(a), gpukit.asarray(b), gpukit.zeros(size, numpy.float32)
all_correct = True
for attempt in ("first", "second"):
    factors = args.rng.random(blocks, dtype=numpy.float32) + 0.5  # never zero
    factors_gpu[...] = factors  # a host-to-device copy into constant memory
    sum_and_multiply((blocks, 1, 1), (threads_per_block, 1, 1), (a_gpu, b_gpu, c_gpu, size))
    correct = _common.agrees(f"{attempt} factors", c_gpu.get(), reference(factors), rtol=1e-6)
    all_correct &= correct
    print(f"factors {factors} in constant memory: {'correct' if correct else 'WRONG'}")

_common.finish(all_correct, f"constant memory: {size} sums scaled by per-block factors from the host")
