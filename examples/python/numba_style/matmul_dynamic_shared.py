"""The course's Numba tiled matmul with dynamic shared memory (seeds 003), ported to gpukit by
changing the imports. The course passes PyTorch CUDA tensors through ``as_cuda_array``; here they
are gpukit arrays (PyTorch's or CuPy's CUDA tensors work unchanged on a GPU). Runs on a GPU or on
the simulator (GPUKIT_BACKEND=sim)."""

import math
import sys

import numpy as np

import gpukit
from gpukit import cuda  # was: from numba import cuda
from gpukit.cuda import as_cuda_array as ca  # was: from numba.cuda import as_cuda_array as ca


@cuda.jit
def matmul_k_numba(m, n, out, tw):
    """
    Perform matrix multiplication on GPU using CUDA.

    This kernel function multiplies matrices 'm' and 'n', storing the result in 'out'.
    It uses shared memory and tiling for improved performance.
    """
    # Get CUDA thread and block information
    cbi, cbd, tid = cuda.blockIdx, cuda.blockDim, cuda.threadIdx
    tc, tr = tid.x, tid.y

    # Calculate global row and column indices
    r, c = cbi.y * cbd.y + tr, cbi.x * cbd.x + tc

    # Get input matrix dimensions
    h, k = m.shape
    k2, w = n.shape

    # Allocate shared memory for tile-based computation
    shar = cuda.shared.array(0, dtype=np.float32)
    ms, ns = shar[:tw*tw], shar[tw*tw:2*tw*tw]  # Split shared memory for both input matrices

    # Initialize partial sum
    p = np.float32(0.0)

    # Iterate over tiles
    for ph in range(math.ceil(k/tw)):
        idx = ph * tw

        # Load data into shared memory, with boundary checks
        ms[tr*tw+tc] = m[r, tc+idx] if r < h and idx+tc < k else 0.
        ns[tr*tw+tc] = n[tr+idx, c] if c < w and idx+tr < k else 0.

        # Ensure all threads have loaded data
        cuda.syncthreads()

        # Compute partial dot product for this tile
        for i in range(tw):
            p += ms[tr*tw+i] * ns[i*tw+tc]

        # Ensure all threads have used the data before next iteration
        cuda.syncthreads()

    # Store the result if within output matrix bounds
    if r < h and c < w:
        out[r, c] = p


def cdiv(a, b):
    return (a + b - 1) // b


def matmul_2d_numba(m, n, tw=16):
    """Perform matrix multiplication using CUDA."""
    h, k = m.shape
    k2, w = n.shape
    assert k == k2, "Size mismatch!"

    # Initialize output matrix
    out = gpukit.zeros((h, w), dtype=m.dtype)  # was: torch.zeros(h, w, dtype=m.dtype, device=m.device)

    # Set up CUDA kernel parameters
    dyn_shared_mem_size = 2 * tw * tw * 4  # Size of shared memory in bytes
    tpb = tw, tw  # Threads per block
    blocks = cdiv(w, tpb[0]), cdiv(h, tpb[1])

    # Launch CUDA kernel
    matmul_k_numba[blocks, tpb, 0, dyn_shared_mem_size](ca(m), ca(n), ca(out), tw)
    return out


h, k, w = (70, 45, 33) if "--quick" in sys.argv else (5120, 256, 5120)
rng = np.random.default_rng(3)
m1 = rng.standard_normal((h, k), dtype=np.float32)
m2 = rng.standard_normal((k, w), dtype=np.float32)
m1c, m2c = gpukit.asarray(m1), gpukit.asarray(m2)  # was: m1.contiguous().cuda(), m2.contiguous().cuda()

result = matmul_2d_numba(m1c, m2c).get()
expected = m1.astype(np.float64) @ m2
correct = bool(np.allclose(result, expected, rtol=1e-4, atol=1e-4 * math.sqrt(k)))
print(f"matmul with dynamic shared memory, {h}x{k} @ {k}x{w}: {'correct' if correct else 'WRONG'}")
sys.exit(0 if correct else 1)
