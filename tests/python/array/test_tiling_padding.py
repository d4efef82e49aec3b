"""tile, repeat, pad and roll against NumPy (src/array/tiling.cpp, padding.cpp, rolling.cpp), on a few
dtypes (their copy kernels are shared with the other array tests) and on strided inputs."""

import numpy
import pytest

import gpukit
from conftest import random_array
from layouts import assert_same


@pytest.fixture
def matrix(rng):
    host = random_array(rng, (4, 5), "float32")
    return host[::-1, 1:], gpukit.asarray(host)[::-1, 1:]  # (4, 4), reversed rows


@pytest.mark.parametrize("reps", [2, (2, 1), (1, 3), (2, 2, 2), (0, 2), (3, 1, 1, 2), ()])
def test_tile(reps, matrix):
    host, device = matrix
    assert_same(gpukit.tile(device, reps), numpy.tile(host, reps))
    assert_same(gpukit.tile(device[0, 0], reps), numpy.tile(host[0, 0, ...], reps))


@pytest.mark.parametrize("repeats,axis", [(2, None), (3, 0), (2, -1), ([1, 0, 3, 2], 1), ([2], 0), (0, 0),
                                          ([3, 3, 1, 1], 0)])
def test_repeat(repeats, axis, matrix):
    host, device = matrix
    assert_same(gpukit.repeat(device, repeats, axis), numpy.repeat(host, repeats, axis))
    assert_same(device.repeat(repeats, axis), host.repeat(repeats, axis))
    with pytest.raises(ValueError, match="negative"):
        gpukit.repeat(device, -1)
    with pytest.raises(ValueError, match="broadcast"):
        gpukit.repeat(device, [1, 2], 0)


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric"])
@pytest.mark.parametrize("pad_width", [1, (2, 3), ((1, 0), (0, 2)), ((3, 7), (9, 1)), [[0], [2]], 0])
def test_pad_matches_numpy(mode, pad_width, matrix):
    host, device = matrix
    kwargs = {"constant_values": ((-1, 2), (3.5, 4))} if mode == "constant" else {}
    assert_same(gpukit.pad(device, pad_width, mode, **kwargs), numpy.pad(host, pad_width, mode, **kwargs))
    column_host, column = host[:, :1], device[:, :1]  # one element wide: mirroring repeats it
    assert_same(gpukit.pad(column, pad_width, mode), numpy.pad(column_host, pad_width, mode))


@pytest.mark.parametrize("mode,kwargs", [("wrap", {}), ("maximum", {}), ("minimum", {"stat_length": 2}),
                                         ("mean", {}), ("mean", {"stat_length": ((1, 3), (2, 2))}),
                                         ("median", {"stat_length": (3, 1)}), ("linear_ramp", {}),
                                         ("linear_ramp", {"end_values": ((-4, 5), (6.5, -1))}),
                                         ("reflect", {"reflect_type": "odd"}), ("symmetric", {"reflect_type": "odd"})])
@pytest.mark.parametrize("pad_width", [1, (2, 3), ((3, 7), (9, 1)), 0])
@pytest.mark.parametrize("dtype", ["float64", "int32", "uint8"])
def test_pad_s_other_modes_match_numpy(mode, kwargs, pad_width, dtype, rng):
    host = random_array(rng, (4, 5), dtype)
    device = gpukit.asarray(host)
    with numpy.errstate(all="ignore"):
        expected = numpy.pad(host, pad_width, mode, **kwargs)
    # A float mean is a sum, added in another order than NumPy's (a GPU adds in a tree): within rounding.
    exact = not (mode == "mean" and dtype == "float64")
    assert_same(gpukit.pad(device, pad_width, mode, **kwargs), expected, exact=exact)
    empty = gpukit.pad(device, pad_width, "empty")
    assert empty.shape == expected.shape and empty.dtype == expected.dtype
    numpy.testing.assert_array_equal(empty.get()[tuple(slice(b, b + n) for (b, _), n in
                                                       zip(numpy.broadcast_to(pad_width, (2, 2)), host.shape))],
                                     host)


def test_pad_of_other_dtypes_and_its_refusals(rng):
    host = random_array(rng, (3,), "int64")
    device = gpukit.asarray(host)
    assert_same(gpukit.pad(device, (4, 5), "reflect"), numpy.pad(host, (4, 5), "reflect"))
    assert_same(gpukit.pad(device, 2, constant_values=7), numpy.pad(host, 2, constant_values=7))
    assert_same(gpukit.pad(device[:0], 2), numpy.pad(host[:0], 2))
    with pytest.raises(ValueError, match="can't extend empty axis 0"):
        gpukit.pad(device[:0], 2, "edge")
    with pytest.raises(ValueError, match="negative"):
        gpukit.pad(device, -1)
    with pytest.raises(ValueError, match="not supported"):
        gpukit.pad(device, 1, "nonsense")
    with pytest.raises(NotImplementedError, match="function"):
        gpukit.pad(device, 1, lambda vector, widths, axis, kwargs: None)
    with pytest.raises(ValueError, match="stat_length of 0"):
        gpukit.pad(device, 1, "maximum", stat_length=0)
    with pytest.raises(ValueError, match="reflect_type"):
        gpukit.pad(device, 1, "reflect", reflect_type="sideways")
    with pytest.raises(ValueError, match="unsupported keyword"):
        gpukit.pad(device, 1, "wrap", stat_length=2)
    with pytest.raises(TypeError, match="gpukit.asarray"):
        gpukit.pad(host, 1)


@pytest.mark.parametrize("shift,axis", [(1, None), (-7, None), (2, 0), (-1, 1), ((1, -2), (0, 1)), ((1, 1), (1, 1)),
                                        (3, (0, 1)), (0, 0), (17, 1)])
def test_roll(shift, axis, matrix):
    host, device = matrix
    assert_same(gpukit.roll(device, shift, axis), numpy.roll(host, shift, axis))
    assert_same(gpukit.roll(device[:0], shift, axis), numpy.roll(host[:0], shift, axis))
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.roll(device, 1, 2)
