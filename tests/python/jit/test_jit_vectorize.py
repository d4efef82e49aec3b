"""gpukit.vectorize: scalar Python functions as elementwise operations (Numba's @vectorize), against NumPy."""

import math

import numpy
import pytest

import gpukit
from gpukit import cuda
from gpukit.cuda import float32, float64, int64

RNG = numpy.random.default_rng(16)


@gpukit.vectorize([float32(float32, float32, float32), float64(float64, float64, float64)], target="cuda")
def saxpy(a, x, y):
    return a * x + y


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [0, 1, 1025])
def test_the_course_saxpy_with_signatures(dtype, n):
    x = RNG.random(n).astype(dtype)
    y = RNG.random(n).astype(dtype)
    a = numpy.dtype(dtype).type(2.5)
    result = saxpy(a, gpukit.asarray(x), gpukit.asarray(y))
    assert result.dtype == dtype
    numpy.testing.assert_allclose(result.get(), a * x + y, rtol=1e-6)


def test_inputs_broadcast_and_out_is_written():
    x = RNG.random((4, 1), dtype=numpy.float32)
    y = RNG.random(5, dtype=numpy.float32)
    out = gpukit.empty((4, 5), numpy.float32)
    assert saxpy(numpy.float32(2), gpukit.asarray(x), gpukit.asarray(y), out=out) is out
    numpy.testing.assert_allclose(out.get(), 2 * x + y, rtol=1e-6)
    host_out = numpy.empty((4, 5), numpy.float32)
    assert saxpy(numpy.float32(2), x, y, out=host_out) is host_out  # NumPy arrays in and out, as Numba's
    numpy.testing.assert_allclose(host_out, 2 * x + y, rtol=1e-6)
    # Numba's stream 0 is the default stream
    numpy.testing.assert_allclose(saxpy(numpy.float32(2), gpukit.asarray(x), gpukit.asarray(y), stream=0).get(),
                                  2 * x + y, rtol=1e-6)


@gpukit.vectorize(["float64(float64, int64)"])
def branchy(x, k):
    if x < 0.5:
        return math.sqrt(x) * k
    total = 0.0
    for i in range(k):
        total += x / (i + 1)
    return total


def test_string_signatures_branches_and_loops():
    x = RNG.random(300)
    k = RNG.integers(1, 6, 300)
    got = branchy(gpukit.asarray(x), gpukit.asarray(k)).get()
    want = [math.sqrt(v) * n if v < 0.5 else sum(v / (i + 1) for i in range(n)) for v, n in zip(x, k)]
    numpy.testing.assert_allclose(got, want, rtol=1e-12)


@gpukit.vectorize
def hypotenuse(a, b):
    return math.sqrt(a * a + b * b)


def test_without_signatures_types_come_from_the_inputs():
    a = RNG.random(50, dtype=numpy.float32)
    b = RNG.random(50, dtype=numpy.float32)
    result = hypotenuse(gpukit.asarray(a), gpukit.asarray(b))
    assert result.dtype == numpy.float32
    numpy.testing.assert_allclose(result.get(), numpy.hypot(a, b), rtol=1e-6)


def test_integer_signatures_and_casting_inputs():
    @gpukit.vectorize([int64(int64, int64)])
    def floor_mod(a, b):
        return a % b

    a = RNG.integers(-50, 50, 100)
    b = RNG.integers(1, 7, 100) * RNG.choice([-1, 1], 100)
    numpy.testing.assert_array_equal(floor_mod(gpukit.asarray(a.astype(numpy.int32)), gpukit.asarray(b)).get(),
                                     a % b)


def test_bad_signatures_and_arguments():
    with pytest.raises(ValueError, match="reads 'float32\\(float32, float32\\)'"):
        gpukit.vectorize(["float32 float32"])
    with pytest.raises(ValueError, match="target .cuda. \\(the current device\\)"):
        gpukit.vectorize(["float32(float32)"], target="cpu")
    with pytest.raises(TypeError, match="takes 3 arguments, not 2"):
        saxpy(1.0, gpukit.zeros(3))
    with pytest.raises(TypeError, match="no signature takes"):
        saxpy(gpukit.zeros(3, numpy.complex64), gpukit.zeros(3), gpukit.zeros(3))
    assert cuda.vectorize is gpukit.vectorize
