"""The limits ``gpukit bench`` holds results against, measured in the same run through gpukit:
the device's copy bandwidth (bytes read and written), the vendor BLAS's float32 matrix-product
rate, and the pinned host-to-device bandwidth."""

import numpy

from .measure import Repeats, timed_runs

_REPEATS = Repeats(runs=20, budget_seconds=1.0, warmup=2)


def _median_seconds(run, library):
    for _ in range(_REPEATS.warmup):
        run()
    library.synchronize()
    times = sorted(timed_runs(run, library, _REPEATS))
    return times[len(times) // 2]


def measure(gpukit_library, simulated):
    """{"copy": B/s, "blas": FLOP/s, "h2d": B/s} (each None where it could not be measured)."""
    gk = gpukit_library.xp
    elements = (1 << 20) if simulated else (1 << 26)
    ceilings = {"copy": None, "blas": None, "h2d": None}
    source = gk.ones(elements, dtype=numpy.float32)
    target = gk.empty_like(source)
    ceilings["copy"] = 2 * source.nbytes / _median_seconds(lambda: gk.copyto(target, source), gpukit_library)
    side = 256 if simulated else 4096
    a = gk.ones((side, side), dtype=numpy.float32)
    ceilings["blas"] = 2 * side**3 / _median_seconds(lambda: a @ a, gpukit_library)
    pinned = gk.pinned_empty(elements, numpy.float32)
    pinned[...] = 1
    ceilings["h2d"] = pinned.nbytes / _median_seconds(lambda: gk.asarray(pinned), gpukit_library)
    return ceilings
