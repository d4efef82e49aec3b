"""Square matrix multiplication: one thread per output element, reading rows and columns from
global memory (naive), or through 16x16 tiles in shared memory (tiled), as lecture 5 builds it."""

import numpy

from ... import _creation, _interop
from .workload import FLOAT32_EPSILON, TILE, Workload, blocks_for, course_kernels, mismatch_beyond


class MatmulNaive(Workload):
    """out = left @ right, float32, each thread a dot product of a row and a column."""

    name = "matmul, naive"
    kernel_name = "matmul_naive"
    rate_unit = "FLOP/s"

    def __init__(self, sizes, rng):
        self.side = sizes.matrix
        shape = (self.side, self.side)
        self.left = rng.uniform(-1, 1, shape).astype(numpy.float32)
        self.right = rng.uniform(-1, 1, shape).astype(numpy.float32)
        self.kernel = course_kernels("matmul.cu").get_function(self.kernel_name)

    def size_text(self):
        return f"{self.side}x{self.side} float32"

    def work(self):
        return 2 * self.side ** 3  # a multiply and an add per term of each dot product

    def reference(self):
        return self.left @ self.right

    def upload(self):
        return (_interop.asarray(self.left), _interop.asarray(self.right),
                _creation.empty((self.side, self.side), numpy.float32))

    def launch(self, state):
        left, right, out = state
        grid = (blocks_for(self.side, TILE), blocks_for(self.side, TILE))
        self.kernel(grid, (TILE, TILE), (left, right, out, self.side, self.side, self.side))

    def download(self, state):
        return state[2].get()

    def mismatch(self, result, expected):
        # Summing k products in float32 errs by at most k * eps * (|left| @ |right|), in either order.
        magnitude = numpy.abs(self.left) @ numpy.abs(self.right)
        return mismatch_beyond(result, expected, 2 * self.side * FLOAT32_EPSILON * magnitude)

    def builtin(self, state):
        left, right, _ = state
        return left @ right


class MatmulTiled(MatmulNaive):
    """The same product through 16x16 tiles staged in shared memory, two barriers per phase."""

    name = "matmul, tiled"
    kernel_name = "matmul_tiled"
