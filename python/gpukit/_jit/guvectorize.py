"""@gpukit.guvectorize: a Python function of core arrays as a generalized ufunc over device arrays
(Numba's ``@guvectorize([...], '(n),(n)->()', target='cuda')``).

The layout, NumPy's gufunc signature, names each operand's core dimensions: the last ones of its
shape. The dimensions before them are loop dimensions, broadcast across the inputs as NumPy
broadcasts. The function is translated as a device function whose array parameters are views of
one loop position's core; a generated kernel runs one loop position per thread (a grid-stride
loop), finds each operand's view from its loop strides (0 along a broadcast dimension) and calls
the function, which writes its results into its last arguments. Outputs the call does not give
(``out=``, or positionally as Numba takes them) are allocated.
"""

import contextlib
import re
from dataclasses import dataclass

import numpy

from .. import _core
from .._backend import get_device
from .._errors import describe_value
from .._interop import asarray, is_device_array
from .._kernel import RawModule
from .dispatcher import numba_stream
from .numba_types import KERNEL_TYPES, ArrayType, GufuncSignature, parse_gufunc_signature, parse_signatures
from .translate import KernelSource, c_name_part, program_name_of
from .types import C_NAMES, Array, Scalar
from .vectorize import NUMBA_GPU_TARGET, device_for_target

THREADS_PER_BLOCK = 256
MAX_BLOCKS = 4096  # enough to fill any GPU; the grid-stride loop covers larger loops


# ---- the layout: NumPy's gufunc signature, '(m,n),(n,p)->(m,p)'

_OPERAND_LIST = re.compile(r"\s*\([^()]*\)\s*(?:,\s*\([^()]*\)\s*)*")
_DIMENSION = re.compile(r"[A-Za-z_]\w*|\d+")


class Layout:
    """Each operand's core dimensions, as names (shared sizes) or fixed ints: ``inputs``, ``outputs``."""

    def __init__(self, text):
        if not isinstance(text, str):
            raise TypeError(f"a gufunc layout is a str such as '(n),(n)->()', not {describe_value(text)}")
        self.text = text
        sides = text.split("->")
        if len(sides) != 2:
            raise ValueError(f"a gufunc layout reads inputs->outputs, as '(m,n),(n)->(m)'; {text!r} has "
                             f"{len(sides) - 1} '->'")
        self.inputs, self.outputs = (self._operands(side) for side in sides)

    def _operands(self, side):
        if _OPERAND_LIST.fullmatch(side) is None:
            raise ValueError(f"a gufunc layout lists operands as (dimensions) separated by commas, as "
                             f"'(m,n),(n)->(m)'; {self.text!r} does not ({side.strip()!r})")
        operands = []
        for inside in re.findall(r"\(([^()]*)\)", side):
            names = [name.strip() for name in inside.split(",")] if inside.strip() else []
            for name in names:
                if _DIMENSION.fullmatch(name) is None:
                    raise ValueError(f"a core dimension is a name or a size, as in '(m,n),(n)->(m)'; {name!r} in "
                                     f"layout {self.text!r} is neither")
            operands.append(tuple(int(n) if n.isdigit() else n for n in names))
        return tuple(operands)

    @property
    def operands(self):
        return self.inputs + self.outputs

    @property
    def nin(self):
        return len(self.inputs)

    @property
    def nout(self):
        return len(self.outputs)

    def canonical(self):
        """The layout as NumPy spells a gufunc's ``signature``: '(n),(n)->()'."""
        def side(operands):
            return ",".join("(" + ",".join(map(str, dims)) + ")" for dims in operands)
        return f"{side(self.inputs)}->{side(self.outputs)}"


# ---- the decorator

def guvectorize(signatures=None, layout=None, target=NUMBA_GPU_TARGET, **options):
    """Turns a function of core arrays into a generalized ufunc on device arrays (Numba's guvectorize).

    ``signatures``: a list of Numba signatures, each the operands' types, inputs then outputs
    (``(float32[:], float32[:], float32[:])``, ``'void(float32[:], float32[:], float32[:])'``),
    tried in order: the first whose input types the inputs convert to safely wins (else the first
    of the same kind, as NumPy's casting='same_kind'); or None, and the types come from each call's
    arguments. ``layout``: NumPy's gufunc signature, ``'(n),(n)->()'``. The function writes its
    results into its output arguments and returns nothing; a ``()`` output is a one-element array
    (``out[0] = ...``), a ``()`` input a number unless its signature type is an array. ``target``:
    'cuda' runs on the current device; a backend's name ('sim') on that backend's device."""
    if options:
        raise TypeError(f"guvectorize got unexpected keyword arguments: {', '.join(sorted(options))}")
    if layout is None and isinstance(signatures, str) and "->" in signatures:
        signatures, layout = None, signatures  # @guvectorize('(n)->(n)'): types from each call
    if layout is None:
        raise TypeError("guvectorize needs a layout, as guvectorize([signatures], '(n),(n)->()')")
    layout = Layout(layout)
    device_for_target(target)
    parsed = parse_signatures(signatures, parse_gufunc_signature, (str, GufuncSignature), "guvectorize")
    for signature in parsed or ():
        _check_signature_fits(signature, layout)

    def wrap(function):
        return GUVectorized(function, parsed, layout, target)

    return wrap


def _check_signature_fits(signature, layout):
    if len(signature.operands) != len(layout.operands):
        raise TypeError(f"the signature {signature!r} has {len(signature.operands)} operands; layout "
                        f"{layout.text!r} has {len(layout.operands)} ({layout.nin} in, {layout.nout} out)")
    for k, (t, core) in enumerate(zip(signature.operands, layout.operands)):
        if not isinstance(t, ArrayType):
            if core:
                raise TypeError(f"the signature {signature!r} makes operand {k} a number, but layout "
                                f"{layout.text!r} gives it core dimensions ({','.join(map(str, core))})")
            if k >= layout.nin:
                raise TypeError(f"the signature {signature!r} makes output {k - layout.nin} a number; outputs are "
                                f"arrays the function writes into ({t.name}[:] for a '()' output, out[0] = ...)")
        elif t.ndim != max(len(core), 1):
            raise TypeError(f"the signature {signature!r} gives operand {k} {t.ndim} dimensions, but layout "
                            f"{layout.text!r} gives it {len(core)} core dimensions ({','.join(map(str, core))})")


# ---- the generalized ufunc

@dataclass
class _Operand:
    """One operand of a call: the device array the kernel reads or writes, the array its result is
    copied into afterwards (a NumPy output, or a given output of another dtype), and the loop
    dimensions of its shape (those before the core dimensions)."""

    value: object
    copy_back_to: object = None
    loop_shape: tuple = ()


class GUVectorized:
    """A generalized ufunc made from a Python function; call it on arrays (see :func:`guvectorize`)."""

    def __init__(self, function, signatures, layout, target):
        if not callable(function) or not hasattr(function, "__code__"):
            raise TypeError(f"guvectorize decorates a Python function, not {describe_value(function)}")
        argcount = function.__code__.co_argcount
        if argcount != len(layout.operands):
            raise TypeError(f"{function.__qualname__} takes {argcount} argument{'s' if argcount != 1 else ''}; "
                            f"layout {layout.text!r} has {len(layout.operands)} operands ({layout.nin} in, "
                            f"{layout.nout} out)")
        self.py_func = function
        self.signatures = signatures
        self.layout = layout
        self.target = target
        self.nin, self.nout = layout.nin, layout.nout
        self.signature = layout.canonical()  # NumPy's name for the layout
        self._sources = {}  # operand parameter types -> KernelSource of the function
        self._kernels = {}  # (backend, device id, parameter types, loop ndim) -> compiled kernel
        self.__name__ = function.__name__
        self.__qualname__ = function.__qualname__
        self.__doc__ = function.__doc__

    def __call__(self, *args, out=None, stream=0):
        inputs, outputs = self._split_arguments(args, out)
        stream = numba_stream(stream)
        # On a stream given, every copy, conversion and the launch run in its order.
        with device_for_target(self.target), stream if stream is not None else contextlib.nullcontext():
            # As Numba's: host inputs only (no device array among them) give host results.
            on_host = not any(_on_device(a) for a in inputs)
            types = self._types_for(inputs, outputs)
            operands = [self._input(value, t, k) for k, (value, t) in enumerate(zip(inputs, types))]
            sizes = {}
            for k, operand in enumerate(operands):
                self._bind(operand, k, sizes)
            try:
                loop_shape = numpy.broadcast_shapes(*(operand.loop_shape for operand in operands))
            except ValueError:
                shapes = ", ".join(str(operand.loop_shape) for operand in operands)
                raise ValueError(f"{self.__name__}: the inputs' loop dimensions {shapes} (their shapes without the "
                                 f"core dimensions of layout {self.layout.text!r}) do not broadcast together") \
                    from None
            results = [self._output(value, types[self.nin + k], k, loop_shape, sizes) for k, value in
                       enumerate(outputs)]
            operands += results
            if numpy.prod(loop_shape, dtype=numpy.int64) > 0:
                self._launch(operands, types, loop_shape)
            returned = [self._finish(given, operand, on_host) for given, operand in zip(outputs, results)]
        return returned[0] if self.nout == 1 else tuple(returned)

    def _split_arguments(self, args, out):
        """The inputs, and the outputs given (None for one to allocate): after the inputs, as Numba
        takes them, or as ``out=`` (an array, or a tuple of one per output)."""
        if len(args) == self.nin + self.nout:
            if out is not None:
                raise TypeError(f"{self.__name__}: its outputs are given both as arguments and as out=")
            return args[:self.nin], list(args[self.nin:])
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__} takes {self.nin} input{'s' if self.nin != 1 else ''} (and its "
                            f"{self.nout} output{'s' if self.nout != 1 else ''} may follow them), not {len(args)} "
                            f"arguments")
        if out is None:
            return args, [None] * self.nout
        outputs = list(out) if isinstance(out, tuple) else [out]
        if len(outputs) != self.nout:
            raise TypeError(f"{self.__name__} has {self.nout} output{'s' if self.nout != 1 else ''}; out= gives "
                            f"{len(outputs)}")
        return args, outputs

    # ---- types

    def _types_for(self, inputs, outputs):
        """Each operand's type: the first signature the inputs convert to, or the arguments' own types."""
        kinds = [_kind_of(value, k, self.__name__) for k, value in enumerate(inputs)]
        if self.signatures is None:
            # NumPy 2's rules: a Python number takes the arrays' type unless of a higher kind (NEP 50).
            array_dtypes = [kind for kind in kinds if isinstance(kind, numpy.dtype)]
            numbers = [value for value, kind in zip(inputs, kinds) if not isinstance(kind, numpy.dtype)]
            types = []
            for k, (value, kind, core) in enumerate(zip(inputs, kinds, self.layout.inputs)):
                if isinstance(kind, numpy.dtype) and kind not in C_NAMES:
                    raise TypeError(f"{self.__name__}: input {k} is of {kind.name}, which gufuncs do not take "
                                    f"({KERNEL_TYPES})")
                dtype = kind if isinstance(kind, numpy.dtype) else numpy.result_type(*array_dtypes, value)
                types.append(ArrayType(dtype, len(core)) if core else dtype)
            for given, core in zip(outputs, self.layout.outputs):
                dtype = _dtype_of_output(given, self.__name__) if given is not None else \
                    numpy.result_type(*array_dtypes, *numbers)
                types.append(ArrayType(dtype, max(len(core), 1)))
            return types
        for rule in ("equiv", "safe", "same_kind"):
            for signature in self.signatures:
                operand_dtypes = [t.dtype if isinstance(t, ArrayType) else t for t in signature.operands]
                if all(_converts(kind, dtype, rule) for kind, dtype in zip(kinds, operand_dtypes)):
                    return list(signature.operands)
        given = ", ".join(k.name if isinstance(k, numpy.dtype) else f"Python {k.__name__}" for k in kinds)
        raise TypeError(f"{self.__name__}: no signature takes inputs of ({given}); it has "
                        f"{', '.join(map(repr, self.signatures))}")

    def _parameter_type(self, t, operand, k):
        """How operand ``k`` reaches the function: a number, or a view whose innermost stride is 1 or not."""
        if not isinstance(t, ArrayType):
            return Scalar(t)
        core = self.layout.operands[k]
        if not core:
            return Array(t.dtype, 1, True)  # a one-element view
        extent, stride = operand.value.shape[-1], operand.value.strides[-1]
        return Array(t.dtype, t.ndim, extent <= 1 or stride == operand.value.itemsize)

    # ---- operands

    def _input(self, value, t, k):
        dtype = t.dtype if isinstance(t, ArrayType) else t
        if _on_device(value):
            array = value if isinstance(value, _core.ndarray) else asarray(value)
            # A converted copy is C-contiguous: passed as an array, the launch keeps its memory alive.
            return _Operand(array if array.dtype == dtype else array.astype(dtype, order="C"))
        try:
            host = numpy.asarray(value, dtype=dtype, order="C")
        except OverflowError as error:
            raise OverflowError(f"{self.__name__}: input {k} ({value!r}) does not fit in {dtype.name}: "
                                f"{error}") from None
        return _Operand(asarray(host))

    def _bind(self, operand, k, sizes):
        """Splits operand ``k``'s shape into loop and core dimensions; records or checks each core size."""
        core = self.layout.operands[k]
        shape = tuple(operand.value.shape)
        role = f"input {k}" if k < self.nin else f"output {k - self.nin}"
        if len(shape) < len(core):
            raise ValueError(f"{self.__name__}: {role} has {len(shape)} dimension{'s' if len(shape) != 1 else ''} "
                             f"(shape {shape}) but layout {self.layout.text!r} gives it {len(core)} core dimensions "
                             f"({','.join(map(str, core))})")
        operand.loop_shape = shape[:len(shape) - len(core)]
        for name, size in zip(core, shape[len(shape) - len(core):]):
            expected = name if isinstance(name, int) else sizes.setdefault(name, size)
            if size != expected:
                which = f"is fixed at {name}" if isinstance(name, int) else f"is {expected} in an earlier operand"
                raise ValueError(f"{self.__name__}: core dimension {name!r} of layout {self.layout.text!r} "
                                 f"{which} but {size} in {role} (shape {shape})")

    def _output(self, given, t, k, loop_shape, sizes):
        index = self.nin + k
        if given is None:
            core = self.layout.outputs[k]
            missing = [name for name in core if not isinstance(name, int) and name not in sizes]
            if missing:
                raise ValueError(f"{self.__name__}: core dimension {missing[0]!r} of output {k} appears in no "
                                 f"input of layout {self.layout.text!r}; give the output (out=) to set its size")
            shape = tuple(loop_shape) + tuple(name if isinstance(name, int) else sizes[name] for name in core)
            return _Operand(_core.empty(shape, t.dtype, "C"), loop_shape=tuple(loop_shape))
        host = given if isinstance(given, numpy.ndarray) else None
        if host is None and not _on_device(given):
            raise TypeError(f"{self.__name__}: output {k} must be a gpukit, NumPy or CUDA array, not "
                            f"{describe_value(given)}")
        dtype = numpy.dtype(given.dtype)
        if not numpy.can_cast(t.dtype, dtype, "same_kind"):
            raise TypeError(f"{self.__name__}: output {k} is {dtype.name}, which the result's {t.dtype.name} "
                            f"does not cast to (casting='same_kind')")
        if host is not None:
            if not host.flags.writeable:
                raise ValueError(f"{self.__name__}: output {k} is a read-only NumPy array")
            # Outputs are only written, so the device array that takes the result starts empty.
            operand = _Operand(_core.empty(host.shape, t.dtype, "C"), copy_back_to=host)
        else:
            array = given if isinstance(given, _core.ndarray) else asarray(given)
            written = array if dtype == t.dtype else _core.empty(array.shape, t.dtype, "C")
            operand = _Operand(written, copy_back_to=None if written is array else array)
        self._bind(operand, index, sizes)
        if operand.loop_shape != tuple(loop_shape):
            raise ValueError(f"{self.__name__}: output {k} has loop dimensions {operand.loop_shape} (shape "
                             f"{tuple(given.shape)}) but the inputs' broadcast to {tuple(loop_shape)}")
        return operand

    def _finish(self, given, operand, on_host):
        """The output as the caller gets it: the given array (filled), or the new one (on the host if the
        inputs were)."""
        destination = operand.copy_back_to
        if destination is not None:
            if isinstance(destination, numpy.ndarray):
                destination[...] = operand.value.get()
            else:
                destination[...] = operand.value.astype(destination.dtype)
            return given
        if given is not None:
            return given
        return operand.value.get() if on_host else operand.value

    # ---- the kernel

    def _launch(self, operands, types, loop_shape):
        parameter_types = tuple(self._parameter_type(t, operand, k)
                                for k, (t, operand) in enumerate(zip(types, operands)))
        kernel = self._kernel_for(parameter_types, len(loop_shape))
        loop_size = int(numpy.prod(loop_shape, dtype=numpy.int64))
        args = [loop_size, *map(int, loop_shape)]
        for k, (operand, t) in enumerate(zip(operands, parameter_types)):
            array = operand.value
            strides = []
            for stride in array.strides:
                if stride % array.itemsize:
                    raise ValueError(f"{self.__name__}: operand {k}'s strides {array.strides} are not whole "
                                     f"elements of {array.itemsize} bytes")
                strides.append(stride // array.itemsize)
            core_ndim = len(self.layout.operands[k])
            loop_ndim = array.ndim - core_ndim
            # Broadcast: a missing or length-1 loop dimension of the operand steps by 0.
            loop_strides = [0] * (len(loop_shape) - loop_ndim) + [
                0 if extent == 1 else stride for extent, stride in zip(array.shape[:loop_ndim], strides)]
            args.append(array if array.flags.c_contiguous else _core.DevicePointer(array.data_ptr))
            args.extend(loop_strides)
            if isinstance(t, Array) and core_ndim:
                args.extend(array.shape[loop_ndim:])
                args.extend(strides[loop_ndim:])
        threads = min(THREADS_PER_BLOCK, -(-loop_size // 32) * 32)
        blocks = min(MAX_BLOCKS, -(-loop_size // threads))
        kernel(blocks, threads, args)  # on the current stream

    def _kernel_for(self, parameter_types, loop_ndim):
        device = get_device()
        key = (device.backend, device.id, parameter_types, loop_ndim)
        kernel = self._kernels.get(key)
        if kernel is None:
            source = self._sources.get(parameter_types)
            if source is None:
                source = self._sources[parameter_types] = KernelSource(self.py_func, parameter_types, device=True)
            if source.return_type is not None:
                raise TypeError(f"{self.__name__} returns a value; a gufunc writes its results into its output "
                                f"arguments and returns nothing")
            name = "gk_guvectorize_" + c_name_part(self.__name__)
            code = source.code + self._kernel_code(name, source.name, parameter_types, loop_ndim)
            module = RawModule(code, program_name=program_name_of(self.py_func))
            kernel = self._kernels[key] = module.get_function(name)
        return kernel

    def _kernel_code(self, name, function_name, parameter_types, loop_ndim):
        """The kernel: a grid-stride loop over the loop positions, calling the function on each one's views."""
        params = ["long long gk_loop_size"] + [f"long long gk_loop_extent{d}" for d in range(loop_ndim)]
        call = []
        for k, t in enumerate(parameter_types):
            operand = f"gk_operand{k}"
            core_ndim = len(self.layout.operands[k])
            params.append(f"{C_NAMES[t.dtype]}* {operand}")
            params += [f"long long {operand}_loop_stride{d}" for d in range(loop_ndim)]
            if isinstance(t, Scalar):
                call.append(f"{operand}[gk_offset{k}]")
            elif core_ndim:
                params += [f"long long {operand}_extent{j}" for j in range(core_ndim)]
                params += [f"long long {operand}_stride{j}" for j in range(core_ndim)]
                call += ([f"{operand} + gk_offset{k}"] + [f"{operand}_extent{j}" for j in range(core_ndim)]
                         + [f"{operand}_stride{j}" for j in range(core_ndim)])
            else:
                call += [f"{operand} + gk_offset{k}", "1ll", "1ll"]  # a '()' operand as a one-element view
        count = len(parameter_types)
        lines = [f'extern "C" __global__ void {name}({", ".join(params)}) {{',
                 "    for (long long gk_index = (long long)blockIdx.x * blockDim.x + threadIdx.x; "
                 "gk_index < gk_loop_size;",
                 "         gk_index += (long long)blockDim.x * gridDim.x) {",
                 "        long long gk_rest = gk_index;",
                 "        " + " ".join(f"long long gk_offset{k} = 0;" for k in range(count))]
        for d in reversed(range(loop_ndim)):  # the last loop dimension varies fastest, as in C order
            lines.append(f"        const long long gk_position{d} = gk_rest % gk_loop_extent{d};")
            lines.append(f"        gk_rest /= gk_loop_extent{d};")
            lines += [f"        gk_offset{k} += gk_position{d} * gk_operand{k}_loop_stride{d};" for k in range(count)]
        lines += ["        (void)gk_rest;", f"        {function_name}({', '.join(call)});", "    }", "}", ""]
        return "\n".join(lines)

    def __repr__(self):
        return f"<gpukit.guvectorize {self.__name__} {self.layout.text!r}>"


_on_device = is_device_array


def _kind_of(value, k, name):
    """What decides input ``k``'s type: its dtype, or for a Python number its class (a weak type, as NumPy 2's)."""
    if value.__class__ in (bool, int, float):
        return value.__class__
    if isinstance(value, (_core.ndarray, numpy.ndarray, numpy.generic)):
        dtype = numpy.dtype(value.dtype)
    elif _on_device(value):
        dtype = numpy.dtype(value.__cuda_array_interface__["typestr"])
    else:
        try:
            dtype = numpy.asarray(value).dtype  # a list of numbers
        except (TypeError, ValueError):
            dtype = numpy.dtype(object)
        if dtype.kind not in "biuf":
            raise TypeError(f"{name}: input {k} is {describe_value(value)}; a gufunc takes gpukit, NumPy or CUDA "
                            "arrays and numbers")
    return dtype


def _dtype_of_output(value, name):
    dtype = getattr(value, "dtype", None)
    if dtype is None or numpy.dtype(dtype) not in C_NAMES:
        raise TypeError(f"{name}: an output must be an array of {KERNEL_TYPES}, not {describe_value(value)}")
    return numpy.dtype(dtype)


_KIND_RANK = {"b": 0, "i": 1, "u": 1, "f": 2}


def _converts(kind, dtype, rule):
    """Whether an input of ``kind`` converts to ``dtype`` under casting ``rule``; a Python number to any
    dtype of its kind or a higher one (NumPy 2: ``float32_array + 1.0`` stays float32)."""
    if isinstance(kind, numpy.dtype):
        return numpy.can_cast(kind, dtype, rule)
    number_rank = {bool: 0, int: 1, float: 2}[kind]
    return number_rank <= _KIND_RANK[dtype.kind]
