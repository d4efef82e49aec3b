"""argmax/argmin and their nan forms, var/std (ddof), the nan reductions, ptp, count_nonzero,
average, and where=/initial= (src/ops/reduction/functions.cpp) against NumPy: every dtype, axes
None, one, negative and several, keepdims, the layouts of layouts.py, and the errors NumPy raises.
References are NumPy's, computed in float64 (complex128) where gpukit accumulates more precisely
than NumPy does for half precision."""

import warnings

import numpy
import pytest

import gpukit
from conftest import ALL_DTYPES, random_array
from layouts import LAYOUTS, layout_pair

INEXACT = [d for d in ALL_DTYPES if numpy.dtype(d).kind in "fc" or d == "bfloat16"]
AXES = (None, 0, -1, (0, 2), (1, 2))


def host_of(rng, shape, dtype, nans=False):
    if dtype == "bfloat16":
        pytest.importorskip("ml_dtypes")
    host = random_array(rng, shape, dtype)
    if nans and host.dtype.kind in "fc" or (nans and dtype == "bfloat16"):
        flat = host.reshape(-1)
        flat[:: max(1, flat.size // 7)] = numpy.nan
    return host


def wide(host):
    """The values in float64 (complex128): NumPy's reference without half precision's rounding."""
    if host.dtype.kind == "c":
        return host.astype(numpy.complex128)
    return host.astype(numpy.float64)


def assert_close(device, expected, dtype, exact=False):
    got = device.get()
    expected = numpy.asarray(expected)
    assert device.shape == expected.shape, (device.shape, expected.shape)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    if exact or got.dtype.kind in "biu":
        numpy.testing.assert_array_equal(got, expected)
        return
    tolerance = {"float16": 2e-2, "bfloat16": 5e-2, "float32": 1e-5, "complex64": 1e-5}.get(str(dtype), 1e-12)
    numpy.testing.assert_allclose(got.astype(numpy.complex128), expected.astype(numpy.complex128), rtol=tolerance,
                                  atol=tolerance, equal_nan=True)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_arg_reductions_give_the_first_index(name, dtype, rng):
    host = host_of(rng, (4, 5, 6), dtype)
    host.reshape(-1)[7] = host.reshape(-1)[3]  # ties: the first index wins
    device = gpukit.asarray(host)
    for axis in (None, 0, 1, -1):
        for keepdims in (False, True):
            expected = getattr(numpy, name)(host, axis=axis, keepdims=keepdims)
            assert_close(getattr(gpukit, name)(device, axis=axis, keepdims=keepdims), expected, dtype, exact=True)
            assert_close(getattr(device, name)(axis=axis, keepdims=keepdims), expected, dtype, exact=True)


@pytest.mark.parametrize("dtype", INEXACT)
@pytest.mark.parametrize("name", ["argmax", "argmin", "nanargmax", "nanargmin"])
def test_nans_in_arg_reductions(name, dtype, rng):
    host = host_of(rng, (6, 9), dtype, nans=True)
    host[:, 0] = 0.5  # no all-nan row
    device = gpukit.asarray(host)
    for axis in (None, 0, 1):
        expected = getattr(numpy, name)(host, axis=axis)
        assert_close(getattr(gpukit, name)(device, axis=axis), expected, dtype, exact=True)


def test_nanargmax_of_an_all_nan_slice_raises():
    device = gpukit.asarray(numpy.array([[1.0, numpy.nan], [numpy.nan, numpy.nan]]))
    with pytest.raises(ValueError, match="All-NaN slice"):
        gpukit.nanargmax(device, axis=1)
    with pytest.raises(ValueError, match="All-NaN slice"):
        gpukit.nanargmax(device, axis=0)  # column 1 is all nan too
    mixed = gpukit.asarray(numpy.array([[1.0, numpy.nan], [numpy.nan, 2.0]]))
    assert gpukit.nanargmax(mixed, axis=0).get().tolist() == [0, 1]
    with pytest.raises(ValueError, match="argmax"):
        gpukit.argmax(gpukit.empty(0, numpy.float32))


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if d != "bool"])
@pytest.mark.parametrize("name", ["var", "std"])
def test_var_and_std(name, dtype, rng):
    host = host_of(rng, (4, 5, 6), dtype)
    device = gpukit.asarray(host)
    result_dtype = getattr(numpy, name)(host[:1, :1, :2]).dtype if dtype != "bfloat16" else host.dtype
    for axis in AXES:
        for ddof in (0, 1):
            expected = getattr(numpy, name)(wide(host), axis=axis, ddof=ddof, keepdims=True).astype(result_dtype)
            assert_close(getattr(gpukit, name)(device, axis=axis, ddof=ddof, keepdims=True), expected, dtype)
            assert_close(getattr(device, name)(axis=axis, ddof=ddof, keepdims=True), expected, dtype)


def test_var_ddof_at_least_n_is_inf_or_nan_and_correction_is_ddof(rng):
    host = random_array(rng, (3, 4), "float64")
    device = gpukit.asarray(host)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_close(gpukit.var(device, axis=1, ddof=4), numpy.var(host, axis=1, ddof=4), "float64")
        assert_close(gpukit.var(device, axis=1, ddof=5), numpy.var(host, axis=1, ddof=5), "float64")
    assert_close(gpukit.std(device, correction=1), numpy.std(host, ddof=1), "float64")
    with pytest.raises(ValueError, match="ddof and correction"):
        gpukit.var(device, ddof=1, correction=1)


def runtime_warnings(call):
    """The messages of the RuntimeWarnings `call` gives (without a last full stop: NumPy 1 and 2 differ), but
    NumPy's floating-point ones (errstate)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [str(w.message).rstrip(".") for w in caught
            if issubclass(w.category, RuntimeWarning) and "encountered" not in str(w.message)]


# The warnings NumPy gives that the shapes decide: gpukit gives them without waiting for the device.
@pytest.mark.parametrize("call", [
    lambda xp, a: xp.mean(a[:0]),
    lambda xp, a: xp.mean(a[:0], axis=0),
    lambda xp, a: xp.mean(a, axis=1),
    lambda xp, a: xp.nanmean(a[:0]),
    lambda xp, a: xp.var(a, axis=0, ddof=3),
    lambda xp, a: xp.var(a, axis=0, ddof=2),
    lambda xp, a: xp.std(a[:1], ddof=1),
    lambda xp, a: xp.nanvar(a, axis=0, ddof=3),
    lambda xp, a: xp.nanstd(a[:0], axis=1),
    lambda xp, a: xp.median(a[:0], axis=0),
    lambda xp, a: a[:0].mean(),
], ids=["mean", "mean-axis", "mean-none", "nanmean", "var", "var-ok", "std", "nanvar", "nanstd", "median",
        "method"])
def test_runtime_warnings_decided_by_shapes_are_numpys(call, rng):
    host = random_array(rng, (3, 4), "float64")
    assert runtime_warnings(lambda: call(gpukit, gpukit.asarray(host))) == runtime_warnings(lambda: call(numpy, host))


def test_a_runtime_warning_as_error_raises_and_the_process_goes_on():
    empty = gpukit.empty((0,), numpy.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(RuntimeWarning, match="Mean of empty slice"):
            gpukit.mean(empty)
        with pytest.raises(RuntimeWarning, match="Degrees of freedom"):
            gpukit.var(gpukit.ones(2), ddof=2)
    assert float(gpukit.ones(4).mean()) == 1.0


@pytest.mark.parametrize("dtype", INEXACT)
@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd"])
def test_nan_reductions_skip_nans(name, dtype, rng):
    host = host_of(rng, (4, 5, 6), dtype, nans=True)
    if name == "nanprod":
        host = numpy.where(numpy.isnan(host), host, numpy.sign(numpy.real(host)) + (numpy.real(host) == 0))
        host = host.astype(dtype if dtype != "bfloat16" else host.dtype)
    device = gpukit.asarray(host)
    result = getattr(numpy, name)(host[:1, :2, :2])
    result_dtype = numpy.asarray(result).dtype
    for axis in AXES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            expected = getattr(numpy, name)(wide(host), axis=axis, keepdims=True).astype(result_dtype)
        assert_close(getattr(gpukit, name)(device, axis=axis, keepdims=True), expected, dtype)


def test_nan_extremes_of_all_nan_slices_are_nan():
    host = numpy.array([[numpy.nan, numpy.nan], [1.0, numpy.nan]], dtype=numpy.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for name in ("nanmax", "nanmin", "nanmean", "nanvar"):
            assert_close(getattr(gpukit, name)(gpukit.asarray(host), axis=1), getattr(numpy, name)(host, axis=1),
                         "float32")


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "int64", "float16", "float32", "float64", "complex64"])
def test_nan_reductions_of_integers_and_ptp(dtype, rng):
    host = host_of(rng, (5, 6), dtype)
    device = gpukit.asarray(host)
    for axis in (None, 0, 1):
        if numpy.dtype(dtype).kind in "iu":
            assert_close(gpukit.nansum(device, axis=axis), numpy.nansum(host, axis=axis), dtype)
            assert_close(gpukit.nanmax(device, axis=axis), numpy.nanmax(host, axis=axis), dtype)
        assert_close(gpukit.ptp(device, axis=axis), numpy.ptp(host, axis=axis), dtype)
        assert_close(device.ptp(axis=axis), numpy.ptp(host, axis=axis), dtype)
    with pytest.raises(TypeError):
        gpukit.ptp(gpukit.asarray(numpy.array([True, False])))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_count_nonzero(dtype, rng):
    host = host_of(rng, (4, 5, 6), dtype)
    device = gpukit.asarray(host)
    for axis in AXES:
        expected = numpy.asarray(numpy.count_nonzero(host, axis=axis, keepdims=True)).astype(numpy.int64)
        assert_close(gpukit.count_nonzero(device, axis=axis, keepdims=True), expected, dtype)
    assert int(gpukit.count_nonzero(device)) == numpy.count_nonzero(host)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("name", ["argmax", "var", "nanmean", "ptp", "count_nonzero"])
def test_every_layout(name, layout, rng):
    host, device = layout_pair(rng, layout, "float32")
    if host.size == 0 and name in ("argmax", "ptp"):
        with pytest.raises(ValueError):
            getattr(gpukit, name)(device)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = getattr(numpy, name)(host)
        expected_axis0 = getattr(numpy, name)(host, axis=0) if host.ndim and host.shape[0] else None
    assert_close(getattr(gpukit, name)(device), numpy.asarray(expected).astype(
        numpy.int64 if name in ("argmax", "count_nonzero") else numpy.float32), "float32")
    if expected_axis0 is not None:
        assert_close(getattr(gpukit, name)(device, axis=0), numpy.asarray(expected_axis0).astype(
            numpy.int64 if name in ("argmax", "count_nonzero") else numpy.float32), "float32")


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex128"])
def test_average(dtype, rng):
    host = host_of(rng, (4, 6), dtype)
    weights = numpy.abs(random_array(rng, (4, 6), "float32")) + 0.1
    device = gpukit.asarray(host)
    assert_close(gpukit.average(device), numpy.average(host), dtype)
    for axis in (None, 0, 1, (0, 1)):
        assert_close(gpukit.average(device, axis=axis, weights=gpukit.asarray(weights)),
                     numpy.average(host, axis=axis, weights=weights), dtype)
    along = weights[0]
    average, total = gpukit.average(device, axis=1, weights=gpukit.asarray(along), returned=True, keepdims=True)
    expected, expected_total = numpy.average(host, axis=1, weights=along, returned=True, keepdims=True)
    assert_close(average, expected, dtype)
    assert_close(total, expected_total, dtype if numpy.dtype(dtype).kind in "fc" else "float64")
    with pytest.raises(ZeroDivisionError):
        gpukit.average(device, axis=1, weights=gpukit.zeros(6, numpy.float32))
    with pytest.raises(TypeError):
        gpukit.average(device, weights=gpukit.asarray(along))
    with pytest.raises(ValueError):
        gpukit.average(device, axis=0, weights=gpukit.asarray(along))


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "any", "all", "mean", "var", "std", "nansum",
                                  "nanmax", "nanmean", "nanvar"])
def test_where(name, rng):
    host = random_array(rng, (5, 6), "float64")
    host[1, 1] = numpy.nan if name.startswith("nan") else host[1, 1]
    mask = random_array(rng, (5, 6), "bool")
    mask[:, 0] = True  # no empty slice
    keywords = {"initial": -10.0} if name in ("max", "min", "nanmax") else {}
    device = gpukit.asarray(host)
    for axis in (None, 0, 1):
        for where in (mask, mask[0]):  # broadcast too
            expected = getattr(numpy, name)(host, axis=axis, where=where, **keywords)
            got = getattr(gpukit, name)(device, axis=axis, where=gpukit.asarray(where), **keywords)
            assert_close(got, numpy.asarray(expected), "float64")


def test_initial_and_where_errors(rng):
    host = random_array(rng, (5, 6), "float32")
    device = gpukit.asarray(host)
    assert_close(gpukit.sum(device, axis=0, initial=3), numpy.sum(host, axis=0, initial=3), "float32")
    assert_close(gpukit.max(device, axis=1, initial=0.5), numpy.max(host, axis=1, initial=0.5), "float32")
    assert_close(gpukit.max(gpukit.empty((0, 3), numpy.float32), axis=0, initial=1),
                 numpy.max(numpy.empty((0, 3), numpy.float32), axis=0, initial=1), "float32")
    with pytest.raises(ValueError, match="initial"):
        gpukit.max(device, where=gpukit.asarray(host > 0))
    with pytest.raises(TypeError):
        gpukit.sum(device, where=gpukit.asarray(host))  # not a boolean mask
    with pytest.raises(ValueError):
        gpukit.sum(device, where=gpukit.asarray(numpy.ones((3,), bool)))  # does not broadcast
    with pytest.raises(TypeError):
        gpukit.argmax(device, out=gpukit.empty(6, numpy.int32))
    with pytest.raises(gpukit.AxisError):
        gpukit.argmax(device, axis=2)
    with pytest.raises(TypeError):
        gpukit.argmax(device, axis=(0, 1))  # one axis only, as NumPy's
