"""bench/conv_crossover.py: direct against FFT convolution on this device, the measurements behind
choose_conv_method's model (src/ops/convolution/method_choice.cpp). Times gpukit.signal.convolve
with method 'direct' and 'fft' over output and kernel sizes, 1-D and 2-D, float32 and float64, and
prints one JSON row per case (ndim, dtype, outputs, taps, full size, direct ms, fft ms).

    GPUKIT_BACKEND=cuda python bench/conv_crossover.py > crossover.jsonl
"""

import json
import statistics
import sys

import numpy as np

import gpukit as gk


def ms(run, k=15):
    """Median milliseconds of `run` between two events, after one warm-up call."""
    run()
    gk.synchronize()
    times = []
    for _ in range(k):
        start, end = gk.Event(), gk.Event()
        start.record()
        run()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


rng = np.random.default_rng(0)
rows = []
cases = [(1, n, k) for n in (1 << 12, 1 << 16, 1 << 20, 1 << 23) for k in (3, 15, 63, 255, 1023, 4095, 16383)]
cases += [(2, n, k) for n in (256, 1024, 4096) for k in (3, 7, 15, 31, 63, 127)]
for dtype in ("float32", "float64"):
    for ndim, n, k in cases:
        if k >= n:
            continue
        shape, kshape = ((n,), (k,)) if ndim == 1 else ((n, n), (k, k))
        a = gk.asarray(rng.random(shape).astype(dtype))
        w = gk.asarray(rng.random(kshape).astype(dtype))
        try:
            direct = ms(lambda a=a, w=w: gk.signal.convolve(a, w, mode="same", method="direct"))
        except gk.GpukitError as error:
            direct = None
            print("direct failed", ndim, n, k, error, file=sys.stderr)
        fft = ms(lambda a=a, w=w: gk.signal.convolve(a, w, mode="same", method="fft"))
        out, taps = int(np.prod(shape)), int(np.prod(kshape))
        full = [s + t - 1 for s, t in zip(shape, kshape)]
        rows.append(dict(ndim=ndim, dtype=dtype, out=out, taps=taps, full=int(np.prod(full)), direct_ms=direct,
                         fft_ms=fft))
        print(json.dumps(rows[-1]), flush=True)
