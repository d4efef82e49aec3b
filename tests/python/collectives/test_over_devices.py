"""Collectives over several devices of one process (Communicator.over): every operation, dtype and
reduction against NumPy, at edge sizes, in place, into out= and over strided arrays. On the
simulator, conftest.py presents four devices."""

import contextlib

import numpy
import pytest

import gpukit
import reference
from conftest import random_array
from gpukit.collectives import Communicator

pytestmark = pytest.mark.skipif(len(gpukit.devices()) < 2, reason="needs two devices of the selected backend")
RANKS = min(len(gpukit.devices()), 4)
# bfloat16 too where NumPy has it (ml_dtypes); the C++ tests cover it everywhere.
REDUCIBLE = ["int8", "uint8", "int32", "uint32", "int64", "uint64", "float16", "float32", "float64"]
OPS = ["sum", "prod", "max", "min", "avg"]


@pytest.fixture(scope="module")
def comm():
    return Communicator.over(list(range(RANKS)))


def per_rank(rng, shape, dtype):
    host = [random_array(rng, shape, dtype) for _ in range(RANKS)]
    return host, [gpukit.asarray(values, device=rank) for rank, values in enumerate(host)]


@pytest.mark.parametrize("dtype", REDUCIBLE)
@pytest.mark.parametrize("op", OPS)
def test_all_reduce_matches_numpy_for_every_dtype_and_op(comm, rng, dtype, op):
    host, arrays = per_rank(rng, (257,), dtype)
    results = comm.all_reduce(arrays, op=op)
    expected = reference.reduce([gpukit.asnumpy(a) for a in arrays], op)
    for rank, result in enumerate(results):
        assert result.device == gpukit.Device(rank) and result.dtype == arrays[0].dtype and result.shape == (257,)
        reference.assert_matches(gpukit.asnumpy(result), expected, dtype)


@pytest.mark.parametrize("op", ["max", "min", "prod"])
def test_bool_reduces_with_max_min_and_prod(comm, rng, op):
    host, arrays = per_rank(rng, (99,), "bool")
    for result in comm.all_reduce(arrays, op=op):
        numpy.testing.assert_array_equal(gpukit.asnumpy(result), reference.reduce(host, op))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("op", ["sum", "avg"])
def test_complex_reduces_with_sum_and_avg(comm, rng, dtype, op):
    host, arrays = per_rank(rng, (3, 41), dtype)
    for result in comm.all_reduce(arrays, op=op):
        reference.assert_matches(gpukit.asnumpy(result), reference.reduce(host, op), dtype)


@pytest.mark.parametrize("size", [0, 1, 7, 4097])
def test_every_operation_at_edge_sizes(comm, rng, size):
    host, arrays = per_rank(rng, (RANKS * size,), "float32")
    total = reference.reduce(host, "sum")
    for result in comm.all_reduce(arrays):
        reference.assert_matches(gpukit.asnumpy(result), total, "float32")
    reduced = comm.reduce(arrays, root=RANKS - 1, op="max")
    numpy.testing.assert_array_equal(gpukit.asnumpy(reduced), reference.reduce(host, "max"))
    gathered = comm.all_gather(arrays)
    for result in gathered:
        assert result.shape == (RANKS, RANKS * size)
        numpy.testing.assert_array_equal(gpukit.asnumpy(result), numpy.stack(host))
    for rank, part in enumerate(comm.reduce_scatter(arrays)):
        assert part.shape == (size,)
        reference.assert_matches(gpukit.asnumpy(part), total[rank * size:(rank + 1) * size], "float32")
    copies = comm.broadcast(arrays, root=1)
    for copy, array in zip(copies, arrays, strict=True):  # in place
        numpy.testing.assert_array_equal(gpukit.asnumpy(copy), host[1])
        numpy.testing.assert_array_equal(gpukit.asnumpy(array), host[1])


@pytest.mark.parametrize("dtype", ["bool", "int16", "uint16", "float16", "complex128"])
def test_broadcast_and_all_gather_move_any_dtype(comm, rng, dtype):
    host, arrays = per_rank(rng, (5, 3), dtype)
    for result in comm.all_gather(arrays):
        numpy.testing.assert_array_equal(gpukit.asnumpy(result), numpy.stack(host))
    outputs = [gpukit.empty((5, 3), dtype=dtype, device=rank) for rank in range(RANKS)]
    comm.broadcast(arrays, root=0, out=outputs)
    for output in outputs:
        numpy.testing.assert_array_equal(gpukit.asnumpy(output), host[0])


def test_in_place_and_out_and_strided_arrays(comm, rng):
    host, arrays = per_rank(rng, (6, 8), "float64")
    expected = reference.reduce(host, "sum")
    views = [a.T for a in arrays]  # strided: copied in, and the result copied back
    outputs = [gpukit.empty((6, 8), dtype="float64", device=rank).T for rank in range(RANKS)]
    results = comm.all_reduce(views, out=outputs)
    for result, output in zip(results, outputs, strict=True):
        assert result is output or result.shape == output.shape
        numpy.testing.assert_allclose(gpukit.asnumpy(output), expected.T)
    comm.all_reduce(arrays, out=arrays)  # in place
    for array in arrays:
        numpy.testing.assert_allclose(gpukit.asnumpy(array), expected)


def test_reduce_scatter_splits_the_first_axis(comm, rng):
    host, arrays = per_rank(rng, (RANKS * 3, 2), "int32")
    total = reference.reduce(host, "sum")
    for rank, part in enumerate(comm.reduce_scatter(arrays)):
        assert part.shape == (3, 2)
        numpy.testing.assert_array_equal(gpukit.asnumpy(part), total[rank * 3:(rank + 1) * 3])


def test_the_work_runs_on_each_devices_current_stream(comm, rng):
    host, arrays = per_rank(rng, (1000,), "float32")
    streams = [gpukit.Stream(device=rank) for rank in range(RANKS)]
    with contextlib.ExitStack() as current:
        for stream in streams:
            current.enter_context(stream)
        results = comm.all_reduce(arrays)  # waits for nothing: each rank's stream orders it
    for stream in streams:
        stream.synchronize()
    for result in results:
        reference.assert_matches(gpukit.asnumpy(result), reference.reduce(host, "sum"), "float32")


def test_bad_arguments_are_refused_before_anything_runs(comm, rng):
    host, arrays = per_rank(rng, (10,), "float32")
    with pytest.raises(gpukit.InvalidArgumentError, match="same dtype and size"):
        comm.all_reduce(arrays[:-1] + [gpukit.empty((11,), dtype="float32", device=RANKS - 1)])
    with pytest.raises(gpukit.InvalidArgumentError, match="same dtype and size"):
        comm.all_reduce(arrays[:-1] + [gpukit.empty((10,), dtype="float64", device=RANKS - 1)])
    with pytest.raises(gpukit.InvalidArgumentError, match="device"):
        comm.all_reduce([arrays[0]] * RANKS)
    with pytest.raises(gpukit.InvalidArgumentError, match="one array each"):
        comm.all_reduce(arrays[:1])
    with pytest.raises(gpukit.InvalidArgumentError, match="root"):
        comm.reduce(arrays, root=RANKS)
    with pytest.raises(gpukit.InvalidArgumentError, match="16-bit"):
        comm.all_reduce([gpukit.zeros(3, dtype="int16", device=rank) for rank in range(RANKS)])
    with pytest.raises(gpukit.InvalidArgumentError, match="max"):
        comm.all_reduce([gpukit.zeros(3, dtype="bool", device=rank) for rank in range(RANKS)], op="sum")
    with pytest.raises(gpukit.InvalidArgumentError, match="sum or avg"):
        comm.all_reduce([gpukit.zeros(3, dtype="complex64", device=rank) for rank in range(RANKS)], op="max")
    with pytest.raises(gpukit.InvalidArgumentError, match="sum, prod, max, min or avg"):
        comm.all_reduce(arrays, op="mean")
    with pytest.raises(gpukit.InvalidArgumentError, match="given twice"):
        Communicator.over([0, 0])
    with pytest.raises(gpukit.InvalidArgumentError, match="There is no"):
        Communicator.over([0, len(gpukit.devices())])
    with pytest.raises(gpukit.UsageError):
        comm.rank  # noqa: B018 (a property that raises)
