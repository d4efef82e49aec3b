"""``gpukit.pycuda.gpuarray``: PyCUDA's GPUArray functions; the arrays are gpukit arrays (``.get()``,
arithmetic, ``.shape``, ``.dtype``)."""

import numpy

from .. import _core
from .._interop import asarray

GPUArray = _core.ndarray


def to_gpu(ary, allocator=None):
    """A device copy of the NumPy array ``ary``."""
    return asarray(ary)


def empty(shape, dtype, allocator=None, order="C"):
    return _core.empty(shape, dtype, order)


def zeros(shape, dtype, allocator=None, order="C"):
    return _core.zeros(shape, dtype, order)


def empty_like(other_ary):
    return _core.empty(other_ary.shape, other_ary.dtype)


def zeros_like(other_ary):
    return _core.zeros(other_ary.shape, other_ary.dtype)


def arange(*args, dtype=None):
    return _core.arange(*args, dtype=numpy.dtype(dtype) if dtype is not None else None)
