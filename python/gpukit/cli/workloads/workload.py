"""What every workload of ``gpukit demo`` is made of: the sizes it runs at, the steps the demo
times, and the helpers the workloads share (kernel files, grid sizes, result checks)."""

import abc
from dataclasses import dataclass

import numpy

from ... import _kernel
from ...kernels import COURSE as _KERNELS  # the course's kernels, as the package ships them

BLOCK = 256   # threads per block of the 1-D workloads
TILE = 16     # the 2-D workloads' blocks are TILE x TILE (matmul.cu's TILE)
FLOAT32_EPSILON = float(numpy.finfo(numpy.float32).eps)


@dataclass(frozen=True)
class Sizes:
    """How big each workload is: ``gpu`` fills a GPU, ``simulator`` runs in about a minute on two
    cores, ``quick`` in seconds (for tests; none of its sizes is a multiple of a block, so that the
    kernels' bounds checks take part)."""

    name: str
    vector: int         # elements of vector add, saxpy, the reductions and the histograms
    matrix: int         # side of the square matrices multiplied
    signal: int         # samples of the 1-D convolution
    mask_1d: int        # its mask's width (odd)
    image: int          # side of the square image of the 2-D convolution
    mask_2d: int        # its mask's side (odd)


GPU = Sizes("gpu", vector=1 << 26, matrix=4096, signal=1 << 24, mask_1d=31, image=8192, mask_2d=5)
SIMULATOR = Sizes("simulator", vector=1 << 24, matrix=512, signal=1 << 22, mask_1d=15, image=2048, mask_2d=5)
QUICK = Sizes("quick", vector=10_007, matrix=45, signal=5_003, mask_1d=7, image=61, mask_2d=3)


def course_kernels(file_name):
    """The module compiled from ``kernels/<file_name>`` for the current device."""
    return _kernel.RawModule((_KERNELS / file_name).read_text(), program_name=file_name)


def blocks_for(count, per_block=BLOCK):
    """Blocks of ``per_block`` threads that cover ``count`` items: the course's ceil division."""
    return (count + per_block - 1) // per_block


class Workload(abc.ABC):
    """One workload. Subclasses set ``name`` and ``rate_unit`` and implement the steps; the
    constructor makes the host inputs (from ``rng``) and compiles the kernels."""

    name = ""
    rate_unit = "B/s"  # what work() counts per run: bytes moved, or "FLOP/s" for floating-point operations

    @abc.abstractmethod
    def size_text(self):
        """The problem size as the table shows it, e.g. '2^26 float32' or '4096x4096'."""

    @abc.abstractmethod
    def work(self):
        """Bytes the kernels must move, or floating-point operations they must do, per run."""

    @abc.abstractmethod
    def reference(self):
        """The result computed by NumPy on the CPU."""

    @abc.abstractmethod
    def upload(self):
        """Copies the inputs to the device; returns what launch() and download() use."""

    @abc.abstractmethod
    def launch(self, state):
        """Enqueues the kernels (and any memset they need) on the current stream."""

    @abc.abstractmethod
    def download(self, state):
        """Copies the result back to the host (waiting for the kernels)."""

    @abc.abstractmethod
    def mismatch(self, result, expected):
        """None when ``result`` is right, else what is wrong with it."""

    @abc.abstractmethod
    def builtin(self, state):
        """The same result by gpukit's built-in operation, where a user past the course would reach
        for it (``a + b``, ``gpukit.sum``, ``gpukit.histogram``, ``@``, ``gpukit.ndimage.correlate``),
        on the uploaded inputs: a gpukit array, queued on the current stream."""


def power_of_two_text(count):
    """``67108864`` -> ``'2^26'``; other counts as they are, with thousands separators."""
    return f"2^{count.bit_length() - 1}" if count & (count - 1) == 0 else f"{count:,}"


def mismatch_beyond(result, expected, tolerance):
    """None when every element of ``result`` is within ``tolerance`` (a scalar or an array like
    ``expected``) of ``expected``, else the worst element, its value, the expected one and the bound."""
    result, expected = numpy.asarray(result), numpy.asarray(expected)
    if result.shape != expected.shape:
        return f"shape {result.shape} instead of {expected.shape}"
    error = numpy.abs(result.astype(numpy.float64) - expected)
    excess = numpy.where(numpy.isnan(error), numpy.inf, error - tolerance)  # NaN is never right
    if excess.size == 0 or (excess <= 0).all():
        return None
    worst = numpy.unravel_index(numpy.argmax(excess), excess.shape)
    bound = numpy.broadcast_to(tolerance, expected.shape)[worst]
    where = ", ".join(str(index) for index in worst)
    return (f"element [{where}] is {result[worst].item()!r}, NumPy says {expected[worst].item()!r} "
            f"(allowed error {bound:.3g})")
