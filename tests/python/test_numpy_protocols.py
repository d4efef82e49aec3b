"""NumPy meeting gpukit arrays (python/src/numpy_protocols.cpp): NumPy's functions run gpukit's
(__array_function__), a function gpukit lacks is a TypeError naming it, an implicit copy to the host
is refused unless gpukit.set_host_conversion(True) allows it, and get_array_module picks the module."""

import contextlib

import numpy
import pytest

import gpukit


@contextlib.contextmanager
def host_conversion(allowed):
    previous = gpukit.set_host_conversion(allowed)
    try:
        yield
    finally:
        gpukit.set_host_conversion(previous)


def test_numpy_functions_run_gpukit_s_and_return_gpukit_arrays(rng):
    a = rng.standard_normal((4, 5))
    b = rng.standard_normal((4, 5))
    x, y = gpukit.asarray(a), gpukit.asarray(b)
    checks = [
        (numpy.concatenate, ([x, y],), ([a, b],), {"axis": 1}),
        (numpy.sum, (x,), (a,), {"axis": 0}),
        (numpy.where, (x > 0, x, y), (a > 0, a, b), {}),
        (numpy.linalg.norm, (x,), (a,), {}),
        (numpy.fft.fft, (x,), (a,), {"axis": 1}),
        (numpy.sort, (x,), (a,), {"axis": 0}),
        (numpy.stack, ((x, y),), ((a, b),), {}),
        (numpy.cumsum, (x,), (a,), {}),
        (numpy.matmul, (x, y.T), (a, b.T), {}),
        (numpy.mean, (x,), (a,), {"axis": 1, "keepdims": True}),
        (numpy.copy, (x.T,), (a.T,), {"order": "F"}),
        (numpy.diag, (x,), (a,), {"k": 1}),
        (numpy.isclose, (x, y), (a, b), {"atol": 0.5}),
    ]
    for function, device_args, host_args, keywords in checks:
        result = function(*device_args, **keywords)
        assert isinstance(result, gpukit.ndarray), function.__name__
        numpy.testing.assert_allclose(result.get(), function(*host_args, **keywords), rtol=1e-12, atol=1e-12,
                                      err_msg=function.__name__)


def test_shape_ndim_and_size_answer_for_gpukit_and_host_arrays():
    x = gpukit.zeros((2, 3, 4))
    assert numpy.shape(x) == gpukit.shape(x) == (2, 3, 4)
    assert numpy.ndim(x) == gpukit.ndim(x) == 3
    assert numpy.size(x) == gpukit.size(x) == 24 and gpukit.size(x, 1) == 3 and gpukit.size(x, (0, 2)) == 8
    assert gpukit.shape([[1, 2, 3]]) == (1, 3) and gpukit.ndim(5) == 0 and gpukit.size([1, 2]) == 2


def test_a_function_gpukit_lacks_is_a_type_error_naming_it():
    x = gpukit.asarray(numpy.arange(4.0))
    lacking = r"numpy.busday_count is not implemented for gpukit arrays \(gpukit.busday_count"
    with pytest.raises(TypeError, match=lacking):
        numpy.busday_count(x, x)
    with pytest.raises(TypeError, match="numpy.datetime_as_string is not implemented"):
        numpy.datetime_as_string(x)
    # The process goes on.
    assert float(numpy.sum(x)) == 6.0


def test_mixing_numpy_and_gpukit_arrays_refuses_the_silent_copy():
    x = gpukit.asarray(numpy.arange(4.0))
    with pytest.raises(TypeError, match="gpukit.asarray"):
        numpy.concatenate([x, numpy.arange(4.0)])
    with pytest.raises(TypeError, match="gpukit.asarray"):
        numpy.add(numpy.arange(4.0), x)


def test_implicit_conversion_to_numpy_is_refused_unless_allowed(rng):
    values = rng.standard_normal(5)
    x = gpukit.asarray(values)
    with pytest.raises(TypeError, match="set_host_conversion"):
        numpy.asarray(x)
    with pytest.raises(TypeError, match="set_host_conversion"):
        numpy.array([x, x])
    with host_conversion(True):
        numpy.testing.assert_array_equal(numpy.asarray(x), values)
        assert numpy.asarray(x, dtype=numpy.float32).dtype == numpy.float32
        with pytest.raises(ValueError, match="without a copy"):
            numpy.asarray(x, copy=False)
        # NumPy's own implementation runs on host copies where gpukit has none: NumPy's result.
        numpy.testing.assert_allclose(numpy.polyval(x, 2.0), numpy.polyval(values, 2.0))
    assert gpukit.set_host_conversion(False) is False
    with pytest.raises(TypeError):
        numpy.asarray(x)


def test_get_array_module_picks_gpukit_for_any_gpukit_array():
    x = gpukit.asarray(numpy.ones(3))
    assert gpukit.get_array_module(x) is gpukit
    assert gpukit.get_array_module(numpy.ones(3), x, 2.0) is gpukit
    assert gpukit.get_array_module(numpy.ones(3), 2.0) is numpy
    assert gpukit.get_array_module() is numpy

    def softplus(values):  # code written once for both
        xp = gpukit.get_array_module(values)
        return xp.log1p(xp.exp(values))

    host = numpy.linspace(-2, 2, 9)
    numpy.testing.assert_allclose(softplus(gpukit.asarray(host)).get(), softplus(host), rtol=1e-12)
