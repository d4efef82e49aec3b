"""The methods NumPy's ufuncs have (reduce, accumulate, reduceat, outer, at), for functions made by
@gpukit.vectorize: a Vectorized is a ufunc as NumPy users know one.

reduce runs on the array layer's reduction engine (a ReductionKernel whose combine step calls the
translated function), so it needs the function to be associative, as any parallel reduction does.
accumulate, reduceat and at apply the function in order along each line, as NumPy defines them
(one thread per line, or one thread for at's repeated indices): their results equal NumPy's for
any function, associative or not. Their kernels are Python kernels themselves (gpukit.jit),
each closed over the translated device function.
"""

import numpy

from .. import _core
from .._interop import asarray, is_device_array
from . import intrinsics as cuda  # the kernels below say cuda.grid, as Numba's do
from .dispatcher import DeviceFunction, jit
from .reduce import reduction_kernel

_THREADS = 128


def _normalize_axis(axis, ndim):
    if not isinstance(axis, (int, numpy.integer)) or isinstance(axis, bool):
        raise TypeError(f"an axis is an integer, not {type(axis).__name__}")
    if not -ndim <= axis < ndim:
        raise numpy.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return int(axis) % ndim


def _blocks(count):
    return max(1, (count + _THREADS - 1) // _THREADS)


def _accumulate_kernel(combine):
    @jit
    def accumulate_lines(values, out):
        line = cuda.grid(1)
        if line < values.shape[0] and values.shape[1] > 0:
            total = values[line, 0]
            out[line, 0] = total
            for k in range(1, values.shape[1]):
                total = combine(total, values[line, k])
                out[line, k] = total
    return accumulate_lines


def _reduceat_kernel(combine):
    @jit
    def reduce_segments(values, starts, out):
        line, segment = cuda.grid(2)
        if line < values.shape[0] and segment < starts.shape[0]:
            start = starts[segment]
            stop = starts[segment + 1] if segment + 1 < starts.shape[0] else values.shape[1]
            total = values[line, start]
            if start < stop:  # NumPy: an empty or backwards segment gives values[start]
                for k in range(start + 1, stop):
                    total = combine(total, values[line, k])
            out[line, segment] = total
    return reduce_segments


def _at_kernel(combine, unary):
    if unary:
        @jit
        def apply_in_order(flat, positions, operands):
            if cuda.grid(1) == 0:
                for k in range(positions.shape[0]):
                    flat[positions[k]] = combine(flat[positions[k]])
        return apply_in_order

    @jit
    def apply_in_order_binary(flat, positions, operands):
        if cuda.grid(1) == 0:  # one thread: a repeated index sees the previous update, as NumPy's at
            for k in range(positions.shape[0]):
                flat[positions[k]] = combine(flat[positions[k]], operands[k])
    return apply_in_order_binary


class UfuncMethods:
    """NumPy's ufunc attributes and methods over a Vectorized's ``__call__``, ``py_func`` and
    ``_signature_for``."""

    nout = 1

    @property
    def nargs(self):
        return self.nin + self.nout

    @property
    def identity(self):
        return None  # a Python function's identity is unknown: an empty reduction needs initial=

    @property
    def signature(self):
        return None  # not a generalized ufunc

    @property
    def types(self):
        return [("".join(t.char for t in s.args) + "->" + numpy.dtype(s.result).char) for s in self.signatures or ()]

    @property
    def ntypes(self):
        return len(self.types)

    # ---- outer

    def outer(self, A, B, /, **kwargs):
        """``f(a, b)`` for every pair: the result's shape is ``A.shape + B.shape``."""
        self._binary("outer")
        a, b = (x if isinstance(x, (_core.ndarray, numpy.ndarray)) else numpy.asarray(x) for x in (A, B))
        return self(a.reshape(tuple(a.shape) + (1,) * b.ndim), b, **kwargs)

    # ---- reduce

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=True):
        """Combines the elements along ``axis`` (an int, a tuple, or None for all) pairwise in a tree:
        ``f`` must be associative. ``initial`` is combined once into each result."""
        self._binary("reduce")
        if where is not True:
            raise NotImplementedError(f"{self.__name__}.reduce(where=...) is not supported: select the elements "
                                      "first (gpukit.where or a boolean index)")
        on_host = not is_device_array(array)  # as vectorize: any device array gives one back
        values = asarray(array)
        t = self._common_type(values.dtype if dtype is None else numpy.dtype(dtype), "reduce")
        values = values.astype(t) if values.dtype != t else values
        axes = tuple(range(values.ndim)) if axis is None else (axis,) if isinstance(axis, int) else tuple(axis)
        axes = tuple(_normalize_axis(k, values.ndim) for k in axes)
        if len(set(axes)) != len(axes):
            raise ValueError(f"repeated axis in {self.__name__}.reduce: {axis!r}")
        kept = tuple(1 if k in axes else n for k, n in enumerate(values.shape))
        shape = kept if keepdims else tuple(n for k, n in enumerate(values.shape) if k not in axes)
        empty_axis = any(values.shape[k] == 0 for k in axes)
        if empty_axis and initial is None:
            raise ValueError(f"zero-size array to reduction operation {self.__name__} which has no identity")
        if initial is None and not axes:
            result = values.copy()
        elif empty_axis:
            result = _core.full(shape, t.type(initial), t)
        else:
            result = self._reduction_kernel(t)(values, axis=axes, keepdims=keepdims)
            if initial is not None:
                result = self(t.type(initial), result)
        result = result.reshape(shape) if tuple(result.shape) != shape else result
        return self._deliver(result, out, on_host)

    def _reduction_kernel(self, t):
        key = ("reduce", t)
        kernel = self._kernels.get(key)
        if kernel is None:
            kernel = self._kernels[key] = reduction_kernel(self.py_func, t, "reduce_")
        return kernel

    # ---- accumulate and reduceat: in order along each line

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """The running results of ``f`` along ``axis``, applied left to right as NumPy's."""
        on_host, t, lines, restore = self._along_lines("accumulate", array, axis, dtype)
        result = _core.empty(tuple(lines.shape), t)
        kernel = self._method_kernel("accumulate", _accumulate_kernel)
        kernel[_blocks(lines.shape[0]), _THREADS](lines, result)
        return self._deliver(restore(result), out, on_host)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """``f`` over the segments ``indices[i]:indices[i+1]`` along ``axis``, in order (NumPy's rules:
        a segment whose end is not past its start gives the element at its start)."""
        on_host, t, lines, restore = self._along_lines("reduceat", array, axis, dtype)
        starts = numpy.asarray(indices.get() if isinstance(indices, _core.ndarray) else indices)
        if starts.ndim != 1 or starts.dtype.kind not in "iu":
            raise TypeError(f"{self.__name__}.reduceat takes a 1-d array of integer indices")
        extent = lines.shape[1]
        if starts.size and (starts.min() < 0 or starts.max() >= extent):
            bad = starts[(starts < 0) | (starts >= extent)][0]
            raise IndexError(f"index {bad} out-of-bounds in {self.__name__}.reduceat [0, {extent})")
        result = _core.empty((lines.shape[0], starts.size), t)
        if starts.size and lines.shape[0]:
            kernel = self._method_kernel("reduceat", _reduceat_kernel)
            threads = (32, 8)
            blocks = ((lines.shape[0] + 31) // 32, (starts.size + 7) // 8)
            kernel[blocks, threads](lines, asarray(starts.astype(numpy.int64)), result)
        return self._deliver(restore(result), out, on_host)

    # ---- at: unbuffered, in place

    def at(self, a, indices, b=None, /):
        """``a[indices] = f(a[indices], b)`` in place, unbuffered: a repeated index is updated once per
        time it appears, in order, as NumPy's ``ufunc.at``."""
        if (b is None) != (self.nin == 1):
            raise TypeError(f"{self.__name__}.at takes {'no' if self.nin == 1 else 'a'} second operand")
        if not isinstance(a, _core.ndarray):
            raise TypeError(f"{self.__name__}.at updates a gpukit array in place, not {type(a).__name__}")
        t = numpy.dtype(a.dtype)
        self._common_type(t, "at")
        positions = _core.arange(0, a.size, 1, numpy.int64).reshape(tuple(a.shape))[indices]
        flat_positions = positions.ravel()
        if self.nin == 2:
            operands = asarray(b).astype(t)
            operands = _core.broadcast_to(operands, tuple(positions.shape)).ravel()
        else:
            operands = flat_positions  # unused by the unary kernel
        flat = a if a.flags.c_contiguous else a.copy()
        kernel = self._method_kernel("at", lambda combine: _at_kernel(combine, self.nin == 1))
        if flat_positions.size:
            kernel[1, 1](flat.reshape(-1), flat_positions, operands)
        if flat is not a:
            a[...] = flat

    # ---- shared steps

    def _binary(self, method):
        if self.nin != 2:
            raise ValueError(f"{method} only supported for binary functions; {self.__name__} takes {self.nin}")

    def _common_type(self, dtype, method):
        """The dtype a method combines in: one signature's, (t, t) -> t (NumPy asks the same)."""
        signature = self._signature_for([dtype] * self.nin)
        if any(arg != signature.args[0] for arg in signature.args) or (
                self.nin == 2 and numpy.dtype(signature.result) != signature.args[0]):
            raise TypeError(f"{self.__name__}.{method} needs a signature whose operands and result share a type; "
                            f"for {numpy.dtype(dtype).name} it has {signature!r}")
        return numpy.dtype(signature.args[0])

    def _along_lines(self, method, array, axis, dtype):
        """What accumulate and reduceat start from: whether the result goes back to the host, the
        type they combine in, and ``array`` as lines along ``axis`` with the way back (_lines)."""
        self._binary(method)
        on_host = not is_device_array(array)  # as vectorize: any device array gives one back
        values = asarray(array)
        if values.ndim == 0:
            raise TypeError(f"cannot {method} on a scalar (a 0-d array): {self.__name__}.{method}")
        t = self._common_type(values.dtype if dtype is None else numpy.dtype(dtype), method)
        return (on_host, t) + self._lines(values.astype(t) if values.dtype != t else values, axis)

    def _method_kernel(self, method, make):
        kernel = self._kernels.get(method)
        if kernel is None:
            kernel = self._kernels[method] = make(DeviceFunction(self.py_func))
        return kernel

    @staticmethod
    def _lines(values, axis):
        """``values`` as contiguous (lines, extent) rows along ``axis``, and how to put a result of
        (lines, n) back into the original layout (with ``axis`` of extent n)."""
        axis = _normalize_axis(axis, values.ndim)
        moved = _core.moveaxis(values, axis, -1) if axis != values.ndim - 1 else values
        shape = tuple(moved.shape)
        lines = _core.ascontiguousarray(moved).reshape(-1, shape[-1]) if shape[-1] else moved.reshape(
            int(numpy.prod(shape[:-1])), 0)

        def restore(result):
            back = result.reshape(shape[:-1] + (result.shape[1],))
            return _core.moveaxis(back, -1, axis) if axis != values.ndim - 1 else back
        return lines, restore

    @staticmethod
    def _deliver(result, out, on_host):
        if out is not None:
            out[...] = result.get() if isinstance(out, numpy.ndarray) else result
            return out
        return result.get() if on_host else result
