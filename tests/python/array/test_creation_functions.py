"""Creation on the device (gpukit/creation.hpp through gpukit._core) against NumPy: arange and
linspace bit for bit, eye and identity, the *_like forms' layouts, and asarray/array/
ascontiguousarray/asfortranarray with dtype=, order= and copy=."""

import numpy
import pytest

import gpukit
from conftest import ALL_DTYPES, random_array
from layouts import assert_same


@pytest.mark.parametrize("args", [
    (10,), (3, 17), (3, 17, 4), (5.5,), (-3, 4, 0.75), (1, 0, -0.1), (0.1, 1.3, 0.1), (5, 5), (0, 1e-300),
    (-0.0, 3.0), (10, 0, -3), (2**40, 2**40 + 5), (numpy.int8(3),), (numpy.float32(0.5), 4), (True, 3),
    (0, 4097), (0.0, 31.0),
])
def test_arange_matches_numpy_bit_for_bit(args):
    assert_same(gpukit.arange(*args), numpy.arange(*args))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_arange_in_every_dtype(dtype):
    if dtype == "bool":
        assert_same(gpukit.arange(2, dtype=dtype), numpy.arange(2, dtype=dtype))
        with pytest.raises(ValueError, match="bool"):
            gpukit.arange(3, dtype=dtype)
        return
    assert_same(gpukit.arange(1, 40, 3, dtype=dtype), numpy.arange(1, 40, 3, dtype=dtype))
    if dtype[0] in "fc":
        assert_same(gpukit.arange(-1.5, 2.25, 0.3, dtype=dtype), numpy.arange(-1.5, 2.25, 0.3, dtype=dtype))


def test_arange_wraps_narrow_integers_and_refuses_what_numpy_refuses():
    with numpy.errstate(all="ignore"):
        assert_same(gpukit.arange(100, 160, 10, dtype="int8"), numpy.arange(100, 160, 10).astype("int8"))
    with pytest.raises(ZeroDivisionError):
        gpukit.arange(0, 1, 0)
    with pytest.raises(ValueError, match="cannot compute length"):
        gpukit.arange(numpy.nan)
    with pytest.raises(TypeError, match="real number"):
        gpukit.arange(0, 1j)


@pytest.mark.parametrize("args,kwargs", [
    ((0, 1), {}), ((-2.5, 7.1, 31), {}), ((1, 0, 7), {"endpoint": False}), ((3, 3, 5), {}), ((0, 1, 1), {}),
    ((0, 1, 0), {}), ((0, 1e-320, 4), {}), ((0.1, 0.7, 4097), {}), ((numpy.float32(0), 1.0, 9), {}),
    ((-3, 3, 5), {"dtype": "int32"}), ((0, 10, 7), {"dtype": "uint8"}), ((0, 1, 11), {"dtype": "float16"}),
    ((1 + 2j, -3j, 5), {}), ((0, 2, 5), {"dtype": "complex64"}),
])
def test_linspace_matches_numpy_bit_for_bit(args, kwargs):
    assert_same(gpukit.linspace(*args, **kwargs), numpy.linspace(*args, **kwargs))
    values, step = gpukit.linspace(*args, retstep=True, **kwargs)
    expected_values, expected_step = numpy.linspace(*args, retstep=True, **kwargs)
    assert_same(values, expected_values)
    numpy.testing.assert_array_equal(step, expected_step)
    assert numpy.asarray(step).dtype == numpy.asarray(expected_step).dtype


def test_linspace_refuses_what_numpy_refuses():
    with pytest.raises(ValueError, match="must be non-negative"):
        gpukit.linspace(0, 1, -1)
    with pytest.raises(TypeError):
        gpukit.linspace(0, "a")
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.linspace(0, 1, 5, axis=1)


@pytest.mark.parametrize("n,m,k", [(4, None, 0), (3, 5, 1), (5, 3, -2), (3, 3, 7), (0, 2, 0), (1, None, 0)])
@pytest.mark.parametrize("order", "CF")
def test_eye_and_identity(n, m, k, order):
    made = gpukit.eye(n, m, k, dtype="int16", order=order)
    expected = numpy.eye(n, m, k, dtype="int16", order=order)
    assert_same(made, expected)
    assert made.flags.f_contiguous == expected.flags.f_contiguous
    assert_same(gpukit.identity(3), numpy.identity(3))
    assert_same(gpukit.identity(2, "complex64"), numpy.identity(2, "complex64"))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_zeros_ones_full_and_likes_in_every_dtype(dtype, rng):
    host_base = random_array(rng, (4, 5, 3), dtype)
    model, host_model = gpukit.asarray(host_base).transpose(2, 0, 1), host_base.transpose(2, 0, 1)
    for made, expected in ((gpukit.zeros_like(model), numpy.zeros_like(host_model)),
                           (gpukit.ones_like(model, order="F"), numpy.ones_like(host_model, order="F")),
                           (gpukit.full_like(model, 7, shape=(2, 2)), numpy.full_like(host_model, 7, shape=(2, 2))),
                           (gpukit.zeros((2, 3), dtype, order="F"), numpy.zeros((2, 3), dtype, order="F")),
                           (gpukit.full(3, True, dtype), numpy.full(3, True, dtype))):
        assert_same(made, expected)
        assert made.flags.c_contiguous == expected.flags.c_contiguous
        assert made.flags.f_contiguous == expected.flags.f_contiguous
    assert gpukit.empty_like(model).strides == numpy.empty_like(host_model).strides


def test_full_takes_numpy_s_dtype_and_arrays_to_broadcast(rng):
    assert gpukit.full(3, 2**63).dtype == numpy.full(3, 2**63).dtype
    assert gpukit.full(2, 1 + 2j).dtype == numpy.complex128
    assert gpukit.full(2, numpy.float32(1.5)).dtype == numpy.float32
    row = random_array(rng, 4, "float32")
    assert_same(gpukit.full((3, 4), row), numpy.full((3, 4), row))
    assert_same(gpukit.full((3, 4), gpukit.asarray(row), dtype="float64"), numpy.full((3, 4), row, dtype="float64"))
    with pytest.raises(OverflowError):
        gpukit.full(3, 300, dtype="int8")
    # NumPy 2's refusal of a Python int the dtype cannot hold, as gpukit's type and in NumPy's words;
    # a NumPy integer converts as astype converts (it wraps).
    with pytest.raises(gpukit.ScalarOverflowError, match="Python integer -1 out of bounds for uint8"):
        gpukit.full(2, -1, dtype="uint8")
    assert_same(gpukit.full(3, numpy.int64(300), dtype="int8"), numpy.full(3, numpy.int64(300), dtype="int8"))
    assert_same(gpukit.full(3, 127, dtype="int8"), numpy.full(3, 127, dtype="int8"))
    with pytest.raises(ValueError, match="only 'C' or 'F'"):
        gpukit.zeros(3, order="K")


def test_asarray_array_and_contiguous_forms(rng):
    host = numpy.asfortranarray(random_array(rng, (3, 4), "float32"))
    kept = gpukit.asarray(host)
    assert kept.flags.f_contiguous and not kept.flags.c_contiguous  # order K: as the host array lies
    assert gpukit.asarray(host, order="C").flags.c_contiguous
    assert_same(gpukit.asarray(host, dtype="float64", order="C"), numpy.asarray(host, dtype="float64", order="C"))
    assert_same(gpukit.asarray([[1, 2], [3, 4]], dtype="uint8"), numpy.asarray([[1, 2], [3, 4]], dtype="uint8"))
    assert gpukit.asarray(kept) is kept
    assert gpukit.asarray(kept, dtype="float32", order="F") is kept
    assert gpukit.asarray(kept, order="C").flags.c_contiguous
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        gpukit.asarray(kept, order="C", copy=False)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        gpukit.asarray(host, copy=False)
    copied = gpukit.array(kept)
    assert copied.data_ptr != kept.data_ptr and copied.flags.f_contiguous  # order K copy
    assert gpukit.array(kept, copy=None) is kept
    assert gpukit.array(kept, ndmin=4).shape == (1, 1, 3, 4)
    assert gpukit.ascontiguousarray(kept).flags.c_contiguous
    assert gpukit.asfortranarray(kept) is not None and gpukit.asfortranarray(kept).data_ptr == kept.data_ptr
    assert gpukit.ascontiguousarray(gpukit.asarray(numpy.float64(2))).shape == (1,)
    assert gpukit.ascontiguousarray(numpy.float64(2)).shape == numpy.ascontiguousarray(numpy.float64(2)).shape
    assert_same(gpukit.asfortranarray(host.T, dtype="int32"), numpy.asfortranarray(host.T, dtype="int32"))
