"""gpukit's fix, isposinf, isneginf, sinc, i0, real_if_close, sort_complex, unwrap, trim_zeros, packbits,
unpackbits and window functions (src/ops/math_routines.cpp, bit_packing.cpp, windows.cpp) against NumPy's:
random inputs of several dtypes, sizes 0, 1 and odd, views, the dispatch of NumPy's functions to gpukit's and
NumPy's errors."""

import numpy
import pytest

import gpukit
from close_to_numpy import assert_close
from conftest import random_array

REAL = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16", "float32", "float64"]
SIZES = [(0,), (1,), (7,), (3, 5)]
TOLERANCE = {"float16": 2e-3, "float32": 2e-6, "complex64": 2e-6}


def tolerance(dtype, scale=1.0):
    return TOLERANCE.get(str(numpy.dtype(dtype)), 1e-12) * scale


def spread(rng, shape, dtype, scale=4.0):
    """Random values with infinities and nan among the floats, never all zero."""
    values = random_array(rng, shape, dtype)
    if numpy.dtype(dtype).kind in "fc":
        values = (values * scale).astype(dtype)
        flat = values.reshape(-1)
        for k, special in zip(range(0, flat.size, 3), [numpy.inf, -numpy.inf, numpy.nan]):
            flat[k] = special
    return values


def view_of(host):
    """A strided device view of ``host`` (every other element of a doubled array) and that host view."""
    doubled = numpy.repeat(host, 2, axis=-1) if host.ndim else host
    view = gpukit.asarray(doubled)[..., ::2] if host.ndim else gpukit.asarray(doubled)
    return view, doubled[..., ::2] if host.ndim else doubled


# ---- fix, isposinf, isneginf


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("shape", SIZES)
def test_fix_isposinf_isneginf_as_numpy(dtype, shape, rng):
    x = spread(rng, shape, dtype)
    for name in ("fix", "isposinf", "isneginf"):
        expected = getattr(numpy, name)(x)
        assert_close(getattr(gpukit, name)(gpukit.asarray(x)), expected, 0)
        assert_close(getattr(numpy, name)(gpukit.asarray(x)), expected, 0)  # dispatched
        view, host_view = view_of(x)
        assert_close(getattr(gpukit, name)(view), getattr(numpy, name)(host_view), 0)


@pytest.mark.parametrize("name", ["fix", "isposinf", "isneginf"])
def test_fix_isposinf_isneginf_into_out(name, rng):
    x = spread(rng, (9,), "float32")
    expected = getattr(numpy, name)(x)
    out = gpukit.empty(9, expected.dtype)
    assert getattr(gpukit, name)(gpukit.asarray(x), out=out) is out
    assert_close(out, expected, 0)


def test_fix_isposinf_refuse_complex_as_numpy():
    z = gpukit.asarray(numpy.array([1 + 2j]))
    with pytest.raises(TypeError, match="not supported for complex128 values because it would be ambiguous"):
        gpukit.isposinf(z)
    with pytest.raises(TypeError, match="complex64"):
        gpukit.isneginf(z.astype(numpy.complex64))
    with pytest.raises(TypeError):
        gpukit.fix(z)


# ---- sinc, i0


@pytest.mark.parametrize("dtype", REAL + ["complex64", "complex128"])
@pytest.mark.parametrize("shape", SIZES)
def test_sinc_as_numpy(dtype, shape, rng):
    x = random_array(rng, shape, dtype)
    if x.size:
        x.reshape(-1)[0] = 0
    expected = numpy.sinc(x)
    assert_close(gpukit.sinc(gpukit.asarray(x)), expected, tolerance(expected.dtype, 4))
    assert_close(numpy.sinc(gpukit.asarray(x)), expected, tolerance(expected.dtype, 4))


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("shape", SIZES)
def test_i0_as_numpy(dtype, shape, rng):
    x = random_array(rng, shape, dtype)
    if numpy.dtype(dtype).kind == "f":
        x = (x * (8.0 if dtype == "float16" else 60.0)).astype(dtype)  # both of NumPy's ranges
    expected = numpy.i0(x)
    got = gpukit.i0(gpukit.asarray(x))
    assert_close(got, expected, tolerance(expected.dtype, 40))
    view, host_view = view_of(x)
    assert_close(numpy.i0(view), numpy.i0(host_view), tolerance(expected.dtype, 40))


def test_i0_edges_and_complex():
    x = numpy.array([0.0, -30.0, 30.5, 700.0, 720.0, numpy.inf, numpy.nan])
    with numpy.errstate(all="ignore"):
        expected = numpy.i0(x)
    got = gpukit.i0(gpukit.asarray(x)).get()
    numpy.testing.assert_allclose(got, expected, rtol=1e-13)
    with pytest.raises(TypeError, match="i0 not supported for complex values"):
        gpukit.i0(gpukit.asarray(numpy.array([1j])))


# ---- real_if_close, sort_complex


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("tol", [100, 1e-3, 1])
def test_real_if_close_as_numpy(dtype, tol, rng):
    real = random_array(rng, (7,), "float64")
    for imaginary in (1e-17, 1e-14, 1e-5, 0.5):
        z = (real + 1j * imaginary * rng.uniform(-1, 1, 7)).astype(dtype)
        expected = numpy.real_if_close(z, tol=tol)
        assert_close(gpukit.real_if_close(gpukit.asarray(z), tol=tol), expected, 0)
        assert_close(numpy.real_if_close(gpukit.asarray(z), tol=tol), expected, 0)
    empty = numpy.zeros(0, dtype)
    assert_close(gpukit.real_if_close(gpukit.asarray(empty)), numpy.real_if_close(empty), 0)


def test_real_if_close_returns_real_arrays_themselves(rng):
    x = gpukit.asarray(random_array(rng, (5,), "float32"))
    assert gpukit.real_if_close(x) is x


@pytest.mark.parametrize("dtype", REAL + ["complex64", "complex128"])
@pytest.mark.parametrize("shape", SIZES)
def test_sort_complex_as_numpy(dtype, shape, rng):
    x = random_array(rng, shape, dtype)
    if numpy.dtype(dtype).kind == "c" and x.size > 2:
        x.reshape(-1)[1] = x.reshape(-1)[0].real + 0.5j  # equal real parts: the imaginary ones decide
    expected = numpy.sort_complex(x)
    assert_close(gpukit.sort_complex(gpukit.asarray(x)), expected, 0)
    view, host_view = view_of(x)
    assert_close(numpy.sort_complex(view), numpy.sort_complex(host_view), 0)


def test_sort_complex_of_0d_is_numpys_axis_error():
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.sort_complex(gpukit.asarray(numpy.array(1.0)))


# ---- unwrap


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "int32", "int64"])
@pytest.mark.parametrize("shape, axis", [((1,), -1), ((9,), 0), ((4, 7), -1), ((5, 3), 0), ((2, 0), 0)])
def test_unwrap_as_numpy(dtype, shape, axis, rng):
    if numpy.dtype(dtype).kind == "f":
        p = numpy.cumsum(rng.normal(0, 3, shape), axis=axis).astype(dtype)
    else:
        p = rng.integers(-40, 40, shape).astype(dtype)
    for kwargs in ({}, {"discont": 4.0}, {"period": 6}, {"period": 7, "discont": 2}, {"period": 360.0}):
        expected = numpy.unwrap(p, axis=axis, **kwargs)
        got = gpukit.unwrap(gpukit.asarray(p), axis=axis, **kwargs)
        assert_close(got, expected, tolerance(expected.dtype, 100))
    assert_close(numpy.unwrap(gpukit.asarray(p), axis=axis), numpy.unwrap(p, axis=axis),
                 tolerance(numpy.unwrap(p, axis=axis).dtype, 100))


def test_unwrap_errors_as_numpy():
    with pytest.raises(ValueError):
        gpukit.unwrap(gpukit.asarray(numpy.array(1.0)))
    with pytest.raises(TypeError):
        gpukit.unwrap(gpukit.asarray(numpy.array([1j, 2j])))
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.unwrap(gpukit.asarray(numpy.ones(3)), axis=1)


# ---- trim_zeros


@pytest.mark.parametrize("dtype", ["bool", "int16", "float32", "complex128"])
@pytest.mark.parametrize("trim", ["fb", "f", "b", "BF"])
def test_trim_zeros_as_numpy(dtype, trim, rng):
    for shape in [(1,), (11,), (5, 7), (0,), (3, 0)]:
        x = random_array(rng, shape, dtype)
        if x.ndim == 1 and x.size > 4:
            x[:2] = 0
            x[-3:] = 0
        elif x.ndim == 2:
            x[0] = 0
            x[:, -2:] = 0
        axes = [None] + list(range(x.ndim)) + ([(0, 1)] if x.ndim == 2 else [])
        for axis in axes:
            expected = numpy.trim_zeros(x, trim, axis=axis)
            got = gpukit.trim_zeros(gpukit.asarray(x), trim, axis=axis)
            assert_close(got, expected, 0)
        zero = numpy.zeros(shape, dtype)
        assert_close(gpukit.trim_zeros(gpukit.asarray(zero), trim), numpy.trim_zeros(zero, trim), 0)
    x = numpy.array([0, 3, 0, 5, 0])
    assert_close(numpy.trim_zeros(gpukit.asarray(x)), numpy.trim_zeros(x), 0)
    assert_close(gpukit.trim_zeros(gpukit.asarray(numpy.array(4))), numpy.trim_zeros(numpy.array(4)), 0)


def test_trim_zeros_errors_as_numpy():
    with pytest.raises(ValueError, match="unexpected character"):
        gpukit.trim_zeros(gpukit.asarray(numpy.ones(3)), "x")
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.trim_zeros(gpukit.asarray(numpy.ones(3)), axis=2)


# ---- packbits, unpackbits


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int32", "uint64"])
@pytest.mark.parametrize("shape", [(0,), (1,), (13,), (3, 17), (2, 9, 5)])
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits_as_numpy(dtype, shape, bitorder, rng):
    x = random_array(rng, shape, dtype)
    for axis in [None] + list(range(-len(shape), len(shape))):
        expected = numpy.packbits(x, axis=axis, bitorder=bitorder)
        assert_close(gpukit.packbits(gpukit.asarray(x), axis=axis, bitorder=bitorder), expected, 0)
    assert_close(numpy.packbits(gpukit.asarray(x)), numpy.packbits(x), 0)
    view, host_view = view_of(x)
    assert_close(gpukit.packbits(view, axis=-1), numpy.packbits(host_view, axis=-1), 0)
    transposed = gpukit.asarray(x).T
    assert_close(gpukit.packbits(transposed, axis=0), numpy.packbits(x.T, axis=0), 0)


@pytest.mark.parametrize("shape", [(0,), (1,), (5,), (3, 7), (2, 3, 4)])
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_unpackbits_as_numpy(shape, bitorder, rng):
    x = rng.integers(0, 256, shape).astype(numpy.uint8)
    for axis in [None] + list(range(len(shape))):
        for count in (None, 0, 3, 11, 100, -1, -5):
            try:
                expected = numpy.unpackbits(x, axis=axis, count=count, bitorder=bitorder)
            except ValueError:
                with pytest.raises(ValueError, match="-count larger than number of elements"):
                    gpukit.unpackbits(gpukit.asarray(x), axis=axis, count=count, bitorder=bitorder)
                continue
            got = gpukit.unpackbits(gpukit.asarray(x), axis=axis, count=count, bitorder=bitorder)
            if x.size == 0 and expected.size:  # NumPy leaves the padding of no input uninitialised: ours is zeros
                expected = numpy.zeros_like(expected)
            assert_close(got, expected, 0)
    assert_close(numpy.unpackbits(gpukit.asarray(x)), numpy.unpackbits(x), 0)
    packed = numpy.packbits(x.reshape(-1) % 2)
    assert_close(gpukit.unpackbits(gpukit.packbits(gpukit.asarray(x.reshape(-1) % 2))), numpy.unpackbits(packed), 0)


def test_bit_packing_errors_as_numpy():
    with pytest.raises(TypeError, match="Expected an input array of integer or boolean data type"):
        gpukit.packbits(gpukit.asarray(numpy.ones(3)))
    with pytest.raises(TypeError, match="Expected an input array of unsigned byte data type"):
        gpukit.unpackbits(gpukit.asarray(numpy.ones(3, numpy.int8)))
    with pytest.raises(ValueError, match="'order' must begin with 'l' or 'b'"):
        gpukit.packbits(gpukit.asarray(numpy.ones(3, numpy.uint8)), bitorder="x")
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.packbits(gpukit.asarray(numpy.ones(3, numpy.uint8)), axis=1)
    assert_close(gpukit.packbits(gpukit.asarray(numpy.array(3))), numpy.packbits(numpy.array(3)), 0)


# ---- window functions


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
@pytest.mark.parametrize("M", [-3, 0, 1, 2, 3, 8, 51])
def test_windows_as_numpy(name, M):
    expected = getattr(numpy, name)(M)
    assert_close(getattr(gpukit, name)(M), expected, 1e-14)


@pytest.mark.parametrize("M", [-1, 0, 1, 2, 9, 50])
@pytest.mark.parametrize("beta", [0.0, 2.5, 14.0, 40.0])
def test_kaiser_as_numpy(M, beta):
    assert_close(gpukit.kaiser(M, beta), numpy.kaiser(M, beta), 1e-13)
