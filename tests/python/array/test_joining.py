"""Joining and splitting against NumPy: concatenate (axis, axis=None, out=, dtype=, casting=), stack,
vstack, hstack, dstack, column_stack, split and array_split, over dtypes and input layouts
(src/array/joining.cpp, splitting.cpp)."""

import numpy
import pytest

import gpukit
from conftest import random_array
from layouts import assert_same


def pair(rng, shape, dtype):
    host = random_array(rng, shape, dtype)
    return host, gpukit.asarray(host)


# A same-dtype copy runs the same code for every dtype of one size (out0 = in0): one dtype per item
# size and kind keeps the kernel count down; conversions between dtypes are test_device_copy's.
@pytest.mark.parametrize("dtype", ["bool", "uint16", "float32", "int64", "complex128"])
def test_concatenate_and_stack_every_item_size_and_layout(dtype, rng):
    a_host, a = pair(rng, (3, 4), dtype)
    b_host, b = pair(rng, (4, 6), dtype)
    b_host, b = b_host[::-1, ::2].T, b[::-1, ::2].T  # (3, 4), strided, reversed and transposed
    for axis in (0, 1, -1, None):
        assert_same(gpukit.concatenate([a, b, a[:, :0]] if axis in (1, -1) else [a, b], axis=axis),
                    numpy.concatenate([a_host, b_host, a_host[:, :0]] if axis in (1, -1) else [a_host, b_host],
                                      axis=axis))
    for axis in (0, 1, 2, -1):
        assert_same(gpukit.stack((a, b), axis), numpy.stack((a_host, b_host), axis))
    assert_same(gpukit.vstack([a, b]), numpy.vstack([a_host, b_host]))
    assert_same(gpukit.hstack([a, b]), numpy.hstack([a_host, b_host]))
    assert_same(gpukit.dstack([a, b]), numpy.dstack([a_host, b_host]))
    assert_same(gpukit.column_stack([a[:, 0], b]), numpy.column_stack([a_host[:, 0], b_host]))


def test_concatenate_promotes_casts_and_writes_into_out(rng):
    i_host, i = pair(rng, (2, 3), "int16")
    f_host, f = pair(rng, (1, 3), "float32")
    u_host, u = pair(rng, (5,), "uint8")
    assert_same(gpukit.concatenate([i, f]), numpy.concatenate([i_host, f_host]))
    assert_same(gpukit.concatenate([i, f], dtype="float64"), numpy.concatenate([i_host, f_host], dtype="float64"))
    assert_same(gpukit.concatenate([i, f], dtype="int8", casting="unsafe"),
                numpy.concatenate([i_host, f_host], dtype="int8", casting="unsafe"))
    assert_same(gpukit.hstack([u, u[::-1]]), numpy.hstack([u_host, u_host[::-1]]))
    assert_same(gpukit.concatenate([gpukit.asarray(numpy.float64(2)), u], axis=None),
                numpy.concatenate([numpy.float64(2), u_host], axis=None))
    out = gpukit.zeros((3, 3), "float64")
    result = gpukit.concatenate([i, f], out=out)
    assert result.data_ptr == out.data_ptr
    numpy.testing.assert_array_equal(out.get(), numpy.concatenate([i_host, f_host]).astype("float64"))
    stacked = gpukit.empty((2, 5), "int32")
    gpukit.stack([u, u], out=stacked)
    assert_same(stacked, numpy.stack([u_host, u_host]).astype("int32"))


def test_joining_refuses_what_numpy_refuses(rng):
    _, a = pair(rng, (2, 3), "float64")
    _, b = pair(rng, (2, 2), "float64")
    with pytest.raises(ValueError, match="need at least one array to concatenate"):
        gpukit.concatenate([])
    with pytest.raises(ValueError, match="zero-dimensional arrays cannot be concatenated"):
        gpukit.concatenate([a[0, 0], a[0, 1]])
    with pytest.raises(ValueError, match="along dimension 1, the array at index 0 has size 3 and the array at "
                                         "index 1 has size 2"):
        gpukit.concatenate([a, b])
    with pytest.raises(ValueError, match="the array at index 0 has 2 dimension.s. and the array at index 1 has 1"):
        gpukit.concatenate([a, b[0]])
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.concatenate([a, a], axis=2)
    with pytest.raises(TypeError, match="Cannot cast array data from dtype.'float64'. to dtype.'int32'. according to "
                                        "the rule 'same_kind'"):
        gpukit.concatenate([a, a], dtype="int32")
    with pytest.raises(TypeError, match="only takes `out` or `dtype`"):
        gpukit.concatenate([a, a], out=gpukit.empty((4, 3)), dtype="float64")
    with pytest.raises(ValueError, match="wrong shape"):
        gpukit.concatenate([a, a], out=gpukit.empty((3, 3)))
    with pytest.raises(ValueError, match="all input arrays must have the same shape"):
        gpukit.stack([a, b])
    with pytest.raises(ValueError, match="need at least one array to stack"):
        gpukit.stack([])
    with pytest.raises(TypeError, match="gpukit.asarray"):
        gpukit.concatenate([a, numpy.zeros((2, 3))])
    with pytest.raises(TypeError, match="sequence"):
        gpukit.concatenate(a)


@pytest.mark.parametrize("sections", [1, 3, [2, 5], [-3], [1, 1, 9], []])
@pytest.mark.parametrize("axis", [0, 1])
def test_split_and_array_split_are_numpy_s_views(sections, axis, rng):
    host, device = pair(rng, (7, 6), "int32")
    try:
        expected = numpy.split(host, sections, axis)
    except ValueError:
        with pytest.raises(ValueError, match="equal division"):
            gpukit.split(device, sections, axis)
        expected = None
    if expected is not None:
        parts = gpukit.split(device, sections, axis)
        assert len(parts) == len(expected)
        for got, want in zip(parts, expected):
            assert_same(got, want)
    parts, expected = gpukit.array_split(device, sections, axis), numpy.array_split(host, sections, axis)
    assert len(parts) == len(expected)
    for got, want in zip(parts, expected):
        assert_same(got, want)
        if got.size:
            assert device.data_ptr <= got.data_ptr < device.data_ptr + device.nbytes  # a view
    with pytest.raises(ValueError, match="larger than 0"):
        gpukit.array_split(device, 0)
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.split(device, 2, axis=2)
