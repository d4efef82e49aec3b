"""bench/lifetime_rss.py: resident and device memory over many allocate / launch / free cycles.

Each cycle allocates an array, launches a kernel on it (on a new stream, timed by two new events,
half the cycles), takes views of it and a DLPack capsule, and lets everything go. Nothing may stay
behind: RSS, the device's free memory and the number of Python objects must level off.

    GPUKIT_BACKEND=sim python bench/lifetime_rss.py --cycles 100000
    GPUKIT_BACKEND=cuda python bench/lifetime_rss.py --cycles 100000

tests/python/test_lifetime.py runs the same cycle (it imports this file) with fewer repetitions.
"""

import argparse
import gc
import os
import time

import numpy

import gpukit

FILL = r"""
extern "C" __global__ void fill(float* values, const float value, const int size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size) values[i] = value;
}
"""


def resident_bytes():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def one_cycle(kernel, index, check=False):
    """Allocate, launch (on a new stream timed by two new events, every other cycle), views, a
    DLPack capsule, free. With ``check``, asserts what the launch wrote and what the events timed."""
    array = gpukit.empty(1024, numpy.float32)
    if index % 2:
        stream, start, end = gpukit.Stream(), gpukit.Event(), gpukit.Event()
        start.record(stream)
        kernel(4, 256, (array, float(index), 1024), stream=stream)
        end.record(stream)
        end.synchronize()
        elapsed = start.elapsed_time(end)
        assert not check or elapsed >= 0
    else:
        kernel(4, 256, (array, float(index), 1024))
    view = array[::2]
    row = array.reshape(32, 32)[index % 32]
    capsule = view.__dlpack__()
    assert not check or (row.get() == index).all()
    del array, view, row, capsule


def report(label, started, free_before):
    gc.collect()
    free, total = gpukit.get_device().mem_info
    print(f"{label:>8} cycles: RSS {resident_bytes() / 2**20:7.1f} MiB, device free {free / 2**20:10.1f} MiB "
          f"({(free_before - free) / 2**20:+.1f} MiB), {len(gc.get_objects()):7d} Python objects, "
          f"{time.perf_counter() - started:7.1f} s", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=100_000)
    parser.add_argument("--every", type=int, default=10_000, help="report every this many cycles")
    args = parser.parse_args()
    kernel = gpukit.RawKernel(FILL, "fill")
    print(f"gpukit {gpukit.__version__}, backend {gpukit.backend()}, device {gpukit.get_device().name}")
    for index in range(1000):  # warm-up: allocator caches, interned objects, the launch path
        one_cycle(kernel, index)
    gpukit.synchronize()
    free_before = gpukit.get_device().mem_info[0]
    started = time.perf_counter()
    report("0", started, free_before)
    for first in range(0, args.cycles, args.every):
        for index in range(first, min(first + args.every, args.cycles)):
            one_cycle(kernel, index)
        gpukit.synchronize()
        report(str(min(first + args.every, args.cycles)), started, free_before)


if __name__ == "__main__":
    main()
