"""The course's first Numba kernel (seeds 004, "Kernel declaration"), ported to gpukit by changing
the import: a NumPy array passed straight to a launch is copied to the device and back, as Numba
does. The course leaves the body empty ("code here"); the second kernel fills it in as the
tutorial it credits does, doubling every element. Runs on a GPU or on the simulator."""

import sys

from gpukit import cuda  # was: from numba import cuda


@cuda.jit
def my_kernel(io_array):
    """
    Code for kernel.
    """
    # code here


@cuda.jit
def my_kernel_doubling(io_array):
    # Thread id in a 1D block, block id in a 1D grid, block width (threads per block)
    tx = cuda.threadIdx.x
    ty = cuda.blockIdx.x
    bw = cuda.blockDim.x
    # Compute flattened index inside the array
    pos = tx + ty * bw
    if pos < io_array.size:  # Check array boundaries
        io_array[pos] *= 2   # do the computation


import numpy  # noqa: E402 (the course's order)

# Create the data array - usually initialized some other way
data = numpy.ones(256)

# Set the number of threads in a block
threadsperblock = 32

# Calculate the number of thread blocks in the grid
blockspergrid = (data.size + (threadsperblock - 1)) // threadsperblock

# Now start the kernel
my_kernel[blockspergrid, threadsperblock](data)

# Print the result
print(data)
unchanged = bool((data == 1).all())

my_kernel_doubling[blockspergrid, threadsperblock](data)
print(data)
correct = unchanged and bool((data == 2).all())
print(f"first kernel, empty then doubling, on 256 elements: {'correct' if correct else 'WRONG'}")
sys.exit(0 if correct else 1)
