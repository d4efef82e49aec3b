"""bench/array_bench.py: gpukit's array operations beside CuPy and PyTorch, same data, one run.

Each operation runs on each library after a warm-up; its time is the median of many CUDA-event
timings on that library's own stream. Bandwidth counts the bytes an operation must move (inputs
read once, outputs written once); the ceiling is the device-to-device copy rate (cudaMemcpy through
CuPy, or PyTorch's copy_) measured in the same run. Host time is what one small call costs the
Python thread (the launch queued, not waited for), median over batches of calls.

    GPUKIT_BACKEND=cuda python bench/array_bench.py [--size-log2 26] [--repeat 30] [--json out.json]

The issue's goals (issue 13): contiguous ops at >= 0.95x PyTorch and >= 90 % of copy bandwidth;
broadcast and transposed adds >= 1.4x PyTorch; float16/bfloat16 add >= 0.95x PyTorch; Python host
time per small op <= 4 us.
"""

import argparse
import json
import statistics
import sys
import time

import numpy as np

import gpukit as gk

try:
    import cupy as cp
except ImportError:  # the table says "-" for it
    cp = None
try:
    import torch
except ImportError:
    torch = None


def event_median_ms(run, events, synchronize, repeat, batch=1, flush=None):
    """Median milliseconds of `run` between two events of one library, after a warm-up; with batch > 1,
    of `batch` runs queued back to back between the events, per run (the host's time per call then
    overlaps the device's work instead of adding to it). With `flush`, it runs before each start event:
    the device is then busy while the host queues the events and the call, so the events time the
    device's work alone (Triton's do_bench measures so)."""
    for _ in range(3):
        run()
    synchronize()
    times = []
    for _ in range(repeat):
        start, end = events()
        if flush is not None:
            flush()
        start.record()
        for _ in range(batch):
            run()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) if hasattr(start, "elapsed_time") and not _is_cupy(start)
                     else cp.cuda.get_elapsed_time(start, end))
    return statistics.median(times) / batch


def _is_cupy(event):
    return cp is not None and isinstance(event, cp.cuda.Event)


class Library:
    """One library's array calls, the same for every operation."""

    def __init__(self, name, module, to_device, events, synchronize):
        self.name = name
        self.xp = module
        self.to_device = to_device
        self.events = events
        self.synchronize = synchronize

    def cache_flush(self, nbytes=256 << 20):
        """A call that writes `nbytes` (past any L2) on this library's stream: no input of the timed call
        is left in the cache by the previous repeat, and the device has work while the host queues."""
        if self.name == "torch":
            buffer = torch.empty(nbytes // 4, dtype=torch.float32, device="cuda")
            return lambda: buffer.fill_(0.0)
        buffer = self.xp.empty(nbytes // 4, dtype=np.float32)
        return lambda: buffer.fill(0.0)


def libraries():
    libs = [Library("gpukit", gk, gk.asarray, lambda: (gk.Event(), gk.Event()), gk.synchronize)]
    if cp is not None:
        libs.append(Library("cupy", cp, cp.asarray, lambda: (cp.cuda.Event(), cp.cuda.Event()),
                            cp.cuda.Device().synchronize))
    if torch is not None and torch.cuda.is_available():
        libs.append(Library("torch", torch, lambda a: torch.from_numpy(np.ascontiguousarray(a)).cuda(),
                            lambda: (torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)),
                            torch.cuda.synchronize))
    return libs


def dtype_of(lib, name):
    if lib.name == "torch":
        return getattr(torch, name)
    if name == "bfloat16":
        return "bfloat16" if lib.name == "gpukit" else None
    return np.dtype(name)


def workloads(n, side):
    """(name, bytes moved, setup(lib) -> run callable or None)."""

    def contiguous(op, dtype="float32"):
        def setup(lib):
            dt = dtype_of(lib, dtype)
            if dt is None:
                return None
            rng = np.random.default_rng(1)
            host_a = rng.random(n, dtype=np.float32) + 1
            host_b = rng.random(n, dtype=np.float32) + 1
            a = lib.to_device(host_a)
            b = lib.to_device(host_b)
            if dtype != "float32":
                a, b = (a.to(dt), b.to(dt)) if lib.name == "torch" else (a.astype(dt), b.astype(dt))
            out = a * 1 if lib.name != "torch" else a.clone()
            xp = lib.xp
            if op == "add":
                return lambda: xp.add(a, b, out=out)
            if op == "multiply":
                return lambda: xp.multiply(a, b, out=out)
            if op == "saxpy":
                return lambda: a * 2.0 + b
            if op == "sqrt":
                return lambda: xp.sqrt(a, out=out)
            if op == "copy":
                return (lambda: out.copy_(a)) if lib.name == "torch" else (lambda: a.copy())
            if op == "fill":
                return (lambda: out.fill_(3.0)) if lib.name == "torch" else (lambda: out.fill(3.0))
            if op == "astype":
                return (lambda: a.to(torch.float16)) if lib.name == "torch" else (lambda: a.astype(np.float16))
            raise ValueError(op)
        return setup

    def broadcast(lib):
        rng = np.random.default_rng(2)
        a = lib.to_device(rng.random((side, side), dtype=np.float32))
        col = lib.to_device(rng.random((side, 1), dtype=np.float32))
        out = lib.to_device(np.empty((side, side), np.float32))
        return lambda: lib.xp.add(a, col, out=out)

    def transposed(lib):
        rng = np.random.default_rng(3)
        a = lib.to_device(rng.random((side, side), dtype=np.float32))
        b = lib.to_device(rng.random((side, side), dtype=np.float32))
        out = lib.to_device(np.empty((side, side), np.float32))
        return lambda: lib.xp.add(a.T, b, out=out)

    def user_kernel(lib):
        """z = a * x + y as one user ElementwiseKernel (gpukit's and CuPy's; PyTorch has none)."""
        if lib.name == "torch":
            return None
        kernel = lib.xp.ElementwiseKernel("float32 a, float32 x, float32 y", "float32 z", "z = a * x + y",
                                          "saxpy_kernel")
        rng = np.random.default_rng(4)
        x = lib.to_device(rng.random(n, dtype=np.float32))
        y = lib.to_device(rng.random(n, dtype=np.float32))
        z = lib.to_device(np.empty(n, np.float32))
        return lambda: kernel(np.float32(2.0), x, y, z)

    def reduction(op, shape, axis=None):
        """A reduction of random float32 of `shape` (issue 14: full sum/max, per-axis sums)."""

        def setup(lib):
            a = lib.to_device(np.random.default_rng(5).random(shape, dtype=np.float32))
            if lib.name == "torch":
                if op == "max":
                    return lambda: torch.amax(a)
                if op == "argmax":
                    return lambda: torch.argmax(a)
                return (lambda: a.sum()) if axis is None else (lambda: a.sum(dim=axis))
            return lambda: getattr(lib.xp, op)(a, axis=axis)
        return setup

    def absolute_sum(lib):
        """The course's absolute sum as one user ReductionKernel (gpukit's and CuPy's; PyTorch has none)."""
        if lib.name == "torch":
            return None
        kernel = lib.xp.ReductionKernel("T x", "T y", "abs(x)", "a + b", "y = a", "0", "absolute_sum")
        a = lib.to_device(np.random.default_rng(6).standard_normal(2 * n, dtype=np.float32))
        return lambda: kernel(a)

    def scan(shape, axis=None):
        """A cumsum of random float32 of `shape` (issue 14: cumsum 2^26 >= PyTorch), read once and written once."""

        def setup(lib):
            a = lib.to_device(np.random.default_rng(6).random(shape, dtype=np.float32))
            if lib.name == "torch":
                return lambda: torch.cumsum(a.reshape(-1) if axis is None else a, dim=0 if axis is None else axis)
            return lambda: lib.xp.cumsum(a, axis=axis)
        return setup

    def sorting(op):
        """sort or argsort of n random float32 (issue 14: >= 0.9x CuPy's CUB radix sort and >= PyTorch)."""

        def setup(lib):
            a = lib.to_device(np.random.default_rng(6).random(n, dtype=np.float32))
            if lib.name == "torch":  # torch.sort returns the indices too; argsort as the stable one
                return (lambda: torch.sort(a)) if op == "sort" else (lambda: torch.argsort(a, stable=True))
            return lambda: getattr(lib.xp, op)(a)
        return setup

    def histogram(op, skew, floats=False):
        """histogram (256 bins over [0, 256)) or bincount of 2^25 int32 values, uniform or all in one bin
        (issue 16: histogram >= 3x PyTorch's histc and >= 8x CuPy; bincount >= 5x PyTorch). histc
        takes floats only: PyTorch gets the same values as float32 (as many bytes)."""

        def setup(lib):
            count = n // 2
            rng = np.random.default_rng(7)
            values = np.full(count, 17, np.int32) if skew else rng.integers(0, 256, count, dtype=np.int32)
            if floats:  # every library bins the same float32 values (equal-width bins by arithmetic)
                values = rng.random(count, dtype=np.float32) * 256
            if lib.name == "torch":
                a = lib.to_device(values.astype(np.float32) if op == "histogram" else values)
                if op == "histogram":
                    return lambda: torch.histc(a, bins=256, min=0, max=256)
                return lambda: torch.bincount(a)
            a = lib.to_device(values)
            if op == "histogram":
                return lambda: lib.xp.histogram(a, bins=256, range=(0, 256))
            return lambda: lib.xp.bincount(a)
        return setup

    def convolution(op):
        """conv2d (scipy.signal.convolve2d, 'same') and ndimage.convolve ('reflect') of a 4096^2 float32
        image with a 5x5 kernel, and a 31-tap 'same' convolve of 2^24 float32 (issue: each >= 3x CuPy).
        CuPy: cupyx.scipy.signal and cupyx.scipy.ndimage (cupy.convolve picks its FFT path for long
        inputs: the 1-D row is cupyx.scipy.ndimage.convolve1d there); PyTorch: conv2d and conv1d with
        'same' zero padding (a cross-correlation: the kernel flipped first)."""

        def setup(lib):
            rng = np.random.default_rng(8)
            if op == "conv1d":
                x, k = rng.random(1 << 24, dtype=np.float32), rng.random(31, dtype=np.float32)
            else:
                x, k = rng.random((4096, 4096), dtype=np.float32), rng.random((5, 5), dtype=np.float32)
            a, w = lib.to_device(x), lib.to_device(k)
            if lib.name == "torch":
                flipped = torch.flip(w, dims=list(range(w.dim())))
                if op == "conv1d":
                    return lambda: torch.nn.functional.conv1d(a.view(1, 1, -1), flipped.view(1, 1, -1), padding=15)
                image, kernel = a.view(1, 1, 4096, 4096), flipped.view(1, 1, 5, 5)
                return lambda: torch.nn.functional.conv2d(image, kernel, padding=2)
            if lib.name == "cupy":
                import cupyx.scipy.ndimage
                import cupyx.scipy.signal
                if op == "conv2d":
                    return lambda: cupyx.scipy.signal.convolve2d(a, w, mode="same")
                if op == "ndimage":
                    return lambda: cupyx.scipy.ndimage.convolve(a, w)
                return lambda: cupyx.scipy.ndimage.convolve1d(a, w, mode="constant")
            if op == "conv2d":
                return lambda: gk.signal.convolve2d(a, w, mode="same")
            if op == "ndimage":
                return lambda: gk.ndimage.convolve(a, w)
            return lambda: gk.convolve(a, w, mode="same")
        return setup

    def matmul(dtype, size, library="vendor"):
        """A square matmul (issue 16: float32 4096^3 >= 0.97x cuBLAS through the library, the own kernel
        >= 60 % of it). PyTorch and CuPy call cuBLAS; neither allows TF32 unless asked (nor does gpukit).
        library="own": gpukit's own kernel (set_matmul_library, for that call only) against their cuBLAS."""

        def setup(lib):
            rng = np.random.default_rng(9)
            a = lib.to_device(rng.random((size, size), dtype=np.float32) - 0.5)
            b = lib.to_device(rng.random((size, size), dtype=np.float32) - 0.5)
            if dtype != "float32":
                dt = dtype_of(lib, dtype)
                if dt is None:
                    return None
                a, b = (a.to(dt), b.to(dt)) if lib.name == "torch" else (a.astype(dt), b.astype(dt))
            if lib.name == "torch":
                torch.backends.cuda.matmul.allow_tf32 = False
            if lib.name == "gpukit" and library == "own":
                def own():
                    gk.set_matmul_library("own")
                    try:
                        return a @ b
                    finally:
                        gk.set_matmul_library("vendor")
                return own
            return lambda: a @ b
        return setup

    def ufunc_method(method):
        """The ufunc methods NumPy code calls (issue 18), on random float32: reduce and accumulate through the
        reductions and scans, add.at with atomics, maximum.at (applied in order), isclose and allclose.
        PyTorch's counterparts where it has one (amax, cumsum, index_add_, scatter_reduce_, isclose)."""

        def setup(lib):
            rng = np.random.default_rng(10)
            xp = lib.xp
            if method in ("add.at", "add.at small", "maximum.at"):
                count = 1 << 20 if method == "maximum.at" else 1 << 24
                extent = 1 << 10 if method == "add.at small" else 1 << 16
                index = lib.to_device(rng.integers(0, extent, count))
                values = lib.to_device(rng.random(count, dtype=np.float32))
                target = lib.to_device(rng.random(extent, dtype=np.float32))
                if lib.name == "torch":
                    if method != "maximum.at":
                        return lambda: target.index_add_(0, index, values)
                    return lambda: target.scatter_reduce_(0, index, values, "amax")
                ufunc = xp.maximum if method == "maximum.at" else xp.add
                return lambda: ufunc.at(target, index, values)
            if method == "maximum.reduce axis=1":
                a = lib.to_device(rng.random((4096, 4096), dtype=np.float32))
                return (lambda: torch.amax(a, dim=1)) if lib.name == "torch" else (lambda: xp.maximum.reduce(a, axis=1))
            size = 1 << 24 if method == "subtract.reduce" else n
            a = lib.to_device(rng.random(size, dtype=np.float32))
            if method == "subtract.reduce":
                return None if lib.name == "torch" else (lambda: xp.subtract.reduce(a))
            if method == "add.accumulate":
                return (lambda: torch.cumsum(a, dim=0)) if lib.name == "torch" else (lambda: xp.add.accumulate(a))
            b = a * (1 + 1e-6) if lib.name == "torch" else xp.multiply(a, np.float32(1 + 1e-6))
            if method == "isclose":
                return (lambda: torch.isclose(a, b)) if lib.name == "torch" else (lambda: xp.isclose(a, b))
            if method == "allclose":
                return (lambda: torch.allclose(a, b)) if lib.name == "torch" else (lambda: xp.allclose(a, b))
            raise ValueError(method)
        return setup

    def random_normal(lib):
        """2^26 standard normal float32, written once (issue 16: >= PyTorch)."""
        if lib.name == "torch":
            out = torch.empty(n, dtype=torch.float32, device="cuda")
            return lambda: out.normal_()
        if lib.name == "cupy":
            generator = cp.random.default_rng(1)
            return lambda: generator.standard_normal(n, dtype=np.float32)
        generator = gk.random.default_rng(1)
        return lambda: generator.standard_normal(n, dtype=np.float32)

    def fft_c2c(lib):
        """A complex64 FFT of 2^24 points, read and written once (issue 16: >= 0.95x CuPy; all three call
        cuFFT, so the difference is each library's own overhead and plan reuse)."""
        rng = np.random.default_rng(12)
        host = (rng.random(1 << 24, dtype=np.float32) + 1j * rng.random(1 << 24, dtype=np.float32)).astype(np.complex64)
        a = lib.to_device(host)
        if lib.name == "torch":
            return lambda: torch.fft.fft(a)
        return lambda: lib.xp.fft.fft(a)

    def random_uniform(lib):
        """2^26 uniform float32 in [0, 1), written once."""
        if lib.name == "torch":
            out = torch.empty(n, dtype=torch.float32, device="cuda")
            return lambda: out.uniform_()
        generator = (cp if lib.name == "cupy" else gk).random.default_rng(1)
        return lambda: generator.random(n, dtype=np.float32)

    def random_discrete(method):
        """2^26 draws written once as float32 or int64 (issue 18's kernels on each element's own substream):
        standard_gamma(2.5), binomial(40, 0.3) and hypergeometric(60, 40, 30). CuPy's Generator where it has
        the method, else its legacy RandomState; PyTorch's _standard_gamma and binomial (no hypergeometric)."""

        def setup(lib):
            if lib.name == "torch":
                if method == "standard_gamma":
                    shape = torch.full((n,), 2.5, dtype=torch.float32, device="cuda")
                    return lambda: torch._standard_gamma(shape)
                if method == "binomial":
                    count = torch.full((n,), 40.0, dtype=torch.float32, device="cuda")
                    prob = torch.full((n,), 0.3, dtype=torch.float32, device="cuda")
                    return lambda: torch.binomial(count, prob)
                return None
            generator = lib.xp.random.default_rng(1)
            if not hasattr(generator, method):
                generator = lib.xp.random.RandomState(1)
            if method == "standard_gamma":
                return lambda: generator.standard_gamma(2.5, size=n, dtype=np.float32)
            if method == "binomial":
                return lambda: generator.binomial(40, 0.3, size=n)
            return lambda: generator.hypergeometric(60, 40, 30, size=n)
        return setup

    def routine(name):
        """The indexing routines issue 18 added, on 2^26 elements: choose from 4 float32 choices by int64 keys,
        putmask with a full-size mask and values, insert of one value at 2^10 positions. PyTorch's gather and
        where(out=) are the counterparts of the first two; neither CuPy nor PyTorch has insert."""

        def setup(lib):
            rng = np.random.default_rng(13)
            xp = lib.xp
            if name == "choose":
                keys = lib.to_device(rng.integers(0, 4, n))
                choices = lib.to_device(rng.random((4, n), dtype=np.float32))
                if lib.name == "torch":
                    rows = keys[None]
                    return lambda: torch.gather(choices, 0, rows)
                return lambda: xp.choose(keys, choices)
            target = lib.to_device(rng.random(n, dtype=np.float32))
            if name == "putmask":
                mask = lib.to_device(rng.random(n) < 0.5)
                values = lib.to_device(rng.random(n, dtype=np.float32))
                if lib.name == "torch":
                    return lambda: torch.where(mask, values, target, out=target)
                return lambda: xp.putmask(target, mask, values)
            if lib.name != "gpukit":
                return None
            positions = np.sort(rng.integers(0, n, 1 << 10))
            return lambda: gk.insert(target, positions, 0.5)
        return setup

    f4 = 4
    big = 2 * n
    return [
        ("add f32", 3 * n * f4, contiguous("add")),
        ("multiply f32", 3 * n * f4, contiguous("multiply")),
        ("saxpy a*2+b f32 (2 kernels)", 5 * n * f4, contiguous("saxpy")),
        ("saxpy ElementwiseKernel f32", 3 * n * f4, user_kernel),
        ("sqrt f32", 2 * n * f4, contiguous("sqrt")),
        ("astype f32->f16", n * (f4 + 2), contiguous("astype")),
        ("copy f32", 2 * n * f4, contiguous("copy")),
        ("fill f32", n * f4, contiguous("fill")),
        ("add f16", 3 * n * 2, contiguous("add", "float16")),
        ("add bf16", 3 * n * 2, contiguous("add", "bfloat16")),
        (f"broadcast ({side}^2)+({side},1)", 2 * side * side * f4, broadcast),
        (f"transposed a.T+b {side}^2", 3 * side * side * f4, transposed),
        ("sum f32 (2^27, read)", big * f4, reduction("sum", (big,))),
        ("max f32 (2^27, read)", big * f4, reduction("max", (big,))),
        ("argmax f32 (2^27, read)", big * f4, reduction("argmax", (big,))),
        ("abs-sum ReductionKernel (2^27)", big * f4, absolute_sum),
        # The full sum of as many bytes as each axis sum below reads: what a reduction of that size
        # reaches at all (launch and ramp weigh more in a smaller call).
        ("sum f32 (2^24 = 4096^2, read)", 4096 * 4096 * f4, reduction("sum", (4096 * 4096,))),
        ("sum f32 (2^22 = 16384x256, read)", 16384 * 256 * f4, reduction("sum", (16384 * 256,))),
        ("sum axis=0 4096^2", 4096 * 4096 * f4, reduction("sum", (4096, 4096), 0)),
        ("sum axis=1 4096^2", 4096 * 4096 * f4, reduction("sum", (4096, 4096), 1)),
        ("sum axis=0 16384x256", 16384 * 256 * f4, reduction("sum", (16384, 256), 0)),
        ("sum axis=1 16384x256", 16384 * 256 * f4, reduction("sum", (16384, 256), 1)),
        ("cumsum f32 (2^26)", 2 * n * f4, scan((n,))),
        ("cumsum axis=0 4096^2", 2 * 4096 * 4096 * f4, scan((4096, 4096), 0)),
        ("cumsum axis=1 16384x256", 2 * 16384 * 256 * f4, scan((16384, 256), 1)),
        ("sort f32 (2^26, 2x4 B/key)", 2 * n * f4, sorting("sort")),
        ("argsort f32 (2^26, 2x4 B/key)", 2 * n * f4, sorting("argsort")),
        # Read bytes of 2^25 int32 values: GB/s / 4 = Gelem/s.
        ("histogram 256 uniform (2^25 i32)", n // 2 * f4, histogram("histogram", False)),
        ("histogram 256 one bin (2^25 i32)", n // 2 * f4, histogram("histogram", True)),
        ("histogram 256 uniform (2^25 f32)", n // 2 * f4, histogram("histogram", False, floats=True)),
        ("bincount 256 uniform (2^25 i32)", n // 2 * f4, histogram("bincount", False)),
        ("bincount 256 one bin (2^25 i32)", n // 2 * f4, histogram("bincount", True)),
        # Input and output bytes.
        ("conv2d 5x5 4096^2 f32 (same)", 2 * 4096 * 4096 * f4, convolution("conv2d")),
        ("ndimage.convolve 5x5 4096^2 f32", 2 * 4096 * 4096 * f4, convolution("ndimage")),
        ("conv1d 31 taps 2^24 f32 (same)", 2 * (1 << 24) * f4, convolution("conv1d")),
        # The ufunc methods and comparisons NumPy's dispatch reaches (issue 18): bytes read and written.
        ("subtract.reduce f32 (2^24, in order)", (1 << 24) * f4, ufunc_method("subtract.reduce")),
        ("maximum.reduce axis=1 4096^2", 4096 * 4096 * f4, ufunc_method("maximum.reduce axis=1")),
        ("add.accumulate f32 (2^26)", 2 * n * f4, ufunc_method("add.accumulate")),
        ("add.at 2^24 f32 into 2^16 (i64 keys)", (1 << 24) * 12, ufunc_method("add.at")),
        ("add.at 2^24 f32 into 2^10 (i64 keys)", (1 << 24) * 12, ufunc_method("add.at small")),
        ("maximum.at 2^20 f32 into 2^16", (1 << 20) * 12, ufunc_method("maximum.at")),
        ("isclose f32 (2^26)", n * (2 * f4 + 1), ufunc_method("isclose")),
        ("allclose f32 (2^26)", 2 * n * f4, ufunc_method("allclose")),
        # Bytes written.
        ("random normal f32 (2^26)", n * f4, random_normal),
        ("random uniform f32 (2^26)", n * f4, random_uniform),
        ("fft c2c complex64 (2^24)", 2 * (1 << 24) * 8, fft_c2c),
        ("random standard_gamma f32 (2^26)", n * f4, random_discrete("standard_gamma")),
        ("random binomial i64 (2^26)", n * 8, random_discrete("binomial")),
        ("random hypergeometric i64 (2^26)", n * 8, random_discrete("hypergeometric")),
        # Bytes read and written: keys and the chosen elements; target, mask and values; input and output.
        ("choose 4 f32 by i64 keys (2^26)", n * (8 + 2 * f4), routine("choose")),
        ("putmask f32 (2^26)", n * (3 * f4 + 1), routine("putmask")),
        ("insert 2^10 values f32 (2^26)", 2 * n * f4, routine("insert")),
        # Rows in GFLOP/s (2 m n k), not GB/s: the ceiling is cuBLAS itself (CuPy's and PyTorch's columns).
        ("matmul f32 4096^3 GFLOP/s", 2 * 4096**3, matmul("float32", 4096)),
        ("matmul f64 4096^3 GFLOP/s", 2 * 4096**3, matmul("float64", 4096)),
        ("matmul f16 4096^3 GFLOP/s", 2 * 4096**3, matmul("float16", 4096)),
        ("matmul f32 1024^3 GFLOP/s", 2 * 1024**3, matmul("float32", 1024)),
        ("matmul own f32 4096^3 GFLOP/s", 2 * 4096**3, matmul("float32", 4096, "own")),
        ("matmul own f64 4096^3 GFLOP/s", 2 * 4096**3, matmul("float64", 4096, "own")),
        ("matmul own f16 4096^3 GFLOP/s", 2 * 4096**3, matmul("float16", 4096, "own")),
    ]


def copy_ceiling_gbs(n, repeat):
    """Device-to-device copy of n float32, GB/s counting read and write."""
    if cp is not None:
        a = cp.ones(n, cp.float32)
        b = cp.empty_like(a)
        ms = event_median_ms(lambda: cp.cuda.runtime.memcpyAsync(b.data.ptr, a.data.ptr, a.nbytes, 3,
                                                                  cp.cuda.get_current_stream().ptr),
                             lambda: (cp.cuda.Event(), cp.cuda.Event()), cp.cuda.Device().synchronize, repeat)
        return 2 * a.nbytes / ms / 1e6
    if torch is not None:
        a = torch.ones(n, device="cuda")
        b = torch.empty_like(a)
        ms = event_median_ms(lambda: b.copy_(a), lambda: (torch.cuda.Event(enable_timing=True),
                                                           torch.cuda.Event(enable_timing=True)),
                             torch.cuda.synchronize, repeat)
        return 2 * a.numel() * 4 / ms / 1e6
    return float("nan")


def host_us(step, synchronize, calls=20_000):
    """Median microseconds per call of `step` over batches of 100, the queue drained (untimed) between
    batches: a full queue makes launches wait, and the loop would time the GPU's pace, not the host's."""
    for _ in range(500):
        step()
    samples = []
    for _ in range(calls // 100):
        synchronize()
        start = time.perf_counter()
        for _ in range(100):
            step()
        samples.append((time.perf_counter() - start) / 100 * 1e6)
    return statistics.median(samples)


def host_times(lib):
    xp = lib.xp
    x = lib.to_device(np.arange(1, 17, dtype=np.float32))
    y = lib.to_device(np.arange(2, 18, dtype=np.float32))
    m = lib.to_device(np.arange(1, 17, dtype=np.float32).reshape(4, 4))
    square = lib.to_device(np.random.default_rng(10).random((64, 64), dtype=np.float32))
    values = lib.to_device(np.random.default_rng(11).integers(0, 256, 4096, dtype=np.int32))
    rows = {
        "x + y (16)": lambda: x + y,
        "x + 1.0": lambda: x + 1.0,
        "x[1:3]": lambda: x[1:3],
        "sqrt(x)": lambda: xp.sqrt(x),
        "x.sum()": lambda: x.sum(),
        "m.sum(axis=0) (4x4)": (lambda: m.sum(dim=0)) if lib.name == "torch" else (lambda: m.sum(axis=0)),
        "m.sum(axis=1) (4x4)": (lambda: m.sum(dim=1)) if lib.name == "torch" else (lambda: m.sum(axis=1)),
        # Issue 16: a 64x64 matmul's host time <= 6 us.
        "matmul 64x64 f32": lambda: square @ square,
        "histogram 256 bins (4096 i32)": (lambda: torch.histc(values.float(), bins=256, min=0, max=256))
        if lib.name == "torch" else (lambda: xp.histogram(values, bins=256, range=(0, 256))),
    }
    result = {}
    for name, step in rows.items():
        result[name] = host_us(step, lib.synchronize)
        lib.synchronize()
    return result


FIRST_USE = """
import time, numpy as np, gpukit as gk
x = gk.asarray(np.arange(1, 1025, dtype=np.float32))
gk.synchronize()
start = time.perf_counter()
y = {expression}
gk.synchronize()
print(time.perf_counter() - start)
"""


def first_use_ms(expression, cache_dir):
    """Milliseconds of an operation's first call in a new process with `cache_dir` as the kernel cache."""
    import os
    import subprocess

    env = dict(os.environ, GPUKIT_CACHE_DIR=cache_dir)
    output = subprocess.run([sys.executable, "-c", FIRST_USE.format(expression=expression)], env=env,
                            capture_output=True, text=True, check=True).stdout
    return float(output.split()[-1]) * 1e3


def first_use_rows():
    """Cold (empty cache: generate and compile) and warm (the disk cache) first calls of some ops."""
    import tempfile

    rows = []
    with tempfile.TemporaryDirectory() as cache_dir:
        for expression in ("x + x", "gk.sqrt(x)", "x * 2.5", "x.astype(np.float16)"):
            cold = first_use_ms(expression, cache_dir)
            warm = first_use_ms(expression, cache_dir)
            rows.append((expression, cold, warm))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-log2", type=int, default=26)
    parser.add_argument("--side", type=int, default=8192)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--json", help="write the figures here too")
    parser.add_argument("--no-host", action="store_true", help="skip the host-time rows")
    parser.add_argument("--batch", type=int, default=1,
                        help="time this many calls queued back to back per measurement (per call: the device's "
                             "throughput, the host's time hidden where it is shorter)")
    parser.add_argument("--device-time", action="store_true",
                        help="time each call's device work alone: a 256 MiB fill queued before each start event "
                             "evicts the L2 and keeps the device busy while the host queues the call")
    parser.add_argument("--host", action="store_true", help="the host-time rows also with --only")
    parser.add_argument("--only", action="append", metavar="TEXT",
                        help="run only the operations whose name contains TEXT (repeatable); skips the host and "
                             "first-use rows")
    args = parser.parse_args()
    n = 1 << args.size_log2
    libs = libraries()
    ceiling = copy_ceiling_gbs(n, args.repeat)
    print(f"device copy ceiling: {ceiling:.0f} GB/s; n = 2^{args.size_log2}; libraries: "
          + ", ".join(lib.name for lib in libs))
    table = []
    for name, nbytes, setup in workloads(n, args.side):
        if args.only and not any(text in name for text in args.only):
            continue
        row = {"op": name}
        for lib in libs:
            flush = lib.cache_flush() if args.device_time else None
            try:
                run = setup(lib)
            except Exception as error:  # a library without the op: say so, go on
                row[lib.name] = f"({type(error).__name__})"
                continue
            if run is None:
                row[lib.name] = "-"
                continue
            try:
                ms = event_median_ms(run, lib.events, lib.synchronize, args.repeat, args.batch, flush)
            except Exception as error:  # a library that refuses the op when it runs (CuPy's subtract.reduce)
                row[lib.name] = f"({type(error).__name__})"
                continue
            del flush
            row[lib.name] = nbytes / ms / 1e6
            del run
            lib.synchronize()
        table.append(row)
    names = [lib.name for lib in libs]
    header = f"{'operation':34}" + "".join(f"{name + ' GB/s':>14}" for name in names)
    header += f"{'% ceiling':>11}" + "".join(f"{'vs ' + name:>10}" for name in names[1:])
    print(header)
    for row in table:
        line = f"{row['op']:34}"
        for name in names:
            value = row.get(name)
            line += f"{value:14.0f}" if isinstance(value, float) else f"{str(value):>14}"
        mine = row.get("gpukit")
        byte_rate = isinstance(mine, float) and "FLOP/s" not in row["op"]
        line += f"{100 * mine / ceiling:10.1f}%" if byte_rate else f"{'':>11}"
        for name in names[1:]:
            other = row.get(name)
            ok = isinstance(mine, float) and isinstance(other, float)
            line += f"{mine / other:9.2f}x" if ok else f"{'':>10}"
        print(line)
    host = {}
    if not args.no_host and (not args.only or args.host):
        print(f"\n{'host time per call (us, median)':34}" + "".join(f"{name:>14}" for name in names))
        for lib in libs:
            host[lib.name] = host_times(lib)
        for op in host["gpukit"]:
            print(f"{op:34}" + "".join(f"{host[name][op]:14.2f}" for name in names))
    first = [] if args.only else first_use_rows()
    if first:
        print(f"\n{'first use in a new process (ms)':34}{'cold':>14}{'disk cache':>14}")
        for expression, cold, warm in first:
            print(f"{expression:34}{cold:14.1f}{warm:14.1f}")
    if args.json:
        with open(args.json, "w") as file:
            json.dump({"ceiling_gbs": ceiling, "n": n, "table": table, "host_us": host, "first_use_ms": first,
                       "command": " ".join(sys.argv)}, file, indent=1)


if __name__ == "__main__":
    main()
