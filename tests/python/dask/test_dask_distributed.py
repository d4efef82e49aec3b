"""gpukit arrays between dask.distributed processes: the serialisers, and a LocalCluster of two worker
processes that reduces and histograms an array larger than either worker's device memory.

On the simulator each worker's device has 16 MiB (GPUKIT_SIM_MEMORY) and the array 48 MiB; on a GPU
(scripts/gpu-check) both workers share it, and the array is the same (smaller than the GPU).
"""

import pickle

import numpy
import pytest

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

import dask  # noqa: E402
from distributed.protocol import deserialize, serialize  # noqa: E402
from distributed.protocol import pickle as distributed_pickle  # noqa: E402

import gpukit  # noqa: E402
from conftest import on_gpu, on_simulator, random_array  # noqa: E402
from gpukit._dask.distributed import UndeliveredArray  # noqa: E402

WORKER_DEVICE_MEMORY = 16 * 2**20
ELEMENTS, CHUNK = 12 * 2**20, 2**20  # float32: 48 MiB in 4 MiB chunks


def round_trip(array, serializers):
    header, frames = serialize(array, serializers=serializers, on_error="raise")
    return header["serializer"], deserialize(header, frames)


LAYOUTS = {
    "C": lambda host: host,
    "F": lambda host: numpy.asfortranarray(host),
    "strided": lambda host: host[::2, ::-3],
    "0-d": lambda host: host[1, 2].copy().reshape(()),
    "empty": lambda host: host[:0],
}


@pytest.mark.parametrize("dtype", ["float32", "int64", "complex64", "bool", "uint8", "float16"])
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_host_frames_bring_back_the_same_array(rng, dtype, layout):
    host = random_array(rng, (9, 14), dtype)
    array = gpukit.asarray(host)
    view = {"F": lambda: gpukit.asfortranarray(array), "strided": lambda: array[::2, ::-3],
            "0-d": lambda: array[1, 2].copy().reshape(()), "empty": lambda: array[:0]}.get(layout, lambda: array)()
    serializer, back = round_trip(view, ("dask",))
    assert serializer == "dask" and isinstance(back, gpukit.ndarray)
    assert back.dtype == host.dtype and back.shape == LAYOUTS[layout](host).shape
    numpy.testing.assert_array_equal(back.get(), LAYOUTS[layout](host))


def test_arrays_inside_pickled_graphs_travel_as_host_frames(rng):
    host = random_array(rng, (33,), numpy.float64)
    graph = {"x": gpukit.asarray(host), "nested": [(1, gpukit.asarray(host[:5]))]}
    with pytest.raises(TypeError):
        pickle.dumps(graph["x"])  # a plain pickle would hide a copy to the host
    back = distributed_pickle.loads(distributed_pickle.dumps(graph))
    numpy.testing.assert_array_equal(back["x"].get(), host)
    numpy.testing.assert_array_equal(back["nested"][0][1].get(), host[:5])


@pytest.mark.skipif(on_gpu(), reason="the simulator's memory is host memory, which the cuda family declines")
def test_the_cuda_family_declines_memory_that_is_not_cuda_memory(rng):
    host = random_array(rng, (5, 6), numpy.float32)
    serializer, back = round_trip(gpukit.asarray(host), ("cuda", "dask"))
    assert serializer == "dask"
    numpy.testing.assert_array_equal(back.get(), host)


@pytest.mark.needs_gpu
def test_the_cuda_family_sends_device_memory_and_views_it_on_arrival(rng):
    host = random_array(rng, (50, 7), numpy.float32)
    array = gpukit.asarray(host)[::2]  # not contiguous: sent as a contiguous copy
    header, frames = serialize(array, serializers=("cuda",), on_error="raise")
    assert header["serializer"] == "cuda" and hasattr(frames[0], "__cuda_array_interface__")
    back = deserialize(header, frames)
    assert back.__cuda_array_interface__["data"][0] == frames[0].__cuda_array_interface__["data"][0]  # no copy
    numpy.testing.assert_array_equal(back.get(), host[::2])


def test_an_array_a_device_could_not_take_refuses_use_and_travels_on_intact(rng):
    host = random_array(rng, (4, 3), numpy.int32)
    undelivered = UndeliveredArray(host, gpukit.BackendUnavailableError("no GPU here"))
    with pytest.raises(gpukit.BackendUnavailableError, match=r"\(4, 3\) int32 sent to this process could not be put "
                                                             r"on its device: no GPU here"):
        undelivered[0]
    for use in (lambda: undelivered.sum(), lambda: undelivered + 1, lambda: gpukit.asarray(undelivered),
                lambda: numpy.sqrt(undelivered)):
        with pytest.raises(gpukit.BackendUnavailableError, match="could not be put on its device"):
            use()
    assert (undelivered.shape, undelivered.dtype, undelivered.nbytes) == (host.shape, host.dtype, host.nbytes)
    serializer, back = round_trip(undelivered, ("dask",))
    assert isinstance(back, gpukit.ndarray)
    numpy.testing.assert_array_equal(back.get(), host)


@pytest.fixture(scope="module")
def client():
    """Two worker processes, one thread each, started once for the module; on the simulator each
    worker's device has WORKER_DEVICE_MEMORY."""
    environment = {"GPUKIT_SIM_MEMORY": str(WORKER_DEVICE_MEMORY), "GPUKIT_SIM_THREADS": "1"}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  env=environment) as cluster, distributed.Client(cluster) as client:
        yield client


@pytest.fixture(scope="module")
def values():
    """The data as a Dask array drawn on the workers, as NumPy chunks, and its host copy."""
    host_chunks = da.random.default_rng(2024).integers(0, 256, size=ELEMENTS, chunks=CHUNK, dtype=numpy.int32)
    host_chunks = host_chunks.astype(numpy.float32)
    return host_chunks, host_chunks.compute(scheduler="sync")


def test_each_worker_has_a_device_of_its_own_smaller_than_the_array(client):
    memory = client.run(lambda: gpukit.get_device().mem_info[1])
    assert len(memory) == 2
    if on_simulator():
        assert all(total == WORKER_DEVICE_MEMORY < ELEMENTS * 4 // 2 for total in memory.values()), memory


def test_a_reduction_over_more_than_the_workers_devices_hold(client, values):
    host_chunks, host = values
    x = host_chunks.map_blocks(gpukit.asarray)
    total, largest, mean = dask.compute(x.sum(dtype=numpy.float64), x.max(), x.mean())
    assert all(isinstance(result, gpukit.ndarray) for result in (total, largest, mean))
    assert float(total.get()) == host.sum(dtype=numpy.float64)
    assert float(largest.get()) == host.max()
    assert numpy.isclose(float(mean.get()), host.mean(dtype=numpy.float64), rtol=1e-6)  # a float32 mean


def test_a_histogram_over_more_than_the_workers_devices_hold(client, values):
    host_chunks, host = values
    counts, edges = da.histogram(host_chunks.map_blocks(gpukit.asarray), bins=256, range=(0, 256))
    result = counts.compute()
    assert isinstance(result, gpukit.ndarray)
    numpy.testing.assert_array_equal(result.get(), numpy.histogram(host, bins=256, range=(0, 256))[0])


def test_chunks_drawn_on_the_workers_devices_equal_those_drawn_here(client):
    with dask.config.set({"array.backend": "gpukit"}):
        x = da.random.default_rng(77).standard_normal(3 * CHUNK // 4 + 5, chunks=CHUNK // 4, dtype=numpy.float32)
    on_workers = x.compute()
    here = x.compute(scheduler="sync")
    assert isinstance(on_workers, gpukit.ndarray)
    numpy.testing.assert_array_equal(on_workers.get(), here.get())


def test_chunks_made_on_the_clients_device_land_on_the_workers(client, rng):
    host = random_array(rng, (3001,), numpy.float64)
    y = da.from_array(gpukit.asarray(host), chunks=1000, asarray=False)
    doubled_sum = (2 * y).sum().compute()
    assert isinstance(doubled_sum, gpukit.ndarray)
    assert numpy.isclose(float(doubled_sum.get()), 2 * host.sum(), rtol=1e-12)


@pytest.mark.skipif(not on_simulator(), reason="a GPU holds the whole array: only the simulated devices are small")
def test_a_result_larger_than_the_device_that_gathers_it_is_an_out_of_memory_error(client, values):
    host_chunks, _ = values
    with pytest.raises(gpukit.OutOfMemoryError, match="out of memory"):
        host_chunks.map_blocks(gpukit.asarray).compute()  # the last task joins 48 MiB on one 16 MiB device


def test_a_worker_without_a_device_gives_the_client_its_error():
    """A worker whose backend has no device (the CUDA backend with no GPU visible) fails its tasks with
    the device's error, raised on the client; arrays sent to it do not stall the computation."""
    environment = {"GPUKIT_BACKEND": "cuda", "CUDA_VISIBLE_DEVICES": ""}
    # No work stealing (one worker has nothing to steal): its scheduler extension keeps the erred tasks,
    # and with them the client's array, past the cluster's close (distributed 2026.8).
    with dask.config.set({"distributed.scheduler.work-stealing": False}), \
            distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0",
                                     env=environment) as cluster, distributed.Client(cluster) as client:
        made_there = da.from_array(numpy.arange(100.0), chunks=50).map_blocks(gpukit.asarray)
        with pytest.raises(gpukit.GpukitError):
            client.compute(made_there.sum()).result(timeout=60)
        sent_there = da.from_array(gpukit.arange(100.0), chunks=50, asarray=False)
        with pytest.raises(gpukit.GpukitError, match="sent to this process could not be put on its device"):
            client.compute(sent_there.sum()).result(timeout=60)
