"""bench/dask_bench.py: what Dask costs a reduction on one device, against the direct gpukit call.

The sum of one float32 array of 2^size-log2 elements on the device, as ``gpukit.sum`` (direct) and as
``dask.array`` over gpukit chunks of each size in --chunk-log2 (views of the same array: no copies),
computed by Dask's threaded scheduler; with --cluster also by a LocalCluster of one worker process
that holds the same array (drawn on its device by Dask's gpukit backend), and beside them CuPy's
direct sum and CuPy-backed Dask when CuPy is importable. Every time is the median wall time of
--repeats runs after --warmup, each ending when the device has finished (a synchronize), and includes
all Dask does for a ``x.sum().compute()``: building the graph, optimising it, scheduling its tasks.

    GPUKIT_BACKEND=cuda python bench/dask_bench.py [--size-log2 30 32] [--chunk-log2 24 25 26 27] [--cluster]
    GPUKIT_BACKEND=sim python bench/dask_bench.py --size-log2 16 --chunk-log2 12 13 --repeats 2  # a smoke test

Goal (issue 18): Dask's sum at 2^27-element chunks reaches >= 80 % of the direct call's throughput.
Dask's cost is a fixed part per compute (building and optimising the graph, about a millisecond) and
a part per task, which overlaps the device's work on earlier chunks (operations are queued, not
waited for): the larger the array, the closer to the direct call, so each size gets its own table.
"""

import argparse
import json
import logging
import statistics
import time

import numpy

import gpukit

try:
    import cupy
except ImportError:  # its rows say so
    cupy = None

import dask  # noqa: E402 (after gpukit, whose registration then waits for dask.array's import)
import dask.array as da  # noqa: E402

GOAL_CHUNK_LOG2, GOAL_FRACTION = 27, 0.80


def median_seconds(step, synchronize, repeats, warmup):
    """The median wall time of ``step()`` up to the device's end of its work, after ``warmup`` runs."""
    for _ in range(warmup):
        step()
    synchronize()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        step()
        synchronize()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def checked(name, result, expected):
    value = float(result.get() if isinstance(result, gpukit.ndarray) else result)
    if not numpy.isclose(value, expected, rtol=1e-3):
        raise SystemExit(f"{name}: the sum is {value}, expected {expected}")


# The schedulers a local sum is timed under: Dask's default (a thread per core) and, where asked, its
# synchronous one. The device's work is queued, not waited for, so a chunk's task is host time alone:
# one thread needs no lock hand-offs between a pool's threads.
SCHEDULERS = {"threads": {}, "sync": {"scheduler": "synchronous"}}


def rows_for_gpukit(x, expected, args):
    rows = [("gpukit", "direct", median_seconds(lambda: gpukit.sum(x), gpukit.synchronize, args.repeats,
                                                 args.warmup))]
    checked("gpukit.sum", gpukit.sum(x), expected)
    for scheduler in args.schedulers:
        for chunk_log2 in args.chunk_log2:
            chunked = da.from_array(x, chunks=2**chunk_log2, asarray=False)
            with dask.config.set(SCHEDULERS[scheduler]):
                checked(f"dask 2^{chunk_log2}", chunked.sum().compute(), expected)
                seconds = median_seconds(lambda chunked=chunked: chunked.sum().compute(), gpukit.synchronize,
                                         args.repeats, args.warmup)
            how = f"dask, chunks 2^{chunk_log2}" + ("" if scheduler == "threads" else f" ({scheduler})")
            rows.append(("gpukit", how, seconds))
    return rows


def rows_for_cupy(x, expected, args):
    if cupy is None:
        return []
    on_cupy = cupy.asarray(x)  # the same memory, through __cuda_array_interface__
    synchronize = cupy.cuda.get_current_stream().synchronize
    rows = [("cupy", "direct", median_seconds(lambda: on_cupy.sum(), synchronize, args.repeats, args.warmup))]
    for chunk_log2 in args.chunk_log2:
        chunked = da.from_array(on_cupy, chunks=2**chunk_log2, asarray=False)
        checked(f"cupy dask 2^{chunk_log2}", chunked.sum().compute().get(), expected)
        seconds = median_seconds(lambda chunked=chunked: chunked.sum().compute(), synchronize, args.repeats,
                                 args.warmup)
        rows.append(("cupy", f"dask, chunks 2^{chunk_log2}", seconds))
    return rows


def rows_for_cluster(size, args):
    """One worker process holding the array (its own copy, drawn on its device), summed from here."""
    import distributed

    rows = []
    with distributed.LocalCluster(n_workers=1, threads_per_worker=args.cluster_threads, processes=True,
                                  dashboard_address=":0", silence_logs=logging.ERROR) as cluster, \
            distributed.Client(cluster) as client:
        for chunk_log2 in args.chunk_log2:
            with dask.config.set({"array.backend": "gpukit"}):
                drawn = da.random.default_rng(1).random(size, chunks=2**chunk_log2, dtype=numpy.float32)
            held = client.persist(drawn)
            distributed.wait(held)
            expected = float(held.sum(dtype=numpy.float64).compute().get())
            checked(f"cluster 2^{chunk_log2}", held.sum().compute(), expected)
            seconds = median_seconds(lambda held=held: held.sum().compute(), gpukit.synchronize, args.repeats,
                                     args.warmup)
            rows.append(("gpukit", f"LocalCluster(1 worker), chunks 2^{chunk_log2}", seconds))
            del held
    return rows


def report(size_log2, rows):
    """Prints one size's table and the goal's line; returns the rows as JSON records."""
    gigabytes = 2**size_log2 * 4 / 1e9
    direct = {library: seconds for library, how, seconds in rows if how == "direct"}
    print(f"sum of 2^{size_log2} float32 ({gigabytes:.2f} GB) on {gpukit.get_device().name}; threaded scheduler: "
          f"{dask.config.get('num_workers', None) or 'a thread per core'}")
    print(f"{'library':<8} {'how':<40} {'ms':>10} {'GB/s':>10} {'of direct':>10}")
    for library, how, seconds in rows:
        print(f"{library:<8} {how:<40} {seconds * 1e3:>10.3f} {gigabytes / seconds:>10.1f} "
              f"{direct[library] / seconds:>10.0%}")
    goal_row = ("gpukit", f"dask, chunks 2^{GOAL_CHUNK_LOG2}")
    goal = [seconds for library, how, seconds in rows if (library, how) == goal_row]
    if goal:
        fraction = direct["gpukit"] / goal[0]
        print(f"goal: Dask at 2^{GOAL_CHUNK_LOG2}-element chunks reaches {fraction:.0%} of the direct call "
              f"(goal >= {GOAL_FRACTION:.0%}): {'met' if fraction >= GOAL_FRACTION else 'NOT met'}")
    print()
    return [{"size_log2": size_log2, "library": library, "how": how, "seconds": seconds,
             "gb_per_s": gigabytes / seconds} for library, how, seconds in rows]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-log2", type=int, nargs="+", default=[30],
                        help="the array's elements, as powers of two (one table each)")
    parser.add_argument("--chunk-log2", type=int, nargs="+", default=[24, 25, 26, 27])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--cluster", action="store_true", help="also a LocalCluster of one worker process")
    parser.add_argument("--cluster-threads", type=int, default=4, help="the cluster worker's threads")
    parser.add_argument("--schedulers", nargs="+", choices=sorted(SCHEDULERS), default=["threads", "sync"],
                        help="Dask's local schedulers to time gpukit's chunks under")
    parser.add_argument("--json", help="write the rows here")
    args = parser.parse_args()

    records = []
    for size_log2 in args.size_log2:
        args.chunk_log2 = [chunk for chunk in args.chunk_log2 if chunk <= size_log2]
        size = 2**size_log2
        x = gpukit.random.default_rng(0).random(size, dtype=numpy.float32)
        expected = float(gpukit.sum(x, dtype=numpy.float64).get())
        rows = rows_for_gpukit(x, expected, args) + rows_for_cupy(x, expected, args)
        del x  # the cluster's worker draws its own copy
        if args.cluster:
            rows += rows_for_cluster(size, args)
        records += report(size_log2, rows)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"device": gpukit.get_device().name, "rows": records}, out, indent=1)


if __name__ == "__main__":
    main()
