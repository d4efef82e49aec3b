"""Shape and joining functions: the C++ core's (gpukit/shape_ops.hpp), with the few argument forms
that are NumPy's Python conventions normalised here (pad's pad_width and constant_values)."""

import warnings

import numpy

from . import _core
from ._core import ndarray
from ._errors import describe_value


def _require_array(value, name):
    """The TypeError every array function raises for what is not a gpukit array."""
    if isinstance(value, ndarray):
        return
    if isinstance(value, numpy.ndarray):
        raise TypeError(f"{name} is a numpy.ndarray, in host memory; gpukit functions take gpukit arrays: copy it to "
                        "the device with gpukit.asarray() first")
    raise TypeError(f"{name} must be a gpukit.ndarray, not {describe_value(value)} (gpukit.asarray() makes one)")


def _as_pairs(value, ndim, name, as_index):
    """NumPy's numpy.lib._arraypad_impl._as_pairs: one (before, after) pair per axis from a number, a
    pair, or one pair (or number) per axis."""
    x = numpy.asarray(value)
    if x.dtype.kind not in "biuf" and not (x.dtype.kind == "c" and not as_index):
        raise TypeError(f"{name} must be numbers, not {x.dtype} ({value!r})")
    if as_index:
        x = numpy.round(x).astype(numpy.intp, copy=False)
    if x.ndim < 3 and x.size == 1:
        x = x.ravel()
        pairs = [(x[0], x[0])] * ndim
    elif x.ndim < 3 and x.size == 2 and x.shape != (2, 1):
        x = x.ravel()
        pairs = [(x[0], x[1])] * ndim
    else:
        try:
            pairs = [tuple(pair) for pair in numpy.broadcast_to(x, (ndim, 2))]
        except ValueError:
            raise ValueError(f"{name} {value!r} cannot be broadcast to one (before, after) pair for each of the "
                             f"array's {ndim} axes") from None
    if as_index and any(before < 0 or after < 0 for before, after in pairs):
        raise ValueError("index can't contain negative values")
    return [(before.item(), after.item()) for before, after in pairs]


_PAD_KEYWORDS = {
    "constant": {"constant_values"}, "edge": set(), "linear_ramp": {"end_values"}, "maximum": {"stat_length"},
    "mean": {"stat_length"}, "median": {"stat_length"}, "minimum": {"stat_length"}, "reflect": {"reflect_type"},
    "symmetric": {"reflect_type"}, "wrap": set(), "empty": set(),
}


def pad(array, pad_width, mode="constant", **kwargs):
    """``array`` padded as numpy.pad pads it, on the device, in each of NumPy's modes: 'constant'
    (``constant_values``), 'edge', 'linear_ramp' (``end_values``), 'maximum', 'mean', 'median', 'minimum'
    (``stat_length``), 'reflect', 'symmetric' (``reflect_type``), 'wrap' and 'empty'. A function as the
    mode (NumPy calls it on every 1-D line, in Python) is refused, as CuPy refuses it."""
    _require_array(array, "array")
    if callable(mode):
        raise NotImplementedError("gpukit.pad does not take a function as its mode: NumPy calls it on every 1-D "
                                  "line in Python; use one of NumPy's named modes")
    if mode not in _PAD_KEYWORDS:
        raise ValueError(f"mode '{mode}' is not supported")
    unexpected = set(kwargs) - _PAD_KEYWORDS[mode]
    if unexpected:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unexpected}")
    reflect_type = kwargs.get("reflect_type", "even")
    if reflect_type not in ("even", "odd"):
        raise ValueError(f"reflect_type must be 'even' or 'odd', not {reflect_type!r}")
    widths = _as_pairs(pad_width, array.ndim, "pad_width", as_index=True)
    constants = None
    if mode == "constant":
        constants = _as_pairs(kwargs.get("constant_values", 0), array.ndim, "constant_values", as_index=False)
    if mode == "linear_ramp":
        constants = _as_pairs(kwargs.get("end_values", 0), array.ndim, "end_values", as_index=False)
    stat_length = None
    if kwargs.get("stat_length") is not None:
        stat_length = _as_pairs(kwargs["stat_length"], array.ndim, "stat_length", as_index=True)
    return _core.pad_pairs(array, widths, mode, constants, stat_length, reflect_type == "odd")


def fliplr(m):
    """``m`` with its columns (axis 1) reversed: a view."""
    _require_array(m, "m")
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return _core.flip(m, 1)


def flipud(m):
    """``m`` with its rows (axis 0) reversed: a view."""
    _require_array(m, "m")
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return _core.flip(m, 0)


def reshape(a, shape=None, order="C", *, copy=None):
    """``a`` in a new shape: a view when strides allow (NumPy's rule), else a copy."""
    _require_array(a, "a")
    return a.reshape(shape, order=order, copy=copy)


def ravel(a, order="C"):
    """``a`` as 1-D: a view of an array contiguous in ``order``, else a copy."""
    _require_array(a, "a")
    return a.ravel(order)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    """vstack under its old name, which NumPy 2 deprecates: the same DeprecationWarning, then vstack."""
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.", DeprecationWarning, stacklevel=2)
    return _core.vstack(tup, dtype=dtype, casting=casting)
