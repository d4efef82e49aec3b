"""Timing for ``gpukit demo``: the median of repeated runs, on the host's clock or the device's."""

import statistics
import time
from dataclasses import dataclass

from .._benchmark import benchmark


@dataclass(frozen=True)
class Repeats:
    """How long to measure one thing: at most ``runs`` runs, stopping once ``budget_seconds`` have
    passed (always at least one), after ``warmup`` untimed runs."""

    runs: int
    budget_seconds: float
    warmup: int


def median_host_seconds(func, repeats):
    """The median wall-clock time of ``func()``, which must finish its work before returning."""
    for _ in range(repeats.warmup):
        func()
    times, began = [], time.perf_counter()
    while len(times) < repeats.runs:
        start = time.perf_counter()
        func()
        end = time.perf_counter()
        times.append(end - start)
        if end - began >= repeats.budget_seconds:
            break
    return statistics.median(times)


def median_device_seconds(enqueue, repeats):
    """The median time the device spends on the work ``enqueue()`` puts on the current stream,
    between events recorded around it (gpukit.benchmark)."""
    result = benchmark(enqueue, n_repeat=repeats.runs, n_warmup=repeats.warmup, max_duration=repeats.budget_seconds)
    return statistics.median(result.gpu_times[0])
