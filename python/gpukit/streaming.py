"""Operations over host data larger than the device memory, a chunk of rows at a time.

    import numpy as np, gpukit as gk
    x = np.load("big.npy", mmap_mode="r")                  # more than the GPU holds
    roots = gk.streaming.map(gk.sqrt, x, out="roots.npy")   # written as roots.npy.partial, renamed at the end
    total = gk.streaming.sum(x)
    hist, edges = gk.streaming.histogram(x, bins=256, range=(0, 1))
    smooth = gk.streaming.convolve(x, taps, mode="same")

Rows are the entries of the first axis (a 1-D array's rows are its elements). Chunks of rows go
through pinned staging to the device on several streams, so that one chunk's copy in, another's
work and a third's copy back overlap (``buffers=2`` double buffering, 3 triple, 1 the plain loop).
The input may be a NumPy array (a ``numpy.memmap`` too), the path of a ``.npy`` file, or an
iterable of NumPy chunks (any sizes; one dtype and row shape). The pipeline is gpukit's C++
(``gpukit/streaming.hpp``); this module only translates.

Each function takes ``chunk_rows`` (default: chosen from the device's free memory), ``buffers``,
``copy_threads`` (host threads copying into pinned memory), ``progress`` (``None``: a tqdm bar when
tqdm is installed and stderr is a terminal; ``False``: none; ``True``: always; or a callable
``progress(rows_done, total_rows)``) and ``stats`` (a dict filled with rows, chunks, bytes,
seconds and, with ``timeline=True``, every chunk's copy in, work and copy out from recorded
events). Ctrl-C stops between chunks: the chunks in flight finish, and ``out=PATH`` leaves no file.
"""

import builtins
import os
import sys

import numpy as np

from . import _core
from ._errors import UsageError

__all__ = ["map", "reduce", "sum", "min", "max", "mean", "histogram", "convolve", "plot_timeline"]


# ---- where the rows come from -------------------------------------------------------------------


class _Source:
    """The rows as the core takes them: a C-contiguous NumPy array, or a reader with their dtype,
    row shape and (when known) number."""

    def __init__(self, x, total_rows=None):
        self.dtype = self.row_shape = None
        self.total_rows = -1 if total_rows is None else int(total_rows)
        if isinstance(x, (str, os.PathLike)):
            x = np.load(os.fspath(x), mmap_mode="r", allow_pickle=False)
        if isinstance(x, _core.ndarray):
            raise TypeError("gpukit.streaming: x is already on the device; stream a host array (NumPy, a .npy "
                            "path or an iterable of NumPy chunks)")
        if isinstance(x, np.ndarray):
            if x.ndim == 0:
                raise ValueError("gpukit.streaming: x is 0-D: it has no rows")
            native = x.dtype.newbyteorder("=")
            self.dtype, self.row_shape, self.total_rows = native, x.shape[1:], x.shape[0]
            if x.flags.c_contiguous and x.dtype.isnative:
                self.rows = x
            else:  # another layout or byte order: converted a piece of about 8 MiB at a time, never whole
                step = builtins.max(1, (8 << 20) // builtins.max(1, x[:1].nbytes))
                self.rows = _ChunkReader(np.ascontiguousarray(x[i:i + step], dtype=native)
                                         for i in builtins.range(0, x.shape[0], step))
                self.rows.expect(native, x.shape[1:])
            return
        try:
            chunks = iter(x)
        except TypeError:
            raise TypeError(f"gpukit.streaming: x must be a NumPy array, a .npy path or an iterable of NumPy "
                            f"chunks, not {type(x).__name__}") from None
        self.rows = _ChunkReader(chunks)
        self.dtype, self.row_shape = self.rows.peek()

    def arguments(self):
        return {"dtype": self.dtype, "row_shape": tuple(self.row_shape), "total_rows": self.total_rows}


class _ChunkReader:
    """Fills the pipeline's staging from an iterable of NumPy chunks of any sizes, checking that
    each has the first one's dtype and row shape."""

    def __init__(self, chunks):
        self.chunks = chunks
        self.pending = None  # rows of the current chunk not yet given
        self.index = -1
        self.dtype = self.row_shape = None

    def expect(self, dtype, row_shape):
        self.dtype, self.row_shape = np.dtype(dtype), tuple(row_shape)

    def _next_chunk(self):
        for chunk in self.chunks:
            self.index += 1
            chunk = np.asarray(chunk)
            if chunk.ndim == 0:
                raise ValueError(f"gpukit.streaming: chunk {self.index} is 0-D; chunks are arrays of rows")
            if self.dtype is None:
                self.expect(chunk.dtype, chunk.shape[1:])
            if chunk.dtype != self.dtype or chunk.shape[1:] != self.row_shape:
                raise ValueError(f"gpukit.streaming: chunk {self.index} holds rows of {chunk.dtype} "
                                 f"{chunk.shape[1:]}, the chunks before it rows of {self.dtype} {self.row_shape}")
            if chunk.shape[0]:
                return chunk
        return None

    def peek(self):
        self.pending = self._next_chunk()
        if self.pending is None:
            raise ValueError("gpukit.streaming: x has no chunks, so neither a dtype nor rows")
        return self.dtype, self.row_shape

    def __call__(self, staging):
        written = 0
        while written < staging.shape[0]:
            if self.pending is None:
                self.pending = self._next_chunk()
                if self.pending is None:
                    break
            take = builtins.min(staging.shape[0] - written, self.pending.shape[0])
            staging[written:written + take] = self.pending[:take]
            self.pending = self.pending[take:] if take < self.pending.shape[0] else None
            written += take
        return written


# ---- where the results go -----------------------------------------------------------------------


class _Output:
    """A map's results: a NumPy array made at the first rows (or the user's), or a .npy file written
    as PATH.partial and renamed only once every row is in."""

    def __init__(self, out, total_rows):
        self.out, self.total_rows = out, total_rows
        self.array = out if isinstance(out, np.ndarray) else None
        self.path = os.fspath(out) if isinstance(out, (str, os.PathLike)) else None
        self.file = None
        self.pieces = []  # rows of an unknown total, joined at the end
        if self.path is not None and total_rows < 0:
            raise ValueError("gpukit.streaming: out=PATH needs the number of rows; give total_rows= with an iterable")

    def place(self, offset, rows, dtype, row_shape):
        if self.array is None:
            if self.total_rows < 0:
                self.pieces.append(np.empty((rows, *row_shape), dtype))
                return self.pieces[-1]
            shape = (self.total_rows, *row_shape)
            self.array = self._open_file(shape, dtype) if self.path else np.empty(shape, dtype)
        return self.array[offset:offset + rows]

    def _open_file(self, shape, dtype):
        # A new file of our own (never through a link, never over another file), a .npy header,
        # then the data mapped after it.
        partial = self.path + ".partial"
        flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            descriptor = os.open(partial, flags, 0o644)
        except FileExistsError:
            raise FileExistsError(f"gpukit.streaming: {partial} exists (another run's, or one that stopped); "
                                  f"remove it first") from None
        self.file = os.fdopen(descriptor, "w+b")
        header = {"descr": np.lib.format.dtype_to_descr(np.dtype(dtype)), "fortran_order": False, "shape": shape}
        np.lib.format.write_array_header_2_0(self.file, header)
        offset = self.file.tell()
        self.file.truncate(offset + int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize)
        self.file.flush()
        if 0 in shape:  # nothing to map (mmap refuses 0 bytes): the header is the file
            return np.empty(shape, dtype)
        return np.memmap(self.file, dtype=dtype, mode="r+", offset=offset, shape=shape)

    def finish(self, empty):
        """The results; `empty()` gives the (dtype, row shape) of results where there were no rows."""
        if self.array is None and not self.pieces:
            dtype, row_shape = empty()
            shape = (0, *row_shape)
            self.array = self._open_file(shape, dtype) if self.path else np.empty(shape, dtype)
        if self.path is None:
            if self.array is None and self.pieces:
                return np.concatenate(self.pieces)
            return self.array
        if isinstance(self.array, np.memmap):
            self.array.flush()
        del self.array
        self.file.close()
        os.replace(self.path + ".partial", self.path)
        return np.load(self.path, mmap_mode="r")

    def abandon(self):
        if self.file is not None:
            self.array = None
            self.file.close()
            try:
                os.unlink(self.path + ".partial")
            except FileNotFoundError:
                pass


# ---- the options every function shares ----------------------------------------------------------


def _progress_callback(progress, total_rows):
    if progress is False:
        return None, None
    if callable(progress) and progress is not True:
        return progress, None
    try:
        from tqdm import tqdm
    except ImportError:
        tqdm = None
    if progress is None and (tqdm is None or not sys.stderr.isatty()):
        return None, None
    if tqdm is not None:
        bar = tqdm(total=total_rows if total_rows >= 0 else None, unit="rows", unit_scale=True,
                   desc="gpukit.streaming", leave=False)

        def update(done, total):
            bar.update(done - bar.n)

        return update, bar

    def line(done, total):
        end = f"/{total}" if total >= 0 else ""
        print(f"\rgpukit.streaming: {done}{end} rows", end="", file=sys.stderr, flush=True)

    return line, None


def _run(call, rows, progress, stats, **arguments):
    """Runs one core call with the progress bar and fills `stats`."""
    callback, bar = _progress_callback(progress, rows.total_rows)
    try:
        result = call(progress=callback, **arguments)
    finally:
        if bar is not None:
            bar.close()
    if isinstance(result, dict):
        produced, report = None, result
    else:
        *values, report = result
        produced = values[0] if len(values) == 1 else tuple(values)
    if stats is not None:
        stats.clear()
        stats.update(report)
    return produced


def _options(chunk_rows, buffers, copy_threads):
    return {"chunk_rows": 0 if chunk_rows is None else int(chunk_rows), "buffers": int(buffers),
            "copy_threads": 0 if copy_threads is None else int(copy_threads)}


def _halo(halo):
    if isinstance(halo, tuple):
        if len(halo) != 2:
            raise ValueError(f"gpukit.streaming: halo is a number of rows or (before, after), not {halo!r}")
        return int(halo[0]), int(halo[1])
    return int(halo), int(halo)


# ---- the operations -----------------------------------------------------------------------------


def map(func, x, out=None, *, halo=0, total_rows=None, chunk_rows=None, buffers=2, copy_threads=None,
        progress=None, stats=None, timeline=False):
    """``func`` over every chunk of ``x``'s rows; the results' rows in order, as a NumPy array
    (``out``: an array to fill, or the path of a ``.npy`` file to write, returned memory-mapped).

    ``func`` takes a gpukit array of a chunk's rows and returns one row per row (any dtype and row
    shape, the same for every chunk): a gpukit function (``gk.sqrt``), an ``ElementwiseKernel`` of
    one input, or any callable. With ``halo=k`` (or ``(before, after)``) each chunk also holds the k
    rows before and after it (zeros past the ends); ``func`` may return the interior's rows or as
    many as it was given (the halo rows are then dropped)."""
    source = _Source(x, total_rows)
    before, after = _halo(halo)
    output = _Output(out, source.total_rows)

    def work(chunk):
        return func(chunk.data)

    try:
        _run(_core.stream_map, source, progress, stats, func=work, source=source.rows,
             destination=output.array if output.array is not None else output.place, halo_before=before,
             halo_after=after, timeline=timeline, **source.arguments(),
             **_options(chunk_rows, buffers, copy_threads))
    except BaseException:
        output.abandon()
        raise

    def empty():
        result = func(_core.empty((0, *source.row_shape), source.dtype))
        return result.dtype, result.shape[1:]

    return output.finish(empty)


def reduce(func, x, combine=None, *, total_rows=None, chunk_rows=None, buffers=2, copy_threads=None,
           progress=None, stats=None, timeline=False):
    """``combine(... combine(func(chunk 0), func(chunk 1)) ...)`` over every chunk of ``x``'s rows, a
    gpukit array. ``combine`` (default ``gpukit.add``) must be associative and commutative: the
    chunks of each stream are combined in order, then the streams'. A ``ReductionKernel`` as
    ``func`` needs ``combine`` (how two of its results join)."""
    source = x if isinstance(x, _Source) else _Source(x, total_rows)
    if combine is None:
        if isinstance(func, _core.ReductionKernel):
            raise ValueError("gpukit.streaming.reduce: give combine= for a ReductionKernel (how two of its results "
                             "join, e.g. gpukit.add for a sum)")
        combine = _core.add
    return _run(_core.stream_reduce, source, progress, stats, func=lambda chunk: func(chunk.data),
                combine=combine, source=source.rows, timeline=timeline, **source.arguments(),
                **_options(chunk_rows, buffers, copy_threads))


def sum(x, *, dtype=None, **options):
    """The sum of every value of ``x`` (NumPy's accumulator dtype unless ``dtype``), a 0-D gpukit array."""
    return reduce(lambda chunk: _core.sum(chunk, dtype=dtype), x, _core.add, **options)


def min(x, **options):
    """The smallest value of ``x``, a 0-D gpukit array (NaN if any is NaN, as numpy.min)."""
    return reduce(_core.min, x, _core.minimum, **options)


def max(x, **options):
    """The largest value of ``x``, a 0-D gpukit array (NaN if any is NaN, as numpy.max)."""
    return reduce(_core.max, x, _core.maximum, **options)


def mean(x, *, dtype=None, total_rows=None, stats=None, **options):
    """The mean of every value of ``x`` (float64 for integers, as numpy.mean), a 0-D gpukit array."""
    source = _Source(x, total_rows)
    accumulate = np.dtype(dtype) if dtype is not None else (
        np.dtype(np.float64) if source.dtype.kind in "biu" else source.dtype)
    report = {} if stats is None else stats
    total = reduce(lambda chunk: _core.sum(chunk, dtype=accumulate), source, _core.add, stats=report, **options)
    count = report["rows"] * int(np.prod(source.row_shape, dtype=np.int64))
    return _core.true_divide(total, count).astype(accumulate)


def histogram(x, bins=10, range=None, density=False, *, total_rows=None, chunk_rows=None, buffers=2,
              copy_threads=None, progress=None, stats=None):
    """numpy.histogram over every value of ``x``: (hist, bin_edges) as gpukit arrays. ``bins`` is a
    count or the edges; without ``range`` a first pass finds it (reading ``x`` twice; an iterable
    can be read once only: give ``range``). Weights and NumPy's bin estimators are not streamed."""
    source = _Source(x, total_rows)
    if not isinstance(bins, (int, np.integer, str)):
        from ._interop import asarray
        bins = asarray(bins)
    hist, edges = _run(_core.stream_histogram, source, progress, stats, source=source.rows, bins=bins,
                       range=None if range is None else (float(range[0]), float(range[1])), density=bool(density),
                       **source.arguments(), **_options(chunk_rows, buffers, copy_threads))
    return hist, edges


def convolve(x, v, mode="full", out=None, *, total_rows=None, chunk_rows=None, buffers=2, copy_threads=None,
             progress=None, stats=None, timeline=False):
    """numpy.convolve(x, v, mode) of a 1-D ``x`` streamed through the device and ``v`` (host or
    gpukit; it stays on the device), as a NumPy array (``out``: an array or a ``.npy`` path). Each
    chunk carries the len(v) - 1 values before it."""
    source = _Source(x, total_rows)
    if source.row_shape:
        raise ValueError(f"gpukit.streaming.convolve: x must be 1-D, not rows of {tuple(source.row_shape)}")
    from ._interop import asarray
    taps = v if isinstance(v, _core.ndarray) else asarray(np.asarray(v))
    n, m = source.total_rows, taps.size
    length = {"full": n + m - 1, "same": builtins.max(n, m), "valid": builtins.max(n, m) - builtins.min(n, m) + 1}
    if mode not in length:
        raise ValueError(f"gpukit.streaming.convolve: mode must be 'full', 'same' or 'valid', not {mode!r}")
    output = _Output(out, length[mode] if n >= 0 else -1)
    try:
        _run(_core.stream_convolve, source, progress, stats, source=source.rows, v=taps, mode=mode,
             destination=output.array if output.array is not None else output.place, dtype=source.dtype,
             total_rows=source.total_rows, timeline=timeline, **_options(chunk_rows, buffers, copy_threads))
    except BaseException:
        output.abandon()
        raise
    return output.finish(None)


def plot_timeline(stats, path, title="gpukit.streaming"):
    """A picture of the overlap: each stream's copy in, work and copy out per chunk, from ``stats``
    of a call made with ``timeline=True``. Needs matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("gpukit.streaming.plot_timeline needs matplotlib (pip install matplotlib)") from None
    spans = stats.get("timeline") or []
    if not spans:
        raise UsageError("gpukit.streaming.plot_timeline: these stats hold no timeline; call with timeline=True")
    colours = {"copy in": "tab:blue", "work": "tab:green", "copy out": "tab:orange"}
    slots = builtins.max(span[0] for span in spans) + 1
    figure, axes = plt.subplots(figsize=(10, 1 + 0.6 * slots))
    for slot, _chunk, phase, start, end in spans:
        axes.broken_barh([(start, builtins.max(end - start, 1e-3))], (slot - 0.4, 0.8), color=colours[phase])
    axes.set_yticks(list(builtins.range(slots)), [f"stream {s}" for s in builtins.range(slots)])
    axes.set_xlabel("ms")
    axes.set_title(title)
    axes.legend(handles=[plt.Rectangle((0, 0), 1, 1, color=c) for c in colours.values()], labels=list(colours),
                loc="upper right")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path
