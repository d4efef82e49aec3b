"""convolve and correlate (NumPy's), gpukit.signal and gpukit.ndimage against NumPy and SciPy
(src/ops/convolution/): every dtype they take, sizes 1, odd and even, kernels longer than the
input, every mode and boundary, cval, origin (even sizes too), axis, strided and transposed
inputs, sigma, order, truncate and radius, and the errors NumPy and SciPy raise."""

import numpy
import pytest
import scipy.ndimage
import scipy.signal

import gpukit
from conftest import random_array

REAL_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"]
NUMERIC_DTYPES = REAL_DTYPES[1:] + ["complex64", "complex128"]
NDIMAGE_MODES = ["reflect", "constant", "nearest", "mirror", "wrap"]


def host(array):
    return gpukit.asnumpy(array)


def nonzero_array(rng, shape, dtype):
    """random_array without zeros: unsigned values from 1, signed ones away from 0."""
    values = random_array(rng, shape, dtype)
    kind = numpy.dtype(dtype).kind
    if kind == "b":
        return numpy.ones(shape, bool) if values.size and not values.any() else values
    if kind in "iu":
        return numpy.where(values == 0, 1, values).astype(dtype)
    return numpy.where(values == 0, 0.5, values).astype(dtype)


def tolerance(dtype):
    return {"float16": 2e-2, "float32": 2e-5, "complex64": 2e-5}.get(numpy.dtype(dtype).name, 1e-11)


def assert_matches(result, expected, rtol=None):
    """The same dtype and shape, equal integers, close floats."""
    got = host(result)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if expected.dtype.kind in "biu":
        numpy.testing.assert_array_equal(got, expected)
    else:
        tol = rtol if rtol is not None else tolerance(expected.dtype)
        scale = max(1.0, float(numpy.abs(expected).max())) if expected.size else 1.0
        numpy.testing.assert_allclose(got, expected, rtol=tol, atol=tol * scale)


# ---- numpy.convolve and numpy.correlate

@pytest.mark.parametrize("dtype", REAL_DTYPES + ["complex64", "complex128"])
def test_numpy_convolve_and_correlate_every_dtype_and_mode(rng, dtype):
    for n, k in [(1, 1), (9, 4), (4, 9), (7, 7), (30, 5)]:
        a, v = nonzero_array(rng, n, dtype), nonzero_array(rng, k, dtype)
        for mode in ["full", "same", "valid"]:
            assert_matches(gpukit.convolve(gpukit.asarray(a), gpukit.asarray(v), mode), numpy.convolve(a, v, mode))
            assert_matches(gpukit.correlate(gpukit.asarray(a), gpukit.asarray(v), mode), numpy.correlate(a, v, mode))


def test_numpy_convolve_defaults_promotion_and_views(rng):
    a, v = nonzero_array(rng, 41, "int16"), nonzero_array(rng, 6, "float32")
    assert_matches(gpukit.convolve(gpukit.asarray(a), gpukit.asarray(v)), numpy.convolve(a, v))
    assert_matches(gpukit.correlate(gpukit.asarray(a), gpukit.asarray(v)), numpy.correlate(a, v))
    # Reversed and strided views read element by element.
    big = nonzero_array(rng, 60, "float64")
    device = gpukit.asarray(big)
    assert_matches(gpukit.convolve(device[::-3], device[5:12]), numpy.convolve(big[::-3], big[5:12]))
    assert_matches(gpukit.correlate(device[1::2], device[::-7], "same"), numpy.correlate(big[1::2], big[::-7], "same"))


def test_numpy_errors():
    one = gpukit.asarray(numpy.ones(3))
    empty = gpukit.asarray(numpy.ones(0))
    with pytest.raises(ValueError, match="a cannot be empty"):
        gpukit.convolve(empty, one)
    with pytest.raises(ValueError, match="v cannot be empty"):
        gpukit.convolve(one, empty)
    with pytest.raises(ValueError, match="second array argument cannot be empty"):
        gpukit.correlate(one, empty)
    with pytest.raises(ValueError, match="object too deep"):
        gpukit.convolve(gpukit.asarray(numpy.ones((2, 2))), one)
    with pytest.raises(ValueError, match="mode must be one of"):
        gpukit.convolve(one, one, "middle")


# ---- scipy.signal

SIGNAL_SHAPES = [((9,), (4,)), ((3,), (8,)), ((6, 7), (3, 2)), ((5, 5), (4, 4)), ((3, 2), (6, 7)),
                 ((4, 3, 5), (2, 3, 2))]


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint8", "uint64", "float32", "float64", "complex64", "complex128"])
def test_signal_convolve_and_correlate_as_scipy(rng, dtype):
    for s1, s2 in SIGNAL_SHAPES:
        in1, in2 = nonzero_array(rng, s1, dtype), nonzero_array(rng, s2, dtype)
        d1, d2 = gpukit.asarray(in1), gpukit.asarray(in2)
        for mode in ["full", "same", "valid"]:
            if mode == "valid" and not (all(numpy.greater_equal(s1, s2)) or all(numpy.less_equal(s1, s2))):
                continue
            assert_matches(gpukit.signal.convolve(d1, d2, mode),
                           scipy.signal.convolve(in1, in2, mode, method="direct"))
            assert_matches(gpukit.signal.correlate(d1, d2, mode, method="direct"),
                           scipy.signal.correlate(in1, in2, mode, method="direct"))


def test_signal_scalars_multiply(rng):
    a, b = numpy.float32(1.5), numpy.float32(-2.0)
    assert_matches(gpukit.signal.convolve(gpukit.asarray(a), gpukit.asarray(b)), scipy.signal.convolve(a, b))


def test_signal_mixed_dtypes_and_transposed_inputs(rng):
    in1 = nonzero_array(rng, (12, 9), "float32")
    in2 = nonzero_array(rng, (3, 4), "int16")
    expected = scipy.signal.convolve(in1.T, in2, method="direct")
    assert_matches(gpukit.signal.convolve(gpukit.asarray(in1).T, gpukit.asarray(in2)), expected)
    big = nonzero_array(rng, (20, 20), "complex128")
    view = gpukit.asarray(big)[::2, ::-3]
    assert_matches(gpukit.signal.correlate(view, gpukit.asarray(in2), "same"),
                   scipy.signal.correlate(big[::2, ::-3], in2, "same", method="direct"))


@pytest.mark.parametrize("dtype", ["int16", "uint8", "float32", "float64", "complex128"])
def test_convolve2d_and_correlate2d_every_mode_and_boundary(rng, dtype):
    for s1, s2 in [((6, 7), (3, 2)), ((8, 5), (4, 4)), ((3, 2), (6, 7)), ((2, 3), (5, 8)), ((1, 1), (1, 1))]:
        in1, in2 = nonzero_array(rng, s1, dtype), nonzero_array(rng, s2, dtype)
        d1, d2 = gpukit.asarray(in1), gpukit.asarray(in2)
        fill = 2 if numpy.dtype(dtype).kind in "iu" else 0.5
        for mode in ["full", "same", "valid"]:
            for boundary in ["fill", "wrap", "symm"]:
                assert_matches(gpukit.signal.convolve2d(d1, d2, mode, boundary, fill),
                               scipy.signal.convolve2d(in1, in2, mode, boundary, fill))
                assert_matches(gpukit.signal.correlate2d(d1, d2, mode, boundary, fill),
                               scipy.signal.correlate2d(in1, in2, mode, boundary, fill))


def test_convolve2d_boundary_aliases(rng):
    in1, in2 = nonzero_array(rng, (5, 6), "float64"), nonzero_array(rng, (3, 3), "float64")
    for boundary in ["circular", "symmetric"]:
        assert_matches(gpukit.signal.convolve2d(gpukit.asarray(in1), gpukit.asarray(in2), "same", boundary),
                       scipy.signal.convolve2d(in1, in2, "same", boundary))


def test_signal_errors():
    a = gpukit.asarray(numpy.ones((2, 3)))
    b = gpukit.asarray(numpy.ones((3, 2)))
    with pytest.raises(ValueError, match="one must be at least as large as the other"):
        gpukit.signal.convolve(a, b, "valid")
    with pytest.raises(ValueError, match="one must be at least as large as the other"):
        gpukit.signal.correlate2d(a, b, "valid")
    with pytest.raises(ValueError, match="same dimensionality"):
        gpukit.signal.convolve(a, gpukit.asarray(numpy.ones(3)))
    with pytest.raises(ValueError, match="must both be 2-D"):
        gpukit.signal.convolve2d(gpukit.asarray(numpy.ones(3)), gpukit.asarray(numpy.ones(3)))
    with pytest.raises(ValueError, match="Acceptable boundary flags"):
        gpukit.signal.convolve2d(a, a, boundary="zero")
    with pytest.raises(ValueError, match="Acceptable method flags"):
        gpukit.signal.convolve(a, a, method="overlap")


# ---- scipy.ndimage

NDIMAGE_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
                  "float64", "complex64", "complex128"]


def positive_weights(rng, shape):
    """Positive weights: integer outputs then truncate values SciPy's C casts define too."""
    return rng.uniform(0.1, 1.0, size=shape)


@pytest.mark.parametrize("dtype", NDIMAGE_DTYPES)
def test_ndimage_correlate_and_convolve_every_dtype(rng, dtype):
    x = nonzero_array(rng, (9, 8), dtype)
    if numpy.dtype(dtype).kind in "iu":
        x = numpy.abs(x).astype(dtype)
    weights = positive_weights(rng, (3, 4))
    for mode in NDIMAGE_MODES:
        for function in ["correlate", "convolve"]:
            expected = getattr(scipy.ndimage, function)(x, weights, mode=mode, cval=1.25)
            assert_matches(getattr(gpukit.ndimage, function)(gpukit.asarray(x), weights, mode=mode, cval=1.25),
                           expected)


@pytest.mark.parametrize("mode", NDIMAGE_MODES + ["grid-mirror", "grid-constant", "grid-wrap"])
def test_ndimage_modes_origins_and_long_kernels(rng, mode):
    shapes = [((7, 6), (3, 3)), ((5, 9), (2, 4)), ((3, 2), (7, 5)), ((1, 4), (1, 3)), ((2, 3, 4), (3, 2, 2))]
    for shape, wshape in shapes:
        x = nonzero_array(rng, shape, "float64")
        weights = nonzero_array(rng, wshape, "float64")
        for origin in [0, -1, 1, tuple(-(n // 2) for n in wshape), tuple((n - 1) // 2 for n in wshape)]:
            for function in ["correlate", "convolve"]:
                try:
                    expected = getattr(scipy.ndimage, function)(x, weights, mode=mode, cval=-0.75, origin=origin)
                except ValueError:
                    with pytest.raises(ValueError, match="Invalid origin"):
                        getattr(gpukit.ndimage, function)(gpukit.asarray(x), weights, mode=mode, cval=-0.75,
                                                          origin=origin)
                    continue
                got = getattr(gpukit.ndimage, function)(gpukit.asarray(x), weights, mode=mode, cval=-0.75,
                                                        origin=origin)
                assert_matches(got, expected)


def test_ndimage_complex_weights_views_and_output(rng):
    x = nonzero_array(rng, (10, 12), "float32")
    weights = nonzero_array(rng, (3, 3), "complex128")
    for function in ["correlate", "convolve"]:
        assert_matches(getattr(gpukit.ndimage, function)(gpukit.asarray(x), weights),
                       getattr(scipy.ndimage, function)(x, weights))
    line = nonzero_array(rng, 4, "complex64")
    for function in ["correlate1d", "convolve1d"]:
        assert_matches(getattr(gpukit.ndimage, function)(gpukit.asarray(x), line, axis=0),
                       getattr(scipy.ndimage, function)(x, line, axis=0))
    # Transposed and strided inputs; output= a dtype or an array written into.
    device = gpukit.asarray(x)
    real = nonzero_array(rng, (2, 3), "float64")
    assert_matches(gpukit.ndimage.correlate(device.T, real), scipy.ndimage.correlate(x.T, real))
    assert_matches(gpukit.ndimage.correlate(device[::-2, 1::3], real, mode="wrap"),
                   scipy.ndimage.correlate(x[::-2, 1::3], real, mode="wrap"))
    assert_matches(gpukit.ndimage.correlate(device, real, output=numpy.float64),
                   scipy.ndimage.correlate(x, real, output=numpy.float64))
    out = gpukit.empty((10, 12), numpy.int16)
    result = gpukit.ndimage.convolve(device * 50, real, output=out)
    assert result.dtype == numpy.int16
    assert_matches(out, scipy.ndimage.convolve(x * 50, real, output=numpy.int16))


@pytest.mark.parametrize("size", [0, 1, 5])
def test_ndimage_sizes(rng, size):
    x = nonzero_array(rng, (size, 3), "float64")
    weights = nonzero_array(rng, (2, 3), "float64")
    assert_matches(gpukit.ndimage.correlate(gpukit.asarray(x), weights), scipy.ndimage.correlate(x, weights))
    assert_matches(gpukit.ndimage.uniform_filter(gpukit.asarray(x), 2), scipy.ndimage.uniform_filter(x, 2))


def test_ndimage_correlate1d_and_convolve1d_axes_and_origins(rng):
    x = nonzero_array(rng, (6, 7, 40), "float32")
    device = gpukit.asarray(x)
    for taps in [1, 4, 5, 31]:
        weights = nonzero_array(rng, taps, "float64")
        for axis in [0, 1, -1]:
            for origin in sorted({0, -(taps // 2), (taps - 1) // 2}):
                for mode in ["reflect", "constant", "wrap"]:
                    for function in ["correlate1d", "convolve1d"]:
                        expected = getattr(scipy.ndimage, function)(x, weights, axis, mode=mode, cval=0.5,
                                                                    origin=origin)
                        got = getattr(gpukit.ndimage, function)(device, weights, axis, mode=mode, cval=0.5,
                                                                origin=origin)
                        assert_matches(got, expected)


@pytest.mark.parametrize("dtype", ["uint8", "int16", "float32", "float64", "complex64"])
def test_uniform_filter_as_scipy(rng, dtype):
    x = nonzero_array(rng, (11, 13), dtype)
    if numpy.dtype(dtype).kind in "iu":
        x = numpy.abs(x).astype(dtype)
    device = gpukit.asarray(x)
    for size, origin, mode in [(3, 0, "reflect"), ((2, 5), (0, 1), "nearest"), ((4, 1), (-2, 0), ["wrap", "mirror"]),
                               (6, -1, "constant")]:
        assert_matches(gpukit.ndimage.uniform_filter(device, size, mode=mode, cval=3, origin=origin),
                       scipy.ndimage.uniform_filter(x, size, mode=mode, cval=3, origin=origin))


@pytest.mark.parametrize("dtype", ["uint8", "int32", "float32", "float64"])
def test_gaussian_filter_as_scipy(rng, dtype):
    x = nonzero_array(rng, (12, 10), dtype)
    if numpy.dtype(dtype).kind in "iu":
        x = (numpy.abs(x) * 2).astype(dtype)
    device = gpukit.asarray(x)
    orders = [0, 1, 2, 3] if dtype == "float64" else [0]
    for sigma in [0.8, (2.0, 0.5), (0, 1.5)]:
        for order in orders:
            for truncate, mode in [(4.0, "reflect"), (2.5, ["nearest", "constant"])]:
                assert_matches(gpukit.ndimage.gaussian_filter(device, sigma, order, mode=mode, truncate=truncate),
                               scipy.ndimage.gaussian_filter(x, sigma, order, mode=mode, truncate=truncate))
    assert_matches(gpukit.ndimage.gaussian_filter(device, 1.2, (1, 0), radius=(2, 5)),
                   scipy.ndimage.gaussian_filter(x, 1.2, (1, 0), radius=(2, 5)))
    assert_matches(gpukit.ndimage.gaussian_filter1d(device, 1.7, axis=0, order=2),
                   scipy.ndimage.gaussian_filter1d(x, 1.7, axis=0, order=2))


def test_ndimage_errors():
    x = gpukit.asarray(numpy.ones((4, 4)))
    for function in [lambda: gpukit.ndimage.correlate(x, numpy.ones((3, 3)), mode="reflective"),
                     lambda: gpukit.ndimage.uniform_filter(x, 3, mode="clamp")]:
        # SciPy raises RuntimeError; the issue asks for a ValueError naming the modes: both.
        with pytest.raises(RuntimeError, match="boundary mode not supported"):
            function()
        with pytest.raises(ValueError, match="'reflect', 'constant', 'nearest', 'mirror', 'wrap'"):
            function()
    with pytest.raises(ValueError, match="Invalid origin"):
        gpukit.ndimage.correlate(x, numpy.ones((3, 3)), origin=2)
    with pytest.raises(ValueError, match="Invalid origin"):
        gpukit.ndimage.correlate1d(x, numpy.ones(4), origin=-3)
    with pytest.raises(RuntimeError, match="weights.ndim"):
        gpukit.ndimage.correlate(x, numpy.ones(3))
    with pytest.raises(RuntimeError, match="no filter weights given"):
        gpukit.ndimage.correlate1d(x, numpy.ones(0))
    with pytest.raises(RuntimeError, match="A sequence of modes is not supported"):
        gpukit.ndimage.correlate(x, numpy.ones((3, 3)), mode=["reflect", "wrap"])
    with pytest.raises(ValueError, match="complex-valued cval"):
        gpukit.ndimage.correlate(x, numpy.ones((3, 3)), mode="constant", cval=1j)
    with pytest.raises(ValueError, match="order must be non-negative"):
        gpukit.ndimage.gaussian_filter(x, 1.0, order=-1)
    with pytest.raises(ValueError, match="Radius must be a nonnegative integer"):
        gpukit.ndimage.gaussian_filter1d(x, 1.0, radius=-2)
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.ndimage.correlate1d(x, numpy.ones(3), axis=2)
