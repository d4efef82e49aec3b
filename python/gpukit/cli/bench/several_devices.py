"""gpukit bench --devices: work over several devices, side by side with PyTorch and CuPy.

Three studies, each a ratio measured in one run:

- peer copy: an array copied from device 0 to device 1 (gpukit's ``to_device``, PyTorch's
  ``tensor.to('cuda:1')``, CuPy's ``cupy.cuda.runtime.memcpyPeerAsync`` as the driver's own rate);
- all-reduce: a float32 sum over every device through NCCL (gpukit's collectives in one process,
  CuPy's NCCL communicator in one process, ``torch.distributed`` with one process per device), as
  NCCL's tests report it: bus bandwidth, bytes x 2(n-1)/n per second;
- the course's exercise: a sum, a histogram and a 2-D convolution of one large array split over every
  device (``gpukit.multi_device``) against the same on one device.

Work over several devices cannot be timed by one device's events: each run is timed by the host's
clock around the work and a synchronisation of every device it used (the median of many runs after
warm-up); at these sizes (milliseconds) the clock's own cost is below a percent.
"""

import contextlib
import dataclasses
import functools
import multiprocessing
import os
import statistics
import time
from dataclasses import dataclass

import numpy

import gpukit

# NVLink multicast stays off on shared machines: NCCL, PyTorch and NVSHMEM read these, in this
# process and in every process it starts.
MULTICAST_OFF = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}


@dataclass
class Row:
    study: str
    size: str
    library: str
    seconds: float
    rate: float  # bytes per second (bus bandwidth for all-reduce); elements per second for the exercise
    unit: str
    note: str = ""

    def to_json(self):
        return dataclasses.asdict(self)


def median_seconds(run, synchronize, repeats, warmup=3):
    """The median host-clock time of ``run()`` followed by ``synchronize()``, after ``warmup`` runs."""
    for _ in range(warmup):
        run()
    synchronize()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        synchronize()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _synchronize_gpukit(devices):
    def synchronize():
        for device in devices:
            device.synchronize()
    return synchronize


def _import(name):
    try:
        return __import__(name)
    except Exception:  # noqa: BLE001 (a library that does not import is a skipped column, whatever the cause)
        return None


# ---- peer copy

def peer_copy(sizes, repeats, torch=None, cupy=None):
    rows = []
    source_device, target_device = gpukit.Device(0), gpukit.Device(1)
    synchronize = _synchronize_gpukit([source_device, target_device])
    for size in sizes:
        count = size // 4
        label = _bytes_text(size)
        with source_device:
            x = gpukit.random.default_rng(0).random(count, dtype=numpy.float32)
        seconds = median_seconds(functools.partial(x.to_device, target_device), synchronize, repeats)
        rows.append(Row("peer copy 0->1", label, "gpukit", seconds, size / seconds, "B/s"))
        x = None
        if torch is not None:
            t = torch.rand(count, device="cuda:0")

            def torch_sync():
                torch.cuda.synchronize(0)
                torch.cuda.synchronize(1)
            seconds = median_seconds(functools.partial(t.to, "cuda:1"), torch_sync, repeats)
            rows.append(Row("peer copy 0->1", label, "torch", seconds, size / seconds, "B/s"))
            t = None
            torch.cuda.empty_cache()
        if cupy is not None:
            with cupy.cuda.Device(0):
                a = cupy.empty(count, dtype=cupy.float32)
            with cupy.cuda.Device(1):
                b = cupy.empty(count, dtype=cupy.float32)

            def cupy_copy(a=a, b=b, size=size):
                with cupy.cuda.Device(1):
                    cupy.cuda.runtime.memcpyPeerAsync(b.data.ptr, 1, a.data.ptr, 0, size,
                                                      cupy.cuda.get_current_stream().ptr)

            def cupy_sync():
                for ordinal in (0, 1):
                    cupy.cuda.Device(ordinal).synchronize()
            seconds = median_seconds(cupy_copy, cupy_sync, repeats)
            rows.append(Row("peer copy 0->1", label, "driver (memcpyPeer)", seconds, size / seconds, "B/s"))
            a = b = cupy_copy = None
            cupy.get_default_memory_pool().free_all_blocks()
    return rows


# ---- all-reduce

def _bus_bandwidth(size, seconds, ranks):
    return size / seconds * 2 * (ranks - 1) / ranks


def all_reduce(sizes, repeats, torch=None, cupy=None):
    rows = []
    devices = gpukit.devices()
    ranks = len(devices)
    synchronize = _synchronize_gpukit(devices)
    communicator = gpukit.collectives.Communicator.over(devices)
    for size in sizes:
        count = size // 4
        label = _bytes_text(size)
        parts = []
        for device in devices:
            with device:
                parts.append(gpukit.random.default_rng(device.id).random(count, dtype=numpy.float32))
        seconds = median_seconds(functools.partial(communicator.all_reduce, parts, out=parts), synchronize, repeats)
        rows.append(Row(f"all-reduce sum x{ranks}", label, "gpukit", seconds, _bus_bandwidth(size, seconds, ranks),
                        "B/s", "bus bandwidth"))
        parts = None
        if cupy is not None:
            rows += _cupy_all_reduce(cupy, size, label, ranks, repeats)
        if torch is not None:
            seconds = _torch_all_reduce(size, ranks, repeats)
            if seconds is not None:
                rows.append(Row(f"all-reduce sum x{ranks}", label, "torch.distributed", seconds,
                                _bus_bandwidth(size, seconds, ranks), "B/s", "one process per device"))
    return rows


def _cupy_all_reduce(cupy, size, label, ranks, repeats):
    try:
        from cupy.cuda import nccl
    except ImportError:
        return []
    communicators = nccl.NcclCommunicator.initAll(ranks)
    count = size // 4
    buffers = []
    for ordinal in range(ranks):
        with cupy.cuda.Device(ordinal):
            buffers.append(cupy.random.random(count, dtype=cupy.float32))

    def run():
        nccl.groupStart()
        for ordinal, (comm, buffer) in enumerate(zip(communicators, buffers)):
            with cupy.cuda.Device(ordinal):
                comm.allReduce(buffer.data.ptr, buffer.data.ptr, count, nccl.NCCL_FLOAT32, nccl.NCCL_SUM,
                               cupy.cuda.get_current_stream().ptr)
        nccl.groupEnd()

    def synchronize():
        for ordinal in range(ranks):
            cupy.cuda.Device(ordinal).synchronize()
    seconds = median_seconds(run, synchronize, repeats)
    buffers.clear()
    for comm in communicators:
        comm.destroy()
    return [Row(f"all-reduce sum x{ranks}", label, "cupy (NCCL)", seconds, _bus_bandwidth(size, seconds, ranks),
                "B/s", "one process")]


def _torch_rank(rank, ranks, size, repeats, port, results):
    import torch
    import torch.distributed as dist
    os.environ.update(MULTICAST_OFF)
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=ranks)
    x = torch.rand(size // 4, device=f"cuda:{rank}")
    for _ in range(3):
        dist.all_reduce(x)
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        dist.barrier()
        torch.cuda.synchronize()
        start = time.perf_counter()
        dist.all_reduce(x)
        torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
    if rank == 0:
        results.put(statistics.median(times))
    dist.destroy_process_group()


def _torch_all_reduce(size, ranks, repeats):
    """torch.distributed's all-reduce, one spawned process per device; None where it cannot run."""
    os.environ.update(MULTICAST_OFF)
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    port = 29500 + os.getpid() % 1000
    processes = [context.Process(target=_torch_rank, args=(rank, ranks, size, repeats, port, results))
                 for rank in range(ranks)]
    for process in processes:
        process.start()
    try:
        return results.get(timeout=300)
    except Exception:  # noqa: BLE001 (no result in time: the row says so)
        return None
    finally:
        for process in processes:
            process.join(timeout=60)
            if process.is_alive():
                process.kill()


# ---- the course's exercise

def course_exercise(elements, side, repeats):
    """Sum and histogram of ``elements`` float32, and a 5x5 convolution of a ``side`` x ``side`` image,
    on device 0 alone and split over every device (the data already there: how the exercise keeps it)."""
    rows = []
    devices = gpukit.devices()
    everywhere = _synchronize_gpukit(devices)
    first = _synchronize_gpukit(devices[:1])
    with devices[0]:
        data = gpukit.random.default_rng(1).random(elements, dtype=numpy.float32)
    split = gpukit.multi_device.split(data, devices=devices)
    studies = {
        "sum": (lambda part: gpukit.sum(part), "sum"),
        "histogram 256 bins": (lambda part: gpukit.histogram(part, bins=256, range=(0.0, 1.0))[0], "sum"),
    }
    for name, (work, combine) in studies.items():
        one = median_seconds(functools.partial(work, data), first, repeats)
        several = median_seconds(functools.partial(gpukit.multi_device.map, work, split, combine=combine), everywhere,
                                 repeats)
        rows += _exercise_rows(name, f"{elements:,} float32", elements, one, several, len(devices))
    data = split = None
    with devices[0]:
        image = gpukit.random.default_rng(2).random((side, side), dtype=numpy.float32)
        weights = gpukit.random.default_rng(3).random((5, 5), dtype=numpy.float32)
    image_split = gpukit.multi_device.split(image, devices=devices, halo=2)

    def convolve(part, w):
        return gpukit.signal.convolve2d(part, w, mode="same")
    one = median_seconds(lambda: convolve(image, weights), first, repeats)
    several = median_seconds(lambda: gpukit.multi_device.map(convolve, image_split, broadcast=(weights,),
                                                             combine=None), everywhere, repeats)
    rows += _exercise_rows("conv2d 5x5 (results stay split)", f"{side}x{side} float32", side * side, one, several,
                           len(devices))
    return rows


def _exercise_rows(study, size, elements, one, several, count):
    return [Row(study, size, "gpukit, 1 device", one, elements / one, "elements/s"),
            Row(study, size, f"gpukit, {count} devices", several, elements / several, "elements/s",
                f"{one / several:.2f}x one device")]


# ---- the whole study

def run(simulated, quick):
    """Every row, with the sizes of this device kind (small ones on the simulator)."""
    os.environ.update(MULTICAST_OFF)
    if len(gpukit.devices()) < 2:
        return [], f"needs two devices; {gpukit.get_device().backend_info.name} has {len(gpukit.devices())}"
    torch = None if simulated else _torch_with_devices(len(gpukit.devices()))
    cupy = None if simulated else _import("cupy")
    if simulated:
        copy_sizes, reduce_sizes, elements, side, repeats = [1 << 20], [1 << 20], 1 << 20, 512, 5
    elif quick:
        copy_sizes, reduce_sizes, elements, side, repeats = [1 << 30], [1 << 30], 1 << 28, 8192, 10
    else:
        memory = gpukit.Device(0).mem_info[1]
        elements = (memory // 2 // 4) >> 20 << 20  # the arrays fill half of one device
        side = int((memory // 4 // 4) ** 0.5) >> 10 << 10  # image and result: half of one device
        copy_sizes, reduce_sizes, repeats = [1 << 24, 1 << 28, 1 << 30], [1 << 24, 1 << 28, 1 << 30], 20
    rows = []
    rows += peer_copy(copy_sizes, repeats, torch, cupy)
    rows += all_reduce(reduce_sizes, repeats, torch, cupy)
    rows += course_exercise(elements, side, max(3, repeats // 2))
    return rows, ""


def _torch_with_devices(count):
    torch = _import("torch")
    with contextlib.suppress(Exception):
        if torch is not None and torch.cuda.device_count() >= count:
            return torch
    return None


def table(rows):
    """Lines of the report: each row with its rate and, per study and size, gpukit's ratio to the others."""
    lines = [f"{'study':<36}{'size':>22}  {'library':<22}{'time':>12}{'rate':>16}  note"]
    for row in rows:
        rate = f"{row.rate / 1e9:.1f} G{row.unit[0] if row.unit != 'elements/s' else 'el'}/s"
        lines.append(f"{row.study:<36}{row.size:>22}  {row.library:<22}{row.seconds * 1e3:>10.3f}ms{rate:>16}  "
                     f"{row.note}")
    by_cell = {}
    for row in rows:
        by_cell.setdefault((row.study, row.size), []).append(row)
    ratios = []
    for (study, size), cell in by_cell.items():
        ours = next((row for row in cell if row.library == "gpukit"), None)
        for other in cell:
            if ours is not None and other is not ours:
                ratios.append(f"  {study} {size}: gpukit at {ours.rate / other.rate:.2f}x {other.library}")
    return lines + (["", "gpukit / the others (rate):"] + ratios if ratios else [])


def _bytes_text(size):
    return f"{size >> 30} GiB" if size >= 1 << 30 else f"{size >> 20} MiB"
