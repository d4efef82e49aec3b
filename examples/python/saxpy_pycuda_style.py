"""saxpy, y = a * x + y, written the way the course's PyCUDA slide writes it.

PyCUDA's steps map one to one onto gpukit's, so the slide's program keeps its shape: compile a
source module, get the function, allocate device memory, copy x and y to it, compute the grid from
the size, launch with NumPy scalars for the int and float parameters, copy y back, free. Each
line below carries the PyCUDA call it replaces. The result is checked against NumPy, and the
kernel's memory bandwidth is printed (saxpy reads x and y and writes y: 12 bytes per element).
"""

import numpy

import _common
import gpukit

args = _common.parse_args(__doc__, sizes={"quick": 10_001, "sim": 1024 * 2048, "cuda": 2**26},
                          size_help="the vector size (the slide's: 1024 * 2048)")

# import pycuda.autoinit: nothing to do, gpukit picks the device on first use.

# Compile the CUDA kernel code (the slide's kernel, unchanged). PyCUDA wraps the source in
# extern "C" { }; gpukit, like CuPy, compiles it as written, as C++, so name_expressions asks the
# compiler for the kernel by its C++ name.
mod = gpukit.RawModule("""
__global__ void saxpy(int n, float a, float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] += a * x[i];
    }
}""", name_expressions=("saxpy",))                                 # mod = SourceModule(...)
saxpy_cuda = mod.get_function("saxpy")                             # mod.get_function("saxpy")

# Initialize host data
a = 3.141
x = args.rng.random(args.size, dtype=numpy.float32)
y = args.rng.random(args.size, dtype=numpy.float32)
# The reference, in float64: the GPU may fuse a * x[i] + y[i] into one rounding, NumPy rounds twice.
expected = a * x.astype(numpy.float64) + y
tolerance = 2 * numpy.finfo(numpy.float32).eps * numpy.abs(expected)

# Allocate memory for x and y on the GPU
d_x = gpukit.empty(x.size, numpy.float32)                          # cuda.mem_alloc(x.nbytes)
d_y = gpukit.empty(y.size, numpy.float32)                          # cuda.mem_alloc(y.nbytes)
# Copy data from CPU to GPU
d_x.set(x)                                                         # cuda.memcpy_htod(d_x, x)
d_y.set(y)                                                         # cuda.memcpy_htod(d_y, y)

# Kernel execution configuration
block_dim = (256, 1, 1)  # Number of threads per block (1D block)
grid_dim = ((x.size + block_dim[0] - 1) // block_dim[0], 1)  # Number of blocks needed

# Launch the kernel: (n, a, d_x, d_y); gpukit takes grid and block first, then the arguments,
# as CuPy does.            saxpy_cuda(np.int32(x.size), np.float32(a), d_x, d_y, block=..., grid=...)
saxpy_cuda(grid_dim, block_dim, (numpy.int32(x.size), numpy.float32(a), d_x, d_y))

# Copy the result back to CPU
result = numpy.empty_like(y)
d_y.get(out=result)                                                # cuda.memcpy_dtoh(y, d_y)
correct = _common.agrees("saxpy", result, expected, atol=tolerance)

# Every further launch adds a * x to y again; only the time matters now.
seconds = gpukit.benchmark(saxpy_cuda, (grid_dim, block_dim, (numpy.int32(x.size), numpy.float32(a), d_x, d_y)),
                           n_repeat=args.repeats, n_warmup=1).gpu_times.mean()
print(f"saxpy of {x.size} elements: {seconds * 1e3:.3f} ms, {12 * x.size / seconds / 1e9:.1f} GB/s")

# Free GPU memory
del d_x, d_y                                                       # d_x.free(); d_y.free()

_common.finish(correct, f"saxpy in PyCUDA style on {x.size} elements")
