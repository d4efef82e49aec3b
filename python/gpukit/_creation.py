"""Making arrays: the core's creation functions (empty, zeros, ones, full, arange, linspace, eye, ...)
with the *_like forms taking host prototypes too, and pinned host arrays.

Everything that writes device memory is the C++ core's (gpukit/creation.hpp): values are written on
the device, nothing goes through the host.
"""

import numpy

from . import _core
from ._backend import get_device
from ._core import arange, empty, eye, full, identity, linspace, ndarray, ones, zeros  # noqa: F401 (re-exported)


def _for_host_prototype(a, dtype, order, shape):
    """(shape, dtype, order) of a new array like host data ``a``: its layout for order K or A."""
    if a is None:
        raise TypeError("a must be an array (a gpukit or NumPy array, or anything NumPy makes one of), not None")
    if not (hasattr(a, "shape") and hasattr(a, "dtype") and hasattr(a, "flags")):
        a = numpy.asarray(a)
    if order in ("K", "A", "k", "a"):
        order = "F" if a.flags.f_contiguous and not a.flags.c_contiguous and shape is None else "C"
    return a.shape if shape is None else shape, a.dtype if dtype is None else dtype, order


def empty_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None):
    """A new array of ``a``'s shape and dtype (unless given) and, for order 'K', layout, on ``a``'s device
    (the current one for host data) or ``device``; its contents are whatever the memory held."""
    if isinstance(a, ndarray):
        return _core.empty_like(a, dtype, order, subok, shape, device=device)
    return _core.empty(*_for_host_prototype(a, dtype, order, shape), get_device() if device is None else device)


def zeros_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None):
    """As empty_like, filled with zeros (a memset)."""
    if isinstance(a, ndarray):
        return _core.zeros_like(a, dtype, order, subok, shape, device=device)
    return _core.zeros(*_for_host_prototype(a, dtype, order, shape), device=device)


def ones_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None):
    """As empty_like, filled with ones."""
    if isinstance(a, ndarray):
        return _core.ones_like(a, dtype, order, subok, shape, device=device)
    return _core.ones(*_for_host_prototype(a, dtype, order, shape), device=device)


def full_like(a, fill_value, dtype=None, order="K", subok=None, shape=None, *, device=None):
    """As empty_like, with every element ``fill_value`` (a number, or an array broadcast to the shape)."""
    if isinstance(a, ndarray):
        return _core.full_like(a, fill_value, dtype, order, subok, shape, device=device)
    shape, dtype, order = _for_host_prototype(a, dtype, order, shape)
    return _core.full(shape, fill_value, dtype, order, device=device)


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


def unpickled_empty(shape, dtype):
    """An empty array pickled elsewhere (ndarray.__reduce__: Dask's metas), made on the current device."""
    return _core.empty(shape, dtype)
