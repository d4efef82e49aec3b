"""One measurement of ``gpukit bench``: a workload at one size in one library, its result checked
against NumPy's first, then timed: after warm-up runs, repeated until a number of runs or a time
budget is reached; the median and the 10th and 90th percentiles are kept."""

import statistics
import time
from dataclasses import asdict, dataclass
from typing import Optional

import numpy

from .workloads import HOST_INPUTS


@dataclass(frozen=True)
class Repeats:
    runs: int
    budget_seconds: float
    warmup: int


QUICK = Repeats(runs=10, budget_seconds=0.1, warmup=1)
FULL = Repeats(runs=100, budget_seconds=2.0, warmup=3)


@dataclass
class Measurement:
    workload: str
    group: str
    size: int
    size_text: str
    library: str
    unit: str
    amount: float
    elements: int = 1
    ceiling: Optional[str] = None    # the limit it is held against (ceilings.py), if any
    host_clock: bool = False         # seconds per call on the host's clock (a launch's cost)
    seconds: Optional[float] = None  # the median run
    low: Optional[float] = None      # 10th percentile
    high: Optional[float] = None     # 90th percentile
    runs: int = 0
    verified: bool = False
    note: str = ""

    @property
    def rate(self):
        return self.amount / self.seconds if self.seconds else None

    @property
    def ns_per_element(self):
        """The simulator's figure: nanoseconds per element of the result."""
        return 1e9 * self.seconds / self.elements if self.seconds else None

    def to_json(self):
        return {**asdict(self), "rate": self.rate, "ns_per_element": self.ns_per_element}


class CheckFailed(Exception):
    """A library's result differs from NumPy's: the row is reported, not timed."""


def check(workload, result, reference):
    """Raises CheckFailed where ``result`` (on the host) is not ``reference`` as the workload says."""
    result = numpy.asarray(result)
    if workload.check == "normal":  # values differ by generator: the statistics of a standard normal
        size = result.size
        if size != reference or not numpy.isfinite(result).all():
            raise CheckFailed(f"{size} values, {reference} asked for, or some not finite")
        if size >= 1000 and (abs(result.mean()) > 6 / size**0.5 or abs(result.std() - 1) > 0.05 + 6 / size**0.5):
            raise CheckFailed(f"mean {result.mean():.4f} and deviation {result.std():.4f} are not a standard normal's")
        return
    reference = numpy.asarray(reference)
    if result.shape != reference.shape:
        raise CheckFailed(f"shape {result.shape}, NumPy's {reference.shape}")
    if workload.check == "exact":
        if not numpy.array_equal(result, reference):
            raise CheckFailed(f"{int((result != reference).sum())} of {reference.size} values differ from NumPy's")
        return
    scale = float(numpy.abs(reference).max()) if reference.size else 0.0
    tolerance = workload.rtol * max(1.0, scale)
    error = numpy.abs(result.astype(numpy.complex128) - reference).max() if reference.size else 0.0
    if not error <= tolerance:
        raise CheckFailed(f"differs from NumPy's by {error:.3g} (allowed {tolerance:.3g})")


def _does_not_fit(error):
    text = f"{type(error).__name__} {error}".lower()
    return "outofmemory" in text.replace(" ", "") or "out of memory" in text or isinstance(error, MemoryError)


def measure(workload, library, size, host_inputs, reference, repeats):
    """The Measurement of ``workload`` at ``size`` in ``library``, or None where the library has
    no such operation."""
    row = Measurement(workload.name, workload.group, size, workload.size_text(size), library.name, workload.unit,
                      float(workload.amount(size)), workload.elements(size), workload.ceiling, workload.host_clock)
    try:
        inputs = host_inputs if workload.name in HOST_INPUTS else tuple(library.to_device(a) for a in host_inputs)
        run = workload.run(library, *inputs)
        if run is None:
            return None
        result = run()
        library.synchronize()
        check(workload, library.to_host(result), reference)
        row.verified = True
        for _ in range(repeats.warmup):
            run()
        library.synchronize()
        times = _host_clock_times(run, library, repeats) if workload.host_clock else timed_runs(run, library, repeats)
    except CheckFailed as failure:
        row.note = f"wrong result, not timed: {failure}"
        return row
    except Exception as error:  # a size that does not fit, or a library's own refusal: a note, never a crash
        reason = "does not fit in memory" if _does_not_fit(error) else f"{type(error).__name__}: {error}"
        row.note = reason.splitlines()[0][:200]
        return row
    times.sort()
    row.seconds = statistics.median(times)
    row.low, row.high = times[len(times) // 10], times[(len(times) * 9) // 10]
    row.runs = len(times)
    return row


def timed_runs(run, library, repeats):
    """Seconds of each run: between events on a device, on the wall clock (the work finished) on the host."""
    times, began = [], time.perf_counter()
    while len(times) < repeats.runs:
        timer = library.timer()
        timer.start()
        run()
        times.append(timer.stop())
        if time.perf_counter() - began >= repeats.budget_seconds:
            break
    return times


def _host_clock_times(run, library, repeats, calls=100):
    """Seconds per call of batches of ``calls`` calls on the host's clock, the queue drained
    (untimed) between batches: the host's cost of a launch, which events do not see."""
    times, began = [], time.perf_counter()
    while len(times) < repeats.runs:
        library.synchronize()
        start = time.perf_counter()
        for _ in range(calls):
            run()
        times.append((time.perf_counter() - start) / calls)
        if time.perf_counter() - began >= repeats.budget_seconds:
            break
    library.synchronize()
    return times
