"""Sum and abs-sum: the course's shared-memory tree per block, run again on the partial sums
until one value is left."""

import math

import numpy

from ... import _core, _creation, _interop
from .workload import BLOCK, FLOAT32_EPSILON, Workload, blocks_for, course_kernels, mismatch_beyond, power_of_two_text


class Sum(Workload):
    """The sum of a float32 vector."""

    name = "sum"
    first_pass = "sum_reduce"  # the kernel of the first pass; later passes add the partial sums

    def __init__(self, sizes, rng):
        self.size = sizes.vector
        self.values = rng.uniform(-1, 1, self.size).astype(numpy.float32)
        module = course_kernels("reduction.cu")
        self.first_kernel = module.get_function(self.first_pass)
        self.partial_kernel = module.get_function("sum_reduce")

    def size_text(self):
        return f"{power_of_two_text(self.size)} float32"

    def work(self):
        return 4 * self.size  # every value read once; the partial sums are a 256th of that

    def reference(self):
        return numpy.sum(self.values)

    def upload(self):
        partials, count = [], self.size
        while count > 1:
            count = blocks_for(count)
            partials.append(_creation.empty(count, numpy.float32))
        return _interop.asarray(self.values), partials

    def launch(self, state):
        source, partials = state
        kernel, count = self.first_kernel, self.size
        for partial in partials:
            kernel((blocks_for(count),), (BLOCK,), (source, partial, count), shared_mem=BLOCK * 4)
            kernel, source, count = self.partial_kernel, partial, partial.size

    def download(self, state):
        return state[1][-1].get()[0]

    def mismatch(self, result, expected):
        # A tree of additions rounds about log2(n) times on any path: bound both results' errors.
        bound = 2 * (math.log2(self.size) + 1) * FLOAT32_EPSILON * float(numpy.sum(numpy.abs(self.values)))
        return mismatch_beyond(result, expected, bound)

    def builtin(self, state):
        return _core.sum(state[0])


class AbsSum(Sum):
    """The sum of the absolute values (the first pass takes them)."""

    name = "abs-sum"
    first_pass = "abs_sum_reduce"

    def reference(self):
        return numpy.sum(numpy.abs(self.values))

    def builtin(self, state):
        return _core.sum(_core.abs(state[0]))
