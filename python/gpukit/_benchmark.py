"""benchmark: time a function on the host clock and on the device's, as ``cupyx.profiler.benchmark``."""

import math
import time

import numpy

from ._backend import Device, get_device
from ._core import Event, get_current_stream
from ._errors import describe_value


class BenchmarkResult:
    """Times of the repeated runs of one function, in seconds.

    ``cpu_times``: host wall-clock time of each call (the time to enqueue, for asynchronous work);
    ``gpu_times``: one row per device, the time between events recorded around each call on the
    current stream (work that completes on it)."""

    def __init__(self, name, cpu_times, gpu_times, devices):
        self.name = name
        self.cpu_times = numpy.asarray(cpu_times, dtype=numpy.float64)
        self.gpu_times = numpy.asarray(gpu_times, dtype=numpy.float64).reshape(len(devices), -1)
        self.devices = tuple(devices)

    @staticmethod
    def _summary(label, times):
        microseconds = times * 1e6
        return (f"{label}:{microseconds.mean():>12.3f} us +/-{microseconds.std():>9.3f} "
                f"(min:{microseconds.min():>12.3f} / max:{microseconds.max():>12.3f}) us")

    def __str__(self):
        if self.cpu_times.size == 0:
            return f"{self.name}: no runs"
        parts = [f"{self.name:<20}", self._summary("    CPU", self.cpu_times)]
        for device, times in zip(self.devices, self.gpu_times):
            parts.append(self._summary(f"    {device.backend_info.device_label}-{device.id}", times))
        return "".join(parts)

    def __repr__(self):
        return f"<gpukit.BenchmarkResult {self.name}: {self.cpu_times.size} runs>"


def benchmark(func, args=(), kwargs=None, n_repeat=10000, *, name=None, n_warmup=10, max_duration=math.inf,
              devices=None):
    """Runs ``func(*args, **kwargs)`` ``n_warmup`` times untimed, then up to ``n_repeat`` times timed
    (stopping early once ``max_duration`` seconds have passed), and returns a :class:`BenchmarkResult`.

    Each timed run records an event on every device in ``devices`` (default: the current device)
    before and after the call and waits for it, so device times cover the work the call enqueued
    on the current stream."""
    if not callable(func):
        raise TypeError(f"func must be callable, not {describe_value(func)}")
    if not isinstance(args, (tuple, list)):
        raise TypeError(f"args must be a tuple of func's arguments, not {describe_value(args)} (write (x,) for one)")
    if kwargs is not None and not isinstance(kwargs, dict):
        raise TypeError(f"kwargs must be a dict of func's keyword arguments or None, not {describe_value(kwargs)}")
    for count_name, count in (("n_repeat", n_repeat), ("n_warmup", n_warmup)):
        if not isinstance(count, (int, numpy.integer)) or isinstance(count, (bool, numpy.bool_)):
            raise TypeError(f"{count_name} must be an int, not {describe_value(count)}")
        if count < 0:
            raise ValueError(f"{count_name} must be at least 0, not {count}")
    if not isinstance(max_duration, (int, float, numpy.number)) or isinstance(max_duration, bool):
        raise TypeError(f"max_duration must be a number of seconds, not {describe_value(max_duration)}")
    if not max_duration >= 0:  # 0: one timed run
        raise ValueError(f"max_duration must be at least 0 seconds, not {max_duration}")
    kwargs = {} if kwargs is None else kwargs
    if devices is None:
        devices = (get_device(),)
    elif isinstance(devices, Device):
        devices = (devices,)
    else:
        try:
            devices = tuple(devices)
        except TypeError:
            raise TypeError(f"devices must be a sequence of gpukit.Device or None, not {describe_value(devices)}") \
                from None
        for index, device in enumerate(devices):
            if not isinstance(device, Device):
                raise TypeError(f"devices must be a sequence of gpukit.Device; devices[{index}] is "
                                f"{describe_value(device)}")
    if name is None:
        name = getattr(func, "__name__", None) or getattr(func, "name", None) or type(func).__name__
    stream = get_current_stream()
    for _ in range(n_warmup):
        func(*args, **kwargs)
    for device in devices:
        device.synchronize()

    starts = [Event(device=device) for device in devices]
    ends = [Event(device=device) for device in devices]
    cpu_times, gpu_times = [], [[] for _ in devices]
    began = time.perf_counter()
    for _ in range(n_repeat):
        for event in starts:
            event.record(stream)
        cpu_start = time.perf_counter()
        func(*args, **kwargs)
        cpu_end = time.perf_counter()
        for event in ends:
            event.record(stream)
        for device_times, start, end in zip(gpu_times, starts, ends):
            end.synchronize()
            device_times.append(start.elapsed_time(end) * 1e-3)
        cpu_times.append(cpu_end - cpu_start)
        if cpu_end - began >= max_duration:
            break
    return BenchmarkResult(name, cpu_times, gpu_times, devices)
