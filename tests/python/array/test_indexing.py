"""Indexing with arrays and the indexing routines against NumPy: every dtype, contiguous, strided, transposed and
reversed layouts, 0-size and 0-d arrays, sizes 1, 31 and 4097 (python/src/indexing.cpp, gpukit/advanced_indexing.hpp).
"""

import numpy
import pytest

import gpukit
from conftest import ALL_DTYPES, random_array

try:
    import ml_dtypes

    DTYPES = [*ALL_DTYPES, "bfloat16"]
except ImportError:  # bfloat16 arrays need ml_dtypes in Python
    ml_dtypes = None
    DTYPES = ALL_DTYPES


def host(rng, shape, dtype):
    """Random values, never all zero; bfloat16 ones through float32."""
    if dtype == "bfloat16":
        return random_array(rng, shape, "float32").astype(ml_dtypes.bfloat16)
    return random_array(rng, shape, dtype)


def same(got, expected, what=""):
    """gpukit's result equals NumPy's: shape, dtype and every element (bfloat16 compared as float32)."""
    assert isinstance(got, gpukit.ndarray), what
    values = got.get()
    expected = numpy.asarray(expected)
    assert (values.shape, values.dtype) == (expected.shape, expected.dtype), what
    if ml_dtypes is not None and expected.dtype == ml_dtypes.bfloat16:
        values, expected = values.astype(numpy.float32), expected.astype(numpy.float32)
    numpy.testing.assert_array_equal(values, expected, err_msg=what)


def layouts(rng, dtype):
    """(name, NumPy array, gpukit array) for each layout: contiguous at edge sizes, 2-D, strided, transposed,
    reversed and 0-size."""
    for size in (1, 31, 4097):
        values = host(rng, size, dtype)
        yield f"({size},)", values, gpukit.asarray(values)
    matrix = host(rng, (12, 7), dtype)  # each view of a copy of its own: tests write into them
    yield "(12, 7)", matrix, gpukit.asarray(matrix)
    yield "strided", matrix[::2, 1::3], gpukit.asarray(matrix)[::2, 1::3]
    yield "transposed", matrix.T, gpukit.asarray(matrix).T
    yield "reversed", matrix[::-1], gpukit.asarray(matrix)[::-1]
    empty = host(rng, (0, 3), dtype)
    yield "0-size", empty, gpukit.asarray(empty)


def random_indices(rng, extent, shape):
    """Indices in [-extent, extent): negative ones count from the end."""
    return rng.integers(-extent, extent, size=shape) if extent else numpy.zeros(shape, numpy.int64)


# ---- gathers


@pytest.mark.parametrize("dtype", DTYPES)
def test_integer_arrays_gather_as_numpy(dtype, rng):
    for name, values, array in layouts(rng, dtype):
        extent = values.shape[0]
        for shape in [(5,), (2, 3), ()]:
            if extent == 0:
                shape = (0,)
            index = random_indices(rng, extent, shape)
            same(array[index], values[index], name)  # a NumPy index array
            same(array[gpukit.asarray(index)], values[index], name)  # a device one
        if extent:
            same(array[[0, -1, extent // 2]], values[[0, -1, extent // 2]], name)  # a list
            same(array[..., [0]], values[..., [0]], name)


def test_several_index_arrays_broadcast_and_place_their_dimensions_as_numpy(rng):
    values = random_array(rng, (4, 5, 6), "float32")
    array = gpukit.asarray(values)
    rows = numpy.array([[3], [0], [-1]])  # (3, 1) broadcasts with (4,)
    columns = numpy.array([4, 0, 2, -2])
    mask5 = numpy.array([True, False, True, True, False])
    mask56 = rng.integers(0, 2, (5, 6)).astype(bool)
    keys = [
        (rows, columns), (slice(None), rows, columns), (rows, slice(None), columns[:1]), (0, slice(None), [1, 2]),
        (slice(None), 0, [1, 2]), ([1, 2], 0), (None, columns[1:3], None), (Ellipsis, [5, 0]), ([0], ..., [0]),
        (None, [0, 1], ..., [0, 1], [0, 1]), (True,), (False,), (slice(None), True, [0, 1]), (1, True, 2, 3),
        ([True, False, True, True],), (slice(1, None), mask5), (slice(None), mask56), (mask56[None][[0, 0, 0, 0]],),
        (mask5[None, :].repeat(4, 0), [0]), (numpy.int64(2), numpy.array(3)), (numpy.array(1),), ([],),
        (slice(None, None, -1), [[0, 1], [2, 3]], slice(None, None, 2)),
    ]
    for key in keys:
        same(array[key], values[key], str(key))


def test_basic_keys_still_give_views(rng):
    values = random_array(rng, (4, 5), "int16")
    array = gpukit.asarray(values)
    view = array[1:3, ::2]
    assert view.data_ptr != 0 and not view.flags.owndata
    copy = array[[1, 2]]
    assert copy.flags.owndata


@pytest.mark.parametrize("dtype", DTYPES)
def test_masks_select_as_numpy(dtype, rng):
    for name, values, array in layouts(rng, dtype):
        mask = rng.integers(0, 2, values.shape).astype(bool)
        same(array[mask], values[mask], name)
        same(array[gpukit.asarray(mask)], values[mask], name)
        leading = mask[..., 0] if values.ndim == 2 and values.shape[1] else mask
        same(array[leading], values[leading], name)
        same(array[numpy.zeros(values.shape, bool)], values[numpy.zeros(values.shape, bool)], name)
        same(array[numpy.ones(values.shape, bool)], values[numpy.ones(values.shape, bool)], name)
        if values.ndim == 2:
            columns = rng.integers(0, 2, values.shape[1]).astype(bool)
            same(array[1:, columns], values[1:, columns], name)


def test_zero_dimensional_arrays_take_booleans_and_empty_keys(rng):
    values = numpy.array(2.5, numpy.float32)
    array = gpukit.asarray(values)
    for key in [True, False, (), Ellipsis, None, numpy.True_]:
        same(array[key], values[key], str(key))
    array[True] = 4
    values[True] = 4
    same(array, values)


def test_many_blocks_of_a_large_mask_keep_c_order(rng):
    mask = rng.random(300_001) < 0.3
    mask[100_000:180_000] = True
    values = numpy.arange(mask.size, dtype=numpy.int32)
    same(gpukit.asarray(values)[mask], values[mask])
    same(gpukit.flatnonzero(gpukit.asarray(mask)), numpy.flatnonzero(mask))


# ---- assignment


@pytest.mark.parametrize("dtype", DTYPES)
def test_integer_array_assignment_as_numpy(dtype, rng):
    for name, values, array in layouts(rng, dtype):
        if values.size == 0 or values.ndim == 1 and values.shape[0] < 3:
            continue
        values = values.copy()
        extent = values.shape[0]
        rows = rng.permutation(extent)[:3] - extent  # distinct, negative
        new = host(rng, values[rows].shape, dtype)
        array[rows] = new  # NumPy values
        values[rows] = new
        same(array, values, name)
        array[rows[:1]] = gpukit.asarray(new[:1])  # a device array
        values[rows[:1]] = new[:1]
        array[list(rows[1:])] = new[0]  # a scalar or a row broadcast over the rows
        values[list(rows[1:])] = new[0]
        same(array, values, name)
        if values.ndim == 2:
            columns = [0, -1]
            column_values = host(rng, (values.shape[0], 1), dtype)
            array[:, columns] = column_values  # broadcast along the columns
            values[:, columns] = column_values
            array[[0, 1], [1, 0]] = values.flat[0]
            values[[0, 1], [1, 0]] = values.flat[0]
            same(array, values, name)


@pytest.mark.parametrize("dtype", DTYPES)
def test_mask_assignment_as_numpy(dtype, rng):
    for name, values, array in layouts(rng, dtype):
        values = values.copy()
        mask = rng.integers(0, 2, values.shape).astype(bool)
        scalar = host(rng, (), dtype)[()]
        array[mask] = scalar  # no positions needed
        values[mask] = scalar
        same(array, values, name)
        new = host(rng, int(mask.sum()), dtype)
        array[gpukit.asarray(mask)] = gpukit.asarray(new)
        values[mask] = new
        same(array, values, name)
        one = host(rng, 1, dtype)
        array[mask] = one  # one value for every selected element
        values[mask] = one
        same(array, values, name)
        if values.ndim == 2 and values.shape[1]:
            rows = mask[:, 0]
            row = host(rng, values.shape[1], dtype)
            array[rows] = row
            values[rows] = row
            same(array, values, name)


def test_assignment_converts_values_and_reads_them_before_writing(rng):
    values = random_array(rng, (6, 4), "float64")
    array = gpukit.asarray(values)
    ints = random_array(rng, (2, 4), "int32")
    array[[1, 3]] = gpukit.asarray(ints)  # converted on the device
    values[[1, 3]] = ints
    array[[0, 2]] = [[1, 2, 3, 4]]  # a list, leading dimension of extent 1
    values[[0, 2]] = [[1, 2, 3, 4]]
    array[:, [0, 1]] = array[:, 1:3]  # values that overlap the target
    values[:, [0, 1]] = values[:, 1:3]
    array[[1, 0]] = array[[0, 1]]
    values[[1, 0]] = values[[0, 1]]
    same(array, values)


def test_basic_assignment_broadcasts_scalars_and_arrays(rng):
    values = random_array(rng, (4, 5), "complex64")
    array = gpukit.asarray(values)
    array[1:3] = 2 - 1j
    values[1:3] = 2 - 1j
    row = random_array(rng, (1, 1, 5), "complex64")
    array[::2] = row  # leading dimensions of extent 1 dropped, as NumPy
    values[::2] = row
    array[:, 4] = gpukit.asarray(random_array(rng, 4, "int8"))
    values[:, 4] = array[:, 4].get()
    array[...] = numpy.float32(0.5)
    values[...] = numpy.float32(0.5)
    same(array, values)


def test_duplicate_indices_write_one_of_their_values():
    array = gpukit.zeros(3, numpy.int32)
    array[[1, 1, 1]] = [5, 6, 7]
    assert array.get()[0] == 0 and array.get()[1] in (5, 6, 7) and array.get()[2] == 0


# ---- routines


@pytest.mark.parametrize("dtype", DTYPES)
def test_nonzero_argwhere_flatnonzero_and_where_as_numpy(dtype, rng):
    for name, values, array in layouts(rng, dtype):
        values = values.copy()
        values[rng.random(values.shape) < 0.3] = 0
        array = gpukit.asarray(values)
        expected = numpy.nonzero(values)
        got = gpukit.nonzero(array)
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected):
            same(g, e.astype(numpy.int64), name)
        for g, e in zip(array.nonzero(), expected):
            same(g, e.astype(numpy.int64), name)
        for g, e in zip(gpukit.where(array), expected):
            same(g, e.astype(numpy.int64), name)
        same(gpukit.argwhere(array), numpy.argwhere(values).astype(numpy.int64), name)
        same(gpukit.flatnonzero(array), numpy.flatnonzero(values).astype(numpy.int64), name)


def test_signed_zeros_and_nans_are_what_numpy_says():
    for dtype in ["float16", "float32", "float64", "complex64", "complex128"]:
        values = numpy.array([-0.0, numpy.nan, 0.0, -1.5, numpy.inf], dtype)
        same(gpukit.flatnonzero(gpukit.asarray(values)), numpy.flatnonzero(values))
    values = numpy.array([0, -0.0 + 0j, 1j, complex(0, -0.0), -2], "complex128")
    same(gpukit.flatnonzero(gpukit.asarray(values)), numpy.flatnonzero(values))


def test_zero_dimensional_nonzero_is_refused_and_argwhere_is_not():
    for value in (3, 0):
        values = numpy.array(value, numpy.int32)
        same(gpukit.argwhere(gpukit.asarray(values)), numpy.argwhere(values))
        same(gpukit.flatnonzero(gpukit.asarray(values)), numpy.flatnonzero(values))
    with pytest.raises(ValueError, match="nonzero on 0d arrays"):
        gpukit.nonzero(gpukit.asarray(numpy.array(3)))


@pytest.mark.parametrize("dtype", ["int8", "float16", "complex128", "bool", "uint64"])
def test_take_as_numpy_in_every_mode(dtype, rng):
    for name, values, array in layouts(rng, dtype):
        for axis in [None, 0, -1]:
            extent = values.size if axis is None else values.shape[axis]
            indices = random_indices(rng, extent, (2, 3))
            if extent:
                same(gpukit.take(array, indices, axis=axis), numpy.take(values, indices, axis=axis), name)
                same(array.take(gpukit.asarray(indices), axis), values.take(indices, axis), name)
            far = rng.integers(-3 * extent - 2, 3 * extent + 2, size=(4,))
            for mode in ["wrap", "clip"]:
                if extent:
                    same(gpukit.take(array, far, axis, mode=mode), numpy.take(values, far, axis, mode=mode), name)
                else:
                    with pytest.raises(IndexError, match="non-empty take from an empty axes"):
                        gpukit.take(array, far, axis, mode=mode)


def test_take_into_out(rng):
    values = random_array(rng, (5, 6), "int16")
    array = gpukit.asarray(values)
    out = gpukit.empty((5, 2), numpy.float32)  # int16 casts safely to float32
    assert gpukit.take(array, [1, -1], axis=1, out=out) is out
    numpy.testing.assert_array_equal(out.get(), values.take([1, -1], axis=1).astype(numpy.float32))
    same_dtype = gpukit.empty(2, numpy.int16)
    array.take([3, 7], out=same_dtype)
    numpy.testing.assert_array_equal(same_dtype.get(), values.take([3, 7]))
    with pytest.raises(ValueError, match="output array does not match"):
        gpukit.take(array, [1], axis=1, out=gpukit.empty((5, 2), numpy.int16))
    with pytest.raises(ValueError, match="according to the rule 'safe'"):
        gpukit.take(array, [1], axis=1, out=gpukit.empty((5, 1), numpy.int8))


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_put_as_numpy(mode, rng):
    for name, values, array in layouts(rng, "float64"):
        if values.size == 0:
            continue
        values = values.copy()
        n = values.size
        indices = rng.permutation(n)[:5] if mode == "raise" else rng.integers(-3 * n, 3 * n, size=5)
        # One index per position: which of several writes to one position lands is undefined on a GPU
        # (as CuPy's), where NumPy's last one does.
        positions = indices % n if mode == "wrap" else numpy.clip(indices, 0, n - 1)
        indices = indices[numpy.sort(numpy.unique(positions, return_index=True)[1])]
        new = random_array(rng, 2, "float64")  # repeated over the indices
        gpukit.put(array, indices, new, mode=mode)
        flat = values.flatten()  # put's positions are those of the C-order flattening, whatever the layout
        numpy.put(flat, indices, new, mode=mode)
        values[...] = flat.reshape(values.shape)
        same(array, values, name)
        array.put([0], 7.5)
        values.flat[0] = 7.5
        same(array, values, name)


def test_put_raise_writes_nothing_when_an_index_is_out_of_range(rng):
    values = random_array(rng, 5, "int32")
    array = gpukit.asarray(values)
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 5"):
        gpukit.put(array, [0, 7], [9, 9])
    same(array, values)
    gpukit.put(array, [0], [])  # no values: nothing to do, as NumPy
    same(array, values)


def test_take_along_axis_and_put_along_axis_as_numpy(rng):
    values = random_array(rng, (4, 6, 5), "float32")
    array = gpukit.asarray(values)
    for axis in [0, 1, -1]:
        order = numpy.argsort(values, axis=axis)
        same(gpukit.take_along_axis(array, order, axis), numpy.take_along_axis(values, order, axis))
        first = numpy.take(order, [0], axis=axis)
        same(gpukit.take_along_axis(array.T, first.T, -1 - axis if axis >= 0 else 0),
             numpy.take_along_axis(values.T, first.T, -1 - axis if axis >= 0 else 0))
    same(gpukit.take_along_axis(array, numpy.zeros((1, 1, 1), numpy.int64), 1),
         numpy.take_along_axis(values, numpy.zeros((1, 1, 1), numpy.int64), 1))
    flat = numpy.array([3, -1, 0])
    same(gpukit.take_along_axis(array, flat, None), numpy.take_along_axis(values, flat, None))
    biggest = numpy.argmax(values, axis=1)[:, None, :]
    gpukit.put_along_axis(array, biggest, -9, axis=1)
    numpy.put_along_axis(values, biggest, -9, axis=1)
    same(array, values)
    new = random_array(rng, (4, 1, 1), "float32")
    gpukit.put_along_axis(array, biggest, gpukit.asarray(new), axis=1)
    numpy.put_along_axis(values, biggest, new, axis=1)
    same(array, values)
    with pytest.raises(ValueError, match="same number of dimensions"):
        gpukit.take_along_axis(array, [0], 1)
    with pytest.raises(IndexError, match="must be an integer array"):
        gpukit.take_along_axis(array, numpy.zeros((1, 1, 1)), 1)
    with pytest.raises(IndexError, match="index 6 is out of bounds for axis 1 with size 6"):
        gpukit.take_along_axis(array, numpy.full((1, 1, 1), 6), 1)


def test_compress_as_numpy(rng):
    values = random_array(rng, (4, 5), "uint8")
    array = gpukit.asarray(values)
    for condition, axis in [([True, False, True, True], 0), ([0, 1, 1], 1), ([1, 0, 1], None), ([], 0),
                            (numpy.array([False, True, False, False, True, False, False]), 1)]:
        same(gpukit.compress(condition, array, axis), numpy.compress(condition, values, axis))
        same(array.compress(gpukit.asarray(numpy.asarray(condition, bool)), axis),
             values.compress(numpy.asarray(condition, bool), axis))
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 0 with size 4"):
        gpukit.compress([0, 0, 0, 0, 1], array, 0)
    with pytest.raises(ValueError, match="condition must be a 1-d array"):
        gpukit.compress([[1]], array)


# ---- mistakes


def test_index_mistakes_raise_what_numpy_raises(rng):
    values = random_array(rng, (2, 3, 4), "float32")
    array = gpukit.asarray(values)
    cases = [
        ((numpy.array([0, 10]),), IndexError, "index 10 is out of bounds for axis 0 with size 2"),
        ((slice(None), [1, 2], [0, -5]), IndexError, "index -5 is out of bounds for axis 2 with size 4"),
        ((None, 1, [3]), IndexError, "index 3 is out of bounds for axis 1 with size 3"),
        (([0, 1], [0, 1, 2]), IndexError, r"shape mismatch: indexing arrays could not be broadcast together with "
                                          r"shapes \(2,\) \(3,\)"),
        ((1, numpy.ones(4, bool)), IndexError, "boolean index did not match indexed array along axis 1; size of axis "
                                               "is 3 but size of corresponding boolean axis is 4"),
        ((numpy.array([1.0]),), IndexError, "arrays used as indices must be of integer"),
        ((1.5,), IndexError, "only integers, slices"),
        (("a",), IndexError, "only integers, slices"),
        (([0, slice(None)],), IndexError, "only integers, slices"),
        ((0, 0, 0, [0]), IndexError, "too many indices for array: array is 3-dimensional, but 4 were indexed"),
        ((False, [0, 1]), IndexError, r"shapes \(0,\) \(2,\)"),
    ]
    for key, error, message in cases:
        with pytest.raises(error, match=message):
            values[key]
        with pytest.raises(error, match=message):
            array[key]
    with pytest.raises(ValueError, match=r"shape mismatch: value array of shape \(3,\) could not be broadcast to "
                                         r"indexing result of shape \(2, 3, 4\)"):
        array[[0, 1]] = [1, 2, 3]
    with pytest.raises(ValueError, match="cannot assign 2 input values to the 24 output values where the mask is true"):
        array[numpy.ones((2, 3, 4), bool)] = [1, 2]
    with pytest.raises(IndexError, match="index 2 is out of bounds for axis 0 with size 2"):
        array[[0, 2]] = 5
    same(array, values)  # nothing written
    with pytest.raises(ValueError, match="clipmode must be one of 'clip', 'raise', or 'wrap' \\(got 'near'\\)"):
        gpukit.take(array, [0], mode="near")
    with pytest.raises(ValueError, match="axis 3 is out of bounds for array of dimension 3"):
        gpukit.take(array, [0], axis=3)
    with pytest.raises(TypeError, match="gpukit.asarray"):
        gpukit.take(values, [0])
    with pytest.raises(ValueError, match="both or neither"):
        gpukit.where(array, 1)
    with pytest.raises(TypeError, match="gpukit.asarray"):
        gpukit.where(array, values, 2)


@pytest.mark.parametrize("dtype", DTYPES)
def test_extract_place_and_putmask_equal_numpy_s(dtype, rng):
    for name, values, device in layouts(rng, dtype):
        mask = rng.random(values.shape) < 0.4
        same(gpukit.extract(gpukit.asarray(mask), device), numpy.extract(mask, values), f"extract {name}")
        same(numpy.extract(mask, device), numpy.extract(mask, values), f"numpy.extract {name}")
        fill = host(rng, 3, dtype)
        expected = values.copy()
        numpy.place(expected, mask, fill)
        gpukit.place(device, gpukit.asarray(mask), gpukit.asarray(fill))  # the values repeat in order
        same(device, expected, f"place {name}")
        cycled = host(rng, 5, dtype)
        numpy.putmask(expected, ~mask, cycled)
        gpukit.putmask(device, gpukit.asarray(~mask), gpukit.asarray(cycled))  # value n % 5 at position n
        same(device, expected, f"putmask {name}")
        numpy.putmask(expected, mask, expected[::-1] if expected.ndim == 1 else expected)
        gpukit.putmask(device, mask, device[::-1] if device.ndim == 1 else device)  # values: a's own memory
        same(device, expected, f"putmask from itself {name}")


def test_place_and_putmask_refuse_what_numpy_refuses():
    x = gpukit.asarray(numpy.arange(6.0))
    with pytest.raises(ValueError, match="place: mask and data must be the same size"):
        gpukit.place(x, gpukit.asarray(numpy.array([True])), gpukit.asarray(numpy.array([1.0])))
    with pytest.raises(ValueError, match="Cannot insert from an empty array!"):
        gpukit.place(x, x > 2, gpukit.asarray(numpy.zeros(0)))
    gpukit.place(x, x > 9, gpukit.asarray(numpy.zeros(0)))  # nothing chosen: no values needed
    with pytest.raises(ValueError, match="putmask: mask and data must be the same size"):
        gpukit.putmask(x, gpukit.asarray(numpy.array([True])), 1.0)
    gpukit.putmask(x, x > 2, gpukit.asarray(numpy.zeros(0)))  # no values: nothing changes, as NumPy's
    gpukit.putmask(x, x > 2, 2.5)
    numpy.testing.assert_array_equal(x.get(), [0, 1, 2, 2.5, 2.5, 2.5])
    with pytest.raises(IndexError, match="index 6 is out of bounds"):
        gpukit.extract(gpukit.ones(8), x)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "float32", "complex128", "bool"])
def test_fill_diagonal_equals_numpy_s(dtype, rng):
    for shape, wrap in (((3, 5), False), ((7, 3), True), ((7, 3), False), ((4, 4, 4), False), ((1, 1), False),
                        ((0, 3), False), ((5, 5), True)):
        expected = host(rng, shape, dtype)
        device = gpukit.asarray(expected)
        value = host(rng, 2, dtype)
        numpy.fill_diagonal(expected, value, wrap=wrap)
        gpukit.fill_diagonal(device, gpukit.asarray(value), wrap=wrap)
        same(device, expected, f"fill_diagonal {shape} wrap={wrap}")
    base = host(rng, (6, 8), dtype)
    view, view_host = gpukit.asarray(base)[::2, ::-2], base[::2, ::-2].copy()
    numpy.fill_diagonal(view_host, base.flat[0])
    numpy.fill_diagonal(view, base.flat[0])  # through __array_function__, a strided view, one value
    same(view, view_host, "fill_diagonal of a strided view")
    with pytest.raises(ValueError, match="at least 2-d"):
        gpukit.fill_diagonal(gpukit.zeros(3), 1.0)
    with pytest.raises(ValueError, match="All dimensions of input must be of equal length"):
        gpukit.fill_diagonal(gpukit.zeros((2, 3, 2)), 1.0)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_choose_equals_numpy_s(mode, rng):
    for dtypes in (("int8", "int8", "int8"), ("int16", "float32", "uint8"), ("complex64", "float64", "bool")):
        shape = (4, 9)
        choices = [host(rng, shape if k != 1 else (1, 9), dtype) for k, dtype in enumerate(dtypes)]
        low, high = (0, 3) if mode == "raise" else (-5, 8)
        keys = rng.integers(low, high, shape).astype(numpy.int32)
        expected = numpy.choose(keys, choices, mode=mode)
        got = gpukit.choose(gpukit.asarray(keys), [gpukit.asarray(c) for c in choices], mode=mode)
        same(got, expected, f"choose {dtypes} {mode}")
        same(numpy.choose(gpukit.asarray(keys)[::-1].T, [gpukit.asarray(c).T for c in choices], mode=mode),
             numpy.choose(keys[::-1].T, [c.T for c in choices], mode=mode), "numpy.choose of a transposed view")
    for count, dtype in ((16, "float16"), (17, "int64")):  # one kernel's most choices, and one more (stacked)
        many = host(rng, (count, 7), dtype)
        low, high = (0, count) if mode == "raise" else (-count - 3, count + 3)
        keys = rng.integers(low, high, 7)
        same(gpukit.choose(gpukit.asarray(keys), gpukit.asarray(many), mode=mode),
             numpy.choose(keys, many, mode=mode), f"choose among {count} {mode}")
    stacked = host(rng, (3, 5), "float64")
    keys = rng.integers(0, 3, 5)
    same(gpukit.choose(gpukit.asarray(keys), gpukit.asarray(stacked)), numpy.choose(keys, stacked), "stacked choices")
    same(gpukit.asarray(keys).choose(gpukit.asarray(stacked), mode=mode), keys.choose(stacked, mode=mode),
         "ndarray.choose")
    out = gpukit.empty(5)
    assert gpukit.choose(gpukit.asarray(keys), gpukit.asarray(stacked), out=out) is out
    same(out, numpy.choose(keys, stacked), "choose into out")
    same(gpukit.choose(gpukit.asarray(numpy.zeros(0, numpy.int64)), [gpukit.zeros(0)]), numpy.zeros(0), "empty")


def test_choose_refuses_what_numpy_refuses():
    choices = [gpukit.zeros(3), gpukit.ones(3)]
    with pytest.raises(ValueError, match="invalid entry in choice array"):
        gpukit.choose(gpukit.asarray(numpy.array([0, 2, 1])), choices)
    with pytest.raises(ValueError, match="invalid entry in choice array"):
        gpukit.choose(gpukit.asarray(numpy.array([0, 17, 1])), [gpukit.ones(3)] * 17)
    with pytest.raises(TypeError, match="Cannot cast array data from dtype\\('float64'\\) to dtype\\('int64'\\)"):
        gpukit.choose(gpukit.asarray(numpy.array([0.0, 1.0, 1.0])), choices)
    with pytest.raises(ValueError, match="mode"):
        gpukit.choose(gpukit.asarray(numpy.array([0, 1, 1])), choices, mode="bad")
    same(gpukit.choose(gpukit.asarray(numpy.array([0, 1, 1])), choices), numpy.array([0.0, 1.0, 1.0]), "after")
