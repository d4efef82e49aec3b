"""The workloads of ``gpukit bench``: what each computes in every library, the NumPy result it
is checked against before it is timed, the sizes it sweeps and the work one run does.

A workload's ``run(lib, inputs)`` returns the call to time (``None`` where the library has no such
operation); ``inputs`` are the host arrays ``make(size, rng)`` made, already on the library's
device. Sizes count elements (vectors) or a side (matrices, images)."""

import math
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy

BYTES = "B/s"
FLOPS = "FLOP/s"


@dataclass(frozen=True)
class Sweep:
    """The sizes of a workload for each profile: a GPU's full and quick runs, the simulator's."""

    gpu: tuple
    gpu_quick: tuple
    simulator: tuple
    simulator_quick: tuple

    def sizes(self, simulated, quick):
        if simulated:
            return self.simulator_quick if quick else self.simulator
        return self.gpu_quick if quick else self.gpu


# The quick GPU sizes stop where NumPy's runs (sort, a 2-D convolution) would take seconds each.
VECTOR = Sweep(gpu=(1 << 10, 1 << 14, 1 << 18, 1 << 22, 1 << 26), gpu_quick=(1 << 12, 1 << 18, 1 << 22),
               simulator=(1 << 10, 1 << 14, 1 << 18), simulator_quick=(1_003, 40_009))
SQUARE = Sweep(gpu=(64, 256, 1024, 4096), gpu_quick=(64, 512, 2048), simulator=(32, 128, 256),
               simulator_quick=(17, 45))
IMAGE = Sweep(gpu=(256, 1024, 4096), gpu_quick=(256, 2048), simulator=(64, 256), simulator_quick=(37,))
TINY = Sweep(gpu=(1,), gpu_quick=(1,), simulator=(1,), simulator_quick=(1,))
# Host arrays streamed through the device: large enough that the chunks' copies dominate.
STREAMED = Sweep(gpu=(1 << 24, 1 << 26, 1 << 28), gpu_quick=(1 << 24, 1 << 26), simulator=(1 << 16, 1 << 20),
                 simulator_quick=(40_009,))


@dataclass(frozen=True)
class Workload:
    """One row group of the report. ``amount(size)`` is the bytes moved or floating-point
    operations done per run (its ``unit``); ``ceiling`` names the measured limit it is held against
    ("copy": device copy bandwidth, "blas": the vendor BLAS's float32 rate, "h2d": pinned
    host-to-device bandwidth), or None. ``check`` says how results meet NumPy's: "close" (within
    ``rtol``), "exact", or "normal" (standard normal statistics: the values differ by generator)."""

    name: str
    group: str
    sweep: Sweep
    unit: str
    amount: Callable
    make: Callable
    run: Callable
    reference: Callable
    ceiling: Optional[str] = "copy"
    check: str = "close"
    rtol: float = 1e-5
    only: tuple = field(default=())  # the libraries it runs with, where not all
    host_clock: bool = False  # timed per call on the host's clock (a launch's overhead), not by events

    def elements(self, size):
        """Elements of the result (a vector's, a matrix's or an image's; 1 for the launch row)."""
        return size * size if self.sweep in (SQUARE, IMAGE) else size

    def size_text(self, size):
        if self.sweep in (SQUARE, IMAGE):
            return f"{size}x{size}"
        return f"2^{size.bit_length() - 1}" if size >= 1024 and size & (size - 1) == 0 else str(size)


def _floats(size, rng, count=1, dtype=numpy.float32):
    return tuple(rng.standard_normal(size).astype(dtype) for _ in range(count))


def _xp(lib):
    return lib.xp


def _torch(lib):
    return lib.name == "torch"


# ---- per-library spellings where the libraries differ
def _astype_half(lib, x):
    return (lambda: x.to(lib.xp.float16)) if _torch(lib) else (lambda: x.astype(numpy.float16))


def _sum_axis(lib, x, axis):
    return (lambda: x.sum(dim=axis)) if _torch(lib) else (lambda: x.sum(axis=axis))


def _cumsum(lib, x):
    return (lambda: lib.xp.cumsum(x, dim=0)) if _torch(lib) else (lambda: lib.xp.cumsum(x))


def _sort(lib, x):
    return (lambda: lib.xp.sort(x).values) if _torch(lib) else (lambda: lib.xp.sort(x))


def _histogram(lib, x):
    if _torch(lib):
        return lambda: lib.xp.histc(x, bins=256, min=0, max=256)
    return lambda: lib.xp.histogram(x, bins=256, range=(0, 256))[0]


def _conv1d(lib, x, w):
    if _torch(lib):
        functional = lib.xp.nn.functional
        flipped = lib.xp.flip(w, dims=(0,)).reshape(1, 1, -1)
        return lambda: functional.conv1d(x.reshape(1, 1, -1), flipped, padding=w.shape[0] // 2).reshape(-1)
    return lambda: lib.xp.convolve(x, w, mode="same")


def _conv2d(lib, x, w):
    if _torch(lib):
        functional = lib.xp.nn.functional
        flipped = lib.xp.flip(w, dims=(0, 1))[None, None]
        return lambda: functional.conv2d(x[None, None], flipped, padding=w.shape[0] // 2)[0, 0]
    if lib.name == "gpukit":
        return lambda: lib.xp.signal.convolve2d(x, w, mode="same")
    module = _import_optional("cupyx.scipy.signal" if lib.name == "cupy" else "scipy.signal")
    return None if module is None else (lambda: module.convolve2d(x, w, mode="same"))


def _import_optional(name):
    try:
        import importlib

        return importlib.import_module(name)
    except ImportError:
        return None


def _normal(lib, size):
    if _torch(lib):
        out = lib.xp.empty(size, device="cuda")  # not a backend: PyTorch's name of its GPU device
        return lambda: out.normal_()
    generator = lib.xp.random.default_rng(1)
    return lambda: generator.standard_normal(size, dtype=numpy.float32)


def _own_matmul(lib, a, b):
    """gpukit's own tiled kernel, not the vendor BLAS (the library chosen for this call only)."""

    def run():
        previous = lib.xp.get_matmul_library()
        lib.xp.set_matmul_library("own")
        try:
            return a @ b
        finally:
            lib.xp.set_matmul_library(previous)

    return run


def _fft(lib, x):
    return lambda: lib.xp.fft.fft(x)


def _reference_conv2d(x, w):
    from scipy import signal

    return signal.convolve2d(x, w, mode="same")


def _host_to_device(lib, host_source, pinned):
    """A copy of host memory (pinned where the library can allocate it) to a new device array."""
    if lib.name == "gpukit":
        source = lib.xp.pinned_empty(host_source.shape, host_source.dtype) if pinned else host_source.copy()
        source[...] = host_source
        return lambda: lib.xp.asarray(source)
    if lib.name == "cupy":
        if pinned:
            memory = lib.xp.cuda.alloc_pinned_memory(host_source.nbytes)
            source = numpy.frombuffer(memory, host_source.dtype, host_source.size)
            source[...] = host_source
        else:
            source = host_source.copy()
        return lambda: lib.xp.asarray(source)
    if lib.name == "torch":
        source = lib.xp.from_numpy(host_source.copy())
        if pinned:
            source = source.pin_memory()
        return lambda: source.to("cuda", non_blocking=pinned)  # not a backend: PyTorch's name of its GPU device
    return None


def _device_to_host(lib, x, pinned):
    """A copy of a device array into host memory (pinned, written in place, where ``pinned``)."""
    if lib.name == "gpukit":
        if not pinned:
            return lambda: x.get()
        target = lib.xp.pinned_empty(x.shape, x.dtype)
        return lambda: x.get(out=target)
    if lib.name == "cupy":
        if not pinned:
            return lambda: lib.xp.asnumpy(x)
        memory = lib.xp.cuda.alloc_pinned_memory(x.nbytes)
        target = numpy.frombuffer(memory, x.dtype, x.size)
        return lambda: x.get(out=target)
    if lib.name == "torch":
        if not pinned:
            return lambda: x.cpu()
        target = lib.xp.empty(x.shape, dtype=x.dtype, pin_memory=True)
        return lambda: target.copy_(x)
    return None


def _streamed_sum(lib, x):
    """The sum of a host array taken through the device in 8 chunks: gpukit.streaming against the
    loop a CuPy or PyTorch user writes (copy a chunk in, reduce it, the next); NumPy sums it where
    it is."""
    chunk = max(1, -(-x.size // 8))
    parts = [x[start:start + chunk] for start in range(0, x.size, chunk)]
    if lib.name == "gpukit":
        return lambda: lib.xp.streaming.sum(x, dtype=numpy.float64, chunk_rows=chunk, progress=False)
    if lib.name == "cupy":
        return lambda: sum(lib.xp.asarray(part).sum(dtype=numpy.float64) for part in parts)
    if lib.name == "torch":
        torch = lib.xp
        return lambda: sum(torch.from_numpy(part).to("cuda").sum(dtype=torch.float64)  # not a backend: PyTorch's
                           for part in parts)
    return lambda: x.sum(dtype=numpy.float64)


def _cached_kernel(lib, x):
    """A kernel built from CUDA C source whose module the library already holds: its cache's hit
    and the launch (gpukit, CuPy: ElementwiseKernel; PyTorch has none)."""
    if lib.name not in ("gpukit", "cupy"):
        return None
    return lambda: lib.xp.ElementwiseKernel("float32 x", "float32 y", "y = x * 2.0f", "bench_cached_double")(x)


def _vector_bytes(reads, writes, itemsize=4):
    return lambda n: (reads + writes) * n * itemsize


WORKLOADS = (
    Workload("add", "elementwise", VECTOR, BYTES, _vector_bytes(2, 1), lambda n, rng: _floats(n, rng, 2),
             lambda lib, x, y: (lambda: x + y), lambda x, y: x + y),
    Workload("saxpy", "elementwise", VECTOR, BYTES, _vector_bytes(2, 1), lambda n, rng: _floats(n, rng, 2),
             lambda lib, x, y: (lambda: 2.5 * x + y), lambda x, y: numpy.float32(2.5) * x + y),
    Workload("sqrt", "elementwise", VECTOR, BYTES, _vector_bytes(1, 1),
             lambda n, rng: (rng.random(n, dtype=numpy.float32),), lambda lib, x: (lambda: lib.xp.sqrt(x)),
             numpy.sqrt),
    Workload("astype f32->f16", "elementwise", VECTOR, BYTES, lambda n: 6 * n, lambda n, rng: _floats(n, rng),
             _astype_half, lambda x: x.astype(numpy.float16), rtol=1e-3),
    Workload("broadcast add (n,1)+(n,)", "elementwise", SQUARE, BYTES, lambda s: 4 * (s * s + 2 * s),
             lambda s, rng: (rng.standard_normal((s, 1)).astype(numpy.float32), _floats(s, rng)[0]),
             lambda lib, x, y: (lambda: x + y), lambda x, y: x + y),
    Workload("transposed a.T+b", "elementwise", SQUARE, BYTES, lambda s: 12 * s * s,
             lambda s, rng: tuple(rng.standard_normal((s, s)).astype(numpy.float32) for _ in range(2)),
             lambda lib, a, b: (lambda: a.T + b), lambda a, b: a.T + b),
    Workload("sum", "reduction", VECTOR, BYTES, _vector_bytes(1, 0), lambda n, rng: (rng.random(n, numpy.float32),),
             lambda lib, x: (lambda: x.sum()), lambda x: x.sum(dtype=numpy.float64), rtol=1e-3),
    Workload("sum axis=0", "reduction", SQUARE, BYTES, lambda s: 4 * s * s,
             lambda s, rng: (rng.random((s, s), numpy.float32),),
             lambda lib, x: _sum_axis(lib, x, 0), lambda x: x.sum(axis=0, dtype=numpy.float64), rtol=1e-3),
    Workload("sum axis=1", "reduction", SQUARE, BYTES, lambda s: 4 * s * s,
             lambda s, rng: (rng.random((s, s), numpy.float32),),
             lambda lib, x: _sum_axis(lib, x, 1), lambda x: x.sum(axis=1, dtype=numpy.float64), rtol=1e-3),
    Workload("argmax", "reduction", VECTOR, BYTES, _vector_bytes(1, 0), lambda n, rng: _floats(n, rng),
             lambda lib, x: (lambda: x.argmax()), numpy.argmax, check="exact"),
    Workload("cumsum", "reduction", VECTOR, BYTES, _vector_bytes(1, 1),
             lambda n, rng: (rng.random(n, dtype=numpy.float32),), _cumsum,
             lambda x: numpy.cumsum(x, dtype=numpy.float64), rtol=1e-3),
    Workload("sort", "reduction", VECTOR, BYTES, _vector_bytes(1, 1), lambda n, rng: _floats(n, rng), _sort,
             numpy.sort, check="exact"),
    Workload("histogram 256 bins", "histogram", VECTOR, BYTES, _vector_bytes(1, 0),
             lambda n, rng: (rng.integers(0, 256, n).astype(numpy.float32),), _histogram,
             lambda x: numpy.histogram(x, bins=256, range=(0, 256))[0], check="exact"),
    Workload("bincount", "histogram", VECTOR, BYTES, _vector_bytes(1, 0),
             lambda n, rng: (rng.integers(0, 256, n).astype(numpy.int64),),
             lambda lib, x: (lambda: lib.xp.bincount(x)), numpy.bincount, check="exact", ceiling="copy"),
    Workload("matmul f32", "matmul", SQUARE, FLOPS, lambda s: 2 * s**3,
             lambda s, rng: tuple(rng.standard_normal((s, s)).astype(numpy.float32) for _ in range(2)),
             lambda lib, a, b: (lambda: a @ b), lambda a, b: a.astype(numpy.float64) @ b, ceiling="blas", rtol=1e-3),
    Workload("matmul f32 own kernel", "matmul", SQUARE, FLOPS, lambda s: 2 * s**3,
             lambda s, rng: tuple(rng.standard_normal((s, s)).astype(numpy.float32) for _ in range(2)),
             _own_matmul, lambda a, b: a.astype(numpy.float64) @ b, ceiling="blas", rtol=1e-3, only=("gpukit",)),
    Workload("conv1d 31 taps", "convolution", VECTOR, FLOPS, lambda n: 2 * 31 * n,
             lambda n, rng: (_floats(n, rng)[0], _floats(31, rng)[0]), _conv1d,
             lambda x, w: numpy.convolve(x.astype(numpy.float64), w, mode="same"), ceiling=None, rtol=1e-3),
    Workload("conv2d 5x5", "convolution", IMAGE, FLOPS, lambda s: 2 * 25 * s * s,
             lambda s, rng: (rng.standard_normal((s, s)).astype(numpy.float32),
                             rng.standard_normal((5, 5)).astype(numpy.float32)),
             _conv2d, _reference_conv2d, ceiling=None, rtol=1e-3),
    Workload("random normal f32", "random", VECTOR, BYTES, _vector_bytes(0, 1), lambda n, rng: (n,),
             lambda lib, n: _normal(lib, n), lambda n: n, check="normal"),
    Workload("fft c2c complex64", "fft", VECTOR, FLOPS, lambda n: 5 * n * max(1, math.log2(n)),
             lambda n, rng: ((rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(numpy.complex64),),
             _fft, lambda x: numpy.fft.fft(x.astype(numpy.complex128)), ceiling=None, rtol=1e-3),
    Workload("host->device pageable", "transfer", VECTOR, BYTES, _vector_bytes(1, 0), lambda n, rng: _floats(n, rng),
             lambda lib, x: _host_to_device(lib, x, pinned=False), lambda x: x, ceiling="h2d", check="exact",
             only=("gpukit", "cupy", "torch")),
    Workload("host->device pinned", "transfer", VECTOR, BYTES, _vector_bytes(1, 0), lambda n, rng: _floats(n, rng),
             lambda lib, x: _host_to_device(lib, x, pinned=True), lambda x: x, ceiling="h2d", check="exact",
             only=("gpukit", "cupy", "torch")),
    Workload("device->host pageable", "transfer", VECTOR, BYTES, _vector_bytes(1, 0), lambda n, rng: _floats(n, rng),
             lambda lib, x: _device_to_host(lib, x, pinned=False), lambda x: x, ceiling=None, check="exact",
             only=("gpukit", "cupy", "torch")),
    Workload("device->host pinned", "transfer", VECTOR, BYTES, _vector_bytes(1, 0), lambda n, rng: _floats(n, rng),
             lambda lib, x: _device_to_host(lib, x, pinned=True), lambda x: x, ceiling=None, check="exact",
             only=("gpukit", "cupy", "torch")),
    Workload("streamed sum of a host array", "streaming", STREAMED, BYTES, _vector_bytes(1, 0),
             lambda n, rng: _floats(n, rng), _streamed_sum, lambda x: x.sum(dtype=numpy.float64), ceiling="h2d"),
    Workload("compile cache hit + launch (ElementwiseKernel)", "launch", TINY, BYTES, _vector_bytes(1, 1),
             lambda n, rng: _floats(n, rng), _cached_kernel, lambda x: 2 * x, ceiling=None, host_clock=True,
             only=("gpukit", "cupy")),
    Workload("launch overhead (x + y, 1 element)", "launch", TINY, BYTES, _vector_bytes(2, 1),
             lambda n, rng: _floats(n, rng, 2), lambda lib, x, y: (lambda: x + y), lambda x, y: x + y, ceiling=None,
             only=("gpukit", "cupy", "torch"), host_clock=True),
)

# Workloads whose inputs stay on the host: their make() results are not sent to the device.
HOST_INPUTS = ("host->device pageable", "host->device pinned", "random normal f32", "streamed sum of a host array")


def by_name():
    return {workload.name: workload for workload in WORKLOADS}
