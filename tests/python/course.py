"""The course's kernels, read from examples/course/course_kernels.hpp: one copy for C++ and Python tests."""

import re

from conftest import REPOSITORY

_SOURCE = (REPOSITORY / "examples" / "course" / "course_kernels.hpp").read_text()
# inline constexpr const char* NAME = R"DELIMITER( ... )DELIMITER";
_RAW_STRING = re.compile(r'inline constexpr const char\* (\w+) = R"(\w*)\((.*?)\)\2";', re.S)
_KERNELS = {name: body for name, _delimiter, body in _RAW_STRING.findall(_SOURCE)}


def source(name):
    """The kernel source named ``name`` in course_kernels.hpp, e.g. 'vector_add_source'."""
    return _KERNELS[name]


VECTOR_ADD = source("vector_add_source")
SAXPY = source("saxpy_source")
SUM_AND_MULTIPLY = source("sum_and_multiply_source")
HISTOGRAM = source("histogram_source")
HISTOGRAM_SHARED = source("histogram_shared_source")
MATMUL = source("matmul_source")
