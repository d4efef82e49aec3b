"""gpukit.ndarray's attributes and conversions as NumPy's: one element as a Python number, truth,
hashing, the methods that are ufunc calls, and what the class offers NumPy code."""

import operator

import numpy
import pytest

import gpukit
from numpy_compare import random_values


def test_attributes_describe_the_array(rng):
    host = random_values(rng, (4, 6), "float32")
    array = gpukit.asarray(host)[:, ::2]
    view = host[:, ::2]
    assert array.shape == view.shape and array.strides == view.strides and array.ndim == 2
    assert array.dtype == numpy.float32 and array.size == 12 and array.itemsize == 4 and array.nbytes == 48
    assert array.T.shape == (3, 4) and not array.flags.c_contiguous and array.device == gpukit.get_device()
    numpy.testing.assert_array_equal(array.get(stream=gpukit.get_current_stream()), view)
    assert array.tolist() == view.tolist() and len(array) == 4
    numpy.testing.assert_array_equal(numpy.stack([row.get() for row in array]), view)
    assert repr(gpukit.asarray(numpy.array([1.0, 2.0], numpy.float32))).startswith("array([1., 2.], dtype=float32")


def test_one_element_converts_to_python_numbers_as_numpy_s():
    assert float(gpukit.asarray(numpy.float32(2.5))) == 2.5
    assert int(gpukit.asarray(numpy.int8(-7))) == -7
    assert int(gpukit.asarray(numpy.float64(3.75))) == 3
    assert complex(gpukit.asarray(numpy.complex64(1 + 2j))) == 1 + 2j
    assert operator.index(gpukit.asarray(numpy.uint16(9))) == 9
    assert [10, 11, 12][gpukit.asarray(numpy.int64(2))] == 12
    assert gpukit.asarray(numpy.array([4.5])).item() == 4.5
    for convert in (float, int, complex):
        with pytest.raises(TypeError, match="only 0-dimensional arrays can be converted to Python scalars"):
            convert(gpukit.asarray(numpy.array([1.0])))
    with pytest.raises(TypeError, match="only integer scalar arrays can be converted to a scalar index"):
        operator.index(gpukit.asarray(numpy.float64(2.0)))
    with pytest.raises(TypeError, match="only integer scalar arrays"):
        operator.index(gpukit.asarray(numpy.array([2])))
    with pytest.raises(TypeError):
        float(gpukit.asarray(numpy.complex128(1j)))  # as NumPy: no silent loss of the imaginary part


def test_truth_of_one_element_and_the_ambiguous_rest():
    assert bool(gpukit.asarray(numpy.array([[3]])))
    assert not bool(gpukit.asarray(numpy.float32(0)))
    with pytest.raises(ValueError, match="more than one element is ambiguous. Use a.any\\(\\) or a.all\\(\\)"):
        bool(gpukit.asarray(numpy.ones(2)))
    with pytest.raises(ValueError, match="empty array is ambiguous"):
        bool(gpukit.zeros(0))
    x = gpukit.asarray(numpy.array([5.0]))
    assert ("big" if x > 1 else "small") == "big"


def test_arrays_are_not_hashable_as_numpy_s():
    with pytest.raises(TypeError, match="unhashable"):
        hash(gpukit.zeros(2))
    assert gpukit.ndarray.__hash__ is None


def test_conj_conjugate_and_clip_are_the_ufunc_calls(rng):
    values = random_values(rng, 9, "complex64")
    x = gpukit.asarray(values)
    if "conjugate" in gpukit._core.ufuncs():
        numpy.testing.assert_array_equal(x.conj().get(), values.conj())
        numpy.testing.assert_array_equal(x.conjugate().get(), values.conjugate())
    else:
        with pytest.raises(AttributeError, match="conjugate"):
            x.conj()
    real = random_values(rng, (3, 5), "float32")
    r = gpukit.asarray(real)
    numpy.testing.assert_array_equal(r.clip(-0.5, 0.5).get(), real.clip(-0.5, 0.5))
    numpy.testing.assert_array_equal(r.clip(None, 0.25).get(), real.clip(None, 0.25))
    numpy.testing.assert_array_equal(r.clip(min=0).get(), real.clip(min=0))
    out = gpukit.empty((3, 5), numpy.float32)
    assert r.clip(-0.1, 0.1, out=out) is out
    numpy.testing.assert_array_equal(out.get(), real.clip(-0.1, 0.1))
    unbounded = r.clip()  # NumPy 2: a copy, as the Array API's clip(x)
    assert unbounded.data_ptr != r.data_ptr
    numpy.testing.assert_array_equal(unbounded.get(), real.clip())
    numpy.testing.assert_array_equal(gpukit.clip(r, min=-0.2, max=0.3).get(), numpy.clip(real, min=-0.2, max=0.3))
    with pytest.raises(TypeError, match="lower bound twice"):
        gpukit.clip(r, a_min=0.1, min=0.2)


def test_numpy_conversion_is_explicit():
    x = gpukit.zeros(3)
    with pytest.raises(TypeError, match="get\\(\\)"):
        numpy.asarray(x)
    numpy.testing.assert_array_equal(gpukit.asnumpy(x), numpy.zeros(3))
    assert x.__array_ufunc__ is not None  # NumPy hands its ufuncs and operators to gpukit


def test_round_rounds_as_numpy(rng):
    values = (random_values(rng, 40, "float64") * 100).astype(numpy.float32)
    values[:4] = [0.5, 1.5, 2.5, -0.5]  # halves go to even
    x = gpukit.asarray(values)
    for decimals in (0, 1, 2, -1):
        numpy.testing.assert_array_equal(x.round(decimals).get(), values.round(decimals))
    out = gpukit.empty(40, numpy.float32)
    assert x.round(1, out=out) is out
    numpy.testing.assert_array_equal(out.get(), values.round(1))
    ints = random_values(rng, 10, "int32")
    numpy.testing.assert_array_equal(gpukit.asarray(ints).round().get(), ints.round())
