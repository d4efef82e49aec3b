"""CUDA C kernels gpukit ships as files.

``course/`` holds the course's kernels as its notebooks write them: ``gpukit demo`` runs them, and
the C++ tests, examples and benchmarks embed the same files (cmake/course_kernels.cmake), so each
kernel exists once for both languages.
"""

import pathlib

COURSE = pathlib.Path(__file__).with_name("course")


def course_kernel(name):
    """The source of the course's kernel ``name``: ``'vector_add'`` reads ``course/vector_add.cu``."""
    return (COURSE / f"{name}.cu").read_text()
