"""Numba-CUDA's names, so that course code written for ``from numba import cuda`` runs on gpukit by
changing the import to ``from gpukit import cuda``: ``@cuda.jit`` kernels and, inside them,
``cuda.grid``, ``cuda.threadIdx``, ``cuda.shared.array``, ``cuda.syncthreads``, ``cuda.atomic.add``.
"""

from ._jit import jit
from ._jit.intrinsics import (
    atomic,
    blockDim,
    blockIdx,
    const,
    grid,
    gridDim,
    gridsize,
    laneid,
    local,
    shared,
    syncthreads,
    syncthreads_and,
    syncthreads_count,
    syncthreads_or,
    syncwarp,
    threadfence,
    threadfence_block,
    threadIdx,
    warpsize,
)

__all__ = [
    "atomic", "blockDim", "blockIdx", "const", "grid", "gridDim", "gridsize", "jit", "laneid", "local", "shared",
    "syncthreads", "syncthreads_and", "syncthreads_count", "syncthreads_or", "syncwarp", "threadfence",
    "threadfence_block", "threadIdx", "warpsize",
]
