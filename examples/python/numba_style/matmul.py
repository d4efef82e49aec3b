"""The course's Numba matrix multiplications (seeds 004), naive and with shared-memory tiles,
ported to gpukit by changing the imports: cuda.to_device, cuda.device_array, kernel[blocks,
threads](...), copy_to_host. Runs on a GPU or on the simulator (GPUKIT_BACKEND=sim)."""

import math
import sys

import numpy as np

from gpukit import cuda  # was: from numba import cuda
from gpukit.cuda import float32  # was: from numba import float32

TPB = 16


@cuda.jit
def cuda_matmul1(A, B, C):
    """Perform square matrix multiplication of C = A * B
    """
    i, j = cuda.grid(2)
    if i < C.shape[0] and j < C.shape[1]:
        tmp = 0.
        for k in range(A.shape[1]):
            tmp += A[i, k] * B[k, j]
        C[i, j] = tmp


@cuda.jit
def fast_matmul(A, B, C):
    # Define an array in the shared memory
    # The size and type of the arrays must be known at compile time
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)

    x, y = cuda.grid(2)

    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x    # blocks per grid

    # Each thread computes one element in the result matrix.
    # The dot product is chunked into dot products of TPB-long vectors.
    tmp = float32(0.)
    for i in range(bpg):
        # Preload data into shared memory
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]

        # Wait until all threads finish preloading
        cuda.syncthreads()

        # Computes partial product on the shared memory
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]

        # Wait until all threads finish computing
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


n = 72 if "--quick" in sys.argv else 1000
A = np.random.normal(loc=0, scale=10, size=n**2).astype(np.float32).reshape((n, n))
B = np.random.normal(loc=0, scale=10, size=n**2).astype(np.float32).reshape((n, n))

# Copy the arrays to the device
A_gpu = cuda.to_device(A)
B_gpu = cuda.to_device(B)

# Allocate memory on the device for the result
C_gpu = cuda.device_array((n, n))

# Configure the blocks
threadsperblock = (TPB, TPB)
blockspergrid_x = int(math.ceil(A.shape[0] / threadsperblock[0]))
blockspergrid_y = int(math.ceil(B.shape[1] / threadsperblock[1]))
blockspergrid = (blockspergrid_x, blockspergrid_y)

expected = A.astype(np.float64) @ B
tolerance = 1e-4 * np.abs(A).astype(np.float64) @ np.abs(B)
cuda_matmul1[blockspergrid, threadsperblock](A_gpu, B_gpu, C_gpu)
naive = C_gpu.copy_to_host()
C_tiled = cuda.device_array((n, n), dtype=np.float32)
fast_matmul[blockspergrid, threadsperblock](A_gpu, B_gpu, C_tiled)
tiled = C_tiled.copy_to_host()
correct = bool(np.all(np.abs(naive - expected) <= tolerance) and np.all(np.abs(tiled - expected) <= tolerance))
print(f"matmul, naive and tiled, of {n}x{n}: {'correct' if correct else 'WRONG'}")
sys.exit(0 if correct else 1)
