"""Copies, conversions, fills and assignments on the device (src/array/device_copy.cpp) against NumPy:
astype between dtypes with the values where conversions differ (NaN, infinities, out of range,
float16 ties), copy(order=) of every layout, fill and assignment with broadcasting and overlap.

Each (source, target) dtype pair is a kernel of its own (compiled once per CI run), so the pairs
are chosen to reach every conversion path, not all 196."""

import warnings

import numpy
import pytest

import gpukit
from conftest import ALL_DTYPES, random_array
from layouts import LAYOUTS, assert_same, layout_pair

SPECIAL = numpy.array([numpy.nan, numpy.inf, -numpy.inf, 1e10, -1e10, 3e9, 1.5e19, -9.3e18, -2.5, 2.5, 255.9, 256.5,
                       -129.7, 65504.0, 65520.0, 1e-8, 0.1, -0.0, 1.0 + 2.0**-11 + 2.0**-30, 7.0])


def special_values(dtype):
    """Values at every conversion's edge, in ``dtype`` (through NumPy's own conversion)."""
    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        if numpy.dtype(dtype).kind == "c":
            return (SPECIAL + 1j * SPECIAL[::-1]).astype(dtype)
        return SPECIAL.astype(dtype)


def numpy_astype(values, dtype):
    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore")  # ComplexWarning, invalid casts
        return values.astype(dtype)


# NumPy's float -> uint32 of values outside (-2**31, 2**32) depends on the array's length (its SIMD
# loop, for 8 elements and more, saturates where its scalar loop wraps through int64): gpukit gives
# the scalar loop's values (src/array/convert.cpp), so those elements are left out for uint32.
def comparable(values, target):
    if numpy.dtype(target) != numpy.uint32 or values.dtype.kind not in "fc":
        return slice(None)
    with numpy.errstate(all="ignore"):
        real = values.real.astype(numpy.float64)
        return numpy.isfinite(real) & (real > -2.0**31) & (real < 2.0**32)


@pytest.mark.parametrize("source", ["float64", "float32"])
@pytest.mark.parametrize("target", ALL_DTYPES)
def test_astype_of_floats_at_every_edge_matches_numpy(source, target):
    values = special_values(source)
    converted = gpukit.asarray(values).astype(target)
    keep = comparable(values, target)
    numpy.testing.assert_array_equal(converted.get()[keep], numpy_astype(values, target)[keep])


@pytest.mark.parametrize("source", ALL_DTYPES)
@pytest.mark.parametrize("target", ["bool", "int8", "uint64", "float16", "float64", "complex64"])
def test_astype_from_every_dtype_matches_numpy(source, target, rng):
    values = random_array(rng, 37, source) if source[0] in "biu" else special_values(source)
    converted = gpukit.asarray(values).astype(target)
    assert converted.dtype == numpy.dtype(target)
    keep = comparable(values, target)
    numpy.testing.assert_array_equal(converted.get()[keep], numpy_astype(values, target)[keep])


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "float32", "complex128"])
def test_copy_and_astype_of_every_layout(layout, dtype, rng):
    host, device = layout_pair(rng, layout, dtype)
    for order in "CFAK":
        copied = device.copy(order=order)
        expected = host.copy(order=order)
        assert_same(copied, expected)
        assert copied.flags.c_contiguous == expected.flags.c_contiguous
        assert copied.flags.f_contiguous == expected.flags.f_contiguous
    assert_same(device.astype("float64"), host.astype("float64"))
    if host.size > 1:  # the strides of fewer elements than 2 are NumPy's to choose
        assert device.astype("float64").strides == host.astype("float64").strides  # order K keeps the layout


def test_astype_copy_false_and_casting(rng):
    device = gpukit.asarray(random_array(rng, (3, 4), "float32"))
    assert device.astype("float32", copy=False) is device
    assert device.astype("float32") is not device
    assert device.T.astype("float32", order="C", copy=False).flags.c_contiguous
    with pytest.raises(TypeError, match="Cannot cast array data from dtype.'float32'. to dtype.'int16'. according "
                                        "to the rule 'same_kind'"):
        device.astype("int16", casting="same_kind")
    assert device.astype("float64", casting="safe").dtype == numpy.float64


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_fill_with_values_whose_bytes_differ(dtype, rng):
    host = random_array(rng, (9, 8), dtype)
    device = gpukit.asarray(host)
    value = numpy.array(3, dtype).item() if dtype != "bool" else True
    device[::-2, 1::3].fill(value)
    host[::-2, 1::3] = value
    numpy.testing.assert_array_equal(device.get(), host)
    device.fill(numpy.float64(-2.5) if dtype[0] in "fc" else 1)
    numpy.testing.assert_array_equal(device.get(), numpy.full((9, 8), -2.5 if dtype[0] in "fc" else 1, dtype))
    with pytest.raises(OverflowError if dtype[0] in "iu" else TypeError):
        device.fill(2**70 if dtype[0] in "iu" else "x")


def test_fill_from_a_device_scalar_and_setitem_broadcast_and_overlap(rng):
    host = random_array(rng, (4, 6), "int32")
    device = gpukit.asarray(host)
    device.fill(gpukit.asarray(numpy.int32(17)))
    host[...] = 17
    numpy.testing.assert_array_equal(device.get(), host)
    row = random_array(rng, 6, "float64") * 100
    device[1::2] = gpukit.asarray(row)  # converted on the device, broadcast over the rows
    host[1::2] = row
    numpy.testing.assert_array_equal(device.get(), host)
    flat = device.reshape(-1)
    flat[1:] = flat[:-1]  # overlapping: NumPy reads the source first
    host.reshape(-1)[1:] = host.reshape(-1)[:-1].copy()
    numpy.testing.assert_array_equal(device.get(), host)
    device[:, 0] = 2.5  # a Python float into int32: truncated, as NumPy's
    host[:, 0] = 2.5
    numpy.testing.assert_array_equal(device.get(), host)
    with pytest.raises(ValueError, match="could not broadcast input array from shape"):
        device[...] = gpukit.asarray(row[:4])
