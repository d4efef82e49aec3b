"""``gpukit.pycuda.driver``: PyCUDA's driver module (memory, copies, In/Out/InOut, streams, events)."""

import numpy

from .. import _backend, _core
from .._errors import describe_value
from .._interop import asarray


def init(flags=0):
    """PyCUDA's cuInit: nothing to do, gpukit initialises the driver on first use."""


class Context:
    """PyCUDA's context, for the calls programs make on it."""

    def __init__(self, device):
        self.device = device

    def synchronize(self):
        self.device.synchronize()

    @staticmethod
    def get_device():
        return _backend.get_device()

    def pop(self):
        """Nothing to pop: gpukit keeps no context stack."""

    def push(self):
        """Nothing to push: gpukit keeps no context stack."""


def Device(number):  # noqa: N802 (PyCUDA's name)
    """Device ``number`` of the selected backend."""
    return _backend.devices()[number]


class DeviceAllocation:
    """Device memory from :func:`mem_alloc`: passed to kernels as a pointer; ``int()`` is its address."""

    def __init__(self, nbytes):
        if not isinstance(nbytes, (int, numpy.integer)) or isinstance(nbytes, bool) or nbytes < 0:
            raise ValueError(f"mem_alloc takes a byte count (an int >= 0), not {nbytes!r}")
        self._bytes = _core.empty(int(nbytes), numpy.uint8)

    def free(self):
        self._bytes = None

    def __int__(self):
        return self._array().data_ptr

    __index__ = __int__

    def _array(self):
        if self._bytes is None:
            raise ValueError("this device allocation was freed")
        return self._bytes

    def first_bytes(self, count):
        """The allocation's first ``count`` bytes, as a gpukit uint8 array view."""
        array = self._array()
        if array.size < count:
            raise ValueError(f"{count} bytes do not fit an allocation of {array.size}")
        return array[:count]


def mem_alloc(nbytes):
    """Allocates ``nbytes`` of device memory."""
    return DeviceAllocation(nbytes)


def to_device(host):
    """A new allocation holding a copy of the NumPy array ``host``."""
    allocation = mem_alloc(host.nbytes)
    memcpy_htod(allocation, host)
    return allocation


def memcpy_htod(dest, src):
    """Copies the NumPy array ``src`` into device memory ``dest`` (an allocation or a gpukit array)."""
    src = numpy.ascontiguousarray(src)
    if isinstance(dest, DeviceAllocation):
        dest.first_bytes(src.nbytes).set(src.reshape(-1).view(numpy.uint8))
    else:
        dest.set(src)


def memcpy_dtoh(dest, src):
    """Copies device memory ``src`` into the NumPy array ``dest`` (its size's worth)."""
    if not isinstance(dest, numpy.ndarray) or not dest.flags.c_contiguous:
        raise TypeError(f"memcpy_dtoh copies into a C-contiguous NumPy array, not {describe_value(dest)}")
    if isinstance(src, DeviceAllocation):
        src.first_bytes(dest.nbytes).get(out=dest.reshape(-1).view(numpy.uint8))
    else:
        src.get(out=dest)


class _Argument:
    def __init__(self, array):
        if not isinstance(array, numpy.ndarray):
            raise TypeError(f"{type(self).__name__} wraps a NumPy array, not {describe_value(array)}")
        self.array = array


class In(_Argument):
    """A host array copied to the device before the launch."""


class Out(_Argument):
    """A host array the kernel writes, copied back after the launch."""


class InOut(_Argument):
    """A host array copied to the device before the launch and back after it."""


def prepare_arguments(args):
    """The launch arguments for ``args`` and the host arrays to copy back after the launch."""
    launch_args, copy_back = [], []
    for arg in args:
        if isinstance(arg, _Argument):
            device = asarray(numpy.ascontiguousarray(arg.array)) if not isinstance(arg, Out) else \
                _core.empty(arg.array.shape, arg.array.dtype)
            if not isinstance(arg, In):
                copy_back.append((arg.array, device))
            launch_args.append(device)
        elif isinstance(arg, DeviceAllocation):
            launch_args.append(_core.DevicePointer(int(arg)))  # typed by the kernel's parameter, unchecked
        elif isinstance(arg, numpy.ndarray):
            raise TypeError("a NumPy array passed to a kernel must say its direction: drv.In(a), drv.Out(a) or "
                            "drv.InOut(a)")
        else:
            launch_args.append(arg)
    return launch_args, copy_back


Stream = _core.Stream


class Event(_core.Event):
    """PyCUDA's event: ``record()``, ``synchronize()``, ``time_since(start)`` in milliseconds."""

    def time_since(self, start):
        return _core.get_elapsed_time(start, self)

    def time_till(self, end):
        return _core.get_elapsed_time(self, end)


def mem_get_info():
    """(free, total) bytes of the current device's memory."""
    return _backend.get_device().mem_info


def pagelocked_empty(shape, dtype):
    """A page-locked NumPy array, for fast transfers."""
    from .._creation import pinned_empty
    return pinned_empty(shape, dtype)
