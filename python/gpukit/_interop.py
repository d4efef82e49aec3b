"""Arrays in and out: NumPy, DLPack and the CUDA Array Interface.

``asarray`` never shares host memory: a NumPy array (or anything NumPy reads) is copied to the
device, on either backend, so a program behaves the same on the simulator and on a GPU. Device
memory of other libraries is shared without a copy: objects with ``__cuda_array_interface__`` and
DLPack producers on a CUDA device (CuPy, PyTorch, Numba). :func:`from_dlpack` shares whatever the
current backend can address: on the simulator its device memory (NumPy views of gpukit arrays), and
any host memory (``kDLCPU``) when its kernels run in this process (``GPUKIT_SIM_ISOLATION=0``).
"""

import numpy

from . import _core
from ._backend import get_device
from ._core import ndarray
from ._errors import describe_value

_DLPACK_CUDA = 2  # DLPack's kDLCUDA: CUDA device memory


def _memory_is_cuda(device):
    return device.backend_info.capabilities.dlpack_device_type == _DLPACK_CUDA


def asarray(a, dtype=None, order=None, *, copy=None, device=None):
    """``a`` as a gpukit array: itself if it is one (converted to ``dtype`` or laid out in ``order``
    if asked: a copy then), a zero-copy view of another library's device memory, or a device copy of
    host data (NumPy arrays, lists, scalars, CPU DLPack tensors), converted to ``dtype`` on the device.

    ``order``: 'C', 'F', 'A' or 'K' (the default: as the data lies). ``copy``: True always copies,
    False refuses to (host data always needs one: ValueError), None copies when needed. ``device``: a
    gpukit.Device or a device number (the current one when None); an array on another device is copied there,
    peer to peer where the devices reach each other."""
    if isinstance(a, (list, tuple)) and _holds_device_arrays(a):
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested: a list of arrays is "
                             "always stacked into a new one")
        return _stacked(a, device).astype(dtype, copy=False) if dtype is not None else _stacked(a, device)
    shared = a if isinstance(a, ndarray) else _device_memory_of(a)
    if shared is None:
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested: host data is always copied "
                             "to the device (gpukit.from_dlpack shares memory the device can reach)")
        return _core.asarray_from_host(_host_array(a, dtype, "a"), dtype, order,
                                       get_device() if device is None else _core.checked_device(device))
    if device is not None and shared.device != (there := _core.checked_device(device)):
        if copy is False:
            raise ValueError(f"Unable to avoid copy while creating an array as requested: the array is on "
                             f"{shared.device}, not on {there}")
        # Peer to peer where the devices reach each other; the copy is new, so copy=True needs no second one.
        return _core.asarray_of_array(shared.to_device(there), dtype, order)
    if copy:
        return shared.astype(shared.dtype if dtype is None else dtype, order="K" if order is None else order)
    result = _core.asarray_of_array(shared, dtype, order)
    if result.data_ptr == shared.data_ptr and result.dtype == shared.dtype and result.strides == shared.strides:
        return shared  # nothing to change: the very object, as NumPy's asarray
    if copy is False:
        raise ValueError("Unable to avoid copy while creating an array as requested: the dtype or order asked for "
                         "needs a converted copy")
    return result


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """:func:`asarray` under NumPy's name for keeping subclasses: gpukit has one array type, so the
    two are the same (``like`` is NumPy's dispatch argument, accepted and unused)."""
    return asarray(a, dtype, order, copy=copy, device=device)


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0):
    """Like :func:`asarray`, but a copy unless ``copy`` is False or None (NumPy 2's meanings); ``ndmin``
    adds leading dimensions of extent 1 (a view)."""
    result = asarray(obj, dtype, order, copy=True if copy and isinstance(obj, ndarray) else copy)
    if result.ndim < ndmin:
        result = result.reshape((1,) * (ndmin - result.ndim) + result.shape)
    return result


def ascontiguousarray(a, dtype=None):
    """``a`` as a C-contiguous gpukit array of at least one dimension: itself when it already is one."""
    if isinstance(a, ndarray):
        return _core.ascontiguousarray(a, dtype)
    result = asarray(a, dtype, "C")
    return result.reshape(1) if result.ndim == 0 else result


def asfortranarray(a, dtype=None):
    """``a`` as an F-contiguous gpukit array of at least one dimension: itself when it already is one."""
    if isinstance(a, ndarray):
        return _core.asfortranarray(a, dtype)
    result = asarray(a, dtype, "F")
    return result.reshape(1) if result.ndim == 0 else result


def _holds_device_arrays(values):
    return any(isinstance(value, ndarray) or (isinstance(value, (list, tuple)) and _holds_device_arrays(value))
               for value in values)


def _stacked(values, device):
    """A (nested) list holding gpukit arrays, and numbers, stacked on the device as NumPy stacks one of
    its own arrays on the host: each item becomes an array (numbers in NumPy's dtypes), then one stack."""
    if not values:
        raise ValueError("a list holding gpukit arrays cannot have an empty list in it")
    items = [_stacked(value, device) if isinstance(value, (list, tuple)) else asarray(value, device=device)
             for value in values]
    return _core.stack(items)


def _host_array(values, dtype, name):
    """``values`` as a NumPy array of a dtype gpukit holds (NumPy converts others to ``dtype`` first),
    refusing what is not numbers (None, objects, strings) as a TypeError."""
    if values is None:
        raise TypeError(f"{name} must be an array, a (nested) list of numbers or a number, not None")
    host = numpy.asarray(values)
    if dtype is not None and host.dtype.kind == "f" and not isinstance(values, numpy.ndarray) \
            and _kind_of(dtype) in ("i", "u"):
        # Python integers beyond int64 make NumPy infer float64, which rounds them: converted to the
        # integer dtype asked for from the Python integers themselves, exactly, as NumPy does.
        host = numpy.asarray(values, dtype=dtype)
    # ml_dtypes' bfloat16 is a kind 'V' dtype to NumPy, but numbers: the core takes it.
    if host.dtype.kind in "OUSV" and host.dtype.name != "bfloat16":
        if dtype is None or host.dtype.kind in "US":
            raise TypeError(f"{name} must be an array, a (nested) list of numbers or a number, not "
                            f"{describe_value(values)}, which NumPy makes a {host.dtype} array of")
        host = numpy.asarray(values, dtype=dtype)
    elif host.dtype.name not in _HELD:
        wide = numpy.complex128 if host.dtype.kind == "c" else numpy.float64  # float128 and friends: NumPy converts
        host = host.astype(wide if dtype is None else dtype)
    if not host.dtype.isnative:
        host = host.astype(host.dtype.newbyteorder("="))
    return host


_HELD = frozenset(_core.dtype_names())


def _kind_of(dtype):
    """NumPy's kind letter of ``dtype``, or '' where NumPy does not know it (the core then judges)."""
    try:
        return numpy.dtype(dtype).kind
    except TypeError:
        return ""


def is_device_array(obj):
    """Whether ``obj`` is an array in device memory: a gpukit array, or another library's with
    ``__cuda_array_interface__``."""
    return isinstance(obj, ndarray) or hasattr(obj, "__cuda_array_interface__")


def _device_memory_of(obj):
    """A view of another library's device memory that the current device can address; None for host data."""
    device = get_device()
    if _memory_is_cuda(device):
        if hasattr(obj, "__cuda_array_interface__"):
            return _core.from_cuda_array_interface(obj, device)
        if hasattr(obj, "__dlpack_device__") and obj.__dlpack_device__()[0] == _DLPACK_CUDA:
            return from_dlpack(obj)
    elif hasattr(obj, "__cuda_array_interface__"):
        raise TypeError(f"a {type(obj).__module__}.{type(obj).__name__} is in CUDA device memory, which the "
                        f"{device.backend} backend cannot read; copy it to the host first (or run on a CUDA device)")
    return None


def asnumpy(a, stream=None, out=None):
    """A NumPy array of ``a``: a host copy of a gpukit array, ``numpy.asarray(a)`` of anything else."""
    if isinstance(a, ndarray):
        return a.get(stream=stream, out=out)
    if out is not None:
        out[...] = numpy.asarray(a)
        return out
    return numpy.asarray(a)


def from_dlpack(x, /, *, device=None, copy=None):
    """A gpukit array sharing the memory of a DLPack producer (a PyTorch tensor, a CuPy array, ...).

    On a GPU the producer must be on a CUDA device; on the simulator, on the CPU, in the simulator's
    device memory (NumPy views of gpukit arrays), or anywhere with ``GPUKIT_SIM_ISOLATION=0`` (kernels
    in this process; check mode's memcheck only knows memory gpukit allocated). BufferError when the
    memory is somewhere gpukit's kernels cannot reach; gpukit.asarray copies it instead.

    ``device`` and ``copy`` as the Array API standard's: the result on ``device`` (a copy when the memory
    is elsewhere), ``copy=True`` a copy always, ``copy=False`` never (BufferError when one is needed)."""
    if copy is not None or device is not None:
        shared = from_dlpack(x) if copy is not True else None
        if shared is not None and (device is None or shared.device == _core.checked_device(device)):
            return shared
        if copy is False:
            raise BufferError(f"from_dlpack: the memory is not on {device}, and copy=False forbids a copy")
        return asarray(shared if shared is not None else x, copy=True, device=device)
    if isinstance(x, ndarray):
        return x
    if not (hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__")):
        raise TypeError("x must be a DLPack producer, an object with __dlpack__ and __dlpack_device__ (a PyTorch "
                        f"tensor, a CuPy or NumPy array, ...), not {describe_value(x)}; gpukit.asarray copies other "
                        "host data")
    device = _core.dlpack_import_device(*x.__dlpack_device__())
    # The producer orders its work before our current stream (1: CUDA's legacy default stream).
    stream = _core.exchange_stream(device) if _memory_is_cuda(device) else None
    try:
        capsule = x.__dlpack__(stream=stream, max_version=(1, 0))
    except TypeError:  # a producer from before DLPack 1.0 takes no max_version
        capsule = x.__dlpack__(stream=stream) if stream is not None else x.__dlpack__()
    return _core.from_dlpack_capsule(capsule, device)
