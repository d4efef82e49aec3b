"""gpukit.fft against numpy.fft (src/ops/fft/, the backend's FFT library): every function, every dtype
(bool, integers, float16/32/64, complex64/128), lengths 1, odd, prime, powers of two, n and s padding
and truncation, axes of 2-D and 3-D arrays (repeated ones too), strided, reversed and transposed
inputs, every norm, out=, the frequency helpers and shifts, and NumPy's errors. Tolerances scale with
the dtype's precision and log2 of the length. GPU-only: lengths past a million (cuFFT's Bluestein) and
the message when libcufft is missing."""

import math
import os
import subprocess
import sys

import numpy
import pytest

import gpukit
from conftest import random_array

ONE_AXIS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
MANY_AXES = ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"]
REAL_INPUT = {"rfft", "ihfft", "rfftn", "rfft2"}  # complex input is a TypeError
DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64", "complex64", "complex128"]
NORMS = [None, "backward", "ortho", "forward"]


def nonzero(rng, shape, dtype):
    values = random_array(rng, shape, dtype)
    kind = numpy.dtype(dtype).kind
    if kind == "b":
        return numpy.ones(shape, bool) if values.size and not values.any() else values
    return numpy.where(values == 0, 1, values).astype(dtype)


def inputs_for(name, dtypes):
    return [d for d in dtypes if not (name in REAL_INPUT and d.startswith("complex"))]


def assert_matches(result, expected, length):
    """Same dtype and shape; values within the dtype's precision times log2 of the transform's length."""
    got = gpukit.asnumpy(result)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    eps = {"float16": 2e-3, "float32": 2e-6, "complex64": 2e-6}.get(expected.dtype.name, 1e-14)
    tol = eps * max(1.0, math.log2(max(length, 2)))
    scale = max(1.0, float(numpy.abs(expected).max())) if expected.size else 1.0
    numpy.testing.assert_allclose(got, expected, rtol=tol, atol=tol * scale)


def both(name, x, *args, **kwargs):
    """gpukit's result and NumPy's for the same host array x."""
    return getattr(gpukit.fft, name)(gpukit.asarray(x), *args, **kwargs), getattr(numpy.fft, name)(x, *args, **kwargs)


# ---- one axis


@pytest.mark.parametrize("name", ONE_AXIS)
def test_one_axis_every_dtype(rng, name):
    for dtype in inputs_for(name, DTYPES):
        for length in [2, 7, 16, 97]:
            x = nonzero(rng, length, dtype)
            got, want = both(name, x)
            assert_matches(got, want, length)


@pytest.mark.parametrize("name", ONE_AXIS)
def test_lengths_one_odd_prime_and_powers_of_two(rng, name):
    for length in [1, 3, 5, 8, 12, 31, 64, 127, 210, 256, 1009, 4096, 4099]:
        x = nonzero(rng, length, "float64" if name in REAL_INPUT else "complex128")
        n = None if length > 1 or name not in ("irfft", "hfft") else 1
        got, want = both(name, x, n)
        assert_matches(got, want, length)


@pytest.mark.parametrize("name", ONE_AXIS)
def test_n_pads_and_truncates(rng, name):
    x = nonzero(rng, 16, "float32" if name in REAL_INPUT else "complex64")
    for n in [1, 2, 5, 15, 16, 17, 40]:
        got, want = both(name, x, n)
        assert_matches(got, want, n)


@pytest.mark.parametrize("name", ONE_AXIS)
def test_every_axis_of_3d(rng, name):
    x = nonzero(rng, (4, 5, 6), "float64" if name in REAL_INPUT else "complex128")
    for axis in [0, 1, 2, -1, -2, -3]:
        got, want = both(name, x, None, axis)
        assert_matches(got, want, x.shape[axis])


@pytest.mark.parametrize("name", ONE_AXIS)
def test_every_norm(rng, name):
    x = nonzero(rng, (3, 10), "float64" if name in REAL_INPUT else "complex128")
    for norm in NORMS:
        got, want = both(name, x, 12, 1, norm)
        assert_matches(got, want, 12)


# ---- several axes


@pytest.mark.parametrize("name", MANY_AXES)
def test_many_axes_every_dtype(rng, name):
    for dtype in inputs_for(name, DTYPES):
        x = nonzero(rng, (6, 5), dtype)
        got, want = both(name, x)
        assert_matches(got, want, 30)


# NumPy 2 deprecates s without axes and None in s (still taking them as before); gpukit takes them quietly.
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
def test_s_and_axes_of_3d(rng, name):
    x = nonzero(rng, (4, 6, 5), "float64" if name in REAL_INPUT else "complex128")
    cases = [
        {},
        {"axes": (0,)},
        {"axes": (1, 0)},
        {"axes": (0, 2)},
        {"axes": (2, 0, 1)},
        {"axes": (-1, -3)},
        {"axes": (0, 0)},
        {"axes": (1, 2, 1)},
        {"s": (3, 8)},
        {"s": (7, 2, 4)},
        {"s": (5, 3), "axes": (2, 0)},
        {"s": (None, 8), "axes": (0, 1)},
    ]
    for kwargs in cases:
        got, want = both(name, x, **kwargs)
        assert_matches(got, want, x.size)


@pytest.mark.parametrize("name", MANY_AXES)
def test_many_axes_every_norm(rng, name):
    x = nonzero(rng, (2, 6, 7), "float32" if name in REAL_INPUT else "complex64")
    for norm in NORMS:
        got, want = both(name, x, norm=norm)
        assert_matches(got, want, 42)


@pytest.mark.parametrize("name", ["fft2", "rfft2", "irfft2", "ifft2"])
def test_two_axes_with_s_and_axes(rng, name):
    x = nonzero(rng, (5, 4, 6), "float64" if name in REAL_INPUT else "complex128")
    for kwargs in [{}, {"axes": (0, 2)}, {"axes": (2, 0)}, {"s": (3, 9)}, {"s": (8, 4), "axes": (1, 0)}]:
        got, want = both(name, x, **kwargs)
        assert_matches(got, want, x.size)


# ---- layouts


@pytest.mark.parametrize("name", ONE_AXIS + ["fftn", "rfftn", "irfftn", "ifft2"])
def test_strided_reversed_and_transposed_inputs(rng, name):
    base = nonzero(rng, (9, 12), "float64" if name in REAL_INPUT else "complex128")
    device = gpukit.asarray(base)
    views = [
        (device[::2, ::-1], base[::2, ::-1]),
        (device.T, base.T),
        (device[1:, 3::3], base[1:, 3::3]),
        (device[::-1, ::-2].T, base[::-1, ::-2].T),
    ]
    for view, expected_input in views:
        got = getattr(gpukit.fft, name)(view)
        want = getattr(numpy.fft, name)(expected_input)
        assert_matches(got, want, expected_input.size)


# ---- out=


@pytest.mark.parametrize("name", ["fft", "irfft", "rfft", "fftn", "irfft2"])
def test_out_receives_the_result(rng, name):
    x = nonzero(rng, (4, 8), "float64" if name in REAL_INPUT else "complex128")
    want = getattr(numpy.fft, name)(x)
    out = gpukit.empty(want.shape, want.dtype)
    got = getattr(gpukit.fft, name)(gpukit.asarray(x), out=out)
    assert got is out or gpukit.asnumpy(got).shape == want.shape
    assert_matches(out, want, 32)
    with pytest.raises(ValueError):
        getattr(gpukit.fft, name)(gpukit.asarray(x), out=gpukit.empty((3, 3), want.dtype))


# ---- frequencies and shifts


def test_fftfreq_and_rfftfreq():
    for n in [1, 2, 7, 8, 101]:
        for d in [1.0, 0.25, 3]:
            for name in ["fftfreq", "rfftfreq"]:
                got = getattr(gpukit.fft, name)(n, d)
                want = getattr(numpy.fft, name)(n, d)
                assert gpukit.asnumpy(got).dtype == want.dtype
                numpy.testing.assert_allclose(gpukit.asnumpy(got), want, rtol=1e-15)
    assert gpukit.fft.fftfreq(4, device=gpukit.get_device()).shape == (4,)
    assert gpukit.fft.rfftfreq(4, 1.0, gpukit.get_device()).shape == (3,)
    for n, d in [(0, 1.0), (4, 0.0)]:  # 1 / (n d), as NumPy's
        with pytest.raises(ZeroDivisionError):
            gpukit.fft.fftfreq(n, d)
    with pytest.raises(ValueError, match="negative dimensions"):
        gpukit.fft.rfftfreq(-3)


def test_fftshift_and_ifftshift(rng):
    x = nonzero(rng, (5, 6, 3), "float32")
    for axes in [None, 0, 1, (0, 2), (-1,), (2, 0, 1)]:
        for name in ["fftshift", "ifftshift"]:
            got = getattr(gpukit.fft, name)(gpukit.asarray(x), axes)
            numpy.testing.assert_array_equal(gpukit.asnumpy(got), getattr(numpy.fft, name)(x, axes))


# ---- errors


def test_bad_lengths_are_numpys_value_error(rng):
    x = gpukit.asarray(nonzero(rng, 4, "complex128"))
    for name in ONE_AXIS:
        for n in [0, -3]:
            with pytest.raises(ValueError, match=rf"Invalid number of FFT data points \({n}\) specified."):
                getattr(gpukit.fft, name)(x, n)
        # An empty axis: irfft's and hfft's default length 2 (m - 1) is -2 there.
        empty_length = -2 if name in ("irfft", "hfft") else 0
        with pytest.raises(ValueError, match=rf"Invalid number of FFT data points \({empty_length}\) specified."):
            getattr(gpukit.fft, name)(gpukit.empty(0, "float64" if name in REAL_INPUT else "complex128"))
    for name in ["irfft", "hfft"]:  # one input: the default length 2 (m - 1) is 0
        with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(0\)"):
            getattr(gpukit.fft, name)(gpukit.asarray(numpy.ones(1, complex)))
    with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(0\)"):
        gpukit.fft.fftn(gpukit.asarray(numpy.ones((3, 3))), s=(2, 0))


def test_bad_norm_axes_and_dtype():
    x = gpukit.asarray(numpy.ones((3, 4)))
    with pytest.raises(ValueError, match='Invalid norm value sideways; should be "backward","ortho" or "forward".'):
        gpukit.fft.fft(x, norm="sideways")
    with pytest.raises(IndexError):
        gpukit.fft.fft(x, axis=2)
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.fft.fftn(x, axes=(0, 5))
    with pytest.raises(ValueError, match="Shape and axes have different lengths."):
        gpukit.fft.fftn(x, s=(2,), axes=(0, 1))
    with pytest.raises(TypeError):
        gpukit.fft.rfft(gpukit.asarray(numpy.ones(4, complex)))
    with pytest.raises(TypeError):
        gpukit.fft.fft(numpy.ones(4))  # host arrays go through gpukit.asarray first


def test_zero_d_and_empty_batches():
    scalar = numpy.array(2.5)
    for name in ["fftn", "ifftn"]:  # no axis to transform: NumPy gives the input back
        got, want = both(name, scalar)
        assert_matches(got, want, 1)
    for name in ["rfftn", "irfftn"]:
        with pytest.raises(IndexError):
            getattr(gpukit.fft, name)(gpukit.asarray(scalar))
    empty_rows = numpy.ones((0, 4))
    got, want = both("fft", empty_rows)
    assert_matches(got, want, 4)
    got, want = both("rfft2", numpy.ones((3, 0, 4)), axes=(0, 2))
    assert_matches(got, want, 12)


# ---- GPU only


@pytest.mark.needs_gpu
@pytest.mark.parametrize("length", [1000003, 1 << 20, 3 * 5 * 7 * 11 * 13 * 17])
def test_large_and_prime_lengths_on_the_gpu(rng, length):
    x = nonzero(rng, length, "complex64")
    got, want = both("fft", x)
    assert_matches(got, want, length)
    real = nonzero(rng, length, "float64")
    got, want = both("rfft", real)
    assert_matches(got, want, length)
    got, want = both("irfft", want, length)
    assert_matches(got, want, length)


@pytest.mark.needs_gpu
def test_plans_are_reused_across_shapes_and_streams(rng):
    x = nonzero(rng, (8, 64), "complex64")
    stream = gpukit.Stream()
    with stream:
        for _ in range(20):  # more shapes than the plan cache keeps
            for n in range(60, 80):
                got, want = both("fft", x, n)
        stream.synchronize()
    assert_matches(got, want, 79)


@pytest.mark.needs_gpu
def test_missing_cufft_says_how_to_install_it():
    program = (
        "import gpukit, numpy\n"
        "try:\n"
        "    gpukit.fft.fft(gpukit.asarray(numpy.ones(8, complex)))\n"
        "except gpukit.BackendUnavailableError as e:\n"
        "    print(e)\n"
    )
    env = dict(os.environ, GPUKIT_CUFFT="/nonexistent/libcufft.so.12")
    result = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=120)
    assert "libcufft" in result.stdout, result.stdout + result.stderr
    assert "/nonexistent/libcufft.so.12" in result.stdout
    assert "pip install nvidia-cufft-cu13" in result.stdout
