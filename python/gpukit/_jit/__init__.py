"""Kernels written in Python (Numba-CUDA's kernel language), translated to CUDA C: gpukit.jit."""

from .dispatcher import Kernel, jit

__all__ = ["Kernel", "jit"]
