"""A rank per process (multiprocessing, 'spawn'): on GPUs through NCCL (run by scripts/gpu-check on
a machine of two GPUs); on the simulator a clear refusal, since its memory is not shared between
processes. NVLink multicast stays off in every child (conftest.py sets the variables; each child
sets them again before gpukit loads NCCL)."""

import multiprocessing
import os

import numpy
import pytest

import gpukit
from conftest import on_simulator
from gpukit.collectives import Communicator, UniqueId

NO_MULTICAST = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}


def rank_main(uid_bytes, rank, size, results):
    os.environ.update(NO_MULTICAST)
    import gpukit
    from gpukit.collectives import Communicator, UniqueId

    try:
        comm = Communicator(UniqueId(uid_bytes), rank, size, device=rank, timeout=120)
        x = gpukit.arange(1000, dtype="float32", device=rank) * (rank + 1)
        total = gpukit.asnumpy(comm.all_reduce(x))
        gathered = gpukit.asnumpy(comm.all_gather(x))
        bad = None
        try:
            comm.all_reduce(gpukit.zeros(10 + rank, dtype="float32", device=rank))
        except gpukit.InvalidArgumentError as error:
            bad = str(error)
        results.put((rank, "ok", total, gathered, bad))
    except Exception as error:  # noqa: BLE001 (the parent reports each rank's failure)
        results.put((rank, type(error).__name__, str(error), None, None))


def run_ranks(uid, ranks, size):
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    processes = [context.Process(target=rank_main, args=(bytes(uid), rank, size, results)) for rank in ranks]
    for process in processes:
        process.start()
    outcomes = sorted(results.get(timeout=300) for _ in processes)
    for process in processes:
        process.join(timeout=60)
    return outcomes


@pytest.mark.needs_gpu
def test_ranks_in_processes_all_reduce_and_refuse_a_mismatch_through_nccl():
    if len(gpukit.devices()) < 2:
        pytest.skip("needs two GPUs")
    outcomes = run_ranks(UniqueId.create(), [0, 1], 2)
    expected = numpy.arange(1000, dtype=numpy.float32) * 3
    for rank, status, total, gathered, bad in outcomes:
        assert status == "ok", (rank, status, total)
        numpy.testing.assert_array_equal(total, expected)
        numpy.testing.assert_array_equal(gathered[1], numpy.arange(1000, dtype=numpy.float32) * 2)
        assert bad is not None and "same" in bad


@pytest.mark.skipif(not on_simulator(), reason="the simulator's refusal")
def test_the_simulator_refuses_a_rank_in_another_process():
    outcomes = run_ranks(UniqueId.create(), [1], 2)
    rank, status, message, _, _ = outcomes[0]
    assert status == "BackendUnavailableError", (status, message)
    assert "another process" in message and "threads" in message


def test_a_communicator_of_one_rank_works():
    comm = Communicator.over([0])
    x = gpukit.arange(5, dtype="int32")
    numpy.testing.assert_array_equal(gpukit.asnumpy(comm.all_reduce([x])[0]), numpy.arange(5))
