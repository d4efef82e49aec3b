"""Arrays in and out: NumPy, DLPack and the CUDA Array Interface.

``asarray`` never shares host memory: a NumPy array (or anything NumPy reads) is copied to the
device, on either backend, so a program behaves the same on the simulator and on a GPU. Device
memory of other libraries is shared without a copy: objects with ``__cuda_array_interface__`` and
DLPack producers on a CUDA device (CuPy, PyTorch, Numba). :func:`from_dlpack` shares whatever the
current backend can address, which on the simulator includes host memory (``kDLCPU``).
"""

import numpy

from . import _core, _dtypes, _indexing
from ._backend import get_device
from ._ndarray import _host_c_order, _DLPACK_CPU, _DLPACK_CUDA, ndarray
from ._stream import get_current_stream


def asarray(a, dtype=None):
    """``a`` as a gpukit array: itself if it is one, a zero-copy view of another library's device
    memory, or a device copy of host data (NumPy arrays, lists, scalars, CPU DLPack tensors)."""
    if isinstance(a, ndarray):
        return a if dtype is None else a.astype(dtype, copy=False)
    device = get_device()
    if _dlpack_type(device) == _DLPACK_CUDA:
        if hasattr(a, "__cuda_array_interface__"):
            return _cast(_from_cuda_array_interface(a, device), dtype)
        if hasattr(a, "__dlpack_device__") and a.__dlpack_device__()[0] == _DLPACK_CUDA:
            return _cast(from_dlpack(a), dtype)
    elif hasattr(a, "__cuda_array_interface__"):
        raise TypeError(f"a {type(a).__module__}.{type(a).__name__} is in CUDA device memory, which the "
                        f"{device.backend} backend cannot read; copy it to the host first (or run on a CUDA device)")
    host = numpy.asarray(a, dtype=dtype)
    array = ndarray._allocate(host.shape, _dtypes.to_dtype(host.dtype), device)
    array.set(_host_c_order(host).astype(array.dtype, copy=False))
    return array


def array(obj, dtype=None, copy=True):
    """Like :func:`asarray`, but a copy unless ``copy=False``."""
    result = asarray(obj, dtype)
    # asarray made a fresh array from host data; anything else may share another array's memory.
    fresh = not isinstance(obj, ndarray) and not isinstance(result._owner, _core.ImportedMemory)
    return result.copy() if copy and not fresh else result


def _dlpack_type(device):
    """Where DLPack places ``device``'s memory: kDLCPU (host memory) or kDLCUDA."""
    return device.backend_info.capabilities.dlpack_device_type


def _cast(array, dtype):
    return array if dtype is None else array.astype(dtype, copy=False)


def asnumpy(a, stream=None, out=None):
    """A NumPy array of ``a``: a host copy of a gpukit array, ``numpy.asarray(a)`` of anything else."""
    if isinstance(a, ndarray):
        return a.get(stream=stream, out=out)
    if out is not None:
        out[...] = numpy.asarray(a)
        return out
    return numpy.asarray(a)


def _device_for_dlpack(dl_device):
    """The gpukit device that can address memory on DLPack device ``dl_device``, or BufferError."""
    kind, ordinal = dl_device
    device = get_device()
    if kind == _DLPACK_CUDA and _dlpack_type(device) == _DLPACK_CUDA:
        return _core.Device(ordinal)
    if kind == _DLPACK_CPU and _dlpack_type(device) == _DLPACK_CPU:
        return device
    backend = device.backend
    where = {_DLPACK_CPU: "host (kDLCPU)", _DLPACK_CUDA: "CUDA (kDLCUDA)"}.get(kind, f"DLPack device type {kind}")
    raise BufferError(f"gpukit on the {backend} backend cannot use {where} memory without a copy; "
                      "use gpukit.asarray, which copies host data to the device")


def from_dlpack(x):
    """A gpukit array sharing the memory of a DLPack producer (a PyTorch tensor, a CuPy array, ...).

    On a GPU the producer must be on a CUDA device; on the simulator, on the CPU (zero-copy: the
    simulator's device memory is host memory; note that check mode's memcheck only knows memory
    gpukit allocated). BufferError when the memory is somewhere gpukit cannot address."""
    if isinstance(x, ndarray):
        return x
    device = _device_for_dlpack(tuple(x.__dlpack_device__()))
    stream = None
    if _dlpack_type(device) == _DLPACK_CUDA:
        current = get_current_stream()
        stream = 1 if current.is_default else current.ptr
    try:
        capsule = x.__dlpack__(stream=stream, max_version=(1, 0))
    except TypeError:  # a producer from before DLPack 1.0 takes no max_version
        capsule = x.__dlpack__(stream=stream) if stream is not None else x.__dlpack__()
    memory = _core.ImportedMemory.from_dlpack(capsule, device)
    if memory.read_only:
        raise BufferError("the DLPack tensor is read-only, and gpukit arrays are writable; pass a writable one or a copy")
    dtype = _dtypes.from_dlpack(*memory.dtype)
    shape = tuple(memory.shape)
    if memory.strides is None:
        strides = _indexing.c_strides(shape, dtype.itemsize)
    else:
        strides = tuple(stride * dtype.itemsize for stride in memory.strides)
    return ndarray._view(memory, memory.address, shape, strides, dtype, device)


def _from_cuda_array_interface(obj, device):
    interface = obj.__cuda_array_interface__
    if interface.get("mask") is not None:
        raise TypeError("masked CUDA arrays are not supported")
    dtype = _dtypes.to_dtype(interface["typestr"])
    shape = tuple(interface["shape"])
    strides = interface.get("strides")
    strides = _indexing.c_strides(shape, dtype.itemsize) if strides is None else tuple(strides)
    if interface.get("stream") is not None:
        # The producer's work must be done before ours reads; its stream is foreign to us, and the
        # device's primary context is shared, so finishing the device's work covers it.
        device.synchronize()
    memory = _core.ImportedMemory(device, obj)
    return ndarray._view(memory, interface["data"][0], shape, strides, dtype, device)
