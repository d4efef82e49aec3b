"""@gpukit.jit: a Python kernel, translated to CUDA C for each set of argument types it is launched
with, and launched as Numba-CUDA launches: ``kernel[blocks, threads](args)``.

Each specialisation (argument types and device) is kept by the kernel object; its compiled code
goes through gpukit's compile cache, in memory and on disk, like every module's. A launch with
arguments like ones launched before is keyed, packed and launched in C++ (_core.JitLaunchCache,
python/src/jit_launch.cpp); the rest take the Python path here, which records them there. Arrays are
passed as a pointer, a shape and strides in elements; NumPy arrays are copied to the device and
back around the launch, as Numba does for host arrays.
"""

import dataclasses

import numpy

from .. import _core
from .._backend import get_device
from .._check import check_tools_from_environment
from .._errors import describe_value
from .._interop import asarray
from .._kernel import RawModule
from .numba_types import ArrayType, GufuncSignature, Signature, parse_gufunc_signature, parse_signature
from .translate import KernelSource, program_name_of
from .types import BOOL, COMPLEX128, FLOAT64, INT64, Array, Scalar, Tuple, dtype_of

_LAUNCH_HELP = ("launch a kernel with a configuration: kernel[blocks_per_grid, threads_per_block](arguments), "
                "or kernel[blocks, threads, stream, shared_bytes](arguments)")


def jit(function=None, *, device=False, check=None, **options):
    """Translates a Python function into a CUDA kernel, as ``numba.cuda.jit``.

    ``@gpukit.jit`` (or ``@gpukit.cuda.jit``) over a function written in Numba-CUDA's kernel
    language (``cuda.grid``, ``cuda.shared.array``, ``cuda.syncthreads``, ``cuda.atomic.add``,
    ``math`` functions, loops over ``range``); launch it with ``kernel[blocks, threads](args)``.
    Types follow NumPy 2: ``x[i] * 2.0`` keeps a float32 ``x`` float32. ``check``: the simulator's
    check-mode tools for its launches (as :class:`gpukit.RawModule`'s); hazards name Python lines."""
    if options:
        unknown = ", ".join(sorted(options))
        raise TypeError(f"gpukit.jit got unexpected keyword arguments: {unknown}")

    signatures = None
    if isinstance(function, (str, list, tuple, GufuncSignature, Signature)):
        # @cuda.jit("void(float32[:], int32)") or a list of them: Numba's eager form.
        signatures = [function] if isinstance(function, (str, GufuncSignature, Signature)) else list(function)
        function = None

    def wrap(function):
        if not callable(function) or not hasattr(function, "__code__"):
            raise TypeError(f"gpukit.jit decorates a Python function, not {describe_value(function)}")
        if device:
            for signature in signatures or ():
                _parse_device_signature(signature)  # checked; a device function's types come from its calls
            return DeviceFunction(function)
        return Kernel(function, check, signatures)

    return wrap if function is None else wrap(function)


def _parse_kernel_signature(signature, function):
    """A kernel's signature, Numba's ``void(float32[:], int32)`` in any of its forms, as operand types."""
    if isinstance(signature, Signature) or (isinstance(signature, str) and not signature.strip().startswith(
            ("void", "("))):
        raise TypeError(f"{function.__qualname__}: a kernel returns nothing, so its signature is void(...), not "
                        f"{signature!r}")
    parsed = parse_gufunc_signature(signature)
    return tuple(Array(t.dtype, t.ndim, True, True) if isinstance(t, ArrayType) else Scalar(numpy.dtype(t))
                 for t in parsed.operands)


def _parse_device_signature(signature):
    if isinstance(signature, str) and not signature.strip().startswith(("void", "(")):
        return parse_signature(signature)
    return signature if isinstance(signature, Signature) else parse_gufunc_signature(signature)


def type_of_argument(value, position):
    """The kernel-language type of a launch argument, and how it is passed."""
    if isinstance(value, _core.ndarray):
        dtype = value.dtype
        if dtype_of(dtype) is None:
            raise TypeError(f"argument {position} is an array of {numpy.dtype(dtype).name}, which kernels do not "
                            "take yet")
        return Array(numpy.dtype(dtype), value.ndim, bool(value.flags.c_contiguous), _offsets_fit_int32(value))
    if isinstance(value, bool) or isinstance(value, numpy.bool_):
        return BOOL
    if isinstance(value, int):
        if not -2**63 <= value < 2**63:
            raise OverflowError(f"argument {position}: {value} does not fit in int64")
        return INT64
    if isinstance(value, float):
        return FLOAT64
    if isinstance(value, complex):
        return COMPLEX128
    if isinstance(value, numpy.generic):
        dtype = dtype_of(value.dtype)
        if dtype is None:
            raise TypeError(f"argument {position} is a {value.dtype.name} scalar, which kernels do not take yet")
        return Scalar(dtype)
    if isinstance(value, tuple):
        items = tuple(type_of_argument(item, position) for item in value)
        if not all(isinstance(item, Scalar) for item in items):
            raise TypeError(f"argument {position}: a tuple passed to a kernel holds numbers")
        return Tuple(items)
    raise TypeError(f"argument {position} is {describe_value(value)}; kernels take gpukit, NumPy or CUDA arrays, "
                    "numbers and tuples of numbers")


def _takes(declared, given):
    """Whether a signature's parameter type takes an argument of type ``given``."""
    if isinstance(declared, Array):
        return isinstance(given, Array) and given.dtype == declared.dtype and given.ndim == declared.ndim
    return isinstance(given, Scalar) and numpy.can_cast(given.dtype, declared.dtype, "same_kind")


def numba_stream(value):
    """A stream as Numba takes one: 0 is the default stream (gpukit's None)."""
    return None if isinstance(value, int) and value == 0 else value


def _flatten(value, t, args):
    """Appends the launch arguments that pass ``value`` of type ``t``: an array as its pointer (the
    array itself where it is C-contiguous, so that the launch checks it), shape and element strides."""
    if isinstance(t, Array):
        itemsize = value.itemsize
        args.append(value if t.contiguous else _core.DevicePointer(value.data_ptr))
        args.extend(value.shape)
        for stride in value.strides:
            if stride % itemsize:
                raise ValueError("an array whose strides are not whole elements cannot be passed to a kernel")
            args.append(stride // itemsize)
    elif isinstance(t, Tuple):
        for item, item_type in zip(value, t.items):
            _flatten(item, item_type, args)
    elif value.__class__ is complex:
        args.append(value if t.dtype.itemsize == 16 else numpy.complex64(value))
    elif value.__class__ in (int, float, bool):
        # Sent at the parameter's size, range-checked; an int for a float parameter (a signature's) converted.
        args.append(value if value.__class__ is not int or t.kind != "f" else float(value))
    elif value.dtype == t.dtype:
        args.append(value)
    else:
        args.append(value.astype(t.dtype))


# Whether every element offset of an array is below 2^31 (then it is indexed in 32 bits): the
# definition the C++ launch path keys arrays by, so that both paths agree.
_offsets_fit_int32 = _core.jit_offsets_fit_int32


def _signature_key(value):
    """What decides ``value``'s type, cheaply; None for a value the slow path converts (host arrays)."""
    cls = value.__class__
    if cls is _core.ndarray:
        return cls, value.dtype, value.ndim, value.flags.c_contiguous, _offsets_fit_int32(value)
    if cls is tuple:
        items = tuple(map(_signature_key, value))
        return None if None in items else (cls, items)
    if cls in (int, float, bool, complex) or isinstance(value, numpy.generic):
        return cls
    return None


class Kernel:
    """A Python kernel; ``kernel[blocks, threads](args)`` launches it (see :func:`gpukit.jit`)."""

    def __init__(self, function, check, signatures=None):
        self.py_func = function
        self._check = check
        self._specialisations = {}
        # Explicit signatures (Numba's eager form): translated now, so that their errors show at the
        # decoration; a launch then takes the first signature its arguments convert to.
        self.signatures = None if signatures is None else [_parse_kernel_signature(s, function) for s in signatures]
        for types in self.signatures or ():
            KernelSource(function, types)
        self._launches = {}  # (backend, device id, argument keys) -> (compiled kernel, types, dynamic shared?)
        # The same specialisations, keyed, packed and launched in C++: a launch with arguments seen
        # before costs what a C++ launch does. Filled by the slow path (_Launch._launch_slowly).
        self._fast = _core.JitLaunchCache()
        self._configured = {}  # (blocks, threads) -> _Launch
        self.__name__ = function.__name__
        self.__qualname__ = function.__qualname__
        self.__doc__ = function.__doc__

    def __getitem__(self, configuration):
        if configuration.__class__ is tuple and len(configuration) == 2:
            # kernel[blocks, threads] is written at every launch: the same configuration, the same
            # _Launch. Only for int pairs: 1.0 and True are equal to 1 but not a launch's dimensions.
            blocks, threads = configuration
            if blocks.__class__ is int and threads.__class__ is int:
                launch = self._configured.get(configuration)
                if launch is None:
                    if len(self._configured) >= 64:  # sizes computed from the data: keep the recent ones
                        self._configured.clear()
                    launch = self._configured[configuration] = _Launch(self, blocks, threads, None, 0)
                return launch
        if not isinstance(configuration, tuple) or not 2 <= len(configuration) <= 4:
            raise ValueError(f"{self.__name__}[...] takes 2 to 4 values (blocks, threads, stream, shared bytes), "
                             f"not {configuration!r}: {_LAUNCH_HELP}")
        blocks, threads, stream, shared = (tuple(configuration) + (None, 0))[:4]
        return _Launch(self, blocks, threads, stream, shared)

    def conform(self, types):
        """``types`` as the first explicit signature that takes them gives them: arrays of its dtype and
        rank (in their own layout), numbers converted to its types ('same_kind')."""
        for signature in self.signatures:
            if len(signature) == len(types) and all(_takes(s, t) for s, t in zip(signature, types)):
                return tuple(t if isinstance(t, Array) else s for s, t in zip(signature, types))
        given = ", ".join(map(str, types))
        known = "; ".join("(" + ", ".join(map(str, s)) + ")" for s in self.signatures)
        raise TypeError(f"{self.__name__}: no signature takes the arguments ({given}); it has {known}")

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.__name__} is a kernel: it has no launch configuration. {_LAUNCH_HELP[0].upper()}"
                        f"{_LAUNCH_HELP[1:]}")

    def forall(self, ntasks, tpb=0, stream=None, sharedmem=0):
        """A launch of at least ``ntasks`` threads in 1-D blocks (Numba's ``kernel.forall``)."""
        if not isinstance(ntasks, (int, numpy.integer)) or isinstance(ntasks, bool) or ntasks < 0:
            raise ValueError(f"forall takes a number of tasks (an int >= 0), not {ntasks!r}")
        threads = int(tpb) or 256
        return _Launch(self, max(1, (int(ntasks) + threads - 1) // threads), threads, stream, sharedmem)

    def specialize_for(self, types):
        """The compiled kernel for argument ``types`` on the current device (translated on first use)."""
        device = get_device()
        key = (device.backend, device.id, types)
        kernel = self._specialisations.get(key)
        if kernel is None:
            if self._check is not None or check_tools_from_environment() != "none":
                # Check mode sees the address an index really makes: offsets stay 64-bit.
                types = tuple(dataclasses.replace(t, index32=False) if isinstance(t, Array) else t for t in types)
            source = KernelSource(self.py_func, types)
            module = RawModule(source.code, check=self._check, program_name=program_name_of(self.py_func))
            kernel = self._specialisations[key] = (module.get_function(source.name), source)
        return kernel

    def inspect_source(self, *args):
        """The CUDA C the kernel becomes for arguments like ``args``."""
        return KernelSource(self.py_func, tuple(type_of_argument(a, k) for k, a in enumerate(args))).code

    def __repr__(self):
        return f"<gpukit.jit kernel {self.__qualname__}>"


class DeviceFunction:
    """A function kernels call (``@gpukit.jit(device=True)``); translated once per argument types."""

    def __init__(self, function):
        self._gpukit_device_function = function
        self.py_func = function
        self.__name__ = function.__name__
        self.__qualname__ = function.__qualname__
        self.__doc__ = function.__doc__

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.__name__} is a device function: call it from a kernel (a function decorated with "
                        "@gpukit.jit), not from the host")

    def __repr__(self):
        return f"<gpukit.jit device function {self.__qualname__}>"


class _Launch:
    """A kernel with its launch configuration, called with the arguments."""

    __slots__ = ("kernel", "blocks", "threads", "_stream", "_shared")

    def __init__(self, kernel, blocks, threads, stream, shared):
        self.kernel, self.blocks, self.threads = kernel, blocks, threads
        self._stream, self._shared = numba_stream(stream), shared or 0  # as the launch takes them

    def __call__(self, *args, **kwargs):
        if kwargs:
            raise TypeError(f"a kernel launch takes positional arguments only, not {', '.join(kwargs)}")
        if not self.kernel._fast.launch(self.blocks, self.threads, args, self._shared, self._stream):
            self._launch_slowly(args)

    def _launch_slowly(self, args):
        """A launch the fast path does not take: types worked out (the kernel compiled for them on
        first use), NumPy and CUDA arrays brought in, then recorded for the fast path."""
        device = get_device()
        keys = tuple(map(_signature_key, args))
        cacheable = None not in keys
        known = self.kernel._launches.get((device.backend, device.id, keys)) if cacheable else None
        host_arrays = []
        if known is None:
            device_args = []
            for value in args:
                if isinstance(value, numpy.ndarray):
                    copy = asarray(value) if value.ndim else asarray(value.reshape(1))
                    host_arrays.append((value, copy))
                    value = copy
                elif not isinstance(value, _core.ndarray) and hasattr(value, "__cuda_array_interface__"):
                    value = asarray(value)
                device_args.append(value)
            args = device_args
            types = tuple(type_of_argument(value, k) for k, value in enumerate(args))
            if self.kernel.signatures is not None:
                types = self.kernel.conform(types)
            compiled, source = self.kernel.specialize_for(types)
            known = compiled, types, source.uses_dynamic_shared
            if cacheable:
                self.kernel._launches[(device.backend, device.id, keys)] = known
        compiled, types, dynamic_shared = known
        if cacheable:
            # Recorded for the fast path, which then launches this one too: it marks every array's
            # memory as used by the launch, strided views included (a DevicePointer below does not).
            scalar_dtypes = [t.dtype.name if isinstance(t, Scalar) else None for t in types]
            if (self.kernel._fast.add(args, compiled._kernel, scalar_dtypes, dynamic_shared)
                    and self.kernel._fast.launch(self.blocks, self.threads, args, self._shared, self._stream)):
                return
        flat = []
        for value, t in zip(args, types):
            _flatten(value, t, flat)
        if dynamic_shared:
            flat.append(int(self._shared))
        compiled(self.blocks, self.threads, flat, shared_mem=self._shared, stream=self._stream)
        for host, copy in host_arrays:
            if host.flags.writeable:
                host[...] = copy.get().reshape(host.shape)
