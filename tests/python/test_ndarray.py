"""gpukit._ndarray: round trips, views (strided, reversed, transposed), reshape, fill, copy, item access."""

import gc
import pickle
import weakref

import numpy
import pytest

import gpukit
from conftest import ALL_DTYPES, EDGE_SIZES, random_array


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("size", EDGE_SIZES)
def test_host_round_trip_is_exact(dtype, size, rng):
    values = random_array(rng, size, dtype)
    array = gpukit.asarray(values)
    assert (array.shape, array.dtype) == (values.shape, values.dtype)
    numpy.testing.assert_array_equal(array.get(), values)
    numpy.testing.assert_array_equal(gpukit.asnumpy(array), values)
    other = random_array(rng, size, dtype)
    array.set(other)
    numpy.testing.assert_array_equal(array.get(), other)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_multidimensional_round_trip_and_zero_d(dtype, rng):
    values = random_array(rng, (3, 4, 5), dtype)
    numpy.testing.assert_array_equal(gpukit.asarray(values).get(), values)
    scalar = random_array(rng, (), dtype)
    array = gpukit.asarray(scalar)
    assert array.shape == () and array.size == 1
    assert array.item() == scalar.item()


KEYS = [
    numpy.s_[2:9],
    numpy.s_[::3],
    numpy.s_[::-1],
    numpy.s_[7:1:-2],
    numpy.s_[1:-1, ::2],
    numpy.s_[:, 3],
    numpy.s_[-1],
    numpy.s_[..., ::-3],
    numpy.s_[None, 2:4, None],
    numpy.s_[4:4],
    numpy.s_[5, 2:9:4],
]


@pytest.mark.parametrize("key", KEYS, ids=[str(key) for key in KEYS])
@pytest.mark.parametrize("dtype", ["int8", "float32", "complex128"])
def test_basic_indexing_gives_numpy_s_views(key, dtype, rng):
    values = random_array(rng, (11, 10), dtype)
    array = gpukit.asarray(values)
    view = array[key]
    expected = values[key]
    assert view.shape == expected.shape
    assert view.strides == expected.strides
    numpy.testing.assert_array_equal(view.get(), expected)
    assert view.flags.c_contiguous == expected.flags.c_contiguous


def test_views_share_memory_with_their_base(rng):
    values = random_array(rng, 20, "float32")
    array = gpukit.asarray(values)
    view = array[3:17:2]
    replacement = random_array(rng, view.shape, "float32")
    view.set(replacement)
    values[3:17:2] = replacement
    numpy.testing.assert_array_equal(array.get(), values)
    assert not view.flags.owndata


@pytest.mark.parametrize("key", [numpy.s_[::-1], numpy.s_[1::3], numpy.s_[:, ::-2], numpy.s_[::2, 1:4]])
def test_writing_a_strided_view_leaves_the_gaps_alone(key, rng):
    values = random_array(rng, (6, 8), "float64")
    array = gpukit.asarray(values)
    new = random_array(rng, values[key].shape, "float64")
    array[key] = new
    values[key] = new
    numpy.testing.assert_array_equal(array.get(), values)


def test_setitem_takes_scalars_broadcasts_and_device_arrays(rng):
    values = random_array(rng, (4, 5), "int32")
    array = gpukit.asarray(values)
    array[1] = 7
    values[1] = 7
    row = random_array(rng, 5, "int32")
    array[2:4] = row
    values[2:4] = row
    source = gpukit.asarray(random_array(rng, 5, "int32"))
    array[0] = source
    values[0] = source.get()
    array[..., 0] = source[:4]
    values[..., 0] = source.get()[:4]
    numpy.testing.assert_array_equal(array.get(), values)


def test_indexing_mistakes_raise_what_numpy_raises():
    array = gpukit.zeros((3, 4))
    with pytest.raises(IndexError, match="out of bounds"):
        array[3]
    with pytest.raises(IndexError, match="too many indices"):
        array[0, 0, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        array[..., ...]
    with pytest.raises(IndexError, match="only integers, slices"):  # index arrays: tests/python/array
        array[1.5]


@pytest.mark.parametrize("shape", [(12,), (3, 4), (2, -1), (-1,), (2, 2, 3), (1, 12, 1)])
def test_reshape_of_a_contiguous_array_is_a_view(shape, rng):
    values = random_array(rng, 12, "uint16")
    array = gpukit.asarray(values)
    reshaped = array.reshape(shape)
    numpy.testing.assert_array_equal(reshaped.get(), values.reshape(shape))
    assert reshaped.data_ptr == array.data_ptr
    assert array.reshape(*shape).shape == reshaped.shape


def test_reshape_refuses_sizes_that_differ_and_copies_where_no_view_exists():
    array = gpukit.zeros(12)
    with pytest.raises(ValueError, match="cannot reshape"):
        array.reshape(5, 3)
    with pytest.raises(ValueError, match="at most one"):
        array.reshape(-1, -1)
    assert array[::2].reshape(2, 3).data_ptr == array.data_ptr  # evenly spaced: a view, as NumPy's
    matrix = array.reshape(3, 4)
    assert matrix.T.reshape(12).data_ptr != array.data_ptr  # not: a copy
    with pytest.raises(ValueError, match="avoid creating a copy"):
        matrix.T.reshape(12, copy=False)
    numpy.testing.assert_array_equal(array[::2].ravel().get(), numpy.zeros(6))


def test_transpose_permutes_strides(rng):
    values = random_array(rng, (2, 3, 4), "float32")
    array = gpukit.asarray(values)
    numpy.testing.assert_array_equal(array.T.get(), values.T)
    numpy.testing.assert_array_equal(array.transpose(1, 0, 2).get(), values.transpose(1, 0, 2))
    assert array.T.strides == values.T.strides
    with pytest.raises(ValueError, match="permutation"):
        array.transpose(0, 0, 1)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("size", [0, 1, 1001])
def test_fill_sets_every_element(dtype, size):
    array = gpukit.empty(size, dtype)
    for value in (0, 1, 5):
        array.fill(value)
        numpy.testing.assert_array_equal(array.get(), numpy.full(size, value, dtype))


def test_fill_of_a_strided_view_leaves_the_rest(rng):
    values = random_array(rng, 30, "float32")
    array = gpukit.asarray(values)
    array[1::4].fill(2.5)
    values[1::4] = 2.5
    numpy.testing.assert_array_equal(array.get(), values)


@pytest.mark.parametrize("key", [numpy.s_[:], numpy.s_[::-2], numpy.s_[3:11]])
def test_copy_is_contiguous_and_independent(key, rng):
    values = random_array(rng, 16, "int64")
    array = gpukit.asarray(values)
    copied = array[key].copy()
    assert copied.flags.c_contiguous and copied.flags.owndata
    numpy.testing.assert_array_equal(copied.get(), values[key])
    array.fill(0)
    numpy.testing.assert_array_equal(copied.get(), values[key])


def test_astype_converts_like_numpy(rng):
    values = random_array(rng, 9, "float64") * 50
    converted = gpukit.asarray(values).astype(numpy.int32)
    numpy.testing.assert_array_equal(converted.get(), values.astype(numpy.int32))


def test_get_into_out_and_its_checks(rng):
    values = random_array(rng, (3, 3), "float32")
    array = gpukit.asarray(values)
    out = numpy.empty((3, 3), numpy.float32)
    assert array.get(out=out) is out
    numpy.testing.assert_array_equal(out, values)
    with pytest.raises(ValueError, match="shape"):
        array.get(out=numpy.empty(9, numpy.float32))


def test_set_refuses_other_shapes_and_dtypes():
    array = gpukit.zeros(4, numpy.float32)
    with pytest.raises(ValueError, match="shape"):
        array.set(numpy.zeros(5, numpy.float32))
    with pytest.raises(ValueError, match="float64"):
        array.set(numpy.zeros(4))


def test_implicit_conversion_to_numpy_is_refused_with_the_way_out():
    with pytest.raises(TypeError, match=r"\.get\(\)"):
        numpy.asarray(gpukit.zeros(3))


def test_memptr_views_another_array_with_a_new_shape_and_dtype(rng):
    values = random_array(rng, 8, "float32")
    raw = gpukit.asarray(values).reshape(-1)
    as_ints = gpukit.ndarray((2, 4), numpy.int32, raw)
    numpy.testing.assert_array_equal(as_ints.get(), values.view(numpy.int32).reshape(2, 4))
    with pytest.raises(ValueError, match="needs bytes"):
        gpukit.ndarray(9, numpy.float32, raw)


def test_len_repr_str_and_tolist(rng):
    values = random_array(rng, (2, 3), "int16")
    array = gpukit.asarray(values)
    assert len(array) == 2
    assert repr(array).startswith("array([[") and f"device='{array.device.backend}:0'" in repr(array)
    assert str(array) == str(values)
    assert array.tolist() == values.tolist()
    with pytest.raises(TypeError):
        len(gpukit.asarray(numpy.float32(1)))


def test_a_view_keeps_its_memory_alive_after_the_base_is_gone(rng):
    values = random_array(rng, 100, "float64")
    array = gpukit.asarray(values)
    memory = gpukit._core.MemoryWatch(array)
    view = array[10:20]
    del array
    gc.collect()
    assert memory.alive
    numpy.testing.assert_array_equal(view.get(), values[10:20])
    del view
    gc.collect()
    assert not memory.alive


def test_the_class_is_the_extension_s_and_behaves_as_numpy_expects():
    array = gpukit.zeros(3)
    assert isinstance(array, gpukit.ndarray) and type(array) is gpukit._core.ndarray
    assert weakref.ref(array)() is array
    assert gpukit.ndarray.__array_priority__ == 100
    total = numpy.float32(1) + array  # NumPy defers to the array's own operator
    assert isinstance(total, gpukit.ndarray) and total.get().tolist() == [1, 1, 1]
    with pytest.raises(gpukit.ArrayIndexError):
        array[3]
    assert list(gpukit.asarray([4, 5]).tolist()) == [4, 5] and [row.item() for row in gpukit.asarray([4, 5])] == [4, 5]


def test_bfloat16_needs_ml_dtypes_and_says_so():
    try:
        import ml_dtypes
    except ImportError:
        with pytest.raises(TypeError, match="ml_dtypes"):
            gpukit.empty(3, "bfloat16")
        return
    array = gpukit.asarray(numpy.array([1.5, -2.0], ml_dtypes.bfloat16))
    assert array.dtype == numpy.dtype(ml_dtypes.bfloat16) and array.get().tolist() == [1.5, -2.0]


def test_only_empty_arrays_pickle():
    empty = pickle.loads(pickle.dumps(gpukit.empty((0, 3), dtype="float32")))
    assert isinstance(empty, gpukit.ndarray) and empty.shape == (0, 3) and empty.dtype == numpy.float32
    with pytest.raises(TypeError, match="would hide a copy from the device"):
        pickle.dumps(gpukit.ones(3))
