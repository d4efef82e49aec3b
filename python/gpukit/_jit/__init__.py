"""Kernels written in Python (Numba-CUDA's kernel language), translated to CUDA C: gpukit.jit."""

from .dispatcher import DeviceFunction, Kernel, jit
from .reduce import Reducer, reduce
from .vectorize import ScalarType, Signature, Vectorized, vectorize

__all__ = ["DeviceFunction", "Kernel", "Reducer", "ScalarType", "Signature", "Vectorized", "jit", "reduce",
           "vectorize"]
