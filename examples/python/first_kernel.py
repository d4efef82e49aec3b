"""The course's first kernel, vector add, and the grid it needs.

The first notebook (CuPy) adds two vectors in one block of 1024 threads, then tries 2048 elements:
one block of 2048 threads fails with a bare CUDADriverError, and two blocks of 1024 run but leave
half the result zero, because the kernel indexes by threadIdx.x alone. gpukit names the broken
limit, and the simulator's check mode shows both blocks writing the same elements. The kernel
that indexes by blockIdx.x * blockDim.x + threadIdx.x fixes it.

Ported from CuPy: cupy.RawKernel becomes gpukit.RawKernel and cupy.asarray gpukit.asarray; the
kernels and the launches, (grid, block, args) tuples included, are the notebook's.
"""

import numpy

import _common
import gpukit

args = _common.parse_args(__doc__)


def random_vectors(size):
    a = args.rng.random(size, dtype=numpy.float32)
    b = args.rng.random(size, dtype=numpy.float32)
    return a, b, a + b  # the inputs and NumPy's sum, the reference


# The notebook's first kernel: each thread handles the element of its index within the block.
vector_add_by_thread_source = r'''
extern "C"
__global__ void vector_add(const float * A, const float * B, float * C, const int size)
{
  int item = threadIdx.x;
  C[item] = A[item] + B[item];
}
'''

# The notebook's fix: each thread handles the element of its index within the whole grid.
vector_add_by_grid_source = r'''
extern "C"
__global__ void vector_add(const float * A, const float * B, float * C, const int size)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  C[item] = A[item] + B[item];
}
'''


vector_add_by_thread = gpukit.RawKernel(vector_add_by_thread_source, "vector_add")
vector_add_by_grid = gpukit.RawKernel(vector_add_by_grid_source, "vector_add")

# 1024 elements: one block of 1024 threads covers them all.
size = 1024
a, b, expected = random_vectors(size)
a_gpu, b_gpu, c_gpu = gpukit.asarray(a), gpukit.asarray(b), gpukit.zeros(size, numpy.float32)
vector_add_by_thread((1, 1, 1), (size, 1, 1), (a_gpu, b_gpu, c_gpu, size))
one_block_correct = _common.agrees("one block of 1024", c_gpu.get(), expected)
print(f"one block of {size} threads: {'correct' if one_block_correct else 'WRONG'}")

# 2048 elements in one block: more threads than a block may have. The launch is refused before it
# reaches the device, with the limit it breaks.
size = 2048
a, b, expected = random_vectors(size)
a_gpu, b_gpu, c_gpu = gpukit.asarray(a), gpukit.asarray(b), gpukit.zeros(size, numpy.float32)
try:
    vector_add_by_thread((1, 1, 1), (size, 1, 1), (a_gpu, b_gpu, c_gpu, size))
    big_block_refused = False
    print("one block of 2048 threads: launched, but the device's limit is 1024")
except gpukit.LaunchConfigError as error:
    big_block_refused = True
    print(f"one block of 2048 threads is refused:\n  {error}")

# Two blocks of 1024: every thread of block 1 has the same threadIdx.x as one of block 0, so both
# blocks write C[0..1023] and nobody writes C[1024..2047].
vector_add_by_thread((2, 1, 1), (size // 2, 1, 1), (a_gpu, b_gpu, c_gpu, size))
result = c_gpu.get()
half_left_zero = (numpy.array_equal(result[:1024], expected[:1024])
                  and not numpy.any(result[1024:]))
print(f"two blocks of 1024 indexed by threadIdx.x: the second half is "
      f"{'left zero, as in the course' if half_left_zero else 'not what the course saw'}")

# The same launch in check mode, on the simulator (present beside any GPU). memcheck has nothing to
# say, every access is inside the arrays; racecheck sees two blocks write the same elements with
# nothing ordering them.
with _common.simulator():
    checked = gpukit.RawModule(vector_add_by_thread_source, check="memcheck,racecheck").get_function("vector_add")
    checked((2, 1, 1), (size // 2, 1, 1),
            (gpukit.asarray(a), gpukit.asarray(b), gpukit.zeros(size, numpy.float32), size))
    report = gpukit.take_check_report()
print("the same two blocks in check mode:")
print(report.text())
race_found = any(hazard.tool == "racecheck" and hazard.kernel == "vector_add" for hazard in report)

# The fix: index by position in the grid.
c_gpu.fill(0)
vector_add_by_grid((2, 1, 1), (size // 2, 1, 1), (a_gpu, b_gpu, c_gpu, size))
two_blocks_correct = _common.agrees("two blocks of 1024, grid index", c_gpu.get(), expected)
print(f"two blocks of 1024 indexed by blockIdx.x * blockDim.x + threadIdx.x: "
      f"{'correct' if two_blocks_correct else 'WRONG'}")

_common.finish(one_block_correct and big_block_refused and half_left_zero and race_found and two_blocks_correct,
               "first kernel: 2048-thread block refused, threadIdx-only grid caught, grid index adds 2048")
