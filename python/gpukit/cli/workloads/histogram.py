"""Histograms of 256 bins: with atomics on the global bins, and with a block-shared histogram
added to them (the notebook's two versions)."""

import numpy

from ... import _core, _creation, _interop
from .workload import BLOCK, Workload, blocks_for, course_kernels, mismatch_beyond, power_of_two_text

BINS = 256  # histogram_shared.cu keeps one bin per thread of its 256-thread blocks


class HistogramGlobalAtomics(Workload):
    """Counts of int32 values in [0, 256), every increment an atomicAdd on global memory."""

    name = "histogram, global atomics"
    kernel_file, kernel_name = "histogram.cu", "histogram"

    def __init__(self, sizes, rng):
        self.size = sizes.vector
        self.values = rng.integers(0, BINS, self.size, dtype=numpy.int32)
        self.kernel = course_kernels(self.kernel_file).get_function(self.kernel_name)

    def size_text(self):
        return f"{power_of_two_text(self.size)} int32"

    def work(self):
        return 4 * self.size  # every value read once

    def reference(self):
        return numpy.bincount(self.values, minlength=BINS).astype(numpy.int32)

    def upload(self):
        return _interop.asarray(self.values), _creation.empty(BINS, numpy.int32)

    def launch(self, state):
        values, counts = state
        counts.fill(0)  # every run counts from zero, as the kernels expect
        self.kernel((blocks_for(self.size),), (BLOCK,), (values, counts, self.size))

    def download(self, state):
        return state[1].get()

    def mismatch(self, result, expected):
        return mismatch_beyond(result, expected, 0)

    def builtin(self, state):
        return _core.bincount(state[0], minlength=BINS).astype(numpy.int32)


class HistogramSharedAtomics(HistogramGlobalAtomics):
    """The same counts, each block first counting into shared memory, then adding its 256 bins."""

    name = "histogram, shared atomics"
    kernel_file, kernel_name = "histogram_shared.cu", "histogram_shared"
