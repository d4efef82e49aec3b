"""The course's PyCUDA saxpy (seeds 001), ported to gpukit by changing its imports. Runs on a GPU or
on the simulator (GPUKIT_BACKEND=sim)."""

import sys

import numpy as np

import gpukit.pycuda.autoinit  # noqa: F401  (was: import pycuda.autoinit)
import gpukit.pycuda.driver as cuda  # was: import pycuda.driver as cuda
from gpukit.pycuda.compiler import SourceModule  # was: from pycuda.compiler import SourceModule

# Compile the CUDA kernel code
mod = SourceModule("""
__global__ void saxpy(int n, float a, float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] += a * x[i];
    }
}""")
saxpy_cuda = mod.get_function("saxpy") # Get the function pointer for the compiled kernel

# Initialize host data
a = 3.141
n = 10_001 if "--quick" in sys.argv else 1024 * 2048
x = np.random.rand(n).astype(np.float32)
y = np.random.rand(n).astype(np.float32)
expected = np.float32(a) * x.astype(np.float64) + y

# Allocate memory for x and y on the GPU
d_x = cuda.mem_alloc(x.nbytes)
d_y = cuda.mem_alloc(y.nbytes)
# Copy data from CPU to GPU
cuda.memcpy_htod(d_x, x)
cuda.memcpy_htod(d_y, y)

# Kernel execution configuration
block_dim = (256, 1, 1) # Number of threads per block (1D block)
grid_dim = ((x.size + block_dim[0] - 1) // block_dim[0], 1) # Number of blocks needed

# Launch the kernel: (n, a, d_x, d_y)
saxpy_cuda(np.int32(x.size), np.float32(a), d_x, d_y, block=block_dim, grid=grid_dim)

# Copy the result back to CPU
cuda.memcpy_dtoh(y, d_y)
# Free GPU memory
d_x.free()
d_y.free()

correct = np.allclose(y, expected, rtol=1e-6)
print(f"saxpy in PyCUDA style, ported by its imports, of {n} elements: {'correct' if correct else 'WRONG'}")
sys.exit(0 if correct else 1)
