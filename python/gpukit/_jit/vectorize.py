"""@gpukit.vectorize: a scalar Python function as an elementwise operation on arrays (Numba's
``@vectorize([...], target='cuda')``).

The function is translated as a device function once per signature and wrapped in a
:class:`gpukit.ElementwiseKernel`, which brings broadcasting, ``out=`` and the compile cache.
Signatures are Numba's (``float32(float32, float32)`` with gpukit.cuda's types, or the same as a
string); without them the types come from each call's arguments, as NumPy's rules give them.
"""


import numpy

from .. import _core
from .._errors import describe_value
from .._interop import asarray, is_device_array
from .dispatcher import numba_stream
from .numba_types import ScalarType, Signature, parse_signature, parse_signatures
from .translate import KernelSource, c_name_part
from .types import C_NAMES, Scalar
from .ufunc_methods import UfuncMethods

NUMBA_GPU_TARGET = "cuda"  # not a backend: Numba's name for "the GPU", here the current device, whichever backend


def device_for_target(target):
    """The device a vectorized function runs on: the current one for 'cuda', else the named backend's."""
    from .._backend import all_devices, backends, get_device
    if not isinstance(target, str):
        raise TypeError(f"target must be a str, not {describe_value(target)}")
    if target == NUMBA_GPU_TARGET:
        return get_device()
    for device in all_devices():
        if device.backend == target:  # a backend the caller named
            return device
    names = [info.name for info in backends()]
    raise ValueError(f"gpukit.vectorize runs on target {NUMBA_GPU_TARGET!r} (the current device) or a backend's "
                     f"name ({', '.join(map(repr, names))}), not {target!r}; for the CPU use numpy.vectorize")


def vectorize(signatures=None, target=NUMBA_GPU_TARGET, **options):
    """Turns a scalar function into an elementwise operation on device arrays (Numba's vectorize).

    ``signatures``: a list of Numba signatures (tried in order; the first whose argument types the
    inputs convert to safely wins) or None (types from each call's inputs). ``target``: 'cuda' runs
    on the current device (the GPU, or the simulator where it is the selected backend); a backend's
    name ('sim') on that backend's device."""
    if options:
        raise TypeError(f"vectorize got unexpected keyword arguments: {', '.join(sorted(options))}")
    device_for_target(target)
    if callable(signatures) and not isinstance(signatures, (ScalarType, str, list, tuple)):
        return Vectorized(signatures, None, target)
    parsed = parse_signatures(signatures, parse_signature, (str, Signature), "vectorize")

    def wrap(function):
        return Vectorized(function, parsed, target)

    return wrap


class Vectorized(UfuncMethods):
    """An elementwise operation made from a scalar function; call it on arrays and numbers, or use
    NumPy's ufunc methods (reduce, accumulate, reduceat, outer, at)."""

    def __init__(self, function, signatures, target):
        if not hasattr(function, "__code__"):
            raise TypeError(f"vectorize decorates a Python function, not {describe_value(function)}")
        self.py_func = function
        self.signatures = signatures
        self.target = target
        self.nin = function.__code__.co_argcount
        self._kernels = {}
        self._sources = {}  # argument types -> the function's translation
        self.__name__ = function.__name__
        self.__doc__ = function.__doc__

    def __call__(self, *args, out=None, stream=None):
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__} takes {self.nin} argument{'s' if self.nin != 1 else ''}, not {len(args)}")
        with device_for_target(self.target):
            host_out = out if isinstance(out, numpy.ndarray) else None
            # As Numba's: host inputs only (no device array among them) give a host result.
            on_host = not any(map(is_device_array, args))
            arrays = [asarray(a) if isinstance(a, numpy.ndarray) or hasattr(a, "__cuda_array_interface__") else a
                      for a in args]
            dtypes = [a.dtype if isinstance(a, _core.ndarray) else numpy.result_type(a) for a in arrays]
            signature = self._signature_for(dtypes)
            kernel = self._kernel_for(signature)
            inputs = [a.astype(t) if isinstance(a, _core.ndarray) and a.dtype != t else a
                      for a, t in zip(arrays, signature.args)]
            if out is None:
                result = kernel(*inputs, stream=numba_stream(stream))
                if on_host and any(isinstance(a, numpy.ndarray) for a in args):
                    result = result.get()
            else:
                device_out = asarray(out) if host_out is not None else out
                kernel(*inputs, device_out, stream=numba_stream(stream))
                if host_out is not None:
                    host_out[...] = device_out.get()
                result = out
            return result

    def _source(self, dtypes):
        """The function translated for arguments of ``dtypes`` (once per dtypes)."""
        key = tuple(numpy.dtype(t) for t in dtypes)
        source = self._sources.get(key)
        if source is None:
            source = self._sources[key] = KernelSource(self.py_func, tuple(map(Scalar, key)), device=True)
        return source

    def _signature_for(self, dtypes):
        if self.signatures is None:
            source = self._source(dtypes)
            result = source.return_type or Scalar(numpy.dtype(numpy.float64))
            return Signature(result.dtype, [numpy.dtype(t) for t in dtypes])
        for rule in ("equiv", "safe", "same_kind"):
            for signature in self.signatures:
                if all(numpy.can_cast(d, t, rule) for d, t in zip(dtypes, signature.args)):
                    return signature
        raise TypeError(f"{self.__name__}: no signature takes ({', '.join(numpy.dtype(d).name for d in dtypes)}); "
                        f"it has {', '.join(map(repr, self.signatures))}")

    def _kernel_for(self, signature):
        key = (signature.result, signature.args)
        kernel = self._kernels.get(key)
        if kernel is None:
            if len(signature.args) != self.nin:
                raise TypeError(f"the signature {signature!r} has {len(signature.args)} arguments; "
                                f"{self.__name__} takes {self.nin}")
            source = self._source(signature.args)
            names = [f"x{k}" for k in range(self.nin)]
            # The elementwise kernel's complex type is the array layer's; the function's is the
            # translation's own, of the same layout.
            arguments = [f"gk_py_bit_cast<{C_NAMES[numpy.dtype(t)]}>({n})" if numpy.dtype(t).kind == "c" else n
                         for t, n in zip(signature.args, names)]
            in_params = ", ".join(f"{t.name} {n}" for t, n in zip(signature.args, names))
            result = C_NAMES[numpy.dtype(signature.result)]
            if source.return_type is None:
                raise TypeError(f"{self.__name__} returns no value; a vectorized function returns one number")
            call = f"({result}){source.name}({', '.join(arguments)})"
            if numpy.dtype(signature.result).kind == "c":
                call = f"gk_py_bit_cast<gk_{numpy.dtype(signature.result).name}>({call})"
            operation = f"out = {call}"
            kernel = self._kernels[key] = _core.ElementwiseKernel(
                in_params, f"{numpy.dtype(signature.result).name} out", operation,
                "vectorized_" + c_name_part(self.__name__), preamble=source.code)
        return kernel

    def __repr__(self):
        return f"<gpukit.vectorize {self.__name__}>"
