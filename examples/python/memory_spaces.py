"""Registers, local memory and shared memory: the course's vector add written five ways.

The first notebook rewrites vector add to show where a thread keeps its data: scalar temporaries
(registers), a small array (registers, or local memory when it cannot be), an array declared as
local memory, one `__shared__` array for the whole block, and dynamic shared memory with a slot
per thread. Each is checked against NumPy, except the block-wide `__shared__` one: all threads of
a block write the same three floats, so its result is not guaranteed (the notebook never knew,
it compared the result with itself). Then the plain and the dynamic-shared kernels are timed
against each other, as the notebook does; the notebook's timing launched the shared kernel
without its shared memory, which the simulator's memcheck reports.

Ported from CuPy with two changes, both marked below: the local array's size, which the course
passed as a kernel argument, is a compile-time constant (CUDA has no variable-length arrays), and
the shared-memory benchmark passes the shared memory its kernel needs.
"""

import math

import numpy

import _common
import gpukit

args = _common.parse_args(__doc__, sizes={"quick": 2048, "sim": 2**20, "cuda": 2**24},
                          size_help="the vector size")

size = args.size
a = args.rng.random(size, dtype=numpy.float32)
b = args.rng.random(size, dtype=numpy.float32)
expected = a + b

registers_source = r'''
extern "C"
__global__ void vector_add(const float * A, const float * B, float * C, const int size)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  float temp_a, temp_b, temp_c;

  if ( item < size )
  {
    temp_a = A[item];
    temp_b = B[item];
    temp_c = temp_a + temp_b;
    C[item] = temp_c;
  }
}
'''

register_array_source = r'''
extern "C"
__global__ void vector_add(const float * A, const float * B, float * C, const int size)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  float temp[3];

  if ( item < size )
  {
    temp[0] = A[item];
    temp[1] = B[item];
    temp[2] = temp[0] + temp[1];
    C[item] = temp[2];
  }
}
'''

# Changed from the course: LOCAL_MEM_SIZE is a macro given at compile time (options below), not
# the kernel argument `const int local_mem_size`, which no CUDA compiler accepts as an array size.
local_memory_source = r'''
extern "C"
__global__ void vector_add(const float * A, const float * B, float * C, const int size)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  float local_memory[LOCAL_MEM_SIZE];

  if ( item < size )
  {
    local_memory[0] = A[item];
    local_memory[1] = B[item];
    local_memory[2] = local_memory[0] + local_memory[1];
    C[item] = local_memory[2];
  }
}
'''

# One temp[3] for the whole block: all its threads write the same three floats.
static_shared_source = r'''
extern "C"
__global__ void vector_add(const float * A, const float * B, float * C, const int size)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  __shared__ float temp[3];

  if ( item < size )
  {
    temp[0] = A[item];
    temp[1] = B[item];
    temp[2] = temp[0] + temp[1];
    C[item] = temp[2];
  }
}
'''

# Three floats per thread, sized by the launch's shared_mem.
dynamic_shared_source = r'''
extern "C"
__global__ void vector_add(const float * A, const float * B, float * C, const int size)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  int offset = threadIdx.x * 3;
  extern __shared__ float temp[];

  if ( item < size )
  {
    temp[offset + 0] = A[item];
    temp[offset + 1] = B[item];
    temp[offset + 2] = temp[offset + 0] + temp[offset + 1];
    C[item] = temp[offset + 2];
  }
}
'''

threads_per_block = 32  # the notebook's choice for the shared-memory versions
grid_size = (math.ceil(size / threads_per_block), 1, 1)
block_size = (threads_per_block, 1, 1)
shared_bytes = threads_per_block * 3 * numpy.dtype(numpy.float32).itemsize

a_gpu, b_gpu = gpukit.asarray(a), gpukit.asarray(b)
# Each variant: its kernel and the dynamic shared memory its launch needs.
variants = {
    "registers": (gpukit.RawKernel(registers_source, "vector_add"), 0),
    "register array": (gpukit.RawKernel(register_array_source, "vector_add"), 0),
    "local memory": (gpukit.RawKernel(local_memory_source, "vector_add", options=("-DLOCAL_MEM_SIZE=3",)), 0),
    "static shared": (gpukit.RawKernel(static_shared_source, "vector_add"), 0),
    "dynamic shared": (gpukit.RawKernel(dynamic_shared_source, "vector_add"), shared_bytes),
}
all_correct = True
for name, (kernel, shared_mem) in variants.items():
    c_gpu = gpukit.zeros(size, numpy.float32)
    kernel(grid_size, block_size, (a_gpu, b_gpu, c_gpu, size), shared_mem=shared_mem)
    correct = _common.agrees(name, c_gpu.get(), expected)
    if name == "static shared":  # a race by construction: reported, not judged
        line = f"{name:>15}: {'right this time' if correct else 'wrong'}, but its threads share one temp[3]"
    else:
        all_correct &= correct
        line = f"{name:>15}: {'correct' if correct else 'WRONG'}"
    if not gpukit.get_device().backend_info.capabilities.simulated:  # the simulator has no registers to count
        attributes = kernel.attributes
        line += (f" ({attributes.num_registers} registers, {attributes.local_bytes_per_thread} bytes of local "
                 f"memory per thread, {attributes.static_shared_bytes + shared_mem} bytes of shared memory per block)")
    print(line)

# The notebook timed the dynamic-shared kernel launched without shared_mem: every thread then
# writes past the end of a dynamic shared buffer of 0 bytes. On the simulator, in check mode:
with _common.simulator():
    unsized = gpukit.RawKernel(dynamic_shared_source, "vector_add", check="memcheck")
    checked_size = 4 * threads_per_block
    unsized((checked_size // threads_per_block, 1, 1), block_size,
            (gpukit.asarray(a[:checked_size]), gpukit.asarray(b[:checked_size]),
             gpukit.zeros(checked_size, numpy.float32), checked_size))
    report = gpukit.take_check_report()
print("the dynamic shared kernel launched without shared_mem, in check mode:")
print(report.text())
overrun_found = any(hazard.tool == "memcheck" and "__shared__" in hazard.what for hazard in report)

# The notebook's benchmark: registers against dynamic shared memory, this time with its shared_mem.
c_gpu = gpukit.zeros(size, numpy.float32)
plain, _ = variants["registers"]
shared, _ = variants["dynamic shared"]
plain_times = gpukit.benchmark(plain, (grid_size, block_size, (a_gpu, b_gpu, c_gpu, size)),
                               n_repeat=args.repeats, n_warmup=1)
shared_times = gpukit.benchmark(shared, (grid_size, block_size, (a_gpu, b_gpu, c_gpu, size)),
                                {"shared_mem": shared_bytes}, n_repeat=args.repeats, n_warmup=1)
print(f"per launch: {plain_times.gpu_times.mean() * 1e3:.3f} ms with registers, "
      f"{shared_times.gpu_times.mean() * 1e3:.3f} ms through dynamic shared memory")

_common.finish(all_correct and overrun_found,
               f"memory spaces: vector add of {size} in registers, local and shared memory")
