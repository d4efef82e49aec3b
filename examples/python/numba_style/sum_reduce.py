"""The course's Numba reduction (seeds 004), @cuda.reduce, ported to gpukit by changing the imports.
Runs on a GPU or on the simulator (GPUKIT_BACKEND=sim)."""

import sys

import numpy as np

from gpukit import cuda  # was: from numba import cuda


@cuda.reduce
def sum_reduce(a, b):
    return a + b


# blank run
A = np.arange(1, 10).astype(np.float32)
assert sum_reduce(A) == 45.0

N = 100_003 if "--quick" in sys.argv else 10_000_000
A = np.random.normal(loc=0, scale=10, size=N).astype(np.float32)
A_gpu = cuda.to_device(A)
total = sum_reduce(A_gpu)
expected = A.astype(np.float64).sum()
correct = abs(float(total) - expected) <= 1e-5 * np.abs(A).astype(np.float64).sum()
print(f"sum of {N} elements with @cuda.reduce: {'correct' if correct else 'WRONG'}")
sys.exit(0 if correct else 1)
