"""dask.array with gpukit chunks on the local (threaded) scheduler: every result equals NumPy's on the
same data, and every chunk of it is a gpukit array (no silent trip through host memory)."""

import importlib.metadata
import io

import numpy
import pytest

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

import scipy.signal  # noqa: E402 (after the skip: the module needs Dask)

import gpukit  # noqa: E402
from conftest import random_array  # noqa: E402

SHAPE, CHUNKS = (101, 37), (30, 10)  # odd extents, ragged last chunks


def chunks_of(array):
    """Every chunk of a Dask array, computed."""
    return dask.compute(*array.to_delayed().ravel())


def assert_gpukit_chunks(array, meta=True):
    """Every chunk is a gpukit array, and so is Dask's meta (its empty model chunk) unless ``meta`` is
    False: da.histogram and boolean masks build their result from a dtype alone, so Dask's meta is
    NumPy's whatever the chunks are (as for CuPy)."""
    if meta:
        assert isinstance(array._meta, gpukit.ndarray), type(array._meta)
    kinds = {type(chunk) for chunk in chunks_of(array)}
    assert kinds == {gpukit.ndarray}, kinds


def assert_equals_numpy(array, expected, rtol=1e-5, atol=1e-6, meta=True):
    assert_gpukit_chunks(array, meta)
    result = array.compute()
    assert isinstance(result, gpukit.ndarray), type(result)
    numpy.testing.assert_allclose(result.get(), expected, rtol=rtol, atol=atol)


@pytest.fixture
def host(rng):
    return random_array(rng, SHAPE, numpy.float32)


@pytest.fixture
def x(host):
    return da.from_array(gpukit.asarray(host), chunks=CHUNKS, asarray=False)


def test_from_array_of_a_gpukit_array_keeps_gpukit_chunks(x, host):
    assert x.chunks == ((30, 30, 30, 11), (10, 10, 10, 7))
    assert_equals_numpy(x, host, rtol=0, atol=0)


def test_map_blocks_asarray_copies_each_numpy_chunk_to_the_device(host):
    x = da.from_array(host, chunks=CHUNKS).map_blocks(gpukit.asarray)
    assert_equals_numpy(x, host, rtol=0, atol=0)


def test_elementwise_operations_and_ufuncs(x, host, rng):
    other = random_array(rng, SHAPE, numpy.float32)
    y = da.from_array(gpukit.asarray(other), chunks=CHUNKS, asarray=False)
    assert_equals_numpy((2 * x + y) / (1.5 + abs(y)), (2 * host + other) / (1.5 + abs(other)))
    assert_equals_numpy(da.exp(da.sin(x)) - numpy.cos(y), numpy.exp(numpy.sin(host)) - numpy.cos(other))
    assert_equals_numpy(da.where(x > y, x, -y), numpy.where(host > other, host, -other))


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_sum_mean_max_min(x, host, axis):
    assert_equals_numpy(x.sum(axis=axis), host.sum(axis=axis, dtype=numpy.float64), rtol=1e-5, atol=1e-4)
    assert_equals_numpy(x.mean(axis=axis), host.mean(axis=axis, dtype=numpy.float64), rtol=1e-5, atol=1e-5)
    assert_equals_numpy(x.max(axis=axis), host.max(axis=axis), rtol=0, atol=0)
    assert_equals_numpy(x.min(axis=axis), host.min(axis=axis), rtol=0, atol=0)


@pytest.mark.parametrize("ddof", [0, 1])
@pytest.mark.parametrize("axis", [None, 0])
def test_var_and_std(x, host, axis, ddof):
    assert_equals_numpy(x.var(axis=axis, ddof=ddof), host.astype(numpy.float64).var(axis=axis, ddof=ddof), rtol=1e-4)
    assert_equals_numpy(x.std(axis=axis, ddof=ddof), host.astype(numpy.float64).std(axis=axis, ddof=ddof), rtol=1e-4)


# Dask's arg-reductions keep (value, index) pairs in a structured array and fall back to a dict when
# making one raises TypeError (CuPy's answer to a dtype it cannot hold): gpukit's UnsupportedDTypeError
# is one.
def test_argmax_and_argmin_of_the_whole_array(x, host):
    assert_equals_numpy(x.argmax(), host.argmax(), rtol=0, atol=0)
    assert_equals_numpy(x.argmin(), host.argmin(), rtol=0, atol=0)


@pytest.mark.parametrize("axis", [0, 1])
def test_argmax_and_argmin_along_an_axis(x, host, axis):
    assert_equals_numpy(x.argmax(axis=axis), host.argmax(axis=axis), rtol=0, atol=0)
    assert_equals_numpy(x.argmin(axis=axis), host.argmin(axis=axis), rtol=0, atol=0)


def test_nan_reductions_skip_nans(host):
    host = host.copy()
    host[::7, ::3] = numpy.nan
    x = da.from_array(gpukit.asarray(host), chunks=CHUNKS, asarray=False)
    assert_equals_numpy(da.nansum(x, axis=0), numpy.nansum(host, axis=0, dtype=numpy.float64), atol=1e-4)
    assert_equals_numpy(da.nanmean(x), numpy.nanmean(host, dtype=numpy.float64))
    assert_equals_numpy(da.nanvar(x, axis=1), numpy.nanvar(host.astype(numpy.float64), axis=1), rtol=1e-4)


def test_matmul_tensordot_and_einsum(x, host, rng):
    other = random_array(rng, (SHAPE[1], 53), numpy.float32)
    y = da.from_array(gpukit.asarray(other), chunks=(10, 20), asarray=False)
    expected = host.astype(numpy.float64) @ other
    assert_equals_numpy(x @ y, expected, rtol=1e-4, atol=1e-4)
    assert_equals_numpy(da.matmul(x, y), expected, rtol=1e-4, atol=1e-4)
    assert_equals_numpy(da.tensordot(x, y, axes=1), expected, rtol=1e-4, atol=1e-4)
    assert_equals_numpy(da.einsum("ij,jk->ik", x, y), expected, rtol=1e-4, atol=1e-4)


def test_histogram_of_gpukit_chunks(rng):
    values = rng.integers(0, 256, size=100_003).astype(numpy.float32)
    x = da.from_array(gpukit.asarray(values), chunks=30_000, asarray=False)
    counts, edges = da.histogram(x, bins=256, range=(0, 256))
    assert_equals_numpy(counts, numpy.histogram(values, bins=256, range=(0, 256))[0], rtol=0, atol=0, meta=False)
    weights = da.from_array(gpukit.asarray(values / 7), chunks=30_000, asarray=False)
    weighted, _ = da.histogram(x, bins=16, range=(0, 256), weights=weights)
    expected = numpy.histogram(values, bins=16, range=(0, 256), weights=values / 7)[0]
    assert_equals_numpy(weighted, expected, rtol=1e-5, meta=False)


def test_histogram_with_bin_edges_on_the_device(x, host):
    edges = numpy.array([-3, -1.5, -0.25, 0, 0.1, 0.75, 2, 3])
    counts, _ = da.histogram(x, bins=gpukit.asarray(edges))
    assert_equals_numpy(counts, numpy.histogram(host, bins=edges)[0], rtol=0, atol=0, meta=False)


@pytest.mark.parametrize("boundary", [0, "reflect", "nearest"])
def test_map_overlap_convolution_with_halos_equals_one_convolution(x, host, boundary):
    weights = numpy.array([[1, 2, 1], [0, 1, 0], [-1, 3, 2]], numpy.float32)
    device_weights = gpukit.asarray(weights)
    result = x.map_overlap(lambda block: gpukit.signal.convolve2d(block, device_weights, mode="same"), depth=1,
                           boundary=boundary)
    padding = {0: "constant", "reflect": "symmetric", "nearest": "edge"}[boundary]
    padded = numpy.pad(host, 1, mode=padding)
    expected = scipy.signal.convolve2d(padded, weights, mode="valid")
    assert_equals_numpy(result, expected, rtol=1e-5, atol=1e-5)


def test_rechunk_keeps_values_and_gpukit_chunks(x, host):
    for chunks in [(50, 37), (101, 4), (7, 13)]:
        y = x.rechunk(chunks)
        assert y.chunksize == chunks
        assert_equals_numpy(y, host, rtol=0, atol=0)


def test_slicing_fancy_indexing_and_boolean_masks(x, host):
    assert_equals_numpy(x[5:90:3, ::-2], host[5:90:3, ::-2], rtol=0, atol=0)
    assert_equals_numpy(x[[5, 2, 70, 99]], host[[5, 2, 70, 99]], rtol=0, atol=0)
    assert_equals_numpy(da.take(x, [3, 30, 1], axis=1), host[:, [3, 30, 1]], rtol=0, atol=0)
    assert_equals_numpy(x[x > 0.5], host[host > 0.5], rtol=0, atol=0, meta=False)


def test_percentile_equals_dasks_on_numpy_chunks(x, host):
    # Dask merges per-chunk percentiles approximately: the reference is the same algorithm on NumPy chunks.
    quantiles = [0, 10, 50, 90, 100]
    expected = da.percentile(da.from_array(host, chunks=CHUNKS).ravel(), quantiles).compute()
    assert_equals_numpy(da.percentile(x.ravel(), quantiles), expected, rtol=1e-6)


def test_cumulative_sum_and_sort_based_functions(x, host):
    assert_equals_numpy(x.cumsum(axis=0), host.astype(numpy.float64).cumsum(axis=0), rtol=1e-4, atol=1e-4)
    assert_equals_numpy(da.topk(x.ravel(), 5), numpy.sort(host.ravel())[::-1][:5], rtol=0, atol=0)


def test_to_backend_moves_chunks_between_numpy_and_gpukit(host):
    on_host = da.from_array(host, chunks=CHUNKS)
    on_device = on_host.to_backend("gpukit")
    assert_equals_numpy(on_device, host, rtol=0, atol=0)
    back = on_device.to_backend("numpy")
    assert all(type(chunk) is numpy.ndarray for chunk in chunks_of(back))
    numpy.testing.assert_array_equal(back.compute(), host)


def test_creation_functions_under_the_gpukit_backend():
    with dask.config.set({"array.backend": "gpukit"}):
        assert_equals_numpy(da.ones((10, 7), chunks=4), numpy.ones((10, 7)), rtol=0, atol=0)
        assert_equals_numpy(da.zeros(9, chunks=4, dtype=numpy.int32), numpy.zeros(9, numpy.int32), rtol=0, atol=0)
        assert_equals_numpy(da.full((5, 3), 3.5, chunks=2), numpy.full((5, 3), 3.5), rtol=0, atol=0)
        assert_equals_numpy(da.arange(3, 50, 4, chunks=5), numpy.arange(3, 50, 4), rtol=0, atol=0)
        assert_gpukit_chunks(da.empty((6, 2), chunks=4))


def test_the_backend_is_found_through_its_entry_point():
    entry_points = importlib.metadata.entry_points(group="dask.array.backends")
    backends = {entry_point.name: entry_point.value for entry_point in entry_points}
    assert backends.get("gpukit") == "gpukit.dask:GpukitBackendEntrypoint"


def test_progress_bar_reports_a_gpukit_graph(x, host):
    from dask.diagnostics import ProgressBar

    report = io.StringIO()
    with ProgressBar(out=report, minimum=0):
        total = (x * 2).sum().compute()
    assert numpy.isclose(float(total.get()), 2 * host.sum(dtype=numpy.float64), rtol=1e-5)
    assert "100% Completed" in report.getvalue(), report.getvalue()


def test_sizeof_is_the_device_bytes_and_names_are_fresh_unless_asked_to_be_deterministic(host):
    from dask.base import tokenize
    from dask.sizeof import sizeof

    array = gpukit.asarray(host)
    assert sizeof(array) == host.nbytes
    assert tokenize(array) != tokenize(array)  # hashing device memory would copy it to the host
    with dask.config.set({"tokenize.ensure-deterministic": True}):
        assert tokenize(array) == tokenize(gpukit.asarray(host))
        assert tokenize(array) != tokenize(gpukit.asarray(host + 1))
