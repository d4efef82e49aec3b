"""gpukit.signal.fftconvolve and method='fft' of gpukit.signal.convolve / correlate against SciPy's
(src/ops/convolution/fftconvolve.cpp over gpukit.fft): every mode, 1-D to 3-D, axes (with
broadcasting along the others), operands larger either way in 'valid' mode, real and complex
dtypes, integers rounded back to their dtype, strided inputs, and SciPy's errors."""

import numpy
import pytest
import scipy.signal

import gpukit
from conftest import random_array

MODES = ["full", "same", "valid"]


def nonzero(rng, shape, dtype):
    values = random_array(rng, shape, dtype)
    if numpy.dtype(dtype).kind == "b":
        return numpy.ones(shape, bool) if values.size and not values.any() else values
    return numpy.where(values == 0, 1, values).astype(dtype)


def assert_matches(result, expected, single=False):
    """Equal integers and bools; floats within the precision of the operands (`single`: one of them
    is float32 or complex64, whose spectrum is single precision even where the result is double)."""
    got = gpukit.asnumpy(result)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if expected.dtype.kind in "biu":
        numpy.testing.assert_array_equal(got, expected)
        return
    tol = 1e-5 if single or expected.dtype in (numpy.float32, numpy.complex64) else 1e-11
    scale = max(1.0, float(numpy.abs(expected).max())) if expected.size else 1.0
    numpy.testing.assert_allclose(got, expected, rtol=tol, atol=tol * scale)


@pytest.mark.parametrize("mode", MODES)
def test_fftconvolve_shapes_and_modes(rng, mode):
    for s1, s2 in [((1,), (1,)), ((9,), (4,)), ((4,), (9,)), ((30,), (7,)), ((6, 7), (3, 2)), ((3, 2), (6, 7)),
                   ((5, 4, 6), (2, 3, 2)), ((17, 8), (17, 8))]:
        in1, in2 = nonzero(rng, s1, "float64"), nonzero(rng, s2, "float64")
        expected = scipy.signal.fftconvolve(in1, in2, mode)
        assert_matches(gpukit.signal.fftconvolve(gpukit.asarray(in1), gpukit.asarray(in2), mode), expected)


@pytest.mark.parametrize("dtype", ["int16", "float32", "float64", "complex64", "complex128"])
def test_fftconvolve_dtypes(rng, dtype):
    in1, in2 = nonzero(rng, (8, 11), dtype), nonzero(rng, (3, 4), dtype)
    for mode in MODES:
        expected = scipy.signal.fftconvolve(in1, in2, mode)
        assert_matches(gpukit.signal.fftconvolve(gpukit.asarray(in1), gpukit.asarray(in2), mode), expected)
    # Mixed: real with complex.
    other = nonzero(rng, (3, 4), "complex128")
    assert_matches(gpukit.signal.fftconvolve(gpukit.asarray(in1), gpukit.asarray(other)),
                   scipy.signal.fftconvolve(in1, other), single=dtype in ("float32", "complex64"))


def test_fftconvolve_axes_broadcast_the_others(rng):
    in1 = nonzero(rng, (4, 10, 3), "float64")
    cases = [((1, 5, 3), (1,)), ((4, 6, 1), (1,)), ((1, 3, 2), (1, 2)), ((4, 2, 3), (-2,)), ((4, 10, 3), None)]
    for shape2, axes in cases:
        in2 = nonzero(rng, shape2, "float64")
        for mode in MODES:
            expected = scipy.signal.fftconvolve(in1, in2, mode, axes)
            got = gpukit.signal.fftconvolve(gpukit.asarray(in1), gpukit.asarray(in2), mode, axes)
            assert_matches(got, expected)


def test_fftconvolve_strided_inputs(rng):
    big = nonzero(rng, (12, 14), "float64")
    in2 = nonzero(rng, (3, 3), "complex128")
    device = gpukit.asarray(big)
    for view, host in [(device[::2, ::-3], big[::2, ::-3]), (device.T, big.T)]:
        assert_matches(gpukit.signal.fftconvolve(view, gpukit.asarray(in2), "same"),
                       scipy.signal.fftconvolve(host, in2, "same"))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int32", "int64", "float32", "float64", "complex64",
                                   "complex128"])
def test_convolve_and_correlate_method_fft(rng, dtype):
    for s1, s2 in [((10,), (3,)), ((3,), (10,)), ((7, 6), (3, 4)), ((3, 4), (7, 6)), ((4, 5, 3), (2, 2, 2))]:
        in1, in2 = nonzero(rng, s1, dtype), nonzero(rng, s2, dtype)
        for mode in MODES:
            a, b = gpukit.asarray(in1), gpukit.asarray(in2)
            if dtype == "bool":
                # SciPy casts its FFT's unrounded sums to bool (a zero sum's rounding error decides
                # its truth); gpukit rounds them as it rounds integers: the exact sums' truth.
                for name in ["convolve", "correlate"]:
                    exact = getattr(scipy.signal, name)(in1.astype(int), in2.astype(int), mode, method="direct")
                    assert_matches(getattr(gpukit.signal, name)(a, b, mode, method="fft"), exact.astype(bool))
                continue
            assert_matches(gpukit.signal.convolve(a, b, mode, method="fft"),
                           scipy.signal.convolve(in1, in2, mode, method="fft"))
            assert_matches(gpukit.signal.correlate(a, b, mode, method="fft"),
                           scipy.signal.correlate(in1, in2, mode, method="fft"))


def test_scalars_and_empty_operands(rng):
    a, b = numpy.float64(2.5), numpy.float64(-1.5)
    got = gpukit.signal.fftconvolve(gpukit.asarray(numpy.array(a)), gpukit.asarray(numpy.array(b)))
    assert float(gpukit.asnumpy(got)) == a * b
    empty = gpukit.signal.fftconvolve(gpukit.asarray(numpy.ones(0)), gpukit.asarray(numpy.ones(3)))
    assert gpukit.asnumpy(empty).shape == (0,)


def test_errors_are_scipys(rng):
    a = gpukit.asarray(nonzero(rng, (4, 5), "float64"))
    with pytest.raises(ValueError, match="same dimensionality"):
        gpukit.signal.fftconvolve(a, gpukit.asarray(numpy.ones(3)))
    with pytest.raises(ValueError, match="one must be at least as large as the other"):
        gpukit.signal.fftconvolve(a, gpukit.asarray(numpy.ones((2, 7))), "valid")
    with pytest.raises(ValueError, match="incompatible shapes for in1 and in2"):
        gpukit.signal.fftconvolve(a, gpukit.asarray(numpy.ones((3, 2))), axes=(1,))
    with pytest.raises(ValueError, match="all axes must be unique"):
        gpukit.signal.fftconvolve(a, a, axes=(0, 0))
    with pytest.raises(ValueError, match="axes cannot be empty"):
        gpukit.signal.fftconvolve(a, a, axes=())
    with pytest.raises(ValueError, match="mode must be one of"):
        gpukit.signal.fftconvolve(a, a, "circular")
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.signal.fftconvolve(a, a, axes=(2,))
    with pytest.raises(ValueError, match="Acceptable method flags"):
        gpukit.signal.correlate(a, a, method="overlap")


# ---- method='auto': choose_conv_method's measured model

@pytest.mark.parametrize(("shape1", "shape2", "dtype", "expected"), [
    ((1 << 20,), (15,), "float32", "direct"),
    ((1 << 20,), (4095,), "float32", "fft"),
    ((4096,), (4095,), "float64", "fft"),
    ((4096,), (63,), "float64", "direct"),
    ((1024, 1024), (5, 5), "float32", "direct"),
    ((1024, 1024), (63, 63), "float32", "fft"),
    ((1 << 20,), (4095,), "int32", "direct"),
    ((300,), (200,), "bool", "direct"),
    ((1 << 20,), (4095,), "complex64", "fft"),
], ids=str)
def test_choose_conv_method_picks_by_size_and_keeps_integers_exact(shape1, shape2, dtype, expected):
    a, b = gpukit.empty(shape1, dtype=dtype), gpukit.empty(shape2, dtype=dtype)
    assert gpukit.signal.choose_conv_method(a, b) == expected
    assert gpukit.signal.choose_conv_method(b, a, mode="valid") == expected


@pytest.mark.parametrize("taps", [7, 2049])
@pytest.mark.parametrize("function", ["convolve", "correlate"])
def test_auto_gives_scipys_result_either_way(rng, taps, function):
    x, k = random_array(rng, 30001, "float64"), random_array(rng, taps, "float64")
    expected = getattr(scipy.signal, function)(x, k, mode="same")
    result = getattr(gpukit.signal, function)(gpukit.asarray(x), gpukit.asarray(k), mode="same", method="auto")
    numpy.testing.assert_allclose(gpukit.asnumpy(result), expected, rtol=1e-9, atol=1e-9 * numpy.abs(expected).max())
