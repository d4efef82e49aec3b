"""Kernels written in Python (Numba-CUDA's kernel language), translated to CUDA C: gpukit.jit."""

from .dispatcher import DeviceFunction, Kernel, jit
from .guvectorize import GUVectorized, guvectorize
from .numba_types import ArrayType, GufuncSignature, ScalarType, Signature, VoidType
from .reduce import Reducer, reduce
from .vectorize import Vectorized, vectorize

__all__ = ["ArrayType", "DeviceFunction", "GUVectorized", "GufuncSignature", "Kernel", "Reducer", "ScalarType",
           "Signature", "Vectorized", "VoidType", "guvectorize", "jit", "reduce", "vectorize"]
