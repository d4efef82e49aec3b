"""complex64 and complex128 in Python kernels: arithmetic (NumPy's division), .real/.imag,
conjugate, abs, cmath's and numpy's functions, literals such as 1j, in kernels and vectorize,
against NumPy; and what complex numbers cannot do (ordering, atomics, math.*), refused by name."""

import cmath

import numpy
import pytest

import gpukit
from gpukit import cuda

RNG = numpy.random.default_rng(1519)


def random_complex(n, dtype):
    return (RNG.standard_normal(n) + 1j * RNG.standard_normal(n)).astype(dtype)


@cuda.jit
def complex_arithmetic(x, y, out, parts):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = x[i] * y[i] + 1j
        out[i, 1] = x[i] / y[i] - 2
        out[i, 2] = numpy.exp(x[i]) - numpy.sqrt(y[i]).conjugate()
        out[i, 3] = cmath.log(x[i]) + abs(y[i])
        out[i, 4] = numpy.sin(x[i]) * numpy.cos(y[i])
        out[i, 5] = -x[i] if x[i] != y[i] else y[i]
        parts[i, 0] = x[i].real + y[i].imag
        parts[i, 1] = abs(x[i])


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("n", [1, 33, 500])
def test_complex_arithmetic_and_functions_match_numpy(dtype, n):
    x, y = random_complex(n, dtype), random_complex(n, dtype)
    out = gpukit.zeros((n, 6), dtype)
    parts = gpukit.zeros((n, 2), x.real.dtype)
    complex_arithmetic[(n + 127) // 128, 128](gpukit.asarray(x), gpukit.asarray(y), out, parts)
    want = numpy.stack([x * y + 1j, x / y - 2, numpy.exp(x) - numpy.conj(numpy.sqrt(y)), numpy.log(x) + numpy.abs(y),
                        numpy.sin(x) * numpy.cos(y), -x], axis=1)
    rtol = 1e-5 if dtype == "complex64" else 1e-12
    numpy.testing.assert_allclose(out.get(), want, rtol=rtol, atol=rtol)
    numpy.testing.assert_allclose(parts.get(), numpy.stack([x.real + y.imag, numpy.abs(x)], 1), rtol=rtol)


@cuda.jit
def from_real(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = cmath.sqrt(x[i]) + complex(x[i], 1.0)  # cmath of a real number is complex


def test_real_numbers_become_complex_as_python_says():
    x = RNG.standard_normal(40)
    out = gpukit.zeros(40, numpy.complex128)
    from_real[1, 64](gpukit.asarray(x), out)
    numpy.testing.assert_allclose(out.get(), numpy.sqrt(x.astype(complex)) + (x + 1j), rtol=1e-12)


@cuda.jit
def complex_scalar_argument(x, factor, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * factor


def test_a_numpy_complex_scalar_argument():
    x = random_complex(20, "complex64")
    out = gpukit.zeros(20, numpy.complex64)
    complex_scalar_argument[1, 32](gpukit.asarray(x), numpy.complex64(2 - 3j), out)
    numpy.testing.assert_allclose(out.get(), x * numpy.complex64(2 - 3j), rtol=1e-6)


@cuda.vectorize
def multiply_add_i(a, b):
    return a * b + 1j


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_vectorize_on_complex_arrays(dtype):
    x, y = random_complex(77, dtype), random_complex(77, dtype)
    got = multiply_add_i(gpukit.asarray(x), gpukit.asarray(y))
    assert got.dtype == dtype
    numpy.testing.assert_allclose(got.get(), x * y + 1j, rtol=1e-6 if dtype == "complex64" else 1e-14)


@cuda.jit
def ordered(x, out):
    out[0] = x[0] < x[1]


@cuda.jit
def stored_into_a_real_array(x, out):
    out[0] = x[0]


@cuda.jit
def floor_division(x, out):
    out[0] = x[0] // x[1]


@pytest.mark.parametrize("kernel, out_dtype, message", [
    (ordered, numpy.bool_, "complex numbers are not ordered"),
    (stored_into_a_real_array, numpy.float64, "a complex number does not convert to float64"),
    (floor_division, numpy.complex128, "// does not take complex numbers"),
])
def test_what_complex_numbers_cannot_do_is_refused(kernel, out_dtype, message):
    with pytest.raises(TypeError, match=message):
        kernel[1, 1](gpukit.asarray(random_complex(2, "complex128")), gpukit.zeros(1, out_dtype))


@gpukit.guvectorize("(n),(n)->()")
def complex_dot(a, b, out):
    total = 0j
    for k in range(a.shape[0]):
        total += a[k] * b[k].conjugate()
    out[0] = total


def test_guvectorize_on_complex_arrays():
    a, b = random_complex(5 * 33, "complex128").reshape(5, 33), random_complex(33, "complex128")
    numpy.testing.assert_allclose(complex_dot(gpukit.asarray(a), gpukit.asarray(b)).get(), a @ numpy.conj(b),
                                  rtol=1e-12)


def test_a_python_complex_argument_is_a_complex128():
    x = random_complex(20, "complex128")
    out = gpukit.zeros(20, numpy.complex128)
    for _ in range(2):  # the first launch specialises, the second takes the recorded one
        complex_scalar_argument[1, 32](gpukit.asarray(x), 2 - 3j, out)
        numpy.testing.assert_allclose(out.get(), x * (2 - 3j), rtol=1e-14)
