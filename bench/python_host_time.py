"""Host time per small array operation from Python: what `x + y` costs the calling thread.

    GPUKIT_BACKEND=sim python bench/python_host_time.py [--calls N] [--repeats R]

Times each operation on 16 float32 elements (issue 13's goal: <= 4 us median on the GPU machine;
CuPy 8-12 us, PyTorch ~5 us), in batches of N calls with the device synchronised between batches,
and prints the median per call. The same operations on 0-element arrays run everything but the
kernel launch (the engine returns before it): their time is the binding's and the core's host
work, the difference is the launch (on the simulator, the simulator's own cost). CuPy and PyTorch
are timed the same way where they are installed and a GPU is present.
"""

import argparse
import statistics
import time as clock

import numpy

import gpukit


def per_call(function, calls, repeats, synchronize):
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


def operations(module, x, y):
    sqrt = getattr(module, "sqrt", None) or module.negative
    return {
        "x + y": lambda: x + y,
        "x + 1.0": lambda: x + 1.0,
        f"{module.__name__}.{sqrt.__name__}(x)": lambda: sqrt(x),
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
        x = gpukit.asarray(numpy.arange(size, dtype=numpy.float32))
        y = gpukit.asarray(numpy.ones(size, dtype=numpy.float32))
        for name, function in operations(gpukit, x, y).items():
            time = per_call(function, args.calls, args.repeats, gpukit.synchronize)
            print(f"  gpukit {name:<22} {size:>2} elements  {time:7.2f}")
    if gpukit.get_device().backend_info.capabilities.dlpack_device_type != 2:
        return
    for library in ("cupy", "torch"):
        try:
            module = __import__(library)
        except ImportError:
            continue
        if library == "cupy":
            x, y = module.arange(16, dtype=module.float32), module.ones(16, dtype=module.float32)
            synchronize = module.cuda.Device().synchronize
        else:
            x = module.arange(16, dtype=module.float32, device="cuda")
            y = module.ones(16, dtype=module.float32, device="cuda")
            synchronize = module.cuda.synchronize
        for name, function in operations(module, x, y).items():
            time = per_call(function, args.calls, args.repeats, synchronize)
            print(f"  {library:<6} {name:<22} 16 elements  {time:7.2f}")


if __name__ == "__main__":
    main()
