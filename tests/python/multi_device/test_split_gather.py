"""gpukit.multi_device's pieces: split (array_split's blocks, halos clipped at the edges, from a
gpukit array or from NumPy), gather, reduce and broadcast, and the inputs they refuse. On the
simulator, conftest.py presents four devices."""

import numpy
import pytest

import gpukit
from conftest import random_array
from gpukit import multi_device as md
from partition import COUNTS, DEVICES, NEEDS_TWO_DEVICES, halo_fits

pytestmark = NEEDS_TWO_DEVICES


def expected_bounds(extent, count):
    sizes = [len(block) for block in numpy.array_split(numpy.arange(extent), count)]
    return numpy.concatenate([[0], numpy.cumsum(sizes)]).tolist()


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("rows", [0, 1, 2, 7, 13])
@pytest.mark.parametrize("halo", [0, 1, 2])
@pytest.mark.parametrize("source", ["gpukit", "numpy"])
def test_split_cuts_array_split_blocks_with_halos(rng, count, rows, halo, source):
    values = random_array(rng, (rows, 3), "float32")
    parts = min(count, rows) or 1
    if not halo_fits(rows, count, halo):
        pytest.skip("a halo longer than a part between two others is refused (test_halo_longer_than_a_part_is_refused)")
    x = gpukit.asarray(values) if source == "gpukit" else values
    split = md.split(x, devices=range(count), halo=halo)
    assert len(split) == parts and split.axis == 0 and split.shape == (rows, 3) and split.halo == halo
    assert split.dtype == numpy.float32
    bounds = expected_bounds(rows, parts)
    for i, part in enumerate(split):
        assert part.index == i and part.device == gpukit.Device(i) and part.data.device == gpukit.Device(i)
        assert (part.offset, part.length) == (bounds[i], bounds[i + 1] - bounds[i])
        assert part.halo_before == min(halo, part.offset)
        assert part.halo_after == min(halo, rows - part.offset - part.length)
        begin, end = part.offset - part.halo_before, part.offset + part.length + part.halo_after
        numpy.testing.assert_array_equal(gpukit.asnumpy(part.data), values[begin:end])
        numpy.testing.assert_array_equal(gpukit.asnumpy(part.interior()), values[part.offset:part.offset + part.length])
    assert [d.id for d in split.devices] == list(range(parts))
    back = md.gather(split, device=count - 1)
    assert back.device == gpukit.Device(count - 1)
    numpy.testing.assert_array_equal(gpukit.asnumpy(back), values)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float16", "float64", "complex64"])
@pytest.mark.parametrize("axis", [0, 1, -1, 2])
def test_split_along_any_axis_keeps_dtype_and_gathers_back(rng, dtype, axis):
    values = random_array(rng, (5, 9, 6), dtype)
    for x in (gpukit.asarray(values), values, values[::-1, :, ::2]):
        host = gpukit.asnumpy(x) if isinstance(x, gpukit.ndarray) else x
        split = md.split(x, devices=[gpukit.Device(1), gpukit.Device(0), 1], axis=axis, halo=1)
        assert split.axis == axis % 3 and split.dtype == host.dtype and split.shape == host.shape
        assert [d.id for d in split.devices] == [1, 0, 1]
        blocks = numpy.array_split(host, 3, axis=axis)
        for part, block in zip(split, blocks, strict=True):
            numpy.testing.assert_array_equal(gpukit.asnumpy(part.interior()), block)
        numpy.testing.assert_array_equal(gpukit.asnumpy(md.gather(split)), host)


def test_split_of_a_gpukit_array_on_another_device(rng):
    values = random_array(rng, (11,), "float64")
    with gpukit.Device(2 % DEVICES):
        x = gpukit.asarray(values)
    split = md.split(x)
    assert len(split) == min(DEVICES, 11)
    numpy.testing.assert_array_equal(gpukit.asnumpy(md.gather(split, device=0)), values)


def test_gather_joins_arrays_of_several_devices(rng):
    blocks = [random_array(rng, (3, n), "int32") for n in (2, 5, 1)]
    parts = [gpukit.asarray(b, device=gpukit.Device(i % DEVICES)) for i, b in enumerate(blocks)]
    joined = md.gather(parts, device=1, axis=1)
    assert joined.device == gpukit.Device(1)
    numpy.testing.assert_array_equal(gpukit.asnumpy(joined), numpy.concatenate(blocks, axis=1))
    assert md.gather(parts[:1], device=0, axis=1).device == gpukit.Device(0)


@pytest.mark.parametrize("op, reference", [("sum", numpy.add), ("prod", numpy.multiply), ("max", numpy.maximum),
                                           ("min", numpy.minimum)])
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
def test_reduce_combines_partials_of_several_devices(rng, op, reference, dtype):
    partials = [random_array(rng, (6,), dtype) for _ in range(DEVICES)]
    on_devices = [gpukit.asarray(p, device=gpukit.Device(i)) for i, p in enumerate(partials)]
    result = md.reduce(on_devices, op, device=DEVICES - 1)
    assert result.device == gpukit.Device(DEVICES - 1)
    expected = partials[0]
    for p in partials[1:]:
        expected = reference(expected, p)
    numpy.testing.assert_allclose(gpukit.asnumpy(result), expected, rtol=1e-6)
    alone = md.reduce(on_devices[:1], op, device=0)  # one partial: a new array all the same
    numpy.testing.assert_array_equal(gpukit.asnumpy(alone), partials[0])


def test_broadcast_puts_one_copy_on_every_device(rng):
    values = random_array(rng, (4, 4), "float32")
    for x in (gpukit.asarray(values), values):
        copies = md.broadcast(x, devices=[0, 1, 1])
        assert [c.device.id for c in copies] == [0, 1, 1]
        for c in copies:
            numpy.testing.assert_array_equal(gpukit.asnumpy(c), values)


def test_bad_inputs_are_refused_clearly(rng):
    x = gpukit.asarray(random_array(rng, (10, 4), "float32"))
    with pytest.raises(ValueError, match=rf"There is no \w+ device 99; there are {DEVICES}"):
        md.split(x, devices=[0, 99])
    with pytest.raises(ValueError, match="devices is empty"):
        md.split(x, devices=[])
    with pytest.raises(TypeError, match=r"range\(n\)"):
        md.split(x, devices=2)
    with pytest.raises(TypeError, match="gpukit.Device"):
        md.split(x, devices=["gpu0"])
    with pytest.raises(numpy.exceptions.AxisError, match="axis 2 is out of bounds"):
        md.split(x, axis=2)
    with pytest.raises(ValueError, match="0-D"):
        md.split(gpukit.asarray(numpy.float32(2.5)))
    with pytest.raises(ValueError, match="halo=-1"):
        md.split(x, halo=-1)
    with pytest.raises(TypeError, match="halo"):
        md.split(x, halo=1.5)
    with pytest.raises(TypeError, match="already split"):
        md.split(md.split(x))
    with pytest.raises(ValueError, match="Cannot gather no arrays"):
        md.gather([])
    with pytest.raises(TypeError):
        md.gather([numpy.ones(3)])
    with pytest.raises(ValueError, match="'sum', 'prod', 'max' or 'min'"):
        md.reduce([x], "mean")
    with pytest.raises(ValueError, match="axis must be the split's own"):
        md.gather(md.split(x), axis=1)
    with pytest.raises(IndexError, match="the split has"):
        md.split(x, devices=[0, 1])[2]


@pytest.mark.skipif(DEVICES < 4, reason="needs 4 devices (the simulator's four run it)")
def test_halo_longer_than_a_part_is_refused(rng):
    x = random_array(rng, (10, 4), "float32")
    # 10 rows on 4 devices: parts of 3, 3, 2 and 2 rows.
    with pytest.raises(ValueError, match=r"the part of entries \[6, 8\) has only 2"):
        md.split(x, devices=range(4), halo=3)
    assert len(md.split(x, devices=range(4), halo=2)) == 4
    # The first and last parts may be shorter: their halos stop at the array's edges.
    split = md.split(x[:3], devices=range(2), halo=5)
    assert [(p.halo_before, p.length, p.halo_after) for p in split] == [(0, 2, 1), (2, 1, 0)]


def test_more_devices_than_rows_leaves_devices_idle(rng):
    values = random_array(rng, (2, 3), "float32")
    split = md.split(values, devices=range(DEVICES))
    assert len(split) == 2 and [p.length for p in split] == [1, 1]
    empty = md.split(values[:0], devices=range(DEVICES), halo=1)
    assert len(empty) == 1 and empty[0].data.shape == (0, 3)
    assert gpukit.asnumpy(md.gather(empty)).shape == (0, 3)


def test_part_and_split_describe_themselves(rng):
    split = md.split(random_array(rng, (9,), "float32"), devices=[0, 1], halo=1)
    assert "entries [5, 9) along axis 0" in repr(split[1]) and "halo 1+0" in repr(split[1])
    assert "9 entries along axis 0 into 2 parts" in repr(split)
    assert split[-1].index == 1
