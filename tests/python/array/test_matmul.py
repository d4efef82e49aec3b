"""matmul and the @ operator against numpy.matmul (src/ops/linalg/matmul.cpp): every dtype, 1-D
operands, broadcast batch dimensions, empty extents, strided and transposed operands, out= and
dtype=, a @= b, and NumPy's errors."""

import numpy
import pytest

import gpukit
from conftest import ALL_DTYPES, random_array


def tolerance(dtype):
    return {"float16": 1e-2, "bfloat16": 5e-2, "float32": 1e-5, "complex64": 1e-5}.get(str(dtype), 1e-12)


def check(a, b, **kwargs):
    expected = numpy.matmul(a, b, **kwargs)
    result = gpukit.matmul(gpukit.asarray(a), gpukit.asarray(b), **kwargs)
    assert result.dtype == expected.dtype and result.shape == expected.shape
    got = result.get()
    if expected.dtype.kind in "biu":
        numpy.testing.assert_array_equal(got, expected)
    else:
        numpy.testing.assert_allclose(got, expected, rtol=tolerance(expected.dtype), atol=tolerance(expected.dtype))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype_as_numpy(rng, dtype):
    a, b = random_array(rng, (3, 33, 17), dtype), random_array(rng, (17, 65), dtype)
    check(a, b)


@pytest.mark.parametrize("shapes", [((7,), (7,)), ((7,), (7, 3)), ((4, 7), (7,)), ((2, 1, 4, 7), (5, 7, 3)),
                                    ((1, 1), (1, 1)), ((0, 5), (5, 3)), ((4, 0), (0, 3)), ((4, 5), (5, 0)),
                                    ((0, 2, 3), (3, 4)), ((3, 1, 1, 2, 3), (1, 4, 1, 3, 5))],
                         ids=str)
def test_shapes_as_numpy(rng, shapes):
    check(random_array(rng, shapes[0], "float64"), random_array(rng, shapes[1], "float64"))


def test_mixed_dtypes_promote_and_dtype_casts(rng):
    check(random_array(rng, (5, 6), "int16"), random_array(rng, (6, 4), "float32"))
    check(random_array(rng, (5, 6), "uint8"), random_array(rng, (6, 4), "int8"))
    check(random_array(rng, (5, 6), "float32"), random_array(rng, (6, 4), "float32"), dtype=numpy.float64)


VIEWS = {
    "transposed": (lambda x: x.T, lambda y: y.T),
    "strided": (lambda x: x[::2, ::3], lambda y: y[::3, ::2]),
    "reversed": (lambda x: x[::-1, ::-1], lambda y: y[::-1, ::-1]),
    "stride 0": (lambda x: x[0][None, :].repeat(5, 0) if isinstance(x, numpy.ndarray)
                 else gpukit.broadcast_to(x[0], (5, 30)), lambda y: y),
}


@pytest.mark.parametrize("layout", VIEWS)
def test_views_of_any_strides(rng, layout):
    a, b = random_array(rng, (40, 30), "float32"), random_array(rng, (30, 40), "float32")
    take_a, take_b = VIEWS[layout]
    result = take_a(gpukit.asarray(a)) @ take_b(gpukit.asarray(b))
    numpy.testing.assert_allclose(result.get(), take_a(a) @ take_b(b), rtol=1e-5, atol=1e-5)


def test_large_enough_for_many_tiles_and_rows(rng):
    a, b = random_array(rng, (2, 129, 70), "float32"), random_array(rng, (70, 131), "float32")
    check(a, b)


def test_out_and_in_place(rng):
    a, b = random_array(rng, (6, 6), "float64"), random_array(rng, (6, 6), "float64")
    out = gpukit.empty((6, 6), "float64")
    result = gpukit.matmul(gpukit.asarray(a), gpukit.asarray(b), out=out)
    numpy.testing.assert_allclose(out.get(), a @ b, rtol=1e-12)
    numpy.testing.assert_allclose(result.get(), a @ b, rtol=1e-12)
    x = gpukit.asarray(a)
    x @= gpukit.asarray(b)
    numpy.testing.assert_allclose(x.get(), a @ b, rtol=1e-12)
    integers = gpukit.asarray(numpy.ones((2, 2), numpy.int32))
    with pytest.raises(TypeError):
        integers @= gpukit.asarray(numpy.ones((2, 2)))


def test_errors_are_numpys(rng):
    a, b = gpukit.asarray(random_array(rng, (2, 3), "float32")), gpukit.asarray(random_array(rng, (4, 5), "float32"))
    with pytest.raises(ValueError, match=r"mismatch in its core dimension 0.*size 4 is different from 3.*\(2, 3\)"):
        gpukit.matmul(a, b)
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        gpukit.matmul(gpukit.asarray(numpy.float32(2)), a)
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        a @ 2
    batch = gpukit.asarray(random_array(rng, (2, 3, 3), "float32"))
    with pytest.raises(ValueError, match="do not broadcast"):
        gpukit.matmul(batch, gpukit.asarray(random_array(rng, (4, 3, 3), "float32")))
    with pytest.raises(ValueError, match="out has shape"):
        gpukit.matmul(a, gpukit.asarray(random_array(rng, (3, 2), "float32")), out=gpukit.empty((3, 3), "float32"))
    with pytest.raises(TypeError, match="gpukit.asarray"):
        gpukit.matmul(numpy.ones((2, 2)), a)
