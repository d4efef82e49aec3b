"""quantile, percentile, median and their nan forms (src/ops/reduction/quantile.cpp) against NumPy:
every method, dtypes, axes, keepdims, q of several shapes, nans, and the errors NumPy raises."""

import numpy
import pytest

import gpukit
from conftest import random_array

METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "nearest", "midpoint"]


def assert_close(device, expected, input_dtype=None):
    """NumPy interpolates half and single precision in their own dtype, gpukit in float64: the
    tolerance is the input's precision."""
    got = device.get()
    expected = numpy.asarray(expected)
    assert device.shape == expected.shape, (device.shape, expected.shape)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    precision = numpy.dtype(input_dtype or got.dtype).type
    tolerance = {numpy.float16: 2e-3, numpy.float32: 1e-6}.get(precision, 1e-12)
    numpy.testing.assert_allclose(got, expected, rtol=tolerance, atol=tolerance, equal_nan=True)


def closest_observation(host, q, axis):
    """NumPy 2's closest_observation (Hyndman and Fan's third definition: the nearest even order
    statistic at a tie), written out: older NumPy releases, as on the GPU machine, rounded otherwise."""
    axes = tuple(range(host.ndim)) if axis is None else (axis,) if isinstance(axis, int) else axis
    axes = tuple(a % host.ndim for a in axes)
    kept = [d for d in range(host.ndim) if d not in axes]
    rows = numpy.sort(numpy.moveaxis(host, axes, range(host.ndim - len(axes), host.ndim)).reshape(
        [host.shape[d] for d in kept] + [-1]), axis=-1)
    n = rows.shape[-1]
    index = n * numpy.asarray(q, dtype=numpy.float64) - 1.5
    previous = numpy.floor(index)
    pick = numpy.where((index - previous == 0) & (previous % 2 == 1), previous, previous + 1)
    pick = numpy.clip(pick, 0, n - 1).astype(numpy.int64)
    taken = numpy.take(rows, pick, axis=-1)  # kept axes, then q's
    return numpy.moveaxis(taken, range(len(kept), taken.ndim), range(pick.ndim))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", ["int16", "uint8", "int64", "float16", "float32", "float64"])
def test_every_method(method, dtype, rng):
    host = random_array(rng, (6, 7, 5), dtype)
    device = gpukit.asarray(host)
    for q in (0.3, [0.0, 0.25, 0.5, 1.0], [[0.1, 0.9]]):
        for axis in (None, 0, -1, (0, 2)):
            if method == "closest_observation":
                expected = closest_observation(host, q, axis)
            else:
                expected = numpy.quantile(host, q, axis=axis, method=method)
            assert_close(gpukit.quantile(device, q, axis=axis, method=method), expected, dtype)
    if method != "closest_observation":
        assert_close(gpukit.percentile(device, [10, 50], axis=1, method=method, keepdims=True),
                     numpy.percentile(host, [10, 50], axis=1, method=method, keepdims=True), dtype)


@pytest.mark.parametrize("dtype", ["bool", "int32", "float16", "float32", "float64"])
def test_median(dtype, rng):
    for shape in [(1,), (8,), (9,), (4, 7), (3, 4, 6)]:
        host = random_array(rng, shape, dtype)
        device = gpukit.asarray(host)
        assert_close(gpukit.median(device), numpy.median(host))
        for axis in range(len(shape)):
            assert_close(gpukit.median(device, axis=axis, keepdims=True), numpy.median(host, axis=axis, keepdims=True))
    transposed = random_array(rng, (5, 8), dtype)
    assert_close(gpukit.median(gpukit.asarray(transposed).T, axis=0), numpy.median(transposed.T, axis=0))


def test_nans(rng):
    host = random_array(rng, (6, 9), "float64")
    host[1, 2] = host[4, 0] = host[4, 5] = numpy.nan
    host[5, :] = numpy.nan
    device = gpukit.asarray(host)
    with pytest.warns(RuntimeWarning):  # NumPy warns of the all-nan row; gpukit does not
        expected = numpy.nanmedian(host, axis=1)
    assert_close(gpukit.nanmedian(device, axis=1), expected)
    assert_close(gpukit.median(device, axis=1), numpy.median(host, axis=1))
    with pytest.warns(RuntimeWarning):
        expected = numpy.nanquantile(host, [0.2, 0.7], axis=1, method="hazen")
    assert_close(gpukit.nanquantile(device, [0.2, 0.7], axis=1, method="hazen"), expected)
    assert_close(gpukit.nanpercentile(device[:5], 40, axis=0), numpy.nanpercentile(host[:5], 40, axis=0))
    assert_close(gpukit.quantile(device, 0.5, axis=0), numpy.quantile(host, 0.5, axis=0))


def test_out_and_errors(rng):
    host = random_array(rng, (4, 5), "float32")
    device = gpukit.asarray(host)
    out = gpukit.empty((2, 5), numpy.float64)
    assert gpukit.quantile(device, [0.25, 0.75], axis=0, out=out) is not None
    numpy.testing.assert_allclose(out.get(), numpy.quantile(host, [0.25, 0.75], axis=0), rtol=1e-6)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        gpukit.quantile(device, 1.5)
    with pytest.raises(ValueError, match=r"\[0, 100\]"):
        gpukit.percentile(device, -1)
    with pytest.raises(ValueError, match="not a valid method"):
        gpukit.quantile(device, 0.5, method="cubic")
    with pytest.raises(TypeError):
        gpukit.median(gpukit.asarray(host.astype(numpy.complex64)))
    with pytest.raises(gpukit.AxisError):
        gpukit.median(device, axis=2)
    with pytest.raises(ValueError):
        gpukit.median(device, axis=0, out=gpukit.empty(4, numpy.float32))
    assert_close(gpukit.quantile(device, 0.5, interpolation="lower"), numpy.quantile(host, 0.5, method="lower"))
