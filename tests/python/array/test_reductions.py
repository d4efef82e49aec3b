"""sum, prod, max/amax, min/amin, any, all and mean against NumPy (src/ops/reduction/): every dtype,
the layouts of layouts.py, axes None, one, negative and several, keepdims, methods and functions,
out= and dtype=, and the errors NumPy raises."""

import warnings

import numpy
import pytest

import gpukit
from conftest import ALL_DTYPES, random_array
from layouts import LAYOUTS, layout_pair

REDUCTIONS = ["sum", "prod", "max", "min", "any", "all", "mean"]


def reference(name, host, **keywords):
    """NumPy's result of reduction ``name`` (assert_close allows for half precision's rounding)."""
    return getattr(numpy, name)(host, **keywords)


def assert_close(device, expected, dtype):
    got = device.get()
    assert device.shape == numpy.shape(expected), (device.shape, numpy.shape(expected))
    assert got.dtype == numpy.asarray(expected).dtype, (got.dtype, numpy.asarray(expected).dtype)
    kind = numpy.dtype(dtype).kind
    if kind in "biu" and got.dtype.kind in "biu":
        numpy.testing.assert_array_equal(got, expected)
    else:
        tolerance = {"float16": 2e-2, "bfloat16": 5e-2}.get(str(dtype), 1e-5)
        numpy.testing.assert_allclose(got.astype(numpy.complex128), numpy.asarray(expected).astype(numpy.complex128),
                                      rtol=tolerance, atol=tolerance)


def small_values(host, name):
    """Products of many elements overflow: keep those to 1, -1 and a few 2s."""
    if name != "prod" or host.dtype.kind == "b":
        return host
    ones = numpy.where(numpy.real(host) < 0, -1, 1) if host.dtype.kind not in "u" else numpy.ones(host.shape)
    ones = ones.astype(host.dtype)
    ones.reshape(-1)[::97] = 2
    return ones


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", REDUCTIONS)
def test_every_dtype_over_every_axis(name, dtype, rng):
    if dtype == "bfloat16":
        pytest.importorskip("ml_dtypes")
    host = small_values(random_array(rng, (4, 5, 6), dtype), name)
    device = gpukit.asarray(host)
    for axis in (None, 0, -1, (0, 2), (1, 2), ()):
        for keepdims in (False, True):
            expected = reference(name, host, axis=axis, keepdims=keepdims)
            assert_close(getattr(gpukit, name)(device, axis=axis, keepdims=keepdims), expected, dtype)
            assert_close(getattr(device, name)(axis=axis, keepdims=keepdims), expected, dtype)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("name", REDUCTIONS)
def test_every_layout(name, layout, rng):
    host, device = layout_pair(rng, layout, "float32")
    host = small_values(numpy.ascontiguousarray(host), name) if name == "prod" else host
    device = gpukit.asarray(host) if name == "prod" else device
    if host.size == 0 and name in ("max", "min"):
        with pytest.raises(ValueError, match="zero-size array"):
            getattr(gpukit, name)(device)
        return
    with warnings.catch_warnings():  # NumPy warns that the mean of nothing is nan
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_close(getattr(gpukit, name)(device), reference(name, host), "float32")
        if host.ndim:
            assert_close(getattr(gpukit, name)(device, axis=0), reference(name, host, axis=0), "float32")


def test_results_stay_on_the_device_until_read(rng):
    host = random_array(rng, (1000,), "float32")
    total = gpukit.asarray(host).sum()
    assert isinstance(total, gpukit.ndarray) and total.shape == ()
    assert float(total) == pytest.approx(float(host.astype(numpy.float64).sum()), rel=1e-5)


def test_dtype_and_out(rng):
    host = random_array(rng, (6, 5), "int16")
    device = gpukit.asarray(host)
    assert gpukit.sum(device).dtype == numpy.int64
    assert gpukit.mean(device).dtype == numpy.float64
    assert_close(device.sum(axis=1, dtype=numpy.float32), host.sum(axis=1, dtype=numpy.float32), "float32")
    out = gpukit.empty(5, numpy.float64)
    returned = gpukit.sum(device, axis=0, out=out)
    numpy.testing.assert_array_equal(out.get(), host.sum(axis=0).astype(numpy.float64))
    numpy.testing.assert_array_equal(returned.get(), out.get())


def test_nans_and_wrapping():
    with_nan = numpy.array([1.0, numpy.nan, 3.0], dtype=numpy.float32)
    device = gpukit.asarray(with_nan)
    assert numpy.isnan(float(device.max())) and numpy.isnan(float(device.min()))
    big = numpy.array([2**62, 2**62, 2**62], dtype=numpy.int64)
    assert int(gpukit.asarray(big).sum()) == int(big.sum())  # wraps as NumPy's


def test_errors_are_numpys():
    device = gpukit.empty((3, 4), numpy.float32)
    with pytest.raises(gpukit.AxisError):
        device.sum(axis=2)
    with pytest.raises(ValueError):
        device.sum(axis=(1, -1))
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        gpukit.empty(0, numpy.float32).max()
    with pytest.raises(ValueError):
        device.sum(axis=0, out=gpukit.empty(3, numpy.float32))
    with pytest.raises(TypeError):
        device.sum(out=gpukit.empty((), numpy.int32))  # float32 -> int32 is not same_kind
    with pytest.raises(TypeError):
        device.max(dtype=numpy.float64)  # numpy.max takes no dtype
    assert gpukit.empty((0, 3), numpy.float32).max(axis=1).shape == (0,)
