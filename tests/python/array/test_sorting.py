"""sort, argsort, lexsort, partition, searchsorted, unique and the set routines against NumPy
(src/ops/sort/): every dtype (bfloat16 through float32 references), the layouts of layouts.py and
broadcast views, axes -1, 0 and None, sizes 0 to several radix-pass blocks, keys with many repeats
(argsort must equal numpy.argsort(kind='stable')), NaN, infinities and -0.0, methods and functions,
and the errors NumPy raises."""

import numpy
import pytest

import gpukit
from conftest import ALL_DTYPES
from layouts import LAYOUTS

SIZES = [0, 1, 31, 1025, 3 * 4096 + 17, 70001]


def repeated_values(rng, shape, dtype):
    """Values with many repeats; NaN, infinities and -0.0 among floats; NaN parts among complex numbers."""
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    low = 0 if dtype.kind == "u" else -20
    values = rng.integers(low, 21, size=shape).astype(numpy.float64)
    if dtype.kind in "iu":
        return values.astype(dtype)
    values = values / 4
    flat = values.reshape(-1)
    count = flat.size
    for fraction, special in ((7, numpy.nan), (11, -0.0), (13, numpy.inf), (17, -numpy.inf)):
        flat[rng.integers(0, count, size=count // fraction)] = special
    if dtype.kind == "c":
        imaginary = rng.integers(-3, 4, size=shape).astype(numpy.float64).reshape(-1)
        imaginary[rng.integers(0, count, size=count // 9)] = numpy.nan
        imaginary[rng.integers(0, count, size=count // 10)] = -0.0
        return (flat + 1j * imaginary).reshape(shape).astype(dtype)
    return values.astype(dtype)


def device_and_host(host, dtype):
    """The device array of ``host`` in ``dtype`` (bfloat16 from float32 values, exact here)."""
    if dtype == "bfloat16":
        return gpukit.asarray(host.astype(numpy.float32)).astype("bfloat16"), host.astype(numpy.float32)
    return gpukit.asarray(host), host


def values_of(device, dtype):
    return (device.astype("float32") if dtype == "bfloat16" else device).get()


SORT_DTYPES = ALL_DTYPES + ["bfloat16"]


def layout_views(rng, name, dtype):
    shape, take = LAYOUTS[name]
    host = repeated_values(rng, shape, "float32" if dtype == "bfloat16" else dtype)
    device, host = device_and_host(host, dtype)
    return take(device), take(host)


def numpy_argsort(host, axis):
    return numpy.argsort(host, axis=axis, kind="stable")


def numpy_sort(host, axis=-1):
    """numpy.sort; float16 through float32 (exact): NumPy 2.4's float16 sort misorders some of these inputs."""
    if host.dtype == numpy.float16:
        return numpy.sort(host.astype(numpy.float32), axis=axis).astype(numpy.float16)
    return numpy.sort(host, axis=axis)


@pytest.mark.parametrize("dtype", SORT_DTYPES)
@pytest.mark.parametrize("layout", [name for name in LAYOUTS if name != "0-d"])
@pytest.mark.parametrize("axis", [-1, 0, None])
def test_sort_and_argsort_match_numpy(rng, dtype, layout, axis):
    device, host = layout_views(rng, layout, dtype)
    got = gpukit.sort(device, axis=axis)
    assert got.shape == numpy.sort(host, axis=axis).shape
    numpy.testing.assert_array_equal(values_of(got, dtype), numpy_sort(host, axis=axis))
    order = gpukit.argsort(device, axis=axis)
    assert order.dtype == numpy.int64
    numpy.testing.assert_array_equal(order.get(), numpy_argsort(host, axis))
    numpy.testing.assert_array_equal(device.argsort(axis=axis).get(), numpy_argsort(host, axis))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "uint64", "float16", "float32", "float64",
                                   "complex64", "complex128"])
@pytest.mark.parametrize("size", SIZES)
def test_sizes_past_tiles_and_blocks(rng, dtype, size):
    host = repeated_values(rng, (size,), dtype)
    device = gpukit.asarray(host)
    numpy.testing.assert_array_equal(gpukit.sort(device).get(), numpy_sort(host))
    numpy.testing.assert_array_equal(gpukit.argsort(device).get(), numpy_argsort(host, -1))


@pytest.mark.parametrize("dtype", ["int16", "float32", "complex128"])
@pytest.mark.parametrize("shape", [(3, 5, 7), (300, 70), (2, 9000), (1025, 3)])
def test_every_axis_of_several_dimensions(rng, dtype, shape):
    host = repeated_values(rng, shape, dtype)
    device = gpukit.asarray(host)
    for axis in [*range(-len(shape), len(shape)), None]:
        numpy.testing.assert_array_equal(gpukit.sort(device, axis=axis).get(), numpy.sort(host, axis=axis))
        numpy.testing.assert_array_equal(gpukit.argsort(device, axis=axis).get(), numpy_argsort(host, axis))


def test_broadcast_views_sort_as_numpy(rng):
    host = repeated_values(rng, (1, 9), "float64")
    device = gpukit.broadcast_to(gpukit.asarray(host), (4, 9))
    expected = numpy.broadcast_to(host, (4, 9))
    for axis in (0, 1, None):
        numpy.testing.assert_array_equal(gpukit.sort(device, axis=axis).get(), numpy.sort(expected, axis=axis))
        numpy.testing.assert_array_equal(gpukit.argsort(device, axis=axis).get(), numpy_argsort(expected, axis))


def test_nan_infinities_and_signed_zeros_take_numpys_places():
    host = numpy.array([numpy.nan, 1.0, -0.0, -numpy.inf, 0.0, numpy.inf, -numpy.nan, -0.0, -1.0], numpy.float32)
    device = gpukit.asarray(host)
    got = gpukit.sort(device).get()
    numpy.testing.assert_array_equal(got, numpy.sort(host))
    assert numpy.signbit(got).sum() == 4  # -inf, -1 and both -0.0 kept (NaN comes back positive)
    numpy.testing.assert_array_equal(gpukit.argsort(device).get(), numpy_argsort(host, -1))
    complex_host = numpy.array([complex(numpy.nan, 1), complex(2, numpy.nan), 1 + 1j, complex(numpy.nan, numpy.nan),
                                complex(1, numpy.nan), 1 - 1j, complex(numpy.nan, 0)], numpy.complex128)
    order = gpukit.argsort(gpukit.asarray(complex_host)).get()
    numpy.testing.assert_array_equal(order, numpy_argsort(complex_host, -1))


def test_ndarray_sort_sorts_in_place(rng):
    host = repeated_values(rng, (6, 40), "int32")
    base = gpukit.asarray(host)
    view = base[:, ::2]
    view.sort(axis=0)
    expected = host.copy()
    expected[:, ::2] = numpy.sort(host[:, ::2], axis=0)
    numpy.testing.assert_array_equal(base.get(), expected)
    device = gpukit.asarray(host)
    assert device.sort() is None
    numpy.testing.assert_array_equal(device.get(), numpy.sort(host))


def test_kind_stable_and_order_arguments():
    device = gpukit.asarray(numpy.array([3, 1, 2]))
    for kind in ("quicksort", "mergesort", "heapsort", "stable"):
        numpy.testing.assert_array_equal(gpukit.sort(device, kind=kind).get(), [1, 2, 3])
    numpy.testing.assert_array_equal(gpukit.argsort(device, stable=True).get(), [1, 2, 0])
    with pytest.raises(ValueError, match="sort kind must be one of"):
        gpukit.sort(device, kind="bogus")
    with pytest.raises(ValueError, match="can't be provided at the same time"):
        gpukit.sort(device, kind="stable", stable=True)
    with pytest.raises(ValueError, match="Cannot specify order when the array has no fields"):
        gpukit.argsort(device, order="x")
    with pytest.raises(ValueError, match="Cannot specify order"):
        device.sort(order=["x"])
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.sort(device, axis=1)
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.sort(gpukit.asarray(numpy.float32(1)))
    numpy.testing.assert_array_equal(gpukit.argsort(gpukit.asarray(numpy.float32(1))).get(),
                                     numpy.argsort(numpy.float32(1)))


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex128"])
@pytest.mark.parametrize("axis", [-1, 0])
def test_lexsort_matches_numpy(rng, dtype, axis):
    keys = [repeated_values(rng, (30, 50), dtype) for _ in range(3)]
    device_keys = [gpukit.asarray(k) for k in keys]
    numpy.testing.assert_array_equal(gpukit.lexsort(device_keys, axis=axis).get(), numpy.lexsort(keys, axis=axis))
    stacked = numpy.stack(keys)
    numpy.testing.assert_array_equal(gpukit.lexsort(gpukit.asarray(stacked), axis=axis).get(),
                                     numpy.lexsort(stacked, axis=axis))
    numpy.testing.assert_array_equal(gpukit.lexsort((device_keys[0],)).get(), numpy.lexsort((keys[0],)))
    with pytest.raises(ValueError):
        gpukit.lexsort([device_keys[0], device_keys[1][:3]])


@pytest.mark.parametrize("kth", [0, 5, -1, [1, 7], (0, -3)])
@pytest.mark.parametrize("axis", [-1, 0, None])
def test_partition_places_each_kth_as_numpy(rng, kth, axis):
    host = repeated_values(rng, (9, 12), "float64")
    device = gpukit.asarray(host)
    expected = numpy.partition(host, kth, axis=axis)
    got = gpukit.partition(device, kth, axis=axis).get()
    indices = numpy.atleast_1d(kth)
    taken = numpy.take(got, indices, axis=0 if axis is None else axis)
    numpy.testing.assert_array_equal(taken, numpy.take(expected, indices, axis=0 if axis is None else axis))
    numpy.testing.assert_array_equal(got, numpy.sort(host, axis=axis))  # ours: a full stable sort
    order = gpukit.argpartition(device, kth, axis=axis).get()
    numpy.testing.assert_array_equal(order, numpy_argsort(host, axis))
    numpy.testing.assert_array_equal(device.argpartition(kth, axis=0 if axis is None else axis).get(),
                                     numpy_argsort(host, 0 if axis is None else axis))


def test_partition_errors_and_method():
    host = numpy.arange(5.0)[::-1].copy()
    device = gpukit.asarray(host)
    with pytest.raises(ValueError, match=r"kth\(=5\) out of bounds \(5\)"):
        gpukit.partition(device, 5)
    with pytest.raises(ValueError, match=r"kth\(=-1\) out of bounds \(5\)"):
        gpukit.argpartition(device, -6)
    with pytest.raises(TypeError, match="Partition index must be integer"):
        gpukit.partition(device, 1.5)
    with pytest.raises(ValueError, match="select kind must be 'introselect'"):
        gpukit.partition(device, 1, kind="quicksort")
    with pytest.raises(ValueError, match="Cannot specify order"):
        device.argpartition(1, order="x")
    device.partition(2)
    numpy.testing.assert_array_equal(device.get(), numpy.sort(host))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_matches_numpy(rng, dtype, side):
    haystack = numpy.sort(repeated_values(rng, (300,), dtype))
    needles = repeated_values(rng, (4, 25), dtype)
    got = gpukit.searchsorted(gpukit.asarray(haystack), gpukit.asarray(needles), side=side)
    assert got.dtype == numpy.int64 and got.shape == needles.shape
    numpy.testing.assert_array_equal(got.get(), numpy.searchsorted(haystack, needles, side=side))
    method = gpukit.asarray(haystack).searchsorted(gpukit.asarray(needles[0]), side=side)
    numpy.testing.assert_array_equal(method.get(), numpy.searchsorted(haystack, needles[0], side=side))


def test_searchsorted_sorter_scalars_and_mixed_dtypes(rng):
    host = repeated_values(rng, (200,), "float64")
    sorter = numpy.argsort(host, kind="stable")
    needles = numpy.array([-3.0, 0.0, -0.0, 2.25, numpy.nan, numpy.inf])
    got = gpukit.searchsorted(gpukit.asarray(host), gpukit.asarray(needles), sorter=gpukit.asarray(sorter))
    numpy.testing.assert_array_equal(got.get(), numpy.searchsorted(host, needles, sorter=sorter))
    integers = numpy.arange(0, 20, 2)
    device = gpukit.asarray(integers)
    assert int(gpukit.searchsorted(device, 7).get()) == numpy.searchsorted(integers, 7)
    assert int(gpukit.searchsorted(device, 8, side="right").get()) == numpy.searchsorted(integers, 8, side="right")
    halves = numpy.array([3.5, 4.0, -1.5])
    numpy.testing.assert_array_equal(gpukit.searchsorted(device, gpukit.asarray(halves)).get(),
                                     numpy.searchsorted(integers, halves))
    with pytest.raises(ValueError, match="search side must be 'left' or 'right'"):
        gpukit.searchsorted(device, 1, side="middle")
    with pytest.raises(ValueError):
        gpukit.searchsorted(gpukit.asarray(numpy.ones((2, 2))), 1.0)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("equal_nan", [True, False])
def test_unique_matches_numpy(rng, dtype, equal_nan):
    host = repeated_values(rng, (15, 40), dtype)
    device = gpukit.asarray(host)
    values, index, inverse, counts = gpukit.unique(device, return_index=True, return_inverse=True,
                                                   return_counts=True, equal_nan=equal_nan)
    expected = numpy.unique(host, return_index=True, return_inverse=True, return_counts=True, equal_nan=equal_nan)
    numpy.testing.assert_array_equal(values.get(), expected[0])
    numpy.testing.assert_array_equal(index.get(), expected[1])
    assert inverse.shape == expected[2].shape
    numpy.testing.assert_array_equal(inverse.get(), expected[2])
    numpy.testing.assert_array_equal(counts.get(), expected[3])
    numpy.testing.assert_array_equal(gpukit.unique(device, equal_nan=equal_nan).get(),
                                     numpy.unique(host, equal_nan=equal_nan))


@pytest.mark.parametrize("dtype", ["bool", "int16", "uint64", "float16", "float32", "complex128"])
def test_unique_family_matches_numpy_2(rng, dtype):
    """unique_all, unique_counts, unique_inverse and unique_values: each NaN its own value, the parts
    as named tuples of NumPy's fields, the inverse in the input's shape."""
    if not hasattr(numpy, "unique_all"):
        pytest.skip("this NumPy has no unique_all")
    host = repeated_values(rng, (7, 30), dtype)
    if host.dtype.kind in "fc":
        host.reshape(-1)[3::41] = numpy.nan
    device = gpukit.asarray(host)
    for name in ("unique_all", "unique_counts", "unique_inverse"):
        got, expected = getattr(gpukit, name)(device), getattr(numpy, name)(host)
        assert type(got).__name__ == type(expected).__name__ and got._fields == expected._fields
        for field, mine, theirs in zip(got._fields, got, expected, strict=True):
            assert mine.shape == theirs.shape
            if field == "inverse_indices" and name == "unique_inverse":
                # NumPy sorts unstably here, so which NaN a NaN maps to varies: rebuild x instead.
                numpy.testing.assert_array_equal(got.values.get()[mine.get()], host)
            else:
                numpy.testing.assert_array_equal(mine.get(), theirs)
    # NumPy 2.4's unique_values may leave its values unsorted ("may vary"); ours are sorted.
    numpy.testing.assert_array_equal(gpukit.unique_values(device).get(), numpy.unique(host, equal_nan=False))
    assert gpukit.unique_values(gpukit.asarray(host[:0])).shape == (0,)
    numpy.testing.assert_array_equal(gpukit.unique(device, sorted=False).get(), numpy.unique(host))
    with pytest.raises(TypeError):
        gpukit.unique_values(host)  # host arrays are not copied behind the user's back


@pytest.mark.parametrize("size", [0, 1, 31, 70001])
def test_unique_sizes_and_flags(rng, size):
    host = repeated_values(rng, (size,), "float32")
    device = gpukit.asarray(host)
    for flags in ((True, False, False), (False, True, False), (False, False, True)):
        got = gpukit.unique(device, *flags)
        expected = numpy.unique(host, *flags)
        assert len(got) == len(expected) == 2
        for mine, theirs in zip(got, expected, strict=True):
            numpy.testing.assert_array_equal(mine.get(), theirs)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "float16", "float64", "complex64"])
@pytest.mark.parametrize("shape_axis", [((9, 4), 0), ((9, 4), 1), ((5, 3, 4), 1), ((5, 3, 4), -1), ((0, 3), 0),
                                        ((3, 0), 0), ((40,), 0)])
def test_unique_subarrays_along_an_axis(rng, dtype, shape_axis):
    shape, axis = shape_axis
    host = repeated_values(rng, shape, dtype)
    if host.size:  # repeated subarrays
        host = numpy.take(host, rng.integers(0, 3, size=shape[axis]), axis=axis)
    device = gpukit.asarray(host)
    got = gpukit.unique(device, return_index=True, return_inverse=True, return_counts=True, axis=axis)
    expected = numpy.unique(host, return_index=True, return_inverse=True, return_counts=True, axis=axis)
    for mine, theirs in zip(got, expected, strict=True):
        assert mine.shape == theirs.shape
        numpy.testing.assert_array_equal(mine.get(), theirs)
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.unique(device, axis=len(shape))


@pytest.mark.parametrize("dtypes", [("int32", "int32"), ("float32", "float64"), ("int16", "float32"),
                                    ("complex64", "complex128"), ("uint8", "int64"), ("bool", "bool")])
def test_isin_and_set_routines_match_numpy(rng, dtypes):
    first = repeated_values(rng, (6, 35), dtypes[0])
    second = repeated_values(rng, (50,), dtypes[1])
    a, b = gpukit.asarray(first), gpukit.asarray(second)
    for invert in (False, True):
        got = gpukit.isin(a, b, invert=invert)
        assert got.shape == first.shape and got.dtype == numpy.bool_
        numpy.testing.assert_array_equal(got.get(), numpy.isin(first, second, invert=invert))
        numpy.testing.assert_array_equal(gpukit.in1d(a, b, invert=invert).get(),
                                         numpy.isin(first.ravel(), second, invert=invert))
    numpy.testing.assert_array_equal(gpukit.intersect1d(a, b).get(), numpy.intersect1d(first, second))
    values, first_index, second_index = gpukit.intersect1d(a, b, return_indices=True)
    expected = numpy.intersect1d(first, second, return_indices=True)
    for mine, theirs in zip((values, first_index, second_index), expected, strict=True):
        numpy.testing.assert_array_equal(mine.get(), theirs)
    for name in ("union1d", "setdiff1d", "setxor1d"):
        got = getattr(gpukit, name)(a, b).get()
        theirs = getattr(numpy, name)(first, second)
        assert got.dtype == theirs.dtype, name
        numpy.testing.assert_array_equal(got, theirs)
    unique_first, unique_second = numpy.unique(first), numpy.unique(second)
    ua, ub = gpukit.asarray(unique_first), gpukit.asarray(unique_second)
    for name in ("setdiff1d", "setxor1d", "intersect1d"):
        numpy.testing.assert_array_equal(getattr(gpukit, name)(ua, ub, assume_unique=True).get(),
                                         getattr(numpy, name)(unique_first, unique_second, assume_unique=True))


def test_set_routines_of_empty_arrays():
    empty = gpukit.asarray(numpy.zeros(0))
    some = gpukit.asarray(numpy.array([2.0, 1.0, 2.0]))
    assert gpukit.isin(some, empty).get().tolist() == [False] * 3
    assert gpukit.isin(empty, some).shape == (0,)
    numpy.testing.assert_array_equal(gpukit.union1d(empty, some).get(), [1.0, 2.0])
    numpy.testing.assert_array_equal(gpukit.setdiff1d(some, empty).get(), [1.0, 2.0])
    assert gpukit.intersect1d(empty, some).shape == (0,)
    assert gpukit.setxor1d(empty, empty).shape == (0,)
    assert gpukit.isin(gpukit.asarray(numpy.array([numpy.nan])), gpukit.asarray(numpy.array([numpy.nan]))).get()[0] \
        == numpy.isin(numpy.nan, [numpy.nan])
