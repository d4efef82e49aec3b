"""The element types gpukit arrays hold, as NumPy dtypes."""

import numpy

from . import _core

# NumPy's own numeric types; bfloat16, which NumPy has only through ml_dtypes, is left out.
SUPPORTED = tuple(numpy.dtype(name) for name in _core.dtype_names() if name != "bfloat16")
