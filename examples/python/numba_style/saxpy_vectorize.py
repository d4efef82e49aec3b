"""The course's Numba saxpy (seeds 001), a @vectorize ufunc with target='cuda', ported to gpukit by
changing the imports: NumPy arrays in, a NumPy array out, as with Numba. Runs on a GPU or on the
simulator (GPUKIT_BACKEND=sim)."""

import sys

import numpy as np

from gpukit import vectorize  # was: from numba import vectorize
from gpukit.cuda import float32  # was: from numba import float32


@vectorize([float32(float32, float32, float32)],
           target='cuda')
def saxpy(a, x, y):
    return a * x + y


shape = (64, 33) if "--quick" in sys.argv else (1024, 2048)
a = 3.141
x = np.random.rand(*shape).astype(np.float32)
y = np.random.rand(*shape).astype(np.float32)

result = saxpy(a, x, y)

expected = np.float32(a) * x.astype(np.float64) + y
correct = isinstance(result, np.ndarray) and np.allclose(result, expected, rtol=1e-6)
print(f"saxpy with @vectorize of {shape[0]}x{shape[1]}: {'correct' if correct else 'WRONG'}")
sys.exit(0 if correct else 1)
