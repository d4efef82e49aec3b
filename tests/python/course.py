"""The course's kernels, as the package ships them (python/gpukit/kernels/course/*.cu): the same
files the C++ tests embed, so both languages test one copy."""

from gpukit.kernels import course_kernel

VECTOR_ADD = course_kernel("vector_add")
SAXPY = course_kernel("saxpy")
SUM_AND_MULTIPLY = course_kernel("sum_and_multiply")
HISTOGRAM = course_kernel("histogram")
HISTOGRAM_SHARED = course_kernel("histogram_shared")
MATMUL = course_kernel("matmul")
