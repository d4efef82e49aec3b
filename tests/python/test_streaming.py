"""gpukit.streaming against NumPy: maps, reductions, histograms and convolutions over NumPy arrays,
.npy files and iterables of chunks, every dtype, sizes from 0 to many chunks, halos across chunk
edges, out=PATH, progress, stopping, bad input; and on a simulated device smaller than the input."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import gpukit as gk

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64, np.float16,
          np.float32, np.float64, np.complex64, np.complex128]


def random_values(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -1000), min(info.max, 1000), shape, endpoint=True).astype(dtype)
    values = rng.standard_normal(shape) * 10
    if dtype.kind == "c":
        values = values + 1j * rng.standard_normal(shape)
    return values.astype(dtype)


def chunks_of(x, *sizes):
    """x's rows in pieces of the given sizes, cycled."""
    start, k = 0, 0
    while start < x.shape[0]:
        size = sizes[k % len(sizes)]
        yield x[start:start + size]
        start += size
        k += 1


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 1001])
def test_a_map_gives_numpys_result_for_every_dtype_and_size(dtype, n):
    x = random_values(n, dtype)
    y = gk.streaming.map(lambda c: c * 3, x, chunk_rows=100)
    expected = x * 3
    assert y.dtype == expected.dtype and y.shape == expected.shape
    np.testing.assert_array_equal(y, expected)


@pytest.mark.parametrize("buffers", [1, 2, 3])
def test_rows_of_several_values_and_a_layout_that_is_not_c_contiguous(buffers):
    x = random_values((300, 7), np.float64, 1)
    np.testing.assert_allclose(gk.streaming.map(lambda c: gk.sum(c, axis=1), x, chunk_rows=64, buffers=buffers),
                               x.sum(axis=1))
    transposed = random_values((7, 300), np.float32, 2).T  # Fortran order: read a chunk at a time
    np.testing.assert_array_equal(gk.streaming.map(gk.negative, transposed, chunk_rows=50), -transposed)
    big_endian = random_values(1001, np.float64, 3).astype(">f8")  # converted a piece at a time
    np.testing.assert_array_equal(gk.streaming.map(gk.negative, big_endian, chunk_rows=100), -big_endian)
    assert float(gk.asnumpy(gk.streaming.sum(big_endian))) == pytest.approx(float(big_endian.sum()), rel=1e-12)


def test_a_page_locked_input_is_copied_from_where_it_is():
    x = gk.pinned_empty((100003,), np.float32)
    x[:] = random_values(x.shape, np.float32, 13)
    stats = {}
    np.testing.assert_array_equal(gk.streaming.map(lambda c: c * 3, x, chunk_rows=7777, stats=stats), x * 3)
    assert stats["in_place"] is True
    assert float(gk.asnumpy(gk.streaming.sum(x, dtype=np.float64, chunk_rows=10000))) == pytest.approx(
        float(x.sum(dtype=np.float64)), rel=1e-12)
    gk.streaming.map(lambda c: c, np.array(x), stats=stats)
    assert stats["in_place"] is False


def test_an_elementwise_kernel_maps_and_results_fill_a_given_array():
    double = gk.ElementwiseKernel("T x", "T y", "y = x * 2", "stream_double")
    x = random_values(5000, np.float32, 3)
    out = np.empty_like(x)
    assert gk.streaming.map(double, x, out=out, chunk_rows=999) is out
    np.testing.assert_array_equal(out, x * 2)


def test_halos_hold_the_neighbouring_rows_and_zeros_past_the_ends():
    x = random_values(1001, np.float64, 4)

    def stencil(data):  # each row: the row before + 10 * itself + 100 * the row two after
        return data[0:-3] + data[1:-2] * 10 + data[3:] * 100

    padded = np.concatenate([[0.0], x, [0.0, 0.0]])
    expected = padded[0:-3] + padded[1:-2] * 10 + padded[3:] * 100
    for source in (x, chunks_of(x, 37, 5, 200)):
        y = gk.streaming.map(stencil, source, halo=(1, 2), chunk_rows=64, buffers=3, total_rows=1001)
        np.testing.assert_allclose(y, expected, rtol=1e-14)
    # a result with the halo rows too: they are dropped
    np.testing.assert_array_equal(gk.streaming.map(lambda d: d + 1, x, halo=4, chunk_rows=100), x + 1)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint32, np.int64, np.float16, np.float32, np.float64,
                                   np.complex64])
def test_reductions_match_numpy(dtype):
    x = random_values(20001, dtype, 5)
    options = {"chunk_rows": 3000, "progress": False}
    total = gk.asnumpy(gk.streaming.sum(x, **options))
    assert total.dtype == np.sum(x).dtype
    if np.dtype(dtype).kind in "fc":
        np.testing.assert_allclose(total, np.sum(x.astype(np.complex128 if np.dtype(dtype).kind == "c" else
                                                          np.float64)), rtol=2e-3 if dtype == np.float16 else 1e-5)
    else:
        assert total == np.sum(x)
    if np.dtype(dtype).kind != "c":
        assert gk.asnumpy(gk.streaming.min(x, **options)) == x.min()
        assert gk.asnumpy(gk.streaming.max(x, **options)) == x.max()
    mean = gk.asnumpy(gk.streaming.mean(x, **options))
    assert mean.dtype == np.mean(x).dtype
    np.testing.assert_allclose(mean, np.mean(x.astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64)),
                               rtol=2e-3 if dtype == np.float16 else 1e-6)


def test_an_iterable_of_unknown_length_maps_into_a_new_array(tmp_path):
    x = random_values(10007, np.float32, 14)
    y = gk.streaming.map(lambda c: c * 2, chunks_of(x, 333, 1, 4000), chunk_rows=1000)
    np.testing.assert_array_equal(y, x * 2)
    with pytest.raises(ValueError, match="give total_rows= with an iterable"):
        gk.streaming.map(lambda c: c, chunks_of(x, 100), out=tmp_path / "a.npy")
    assert not list(tmp_path.iterdir())


def test_a_reduction_of_chunks_from_an_iterable_and_one_with_its_own_combine():
    x = random_values(10000, np.int64, 6)
    assert gk.asnumpy(gk.streaming.sum(chunks_of(x, 333, 1, 2048), chunk_rows=1000)) == x.sum()
    largest_and_count = gk.streaming.reduce(lambda c: gk.stack([gk.max(c), gk.asarray(c.shape[0])]), x,
                                            lambda a, b: gk.stack([gk.maximum(a[0], b[0]), a[1] + b[1]]),
                                            chunk_rows=777)
    np.testing.assert_array_equal(gk.asnumpy(largest_and_count), [x.max(), x.size])
    kernel = gk.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "stream_sum")
    assert gk.asnumpy(gk.streaming.reduce(kernel, x, gk.add, chunk_rows=999)) == x.sum()
    with pytest.raises(ValueError, match="give combine= for a ReductionKernel"):
        gk.streaming.reduce(kernel, x)


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.float64])
def test_histograms_match_numpy(dtype):
    x = random_values(30001, dtype, 7)
    for bins, range_ in ((37, None), (64, (-50, 75)), (np.array([-100, -3, 0, 0, 5, 900]), None)):
        hist, edges = gk.streaming.histogram(x, bins=bins, range=range_, chunk_rows=4096)
        expected, expected_edges = np.histogram(x, bins=bins, range=range_)
        np.testing.assert_array_equal(gk.asnumpy(hist), expected)
        np.testing.assert_allclose(gk.asnumpy(edges), expected_edges)
    density, _ = gk.streaming.histogram(x, bins=20, range=(-10, 10), density=True, chunk_rows=5000)
    np.testing.assert_allclose(gk.asnumpy(density), np.histogram(x, 20, (-10, 10), density=True)[0])
    with pytest.raises(ValueError, match="range="):
        gk.streaming.histogram(chunks_of(x, 100), bins=10)
    with pytest.raises(ValueError, match="estimators"):
        gk.streaming.histogram(x, bins="fd")


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex64])
def test_convolutions_match_numpy(mode, dtype):
    x = random_values(5003, dtype, 8)
    v = random_values(31, dtype, 9)
    y = gk.streaming.convolve(x, v, mode, chunk_rows=512)
    expected = np.convolve(x, v, mode)
    assert y.shape == expected.shape and y.dtype == expected.dtype
    if np.dtype(dtype).kind in "iu":
        np.testing.assert_array_equal(y, expected)
    else:
        np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-3 * np.abs(expected).max())
    short = x[:5]  # shorter than v: NumPy swaps them
    np.testing.assert_allclose(gk.streaming.convolve(short, v, mode), np.convolve(short, v, mode), rtol=1e-4)


def test_out_path_is_written_as_partial_and_renamed_only_when_complete(tmp_path):
    x = random_values(100000, np.float32, 10)
    path = tmp_path / "doubled.npy"
    y = gk.streaming.map(lambda c: c * 2, x, out=path, chunk_rows=10000)
    np.testing.assert_array_equal(np.load(path), x * 2)
    np.testing.assert_array_equal(y, x * 2)
    assert os.listdir(tmp_path) == ["doubled.npy"]

    stopped = tmp_path / "stopped.npy"
    calls = []

    def interrupted(c):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return c

    with pytest.raises(KeyboardInterrupt):
        gk.streaming.map(interrupted, x, out=stopped, chunk_rows=10000)
    assert sorted(os.listdir(tmp_path)) == ["doubled.npy"]  # no file marked complete, no partial left

    # a .npy path as input, and a .partial already there (or a link in its place) is refused
    (tmp_path / "again.npy.partial").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(FileExistsError, match="again.npy.partial exists"):
        gk.streaming.map(lambda c: c, path, out=tmp_path / "again.npy")
    assert not (tmp_path / "elsewhere").exists()
    # an empty input gives an empty file of the result's dtype
    empty = gk.streaming.map(lambda c: c.astype(np.float64), np.zeros(0, np.int8), out=tmp_path / "empty.npy")
    assert empty.shape == (0,) and np.load(tmp_path / "empty.npy").dtype == np.float64
    # and the process still works
    np.testing.assert_array_equal(gk.streaming.map(gk.negative, x[:10]), -x[:10])


def test_progress_and_stats_with_a_timeline(tmp_path):
    x = random_values(50000, np.float32, 11)
    seen, stats = [], {}
    gk.streaming.map(gk.sqrt, np.abs(x), chunk_rows=10000, progress=lambda done, total: seen.append((done, total)),
                     stats=stats, timeline=True)
    assert seen == [(10000 * k, 50000) for k in range(1, 6)]
    assert stats["rows"] == 50000 and stats["chunks"] == 5 and stats["bytes_in"] == x.nbytes
    assert len(stats["timeline"]) == 15
    for slot, chunk, phase, start, end in stats["timeline"]:
        assert slot == chunk % 2 and phase in ("copy in", "work", "copy out") and end >= start
    pytest.importorskip("matplotlib")
    picture = gk.streaming.plot_timeline(stats, tmp_path / "timeline.png")
    assert (tmp_path / "timeline.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and picture


def test_bad_input_is_a_clear_error():
    x = random_values(1000, np.float32, 12)
    with pytest.raises(ValueError, match="larger than a chunk"):
        gk.streaming.map(lambda c: c, x, halo=11, chunk_rows=10)
    with pytest.raises(ValueError, match="chunk 2 holds rows of float64"):
        gk.streaming.map(lambda c: c, [x[:10], x[10:20], x[20:30].astype(np.float64)])
    with pytest.raises(ValueError, match=r"chunk 1 holds rows of float32 \(3,\), the chunks before it rows of float32 "
                                         r"\(2,\)"):
        gk.streaming.sum([x[:10].reshape(5, 2), x[:9].reshape(3, 3)])
    with pytest.raises(ValueError, match="returned 1 rows for the chunk at row 0"):
        gk.streaming.map(lambda c: c[:1], x, chunk_rows=100)
    with pytest.raises(ValueError, match="and rows of float32"):
        gk.streaming.map(lambda c: c if float(gk.asnumpy(c[0])) != float(x[100]) else c.astype(np.float64), x,
                         chunk_rows=100)
    with pytest.raises(TypeError, match="already on the device"):
        gk.streaming.sum(gk.asarray(x))
    with pytest.raises(TypeError, match="iterable of NumPy chunks"):
        gk.streaming.sum(3.5)
    with pytest.raises(ValueError, match="no chunks"):
        gk.streaming.sum([])
    with pytest.raises(ValueError, match="buffers"):
        gk.streaming.sum(x, buffers=0)
    with pytest.raises(ValueError, match="mode must be"):
        gk.streaming.convolve(x, [1, 2], "middle")
    with pytest.raises(ZeroDivisionError):
        gk.streaming.map(lambda c: 1 / 0, x)
    assert float(gk.asnumpy(gk.streaming.sum(x))) == pytest.approx(float(x.sum(dtype=np.float64)), rel=1e-5)


@pytest.mark.skipif(gk.get_device().backend_info.capabilities.simulated is False,
                    reason="the simulator's memory limit (GPUKIT_SIM_MEMORY) makes the device smaller than the input")
def test_inputs_larger_than_a_small_simulated_device():
    script = textwrap.dedent("""
        import numpy as np, gpukit as gk
        x = np.random.default_rng(0).random(12_000_000, dtype=np.float32)  # 48 MB on a 32 MB device
        try:
            gk.asarray(x)
        except gk.OutOfMemoryError:
            print("does not fit")
        assert abs(float(gk.asnumpy(gk.streaming.sum(x))) - x.sum(dtype=np.float64)) < 1e-4 * x.size
        hist, _ = gk.streaming.histogram(x, bins=100, range=(0, 1))
        assert (gk.asnumpy(hist) == np.histogram(x, 100, (0, 1))[0]).all()
        assert (gk.streaming.map(gk.sqrt, x) == np.sqrt(x)).all()
        print("streamed")
    """)
    environment = dict(os.environ, GPUKIT_BACKEND="sim", GPUKIT_SIM_MEMORY="32M")
    completed = subprocess.run([sys.executable, "-c", script], env=environment, capture_output=True, text=True,
                               timeout=600)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.split() == ["does", "not", "fit", "streamed"]
