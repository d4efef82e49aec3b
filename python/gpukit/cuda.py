"""Numba-CUDA's names, so that course code written for ``from numba import cuda`` runs on gpukit by
changing the import to ``from gpukit import cuda``: ``@cuda.jit`` kernels and, inside them,
``cuda.grid``, ``cuda.threadIdx``, ``cuda.shared.array``, ``cuda.syncthreads``, ``cuda.atomic.add``.
"""

from ._jit import jit
from ._jit.intrinsics import (
    activemask,
    all_sync,
    any_sync,
    atomic,
    ballot_sync,
    blockDim,
    blockIdx,
    brev,
    clz,
    const,
    eq_sync,
    ffs,
    fma,
    grid,
    gridDim,
    gridsize,
    laneid,
    lanemask_lt,
    local,
    popc,
    selp,
    shared,
    shfl_down_sync,
    shfl_sync,
    shfl_up_sync,
    shfl_xor_sync,
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
    "activemask", "all_sync", "any_sync", "ballot_sync", "brev", "clz", "eq_sync", "ffs", "fma", "lanemask_lt",
    "popc", "selp", "shfl_down_sync", "shfl_sync", "shfl_up_sync", "shfl_xor_sync",
    "atomic", "blockDim", "blockIdx", "const", "grid", "gridDim", "gridsize", "jit", "laneid", "local", "shared",
    "syncthreads", "syncthreads_and", "syncthreads_count", "syncthreads_or", "syncwarp", "threadfence",
    "threadfence_block", "threadIdx", "warpsize",
]
