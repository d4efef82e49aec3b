"""Vector add and saxpy: one element per thread, as the course's first kernels."""

import numpy

from ... import _creation, _interop
from .workload import BLOCK, FLOAT32_EPSILON, Workload, blocks_for, course_kernels, mismatch_beyond, power_of_two_text


class VectorAdd(Workload):
    """C = A + B (the course's first kernel)."""

    name = "vector add"

    def __init__(self, sizes, rng):
        self.size = sizes.vector
        self.a = rng.random(self.size, dtype=numpy.float32)
        self.b = rng.random(self.size, dtype=numpy.float32)
        self.kernel = course_kernels("vector_add.cu").get_function("vector_add")

    def size_text(self):
        return f"{power_of_two_text(self.size)} float32"

    def work(self):
        return 3 * 4 * self.size  # read A and B, write C

    def reference(self):
        return self.a + self.b

    def upload(self):
        return _interop.asarray(self.a), _interop.asarray(self.b), _creation.empty(self.size, numpy.float32)

    def launch(self, state):
        a, b, c = state
        self.kernel((blocks_for(self.size),), (BLOCK,), (a, b, c, self.size))

    def download(self, state):
        return state[2].get()

    def mismatch(self, result, expected):
        return mismatch_beyond(result, expected, 0.0)  # one float32 addition, rounded as NumPy rounds it

    def builtin(self, state):
        a, b, _ = state
        return a + b


class Saxpy(Workload):
    """y = a * x + y, in place (PyCUDA's saxpy from the course)."""

    name = "saxpy"

    def __init__(self, sizes, rng):
        self.size = sizes.vector
        self.a = numpy.float32(2.5)
        self.x = rng.random(self.size, dtype=numpy.float32)
        self.y = rng.random(self.size, dtype=numpy.float32)
        self.kernel = course_kernels("saxpy.cu").get_function("saxpy")

    def size_text(self):
        return f"{power_of_two_text(self.size)} float32"

    def work(self):
        return 3 * 4 * self.size  # read x and y, write y

    def reference(self):
        return self.a * self.x + self.y

    def upload(self):
        return _interop.asarray(self.x), _interop.asarray(self.y)

    def launch(self, state):
        x, y = state
        self.kernel((blocks_for(self.size),), (BLOCK,), (self.size, self.a, x, y))

    def download(self, state):
        return state[1].get()

    def mismatch(self, result, expected):
        # The GPU may fuse the multiply and add (one rounding instead of NumPy's two).
        return mismatch_beyond(result, expected, 2 * FLOAT32_EPSILON * (numpy.abs(self.a * self.x) + self.y))

    def builtin(self, state):
        x, y = state
        return self.a * x + y
