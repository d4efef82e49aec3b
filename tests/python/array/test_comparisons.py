"""isclose, allclose, array_equal and array_equiv (src/ops/comparisons.cpp), and result_type,
can_cast and promote_types, against NumPy: every dtype, infinities and nans, broadcasting, numbers
as operands, edge sizes, and the errors."""

import numpy
import pytest

import gpukit
from conftest import ALL_DTYPES, EDGE_SIZES, random_array

NUMPY_DTYPES = [d for d in ALL_DTYPES if d != "bfloat16"]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_isclose_and_allclose_equal_numpy_s(dtype, rng):
    a = random_array(rng, (6, 7), dtype)
    kind = numpy.dtype(dtype).kind
    wide_type = numpy.complex128 if kind == "c" else numpy.float64
    near = (a.astype(wide_type) * (1 + 1e-7)).astype(dtype) if kind in "fc" else a.copy()
    far = random_array(rng, (6, 7), dtype)
    wide = numpy.float32 if dtype == "bfloat16" else dtype
    for other in (near, far):
        expected = numpy.isclose(a.astype(wide), other.astype(wide))
        got = gpukit.isclose(gpukit.asarray(a), gpukit.asarray(other))
        assert got.dtype == numpy.bool_ and got.shape == expected.shape
        if dtype != "bfloat16":
            numpy.testing.assert_array_equal(got.get(), expected)
        assert bool(gpukit.allclose(gpukit.asarray(a), gpukit.asarray(other))) == bool(expected.all()) or \
            dtype == "bfloat16"
    assert bool(gpukit.allclose(gpukit.asarray(a), gpukit.asarray(a)))


def test_infinities_nans_tolerances_and_broadcasting():
    a = numpy.array([numpy.inf, -numpy.inf, numpy.nan, 1.0, 1.0, 0.0, 1e10])
    b = numpy.array([numpy.inf, numpy.inf, numpy.nan, 1.0 + 1e-6, 1.1, 1e-9, 1.00001e10])
    x, y = gpukit.asarray(a), gpukit.asarray(b)
    for keywords in ({}, {"equal_nan": True}, {"rtol": 0.2}, {"atol": 0.0, "rtol": 1e-12}):
        numpy.testing.assert_array_equal(gpukit.isclose(x, y, **keywords).get(), numpy.isclose(a, b, **keywords))
        assert bool(gpukit.allclose(x, y, **keywords)) == numpy.allclose(a, b, **keywords)
    column = numpy.linspace(0, 1, 4)[:, None]
    numpy.testing.assert_array_equal(gpukit.isclose(gpukit.asarray(column), gpukit.asarray(a)).get(),
                                     numpy.isclose(column, a))
    numpy.testing.assert_array_equal(gpukit.isclose(x, 1.0).get(), numpy.isclose(a, 1.0))
    ints = numpy.arange(5)
    numpy.testing.assert_array_equal(gpukit.isclose(gpukit.asarray(ints), 2).get(), numpy.isclose(ints, 2))
    complex_values = numpy.array([1 + 1j, numpy.inf + 0j, 2j])
    numpy.testing.assert_array_equal(
        gpukit.isclose(gpukit.asarray(complex_values), gpukit.asarray(complex_values + 1e-9)).get(),
        numpy.isclose(complex_values, complex_values + 1e-9))


@pytest.mark.parametrize("size", EDGE_SIZES)
def test_edge_sizes(size, rng):
    a = rng.standard_normal(size)
    x = gpukit.asarray(a)
    near, same = a + 1e-9, a.copy()  # other buffers: the answers come from comparing elements
    assert bool(gpukit.allclose(x, gpukit.asarray(near))) == numpy.allclose(a, near)
    assert bool(gpukit.array_equal(x, gpukit.asarray(same))) == numpy.array_equal(a, same)
    assert bool(gpukit.array_equiv(x, gpukit.asarray(same))) == numpy.array_equiv(a, same)
    if size:
        b = a.copy()
        b[-1] += 1
        assert not bool(gpukit.array_equal(x, gpukit.asarray(b)))
        assert not bool(gpukit.allclose(x, gpukit.asarray(b)))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_array_equal_and_array_equiv_equal_numpy_s(dtype, rng):
    a = random_array(rng, (3, 4), dtype)
    x = gpukit.asarray(a)
    assert bool(gpukit.array_equal(x, gpukit.asarray(a.copy())))
    assert not bool(gpukit.array_equal(x, x[:, :3]))  # shapes differ: false, no error
    assert bool(gpukit.array_equiv(x, gpukit.asarray(numpy.tile(a[:1], (3, 1))))) == numpy.array_equiv(
        a, numpy.tile(a[:1], (3, 1)))
    assert bool(gpukit.array_equiv(x[:1], gpukit.asarray(numpy.tile(a[:1], (5, 1)))))
    assert not bool(gpukit.array_equiv(x, x[:, :3]))  # no broadcast: false
    result = gpukit.array_equal(x, x)
    assert isinstance(result, gpukit.ndarray) and result.shape == () and result.dtype == numpy.bool_
    nans = numpy.array([1.0, numpy.nan])
    assert not bool(gpukit.array_equal(gpukit.asarray(nans), gpukit.asarray(nans)))
    assert bool(gpukit.array_equal(gpukit.asarray(nans), gpukit.asarray(nans), equal_nan=True))


def test_result_type_can_cast_and_promote_types_equal_numpy_s():
    for first in NUMPY_DTYPES:
        for second in NUMPY_DTYPES:
            assert gpukit.promote_types(first, second) == numpy.promote_types(first, second), (first, second)
            assert gpukit.result_type(first, second) == numpy.result_type(first, second), (first, second)
            for casting in ("no", "equiv", "safe", "same_kind", "unsafe"):
                assert gpukit.can_cast(first, second, casting) == numpy.can_cast(first, second, casting), (
                    first, second, casting)
        for number in (True, 3, 2.5, 1j):
            assert gpukit.result_type(gpukit.zeros(2, first), number) == numpy.result_type(
                numpy.zeros(2, first), number), (first, number)
    assert gpukit.result_type(3, 2.5) == numpy.result_type(3, 2.5)
    assert gpukit.result_type(numpy.float32(1), numpy.int64) == numpy.result_type(numpy.float32(1), numpy.int64)
    assert gpukit.can_cast(gpukit.zeros(2, numpy.int8), numpy.int16)
    with pytest.raises(TypeError, match="does not support Python ints"):
        gpukit.can_cast(3, numpy.int8)
    with pytest.raises(ValueError, match="at least one array or dtype"):
        gpukit.result_type()
    with pytest.raises(ValueError, match="casting"):
        gpukit.can_cast(numpy.int8, numpy.int16, "sometimes")


def test_bad_input_is_a_clear_error():
    x = gpukit.asarray(numpy.ones((2, 3)))
    with pytest.raises(TypeError, match="gpukit.asarray"):
        gpukit.isclose(x, numpy.ones((2, 3)))
    with pytest.raises(ValueError):
        gpukit.isclose(x, gpukit.ones((4, 5)))
    with pytest.raises(TypeError):
        gpukit.array_equal(x, "text")
    # The process goes on: a comparison whose answer takes computing.
    numpy.testing.assert_array_equal(gpukit.isclose(x, x + 0.5, atol=0.1).get(),
                                     numpy.isclose(numpy.ones((2, 3)), 1.5, atol=0.1))


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_complex_and_real_tests_equal_numpy_s(dtype, rng):
    host = random_array(rng, (3, 5), dtype)
    if numpy.dtype(dtype).kind == "c":
        host[0] = host[0].real  # some elements with no imaginary part
    device = gpukit.asarray(host)
    for name in ("iscomplex", "isreal"):
        got = getattr(gpukit, name)(device)
        assert got.dtype == numpy.bool_
        numpy.testing.assert_array_equal(got.get(), getattr(numpy, name)(host), err_msg=name)
    assert gpukit.iscomplexobj(device) == numpy.iscomplexobj(host)
    assert gpukit.isrealobj(device) == numpy.isrealobj(host)
    assert not gpukit.isscalar(device) and not gpukit.isscalar(device[0, 0])
    assert gpukit.isscalar(3.5) and gpukit.isscalar(numpy.float32(1)) and not gpukit.isscalar([1])
    assert numpy.iscomplexobj(device) == numpy.iscomplexobj(host)  # through __array_function__
