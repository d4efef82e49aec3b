"""gpukit._creation: empty, zeros, ones, full, arange, the *_like forms and pinned host arrays."""

import numpy
import pytest

import gpukit
from conftest import ALL_DTYPES, EDGE_SIZES


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("size", EDGE_SIZES)
def test_zeros_ones_and_full_hold_those_values(dtype, size):
    numpy.testing.assert_array_equal(gpukit.zeros(size, dtype).get(), numpy.zeros(size, dtype))
    numpy.testing.assert_array_equal(gpukit.ones(size, dtype).get(), numpy.ones(size, dtype))
    value = numpy.array(3, dtype).item() if dtype != "bool" else True
    full = gpukit.full(size, value, dtype)
    assert full.dtype == numpy.dtype(dtype) and full.shape == (size,)
    numpy.testing.assert_array_equal(full.get(), numpy.full(size, value, dtype))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_empty_has_the_shape_dtype_and_byte_strides_asked_for(dtype):
    array = gpukit.empty((3, 5, 2), dtype)
    itemsize = numpy.dtype(dtype).itemsize
    assert array.shape == (3, 5, 2)
    assert array.strides == (10 * itemsize, 2 * itemsize, itemsize)
    assert (array.size, array.ndim, array.itemsize, array.nbytes) == (30, 3, itemsize, 30 * itemsize)
    assert array.flags.c_contiguous and array.flags.owndata
    assert array.device == gpukit.get_device()


def test_default_dtype_is_float64_and_full_takes_the_value_s_dtype():
    assert gpukit.empty(3).dtype == numpy.float64
    assert gpukit.full(3, 7).dtype == numpy.array(7).dtype
    assert gpukit.full(3, 2.5).dtype == numpy.float64


@pytest.mark.parametrize("args", [(10,), (3, 17), (3, 17, 4), (5.5,), (-3, 4, 0.75)])
def test_arange_matches_numpy(args):
    numpy.testing.assert_array_equal(gpukit.arange(*args).get(), numpy.arange(*args))
    numpy.testing.assert_array_equal(gpukit.arange(*args, dtype=numpy.float32).get(),
                                     numpy.arange(*args, dtype=numpy.float32))


def test_like_forms_follow_the_model_array():
    model = gpukit.empty((4, 3), numpy.int16)
    for made, expected in ((gpukit.zeros_like(model), 0), (gpukit.ones_like(model), 1),
                           (gpukit.full_like(model, 9), 9)):
        assert made.shape == (4, 3) and made.dtype == numpy.int16
        numpy.testing.assert_array_equal(made.get(), numpy.full((4, 3), expected, numpy.int16))
    assert gpukit.empty_like(model, dtype=numpy.float32).dtype == numpy.float32


def test_shapes_are_checked():
    with pytest.raises(ValueError, match="negative"):
        gpukit.empty(-1)
    with pytest.raises(TypeError):
        gpukit.empty(2.5)
    with pytest.raises(ValueError, match="do not hold"):
        gpukit.empty(3, dtype="U4")


@pytest.mark.parametrize("shape", [0, 1, (7,), (3, 4)])
def test_pinned_empty_is_a_writable_numpy_array_kept_alive_by_its_base(shape, rng):
    host = gpukit.pinned_empty(shape, numpy.float32)
    assert isinstance(host, numpy.ndarray)
    assert host.shape == ((shape,) if isinstance(shape, int) else shape)
    values = rng.uniform(-1, 1, size=host.shape).astype(numpy.float32)
    host[...] = values
    view = host.reshape(-1)
    del host  # the view's base chain still holds the pinned block
    numpy.testing.assert_array_equal(view, values.reshape(-1))
    device = gpukit.asarray(view)
    numpy.testing.assert_array_equal(device.get(), values.reshape(-1))


def test_pinned_memory_takes_async_copies_on_a_stream(rng):
    values = rng.uniform(-1, 1, 1000).astype(numpy.float32)
    host = gpukit.pinned_empty(1000, numpy.float32)
    host[...] = values
    stream = gpukit.Stream()
    device = gpukit.empty(1000, numpy.float32)
    device.set(host, stream=stream)
    back = gpukit.pinned_empty(1000, numpy.float32)
    device.get(stream=stream, out=back)
    numpy.testing.assert_array_equal(back, values)


def test_python_integers_beyond_int64_keep_every_bit_in_an_integer_dtype():
    # NumPy infers float64 for [2**63 + 1, 5]; asked for uint64, the integers themselves are converted.
    values = [2**63 + 1, 5, 2**64 - 1]
    numpy.testing.assert_array_equal(gpukit.asarray(values, dtype="uint64").get(),
                                     numpy.asarray(values, dtype=numpy.uint64))


def test_a_list_of_floats_into_a_dtype_only_gpukit_names_is_converted_by_the_core():
    # NumPy knows no 'bfloat16' by that name: the floats NumPy infers are the core's to convert.
    values = [1.5, -2.25, 3.0]
    numpy.testing.assert_array_equal(gpukit.asarray(values, dtype="bfloat16").astype("float32").get(),
                                     numpy.asarray(values, dtype=numpy.float32))
