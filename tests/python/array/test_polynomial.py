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
