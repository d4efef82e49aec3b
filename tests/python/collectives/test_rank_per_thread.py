"""A rank per thread, meeting by a UniqueId (ncclCommInitRank's mode): results against NumPy for
each operation, and the failures that must reach every rank instead of hanging: ranks that
disagree, a rank that refuses its arguments, a rank that never calls (timeout), a rank that
leaves, an id from another backend."""

import pickle
import threading
import time

import numpy
import pytest

import gpukit
import reference
from conftest import on_simulator, random_array
from gpukit.collectives import Communicator, UniqueId

pytestmark = pytest.mark.skipif(len(gpukit.devices()) < 2, reason="needs two devices of the selected backend")
RANKS = min(len(gpukit.devices()), 4)


def on_threads(ranks, body):
    """Runs body(rank) on a thread per rank; returns each rank's result or exception."""
    outcomes = [None] * ranks

    def run(rank):
        try:
            outcomes[rank] = body(rank)
        except Exception as error:  # noqa: BLE001 (each rank's failure is the test's subject)
            outcomes[rank] = error

    threads = [threading.Thread(target=run, args=(rank,)) for rank in range(ranks)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a rank hung"
    return outcomes


def test_unique_id_round_trips_through_bytes_and_pickle():
    uid = UniqueId.create()
    assert len(bytes(uid)) == 128
    assert UniqueId(bytes(uid)) == uid
    assert pickle.loads(pickle.dumps(uid)) == uid
    assert UniqueId.create() != uid
    with pytest.raises(gpukit.InvalidArgumentError, match="128 bytes"):
        UniqueId(b"short")


@pytest.mark.parametrize("dtype", ["int8", "uint32", "int64", "float16", "float32", "float64"])
def test_every_operation_on_threads_matches_numpy(rng, dtype):
    host = [random_array(rng, (RANKS * 3, 5), dtype) for _ in range(RANKS)]
    uid = UniqueId.create()

    def rank_work(rank):
        comm = Communicator(uid, rank, RANKS, device=rank, timeout=60)
        assert comm.rank == rank and comm.size == RANKS
        x = gpukit.asarray(host[rank], device=rank)
        return {
            "all_reduce": gpukit.asnumpy(comm.all_reduce(x, op="max")),
            "reduce": comm.reduce(x, root=RANKS - 1, op="sum"),
            "all_gather": gpukit.asnumpy(comm.all_gather(x)),
            "reduce_scatter": gpukit.asnumpy(comm.reduce_scatter(x, op="sum")),
            "broadcast": gpukit.asnumpy(comm.broadcast(x, root=0)),
        }

    outcomes = on_threads(RANKS, rank_work)
    total = reference.reduce(host, "sum")
    for rank, outcome in enumerate(outcomes):
        assert isinstance(outcome, dict), outcome
        numpy.testing.assert_array_equal(outcome["all_reduce"], reference.reduce(host, "max"))
        if rank == RANKS - 1:
            reference.assert_matches(gpukit.asnumpy(outcome["reduce"]), total, dtype)
        else:
            assert outcome["reduce"] is None
        numpy.testing.assert_array_equal(outcome["all_gather"], numpy.stack(host))
        reference.assert_matches(outcome["reduce_scatter"], total[rank * 3:(rank + 1) * 3], dtype)
        numpy.testing.assert_array_equal(outcome["broadcast"], host[0])


@pytest.mark.parametrize("verify_calls", [True, False])
def test_ranks_that_disagree_all_raise(verify_calls):
    if not verify_calls and not on_simulator():
        pytest.skip("unverified, NCCL cannot see the disagreement: its ranks wait until the timeout (documented)")
    uid = UniqueId.create()

    def rank_work(rank):
        comm = Communicator(uid, rank, 2, device=rank, timeout=60, verify_calls=verify_calls)
        comm.all_reduce(gpukit.zeros(10 + rank, dtype="float32", device=rank))

    for outcome in on_threads(2, rank_work):
        assert isinstance(outcome, gpukit.InvalidArgumentError), outcome
        assert "same collective" in str(outcome)


@pytest.mark.parametrize("verify_calls", [True, False])
def test_a_rank_that_refuses_its_arguments_fails_every_rank(verify_calls):
    if not verify_calls and not on_simulator():
        pytest.skip("unverified, NCCL cannot see the disagreement: its ranks wait until the timeout (documented)")
    uid = UniqueId.create()

    def rank_work(rank):
        comm = Communicator(uid, rank, 2, device=rank, timeout=60, verify_calls=verify_calls)
        comm.all_reduce(gpukit.zeros(4, dtype="bool" if rank else "uint8", device=rank), op="sum")

    outcomes = on_threads(2, rank_work)
    assert isinstance(outcomes[1], gpukit.InvalidArgumentError) and "bool" in str(outcomes[1])
    assert isinstance(outcomes[0], gpukit.GpukitError), outcomes[0]


@pytest.mark.skipif(not on_simulator(), reason="NCCL's ranks would wait in a kernel; this runs on the simulator")
def test_a_rank_that_never_calls_ends_the_wait_at_the_timeout():
    uid = UniqueId.create()
    start = time.monotonic()

    def rank_work(rank):
        comm = Communicator(uid, rank, 2, device=rank, timeout=0.5)
        if rank == 0:
            comm.all_reduce(gpukit.ones(4, device=rank))
        else:
            time.sleep(2)  # alive but silent

    outcomes = on_threads(2, rank_work)
    assert isinstance(outcomes[0], gpukit.WaitTimeoutError) and "did not call" in str(outcomes[0])
    assert time.monotonic() - start < 20


@pytest.mark.skipif(not on_simulator(), reason="NCCL's ranks would wait in a kernel; this runs on the simulator")
def test_a_rank_that_never_joins_ends_the_join_at_the_timeout():
    with pytest.raises(gpukit.WaitTimeoutError, match="did not join"):
        Communicator(UniqueId.create(), 0, 2, device=0, timeout=0.3)


@pytest.mark.skipif(not on_simulator(), reason="aborting wakes the other ranks at once on the simulator only")
def test_a_rank_that_aborts_fails_the_others_at_once():
    uid = UniqueId.create()
    aborted = threading.Event()

    def rank_work(rank):
        comm = Communicator(uid, rank, 2, device=rank, timeout=600)
        if rank == 1:
            comm.abort()
            aborted.set()
            with pytest.raises(gpukit.UsageError):
                comm.all_reduce(gpukit.ones(4, device=rank))
            return "aborted"
        aborted.wait()
        comm.all_reduce(gpukit.ones(4, device=rank))

    outcomes = on_threads(2, rank_work)
    assert outcomes[1] == "aborted"
    assert isinstance(outcomes[0], gpukit.GpukitError) and "abort" in str(outcomes[0])


@pytest.mark.skipif(not on_simulator(), reason="NCCL takes any 128 bytes and finds out at its bootstrap")
def test_an_id_the_simulator_did_not_make_is_refused():
    with pytest.raises(gpukit.InvalidArgumentError, match="not made by the simulator"):
        Communicator(UniqueId(bytes(128)), 0, 1)
    with pytest.raises(gpukit.InvalidArgumentError, match="not a rank"):
        Communicator(UniqueId.create(), 2, 2)
