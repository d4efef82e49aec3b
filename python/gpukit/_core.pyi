"""
gpukit's C++ core: devices, memory, arrays, streams, events, modules, kernels, check mode, the compile cache and the backends. Use it through the gpukit package.
"""

from collections.abc import Iterator, Sequence
import os
import pathlib
from typing import overload

from gpukit._core import (
    collectives as collectives,
    fft as fft,
    linalg as linalg,
    multi_device as multi_device,
    ndimage as ndimage,
    random as random,
    signal as signal
)


def python_spelling(message: str) -> str:
    """
    A core message with the C++ APIs it names spelled as in Python (for tests).
    """

def version() -> str:
    """gpukit's version, e.g. '0.1.0'."""

class BackendCapabilities:
    """
    What a backend can do: code that must differ by device asks these, never a name.
    """

    @property
    def simulated(self) -> bool:
        """
        Kernels run on this machine's CPU, not on an accelerator (timings are CPU timings).
        """

    @property
    def check_mode(self) -> bool:
        """Runs kernels under check mode's tools (memcheck, racecheck, ...)."""

    @property
    def loads_binary_images(self) -> bool:
        """Loads code compiled elsewhere (PTX, cubin, fatbin)."""

    @property
    def tensor_cores(self) -> bool:
        """Its devices may have tensor cores."""

    @property
    def dlpack_device_type(self) -> int:
        """
        Where DLPack places its memory: 1 (kDLCPU, host memory) or 2 (kDLCUDA, CUDA device memory).
        """

    @property
    def sandbox(self) -> bool:
        """
        Can run kernels in a sandbox (gpukit.set_sandbox): no network, a private temporary directory, the files read-only.
        """

    def __repr__(self) -> str: ...

class ToolchainPart:
    """A library or compiler a backend needs, as found here."""

    @property
    def role(self) -> str:
        """What it is for the backend: 'driver', 'NVRTC', 'host compiler'."""

    @property
    def path(self) -> str:
        """The file in use or found; '' when none was found."""

    @property
    def version(self) -> str: ...

    @property
    def problem(self) -> str:
        """Why it cannot be used; '' when it can."""

class BackendInfo:
    """A backend: its name, what it runs kernels on, what it can do."""

    @property
    def name(self) -> str:
        """What GPUKIT_BACKEND and use_backend() take."""

    @property
    def description(self) -> str: ...

    @property
    def device_label(self) -> str:
        """How device lists label its devices ('GPU 0')."""

    @property
    def built(self) -> bool:
        """Built into this gpukit (when not, unavailable_reason says why)."""

    @property
    def capabilities(self) -> BackendCapabilities: ...

    @property
    def unavailable_reason(self) -> str:
        """Why the backend cannot run here, or '' when it can."""

    @property
    def toolchain(self) -> list[ToolchainPart]:
        """
        The libraries and compilers it uses: where they were found, their versions, or why they cannot be used.
        """

    def __repr__(self) -> str: ...

def backends() -> list[BackendInfo]:
    """
    Every backend gpukit knows, the built ones first, in the order automatic selection tries them.
    """

def backend_info(name: str) -> BackendInfo:
    """
    The backend of that name; InvalidArgumentError naming the backends there are.
    """

def select_backend(name: str) -> None:
    """
    Chooses the process's backend by name, or 'auto'. A later call asking for another raises UsageError.
    """

def selected_backend() -> BackendInfo:
    """The backend in use, choosing it from GPUKIT_BACKEND on first use."""

def set_sandbox(on: bool) -> None:
    """
    Runs the selected backend's kernels in its sandbox, or no longer; see gpukit.set_sandbox.
    """

def sandboxed() -> bool:
    """Whether the selected backend's kernels run in its sandbox."""

def backend_unavailable_reason(name: str) -> str:
    """
    Why a backend ('auto': any backend) cannot be used here, or '' when it can.
    """

class LaunchLimits:
    """The limits every launch on a device is checked against."""

    @property
    def max_threads_per_block(self) -> int: ...

    @property
    def max_block_dim(self) -> tuple: ...

    @property
    def max_grid_dim(self) -> tuple: ...

    @property
    def shared_memory_per_block(self) -> int:
        """
        Bytes of shared memory (static and dynamic) a block gets without opting in.
        """

    @property
    def shared_memory_per_block_optin(self) -> int:
        """The most shared memory a kernel may opt in to."""

    @property
    def warp_size(self) -> int: ...

class DeviceProperties:
    """What a device is and what it can do."""

    @property
    def backend(self) -> str:
        """The backend's name."""

    @property
    def ordinal(self) -> int: ...

    @property
    def name(self) -> str: ...

    @property
    def compute_capability(self) -> tuple[int, int]: ...

    @property
    def pci_bus_id(self) -> str: ...

    @property
    def total_memory(self) -> int: ...

    @property
    def multiprocessor_count(self) -> int: ...

    @property
    def limits(self) -> LaunchLimits: ...

    @property
    def shared_memory_per_multiprocessor(self) -> int: ...

    @property
    def total_constant_memory(self) -> int: ...

    @property
    def registers_per_block(self) -> int: ...

    @property
    def registers_per_multiprocessor(self) -> int: ...

    @property
    def max_threads_per_multiprocessor(self) -> int: ...

    @property
    def clock_rate_khz(self) -> int: ...

    @property
    def memory_clock_rate_khz(self) -> int: ...

    @property
    def memory_bus_width_bits(self) -> int: ...

    @property
    def l2_cache_bytes(self) -> int: ...

    @property
    def target(self) -> str:
        """
        What kernels are compiled for: 'sm_90', or the host's architecture on a simulated device.
        """

    def architecture(self) -> str: ...

class Device:
    """
    A GPU, or a simulated device. Device() is the current device; Device(n) is device n of the selected backend. `with device:` makes it current inside the block.
    """

    def __init__(self, id: int | None = None) -> None: ...

    @property
    def id(self) -> int:
        """The device's ordinal within its backend."""

    @property
    def backend(self) -> str:
        """The backend's name."""

    @property
    def backend_info(self) -> BackendInfo:
        """The backend: its name, label and capabilities."""

    @property
    def name(self) -> str: ...

    @property
    def properties(self) -> DeviceProperties: ...

    @property
    def compute_capability(self) -> tuple[int, int]: ...

    @property
    def mem_info(self) -> tuple[int, int]:
        """(free bytes, total bytes) now."""

    def use(self) -> None:
        """Makes this the current device of the calling thread."""

    def synchronize(self, timeout: float | None = None) -> None:
        """
        Waits for all work on the device to finish; Ctrl-C interrupts the wait (KeyboardInterrupt). With ``timeout`` (seconds), raises WaitTimeoutError past it. On the simulator an interrupted or timed-out wait gives up the device's running work, so that the device is usable again.
        """

    def describe(self) -> str: ...

    def can_access_peer(self, peer: Device) -> bool:
        """
        Whether this device can reach `peer`'s memory directly (peer access over NVLink or PCIe); False for itself. Copies between devices without it go through the host.
        """

    def enable_peer_access(self, peer: Device) -> None:
        """
        Lets this device reach `peer`'s memory (once per pair; later calls return at once). ValueError where can_access_peer(peer) is False. Copies between devices enable it themselves.
        """

    def __enter__(self) -> Device: ...

    def __exit__(self, *args) -> None: ...

    @overload
    def __eq__(self, arg: Device, /) -> bool: ...

    @overload
    def __eq__(self, arg: object, /) -> bool: ...

    def __hash__(self) -> int: ...

    def __repr__(self) -> str: ...

def devices() -> list[Device]:
    """Every device of the selected backend."""

def all_devices() -> list[Device]:
    """Every device of every backend that can run here."""

def current_device() -> Device:
    """The calling thread's current device."""

def checked_device(device: object | None) -> Device:
    """
    `device` when it is a gpukit.Device, the current device for None; TypeError for anything else.
    """

class Stream:
    """
    A stream: work enqueued on it runs in order; work on different streams may overlap.

    ``Stream()`` creates a blocking stream on the current device (``non_blocking=True`` for one that does not wait for the default stream). ``Stream.null`` is the default stream of whichever device the work runs on: work on it waits for earlier work on every blocking stream, and blocking streams wait for it. ``with stream:`` makes a stream current for its device on the calling thread until the block ends; launches, copies and :func:`gpukit.benchmark` without an explicit ``stream=`` use the current stream.
    """

    def __init__(self, non_blocking: bool = False, device: Device | None = None) -> None: ...

    @property
    def device(self) -> Device:
        """
        The device the stream belongs to (the current device for :attr:`Stream.null`).
        """

    @property
    def is_default(self) -> bool:
        """True for :attr:`Stream.null`."""

    @property
    def ptr(self) -> int:
        """
        The native handle as an int (a ``CUstream``); 0 for the default stream.
        """

    def synchronize(self, timeout: float | None = None) -> None:
        """
        Waits until all work enqueued on the stream has finished; ``timeout`` as for :meth:`Device.synchronize`.
        """

    def done(self) -> bool:
        """True when all work enqueued so far has finished."""

    def wait_event(self, event: Event) -> None:
        """
        Work enqueued on this stream after this call waits until ``event`` has completed.
        """

    def record(self, event: object | None = None) -> object:
        """Records ``event`` (a new one when None) on this stream and returns it."""

    def use(self) -> object:
        """
        Makes this the current stream of its device on the calling thread outside any ``with`` block; returns self.
        """

    def __enter__(self) -> object: ...

    def __exit__(self, *args) -> None: ...

    def __eq__(self, arg: object, /) -> object: ...

    def __hash__(self) -> int: ...

    def __repr__(self) -> str: ...

    null: Stream = ...

class Event:
    """
    A marker in a stream, for ordering streams and timing the work between two of them.

    ``Event()`` times (``timing=False`` makes a lighter one that cannot). ``record(stream)`` captures the work enqueued on the stream so far; ``synchronize()`` waits for it.
    """

    def __init__(self, timing: bool = True, device: Device | None = None) -> None: ...

    @property
    def device(self) -> Device:
        """The device the event belongs to."""

    def record(self, stream: object | None = None) -> None:
        """
        Captures the work enqueued so far on ``stream`` (default: the current stream).
        """

    def synchronize(self, timeout: float | None = None) -> None:
        """
        Waits until the captured work has finished; ``timeout`` as for :meth:`Device.synchronize`.
        """

    def done(self) -> bool:
        """True when the captured work has finished (or nothing was recorded)."""

    @property
    def is_recorded(self) -> bool:
        """True once :meth:`record` has been called."""

    def elapsed_time(self, end: Event) -> float:
        """
        Milliseconds from this event to ``end``; both recorded, ``end`` completed (synchronise it first).
        """

    def __repr__(self) -> str: ...

def get_current_stream() -> Stream:
    """
    The calling thread's current stream of the current device: the innermost ``with stream:``, or the last ``stream.use()``, else :attr:`Stream.null`.
    """

def get_elapsed_time(start_event: Event, end_event: Event) -> float:
    """
    Milliseconds between two recorded events (as ``cupy.cuda.get_elapsed_time``).
    """

class PinnedMemory:
    """Page-locked host memory, freed with this object."""

    def __init__(self, device: Device, size_bytes: int) -> None: ...

    @property
    def address(self) -> int: ...

    @property
    def size_bytes(self) -> int: ...

class Flags:
    """
    How an array's elements lie: ``c_contiguous`` (row-major without gaps), ``f_contiguous`` (column-major without gaps), ``owndata`` (all of an allocation, not a view of another array's memory).
    """

    @property
    def c_contiguous(self) -> bool:
        """Elements in row-major order without gaps."""

    @property
    def f_contiguous(self) -> bool:
        """Elements in column-major order without gaps."""

    @property
    def owndata(self) -> bool:
        """Not a view of another array's memory."""

    def __repr__(self) -> str: ...

class ndarray:
    """
    An array in device memory (a GPU's, or the simulator's).

    ``ndarray(shape, dtype=float, memptr=None, strides=None)`` allocates on the current device, or, given ``memptr`` (another gpukit array, e.g. from :meth:`RawModule.get_global`), views that array's memory with the new shape and dtype, as ``cupy.ndarray(shape, dtype, memptr)`` does. Create arrays with :func:`gpukit.empty`, :func:`gpukit.zeros`, :func:`gpukit.asarray`, ...

    An array is a view: the memory it shares (a gpukit allocation, a module's global, or another library's memory), the address of its first element, a shape, byte strides and a dtype. Slicing makes new views of the same memory; nothing is copied until ``.get()`` or ``.copy()``. Work runs on the current stream.

    On a CUDA device the array exposes ``__cuda_array_interface__`` (version 3, with the current stream) and ``__dlpack__`` with ``kDLCUDA``: CuPy, PyTorch and Numba take it without a copy. On the simulator, device memory is host memory, so ``__dlpack_device__`` is ``kDLCPU`` and ``numpy.from_dlpack(array)`` is a zero-copy NumPy view; ``__cuda_array_interface__`` is absent there (no CUDA library could read the pointer). NumPy's implicit conversion (``numpy.asarray(array)``) raises on both backends, so code that runs on the simulator runs unchanged on a GPU.
    """

    __hash__: None = None

    def __lt__(self, value, /):
        """Return self<value."""

    def __le__(self, value, /):
        """Return self<=value."""

    def __eq__(self, value, /):
        """Return self==value."""

    def __ne__(self, value, /):
        """Return self!=value."""

    def __gt__(self, value, /):
        """Return self>value."""

    def __ge__(self, value, /):
        """Return self>=value."""

    def __init__(self, shape: object, dtype: object = float, memptr: ndarray | None = None, strides: object | None = None) -> None: ...

    def __add__(self, value, /):
        """Return self+value."""

    def __radd__(self, value, /):
        """Return value+self."""

    def __sub__(self, value, /):
        """Return self-value."""

    def __rsub__(self, value, /):
        """Return value-self."""

    def __mul__(self, value, /):
        """Return self*value."""

    def __rmul__(self, value, /):
        """Return value*self."""

    def __mod__(self, value, /):
        """Return self%value."""

    def __rmod__(self, value, /):
        """Return value%self."""

    def __divmod__(self, value, /):
        """Return divmod(self, value)."""

    def __rdivmod__(self, value, /):
        """Return divmod(value, self)."""

    def __pow__(self, value, mod=None, /):
        """Return pow(self, value, mod)."""

    def __rpow__(self, value, mod=None, /):
        """Return pow(value, self, mod)."""

    def __neg__(self, /):
        """-self"""

    def __pos__(self, /):
        """+self"""

    def __abs__(self, /):
        """abs(self)"""

    def __bool__(self, /):
        """True if self else False"""

    def __invert__(self, /):
        """~self"""

    def __lshift__(self, value, /):
        """Return self<<value."""

    def __rlshift__(self, value, /):
        """Return value<<self."""

    def __rshift__(self, value, /):
        """Return self>>value."""

    def __rrshift__(self, value, /):
        """Return value>>self."""

    def __and__(self, value, /):
        """Return self&value."""

    def __rand__(self, value, /):
        """Return value&self."""

    def __xor__(self, value, /):
        """Return self^value."""

    def __rxor__(self, value, /):
        """Return value^self."""

    def __or__(self, value, /):
        """Return self|value."""

    def __ror__(self, value, /):
        """Return value|self."""

    def __int__(self, /):
        """int(self)"""

    def __float__(self, /):
        """float(self)"""

    def __iadd__(self, value, /):
        """Return self+=value."""

    def __isub__(self, value, /):
        """Return self-=value."""

    def __imul__(self, value, /):
        """Return self*=value."""

    def __imod__(self, value, /):
        """Return self%=value."""

    def __ipow__(self, value, /):
        """Return self**=value."""

    def __ilshift__(self, value, /):
        """Return self<<=value."""

    def __irshift__(self, value, /):
        """Return self>>=value."""

    def __iand__(self, value, /):
        """Return self&=value."""

    def __ixor__(self, value, /):
        """Return self^=value."""

    def __ior__(self, value, /):
        """Return self|=value."""

    def __floordiv__(self, value, /):
        """Return self//value."""

    def __rfloordiv__(self, value, /):
        """Return value//self."""

    def __truediv__(self, value, /):
        """Return self/value."""

    def __rtruediv__(self, value, /):
        """Return value/self."""

    def __ifloordiv__(self, value, /):
        """Return self//=value."""

    def __itruediv__(self, value, /):
        """Return self/=value."""

    def __index__(self, /):
        """
        Return self converted to an integer, if self is suitable for use as an index into a list.
        """

    def __matmul__(self, value, /):
        """Return self@value."""

    def __rmatmul__(self, value, /):
        """Return value@self."""

    def __imatmul__(self, value, /):
        """Return self@=value."""

    @property
    def dtype(self) -> object:
        """The element type (a numpy.dtype)."""

    @property
    def shape(self) -> tuple:
        """The extent of each dimension."""

    @property
    def strides(self) -> tuple:
        """
        Bytes from one element to the next along each dimension (negative for reversed views).
        """

    @property
    def ndim(self) -> int:
        """The number of dimensions."""

    @property
    def size(self) -> int:
        """The number of elements."""

    @property
    def itemsize(self) -> int:
        """Bytes per element."""

    @property
    def nbytes(self) -> int:
        """
        Bytes the elements take (``size * itemsize``), gaps between strided elements not counted.
        """

    @property
    def device(self) -> Device:
        """The gpukit.Device whose memory holds the array."""

    @property
    def data_ptr(self) -> int:
        """The device address of the first element, as an int."""

    @property
    def flags(self) -> Flags:
        """
        ``c_contiguous``, ``f_contiguous`` and ``owndata`` (see :class:`Flags`).
        """

    def __len__(self) -> int: ...

    def __iter__(self) -> object: ...

    def get(self, stream: object | None = None, out: object | None = None) -> object:
        """
        A NumPy copy of the array, in row-major order whatever the view's strides.

        ``out``: a NumPy array of the same shape and dtype to copy into. Returns once the data is on the host (the copy runs on ``stream``, default the current stream).
        """

    def copy_to_host(self, ary: object | None = None, stream: object = 0) -> object:
        """
        Numba's name for :meth:`get`: a NumPy copy of the array, or the copy into ``ary`` (``stream`` 0: the current stream).
        """

    def set(self, arr: object, stream: Stream | None = None) -> None:
        """
        Copies host data (a NumPy array or anything NumPy can read) of the same shape and dtype into the array.

        For a strided view the bytes between its elements are read and written back unchanged, so no other stream may write them meanwhile.
        """

    def tolist(self) -> object:
        """The elements as (nested) Python lists, through a host copy."""

    def item(self) -> object:
        """The one element of a size-1 array, as a Python scalar."""

    def copy(self, order: object | None = 'C') -> ndarray:
        """
        A new array with the same elements, laid out in `order` ('C', 'F', 'A', 'K').
        """

    def astype(self, dtype: object, order: str = 'K', casting: str = 'unsafe', subok: object = None, copy: bool = True) -> ndarray:
        """
        The elements converted to `dtype` on the device, as NumPy converts them, in a new array laid out in `order` (K: as this one); the array itself when nothing changes and `copy` is False.
        """

    def view(self, dtype: object | None = None, type: type | None = None) -> ndarray:
        """
        A view of the same memory, its bytes read as `dtype` (this array's when None), as numpy.ndarray.view: of another itemsize, the contiguous last axis holds more or fewer elements.
        """

    def fill(self, value: object) -> None:
        """
        Sets every element to `value` (converted to the array's dtype as NumPy converts it), on the device.
        """

    def nonzero(self) -> tuple[ndarray, ...]:
        """
        The indices of the nonzero elements, one int64 array per dimension; waits for the count.
        """

    def take(self, indices: object, axis: int | None = None, out: ndarray | None = None, mode: str = 'raise') -> ndarray:
        """gpukit.take(self, indices, axis, out, mode)."""

    def put(self, indices: object, values: object, mode: str = 'raise') -> None:
        """gpukit.put(self, indices, values, mode)."""

    def choose(self, choices: object, out: ndarray | None = None, mode: str = 'raise') -> ndarray:
        """gpukit.choose(self, choices, out, mode)."""

    def compress(self, condition: object, axis: int | None = None, out: ndarray | None = None) -> ndarray:
        """gpukit.compress(condition, self, axis, out)."""

    def __getitem__(self, key: object) -> ndarray:
        """
        a[key]: basic indices (ints, slices, None, ...) give a view; index arrays (integer arrays, masks, lists, NumPy arrays) gather a copy.
        """

    def __setitem__(self, key: object, value: object) -> None:
        """
        a[key] = value: a gpukit array, a number or host data (a NumPy array, a list), broadcast to a[key]'s shape and converted to a's dtype. Duplicate indices write one of their values (which one is not defined).
        """

    def reshape(self, *args, **kwargs) -> ndarray:
        """
        The same elements in a new shape (one extent may be -1), read and placed in `order`: a view when strides allow (NumPy's rule), else a copy (copy=False refuses one, copy=True always makes one).
        """

    def ravel(self, order: object | None = 'C') -> ndarray:
        """
        1-D in `order`: a view of an array contiguous in that order, else a copy.
        """

    def flatten(self, order: object | None = 'C') -> ndarray:
        """A 1-D copy in `order`."""

    def squeeze(self, axis: object | None = None) -> ndarray:
        """Without dimensions of extent 1 (all, or those of `axis`): a view."""

    def swapaxes(self, axis1: object | None, axis2: object | None) -> ndarray:
        """Two axes interchanged: a view."""

    def repeat(self, repeats: object | None, axis: object | None = None) -> ndarray:
        """Each element repeated along `axis` (the flattened array by default)."""

    def diagonal(self, offset: object | None = 0, axis1: object | None = 0, axis2: object | None = 1) -> ndarray:
        """The diagonal at `offset` of the matrices in (axis1, axis2): a view."""

    @property
    def real(self) -> ndarray:
        """
        The real part: a view of a complex array's memory (assigning to it writes the array).
        """

    @real.setter
    def real(self, arg: object, /) -> None: ...

    @property
    def imag(self) -> ndarray:
        """
        The imaginary part: a view of a complex array's memory; zeros (a new array) for a real one.
        """

    @imag.setter
    def imag(self, arg: object, /) -> None: ...

    def transpose(self, *args) -> ndarray:
        """A view with the dimensions permuted (reversed when no axes are given)."""

    @property
    def T(self) -> ndarray:
        """The transposed view."""

    @property
    def mT(self) -> ndarray:
        """The matrices of the last two axes transposed: a view (at least 2-D)."""

    def to_device(self, device: object | None, *, stream: object | None = None) -> ndarray:
        """
        This array on `device` (a gpukit.Device or a device number): itself when it is there, else a copy (the Array API's), peer to peer where the devices reach each other and through the host where not. The copy runs on the target's current stream after the work queued on the source's, without waiting.
        """

    def __reduce__(self) -> tuple:
        """
        Pickles an empty array (shape and dtype; Dask's metas inside task graphs); an array with elements raises TypeError, since the pickle would hide a copy from the device.
        """

    @property
    def __cuda_array_interface__(self) -> dict:
        """
        CUDA Array Interface v3 (CUDA devices only; on the simulator use DLPack, whose device is the CPU).
        """

    def __dlpack_device__(self) -> tuple[int, int]:
        """
        (kDLCUDA, ordinal) on a GPU; (kDLCPU, 0) on the simulator, whose device memory is host memory.
        """

    def __dlpack__(self, *, stream: object | None = None, max_version: object | None = None, dl_device: object | None = None, copy: object | None = None) -> object:
        """
        A DLPack capsule over the array's memory (versioned when ``max_version`` asks for 1.x).

        The capsule keeps the memory alive until the consumer is done. Work enqueued so far is finished first unless ``stream`` is -1. ``copy=True`` exports a copy; ``dl_device=(kDLCPU, 0)`` on a GPU exports a host copy (refused when ``copy=False``).
        """

    def __repr__(self) -> str: ...

    def __str__(self) -> str: ...

    __array_priority__: int = 100

    def conj(self) -> ndarray:
        """
        The complex conjugate, elementwise (the array's values for real dtypes), as gpukit.conjugate.
        """

    def conjugate(self) -> ndarray:
        """
        The complex conjugate, elementwise (the array's values for real dtypes), as gpukit.conjugate.
        """

    def clip(self, min: object = None, max: object = None, out: ndarray | None = None, **kwargs: object) -> ndarray:
        """
        The values limited to [min, max] (either may be None), as numpy.clip: ``minimum(maximum(a, min), max)``; ``out``, ``casting`` and ``dtype`` as a ufunc's.
        """

    def round(self, decimals: int = 0, out: ndarray | None = None) -> ndarray:
        """
        The elements rounded to ``decimals`` decimal places as numpy.round rounds them (halves to even; integers unchanged for decimals >= 0); into ``out`` when given.
        """

    def __complex__(self) -> complex:
        """The element of a 0-d array as a Python complex."""

    def __array_ufunc__(self, ufunc: object, method: str, *inputs: object, **kwargs: object) -> object:
        """
        NumPy's ufuncs on gpukit arrays (numpy.sqrt(x)) run gpukit's; NumPy arrays among the operands raise TypeError naming gpukit.asarray.
        """

    def __array__(self, dtype: object = None, copy: bool | None = None) -> object:
        """
        numpy.asarray(x): TypeError unless gpukit.set_host_conversion(True) allowed the copy to the host.
        """

    def __array_function__(self, func: object, types: object, args: tuple, kwargs: dict) -> object:
        """
        NumPy's functions on gpukit arrays (numpy.concatenate, numpy.linalg.norm, ...) run gpukit's of the same name; TypeError naming the function where gpukit has none.
        """

    def __array_namespace__(self, *, api_version: str | None = None) -> object:
        """The Array API standard's namespace of this array: the gpukit module."""

    def sum(self, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: object = False, initial: object | None = None, where: object | None = True) -> ndarray:
        """The sum of the elements over `axis` (all when None), as numpy.sum."""

    def prod(self, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: object = False, initial: object | None = None, where: object | None = True) -> ndarray:
        """
        The product of the elements over `axis` (all when None), as numpy.prod.
        """

    def max(self, axis: object | None = None, out: object | None = None, keepdims: object = False, initial: object | None = None, where: object | None = True) -> ndarray:
        """The largest element over `axis` (a nan wins), as numpy.max."""

    def min(self, axis: object | None = None, out: object | None = None, keepdims: object = False, initial: object | None = None, where: object | None = True) -> ndarray:
        """The smallest element over `axis` (a nan wins), as numpy.min."""

    def any(self, axis: object | None = None, out: object | None = None, keepdims: object = False, *, where: object | None = True) -> ndarray:
        """Whether any element over `axis` is true (nonzero), as numpy.any."""

    def all(self, axis: object | None = None, out: object | None = None, keepdims: object = False, *, where: object | None = True) -> ndarray:
        """Whether every element over `axis` is true (nonzero), as numpy.all."""

    def mean(self, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: object = False, *, where: object | None = True) -> ndarray:
        """The arithmetic mean over `axis`, as numpy.mean (integers in float64)."""

    def ptp(self, axis: object | None = None, out: object | None = None, keepdims: object = False) -> ndarray:
        """The range (max - min) over `axis`, as numpy.ptp."""

    def var(self, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: object | None = 0, keepdims: object = False, *, where: object | None = True, correction: object | None = None) -> ndarray:
        """
        The variance over `axis`: the mean of |x - x.mean()|**2 times n / (n - ddof), as numpy.var.
        """

    def std(self, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: object | None = 0, keepdims: object = False, *, where: object | None = True, correction: object | None = None) -> ndarray:
        """
        The standard deviation over `axis`: the square root of var, as numpy.std.
        """

    def argmax(self, axis: object | None = None, out: object | None = None, *, keepdims: object = False) -> ndarray:
        """
        The index of the largest element over `axis` (its first; a nan's first), as numpy.argmax.
        """

    def argmin(self, axis: object | None = None, out: object | None = None, *, keepdims: object = False) -> ndarray:
        """
        The index of the smallest element over `axis` (its first; a nan's first), as numpy.argmin.
        """

    def cumsum(self, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> ndarray:
        """
        The cumulative sum along `axis` (the flattened array when None), as numpy.cumsum.
        """

    def cumprod(self, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> ndarray:
        """
        The cumulative product along `axis` (the flattened array when None), as numpy.cumprod.
        """

    def sort(self, axis: object = -1, kind: object | None = None, order: object | None = None, *, stable: object | None = None) -> None:
        """Sorts the array in place along `axis`, as ndarray.sort."""

    def argsort(self, axis: object | None = -1, kind: object | None = None, order: object | None = None, *, stable: object | None = None) -> ndarray:
        """
        The indices that sort along `axis` (None: flattened), as numpy.argsort(kind='stable').
        """

    def partition(self, kth: object, axis: int = -1, kind: object = 'introselect', order: object | None = None) -> None:
        """
        Partitions the array in place around each kth, as ndarray.partition (a stable sort).
        """

    def argpartition(self, kth: object, axis: object | None = -1, kind: object = 'introselect', order: object | None = None) -> ndarray:
        """
        Indices that partition around each kth, as ndarray.argpartition (a stable sort).
        """

    def searchsorted(self, v: object | None, side: object = 'left', sorter: object | None = None) -> ndarray:
        """Where each v would go in the sorted 1-D array, as numpy.searchsorted."""

    def dot(self, b: object | None, out: object | None = None) -> ndarray:
        """The dot product with b, as numpy.dot(self, b)."""

    def trace(self, offset: object = 0, axis1: object = 0, axis2: object = 1, dtype: object | None = None, out: object | None = None) -> ndarray:
        """The sums along the diagonals, as numpy.trace."""

class MemoryWatch:
    """
    Whether the memory an array views is still held, by any array, DLPack capsule or launch, without holding it: for tests and leak hunts.
    """

    def __init__(self, array: ndarray) -> None: ...

    @property
    def alive(self) -> bool:
        """True until the memory has been let go of."""

def checked_shape(shape: object, dtype: object) -> tuple[tuple[int, ...], int]:
    """
    (shape as a tuple, bytes) for an array of `shape` and `dtype`, refused as gpukit.empty refuses them.
    """

def from_host(values: object, device: Device) -> ndarray:
    """
    A new array on `device` holding a copy of host data (a NumPy array, in any layout).
    """

def module_global(module: Module, name: str, dtype: object, shape: object | None = None) -> ndarray:
    """
    An array viewing a module's __device__ or __constant__ variable (1-D over all of it unless `shape` says); it keeps the module loaded.
    """

def dtype_names() -> list[str]:
    """
    The names of the element types gpukit arrays hold, NumPy's numeric types and bfloat16.
    """

class MemoryPool:
    """
    A device's caching allocator, which arrays allocate from (as CuPy's MemoryPool): memory an array lets go of is kept for the next array, in its stream's order, instead of going back to the device. Out of memory, the pool gives back what it cached and tries again before raising gpukit.OutOfMemoryError. On the simulator it does not cache, so that check mode sees each array as an allocation of its own; GPUKIT_MEMORY_POOL=on|off|auto chooses.
    """

    @property
    def device(self) -> Device:
        """The device whose memory it holds."""

    def used_bytes(self) -> int:
        """Bytes of the blocks live arrays hold (rounded up to 512 bytes)."""

    def total_bytes(self) -> int:
        """
        Bytes the pool holds on the device: used_bytes() and the cached free blocks.
        """

    def free_bytes(self) -> int:
        """Bytes of the cached free blocks."""

    def n_free_blocks(self) -> int:
        """How many free blocks the pool caches."""

    def free_all_blocks(self) -> None:
        """
        Gives the cached blocks back to the device (a segment that still holds a live array's block stays).
        """

    def set_limit(self, size: int | None = None, fraction: float | None = None) -> None:
        """
        The most bytes the pool may hold on the device: `size` bytes, or `fraction` of the device's memory; neither, or 0: no limit. Past it, allocations raise gpukit.OutOfMemoryError once the cached blocks are given back.
        """

    def get_limit(self) -> int:
        """The limit set_limit set, in bytes; 0: none."""

    @property
    def caching(self) -> bool:
        """Whether freed memory is kept for the next array."""

    def set_caching(self, on: bool) -> None:
        """
        Keep freed memory (True), or give every array's memory back to the device when it goes (False, for debugging; it gives the cached blocks back now).
        """

    def __repr__(self) -> str: ...

def get_default_memory_pool(device: Device | None = None) -> MemoryPool:
    """The pool arrays on `device` (None: the current device) allocate from."""

class ufunc:
    """
    A universal function: an operation applied element by element, with NumPy's broadcasting, type promotion (NumPy 2's rules: Python numbers are weak) and keywords.

    ``ufunc(*inputs, out=None, where=True, casting='same_kind', dtype=None)``. Inputs are gpukit arrays, Python numbers and NumPy scalars (host arrays are refused: copy them with :func:`gpukit.asarray`). ``out``: an array, or a tuple of one per output, written in place and returned; ``where``: a bool array, results written only where it is true; ``casting``: how far inputs and outputs may be cast ('no', 'equiv', 'safe', 'same_kind', 'unsafe'); ``dtype``: the dtype of the outputs, choosing the loop. The work runs on the current stream without waiting. ``ufunc.types`` lists the loops (NumPy's letters; ``E`` is bfloat16).
    """

    def __call__(self, /, *args, **kwargs):
        """Call self as a function."""

    @property
    def nin(self) -> int:
        """The number of inputs."""

    @property
    def nout(self) -> int:
        """The number of outputs."""

    @property
    def nargs(self) -> int:
        """The number of arguments: inputs and outputs."""

    @property
    def ntypes(self) -> int:
        """The number of loops."""

    @property
    def types(self) -> list[str]:
        """
        The loops, as NumPy writes them ('ff->f'), in the order a call tries them (``E``: bfloat16).
        """

    @property
    def identity(self) -> object:
        """
        The value that leaves the other operand unchanged (0 for add), or None, as NumPy's.
        """

    @property
    def signature(self) -> None:
        """
        None: gpukit's ufuncs are elementwise (no generalized core dimensions).
        """

    def __repr__(self) -> str: ...

    def outer(self, a: object, b: object, /, **kwargs: object) -> object:
        """
        The ufunc of every pair: ``result[i..., j...] = ufunc(a[i...], b[j...])``, of shape ``a.shape + b.shape`` (two-input ufuncs; keywords as a call's).
        """

    def reduce(self, array: object, axis: object = 0, dtype: object = None, out: object = None, keepdims: bool = False, initial: object = None, where: object = True) -> object:
        """
        The ufunc applied along `axis` (an int, a tuple, None for all), as numpy.ufunc.reduce: ``add.reduce(x)`` sums over the first axis. ``initial`` starts it; ``where`` (bool, broadcast) chooses the elements that count. add, multiply, maximum, minimum, fmax, fmin, logical_and and logical_or run the parallel reductions (sum, prod, max, ...); the others apply the ufunc in NumPy's order, one thread per output element (fast for many outputs, slow for one long line).
        """

    def accumulate(self, array: object, axis: int = 0, dtype: object = None, out: object = None) -> object:
        """
        Every partial result along `axis`, as numpy.ufunc.accumulate (``add.accumulate`` is cumsum, ``multiply.accumulate`` cumprod, both parallel scans; others apply the ufunc in order, one thread per line).
        """

    def reduceat(self, array: object, indices: object, axis: int = 0, dtype: object = None, out: object = None) -> object:
        """
        Reductions over the segments that `indices` start along `axis`, as numpy.ufunc.reduceat (``array[indices[i]]`` alone where a segment is empty or backwards).
        """

    def at(self, a: object, indices: object, b: object = None) -> None:
        """
        In place and unbuffered, as numpy.ufunc.at: ``a[indices] = ufunc(a[indices], b)``, an index that repeats applying once per occurrence (``add.at(counts, idx, 1)`` counts). add on 32- and 64-bit integers, float32 and float64 runs every index at once with atomic additions (floats then add in another order than NumPy's); everything else runs in order on one thread.
        """

add: ufunc = ...

subtract: ufunc = ...

multiply: ufunc = ...

true_divide: ufunc = ...

floor_divide: ufunc = ...

remainder: ufunc = ...

negative: ufunc = ...

positive: ufunc = ...

absolute: ufunc = ...

maximum: ufunc = ...

minimum: ufunc = ...

equal: ufunc = ...

not_equal: ufunc = ...

less: ufunc = ...

less_equal: ufunc = ...

greater: ufunc = ...

greater_equal: ufunc = ...

fmod: ufunc = ...

power: ufunc = ...

float_power: ufunc = ...

fabs: ufunc = ...

sign: ufunc = ...

reciprocal: ufunc = ...

exp: ufunc = ...

exp2: ufunc = ...

expm1: ufunc = ...

log: ufunc = ...

log2: ufunc = ...

log10: ufunc = ...

log1p: ufunc = ...

sqrt: ufunc = ...

cbrt: ufunc = ...

square: ufunc = ...

sin: ufunc = ...

cos: ufunc = ...

tan: ufunc = ...

arcsin: ufunc = ...

arccos: ufunc = ...

arctan: ufunc = ...

arctan2: ufunc = ...

hypot: ufunc = ...

sinh: ufunc = ...

cosh: ufunc = ...

tanh: ufunc = ...

arcsinh: ufunc = ...

arccosh: ufunc = ...

arctanh: ufunc = ...

deg2rad: ufunc = ...

rad2deg: ufunc = ...

floor: ufunc = ...

ceil: ufunc = ...

trunc: ufunc = ...

rint: ufunc = ...

fmax: ufunc = ...

fmin: ufunc = ...

logical_and: ufunc = ...

logical_or: ufunc = ...

logical_xor: ufunc = ...

logical_not: ufunc = ...

bitwise_and: ufunc = ...

bitwise_or: ufunc = ...

bitwise_xor: ufunc = ...

bitwise_not: ufunc = ...

left_shift: ufunc = ...

right_shift: ufunc = ...

isnan: ufunc = ...

isinf: ufunc = ...

isfinite: ufunc = ...

signbit: ufunc = ...

copysign: ufunc = ...

ldexp: ufunc = ...

heaviside: ufunc = ...

conjugate: ufunc = ...

gcd: ufunc = ...

lcm: ufunc = ...

divmod: ufunc = ...

frexp: ufunc = ...

modf: ufunc = ...

nextafter: ufunc = ...

logaddexp: ufunc = ...

logaddexp2: ufunc = ...

spacing: ufunc = ...

bitwise_count: ufunc = ...

divide: ufunc = ...

mod: ufunc = ...

abs: ufunc = ...

conj: ufunc = ...

invert: ufunc = ...

bitwise_invert: ufunc = ...

degrees: ufunc = ...

radians: ufunc = ...

bitwise_left_shift: ufunc = ...

bitwise_right_shift: ufunc = ...

pow: ufunc = ...

acos: ufunc = ...

asin: ufunc = ...

atan: ufunc = ...

atan2: ufunc = ...

acosh: ufunc = ...

asinh: ufunc = ...

atanh: ufunc = ...

def ufuncs() -> dict:
    """
    Every ufunc by its name and NumPy's aliases (divide, mod, abs, ...): what the gpukit package exports.
    """

def clip(a: ndarray, a_min: object = None, a_max: object = None, out: ndarray | None = None, *, min: object = None, max: object = None, **kwargs: object) -> ndarray:
    """
    ``a`` limited to [a_min, a_max] (either may be None), as numpy.clip: the clip ufunc, or maximum or minimum alone; ``out``, ``casting`` and ``dtype`` as a ufunc's.
    """

def around(a: ndarray, decimals: int = 0, out: ndarray | None = None) -> ndarray:
    """
    ``a`` rounded to ``decimals`` decimal places as numpy.round rounds (halves to even; integers unchanged for decimals >= 0); into ``out`` when given.
    """

def round(a: ndarray, decimals: int = 0, out: ndarray | None = None) -> ndarray:
    """
    ``a`` rounded to ``decimals`` decimal places as numpy.round rounds (halves to even; integers unchanged for decimals >= 0); into ``out`` when given.
    """

def set_host_conversion(allowed: bool) -> bool:
    """
    Whether gpukit arrays may become NumPy arrays implicitly (numpy.asarray(x), NumPy functions gpukit lacks reading them as host data), copying to the host each time: off by default, as in CuPy, so that no copy happens unseen. Returns the previous setting.
    """

def get_array_module(*args: object) -> object:
    """
    gpukit where any argument is a gpukit array, else numpy (CuPy's get_array_module): for code that runs on either, ``xp = gpukit.get_array_module(x)``.
    """

def nan_to_num(x: ndarray, copy: bool = True, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None) -> ndarray:
    """
    NaN replaced by ``nan``, infinities by ``posinf`` and ``neginf`` (default: the largest finite numbers of the dtype), in each part of complex numbers, as numpy.nan_to_num; ``copy=False`` writes into ``x``.
    """

def angle(z: ndarray, deg: bool = False) -> ndarray:
    """
    The argument of each complex element (radians, or degrees with ``deg``), as numpy.angle.
    """

def isclose(a: object, b: object, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> ndarray:
    """
    Whether each element of ``a`` is within ``atol + rtol * |b|`` of ``b``'s, as numpy.isclose (an infinity close only to itself, nan to nan only with ``equal_nan``).
    """

def allclose(a: object, b: object, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> ndarray:
    """
    Whether every element is close (isclose), as a 0-d bool array (CuPy's form: ``bool()`` of it waits).
    """

def array_equal(a1: object, a2: object, equal_nan: bool = False) -> ndarray:
    """
    Whether the arrays have one shape and equal elements, as a 0-d bool array (numpy.array_equal).
    """

def array_equiv(a1: object, a2: object) -> ndarray:
    """
    Whether the arrays broadcast to one shape and are equal there, as a 0-d bool array (numpy.array_equiv).
    """

def result_type(*arrays_and_dtypes: object) -> object:
    """
    The dtype an operation on these arrays, dtypes and numbers gives, as numpy.result_type (NumPy 2's rules: Python numbers are weak).
    """

def can_cast(from_: object, to: object, casting: str = 'safe') -> bool:
    """
    Whether a cast from ``from_`` (a dtype or an array) to ``to`` is allowed under ``casting``, as numpy.can_cast.
    """

def promote_types(type1: object, type2: object) -> object:
    """The smallest dtype both convert to safely, as numpy.promote_types."""

def select(condlist: object, choicelist: object, default: object = 0) -> ndarray:
    """
    Elementwise, the choice of the first true condition, ``default`` where none holds, as numpy.select.
    """

def interp(x: object, xp: object, fp: object, left: object | None = None, right: object | None = None, period: object | None = None) -> ndarray:
    """
    The piecewise-linear interpolant of the points (xp, fp) at x, as numpy.interp (float64, or complex128 for complex fp).
    """

def gradient(f: object, *varargs: object, axis: object = None, edge_order: int = 1) -> object:
    """
    The derivative of f along each axis by central differences inside and one-sided ones at the ends, as numpy.gradient.
    """

def trapezoid(y: object, x: object | None = None, dx: float = 1.0, axis: int = -1) -> ndarray:
    """
    The integral of y along ``axis`` by the trapezoidal rule, as numpy.trapezoid.
    """

def cov(m: object, y: object | None = None, rowvar: bool = True, bias: bool = False, ddof: object | None = None, fweights: object | None = None, aweights: object | None = None, *, dtype: object | None = None) -> ndarray:
    """The covariance matrix of the variables, as numpy.cov."""

def corrcoef(x: object, y: object | None = None, rowvar: bool = True, *, dtype: object | None = None) -> ndarray:
    """The Pearson correlation coefficients, as numpy.corrcoef."""

def unravel_index(indices: object, shape: object, order: object = 'C') -> tuple:
    """
    The coordinates in ``shape`` of flat indices, one int64 array per dimension, as numpy.unravel_index.
    """

def ravel_multi_index(multi_index: object, dims: object, mode: object = 'raise', order: object = 'C') -> ndarray:
    """
    The flat indices of coordinates in an array of shape ``dims``, as numpy.ravel_multi_index.
    """

def append(arr: object, values: object, axis: object | None = None) -> ndarray:
    """
    values after arr along ``axis`` (both flattened without one), as numpy.append.
    """

def delete(arr: object, obj: object, axis: object | None = None) -> ndarray:
    """
    arr without the positions ``obj`` (an int, a slice, ints or a bool mask) along ``axis``, as numpy.delete.
    """

def insert(arr: object, obj: object, values: object, axis: object | None = None) -> ndarray:
    """
    arr with ``values`` put before the positions ``obj`` (an int: one block; a slice, ints or a bool mask: one slice before each) along ``axis`` (flattened without one), as numpy.insert.
    """

def resize(a: object, new_shape: object) -> ndarray:
    """
    A new array of ``new_shape`` filled with a's elements in C order, repeated from the start (zeros for an empty a), as numpy.resize.
    """

def may_share_memory(a: ndarray, b: ndarray, max_work: object | None = None) -> bool:
    """
    Whether the byte ranges the arrays span overlap, as numpy.may_share_memory.
    """

def shares_memory(a: ndarray, b: ndarray, max_work: object | None = None) -> bool:
    """
    Whether some element is in both arrays (exact), as numpy.shares_memory.
    """

def fix(x: object, out: object | None = None) -> object:
    """x rounded toward zero, as numpy.fix."""

def isposinf(x: object, out: object | None = None) -> object:
    """Whether each element is +inf, as numpy.isposinf."""

def isneginf(x: object, out: object | None = None) -> object:
    """Whether each element is -inf, as numpy.isneginf."""

def sinc(x: object) -> ndarray:
    """sin(pi x) / (pi x), 1 at 0, as numpy.sinc."""

def i0(x: object) -> ndarray:
    """
    The modified Bessel function of the first kind of order 0, as numpy.i0.
    """

def real_if_close(a: object, tol: float = 100.0) -> object:
    """
    The real part of a complex array whose imaginary parts are all below tol (machine epsilons where tol > 1), else the array, as numpy.real_if_close.
    """

def sort_complex(a: object) -> ndarray:
    """
    A copy sorted along the last axis (real parts, then imaginary), complex, as numpy.sort_complex.
    """

def unwrap(p: object, discont: object | None = None, axis: int = -1, *, period: object = 6.283185307179586) -> ndarray:
    """
    p with its jumps larger than discont taken modulo period along axis, as numpy.unwrap.
    """

def trim_zeros(filt: object, trim: object = 'fb', axis: object | None = None) -> ndarray:
    """
    filt without its leading ('f') and trailing ('b') zeros along axis (every axis for None), as numpy.trim_zeros.
    """

def packbits(a: object, axis: object | None = None, bitorder: object = 'big') -> ndarray:
    """
    The truth of the elements, eight to a uint8, along axis (flattened for None), as numpy.packbits.
    """

def unpackbits(a: object, axis: object | None = None, count: object | None = None, bitorder: object = 'big') -> ndarray:
    """
    Each bit of a uint8 array as a 0 or 1 uint8 along axis (flattened for None), as numpy.unpackbits.
    """

def bartlett(M: object) -> ndarray:
    """The Bartlett window, as numpy.bartlett."""

def blackman(M: object) -> ndarray:
    """The Blackman window, as numpy.blackman."""

def hamming(M: object) -> ndarray:
    """The Hamming window, as numpy.hamming."""

def hanning(M: object) -> ndarray:
    """The Hann window, as numpy.hanning."""

def kaiser(M: object, beta: float) -> ndarray:
    """The Kaiser window, as numpy.kaiser."""

def take(a: ndarray, indices: object, axis: int | None = None, out: ndarray | None = None, mode: str = 'raise') -> ndarray:
    """
    The elements of `a` at `indices` along `axis` (of the flattened array without one), as numpy.take. mode: 'raise' (IndexError; waits for the device once to check), 'wrap' or 'clip' (never wait).
    """

def put(a: ndarray, ind: object, v: object, mode: str = 'raise') -> None:
    """
    a.flat[ind] = v, the values repeated when there are fewer than indices (numpy.put). In mode 'raise' every index is checked before any element is written.
    """

def take_along_axis(arr: ndarray, indices: object, axis: int | None = -1) -> ndarray:
    """
    The elements of `arr` at `indices` along `axis`, which `indices` (of arr's number of dimensions) replaces (numpy.take_along_axis).
    """

def put_along_axis(arr: ndarray, indices: object, values: object, axis: int | None) -> None:
    """
    arr's elements at `indices` along `axis` = values, broadcast (numpy.put_along_axis).
    """

def compress(condition: object, a: ndarray, axis: int | None = None, out: ndarray | None = None) -> ndarray:
    """
    The slices of `a` along `axis` where the 1-D `condition` is nonzero (numpy.compress); waits for the count.
    """

def nonzero(a: ndarray) -> tuple[ndarray, ...]:
    """
    The indices of the nonzero elements, one int64 array per dimension (numpy.nonzero); waits for the count.
    """

def argwhere(a: ndarray) -> ndarray:
    """
    The indices of the nonzero elements as one (count, ndim) int64 array; waits for the count.
    """

def flatnonzero(a: ndarray) -> ndarray:
    """
    The positions of the nonzero elements in the flattened array, int64; waits for the count.
    """

def extract(condition: object, arr: ndarray) -> ndarray:
    """
    The elements of the flattened arr where the flattened condition is nonzero (numpy.extract); waits for the count.
    """

def place(arr: ndarray, mask: object, vals: object) -> None:
    """
    arr's elements where mask is nonzero = vals in order, repeated from the start when fewer (numpy.place).
    """

def putmask(a: ndarray, mask: object, values: object) -> None:
    """
    a.flat[n] = values.flat[n % values.size] where mask.flat[n] is true (numpy.putmask); never waits.
    """

def fill_diagonal(a: ndarray, val: object, wrap: bool = False) -> None:
    """
    a's main diagonal = val, repeated from its start when shorter (numpy.fill_diagonal; wrap: a tall matrix's diagonal starts again every columns + 1 rows).
    """

def choose(a: ndarray, choices: object, out: ndarray | None = None, mode: str = 'raise') -> ndarray:
    """
    choices[a[i]][i], a and the choices broadcast together (numpy.choose); mode 'raise' (ValueError; waits once), 'wrap' or 'clip'.
    """

def tri(N: int, M: int | None = None, k: int = 0, dtype: object = float, *, like: object = None) -> ndarray:
    """
    An N x M array with ones on and below diagonal k, zeros above (numpy.tri).
    """

def vander(x: ndarray, N: int | None = None, increasing: bool = False) -> ndarray:
    """
    The Vandermonde matrix of the 1-D `x`: its columns x ** (N-1), ..., x ** 0 (ascending when `increasing`), as numpy.vander.
    """

def logspace(start: object | None, stop: object | None, num: object | None = 50, endpoint: bool = True, base: object | None = 10.0, dtype: object | None = None, axis: object | None = 0) -> ndarray:
    """
    `num` values base ** linspace(start, stop), as numpy.logspace (start, stop and base are numbers).
    """

def geomspace(start: object | None, stop: object | None, num: object | None = 50, endpoint: bool = True, dtype: object | None = None, axis: object | None = 0) -> ndarray:
    """
    `num` values in geometric progression from start to stop (negative and complex bounds included, the endpoints exact), as numpy.geomspace.
    """

def require(a: object, dtype: object = None, requirements: object = None, *, like: object = None) -> ndarray:
    """
    `a` as a gpukit array of `dtype` meeting `requirements` (NumPy's flags: 'C', 'F', 'O' ('OWNDATA'), 'A', 'W', 'E' and their long names), copied only when one is not met. Unlike NumPy's: device arrays are always aligned and writeable, so 'A' and 'W' never copy; gpukit has one array type, so 'E' changes nothing; and a view over its whole allocation (a transpose, a reshape) counts as owning its data for 'O'.
    """

def isfortran(a: ndarray) -> bool:
    """
    Whether `a` is Fortran-contiguous and not C-contiguous too (numpy.isfortran: 1-D arrays are not).
    """

def empty(shape: object, dtype: object = float, order: str = 'C', device: Device | None = None) -> ndarray:
    """
    A new array of `shape` on the current device (or `device`); its contents are whatever the memory held.
    """

def zeros(shape: object, dtype: object = float, order: str = 'C', device: Device | None = None) -> ndarray:
    """A new array of zeros (one memset)."""

def ones(shape: object, dtype: object = float, order: str = 'C', device: Device | None = None) -> ndarray:
    """A new array of ones."""

def full(shape: object, fill_value: object, dtype: object = None, order: str = 'C', device: Device | None = None) -> ndarray:
    """
    A new array with every element `fill_value` (a number, or an array broadcast to `shape`), in `dtype` or the one NumPy gives the value.
    """

def empty_like(a: ndarray, dtype: object | None = None, order: object | None = 'K', subok: object | None = None, shape: object | None = None, *, device: object | None = None) -> ndarray:
    """
    A new array like `a` (its shape, dtype and, for order 'K', layout unless given), on a's device (or `device`).
    """

def zeros_like(a: ndarray, dtype: object | None = None, order: object | None = 'K', subok: object | None = None, shape: object | None = None, *, device: object | None = None) -> ndarray:
    """
    A new array like `a` (its shape, dtype and, for order 'K', layout unless given), on a's device (or `device`).
    """

def ones_like(a: ndarray, dtype: object | None = None, order: object | None = 'K', subok: object | None = None, shape: object | None = None, *, device: object | None = None) -> ndarray:
    """
    A new array like `a` (its shape, dtype and, for order 'K', layout unless given), on a's device (or `device`).
    """

def full_like(a: ndarray, fill_value: object | None, dtype: object | None = None, order: object | None = 'K', subok: object | None = None, shape: object | None = None, *, device: object | None = None) -> ndarray:
    """A new array like `a` with every element `fill_value`."""

def arange(start: object | None, stop: object | None = None, step: object | None = None, dtype: object | None = None, *, device: object | None = None) -> ndarray:
    """
    Evenly spaced values in [start, stop), NumPy's values bit for bit: ceil((stop - start) / step) of them.
    """

def linspace(start: object | None, stop: object | None, num: object | None = 50, endpoint: bool = True, retstep: bool = False, dtype: object | None = None, axis: object | None = 0, *, device: object | None = None) -> object:
    """
    `num` evenly spaced values from start to stop (included when `endpoint`), NumPy's formula bit for bit; with `retstep`, (values, step).
    """

def eye(N: int, M: int | None = None, k: int = 0, dtype: object = float, order: str = 'C', *, device: Device | None = None) -> ndarray:
    """An N x M array with ones on diagonal k, zeros elsewhere."""

def identity(n: object | None, dtype: object | None = None) -> ndarray:
    """The n x n identity matrix."""

def asarray_from_host(host: object, dtype: object | None, order: object | None, device: Device) -> ndarray:
    """
    A device copy of a NumPy array (of a dtype arrays hold), converted to `dtype` on the device, laid out in `order` (K: as the host array is).
    """

def asarray_of_array(a: ndarray, dtype: object | None, order: object | None) -> ndarray:
    """
    `a` itself when it has `dtype` and lies in `order`, else a converted copy.
    """

def ascontiguousarray(a: ndarray, dtype: object | None = None) -> ndarray:
    """`a` (at least 1-D) C-contiguous: itself when it is, else a copy."""

def asfortranarray(a: ndarray, dtype: object | None = None) -> ndarray:
    """`a` (at least 1-D) F-contiguous: itself when it is, else a copy."""

def copy(a: ndarray, order: str = 'K', subok: bool = False) -> ndarray:
    """
    A new array with the elements of ``a``, laid out in ``order`` ('C', 'F', 'A', 'K'), as numpy.copy.
    """

def hsplit(ary: object | None, indices_or_sections: object | None) -> list:
    """
    Views of `ary` split along its columns (axis 1; axis 0 of a 1-D array).
    """

def vsplit(ary: object | None, indices_or_sections: object | None) -> list:
    """Views of `ary` (at least 2-D) split along its rows (axis 0)."""

def dsplit(ary: object | None, indices_or_sections: object | None) -> list:
    """Views of `ary` (at least 3-D) split along its depth (axis 2)."""

def block(arrays: object) -> ndarray:
    """
    Nested lists of arrays joined as blocks: the innermost lists along the last axis, the next along the one before, ... (numpy.block).
    """

def rollaxis(a: object | None, axis: object | None, start: object | None = 0) -> ndarray:
    """
    `a` with axis `axis` moved to just before position `start`: a view (numpy.rollaxis).
    """

def broadcast_shapes(*args: int | tuple[int, ...]) -> tuple[int, ...]:
    """The shape the shapes broadcast to together (numpy.broadcast_shapes)."""

def tril_indices(n: object | None, k: object | None = 0, m: object | None = None) -> tuple:
    """
    The (row, column) indices of the lower triangle of an n x m matrix from diagonal k (numpy.tril_indices).
    """

def tril_indices_from(arr: object | None, k: object | None = 0) -> tuple:
    """
    The indices of the lower triangle of the 2-D `arr` from diagonal k (numpy.tril_indices_from).
    """

def triu_indices(n: object | None, k: object | None = 0, m: object | None = None) -> tuple:
    """
    The (row, column) indices of the upper triangle of an n x m matrix from diagonal k (numpy.triu_indices).
    """

def triu_indices_from(arr: object | None, k: object | None = 0) -> tuple:
    """
    The indices of the upper triangle of the 2-D `arr` from diagonal k (numpy.triu_indices_from).
    """

def diag_indices(n: object | None, ndim: object | None = 2) -> tuple:
    """
    `ndim` times arange(n): the indices of the main diagonal of an n x ... x n array (numpy.diag_indices).
    """

def diag_indices_from(arr: object | None) -> tuple:
    """
    The indices of the main diagonal of `arr`, whose extents are equal (numpy.diag_indices_from).
    """

def squeeze(a: object | None, axis: object | None = None) -> ndarray:
    """`a` without dimensions of extent 1 (all, or those of `axis`): a view."""

def expand_dims(a: object | None, axis: object | None) -> ndarray:
    """`a` with new dimensions of extent 1 at `axis`: a view."""

def swapaxes(a: object | None, axis1: object | None, axis2: object | None) -> ndarray:
    """`a` with two axes interchanged: a view."""

def matrix_transpose(x: object | None) -> ndarray:
    """
    The matrices of the last two axes transposed (the Array API's matrix_transpose): a view.
    """

def unstack(x: object | None, *, axis: object | None = 0) -> tuple:
    """
    The views x[i] along `axis`, one per index, as a tuple (the Array API's unstack).
    """

def moveaxis(a: object | None, source: object | None, destination: object | None) -> ndarray:
    """
    `a` with the axes at `source` moved to `destination`, the others in their order: a view.
    """

def transpose(a: object | None, axes: object | None = None) -> ndarray:
    """`a` with its axes permuted (reversed by default): a view."""

def broadcast_to(array: object | None, shape: object | None) -> ndarray:
    """`array` repeated (stride 0) to `shape`: a view."""

def broadcast_arrays(*args) -> tuple:
    """The arrays broadcast to their common shape: views."""

def atleast_1d(*args) -> object:
    """Each array with at least 1 dimension (views)."""

def atleast_2d(*args) -> object:
    """Each array with at least 2 dimensions (views)."""

def atleast_3d(*args) -> object:
    """Each array with at least 3 dimensions (views)."""

def flip(m: object | None, axis: object | None = None) -> ndarray:
    """`m` reversed along `axis` (every axis by default): a view."""

def rot90(m: object | None, k: object | None = 1, axes: object | None = (0, 1)) -> ndarray:
    """
    `m` rotated by 90 degrees k times from the first axis toward the second: a view.
    """

def diagonal(a: object | None, offset: object | None = 0, axis1: object | None = 0, axis2: object | None = 1) -> ndarray:
    """
    The diagonal at `offset` of the matrices in (axis1, axis2), as the last axis: a view.
    """

def real(val: object | None) -> ndarray:
    """
    The real part: a view of a complex array's memory, the array itself otherwise.
    """

def imag(val: object | None) -> ndarray:
    """
    The imaginary part: a view of a complex array's memory, zeros (a new array) otherwise.
    """

def flatten(a: object | None, order: object | None = 'C') -> ndarray:
    """A 1-D copy in `order`."""

def concatenate(arrays: object | None, axis: object | None = 0, out: object | None = None, *, dtype: object | None = None, casting: object | None = 'same_kind') -> ndarray:
    """
    The arrays joined along `axis` (flattened first for None), into `out` or a new array.
    """

def stack(arrays: object | None, axis: object | None = 0, out: object | None = None, *, dtype: object | None = None, casting: object | None = 'same_kind') -> ndarray:
    """The arrays joined along a new axis."""

def vstack(tup: object | None, *, dtype: object | None = None, casting: object | None = 'same_kind') -> ndarray:
    """The arrays stacked as rows (axis 0)."""

def hstack(tup: object | None, *, dtype: object | None = None, casting: object | None = 'same_kind') -> ndarray:
    """The arrays stacked as columns (axis 1; 0 for 1-D arrays)."""

def dstack(tup: object | None, *, dtype: object | None = None, casting: object | None = 'same_kind') -> ndarray:
    """The arrays stacked in depth (axis 2)."""

def column_stack(tup: object | None) -> ndarray:
    """
    1-D arrays as columns of a 2-D array (2-D arrays as they are), joined along axis 1.
    """

def split(ary: object | None, indices_or_sections: object | None, axis: object | None = 0) -> list:
    """Views of `ary` in equal sections, or between indices, along `axis`."""

def array_split(ary: object | None, indices_or_sections: object | None, axis: object | None = 0) -> list:
    """As split, but sections may differ by one element."""

def tile(A: object | None, reps: object | None) -> ndarray:
    """`A` repeated `reps` times along each axis."""

def repeat(a: object | None, repeats: object | None, axis: object | None = None) -> ndarray:
    """
    Each element repeated (one count, or one per element) along `axis`, or over the flattened array.
    """

def pad_pairs(array: object | None, widths: Sequence[tuple[int, int]], mode: str, constants: object | None, stat_length: object | None = None, odd: bool = False) -> ndarray:
    """
    pad with one (before, after) pair per axis (gpukit.pad normalises NumPy's forms into these).
    """

def roll(a: object | None, shift: object | None, axis: object | None = None) -> ndarray:
    """
    Elements shifted along `axis` (the flattened array by default), wrapping around.
    """

def tril(m: object | None, k: object | None = 0) -> ndarray:
    """
    The lower triangle of the last two dimensions from diagonal k, zeros above.
    """

def triu(m: object | None, k: object | None = 0) -> ndarray:
    """
    The upper triangle of the last two dimensions from diagonal k, zeros below.
    """

def diag(v: ndarray, k: int = 0) -> ndarray:
    """
    Of a 1-D array, the square matrix with it on diagonal ``k`` and zeros elsewhere; of a 2-D array, a copy of its diagonal ``k`` (numpy.diag).
    """

def diagflat(v: ndarray, k: int = 0) -> ndarray:
    """
    The flattened array on diagonal ``k`` of a new square matrix, zeros elsewhere (numpy.diagflat).
    """

def iscomplex(x: ndarray) -> ndarray:
    """
    Whether each element has a nonzero imaginary part (false for real dtypes), as numpy.iscomplex.
    """

def isreal(x: ndarray) -> ndarray:
    """
    Whether each element has a zero imaginary part (true for real dtypes), as numpy.isreal.
    """

def iscomplexobj(x: object) -> bool:
    """
    Whether x's dtype is complex, whatever its values (numpy.iscomplexobj).
    """

def isrealobj(x: object) -> bool:
    """
    Whether x's dtype is not complex, whatever its values (numpy.isrealobj).
    """

def isscalar(element: object) -> bool:
    """
    Whether ``element`` is a scalar (a Python or NumPy number, str, bytes): arrays are not (numpy.isscalar).
    """

def shape(a: object) -> tuple[int, ...]:
    """The shape of an array (numpy.shape)."""

def ndim(a: object) -> int:
    """The number of dimensions (numpy.ndim)."""

def size(a: object, axis: int | tuple[int, ...] | None = None) -> int:
    """The number of elements, along ``axis`` where given (numpy.size)."""

def meshgrid(*args, **kwargs) -> tuple:
    """
    Coordinate arrays from coordinate vectors (indexing 'xy' or 'ij', sparse, copy).
    """

def indices(dimensions: object | None, dtype: object | None = int, sparse: bool = False) -> object:
    """
    The grid's coordinates: an array of shape (len(dimensions), *dimensions), or one array per dimension when sparse.
    """

def copyto(dst: object | None, src: object | None, casting: object | None = 'same_kind', where: object | None = True) -> None:
    """
    dst[...] = src, broadcast and cast under `casting`, where `where` is True.
    """

def sum(a: object | None, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: object = False, initial: object | None = None, where: object | None = True) -> ndarray:
    """The sum of the elements over `axis` (all when None), as numpy.sum."""

def prod(a: object | None, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: object = False, initial: object | None = None, where: object | None = True) -> ndarray:
    """
    The product of the elements over `axis` (all when None), as numpy.prod.
    """

def nansum(a: object | None, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: object = False, initial: object | None = None, where: object | None = True) -> ndarray:
    """The sum over `axis`, a nan counting as zero, as numpy.nansum."""

def nanprod(a: object | None, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: object = False, initial: object | None = None, where: object | None = True) -> ndarray:
    """The product over `axis`, a nan counting as one, as numpy.nanprod."""

def max(a: object | None, axis: object | None = None, out: object | None = None, keepdims: object = False, initial: object | None = None, where: object | None = True) -> ndarray:
    """The largest element over `axis` (a nan wins), as numpy.max."""

def amax(a: object | None, axis: object | None = None, out: object | None = None, keepdims: object = False, initial: object | None = None, where: object | None = True) -> ndarray:
    """The largest element over `axis` (a nan wins), as numpy.amax."""

def min(a: object | None, axis: object | None = None, out: object | None = None, keepdims: object = False, initial: object | None = None, where: object | None = True) -> ndarray:
    """The smallest element over `axis` (a nan wins), as numpy.min."""

def amin(a: object | None, axis: object | None = None, out: object | None = None, keepdims: object = False, initial: object | None = None, where: object | None = True) -> ndarray:
    """The smallest element over `axis` (a nan wins), as numpy.amin."""

def nanmax(a: object | None, axis: object | None = None, out: object | None = None, keepdims: object = False, initial: object | None = None, where: object | None = True) -> ndarray:
    """The largest element over `axis`, skipping nans, as numpy.nanmax."""

def nanmin(a: object | None, axis: object | None = None, out: object | None = None, keepdims: object = False, initial: object | None = None, where: object | None = True) -> ndarray:
    """The smallest element over `axis`, skipping nans, as numpy.nanmin."""

def any(a: object | None, axis: object | None = None, out: object | None = None, keepdims: object = False, *, where: object | None = True) -> ndarray:
    """Whether any element over `axis` is true (nonzero), as numpy.any."""

def all(a: object | None, axis: object | None = None, out: object | None = None, keepdims: object = False, *, where: object | None = True) -> ndarray:
    """Whether every element over `axis` is true (nonzero), as numpy.all."""

def mean(a: object | None, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: object = False, *, where: object | None = True) -> ndarray:
    """The arithmetic mean over `axis`, as numpy.mean (integers in float64)."""

def nanmean(a: object | None, axis: object | None = None, dtype: object | None = None, out: object | None = None, keepdims: object = False, *, where: object | None = True) -> ndarray:
    """
    The mean over `axis` of the elements that are no nan, as numpy.nanmean.
    """

def ptp(a: object | None, axis: object | None = None, out: object | None = None, keepdims: object = False) -> ndarray:
    """The range (max - min) over `axis`, as numpy.ptp."""

def var(a: object | None, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: object | None = 0, keepdims: object = False, *, where: object | None = True, correction: object | None = None) -> ndarray:
    """
    The variance over `axis`: the mean of |x - x.mean()|**2 times n / (n - ddof), as numpy.var.
    """

def std(a: object | None, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: object | None = 0, keepdims: object = False, *, where: object | None = True, correction: object | None = None) -> ndarray:
    """
    The standard deviation over `axis`: the square root of var, as numpy.std.
    """

def nanvar(a: object | None, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: object | None = 0, keepdims: object = False, *, where: object | None = True, correction: object | None = None) -> ndarray:
    """
    The variance over `axis` of the elements that are no nan, as numpy.nanvar.
    """

def nanstd(a: object | None, axis: object | None = None, dtype: object | None = None, out: object | None = None, ddof: object | None = 0, keepdims: object = False, *, where: object | None = True, correction: object | None = None) -> ndarray:
    """The standard deviation over `axis`, skipping nans, as numpy.nanstd."""

def argmax(a: object | None, axis: object | None = None, out: object | None = None, *, keepdims: object = False) -> ndarray:
    """
    The index of the largest element over `axis` (its first; a nan's first), as numpy.argmax.
    """

def argmin(a: object | None, axis: object | None = None, out: object | None = None, *, keepdims: object = False) -> ndarray:
    """
    The index of the smallest element over `axis` (its first; a nan's first), as numpy.argmin.
    """

def nanargmax(a: object | None, axis: object | None = None, out: object | None = None, *, keepdims: object = False) -> ndarray:
    """The index of the largest element that is no nan, as numpy.nanargmax."""

def nanargmin(a: object | None, axis: object | None = None, out: object | None = None, *, keepdims: object = False) -> ndarray:
    """The index of the smallest element that is no nan, as numpy.nanargmin."""

def count_nonzero(a: object | None, axis: object | None = None, *, keepdims: object = False) -> ndarray:
    """
    The number of nonzero elements over `axis` (int64; a 0-d array for all of them, as CuPy's).
    """

def average(a: object | None, axis: object | None = None, weights: object | None = None, returned: object = False, *, keepdims: object = False) -> object:
    """
    The weighted average over `axis` (the mean without weights), as numpy.average; with returned=True also the sum of the weights.
    """

def cumsum(a: object | None, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> ndarray:
    """
    The cumulative sum along `axis` (the flattened array when None), as numpy.cumsum.
    """

def cumprod(a: object | None, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> ndarray:
    """
    The cumulative product along `axis` (the flattened array when None), as numpy.cumprod.
    """

def nancumsum(a: object | None, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> ndarray:
    """The cumulative sum taking nan as 0, as numpy.nancumsum."""

def nancumprod(a: object | None, axis: object | None = None, dtype: object | None = None, out: object | None = None) -> ndarray:
    """The cumulative product taking nan as 1, as numpy.nancumprod."""

def cumulative_sum(x: object | None, *, axis: object | None = None, dtype: object | None = None, out: object | None = None, include_initial: bool = False) -> ndarray:
    """
    The cumulative sum along `axis` (which arrays of two or more dimensions must name), with 0 first when include_initial, as numpy.cumulative_sum (the Array API's).
    """

def cumulative_prod(x: object | None, *, axis: object | None = None, dtype: object | None = None, out: object | None = None, include_initial: bool = False) -> ndarray:
    """
    The cumulative product along `axis` (which arrays of two or more dimensions must name), with 1 first when include_initial, as numpy.cumulative_prod (the Array API's).
    """

def diff(a: object | None, n: object = 1, axis: object = -1, prepend: object | None = None, append: object | None = None) -> ndarray:
    """
    The n-th differences of neighbours along `axis` (bools: whether they differ), as numpy.diff; prepend and append (arrays, or numbers repeated along the axis) are joined on first.
    """

def ediff1d(ary: object | None, to_end: object | None = None, to_begin: object | None = None) -> ndarray:
    """
    The differences of neighbours of the flattened array, with to_begin and to_end around them (cast to its dtype), as numpy.ediff1d.
    """

def sort(a: object | None, axis: object | None = -1, kind: object | None = None, order: object | None = None, *, stable: object | None = None, descending: object = False) -> ndarray:
    """
    A sorted copy along `axis` (None: flattened), as numpy.sort; always stable, NaN last.
    """

def argsort(a: object | None, axis: object | None = -1, kind: object | None = None, order: object | None = None, *, stable: object | None = None, descending: object = False) -> ndarray:
    """
    The indices that sort along `axis` (None: flattened), as numpy.argsort(kind='stable').
    """

def lexsort(keys: object, axis: int = -1) -> ndarray:
    """
    The indices that sort by several keys, the last one primary, as numpy.lexsort.
    """

def partition(a: object | None, kth: object, axis: object | None = -1, kind: object = 'introselect', order: object | None = None) -> ndarray:
    """
    A copy partitioned around each kth, as numpy.partition (a stable sort).
    """

def argpartition(a: object | None, kth: object, axis: object | None = -1, kind: object = 'introselect', order: object | None = None) -> ndarray:
    """
    Indices that partition around each kth, as numpy.argpartition (a stable sort).
    """

def searchsorted(a: object | None, v: object | None, side: object = 'left', sorter: object | None = None) -> ndarray:
    """Where each v would go in the sorted 1-D array, as numpy.searchsorted."""

def unique(ar: object | None, return_index: bool = False, return_inverse: bool = False, return_counts: bool = False, axis: object | None = None, *, equal_nan: bool = True, sorted: bool = True) -> object:
    """
    The sorted unique elements or subarrays along `axis` (and first indices, inverse, counts), as numpy.unique.
    """

class UniqueAllResult(tuple):
    """UniqueAllResult(values, indices, inverse_indices, counts)"""

    __slots__: tuple = ()

    values: ndarray

    indices: ndarray

    inverse_indices: ndarray

    counts: ndarray

def unique_all(x: object | None) -> object:
    """
    The unique elements with their first indices, the inverse and the counts, as numpy.unique_all.
    """

class UniqueCountsResult(tuple):
    """UniqueCountsResult(values, counts)"""

    __slots__: tuple = ()

    values: ndarray

    counts: ndarray

def unique_counts(x: object | None) -> object:
    """The unique elements and how often each occurs, as numpy.unique_counts."""

class UniqueInverseResult(tuple):
    """UniqueInverseResult(values, inverse_indices)"""

    __slots__: tuple = ()

    values: ndarray

    inverse_indices: ndarray

def unique_inverse(x: object | None) -> object:
    """
    The unique elements and the indices into them that rebuild x, as numpy.unique_inverse.
    """

def unique_values(x: object | None) -> object:
    """The unique elements (each NaN its own), as numpy.unique_values."""

def isin(element: object | None, test_elements: object | None, assume_unique: bool = False, invert: bool = False, *, kind: object | None = None) -> ndarray:
    """
    Whether each element is in test_elements (NaN never is), as numpy.isin.
    """

def in1d(ar1: object | None, ar2: object | None, assume_unique: bool = False, invert: bool = False, *, kind: object | None = None) -> ndarray:
    """
    Whether each element of the flattened ar1 is in ar2, as NumPy 1's in1d.
    """

def intersect1d(ar1: object | None, ar2: object | None, assume_unique: bool = False, return_indices: bool = False) -> object:
    """The sorted unique values in both arrays, as numpy.intersect1d."""

def union1d(ar1: object | None, ar2: object | None) -> ndarray:
    """The sorted unique values in either array, as numpy.union1d."""

def setdiff1d(ar1: object | None, ar2: object | None, assume_unique: bool = False) -> ndarray:
    """The unique values of ar1 that are not in ar2, as numpy.setdiff1d."""

def setxor1d(ar1: object | None, ar2: object | None, assume_unique: bool = False) -> ndarray:
    """The sorted values in exactly one of the arrays, as numpy.setxor1d."""

def bincount(x: object | None, weights: object | None = None, minlength: object = 0) -> ndarray:
    """
    How often each non-negative integer occurs in x (or the sum of its weights), as numpy.bincount.
    """

def histogram(a: object | None, bins: object | None = 10, range: object | None = None, density: object | None = None, weights: object | None = None) -> tuple:
    """
    The histogram of the flattened a and its bin edges, as numpy.histogram (bins: a count, edges, or one of NumPy's estimators).
    """

def histogram_bin_edges(a: object | None, bins: object | None = 10, range: object | None = None, weights: object | None = None) -> ndarray:
    """The bin edges numpy.histogram would use, as numpy.histogram_bin_edges."""

def histogramdd(sample: object | None, bins: object | None = 10, range: object | None = None, density: object | None = None, weights: object | None = None) -> tuple:
    """
    The D-dimensional histogram of the samples and each dimension's edges, as numpy.histogramdd.
    """

def histogram2d(x: object | None, y: object | None, bins: object | None = 10, range: object | None = None, density: object | None = None, weights: object | None = None) -> tuple:
    """
    The two-dimensional histogram of (x, y) and its x and y edges, as numpy.histogram2d.
    """

def digitize(x: object | None, bins: object | None, right: object = False) -> ndarray:
    """
    The index of the bin each x falls in, as numpy.digitize (bins increasing or decreasing).
    """

def convolve(a: object, v: object, mode: object = 'full') -> ndarray:
    """The discrete linear convolution of two 1-D arrays, as numpy.convolve."""

def correlate(a: object, v: object, mode: object = 'valid') -> ndarray:
    """
    The cross-correlation of two 1-D arrays, as numpy.correlate (v conjugated).
    """

class DevicePointer:
    """
    A raw device address for a pointer parameter: memory gpukit did not allocate, or a view whose layout the kernel is told separately (its strides as further arguments).

    Kernel launches refuse plain ints, None and non-contiguous views for pointer parameters; ``DevicePointer(address)`` says the int is an address, unchecked. It holds nothing alive: the memory must outlive the launch. ``gpukit.nullptr`` is ``DevicePointer(0)``.
    """

    def __init__(self, address: int) -> None: ...

    @property
    def address(self) -> int:
        """The address, as an int."""

    def __int__(self) -> int: ...

    def __index__(self) -> int: ...

    def __eq__(self, arg: object, /) -> object: ...

    def __hash__(self) -> int: ...

    def __repr__(self) -> str: ...

class CompileOptions:
    """How a module is compiled."""

    def __init__(self) -> None: ...

    @property
    def defines(self) -> list[tuple[str, str]]: ...

    @defines.setter
    def defines(self, arg: Sequence[tuple[str, str]], /) -> None: ...

    @property
    def include_dirs(self) -> list[pathlib.Path]: ...

    @include_dirs.setter
    def include_dirs(self, arg: Sequence[str | os.PathLike], /) -> None: ...

    @property
    def std(self) -> str: ...

    @std.setter
    def std(self, arg: str, /) -> None: ...

    @property
    def fast_math(self) -> bool: ...

    @fast_math.setter
    def fast_math(self, arg: bool, /) -> None: ...

    @property
    def line_info(self) -> bool: ...

    @line_info.setter
    def line_info(self, arg: bool, /) -> None: ...

    @property
    def name_expressions(self) -> list[str]: ...

    @name_expressions.setter
    def name_expressions(self, arg: Sequence[str], /) -> None: ...

    @property
    def extra_options(self) -> list[str]: ...

    @extra_options.setter
    def extra_options(self, arg: Sequence[str], /) -> None: ...

    @property
    def program_name(self) -> str: ...

    @program_name.setter
    def program_name(self, arg: str, /) -> None: ...

    @property
    def target(self) -> str: ...

    @target.setter
    def target(self, arg: str, /) -> None: ...

    @property
    def check(self) -> str:
        """
        Check-mode tools for the simulator: 'memcheck,racecheck', 'all', or 'none'.
        """

    @check.setter
    def check(self, arg: str, /) -> None: ...

    def header(self, name: str, source: str) -> None:
        """Adds a header that `#include "name"` finds."""

    def to_arguments(self) -> list[str]: ...

class KernelParam:
    """
    One kernel parameter: its place in the argument buffer, size and declaration.
    """

    @property
    def offset(self) -> int: ...

    @property
    def size(self) -> int: ...

    @property
    def type(self) -> str: ...

    @property
    def name(self) -> str: ...

    def describe(self, index: int) -> str: ...

    def __repr__(self) -> str: ...

class KernelAttributes:
    @property
    def num_registers(self) -> int: ...

    @property
    def static_shared_bytes(self) -> int: ...

    @property
    def local_bytes_per_thread(self) -> int: ...

    @property
    def constant_bytes(self) -> int: ...

    @property
    def max_threads_per_block(self) -> int: ...

    @property
    def max_dynamic_shared_bytes(self) -> int: ...

    @property
    def ptx_version(self) -> int: ...

    @property
    def binary_version(self) -> int: ...

class Module:
    """Compiled, loaded code."""

    @staticmethod
    def compile(source: str, options: CompileOptions, device: Device | None) -> Module: ...

    @property
    def device(self) -> Device: ...

    @property
    def compile_log(self) -> str: ...

    def kernel(self, name: str) -> Kernel: ...

    def kernel_names(self) -> list[str]: ...

class Kernel:
    """A kernel of a loaded module; keeps its module loaded."""

    @property
    def name(self) -> str: ...

    @property
    def lowered_name(self) -> str: ...

    @property
    def device(self) -> Device: ...

    @property
    def params(self) -> list[KernelParam]: ...

    @property
    def attributes(self) -> KernelAttributes: ...

    def set_max_dynamic_shared_bytes(self, bytes: int) -> None: ...

    def suggest_block_size(self, dynamic_shared_bytes: int = 0, block_size_limit: int = 0) -> tuple[int, int]: ...

    def max_active_blocks_per_multiprocessor(self, block_threads: int, dynamic_shared_bytes: int = 0) -> int: ...

    @property
    def native_handle(self) -> int: ...

    def launch(self, grid: object, block: object, args: object, shared_mem: int = 0, stream: Stream | None = None, check: str | None = None) -> None:
        """
        Checks and enqueues one launch on `stream` (a gpukit.Stream; None: the current stream) (see gpukit.RawKernel.__call__).
        """

class JitLaunchCache:
    """
    The launch fast path of one gpukit.jit kernel: its specialisations by argument keys (gpukit/_jit/dispatcher.py records them after the first launch of each).
    """

    def __init__(self) -> None: ...

    def launch(self, grid: object, block: object, args: tuple, shared_mem: int, stream: Stream | None) -> bool:
        """
        Launches `args` if a recorded specialisation takes them, as RawKernel.__call__ would; False, having done nothing, if none does or an argument needs the slow path.
        """

    def add(self, args: tuple, kernel: Kernel, scalar_dtypes: list[str | None], dynamic_shared: bool) -> bool:
        """
        Records that arguments like `args` launch `kernel`, scalars passed as `scalar_dtypes` (None for an array), with the dynamic shared bytes appended where `dynamic_shared`. False where the fast path cannot take them.
        """

    def __len__(self) -> int: ...

def jit_offsets_fit_int32(array: ndarray) -> bool:
    """
    Whether every element offset of `array` is below 2^31: a jit kernel then indexes it in 32 bits.
    """

class ElementwiseKernel:
    """
    A user-defined elementwise kernel, as CuPy's ElementwiseKernel.

        squared_diff = gpukit.ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff")
        z = squared_diff(x, y)          # broadcast; z allocated
        squared_diff(x, 5.0, z)         # a scalar; z given

    Parameters are "float32 x, T y, raw T z": a dtype name or a one-letter type placeholder (decided by
    the arrays' dtypes; a typedef the operation may use), optionally after ``raw``. Non-raw arrays
    broadcast together and the operation sees element ``i`` of each by name (outputs as references);
    a raw array is indexed by the operation (``y[_ind.size() - i - 1]``). Arrays must have their
    parameter's dtype exactly; Python numbers take their parameter's type. float16 and bfloat16 compute
    in float. ``options`` are compile options, checked as RawModule's. Kernels compile on first use per
    argument dtypes and layout class and are cached in the process and on disk.
    """

    def __init__(self, in_params: object, out_params: object, operation: object, name: object = 'kernel', reduce_dims: object = True, preamble: object = '', no_return: object = False, return_tuple: object = False, *, options: object = (), loop_prep: object = '', after_loop: object = '') -> None:
        """
        Reads the parameter lists and checks the name (a C identifier) and the compile options; the kernel compiles at its first call.
        """

    def __call__(self, *args, size: object | None = None, block_size: object | None = None, stream: object | None = None) -> object:
        """
        Runs the kernel on the inputs (then, optionally, every output) on the current stream (or stream=), without waiting. size= sets the loop's length when every array is raw; block_size= the threads per block. Returns the output, a tuple of them, or None as the kernel was made to.
        """

    @property
    def name(self) -> str:
        """The kernel's name (its symbol in the compiled code)."""

    @property
    def operation(self) -> str:
        """The operation's CUDA C."""

    @property
    def preamble(self) -> str:
        """The code before the kernel."""

    @property
    def nin(self) -> int:
        """The number of inputs."""

    @property
    def nout(self) -> int:
        """The number of outputs."""

    @property
    def nargs(self) -> int:
        """The number of inputs and outputs."""

    @property
    def reduce_dims(self) -> bool:
        """Whether the loop's dimensions are merged where the arrays allow."""

    @property
    def no_return(self) -> bool:
        """Whether a call returns None."""

    @property
    def return_tuple(self) -> bool:
        """Whether a call returns a tuple even for one output."""

    def __repr__(self) -> str: ...

class ReductionKernel:
    """
    A user-defined reduction, as CuPy's ReductionKernel.

        l1_norm = gpukit.ReductionKernel("T x", "T y", "abs(x)", "a + b", "y = a", "0", "l1_norm")
        total = l1_norm(x)              # every element: a 0-d array
        rows = l1_norm(x, axis=1)       # one per row

    map_expr maps an element of each input (by its parameter's name) to a value of reduce_type (the
    output's type by default); reduce_expr combines two values, a and b, and must be associative (the
    order is a tree); post_map_expr sets the output from a; identity is the value of no elements (None:
    an empty reduction is an error). Inputs broadcast together; arrays must have their parameter's
    dtype exactly; Python numbers take their parameter's type. Kernels compile on first use per
    argument dtypes and layout class and are cached in the process and on disk.
    """

    def __init__(self, in_params: object, out_params: object, map_expr: object, reduce_expr: object, post_map_expr: object, identity: object | None, name: object = 'reduce_kernel', reduce_type: object | None = None, reduce_dims: object = True, preamble: object = '', options: object = ()) -> None:
        """
        Reads the parameter lists and checks the name (a C identifier) and the compile options; the kernel compiles at its first call.
        """

    def __call__(self, *args, out: object | None = None, axis: object | None = None, keepdims: object = False, stream: object | None = None) -> ndarray:
        """
        Reduces the inputs over `axis` (all when None) on the current stream (or stream=), without waiting, and returns the result (out= when given).
        """

    @property
    def name(self) -> str:
        """The kernel's name."""

    @property
    def nin(self) -> int:
        """The number of inputs."""

    def __repr__(self) -> str: ...

def dot(a: object | None, b: object | None) -> ndarray:
    """
    The dot product, as numpy.dot: the sum over a's last axis and b's second-to-last.
    """

def vdot(a: object | None, b: object | None) -> ndarray:
    """
    The dot product of the flattened arrays, the first conjugated, as numpy.vdot.
    """

def inner(a: object | None, b: object | None) -> ndarray:
    """The sum over both arrays' last axes, as numpy.inner."""

def matmul(x1: object | None, x2: object | None, out: object | None = None, *, casting: object = 'same_kind', dtype: object | None = None) -> ndarray:
    """
    The matrix product of the last two axes, the others a broadcast batch, as numpy.matmul (the @ operator).
    """

def set_matmul_precision(precision: str) -> None:
    """
    How float32 and complex64 matrix products may trade precision for speed, as torch.set_float32_matmul_precision: 'highest' (float32 throughout, the default) or 'high' / 'tf32' (TF32 tensor cores). Process-wide.
    """

def get_matmul_precision() -> str:
    """The matmul precision set_matmul_precision chose."""

def set_matmul_library(library: str) -> None:
    """
    Which code computes float and complex matrix products: 'vendor' (the backend's BLAS, cuBLAS on CUDA, where it has one; the default) or 'own' (gpukit's kernels). Process-wide.
    """

def get_matmul_library() -> str:
    """The matmul library set_matmul_library chose."""

def tensordot(a: object | None, b: object | None, axes: object = 2) -> ndarray:
    """
    The sum of products over the given axes, as numpy.tensordot (one matrix product).
    """

def einsum(*operands: object, out: ndarray | None = None, dtype: object = None, order: str = 'K', casting: str = 'safe', optimize: object = False) -> ndarray:
    """
    Einstein summation, as numpy.einsum: diagonals as views, sums, then matrix products.
    """

def vecdot(x1: object | None, x2: object | None, *, axis: object | None = -1) -> ndarray:
    """
    The sums over `axis` of conj(x1) * x2, the other axes broadcast, as numpy.vecdot.
    """

def cross(a: object | None, b: object | None, axisa: object | None = -1, axisb: object | None = -1, axisc: object | None = -1, axis: object | None = None) -> ndarray:
    """The cross products of vectors of 2 or 3 components, as numpy.cross."""

def outer(a: object | None, b: object | None, out: object | None = None) -> ndarray:
    """
    Every element of the flattened a times every element of the flattened b, as numpy.outer.
    """

def kron(a: object | None, b: object | None) -> ndarray:
    """The Kronecker product, as numpy.kron."""

def trace(a: object | None, offset: object = 0, axis1: object = 0, axis2: object = 1, dtype: object | None = None, out: object | None = None) -> ndarray:
    """The sums along the diagonals, as numpy.trace."""

def polyval(p: object | None, x: object | None) -> ndarray:
    """
    The polynomial with coefficients p (highest power first) at x, by Horner's rule, as numpy.polyval.
    """

def polyfit(x: object | None, y: object | None, deg: object, rcond: object | None = None, full: object = False, w: object | None = None, cov: object = False) -> object:
    """
    The least-squares polynomial fit of degree deg (coefficients highest power first), as numpy.polyfit: with full=True also (residuals, rank, singular values, rcond); with cov, the covariance matrix.
    """

def poly(seq_of_zeros: object) -> object:
    """
    The coefficients of the monic polynomial with these roots (or a square matrix's eigenvalues), as numpy.poly.
    """

def polyadd(a1: object, a2: object) -> ndarray:
    """The sum of two polynomials, as numpy.polyadd."""

def polysub(a1: object, a2: object) -> ndarray:
    """The difference of two polynomials, as numpy.polysub."""

def polymul(a1: object, a2: object) -> ndarray:
    """The product of two polynomials, as numpy.polymul."""

def polydiv(u: object, v: object) -> tuple[ndarray, ndarray]:
    """
    (quotient, remainder) of the polynomial division u / v, as numpy.polydiv.
    """

def polyder(p: object, m: object = 1) -> ndarray:
    """The m-th derivative of a polynomial, as numpy.polyder."""

def polyint(p: object, m: object = 1, k: object | None = None) -> ndarray:
    """
    The m-th antiderivative of a polynomial with integration constants k, as numpy.polyint.
    """

def roots(p: object) -> ndarray:
    """
    The roots of a polynomial (its companion matrix's eigenvalues), as numpy.roots.
    """

def quantile(a: object | None, q: object | None, axis: object | None = None, out: object | None = None, overwrite_input: object = False, method: object = 'linear', keepdims: object = False, *, interpolation: object | None = None) -> ndarray:
    """The q-th quantiles (q in [0, 1]) over `axis`, as numpy.quantile."""

def nanquantile(a: object | None, q: object | None, axis: object | None = None, out: object | None = None, overwrite_input: object = False, method: object = 'linear', keepdims: object = False, *, interpolation: object | None = None) -> ndarray:
    """The q-th quantiles over `axis`, skipping nans, as numpy.nanquantile."""

def percentile(a: object | None, q: object | None, axis: object | None = None, out: object | None = None, overwrite_input: object = False, method: object = 'linear', keepdims: object = False, *, interpolation: object | None = None) -> ndarray:
    """The q-th percentiles (q in [0, 100]) over `axis`, as numpy.percentile."""

def nanpercentile(a: object | None, q: object | None, axis: object | None = None, out: object | None = None, overwrite_input: object = False, method: object = 'linear', keepdims: object = False, *, interpolation: object | None = None) -> ndarray:
    """
    The q-th percentiles over `axis`, skipping nans, as numpy.nanpercentile.
    """

def median(a: object | None, axis: object | None = None, out: object | None = None, overwrite_input: object = False, keepdims: object = False) -> ndarray:
    """The median over `axis`, as numpy.median."""

def nanmedian(a: object | None, axis: object | None = None, out: object | None = None, overwrite_input: object = False, keepdims: object = False) -> ndarray:
    """The median over `axis`, skipping nans, as numpy.nanmedian."""

class Hazard:
    """
    One distinct hazard check mode found: its first occurrence and how often it happened.
    """

    @property
    def tool(self) -> str:
        """'memcheck', 'racecheck', 'synccheck' or 'initcheck'."""

    @property
    def what(self) -> str:
        """What happened, e.g. 'Invalid __global__ write of size 4 bytes'."""

    @property
    def kernel(self) -> str: ...

    @property
    def block(self) -> tuple: ...

    @property
    def thread(self) -> tuple: ...

    @property
    def file(self) -> str: ...

    @property
    def line(self) -> int: ...

    @property
    def address(self) -> int: ...

    @property
    def size(self) -> int: ...

    @property
    def is_write(self) -> bool: ...

    @property
    def detail(self) -> str: ...

    @property
    def occurrences(self) -> int: ...

    @property
    def other_access(self) -> str:
        """racecheck: the earlier access ('Write' or 'Read')."""

    @property
    def other_file(self) -> str: ...

    @property
    def other_line(self) -> int: ...

    @property
    def other_block(self) -> tuple: ...

    @property
    def other_thread(self) -> tuple: ...

    def __repr__(self) -> str: ...

class CheckReport:
    """The hazards check-mode launches found."""

    @property
    def hazards(self) -> list[Hazard]: ...

    @property
    def clean(self) -> bool:
        """True when nothing was found."""

    def text(self) -> str:
        """compute-sanitizer's layout: a block of '=========' lines per hazard."""

    def __str__(self) -> str: ...

    def __len__(self) -> int: ...

    def __bool__(self) -> bool:
        """True when hazards were found."""

    def __iter__(self) -> Iterator: ...

    def __repr__(self) -> str: ...

def take_check_report() -> CheckReport:
    """
    Waits for check-mode launches to finish and returns the hazards found since the last call.
    """

def set_raise_on_hazard(raise_on_hazard: bool) -> None:
    """
    Whether a check-mode launch that finds a hazard raises HazardError at the next synchronisation.
    """

def raise_on_hazard() -> bool: ...

def set_print_check_report(print: bool) -> None:
    """
    Whether hazards are printed to stderr at synchronisations and summed up at exit.
    """

def print_check_report() -> bool: ...

def check_tools() -> list[tuple[str, str]]:
    """Every check-mode tool, as (name, summary) pairs in report order."""

def check_tools_from_environment() -> str:
    """The tools GPUKIT_CHECK asks for ('none' when unset)."""

def normalize_check_tools(tools: str) -> str:
    """
    'racecheck,memcheck' -> 'memcheck,racecheck'; raises for an unknown tool.
    """

def from_dlpack_capsule(capsule: object, device: Device) -> ndarray:
    """
    An array over the tensor of an unconsumed DLPack capsule, which it consumes; the tensor is released with the last array viewing it. BufferError for a read-only tensor or a type arrays cannot hold.
    """

def from_cuda_array_interface(object: object, device: Device) -> ndarray:
    """
    An array over the memory of an object with __cuda_array_interface__, keeping the object alive.
    """

def dlpack_import_device(device_type: int, device_id: int) -> Device:
    """
    The device that can address memory on this DLPack device without a copy; BufferError if none.
    """

def exchange_stream(device: Device) -> int:
    """
    The current stream of `device` as the CUDA Array Interface and DLPack pass it: 1 for the legacy default stream, else the CUstream.
    """

class CacheConfig:
    """Where the disk cache is and how much it may keep."""

    @property
    def directory(self) -> str | None:
        """
        The disk cache's directory; None when no GPUKIT_CACHE_DIR, XDG_CACHE_HOME or HOME names one.
        """

    @property
    def max_bytes(self) -> int: ...

    @property
    def disk_enabled(self) -> bool:
        """False under GPUKIT_CACHE_DISABLE=1 or without a directory."""

    @property
    def memory_max_entries(self) -> int:
        """
        The most images, and the most loaded modules, this process keeps for the next compile of the same source (GPUKIT_CACHE_MEMORY_MAX_ENTRIES, default 256).
        """

    @property
    def memory_max_bytes(self) -> int:
        """
        The most bytes of images, and of the images of loaded modules, kept likewise (GPUKIT_CACHE_MEMORY_MAX_BYTES, default 256 MiB).
        """

class CacheStats:
    """This process's cache lookups."""

    @property
    def memory_hits(self) -> int: ...

    @property
    def disk_hits(self) -> int: ...

    @property
    def misses(self) -> int:
        """Lookups that compiled."""

    @property
    def corrupt_entries(self) -> int: ...

    @property
    def evictions(self) -> int:
        """Disk entries deleted to stay under the disk's bound."""

    @property
    def compile_seconds(self) -> float: ...

    @property
    def memory_evictions(self) -> int:
        """
        Images and modules this process let go of to stay under the in-process bound.
        """

class MemoryCacheUsage:
    """
    What this process keeps for the next compile of the same source: compiled images and loaded modules (a module's bytes are its image's).
    """

    @property
    def images(self) -> int: ...

    @property
    def image_bytes(self) -> int: ...

    @property
    def modules(self) -> int: ...

    @property
    def module_bytes(self) -> int: ...

    def __repr__(self) -> str: ...

class DiskCacheStats:
    """
    The disk cache's counts over every process since it was created or cleared.
    """

    @property
    def hits(self) -> int: ...

    @property
    def misses(self) -> int:
        """Lookups that compiled: no entry, or a damaged one."""

    @property
    def corrupt_entries(self) -> int: ...

    @property
    def evictions(self) -> int: ...

def cache_config() -> CacheConfig:
    """The cache's configuration (from GPUKIT_CACHE_* on first use)."""

def cache_directory_refusal() -> str:
    """
    Why the configured directory is not used (it is not private to you); '' when it is used.
    """

def cache_stats() -> CacheStats: ...

def cache_disk_stats() -> DiskCacheStats: ...

def cache_disk_usage() -> tuple:
    """(bytes, entries) of the disk cache now."""

def clear_disk_cache() -> None:
    """Deletes every entry of the disk cache and its counts."""

def clear_memory_cache() -> None:
    """
    Forgets the compiled images and loaded modules this process keeps (modules still held stay loaded).
    """

def memory_cache_usage() -> MemoryCacheUsage:
    """What the in-process memo holds now."""

def configure_memory_cache(max_entries: int | None = None, max_bytes: int | None = None) -> None:
    """
    Bounds the in-process memo (None keeps a bound as it is), trimming it at once.
    """

class Chunk:
    """One chunk of a streamed operation's rows, on the device."""

    @property
    def data(self) -> ndarray:
        """halo_before + rows + halo_after rows (zeros past the input's ends)"""

    @property
    def offset(self) -> int:
        """the input row the chunk's own rows start at"""

    @property
    def rows(self) -> int:
        """the chunk's own rows"""

    @property
    def halo_before(self) -> int: ...

    @property
    def halo_after(self) -> int: ...

    def interior(self) -> ndarray:
        """data without its halos (a view)"""

def stream_map(func: object, source: object, destination: object, dtype: object | None = None, row_shape: object = (), total_rows: int = -1, chunk_rows: int = 0, buffers: int = 2, halo_before: int = 0, halo_after: int = 0, copy_threads: int = 0, progress: object | None = None, timeline: bool = False) -> dict:
    """
    func(chunk) for every chunk of the source's rows, its rows to the destination (gpukit.streaming.map).
    """

def stream_reduce(func: object, combine: object, source: object, dtype: object | None = None, row_shape: object = (), total_rows: int = -1, chunk_rows: int = 0, buffers: int = 2, copy_threads: int = 0, progress: object | None = None, timeline: bool = False) -> tuple:
    """
    combine(... combine(func(chunk 0), func(chunk 1)) ...) over every chunk (gpukit.streaming.reduce).
    """

def stream_histogram(source: object, bins: object, range: tuple[float, float] | None = None, density: bool = False, dtype: object | None = None, row_shape: object = (), total_rows: int = -1, chunk_rows: int = 0, buffers: int = 2, copy_threads: int = 0, progress: object | None = None) -> tuple:
    """numpy.histogram over every row (gpukit.streaming.histogram)."""

def stream_convolve(source: object, v: object, mode: str, destination: object, dtype: object | None = None, total_rows: int = -1, chunk_rows: int = 0, buffers: int = 2, copy_threads: int = 0, progress: object | None = None, timeline: bool = False) -> dict:
    """numpy.convolve of the streamed rows and v (gpukit.streaming.convolve)."""
