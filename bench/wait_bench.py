"""bench/wait_bench.py: what a launch and a wait for the device cost from Python, beside CuPy and PyTorch.

gpukit's Python waits can be interrupted (Ctrl-C) and take a timeout, which CUDA's own waits cannot:
a long wait is handed to a waiter thread (src/backends/cuda/device_waiter.hpp). This measures the
round trip of a tiny kernel launch and a device (or stream) wait, median of many, in one run:

    GPUKIT_BACKEND=cuda python bench/wait_bench.py [--repeat 20000]
"""

import argparse
import statistics
import time

import gpukit

EMPTY = 'extern "C" __global__ void empty() {}'


def median_us(step, repeat):
    for _ in range(200):
        step()
    samples = []
    for _ in range(repeat // 100):
        start = time.perf_counter()
        for _ in range(100):
            step()
        samples.append((time.perf_counter() - start) / 100 * 1e6)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=20_000)
    args = parser.parse_args()
    rows = []
    kernel = gpukit.RawKernel(EMPTY, "empty")
    stream = gpukit.Stream()
    rows.append(("gpukit", "launch + device synchronize",
                 median_us(lambda: (kernel((1,), (32,), ()), gpukit.synchronize()), args.repeat)))
    rows.append(("gpukit", "launch + stream synchronize",
                 median_us(lambda: (kernel((1,), (32,), (), stream=stream), stream.synchronize()), args.repeat)))
    rows.append(("gpukit", "device synchronize, idle", median_us(gpukit.synchronize, args.repeat)))
    try:
        import cupy
        cupy_kernel = cupy.RawKernel(EMPTY, "empty")
        cupy_stream = cupy.cuda.Stream()
        device = cupy.cuda.Device()
        rows.append(("CuPy", "launch + device synchronize",
                     median_us(lambda: (cupy_kernel((1,), (32,), ()), device.synchronize()), args.repeat)))
        rows.append(("CuPy", "launch + stream synchronize",
                     median_us(lambda: (cupy_kernel((1,), (32,), (), stream=cupy_stream), cupy_stream.synchronize()),
                               args.repeat)))
        rows.append(("CuPy", "device synchronize, idle", median_us(device.synchronize, args.repeat)))
    except ImportError:
        print("CuPy is not installed: its rows are left out")
    try:
        import torch
        x = torch.zeros(1, device="cuda")
        rows.append(("PyTorch", "x.add_(1) + torch.cuda.synchronize",
                     median_us(lambda: (x.add_(1), torch.cuda.synchronize()), args.repeat)))
        rows.append(("PyTorch", "torch.cuda.synchronize, idle", median_us(torch.cuda.synchronize, args.repeat)))
    except ImportError:
        print("PyTorch is not installed: its rows are left out")
    print(f"{'library':8} {'what':40} {'us (median)':>12}")
    for library, what, us in rows:
        print(f"{library:8} {what:40} {us:12.2f}")


if __name__ == "__main__":
    main()
