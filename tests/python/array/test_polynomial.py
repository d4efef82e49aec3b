"""gpukit.polyval and gpukit.polyfit (src/ops/polynomial.cpp) against NumPy's: every dtype (NumPy's result
dtypes), scalars for arrays, sizes 0, 1 and odd, weights, full= and cov=, the dispatch of numpy.polyval and
numpy.polyfit to gpukit's, NumPy's RankWarning and errors."""

import warnings

import numpy
import pytest

import gpukit
from close_to_numpy import assert_close
from conftest import ALL_DTYPES, random_array

NUMPY_DTYPES = [d for d in ALL_DTYPES if d != "bfloat16"]
TOLERANCE = {"float16": 1e-2, "float32": 1e-4, "complex64": 1e-4}


def tolerance(dtype):
    return TOLERANCE.get(str(numpy.dtype(dtype)), 1e-9)


def check(got, expected, dtype, scale=1.0):
    assert_close(got, expected, tolerance(dtype) * scale)


# ---- polyval


@pytest.mark.parametrize("p_dtype", NUMPY_DTYPES)
@pytest.mark.parametrize("x_dtype", ["float32", "int64", "complex128", "bool", "uint8"])
@pytest.mark.parametrize("degree, x_shape", [(0, (5,)), (1, (1,)), (4, (7,)), (6, (3, 5)), (3, (0,)), (-1, (4,))])
def test_polyval_as_numpy(degree, x_shape, p_dtype, x_dtype, rng):
    p = random_array(rng, (degree + 1,), p_dtype)  # degree -1: no coefficients
    x = random_array(rng, x_shape, x_dtype)
    if numpy.dtype(x_dtype).kind in "iu":
        x = x % 3  # integer powers stay small (they wrap alike, but overflow warnings differ)
    with numpy.errstate(all="ignore"):
        expected = numpy.polyval(p, x)
    check(gpukit.polyval(gpukit.asarray(p), gpukit.asarray(x)), expected, expected.dtype, scale=10)
    check(numpy.polyval(gpukit.asarray(p), gpukit.asarray(x)), expected, expected.dtype, scale=10)  # dispatched


def test_polyval_of_scalars(rng):
    p = random_array(rng, (4,), "float32")
    for x in (2.0, 3, 1 + 2j, numpy.float32(0.5)):
        expected = numpy.polyval(p, x)
        check(gpukit.polyval(gpukit.asarray(p), x), numpy.asarray(expected), "float64")
    x = random_array(rng, (5,), "float64")
    check(gpukit.polyval(gpukit.asarray([3.0]), gpukit.asarray(x)), numpy.polyval([3.0], x), "float64")
    with pytest.raises(TypeError, match="0-d"):
        gpukit.polyval(3.0, gpukit.asarray(x))  # NumPy's TypeError: iteration over a 0-d array


# ---- polyfit


def samples(rng, n, dtype, columns=None):
    x = numpy.linspace(-2, 3, n).astype(dtype) if numpy.dtype(dtype).kind != "b" else rng.integers(0, 2, n) > 0
    if numpy.dtype(dtype).kind in "iu":
        x = numpy.arange(n, dtype=dtype)
    shape = (n,) if columns is None else (n, columns)
    y = random_array(rng, shape, "float64")
    return x, y


@pytest.mark.filterwarnings("ignore::numpy.exceptions.RankWarning")  # float16's rcond drops columns, as NumPy's
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128", "int32", "uint8"])
@pytest.mark.parametrize("n, deg", [(1, 0), (7, 3), (25, 5), (4, 3)])
@pytest.mark.parametrize("columns", [None, 3])
def test_polyfit_as_numpy(n, deg, columns, dtype, rng):
    x, y = samples(rng, n, dtype, columns)
    expected = numpy.polyfit(x, y, deg)
    got = gpukit.polyfit(gpukit.asarray(x), gpukit.asarray(y), deg)
    check(got, expected, dtype, scale=100)
    check(numpy.polyfit(gpukit.asarray(x), gpukit.asarray(y), deg), expected, dtype, scale=100)  # dispatched


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("columns", [None, 2])
def test_polyfit_full_weights_and_covariance(columns, dtype, rng):
    x, y = samples(rng, 11, dtype, columns)
    w = rng.uniform(0.5, 2, 11)
    for rcond in (None, 1e-3):
        expected = numpy.polyfit(x, y, 3, rcond=rcond, full=True, w=w)
        got = gpukit.polyfit(gpukit.asarray(x), gpukit.asarray(y), 3, rcond=rcond, full=True, w=gpukit.asarray(w))
        assert len(got) == 5
        for g, e in zip(got[:2], expected[:2], strict=True):
            check(g, e, dtype, scale=100)
        assert got[2] == expected[2]
        check(got[3], expected[3], dtype, scale=100)
        assert got[4] == pytest.approx(expected[4])
    for cov in (True, "unscaled"):
        c_expected, v_expected = numpy.polyfit(x, y, 3, w=w, cov=cov)
        c, v = gpukit.polyfit(gpukit.asarray(x), gpukit.asarray(y), 3, w=gpukit.asarray(w), cov=cov)
        check(c, c_expected, dtype, scale=100)
        check(v, v_expected, dtype, scale=1000)


def test_polyfit_rank_warning_and_errors(rng):
    x = gpukit.asarray(numpy.array([1.0, 1.0, 1.0, 2.0]))
    y = gpukit.asarray(numpy.array([1.0, 2.0, 3.0, 4.0]))
    with pytest.warns(numpy.exceptions.RankWarning, match="Polyfit may be poorly conditioned"):
        gpukit.polyfit(x, y, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert gpukit.polyfit(x, y, 3, full=True)[2] == 2  # full=True: no warning, as NumPy's
    with pytest.raises(ValueError, match="expected deg >= 0"):
        gpukit.polyfit(x, y, -1)
    with pytest.raises(TypeError, match="expected 1D vector for x"):
        gpukit.polyfit(gpukit.ones((2, 2)), y, 1)
    with pytest.raises(TypeError, match="expected non-empty vector for x"):
        gpukit.polyfit(gpukit.ones(0), gpukit.ones(0), 1)
    with pytest.raises(TypeError, match="expected 1D or 2D array for y"):
        gpukit.polyfit(x, gpukit.ones((4, 1, 1)), 1)
    with pytest.raises(TypeError, match="expected x and y to have same length"):
        gpukit.polyfit(x, gpukit.ones(3), 1)
    with pytest.raises(TypeError, match="expected a 1-d array for weights"):
        gpukit.polyfit(x, y, 1, w=gpukit.ones((4, 1)))
    with pytest.raises(TypeError, match="expected w and y to have the same length"):
        gpukit.polyfit(x, y, 1, w=gpukit.ones(3))
    with pytest.raises(ValueError, match="the number of data points must exceed order"):
        gpukit.polyfit(gpukit.asarray(numpy.array([1.0, 2.0, 3.0, 4.0])), y, 3, cov=True)


# ---- polynomial arithmetic: poly, polyadd, polysub, polymul, polydiv, polyder, polyint, roots

ARITHMETIC_DTYPES = ["int8", "int64", "uint8", "float32", "float64", "complex64", "complex128"]


def device_and_host(rng, length, dtype):
    p = random_array(rng, (length,), dtype)
    return gpukit.asarray(p), p


@pytest.mark.parametrize("dtype", ["int16", "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("count", [0, 1, 2, 5])
def test_poly_of_roots_as_numpy(dtype, count, rng):
    device, host = device_and_host(rng, count, dtype)
    expected = numpy.poly(host)
    got = gpukit.poly(device)
    if count == 0:
        assert got == expected == 1.0 and isinstance(got, float)
        return
    check(got, expected, expected.dtype, scale=10)
    check(numpy.poly(device), expected, expected.dtype, scale=10)  # dispatched


def test_poly_of_conjugate_pairs_is_real_and_of_matrices_as_numpy(rng):
    pairs = numpy.array([1 + 2j, 1 - 2j, 0.5, -3j, 3j])
    check(gpukit.poly(gpukit.asarray(pairs)), numpy.poly(pairs), "float64")
    for n in (1, 2, 5):
        matrix = random_array(rng, (n, n), "float64")
        expected = numpy.poly(matrix)
        got = gpukit.poly(gpukit.asarray(matrix))
        assert got.dtype == expected.dtype
        assert_close(got, expected, 1e-9)
    for bad in (numpy.zeros((2, 3)), numpy.zeros((0, 0)), numpy.zeros((2, 2, 2))):
        with pytest.raises(ValueError, match="input must be 1d or non-empty square 2d array."):
            gpukit.poly(gpukit.asarray(bad))


@pytest.mark.parametrize("dtype1", ARITHMETIC_DTYPES)
@pytest.mark.parametrize("dtype2", ["int32", "float64", "complex64"])
@pytest.mark.parametrize("lengths", [(1, 1), (4, 7), (7, 3), (0, 2), (5, 5)])
def test_polyadd_polysub_polymul_as_numpy(dtype1, dtype2, lengths, rng):
    d1, h1 = device_and_host(rng, lengths[0], dtype1)
    d2, h2 = device_and_host(rng, lengths[1], dtype2)
    if h1.size > 2:
        h1[0] = 0  # a leading zero, which polymul drops
        d1 = gpukit.asarray(h1)
    for name in ("polyadd", "polysub", "polymul"):
        if name == "polymul" and 0 in lengths:
            continue  # NumPy's convolve refuses an empty operand: tested with the errors
        with numpy.errstate(all="ignore"):
            expected = getattr(numpy, name)(h1, h2)
        check(getattr(gpukit, name)(d1, d2), expected, expected.dtype, scale=10)
        check(getattr(numpy, name)(d1, d2), expected, expected.dtype, scale=10)


def test_polyadd_takes_numbers_and_views(rng):
    host = random_array(rng, (9,), "float64")
    view = gpukit.asarray(host)[::2]
    check(gpukit.polyadd(view, 3), numpy.polyadd(host[::2], 3), "float64")
    check(gpukit.polymul([1, 2], view), numpy.polymul([1, 2], host[::2]), "float64")
    with pytest.raises(ValueError, match="Polynomial must be 1d only."):
        gpukit.polymul(gpukit.asarray(numpy.ones((2, 2))), view)


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128"])
@pytest.mark.parametrize("lengths", [(1, 1), (6, 3), (3, 6), (9, 2), (4, 4)])
def test_polydiv_as_numpy(dtype, lengths, rng):
    du, hu = device_and_host(rng, lengths[0], dtype)
    dv, hv = device_and_host(rng, lengths[1], dtype)
    if numpy.dtype(dtype).kind in "iu":
        hv[0] = hv[0] or 1
        dv = gpukit.asarray(hv)
    expected_q, expected_r = numpy.polydiv(hu, hv)
    q, r = gpukit.polydiv(du, dv)
    check(q, expected_q, expected_q.dtype, scale=100)
    check(r, expected_r, expected_r.dtype, scale=100)
    q2, r2 = numpy.polydiv(du, dv)
    check(q2, expected_q, expected_q.dtype, scale=100)


def test_polydiv_drops_a_vanishing_remainder_as_numpy():
    u, v = numpy.array([1.0, -3.0, 2.0]), numpy.array([1.0, -1.0])  # (x - 1)(x - 2) / (x - 1): remainder 0
    q, r = gpukit.polydiv(gpukit.asarray(u), gpukit.asarray(v))
    check(q, numpy.polydiv(u, v)[0], "float64")
    check(r, numpy.polydiv(u, v)[1], "float64")


@pytest.mark.parametrize("dtype", ARITHMETIC_DTYPES + ["bool", "float16"])
@pytest.mark.parametrize("length", [0, 1, 2, 7])
@pytest.mark.parametrize("m", [0, 1, 2, 3])
def test_polyder_as_numpy(dtype, length, m, rng):
    device, host = device_and_host(rng, length, dtype)
    expected = numpy.polyder(host, m)
    check(gpukit.polyder(device, m), expected, expected.dtype)
    check(numpy.polyder(device, m), expected, expected.dtype)


@pytest.mark.parametrize("dtype", ARITHMETIC_DTYPES + ["float16"])
@pytest.mark.parametrize("length", [0, 1, 6])
@pytest.mark.parametrize("m, k", [(0, None), (1, None), (2, None), (1, 3.5), (3, 2.0), (2, [1, -2]), (2, [1j, 2, 5])])
def test_polyint_as_numpy(dtype, length, m, k, rng):
    device, host = device_and_host(rng, length, dtype)
    expected = numpy.polyint(host, m, k)
    check(gpukit.polyint(device, m, k), expected, expected.dtype)
    check(numpy.polyint(device, m, k), expected, expected.dtype)


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex128"])
@pytest.mark.parametrize("length", [1, 2, 3, 6])
def test_roots_as_numpy(dtype, length, rng):
    host = random_array(rng, (length,), dtype)
    host[0] = host[0] or 1
    padded = numpy.concatenate([numpy.zeros(2, dtype), host, numpy.zeros(3, dtype)])  # leading and trailing zeros
    for p in (host, padded):
        expected = numpy.sort_complex(numpy.roots(p))
        got = gpukit.roots(gpukit.asarray(p))
        assert got.dtype == numpy.roots(p).dtype
        assert_close(numpy.sort_complex(got.get()), expected, 1e-3 if dtype in ("float32",) else 1e-6)
    assert numpy.roots(gpukit.asarray(host)).shape == numpy.roots(host).shape


def test_roots_of_zeros_and_errors_as_numpy():
    for p in (numpy.zeros(3), numpy.array([5.0]), numpy.array([2, 0, 0])):
        check(gpukit.roots(gpukit.asarray(p)), numpy.roots(p), "float64")
    with pytest.raises(ValueError, match="Input must be a rank-1 array."):
        gpukit.roots(gpukit.asarray(numpy.ones((2, 2))))


def test_polynomial_arithmetic_errors_as_numpy():
    p = gpukit.asarray(numpy.array([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="Order of derivative must be positive"):
        gpukit.polyder(p, -1)
    with pytest.raises(ValueError, match="Order of integral must be positive"):
        gpukit.polyint(p, -1)
    with pytest.raises(ValueError, match="k must be a scalar or a rank-1 array of length 1 or >m."):
        gpukit.polyint(p, 3, [1, 2])
    with pytest.raises(TypeError):
        gpukit.polyder(gpukit.asarray(numpy.array(2.0)))
    with pytest.raises(TypeError):
        gpukit.polysub(gpukit.asarray(numpy.array([True])), gpukit.asarray(numpy.array([False, True])))
