"""The course's workloads, as ``gpukit demo`` runs them: each is the course's CUDA C kernel (the
files in ``gpukit/kernels/course/``, which the C++ tests embed too) beside the NumPy code that
computes the same result, which the kernel's result is checked against."""

from .convolution import Convolve1D, Convolve2D
from .elementwise import Saxpy, VectorAdd
from .histogram import HistogramGlobalAtomics, HistogramSharedAtomics
from .matmul import MatmulNaive, MatmulTiled
from .reduction import AbsSum, Sum
from .workload import GPU, QUICK, SIMULATOR, Sizes, Workload

# The order the course meets them in, which the demo's table follows.
COURSE_ORDER = (VectorAdd, Saxpy, Sum, AbsSum, HistogramGlobalAtomics, HistogramSharedAtomics, MatmulNaive,
                MatmulTiled, Convolve1D, Convolve2D)

__all__ = ["COURSE_ORDER", "GPU", "QUICK", "SIMULATOR", "Sizes", "Workload"]
