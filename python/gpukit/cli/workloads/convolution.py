"""1-D and 2-D convolutions with a small mask, zero beyond the edges: the course's signal and
image filtering exercises, one output element per thread."""

import numpy

from ... import _core, _creation, _interop, ndimage
from .workload import (
    BLOCK,
    FLOAT32_EPSILON,
    TILE,
    Workload,
    blocks_for,
    course_kernels,
    mismatch_beyond,
    power_of_two_text,
)


class Convolve1D(Workload):
    """out[i] = sum of signal[i - w/2 + j] * mask[j] over the mask (NumPy's ``correlate(..., 'same')``)."""

    name = "convolution 1-D"
    rate_unit = "FLOP/s"

    def __init__(self, sizes, rng):
        self.size, self.width = sizes.signal, sizes.mask_1d
        self.signal = rng.uniform(-1, 1, self.size).astype(numpy.float32)
        self.mask = rng.uniform(-1, 1, self.width).astype(numpy.float32)
        self.kernel = course_kernels("convolution_1d.cu").get_function("convolve_1d")

    def size_text(self):
        return f"{power_of_two_text(self.size)}, mask {self.width}"

    def work(self):
        return 2 * self.size * self.width

    def reference(self):
        return numpy.correlate(self.signal, self.mask, "same")

    def upload(self):
        return (_interop.asarray(self.signal), _interop.asarray(self.mask),
                _creation.empty(self.size, numpy.float32))

    def launch(self, state):
        signal, mask, out = state
        self.kernel((blocks_for(self.size),), (BLOCK,), (signal, mask, out, self.size, self.width))

    def download(self, state):
        return state[2].get()

    def mismatch(self, result, expected):
        bound = 2 * self.width * FLOAT32_EPSILON * float(numpy.abs(self.signal).max() * numpy.abs(self.mask).sum())
        return mismatch_beyond(result, expected, bound)

    def builtin(self, state):
        signal, mask, _ = state
        return _core.correlate(signal, mask, "same")


class Convolve2D(Workload):
    """A square float32 image filtered by a small square mask, zero beyond the image's edges."""

    name = "convolution 2-D"
    rate_unit = "FLOP/s"

    def __init__(self, sizes, rng):
        self.side, self.width = sizes.image, sizes.mask_2d
        self.image = rng.uniform(-1, 1, (self.side, self.side)).astype(numpy.float32)
        self.mask = rng.uniform(-1, 1, (self.width, self.width)).astype(numpy.float32)
        self.kernel = course_kernels("convolution_2d.cu").get_function("convolve_2d")

    def size_text(self):
        return f"{self.side}x{self.side}, mask {self.width}x{self.width}"

    def work(self):
        return 2 * self.side * self.side * self.width * self.width

    def reference(self):
        # NumPy's way: one whole-image multiply-add per mask element, over a zero-padded copy.
        padded = numpy.pad(self.image, self.width // 2)
        out = numpy.zeros_like(self.image)
        for i in range(self.width):
            for j in range(self.width):
                out += self.mask[i, j] * padded[i:i + self.side, j:j + self.side]
        return out

    def upload(self):
        return (_interop.asarray(self.image), _interop.asarray(self.mask),
                _creation.empty((self.side, self.side), numpy.float32))

    def launch(self, state):
        image, mask, out = state
        grid = (blocks_for(self.side, TILE), blocks_for(self.side, TILE))
        self.kernel(grid, (TILE, TILE), (image, mask, out, self.side, self.side, self.width))

    def download(self, state):
        return state[2].get()

    def mismatch(self, result, expected):
        bound = 2 * self.width ** 2 * FLOAT32_EPSILON * float(numpy.abs(self.image).max() * numpy.abs(self.mask).sum())
        return mismatch_beyond(result, expected, bound)

    def builtin(self, state):
        image, mask, _ = state
        return ndimage.correlate(image, mask, mode="constant", cval=0.0)
