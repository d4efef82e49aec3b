"""where(condition, x, y), nan_to_num, around/round, clip, angle, real and imag against NumPy, on every
dtype they take, with numbers beside arrays as NumPy 2 promotes them."""

import numpy
import pytest

import gpukit
from numpy_compare import random_values

REAL = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
        "float64"]
ALL = REAL + ["complex64", "complex128"]
INEXACT = ["float16", "float32", "float64", "complex64", "complex128"]


def with_specials(rng, shape, dtype):
    """Random values of `dtype` with nan, +inf and -inf among them (for inexact dtypes)."""
    values = random_values(rng, shape, dtype)
    if numpy.dtype(dtype).kind in "fc":
        flat = values.reshape(-1)
        flat[::5] = numpy.nan
        flat[1::7] = numpy.inf
        flat[2::9] = -numpy.inf
    return values


@pytest.mark.parametrize("dtype", ALL)
def test_where_picks_elementwise_as_numpy(dtype, rng):
    condition = rng.random((4, 31)) > 0.5
    x = random_values(rng, (4, 31), dtype)
    y = random_values(rng, (31,), dtype)  # broadcast along the rows
    got = gpukit.where(gpukit.asarray(condition), gpukit.asarray(x), gpukit.asarray(y))
    expected = numpy.where(condition, x, y)
    assert got.dtype == expected.dtype
    numpy.testing.assert_array_equal(got.get(), expected)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "float16", "float32", "complex64"])
def test_where_with_numbers_keeps_the_array_s_dtype_as_numpy_2(dtype, rng):
    x = random_values(rng, (33,), dtype)
    condition = rng.random(33) > 0.3
    for got, expected in [
        (gpukit.where(gpukit.asarray(condition), gpukit.asarray(x), 1), numpy.where(condition, x, 1)),
        (gpukit.where(gpukit.asarray(condition), 2, gpukit.asarray(x)), numpy.where(condition, 2, x)),
        (gpukit.where(gpukit.asarray(condition), 1.5, 0.0), numpy.where(condition, 1.5, 0.0)),
    ]:
        assert got.dtype == expected.dtype
        numpy.testing.assert_array_equal(got.get(), expected)
    # a condition of another dtype counts by truth; sizes 0 and 0-d work
    ints = rng.integers(-2, 3, 17)
    numpy.testing.assert_array_equal(gpukit.where(gpukit.asarray(ints), 1, 0).get(), numpy.where(ints, 1, 0))
    assert gpukit.where(gpukit.zeros(0, bool), 1.0, 2.0).shape == (0,)
    assert float(gpukit.where(gpukit.asarray(numpy.array(True)), 1.0, 2.0).get()) == 1.0


@pytest.mark.parametrize("dtype", ALL)
def test_nan_to_num_replaces_as_numpy(dtype, rng):
    values = with_specials(rng, (5, 7), dtype)
    x = gpukit.asarray(values)
    numpy.testing.assert_array_equal(gpukit.nan_to_num(x).get(), numpy.nan_to_num(values))
    numpy.testing.assert_array_equal(gpukit.nan_to_num(x, nan=-1.0, posinf=9.0, neginf=-9.0).get(),
                                     numpy.nan_to_num(values, nan=-1.0, posinf=9.0, neginf=-9.0))
    transposed = gpukit.nan_to_num(x.T).get()
    numpy.testing.assert_array_equal(transposed, numpy.nan_to_num(values.T))
    assert gpukit.nan_to_num(x, copy=False) is x
    numpy.testing.assert_array_equal(x.get(), numpy.nan_to_num(values))


@pytest.mark.parametrize("dtype", REAL + ["complex64", "complex128"])
@pytest.mark.parametrize("decimals", [-2, 0, 1, 3])
def test_around_rounds_halves_to_even_as_numpy(dtype, decimals, rng):
    values = random_values(rng, (4097,), dtype)
    if numpy.dtype(dtype).kind in "fc":
        values = (values * 1000).astype(dtype)
    if dtype == "bool" and decimals != 0:
        with pytest.raises(TypeError):
            gpukit.around(gpukit.asarray(values), decimals)
        return
    with numpy.errstate(over="ignore"):  # float16 * 1000 overflows to inf on both sides
        expected = numpy.around(values, decimals)
    got = gpukit.around(gpukit.asarray(values), decimals)
    assert got.dtype == expected.dtype
    numpy.testing.assert_allclose(got.get().astype(expected.dtype), expected, rtol=1e-6 if dtype != "float16" else 1e-3)
    assert gpukit.round is not None and gpukit.round(gpukit.asarray(values), decimals).dtype == expected.dtype
    out = gpukit.empty(values.shape, expected.dtype)
    assert gpukit.around(gpukit.asarray(values), decimals, out=out) is out


@pytest.mark.parametrize("dtype", ["int16", "uint8", "float32", "float64"])
def test_clip_takes_none_for_either_bound(dtype, rng):
    values = random_values(rng, (31,), dtype)
    low, high = numpy.sort(random_values(rng, (2,), dtype))
    x = gpukit.asarray(values)
    numpy.testing.assert_array_equal(gpukit.clip(x, low, high).get(), numpy.clip(values, low, high))
    numpy.testing.assert_array_equal(gpukit.clip(x, None, high).get(), numpy.clip(values, None, high))
    numpy.testing.assert_array_equal(gpukit.clip(x, low, None).get(), numpy.clip(values, low, None))
    bounds = numpy.sort(random_values(rng, (2, 31), dtype), axis=0)
    numpy.testing.assert_array_equal(
        gpukit.clip(x, gpukit.asarray(bounds[0]), gpukit.asarray(bounds[1])).get(),
        numpy.clip(values, bounds[0], bounds[1]))
    unbounded = gpukit.clip(x, None, None)  # NumPy 2: a copy of the values
    assert unbounded.data_ptr != x.data_ptr
    numpy.testing.assert_array_equal(unbounded.get(), numpy.clip(values, None, None))


@pytest.mark.parametrize("dtype", ALL)
def test_angle_real_and_imag_as_numpy(dtype, rng):
    values = random_values(rng, (3, 11), dtype)
    x = gpukit.asarray(values)
    for deg in (False, True):
        expected = numpy.angle(values, deg=deg)
        got = gpukit.angle(x, deg=deg)
        assert got.dtype == expected.dtype
        numpy.testing.assert_allclose(got.get(), expected, rtol=2e-3 if "16" in dtype else 1e-6, atol=1e-6)
    for got, expected in [(x.real, values.real), (x.imag, values.imag), (gpukit.real(x), numpy.real(values)),
                          (gpukit.imag(x), numpy.imag(values))]:
        assert got.dtype == expected.dtype
        numpy.testing.assert_array_equal(got.get(), expected)
    if dtype.startswith("complex"):  # views: writing through them writes the array
        x.real[0, 0] = 5.0
        x.imag[0, 1] = -3.0
        assert x.get()[0, 0].real == 5.0 and x.get()[0, 1].imag == -3.0


def test_functions_refuse_host_arrays_naming_asarray(rng):
    values = random_values(rng, (4,), "float32")
    x = gpukit.asarray(values)
    with pytest.raises(TypeError, match="gpukit.asarray"):
        gpukit.where(values > 0, x, 0)
    with pytest.raises(TypeError, match="gpukit.asarray"):
        gpukit.where(x > 0, values, 0)
    with pytest.raises(TypeError, match="gpukit.asarray"):
        gpukit.nan_to_num(values)
