"""Numba-CUDA's names, so that course code written for ``from numba import cuda`` runs on gpukit by
changing the import to ``from gpukit import cuda``: ``@cuda.jit`` kernels and, inside them,
``cuda.grid``, ``cuda.threadIdx``, ``cuda.shared.array``, ``cuda.syncthreads``, ``cuda.atomic.add``;
on the host ``cuda.to_device``, ``cuda.device_array``, ``cuda.synchronize`` and the rest below, each
the gpukit function that does the same (device arrays are gpukit arrays).
"""

import numpy

from . import _backend, _core, _creation, _interop
from ._core import ndarray
from ._errors import describe_value
from ._jit import guvectorize, jit, reduce, vectorize
from ._jit.dispatcher import numba_stream
from ._jit.intrinsics import (
    activemask,
    all_sync,
    any_sync,
    atomic,
    ballot_sync,
    blockDim,
    blockIdx,
    brev,
    clz,
    const,
    eq_sync,
    ffs,
    fma,
    grid,
    gridDim,
    gridsize,
    laneid,
    lanemask_lt,
    local,
    popc,
    selp,
    shared,
    shfl_down_sync,
    shfl_sync,
    shfl_up_sync,
    shfl_xor_sync,
    syncthreads,
    syncthreads_and,
    syncthreads_count,
    syncthreads_or,
    syncwarp,
    threadfence,
    threadfence_block,
    threadIdx,
    warpsize,
)
from ._jit.numba_types import ScalarType, VoidType

# Numba's scalar types: dtypes for cuda.shared.array; called with types, vectorize signatures; sliced
# (float32[:]), the array types of guvectorize signatures, which void(...) makes.
boolean = ScalarType("bool")
int8, int16, int32, int64 = (ScalarType(f"int{bits}") for bits in (8, 16, 32, 64))
uint8, uint16, uint32, uint64 = (ScalarType(f"uint{bits}") for bits in (8, 16, 32, 64))
float16, float32, float64 = ScalarType("float16"), ScalarType("float32"), ScalarType("float64")
void = VoidType()

__all__ = [
    "boolean", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
    "uint64", "void", "guvectorize", "reduce", "vectorize",
    "as_cuda_array", "default_stream", "detect", "device_array", "device_array_like", "event", "get_current_device",
    "gpus", "is_available", "is_cuda_array", "pinned_array", "select_device", "stream", "synchronize", "to_device",
    "activemask", "all_sync", "any_sync", "ballot_sync", "brev", "clz", "eq_sync", "ffs", "fma", "lanemask_lt",
    "popc", "selp", "shfl_down_sync", "shfl_sync", "shfl_up_sync", "shfl_xor_sync",
    "atomic", "blockDim", "blockIdx", "const", "grid", "gridDim", "gridsize", "jit", "laneid", "local", "shared",
    "syncthreads", "syncthreads_and", "syncthreads_count", "syncthreads_or", "syncwarp", "threadfence",
    "threadfence_block", "threadIdx", "warpsize",
]


def to_device(obj, stream=0, copy=True, to=None):
    """A device copy of host data (Numba's ``cuda.to_device``); with ``to``, copies into that array."""
    if to is not None:
        to.set(obj, stream=numba_stream(stream))
        return to
    return _interop.asarray(obj)


def as_cuda_array(obj, sync=True):
    """A gpukit array sharing ``obj``'s device memory (Numba's ``cuda.as_cuda_array``): a gpukit array
    itself, or another library's through ``__cuda_array_interface__`` or DLPack; never a copy."""
    if isinstance(obj, ndarray):
        return obj
    shared = _interop._device_memory_of(obj)
    if shared is None:
        raise TypeError(f"as_cuda_array needs an array in device memory (one with __cuda_array_interface__ or a "
                        f"CUDA DLPack tensor), not {describe_value(obj)}: cuda.to_device copies host data")
    return shared


def is_cuda_array(obj):
    """Whether ``obj`` is an array in device memory that :func:`as_cuda_array` shares."""
    return _interop.is_device_array(obj)


def device_array(shape, dtype=numpy.float64, strides=None, order="C", stream=0):
    """An uninitialised device array (Numba's default dtype: float64)."""
    if strides is not None:
        raise NotImplementedError("device_array(strides=...) is not supported: give order='C' or 'F'")
    return _core.empty(shape, dtype, order)


def device_array_like(ary, stream=0):
    """An uninitialised device array of ``ary``'s shape and dtype."""
    return _creation.empty_like(ary)


def pinned_array(shape, dtype=numpy.float64, strides=None, order="C"):
    """A page-locked host (NumPy) array, for fast transfers."""
    if strides is not None or order != "C":
        raise NotImplementedError("pinned_array takes C order and no strides")
    return _creation.pinned_empty(shape, dtype)


def synchronize():
    """Waits for all work on the current device."""
    _backend.synchronize()


def stream():
    """A new stream (gpukit.Stream)."""
    return _core.Stream()


def default_stream():
    """The default stream."""
    return _core.Stream.null


def event(timing=True):
    """A new event (gpukit.Event)."""
    return _core.Event()


def select_device(device_id):
    """Makes device ``device_id`` of the selected backend current and returns it."""
    device = _backend.devices()[device_id]
    device.use()
    return device


def get_current_device():
    """The current device."""
    return _backend.get_device()


def is_available():
    """Whether kernels can run: on a GPU, or on the simulator when it is the selected backend."""
    return bool(_backend.devices())


def detect():
    """Prints the devices kernels can run on, as Numba's ``cuda.detect()``; True when there is one."""
    found = _backend.devices()
    print(f"Found {len(found)} device{'s' if len(found) != 1 else ''}")
    for device in found:
        print(f"id {device.id} {device.name!r} ({device.backend})")
    return bool(found)


class _Gpus:
    """``cuda.gpus``: the devices, indexable and iterable."""

    def __getitem__(self, index):
        return _backend.devices()[index]

    def __len__(self):
        return len(_backend.devices())

    def __iter__(self):
        return iter(_backend.devices())

    @property
    def current(self):
        return _backend.get_device()


gpus = _Gpus()
