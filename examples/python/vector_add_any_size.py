"""Vector add of any size: the grid computed from n, and the bounds check that makes it safe.

With blocks of 1024 threads, n elements need ceil(n / 1024) blocks; the last block has threads
past the end of the arrays, and the kernel's `if (item < size)` keeps them from reading and
writing there. Sizes: 1, 1000, 10 000 (the notebook's) and 2^20 + 3 by default, or --size N [N ...].
Without the bounds check the same grid reads and writes past the arrays: the simulator's memcheck
shows where.

Ported from the first notebook (CuPy): the kernel and the grid computation are the course's,
cupy.RawKernel and cupy.asarray became gpukit.RawKernel and gpukit.asarray.
"""

import math

import numpy

import _common
import gpukit

args = _common.parse_args(__doc__, sizes={"quick": (1, 1000, 10_000), "sim": (1, 1000, 10_000, 2**20 + 3),
                                          "cuda": (1, 1000, 10_000, 2**20 + 3, 2**26 + 3)},
                          size_help="the vector sizes to add")

vector_add_source = r'''
extern "C"
__global__ void vector_add(const float * A, const float * B, float * C, const int size)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  if ( item < size )
  {
    C[item] = A[item] + B[item];
  }
}
'''
vector_add = gpukit.RawKernel(vector_add_source, "vector_add")

# Every block has 1024 threads, the most a block may have; the grid has as many blocks as it takes.
block_size = (1024, 1, 1)


def grid_for(size):
    return (math.ceil(size / block_size[0]), 1, 1)


all_correct = True
for size in args.size:
    a = args.rng.random(size, dtype=numpy.float32)
    b = args.rng.random(size, dtype=numpy.float32)
    a_gpu, b_gpu, c_gpu = gpukit.asarray(a), gpukit.asarray(b), gpukit.zeros(size, numpy.float32)
    vector_add(grid_for(size), block_size, (a_gpu, b_gpu, c_gpu, size))
    correct = _common.agrees(f"vector_add of {size}", c_gpu.get(), a + b)
    all_correct &= correct
    print(f"{size:>11} elements: grid {grid_for(size)} of {block_size} blocks: {'correct' if correct else 'WRONG'}")

# The notebook's kernel before it had the bounds check, on the grid of 1000 elements (one block
# of 1024): threads 1000 to 1023 read A and B and write C past their ends. Check mode on the
# simulator reports it.
unguarded_source = vector_add_source.replace("if ( item < size )", "")
with _common.simulator():
    unguarded = gpukit.RawKernel(unguarded_source, "vector_add", check="memcheck")
    size = 1000
    inputs = [gpukit.asarray(args.rng.random(size, dtype=numpy.float32)) for _ in range(2)]
    unguarded(grid_for(size), block_size, (*inputs, gpukit.empty(size, numpy.float32), size))
    report = gpukit.take_check_report()
print(f"without `if ( item < size )`, 1000 elements on a grid of {grid_for(size)}, in check mode:")
print(report.text())
overrun_found = any(hazard.tool == "memcheck" for hazard in report)

sizes = ", ".join(str(size) for size in args.size)
_common.finish(all_correct and overrun_found, f"vector add of {sizes} elements, grid from the size")
