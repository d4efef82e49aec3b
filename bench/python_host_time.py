"""Where the host time of a small array operation from Python goes: the call against the launch.

    GPUKIT_BACKEND=sim python bench/python_host_time.py [--calls N] [--repeats R]

Times each operation on 16 float32 elements and on 0 elements, in batches of N calls with the
device synchronised between batches, and prints the median per call. With 0 elements everything
runs but the kernel launch (the engine returns before it): the Python binding (operands, keywords,
the result's object) and the core's host work (loop selection, broadcasting, the allocation). The
difference to 16 elements is the launch, on the simulator the simulator's own cost. bench/array_bench.py
compares the 16-element figures with CuPy and PyTorch on a GPU (issue 13's goal: <= 4 us).
"""

import argparse
import statistics
import time as clock

import numpy

import gpukit


def per_call(function, calls, repeats, synchronize=gpukit.synchronize):
    """Median microseconds of host time per call of ``function``, in batches of ``calls`` with the
    device synchronised (``synchronize``, the library's) between batches."""
    for _ in range(min(calls, 1000)):  # warm: kernels compiled, pools filled
        function()
    synchronize()
    times = []
    for _ in range(repeats):
        start = clock.perf_counter()
        for _ in range(calls):
            function()
        times.append((clock.perf_counter() - start) / calls)
        synchronize()
    return statistics.median(times) * 1e6


def operations(size):
    """The operations timed, on arrays of `size` float32 elements."""
    x = gpukit.asarray(numpy.arange(size, dtype=numpy.float32))
    y = gpukit.asarray(numpy.ones(size, dtype=numpy.float32))
    out = gpukit.empty(size, numpy.float32)
    sqrt = getattr(gpukit, "sqrt", gpukit.negative)
    return {
        "x + y": lambda: x + y,
        "x + 1.0": lambda: x + 1.0,
        f"gpukit.{sqrt.__name__}(x)": lambda: sqrt(x),
        "gpukit.add(x, y, out=out)": lambda: gpukit.add(x, y, out=out),
        "x += 1.0": lambda: x.__iadd__(1.0),
        "x[1:3]": lambda: x[1:3],
        "x == None": lambda: x == None,  # noqa: E711 (the NotImplemented path is what is timed)
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    device = gpukit.get_device()
    print(f"gpukit on {device.backend} ({device.name}); median us per call over {args.repeats} batches of "
          f"{args.calls}")
    for size in (16, 0):
        for name, function in operations(size).items():
            print(f"  {name:<28} {size:>2} elements  {per_call(function, args.calls, args.repeats):8.2f}")


if __name__ == "__main__":
    main()
