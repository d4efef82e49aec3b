"""Linear algebra on gpukit arrays, as ``numpy.linalg``."""

from ._core import linalg as _native

norm = _native.norm

__all__ = ["norm"]
