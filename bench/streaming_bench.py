"""gpukit.streaming on data larger than one chunk: a sum and a histogram over a host array, against
the pinned host-to-device copy rate measured in the same run (the ceiling: every byte crosses the
bus once), the plain loop (copy a chunk, reduce it, next chunk: one stream) in gpukit and PyTorch,
and a picture of the overlap from recorded events.

    python bench/streaming_bench.py --gib 48 --timeline timeline.png

The host array is ordinary (pageable) NumPy memory, as a user's would be: gpukit copies it into
pinned staging with several threads while earlier chunks cross the bus. With --pinned it is
page-locked (gpukit.pinned_empty), and the copy engine reads it where it lies.
"""

import argparse
import statistics
import time

import numpy as np

import gpukit as gk
from gpukit.cli.bench import ceilings, libraries


def timed(step, repeats):
    times = []
    for _ in range(repeats):
        gk.synchronize()
        begin = time.perf_counter()
        result = step()
        gk.synchronize()
        times.append(time.perf_counter() - begin)
    return statistics.median(times), result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gib", type=float, default=8.0, help="the host array's size (float32)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pinned", action="store_true", help="the host array in page-locked memory (pinned_empty)")
    parser.add_argument("--threads", type=int, default=0, help="copy threads (0: gpukit chooses)")
    parser.add_argument("--timeline", help="write the overlap picture of a 1 GiB run here (PNG)")
    args = parser.parse_args()

    n = int(args.gib * (1 << 30)) // 4
    block = np.random.default_rng(0).random(1 << 24, dtype=np.float32)
    n -= n % block.size
    begin = time.perf_counter()
    x = gk.pinned_empty((n,), np.float32) if args.pinned else np.empty(n, np.float32)
    x.reshape(-1, block.size)[:] = block  # tiled: the expected results follow from one block's
    tiles = n // block.size
    kind = "page-locked" if args.pinned else "pageable"
    print(f"host array: {x.nbytes / 2**30:.1f} GiB float32 ({n} values, {kind}), "
          f"made in {time.perf_counter() - begin:.1f} s")
    device = gk.get_device()
    free, total = device.mem_info
    print(f"device: {device.name}, {free / 2**30:.0f} of {total / 2**30:.0f} GiB free")

    # The same pinned host-to-device ceiling gpukit bench holds its rows against.
    ceiling = ceilings.measure(libraries.Gpukit(), device.backend_info.capabilities.simulated)["h2d"]
    print(f"pinned host->device copy (the ceiling): {ceiling / 1e9:.1f} GB/s")
    rows = []

    def report(name, seconds, check):
        rate = x.nbytes / seconds
        rows.append((name, seconds, rate))
        print(f"{name:58s} {seconds:7.3f} s {rate / 1e9:7.1f} GB/s {rate / ceiling:6.1%} of pinned H2D   {check}",
              flush=True)

    expected_sum = float(block.sum(dtype=np.float64)) * tiles
    expected_hist = np.histogram(block, 256, (0, 1))[0] * tiles
    how = "in place" if args.pinned else "staged"
    for buffers in (2, 3):
        for chunk_mib in (64, 256):
            options = {"buffers": buffers, "chunk_rows": (chunk_mib << 20) // 4, "copy_threads": args.threads,
                       "progress": False}
            seconds, total = timed(lambda o=options: gk.streaming.sum(x, dtype=np.float64, **o), args.repeats)
            error = abs(float(gk.asnumpy(total)) - expected_sum) / expected_sum
            report(f"streaming.sum, {how}, {buffers} buffers, {chunk_mib} MiB", seconds, f"rel. error {error:.1e}")
    seconds, total = timed(lambda: gk.streaming.sum(x, dtype=np.float64, progress=False), args.repeats)
    error = abs(float(gk.asnumpy(total)) - expected_sum) / expected_sum
    report(f"streaming.sum, {how}, default options", seconds, f"rel. error {error:.1e}")
    best = {"buffers": 2, "chunk_rows": (64 << 20) // 4, "copy_threads": args.threads, "progress": False}
    seconds, (hist, _) = timed(lambda: gk.streaming.histogram(x, bins=256, range=(0, 1), **best), args.repeats)
    report(f"streaming.histogram 256 bins, {how}, 2 buffers, 64 MiB", seconds,
           "counts equal" if np.array_equal(gk.asnumpy(hist), expected_hist) else "COUNTS DIFFER")

    # The same rows already in page-locked memory (gpukit.pinned_empty): no staging copy at all.
    if not args.pinned:
        pinned_n = min(n, (16 << 30) // 4)
        pinned = gk.pinned_empty((pinned_n,), np.float32)
        pinned[:] = x[:pinned_n]
        stats = {}
        seconds, total = timed(lambda: gk.streaming.sum(pinned, dtype=np.float64, stats=stats, **best), args.repeats)
        rate = pinned.nbytes / seconds
        rows.append(("streaming.sum of page-locked rows", seconds, rate))
        label = f"streaming.sum, {pinned.nbytes / 2**30:.0f} GiB page-locked (in place: {stats['in_place']})"
        print(f"{label:58s} "
              f"{seconds:7.3f} s {rate / 1e9:7.1f} GB/s {rate / ceiling:6.1%} of pinned H2D", flush=True)
        pinned = None  # back to the driver before the plain loops

    chunk = (256 << 20) // 4

    def naive_gpukit():
        total = 0.0
        for start in range(0, n, chunk):
            total += float(gk.asnumpy(gk.sum(gk.asarray(x[start:start + chunk]), dtype=np.float64)))
        return total

    seconds, total = timed(naive_gpukit, 1)
    report("plain loop, gpukit (asarray, sum, next; 256 MiB)", seconds,
           f"rel. error {abs(total - expected_sum) / expected_sum:.1e}")
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        def naive_torch():
            total = 0.0
            for start in range(0, n, chunk):
                on_device = torch.from_numpy(x[start:start + chunk]).to("cuda")  # not a backend: PyTorch's device
                total += float(on_device.sum(dtype=torch.float64))
            return total

        seconds, total = timed(naive_torch, 1)
        report("plain loop, PyTorch (.to('cuda'), sum, next; 256 MiB)", seconds,
               f"rel. error {abs(total - expected_sum) / expected_sum:.1e}")

    if args.timeline:
        part = x[: (1 << 30) // 4]
        warm = part[: 1 << 20]  # the first call compiles sqrt's kernel: not a chunk's work
        gk.streaming.map(gk.sqrt, warm, out=np.empty_like(warm), progress=False)
        stats = {}
        gk.streaming.map(gk.sqrt, part, out=np.empty_like(part), stats=stats, timeline=True, progress=False)
        title = f"gpukit.streaming.map(sqrt) over 1 GiB, default options ({device.name})"
        gk.streaming.plot_timeline(stats, args.timeline, title=title)
        print(f"timeline: {args.timeline} ({stats['chunks']} chunks, {stats['seconds']:.2f} s)")


if __name__ == "__main__":
    main()
