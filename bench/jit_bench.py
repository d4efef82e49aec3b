"""bench/jit_bench.py: Python kernels (gpukit.jit) beside the same kernels in CUDA C and under
Numba-CUDA, in one run (issue 15's goals).

    GPUKIT_BACKEND=cuda python bench/jit_bench.py [--json out.json]    # the GPU part
    python bench/jit_bench.py --simulator [--size 1024]                # the simulator part

On the GPU: each kernel's device time (median of CUDA-event timings on each library's stream, after
a warm-up) for the Python kernel through gpukit.jit, the same kernel written by hand in CUDA C
(gpukit.RawKernel) and the same Python source under Numba-CUDA when it is installed; the host time
one launch costs the Python thread (queued, not waited for; median over batches); and the first
call's translation and compile in a new process with an empty compile cache. Goals: within 5 % of
CUDA C, at least Numba's speed, <= 5 us a launch, a first call no slower than Numba's.

On the simulator: the course's tiled matmul in Python syntax, size x size, in simulated threads per
second, against Numba's simulator (NUMBA_ENABLE_CUDASIM=1) on the same machine running the same
source at 32 x 32 (it manages a few hundred threads a second). Goal: >= 10^4 x Numba's.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

TPB = 16

# The kernels, as Python source: each library decorates the same text (seeds 004's matmuls).
KERNELS_PY = '''
import math
import numpy as np
from {module} import cuda
from {types} import float32

TPB = 16


@cuda.jit
def naive_matmul(A, B, C):
    i, j = cuda.grid(2)
    if i < C.shape[0] and j < C.shape[1]:
        tmp = float32(0.)
        for k in range(A.shape[1]):
            tmp += A[i, k] * B[k, j]
        C[i, j] = tmp


@cuda.jit
def tiled_matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tmp = float32(0.)
    for i in range((A.shape[1] + TPB - 1) // TPB):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = a * x[i] + y[i]


@cuda.jit
def tiny(x, out, n):
    i = cuda.grid(1)
    if i < n:
        out[i] = x[i]
'''

# The same kernels written by hand in CUDA C, as a course participant would (int indices, flat
# row-major arrays).
KERNELS_CU = r'''
#define TPB 16
extern "C" __global__ void naive_matmul(const float* A, const float* B, float* C, int n, int k, int m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < m) {
        float tmp = 0.f;
        for (int p = 0; p < k; ++p) tmp += A[i * k + p] * B[p * m + j];
        C[i * m + j] = tmp;
    }
}
extern "C" __global__ void tiled_matmul(const float* A, const float* B, float* C, int n, int k, int m) {
    __shared__ float sA[TPB][TPB], sB[TPB][TPB];
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    float tmp = 0.f;
    for (int i = 0; i < (k + TPB - 1) / TPB; ++i) {
        sA[ty][tx] = 0.f;
        sB[ty][tx] = 0.f;
        if (y < n && tx + i * TPB < k) sA[ty][tx] = A[y * k + tx + i * TPB];
        if (x < m && ty + i * TPB < k) sB[ty][tx] = B[(ty + i * TPB) * m + x];
        __syncthreads();
        for (int j = 0; j < TPB; ++j) tmp += sA[ty][j] * sB[j][tx];
        __syncthreads();
    }
    if (y < n && x < m) C[y * m + x] = tmp;
}
extern "C" __global__ void saxpy(float a, const float* x, const float* y, float* out, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * x[i] + y[i];
}
extern "C" __global__ void tiny(const float* x, float* out, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i];
}
'''


def kernels_source(module_name):
    return KERNELS_PY.format(module=module_name, types="gpukit.cuda" if module_name == "gpukit" else "numba")


def load_kernels(module_name):
    """The Python kernels decorated by ``module_name``'s cuda (gpukit or numba), from a file: both
    translators read the function's source."""
    directory = tempfile.mkdtemp(prefix="gpukit-jit-bench-")
    path = os.path.join(directory, f"kernels_{module_name}.py")
    with open(path, "w") as f:
        f.write(kernels_source(module_name))
    namespace = {"__name__": f"kernels_{module_name}", "__file__": path}
    exec(compile(open(path).read(), path, "exec"), namespace)
    return namespace


def median_ms(run, events, repeat=30):
    """Median milliseconds of ``run`` between two events; ``events``: a library's (new event,
    elapsed time, synchronize), whose events have record() and synchronize()."""
    new_event, elapsed_time, synchronize = events
    for _ in range(3):
        run()
    synchronize()
    times = []
    for _ in range(repeat):
        start, end = new_event(), new_event()
        start.record()
        run()
        end.record()
        end.synchronize()
        times.append(elapsed_time(start, end))
    return statistics.median(times)


def gpu_part(args):
    import gpukit

    rows, host_rows = [], []
    gk = load_kernels("gpukit")
    raw = gpukit.RawModule(KERNELS_CU)
    try:
        from numba import cuda as numba_cuda
        nb = load_kernels("numba")
    except ImportError:
        numba_cuda, nb = None, None

    from python_host_time import per_call  # the host time of a call, as the array benchmarks measure it

    gk_events = (gpukit.Event, gpukit.get_elapsed_time, gpukit.synchronize)
    nb_events = None if nb is None else (numba_cuda.event, numba_cuda.event_elapsed_time, numba_cuda.synchronize)

    rng = np.random.default_rng(15)

    def matmul_rows(n):
        a = rng.standard_normal((n, n), dtype=np.float32)
        b = rng.standard_normal((n, n), dtype=np.float32)
        expected = a.astype(np.float64) @ b
        da, db, dc = gpukit.asarray(a), gpukit.asarray(b), gpukit.zeros((n, n), np.float32)
        if nb is not None:
            na, nbb = numba_cuda.to_device(a), numba_cuda.to_device(b)
            nc = numba_cuda.device_array((n, n), np.float32)
        blocks = ((n + TPB - 1) // TPB, (n + TPB - 1) // TPB)
        for name in ("naive_matmul", "tiled_matmul"):
            figures = {}
            jit_kernel = gk[name][blocks, (TPB, TPB)]
            figures["gpukit.jit"] = median_ms(lambda k=jit_kernel: k(da, db, dc), gk_events)
            check(dc.get(), expected, f"{name} gpukit.jit")
            dc.fill(0)
            raw_kernel = raw.get_function(name)
            figures["CUDA C"] = median_ms(lambda k=raw_kernel: k(blocks, (TPB, TPB), (da, db, dc, n, n, n)),
                                          gk_events)
            check(dc.get(), expected, f"{name} CUDA C")
            if nb is not None:
                numba_kernel = nb[name][blocks, (TPB, TPB)]
                figures["Numba"] = median_ms(lambda k=numba_kernel: k(na, nbb, nc), nb_events)
                check(nc.copy_to_host(), expected, f"{name} Numba")
            rows.append((f"{name} {n}x{n} f32", figures, lambda ms, f=2.0 * n ** 3: f"{f / ms / 1e9:.2f} TFLOP/s"))

    for n in args.matmul_sizes:
        matmul_rows(n)

    n = 1 << args.saxpy_log2
    x, y = rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32)
    dx, dy, dout = gpukit.asarray(x), gpukit.asarray(y), gpukit.empty(n, np.float32)
    blocks = (n + 255) // 256
    figures = {}
    jit_saxpy = gk["saxpy"][blocks, 256]
    figures["gpukit.jit"] = median_ms(lambda: jit_saxpy(np.float32(2.5), dx, dy, dout), gk_events)
    check(dout.get(), 2.5 * x + y, "saxpy gpukit.jit")
    raw_saxpy = raw.get_function("saxpy")
    figures["CUDA C"] = median_ms(lambda: raw_saxpy((blocks,), (256,), (np.float32(2.5), dx, dy, dout, n)),
                                  gk_events)
    if nb is not None:
        nx, ny, nout = numba_cuda.to_device(x), numba_cuda.to_device(y), numba_cuda.device_array(n, np.float32)
        numba_saxpy = nb["saxpy"][blocks, 256]
        figures["Numba"] = median_ms(lambda: numba_saxpy(np.float32(2.5), nx, ny, nout), nb_events)
        check(nout.copy_to_host(), 2.5 * x + y, "saxpy Numba")
    rows.append((f"saxpy 2^{args.saxpy_log2} f32", figures, lambda ms, b=12.0 * n: f"{b / ms / 1e6:.0f} GB/s"))

    # Host time of one launch of a tiny kernel (two arrays and a size), queued, not waited for.
    tx, tout = gpukit.asarray(np.ones(32, np.float32)), gpukit.empty(32, np.float32)
    jit_tiny = gk["tiny"][1, 32]
    host_rows.append(("gpukit.jit kernel[1, 32](x, out, n)",
                      per_call(lambda: jit_tiny(tx, tout, 32), 2000, 15)))
    raw_tiny = raw.get_function("tiny")
    host_rows.append(("gpukit.RawKernel((1,), (32,), (x, out, n))",
                      per_call(lambda: raw_tiny((1,), (32,), (tx, tout, 32)), 2000, 15)))
    if nb is not None:
        ntx, ntout = numba_cuda.to_device(np.ones(32, np.float32)), numba_cuda.device_array(32, np.float32)
        numba_tiny = nb["tiny"][1, 32]
        host_rows.append(("Numba kernel[1, 32](x, out, n)",
                          per_call(lambda: numba_tiny(ntx, ntout, 32), 2000, 15, numba_cuda.synchronize)))

    first_calls = {"gpukit.jit": first_call_seconds("gpukit")}
    if nb is not None:
        first_calls["Numba"] = first_call_seconds("numba")

    print(f"device: {gpukit.get_device().name}; median of CUDA-event timings, ms (ratio to CUDA C)")
    libraries = ["gpukit.jit", "CUDA C", "Numba"]
    print(f"{'kernel':<28}" + "".join(f"{name:>22}" for name in libraries) + "   gpukit.jit")
    report = {"kernels": {}, "host_us": {}, "first_call_s": first_calls}
    for label, figures, rate in rows:
        cells = []
        for library in libraries:
            ms = figures.get(library)
            cells.append("-" if ms is None else f"{ms:.4f} ({ms / figures['CUDA C']:.3f}x)")
        print(f"{label:<28}" + "".join(f"{cell:>22}" for cell in cells) + f"   {rate(figures['gpukit.jit'])}")
        report["kernels"][label] = figures
    print("\nhost time per launch (us, median)")
    for label, us in host_rows:
        print(f"  {label:<46}{us:8.2f}")
        report["host_us"][label] = us
    print("\nfirst call in a new process, empty caches (translate + compile + launch), s")
    for label, seconds in first_calls.items():
        print(f"  {label:<46}{seconds:8.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)


FIRST_CALL = '''
import os, sys, time
sys.path.insert(0, {directory!r})
import numpy as np
start = time.perf_counter()
from kernels_{module} import tiled_matmul, cuda
a = cuda.to_device(np.ones((64, 64), np.float32))
c = cuda.device_array((64, 64), np.float32)
imported = time.perf_counter()
tiled_matmul[(4, 4), (16, 16)](a, a, c)
cuda.synchronize()
print(time.perf_counter() - imported)
'''


def first_call_seconds(module_name):
    """Seconds of the first launch of the tiled matmul in a new process with empty caches (imports,
    device start-up and the copies done before the clock starts)."""
    directory = tempfile.mkdtemp(prefix="gpukit-jit-first-")
    with open(os.path.join(directory, f"kernels_{module_name}.py"), "w") as f:
        f.write(kernels_source(module_name))
    environment = dict(os.environ, GPUKIT_CACHE_DIR=os.path.join(directory, "cache"),
                       NUMBA_CACHE_DIR=os.path.join(directory, "numba-cache"))
    script = FIRST_CALL.format(directory=directory, module=module_name)
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=environment,
                               timeout=300)
    if completed.returncode != 0:
        raise RuntimeError(f"first call under {module_name} failed:\n{completed.stderr}")
    return float(completed.stdout.split()[-1])


def check(actual, expected, what):
    tolerance = 1e-3 * (1 + np.abs(expected))
    if not np.all(np.abs(actual - expected) <= tolerance):
        raise AssertionError(f"{what}: wrong result (max error {np.max(np.abs(actual - expected))})")


NUMBA_SIMULATOR = '''
import os, sys, time
os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
sys.path.insert(0, {directory!r})
import numpy as np
from kernels_numba import tiled_matmul
n = {size}
a = np.random.default_rng(1).standard_normal((n, n), dtype=np.float32)
c = np.zeros((n, n), np.float32)
start = time.perf_counter()
tiled_matmul[(n // 16, n // 16), (16, 16)](a, a, c)
seconds = time.perf_counter() - start
assert np.allclose(c, a @ a, rtol=1e-3, atol=1e-3)
print(seconds)
'''


def simulator_part(args):
    os.environ["GPUKIT_BACKEND"] = "sim"
    import gpukit

    gk = load_kernels("gpukit")
    n = args.size
    rng = np.random.default_rng(1)
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    da, db, dc = gpukit.asarray(a), gpukit.asarray(b), gpukit.zeros((n, n), np.float32)
    blocks = ((n + TPB - 1) // TPB,) * 2
    kernel = gk["tiled_matmul"][blocks, (TPB, TPB)]
    kernel(da, db, dc)  # translated and compiled: the timing is the simulation
    gpukit.synchronize()
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        kernel(da, db, dc)
        gpukit.synchronize()
        times.append(time.perf_counter() - start)
    check(dc.get(), a.astype(np.float64) @ b, "simulated tiled matmul")
    seconds = statistics.median(times)
    gpukit_rate = n * n / seconds
    print(f"gpukit simulator, tiled matmul {n}x{n} in Python syntax: {seconds:.3f} s, {gpukit_rate:.3g} threads/s "
          f"({os.cpu_count()} CPUs)")

    directory = tempfile.mkdtemp(prefix="gpukit-jit-numba-sim-")
    with open(os.path.join(directory, "kernels_numba.py"), "w") as f:
        f.write(kernels_source("numba"))
    script = NUMBA_SIMULATOR.format(directory=directory, size=args.numba_size)
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    if completed.returncode != 0:
        print(f"Numba's simulator: not run ({completed.stderr.strip().splitlines()[-1:]})")
        return
    numba_seconds = float(completed.stdout.split()[-1])
    numba_rate = args.numba_size ** 2 / numba_seconds
    # A thread's work grows with the size (size / 16 tiles each): at n x n Numba's simulator would
    # take (n / numba_size)^3 times as long, as bench/numba_sim_bench.py extrapolates too.
    numba_seconds_at_n = numba_seconds * (n / args.numba_size) ** 3
    numba_rate_at_n = n * n / numba_seconds_at_n
    print(f"Numba simulator, tiled matmul {args.numba_size}x{args.numba_size}: {numba_seconds:.2f} s, "
          f"{numba_rate:.3g} threads/s; at {n}x{n} (extrapolated): {numba_seconds_at_n / 3600:.1f} h, "
          f"{numba_rate_at_n:.3g} threads/s")
    print(f"ratio at {n}x{n}: {gpukit_rate / numba_rate_at_n:,.0f}x Numba's simulator (goal >= 10,000x); "
          f"against Numba's own rate at {args.numba_size}x{args.numba_size}: {gpukit_rate / numba_rate:,.0f}x")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulator", action="store_true", help="the simulator part (else the GPU part)")
    parser.add_argument("--size", type=int, default=1024, help="simulator: the matmul's size")
    parser.add_argument("--numba-size", type=int, default=32, help="simulator: the size Numba's simulator runs")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--matmul-sizes", type=int, nargs="+", default=[1024, 4096])
    parser.add_argument("--saxpy-log2", type=int, default=26)
    parser.add_argument("--json", help="write the GPU figures here")
    args = parser.parse_args()
    if args.simulator:
        simulator_part(args)
    else:
        gpu_part(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
