"""dot, vdot, inner and linalg.norm (src/ops/linalg/) against NumPy: shapes of every rank, dtypes,
vector and matrix orders, and the errors NumPy raises."""

import numpy
import pytest

import gpukit
from conftest import random_array

PAIRS = [((7,), (7,)), ((3, 7), (7,)), ((7,), (7, 4)), ((3, 7), (7, 4)), ((2, 3, 7), (4, 7, 5)), ((), (3, 4))]


@pytest.mark.parametrize("dtype", ["bool", "int32", "uint8", "float16", "float32", "float64", "complex128"])
@pytest.mark.parametrize("shapes", PAIRS)
def test_dot_and_inner(shapes, dtype, rng):
    a = random_array(rng, shapes[0], dtype)
    b = random_array(rng, shapes[1], dtype)
    tolerance = {"float16": 2e-2, "float32": 1e-5}.get(dtype, 1e-12)
    expected = numpy.dot(a, b)
    got = gpukit.dot(gpukit.asarray(a), gpukit.asarray(b))
    assert got.shape == numpy.shape(expected) and got.dtype == numpy.asarray(expected).dtype
    numpy.testing.assert_allclose(got.get().astype(numpy.complex128), numpy.asarray(expected).astype(numpy.complex128),
                                  rtol=tolerance, atol=tolerance)
    if len(shapes[1]) and shapes[0][-1:] == shapes[1][-1:]:
        numpy.testing.assert_allclose(gpukit.inner(gpukit.asarray(a), gpukit.asarray(b)).get().astype(complex),
                                      numpy.inner(a, b).astype(complex), rtol=tolerance, atol=tolerance)


def test_vdot_conjugates_and_flattens(rng):
    a = random_array(rng, (3, 4), "complex64")
    b = random_array(rng, (12,), "complex64")
    assert complex(gpukit.vdot(gpukit.asarray(a), gpukit.asarray(b))) == pytest.approx(numpy.vdot(a, b), rel=1e-5)
    with pytest.raises(ValueError):
        gpukit.vdot(gpukit.asarray(a), gpukit.asarray(b[:5]))
    with pytest.raises(ValueError, match="not aligned"):
        gpukit.dot(gpukit.asarray(a), gpukit.asarray(b))


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex128"])
def test_norms(dtype, rng):
    m = random_array(rng, (6, 7), dtype)
    device = gpukit.asarray(m)
    tolerance = 1e-5 if dtype == "float32" else 1e-12
    for ord in (None, "fro", 1, -1, numpy.inf, -numpy.inf):
        numpy.testing.assert_allclose(gpukit.linalg.norm(device, ord).get(), numpy.linalg.norm(m, ord),
                                      rtol=tolerance)
    for ord in (None, 0, 1, 2, 3, -1.5, numpy.inf, -numpy.inf):
        for axis in (0, 1):
            numpy.testing.assert_allclose(gpukit.linalg.norm(device, ord, axis=axis).get(),
                                          numpy.linalg.norm(m, ord, axis=axis), rtol=tolerance)
    numpy.testing.assert_allclose(gpukit.linalg.norm(device, 1, axis=(1, 0), keepdims=True).get(),
                                  numpy.linalg.norm(m, 1, axis=(1, 0), keepdims=True), rtol=tolerance)
    assert gpukit.linalg.norm(device).dtype == numpy.linalg.norm(m).dtype
    for ord in ("nuc", 2, -2):  # from singular values (test_linalg_solvers.py has more)
        numpy.testing.assert_allclose(gpukit.linalg.norm(device, ord).get(), numpy.linalg.norm(m, ord),
                                      rtol=tolerance * 10)
    with pytest.raises(ValueError):
        gpukit.linalg.norm(device, "fro", axis=0)
    with pytest.raises(ValueError):
        gpukit.linalg.norm(gpukit.asarray(random_array(rng, (2, 3, 4), dtype)), 1)


def test_trace_and_the_dot_method(rng):
    m = random_array(rng, (4, 5, 6), "int32")
    device = gpukit.asarray(m)
    for offset in (0, 1, -2):
        numpy.testing.assert_array_equal(gpukit.trace(device, offset).get(), numpy.trace(m, offset))
        numpy.testing.assert_array_equal(device.trace(offset, axis1=1, axis2=2).get(),
                                         m.trace(offset, axis1=1, axis2=2))
    assert gpukit.trace(device, dtype=numpy.float32).dtype == numpy.float32
    a = random_array(rng, (3, 7), "float64")
    b = random_array(rng, (7,), "float64")
    numpy.testing.assert_allclose(gpukit.asarray(a).dot(gpukit.asarray(b)).get(), a.dot(b), rtol=1e-12)
    out = gpukit.empty(3, numpy.float64)
    gpukit.asarray(a).dot(gpukit.asarray(b), out=out)
    numpy.testing.assert_allclose(out.get(), a.dot(b), rtol=1e-12)
