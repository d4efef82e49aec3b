"""gpukit.ndarray: an n-dimensional array in device memory.

An array is a view: an owner that keeps the memory alive (a gpukit allocation, a module's global,
or another library's memory), the address of its first element, a shape, byte strides and a dtype.
Slicing makes new views of the same memory; nothing is copied until ``.get()`` or ``.copy()``.

Interoperability, decided per device:

* On a CUDA device the array exposes ``__cuda_array_interface__`` (version 3, with the current
  stream) and ``__dlpack__`` with ``kDLCUDA``: CuPy, PyTorch and Numba take it without a copy.
* On the simulator, device memory is host memory, so ``__dlpack_device__`` is ``kDLCPU`` and
  ``numpy.from_dlpack(array)`` is a zero-copy NumPy view. ``__cuda_array_interface__`` is absent
  there (no CUDA library could read the pointer), and so is ``__array_interface__``: NumPy's
  implicit conversion (``numpy.asarray(array)``) raises on both backends, so code that runs on the
  simulator runs unchanged on a GPU.
"""

import math
import operator
from collections import namedtuple

import numpy

from . import _core, _dtypes, _indexing
from ._backend import get_device
from ._stream import _native_stream, get_current_stream

_DLPACK_CPU = 1
_DLPACK_CUDA = 2

Flags = namedtuple("Flags", ["c_contiguous", "owndata"])


def _to_shape(shape):
    if hasattr(shape, "__index__"):  # one int (Python or NumPy) for a 1-D shape
        shape = (operator.index(shape),)
    shape = tuple(operator.index(extent) for extent in shape)
    if any(extent < 0 for extent in shape):
        raise ValueError(f"negative dimensions are not allowed: {shape}")
    return shape


def _host_c_order(host):
    """``host`` in C order, 0-d arrays staying 0-d (numpy.ascontiguousarray makes them 1-d)."""
    return host if host.flags.c_contiguous else host.copy(order="C")


class ndarray:
    """An array in device memory (a GPU's, or the simulator's).

    ``ndarray(shape, dtype=float, memptr=None, strides=None)`` allocates on the current device, or,
    given ``memptr`` (another gpukit array, e.g. from :meth:`RawModule.get_global`), views that
    array's memory with the new shape and dtype, as ``cupy.ndarray(shape, dtype, memptr)`` does.
    Create arrays with :func:`gpukit.empty`, :func:`gpukit.zeros`, :func:`gpukit.asarray`, ...
    """

    __slots__ = ("_owner", "_ptr", "_shape", "_strides", "_dtype", "_device", "__weakref__")
    # NumPy defers binary operators to us rather than treating an ndarray as an object scalar.
    __array_priority__ = 100

    def __init__(self, shape, dtype=float, memptr=None, strides=None):
        shape = _to_shape(shape)
        dtype = _dtypes.to_dtype(dtype)
        nbytes = math.prod(shape) * dtype.itemsize
        strides = _indexing.c_strides(shape, dtype.itemsize) if strides is None else tuple(strides)
        if len(strides) != len(shape):
            raise ValueError(f"strides {strides} do not match shape {shape}")
        if memptr is None:
            if not _indexing.is_c_contiguous(shape, strides, dtype.itemsize):
                raise ValueError("a new allocation is C-contiguous; give strides only with memptr")
            owner = _core.DeviceMemory(get_device(), nbytes)
            self._init_view(owner, owner.address, shape, strides, dtype, owner.device)
            return
        if not isinstance(memptr, ndarray):
            raise TypeError(f"memptr must be a gpukit.ndarray (e.g. from RawModule.get_global), not {type(memptr).__name__}")
        low, high = _indexing.byte_extent(shape, strides, dtype.itemsize)
        if not memptr.flags.c_contiguous or low < 0 or high > memptr.nbytes:
            raise ValueError(f"a {shape} {dtype} view with strides {strides} needs bytes [{low}, {high}) but memptr "
                             f"is {'not contiguous' if not memptr.flags.c_contiguous else f'{memptr.nbytes} bytes'}")
        self._init_view(memptr._owner, memptr._ptr, shape, strides, dtype, memptr._device)

    def _init_view(self, owner, ptr, shape, strides, dtype, device):
        self._owner = owner
        self._ptr = ptr
        self._shape = shape
        self._strides = strides
        self._dtype = dtype
        self._device = device

    @classmethod
    def _allocate(cls, shape, dtype, device):
        """A new C-contiguous array on ``device``."""
        owner = _core.DeviceMemory(device, math.prod(shape) * dtype.itemsize)
        return cls._view(owner, owner.address, shape, _indexing.c_strides(shape, dtype.itemsize), dtype, device)

    @classmethod
    def _view(cls, owner, ptr, shape, strides, dtype, device):
        array = cls.__new__(cls)
        array._init_view(owner, ptr, tuple(shape), tuple(strides), dtype, device)
        return array

    # ---- what it is

    @property
    def dtype(self):
        """The element type (a numpy.dtype)."""
        return self._dtype

    @property
    def shape(self):
        """The extent of each dimension."""
        return self._shape

    @property
    def strides(self):
        """Bytes from one element to the next along each dimension (negative for reversed views)."""
        return self._strides

    @property
    def ndim(self):
        """The number of dimensions."""
        return len(self._shape)

    @property
    def size(self):
        """The number of elements."""
        return math.prod(self._shape)

    @property
    def itemsize(self):
        """Bytes per element."""
        return self._dtype.itemsize

    @property
    def nbytes(self):
        """Bytes the elements take (``size * itemsize``), gaps between strided elements not counted."""
        return self.size * self._dtype.itemsize

    @property
    def device(self):
        """The gpukit.Device whose memory holds the array."""
        return self._device

    @property
    def data_ptr(self):
        """The device address of the first element, as an int."""
        return self._ptr

    @property
    def flags(self):
        """``c_contiguous``: elements in row-major order without gaps; ``owndata``: not a view of another array's memory."""
        owns = isinstance(self._owner, _core.DeviceMemory) and self._owner.address == self._ptr and \
            self._owner.size_bytes == self.nbytes
        return Flags(_indexing.is_c_contiguous(self._shape, self._strides, self.itemsize), owns)

    def __len__(self):
        if not self._shape:
            raise TypeError("len() of a 0-d array")
        return self._shape[0]

    # ---- to and from the host

    def get(self, stream=None, out=None):
        """A NumPy copy of the array, in row-major order whatever the view's strides.

        ``out``: a NumPy array of the same shape and dtype to copy into. Returns once the data is
        on the host (the copy runs on ``stream``, default the current stream)."""
        native = _native_stream(stream)
        if out is None:
            out = numpy.empty(self._shape, self._dtype)
        elif not isinstance(out, numpy.ndarray) or out.shape != self._shape or out.dtype != self._dtype:
            raise ValueError(f"out must be a NumPy array of shape {self._shape} and dtype {self._dtype}")
        if self.size == 0:
            return out
        if self.flags.c_contiguous and out.flags.c_contiguous:
            _core.copy_to_host(self._device, out, self._ptr, native)
            self._wait(native)
            return out
        # A strided view: bring the bytes it spans, then let NumPy pick the elements out.
        low, high = _indexing.byte_extent(self._shape, self._strides, self.itemsize)
        span = numpy.empty(high - low, numpy.uint8)
        _core.copy_to_host(self._device, span, self._ptr + low, native)
        self._wait(native)
        out[...] = numpy.ndarray(self._shape, self._dtype, buffer=span, offset=-low, strides=self._strides)
        return out

    def set(self, arr, stream=None):
        """Copies host data (a NumPy array or anything NumPy can read) of the same shape and dtype into the array.

        For a strided view the bytes between its elements are read and written back unchanged, so
        no other stream may write them meanwhile."""
        host = numpy.asarray(arr)
        if host.shape != self._shape:
            raise ValueError(f"cannot set an array of shape {self._shape} from one of shape {host.shape}")
        if host.dtype != self._dtype:
            raise ValueError(f"cannot set a {self._dtype} array from {host.dtype} data; convert it first "
                             f"(numpy.asarray(data, dtype='{self._dtype}'))")
        self._write_host(_host_c_order(host), _native_stream(stream))

    def _write_host(self, host, native):
        if self.size == 0:
            return
        if self.flags.c_contiguous:
            _core.copy_to_device(self._device, self._ptr, host, native)
            self._wait(native)
            return
        low, high = _indexing.byte_extent(self._shape, self._strides, self.itemsize)
        span = numpy.empty(high - low, numpy.uint8)
        _core.copy_to_host(self._device, span, self._ptr + low, native)
        self._wait(native)
        numpy.ndarray(self._shape, self._dtype, buffer=span, offset=-low, strides=self._strides)[...] = host
        _core.copy_to_device(self._device, self._ptr + low, span, native)
        self._wait(native)

    @staticmethod
    def _wait(native):
        # Host buffers handed to an asynchronous copy must outlive it: finish before returning.
        if native is not None:
            native.synchronize()

    def tolist(self):
        """The elements as (nested) Python lists, through a host copy."""
        return self.get().tolist()

    def item(self):
        """The one element of a size-1 array, as a Python scalar."""
        if self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return self.get().item()

    def __array__(self, dtype=None, copy=None):
        raise TypeError("Implicit conversion of a gpukit array to a NumPy array is not allowed: use .get() or "
                        "gpukit.asnumpy(a) to copy it to the host (or numpy.from_dlpack(a) on the simulator)")

    # ---- on the device

    def copy(self):
        """A new C-contiguous array with the same elements."""
        result = ndarray._allocate(self._shape, self._dtype, self._device)
        if self.size == 0:
            return result
        if self.flags.c_contiguous:
            _core.copy_on_device(self._device, result._ptr, self._ptr, self.nbytes, _native_stream(None))
        else:
            result.set(self.get())  # a strided gather needs a kernel; the host does it for now
        return result

    def astype(self, dtype, copy=True):
        """The elements converted to ``dtype`` (through a host copy until elementwise kernels arrive)."""
        dtype = _dtypes.to_dtype(dtype)
        if dtype == self._dtype:
            return self.copy() if copy else self
        result = ndarray._allocate(self._shape, dtype, self._device)
        result.set(self.get().astype(dtype))
        return result

    def fill(self, value):
        """Sets every element to ``value`` (converted to the array's dtype as NumPy converts it)."""
        element = numpy.array(value, dtype=self._dtype)
        pattern = element.tobytes()
        if self.size and self.flags.c_contiguous and pattern == pattern[:1] * len(pattern):
            _core.memset(self._device, self._ptr, self.nbytes, pattern[0], _native_stream(None))
            return
        self._write_host(_host_c_order(numpy.broadcast_to(element, self._shape)), _native_stream(None))

    # ---- views

    def __getitem__(self, key):
        offset, shape, strides = _indexing.select(self._shape, self._strides, key)
        return ndarray._view(self._owner, self._ptr + offset, shape, strides, self._dtype, self._device)

    def __setitem__(self, key, value):
        target = self[key]
        if isinstance(value, ndarray):
            if value._shape == target._shape and value._dtype == target._dtype and value._device == target._device \
                    and target.flags.c_contiguous and value.flags.c_contiguous:
                if target.size:
                    _core.copy_on_device(target._device, target._ptr, value._ptr, target.nbytes, _native_stream(None))
                return
            value = value.get()
        host = numpy.broadcast_to(numpy.asarray(value).astype(target._dtype, copy=False), target._shape)
        target._write_host(_host_c_order(host), _native_stream(None))

    def reshape(self, *shape):
        """The same elements in a new shape (one extent may be -1); a view, so the array must be C-contiguous."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        shape = tuple(operator.index(extent) for extent in shape)
        unknown = [i for i, extent in enumerate(shape) if extent == -1]
        if len(unknown) > 1 or any(extent < -1 for extent in shape):
            raise ValueError(f"invalid shape {shape}: at most one extent may be -1, none other negative")
        known = math.prod(extent for extent in shape if extent != -1)
        if unknown:
            if known == 0 or self.size % known:
                raise ValueError(f"cannot reshape an array of size {self.size} into shape {shape}")
            shape = shape[:unknown[0]] + (self.size // known,) + shape[unknown[0] + 1:]
        if math.prod(shape) != self.size:
            raise ValueError(f"cannot reshape an array of size {self.size} into shape {shape}")
        if not self.flags.c_contiguous:
            raise ValueError("reshape needs a C-contiguous array (this view is strided); reshape a .copy() of it")
        return ndarray._view(self._owner, self._ptr, shape, _indexing.c_strides(shape, self.itemsize), self._dtype,
                             self._device)

    def ravel(self):
        """A 1-D view of a C-contiguous array, else a 1-D copy."""
        return (self if self.flags.c_contiguous else self.copy()).reshape(-1)

    def transpose(self, *axes):
        """A view with the dimensions permuted (reversed when no axes are given)."""
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = axes[0]
        axes = tuple(range(self.ndim))[::-1] if not axes else tuple(operator.index(a) % max(self.ndim, 1) for a in axes)
        if sorted(axes) != list(range(self.ndim)):
            raise ValueError(f"axes {axes} are not a permutation of the {self.ndim} dimensions")
        return ndarray._view(self._owner, self._ptr, [self._shape[a] for a in axes], [self._strides[a] for a in axes],
                             self._dtype, self._device)

    @property
    def T(self):
        """The transposed view."""
        return self.transpose()

    # ---- interoperability

    @property
    def __cuda_array_interface__(self):
        """CUDA Array Interface v3 (CUDA devices only; on the simulator use DLPack, whose device is the CPU)."""
        if self._device.backend_info.capabilities.dlpack_device_type != _DLPACK_CUDA:
            raise AttributeError("__cuda_array_interface__ exists on CUDA devices only: this array is in the "
                                 f"{self._device.backend} backend's (host) memory; use numpy.from_dlpack(array) or .get()")
        stream = get_current_stream()
        contiguous = self.flags.c_contiguous
        return {
            "shape": self._shape,
            "typestr": self._dtype.str,
            "descr": [("", self._dtype.str)],
            "data": (self._ptr if self.size else 0, False),
            "strides": None if contiguous else self._strides,
            "version": 3,
            # 1 is CUDA's legacy default stream; the consumer must order its work after this stream.
            "stream": 1 if stream.is_default else stream.ptr,
        }

    def __dlpack_device__(self):
        """(kDLCUDA, ordinal) on a GPU; (kDLCPU, 0) on the simulator, whose device memory is host memory."""
        kind = self._device.backend_info.capabilities.dlpack_device_type
        return (kind, self._device.id if kind == _DLPACK_CUDA else 0)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule over the array's memory (versioned when ``max_version`` asks for 1.x).

        The capsule holds a reference to the array, so the memory lives until the consumer is done.
        Work enqueued so far is finished first unless ``stream`` is -1. ``copy=True`` exports a copy;
        ``dl_device=(kDLCPU, 0)`` on a GPU exports a host copy (refused when ``copy=False``)."""
        own_device = self.__dlpack_device__()
        if dl_device is not None and tuple(dl_device) != own_device:
            if copy is False or tuple(dl_device)[0] != _DLPACK_CPU:
                raise BufferError(f"cannot export an array on DLPack device {own_device} to {tuple(dl_device)} "
                                  f"{'without a copy' if copy is False else ''}".rstrip())
            host = self.get()
            return host.__dlpack__() if max_version is None else host.__dlpack__(max_version=max_version)
        source = self.copy() if copy else self
        if stream != -1:
            # We cannot make a foreign stream wait on ours, so the work on this device finishes first.
            self._device.synchronize()
        code, bits = _dtypes.to_dlpack(self._dtype)
        strides = [stride // self.itemsize for stride in source._strides]
        versioned = max_version is not None and tuple(max_version)[0] >= 1
        return _core.dlpack_capsule(source, source._ptr, list(source._shape), strides, code, bits, own_device[0],
                                    own_device[1], versioned)

    # ---- text

    def __repr__(self):
        text = repr(self.get())
        return f"{text[:-1]}, device='{self._device.backend}:{self._device.id}')"

    def __str__(self):
        return str(self.get())
