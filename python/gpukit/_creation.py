"""Making arrays: empty, zeros, ones, full, arange, the *_like forms, and pinned host arrays."""

import numbers

import numpy

from . import _core
from ._backend import get_device
from ._core import ndarray
from ._errors import describe_value


def empty(shape, dtype=float):
    """A new array on the current device; its contents are whatever the memory held."""
    return ndarray(shape, dtype)


def zeros(shape, dtype=float):
    """A new array of zeros on the current device."""
    array = ndarray(shape, dtype)
    array.fill(0)
    return array


def ones(shape, dtype=float):
    """A new array of ones on the current device."""
    array = ndarray(shape, dtype)
    array.fill(1)
    return array


def full(shape, fill_value, dtype=None):
    """A new array with every element ``fill_value``; dtype as NumPy would choose for it when None."""
    if not isinstance(fill_value, (numbers.Number, numpy.generic)) and not (
            isinstance(fill_value, numpy.ndarray) and fill_value.ndim == 0):
        raise TypeError(f"fill_value must be a number (an int, float, complex, bool or NumPy scalar), not "
                        f"{describe_value(fill_value)}")
    array = ndarray(shape, numpy.asarray(fill_value).dtype if dtype is None else dtype)
    array.fill(fill_value)
    return array


def empty_like(a, dtype=None):
    """A new array of ``a``'s shape (and dtype, unless given) on ``a``'s device (the current one for host data)."""
    if isinstance(a, ndarray):
        device = a.device
    else:
        if a is None:
            raise TypeError("a must be an array (a gpukit or NumPy array, or anything NumPy makes one of), not None")
        if not (hasattr(a, "shape") and hasattr(a, "dtype")):
            a = numpy.asarray(a)
        device = get_device()
    return _core.empty(a.shape, a.dtype if dtype is None else dtype, device)


def zeros_like(a, dtype=None):
    """A new array of zeros with ``a``'s shape (and dtype, unless given) on ``a``'s device."""
    array = empty_like(a, dtype)
    array.fill(0)
    return array


def ones_like(a, dtype=None):
    """A new array of ones with ``a``'s shape (and dtype, unless given) on ``a``'s device."""
    array = empty_like(a, dtype)
    array.fill(1)
    return array


def full_like(a, fill_value, dtype=None):
    """A new array of ``fill_value`` with ``a``'s shape (and dtype, unless given) on ``a``'s device."""
    array = empty_like(a, dtype)
    array.fill(fill_value)
    return array


def arange(start, stop=None, step=1, dtype=None):
    """Evenly spaced values in [start, stop), as ``numpy.arange`` makes them, on the current device."""
    for name, value in (("start", start), ("stop", stop), ("step", step)):
        if value is None and name == "stop":
            continue
        if not isinstance(value, numbers.Real) or isinstance(value, (bool, numpy.bool_)):
            raise TypeError(f"arange: {name} must be a real number (an int or a float), not {describe_value(value)}")
    if step == 0:
        raise ValueError("arange: step must not be zero")
    try:
        host = numpy.arange(start, stop, step, dtype=dtype)
    except ValueError as error:  # NumPy's "Maximum allowed size exceeded"
        raise ValueError(f"arange({start}, {stop}, {step}) would have more elements than an array can hold") \
            from error
    return _core.from_host(host, get_device())


class _PinnedHostMemory:
    """Presents a PinnedMemory block to NumPy, which keeps this object (and so the block) as the array's base."""

    __slots__ = ("memory", "__array_interface__")

    def __init__(self, size_bytes, device):
        self.memory = _core.PinnedMemory(device, size_bytes)
        self.__array_interface__ = {
            "shape": (size_bytes,),
            "typestr": "|u1",
            "data": (self.memory.address, False),
            "version": 3,
        }


def pinned_empty(shape, dtype=float):
    """A NumPy array in page-locked host memory, which asynchronous copies need to overlap with work.

    The memory is freed when the last NumPy array using it goes (it is the arrays' base)."""
    shape, size_bytes = _core.checked_shape(shape, dtype)  # as gpukit.empty refuses them
    raw = numpy.asarray(_PinnedHostMemory(size_bytes, get_device()))
    return raw.view(numpy.dtype(dtype)).reshape(shape)
