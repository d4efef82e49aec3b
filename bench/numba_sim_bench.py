"""bench/numba_sim_bench.py: the reference for gpukit's simulator benchmark — the same kernels
under Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1), at sizes it finishes in about a minute,
reported per simulated thread and extrapolated to gpukit_sim_bench's sizes.

    NUMBA_ENABLE_CUDASIM=1 python bench/numba_sim_bench.py
"""
import math
import os
import sys
import time

os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

import numpy as np  # noqa: E402
from numba import cuda, float32  # noqa: E402


@cuda.jit
def vector_add(a, b, c, size):
    item = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    if item < size:
        c[item] = a[item] + b[item]


@cuda.jit
def sum_reduce(values, partial, size):
    cache = cuda.shared.array(256, dtype=float32)
    item = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    cache[cuda.threadIdx.x] = values[item] if item < size else 0.0
    cuda.syncthreads()
    stride = cuda.blockDim.x // 2
    while stride > 0:
        if cuda.threadIdx.x < stride:
            cache[cuda.threadIdx.x] += cache[cuda.threadIdx.x + stride]
        cuda.syncthreads()
        stride //= 2
    if cuda.threadIdx.x == 0:
        partial[cuda.blockIdx.x] = cache[0]


TILE = 16


@cuda.jit
def matmul_tiled(m, n, out, size):
    ms = cuda.shared.array((TILE, TILE), dtype=float32)
    ns = cuda.shared.array((TILE, TILE), dtype=float32)
    tr, tc = cuda.threadIdx.y, cuda.threadIdx.x
    r, c = cuda.blockIdx.y * TILE + tr, cuda.blockIdx.x * TILE + tc
    p = 0.0
    for phase in range((size + TILE - 1) // TILE):
        idx = phase * TILE
        ms[tr, tc] = m[r, idx + tc] if r < size and idx + tc < size else 0.0
        ns[tr, tc] = n[idx + tr, c] if c < size and idx + tr < size else 0.0
        cuda.syncthreads()
        for i in range(TILE):
            p += ms[tr, i] * ns[i, tc]
        cuda.syncthreads()
    if r < size and c < size:
        out[r, c] = p


def timed(run):
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main():
    rng = np.random.default_rng(1)
    rows = []

    n = 2 ** 13
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    c = np.zeros(n, dtype=np.float32)
    seconds = timed(lambda: vector_add[n // 256, 256](a, b, c, n))
    assert np.allclose(c, a + b)
    per_thread = seconds / n
    rows.append(("vector_add, per thread", f"{per_thread * 1e9:,.0f} ns", f"2^24 threads: {per_thread * 2**24:,.0f} s"))

    rn = 2 ** 11
    x = rng.random(rn, dtype=np.float32)
    partial = np.zeros(rn // 256, dtype=np.float32)
    seconds = timed(lambda: sum_reduce[rn // 256, 256](x, partial, rn))
    assert math.isclose(partial.sum(), x.sum(), rel_tol=1e-4)
    per_barrier = seconds / (rn * 9)
    rows.append(("tree reduction, per thread-barrier", f"{per_barrier * 1e9:,.0f} ns",
                 f"2^22 threads: {per_barrier * 2**22 * 9:,.0f} s"))

    size = 32
    m, k = rng.random((size, size), dtype=np.float32), rng.random((size, size), dtype=np.float32)
    out = np.zeros((size, size), dtype=np.float32)
    grid = (size // TILE, size // TILE)
    seconds = timed(lambda: matmul_tiled[grid, (TILE, TILE)](m, k, out, size))
    assert np.allclose(out, m @ k, rtol=1e-4, atol=1e-4)
    # Work and barriers both grow as size^3 / TILE for a tiled matmul.
    hours_at_1024 = seconds * (1024 / size) ** 3 / 3600
    rows.append((f"{size}x{size} tiled matmul", f"{seconds:.2f} s", f"1024x1024: {hours_at_1024:,.1f} h"))

    simulator = os.environ["NUMBA_ENABLE_CUDASIM"]
    print(f"Numba {__import__('numba').__version__} CUDA simulator (NUMBA_ENABLE_CUDASIM={simulator})")
    print(f"{'kernel':<40}{'measured':>16}   {'extrapolated to gpukit_sim_bench sizes'}")
    for label, measured, extrapolated in rows:
        print(f"{label:<40}{measured:>16}   {extrapolated}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
