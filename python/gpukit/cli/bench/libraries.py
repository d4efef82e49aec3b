"""The libraries ``gpukit bench`` runs each workload with, behind one face: their array module,
how host data goes to them and comes back, how they wait for their work and how their time is
taken (CUDA events on a device, ``perf_counter`` on the host). CuPy and PyTorch take part when
they import and see a GPU; otherwise they are skipped with the reason."""

import importlib
import os
import time

import numpy

from ... import _backend, _core


class Library:
    """One library's face. ``xp`` is its array module; ``device`` says whether its arrays live on
    a device (timed by events) or on the host (timed by the wall clock)."""

    name = ""
    device = True

    def __init__(self, xp):
        self.xp = xp

    def to_device(self, host):
        raise NotImplementedError

    def to_host(self, array):
        raise NotImplementedError

    def synchronize(self):
        raise NotImplementedError

    def timer(self):
        """A fresh (start, stop) pair: ``start()``, the run, ``stop()`` returns the seconds between."""
        raise NotImplementedError

    def version(self):
        return getattr(self.xp, "__version__", "")


class _EventTimer:
    def __init__(self, make_event, elapsed_ms):
        self.begin, self.end = make_event(), make_event()
        self.elapsed_ms = elapsed_ms

    def start(self):
        self.begin.record()

    def stop(self):
        self.end.record()
        self.end.synchronize()
        return self.elapsed_ms(self.begin, self.end) / 1e3


class _HostTimer:
    def __init__(self, synchronize):
        self.synchronize = synchronize
        self.began = 0.0

    def start(self):
        self.began = time.perf_counter()

    def stop(self):
        self.synchronize()
        return time.perf_counter() - self.began


class Gpukit(Library):
    name = "gpukit"

    def __init__(self):
        import gpukit

        super().__init__(gpukit)
        self.simulated = _backend.get_device().backend_info.capabilities.simulated

    def to_device(self, host):
        return self.xp.asarray(host)

    def to_host(self, array):
        return array.get() if hasattr(array, "get") else numpy.asarray(array)

    def synchronize(self):
        self.xp.synchronize()

    def timer(self):
        if self.simulated:  # the simulator's events time its work on the host's clock anyway
            return _HostTimer(self.synchronize)
        return _EventTimer(_core.Event, lambda begin, end: begin.elapsed_time(end))

    def version(self):
        return f"{self.xp.__version__} ({_backend.get_device().backend})"


class Numpy(Library):
    name = "numpy"
    device = False

    def __init__(self):
        super().__init__(numpy)

    def to_device(self, host):
        return host

    def to_host(self, array):
        return numpy.asarray(array)

    def synchronize(self):
        pass

    def timer(self):
        return _HostTimer(self.synchronize)


class Cupy(Library):
    name = "cupy"

    def __init__(self, cupy):
        super().__init__(cupy)

    def to_device(self, host):
        return self.xp.asarray(host)

    def to_host(self, array):
        return self.xp.asnumpy(array)

    def synchronize(self):
        self.xp.cuda.Device().synchronize()

    def timer(self):
        return _EventTimer(self.xp.cuda.Event, self.xp.cuda.get_elapsed_time)


class Torch(Library):
    name = "torch"

    def __init__(self, torch):
        super().__init__(torch)

    def to_device(self, host):
        return self.xp.from_numpy(numpy.ascontiguousarray(host)).cuda()

    def to_host(self, array):
        return array.cpu().numpy()

    def synchronize(self):
        self.xp.cuda.synchronize()

    def timer(self):
        return _EventTimer(lambda: self.xp.cuda.Event(enable_timing=True),
                           lambda begin, end: begin.elapsed_time(end))


KNOWN = ("gpukit", "numpy", "cupy", "torch")


def _import(name):
    """The module, or the reason it cannot take part."""
    try:
        return importlib.import_module(name), None
    except Exception as error:  # an import that fails for any reason (missing, broken CUDA) is a skip
        return None, f"not importable ({type(error).__name__}: {error})".splitlines()[0]


def load(names, simulated):
    """The libraries of ``names`` that can take part, and {name: reason} for those skipped. On the
    simulator only gpukit and NumPy run (CuPy and PyTorch would time a GPU against a simulation)."""
    libraries, skipped = [], {}
    for name in names:
        if name == "gpukit":
            libraries.append(Gpukit())
        elif name == "numpy":
            libraries.append(Numpy())
        elif simulated:
            skipped[name] = "the simulator's figures are not compared with a GPU library's"
        elif name == "cupy":
            cupy, reason = _import("cupy")
            if cupy is not None:
                try:
                    cupy.cuda.runtime.getDeviceCount()
                except Exception as error:
                    cupy, reason = None, f"sees no GPU ({type(error).__name__})"
            if cupy is None:
                skipped[name] = reason
            else:
                libraries.append(Cupy(cupy))
        elif name == "torch":
            torch, reason = _import("torch")
            if torch is not None and not torch.cuda.is_available():
                torch, reason = None, "sees no GPU (torch.cuda.is_available() is False)"
            if torch is None:
                skipped[name] = reason
            else:
                libraries.append(Torch(torch))
    return libraries, skipped


def numpy_threads():
    """How many threads NumPy's BLAS may use (the environment's limit, else the CPU count)."""
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        if os.environ.get(variable, "").isdigit():
            return int(os.environ[variable])
    return os.cpu_count() or 1
