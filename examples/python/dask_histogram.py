"""The course's 256-bin histogram of a large array, on one device and then on a Dask cluster.

The first notebook counts values in [0, 256) into 256 bins on one GPU. When the array outgrows one
device, Dask splits it into chunks, each a gpukit array on the device of the worker that holds it,
histograms every chunk where it lies and adds the 256 counts of all chunks: only counts travel.

The values are drawn by Dask's gpukit backend (gpukit's Philox generator, one stream per chunk), so
each worker draws its own chunks on its own device. The same array, assembled on this process's
device, is histogrammed by one direct gpukit call; the cluster (one worker process per GPU, each
working on its own; two simulated devices on the simulator) histograms the chunks it holds. Both must equal
NumPy's histogram of a host copy.
"""

import logging
import os
import time

import numpy

os.environ.setdefault("GPUKIT_SIM_DEVICES", "2")  # two workers on the simulator too (GPUs: one per GPU)

import _common  # noqa: E402 (after the simulator's device count is set)
import gpukit  # noqa: E402

args = _common.parse_args(__doc__, sizes={"quick": 2**20, "sim": 2**22, "cuda": 2**29},
                          size_help="the number of int32 values")

import dask  # noqa: E402 (after the backend is chosen: workers inherit it)
import dask.array as da  # noqa: E402
import distributed  # noqa: E402

import gpukit.dask  # noqa: E402

bins = 256
size = args.size
simulated = gpukit.get_device().backend_info.capabilities.simulated
chunk = max(size // 8, 1)


def one_worker_per_device():
    """gpukit.dask.LocalDeviceCluster: a worker process per device, each working on its own
    (GPUKIT_DEVICE); on the simulator its two simulated devices, sharing the cores. Every worker uses
    this process's backend."""
    environment = {"GPUKIT_BACKEND": gpukit.backend()}
    if simulated:
        environment["GPUKIT_SIM_THREADS"] = str(max(1, (os.cpu_count() or 2) // 2))
    return gpukit.dask.LocalDeviceCluster(env=environment, dashboard_address=":0", silence_logs=logging.ERROR)


def seconds(work, repeats):
    """The median wall time of ``work()``, which returns once its result is on the host."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return float(numpy.median(times))


if __name__ == "__main__":  # the cluster's worker processes import this file
    with dask.config.set({"array.backend": "gpukit"}):
        values = da.random.default_rng(args.seed).integers(0, bins, size=size, chunks=chunk, dtype=numpy.int32)

    # One device: the whole array here, one call.
    whole = values.compute(scheduler="sync")
    expected = numpy.histogram(whole.get(), bins=bins, range=(0, bins))[0]

    def on_one_device():
        return gpukit.histogram(whole, bins=bins, range=(0, bins))[0].get()

    direct = on_one_device()
    direct_time = seconds(on_one_device, args.repeats)

    # The cluster: every worker draws and keeps its chunks on its device.
    with one_worker_per_device() as cluster, distributed.Client(cluster) as client:
        workers = len(client.scheduler_info()["workers"])
        held = client.persist(values)
        distributed.wait(held)

        def on_the_cluster():
            return da.histogram(held, bins=bins, range=(0, bins))[0].compute().get()

        clustered = on_the_cluster()
        cluster_time = seconds(on_the_cluster, args.repeats)

    correct = all([_common.agrees("one device", direct, expected), _common.agrees("cluster", clustered, expected)])
    gigabytes = size * 4 / 1e9
    print(f"one device: {direct_time * 1e3:.2f} ms ({gigabytes / direct_time:.1f} GB/s)")
    print(f"Dask cluster of {workers} workers, {values.numblocks[0]} chunks of {chunk} values: "
          f"{cluster_time * 1e3:.2f} ms ({gigabytes / cluster_time:.1f} GB/s)")
    _common.finish(correct, f"dask histogram of {size} values into {bins} bins, one device and {workers} workers")
