"""The Array API standard's names that NumPy spells otherwise, and its inspection namespace.

gpukit itself is the standard's namespace (``x.__array_namespace__()`` returns the gpukit module), as
CuPy and NumPy 2 are theirs. What is here only names existing functions the standard's way (concat for
concatenate, permute_dims for transpose) or describes gpukit (dtypes, devices, capabilities); the
computing is the core's.
"""

import numpy

from . import _core
from ._backend import devices, get_device

#: The version of the Array API standard gpukit's namespace follows.
__array_api_version__ = "2024.12"

_DTYPE_NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
                "float64", "complex64", "complex128")

# The standard's kinds (isdtype's strings) over NumPy's dtype kinds.
_KINDS = {
    "bool": "b",
    "signed integer": "i",
    "unsigned integer": "u",
    "integral": "iu",
    "real floating": "f",
    "complex floating": "c",
    "numeric": "iufc",
}


def astype(x, dtype, /, *, copy=True, device=None):
    """``x`` converted to ``dtype`` (a new array unless ``copy`` is False and nothing changes), on ``device``."""
    if not isinstance(x, _core.ndarray):
        raise TypeError(f"astype: x must be a gpukit array, not {type(x).__name__}")
    if device is not None:
        x = x.to_device(device)
    return x.astype(dtype, copy=copy)


def concat(arrays, /, *, axis=0):
    """The arrays joined along ``axis`` (flattened first for axis=None), as the standard's concat."""
    return _core.concatenate(arrays, axis=axis)


def permute_dims(x, /, axes):
    """``x`` with its axes in the order ``axes``: a view, as the standard's permute_dims."""
    return _core.transpose(x, axes)


def clip(a, /, min=None, max=None, out=None, *, a_min=None, a_max=None, **kwargs):  # noqa: A002 (the standard's names)
    """``a`` limited to [min, max] (either may be None; neither gives a copy), as the standard's clip and
    numpy.clip (whose a_min= and a_max= keywords are taken too): the clip ufunc, or maximum or minimum alone;
    ``out``, ``casting`` and ``dtype`` as a ufunc's. (A Python function so that inspect.signature, which the
    standard's tools call, reads its parameters.)"""
    return _core.clip(a, a_min, a_max, out, min=min, max=max, **kwargs)


def isdtype(dtype, kind):
    """Whether ``dtype`` is of ``kind``: a dtype, one of the standard's kind names ('bool', 'signed integer',
    'unsigned integer', 'integral', 'real floating', 'complex floating', 'numeric'), or a tuple of them."""
    if isinstance(kind, tuple):
        return any(isdtype(dtype, each) for each in kind)
    if not isinstance(dtype, (numpy.dtype, type)):
        raise TypeError(f"isdtype: dtype must be a dtype (gpukit.float32, x.dtype, ...), not {dtype!r}")
    dtype = numpy.dtype(dtype)
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"isdtype: kind must be a dtype or one of {', '.join(map(repr, _KINDS))}, not {kind!r}")
        return dtype.kind in _KINDS[kind]
    if isinstance(kind, (numpy.dtype, type)):
        return dtype == numpy.dtype(kind)
    raise TypeError(f"isdtype: kind must be a dtype, a kind name or a tuple of them, not {kind!r}")


class finfo:  # noqa: N801 (the standard's and NumPy's name)
    """Limits of a floating dtype (or of an array's), numpy.finfo's in Python floats as the standard has them:
    bits, eps, max, min, smallest_normal (tiny), resolution and dtype (the real one for complex dtypes)."""

    __module__ = "gpukit"

    def __init__(self, type, /):  # noqa: A002 (the standard's name)
        limits = numpy.finfo(type.dtype if isinstance(type, _core.ndarray) else type)
        self.bits = int(limits.bits)
        self.dtype = limits.dtype
        for name in ("eps", "max", "min", "smallest_normal", "resolution", "epsneg"):
            setattr(self, name, float(getattr(limits, name)))
        self.tiny = self.smallest_normal
        self.precision = int(limits.precision)

    def __repr__(self):
        return f"finfo(resolution={self.resolution}, min={self.min}, max={self.max}, dtype={self.dtype})"


def iinfo(type, /):  # noqa: A002 (the standard's name)
    """Limits of an integer dtype (or of an array's), as numpy.iinfo."""
    return numpy.iinfo(type.dtype if isinstance(type, _core.ndarray) else type)


class _NamespaceInfo:
    """What gpukit's namespace offers, as the standard's __array_namespace_info__() describes it."""

    __module__ = "gpukit"

    def capabilities(self):
        """Boolean indexing and functions of data-dependent shapes (nonzero, unique) work; 64 dimensions."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self):
        """The calling thread's current device."""
        return get_device()

    def devices(self):
        """Every device of the selected backend."""
        return list(devices())

    def default_dtypes(self, *, device=None):
        """The dtypes gpukit picks where none is asked for, NumPy's."""
        _check_device(device)
        return {"real floating": numpy.dtype(numpy.float64), "complex floating": numpy.dtype(numpy.complex128),
                "integral": numpy.dtype(numpy.int64), "indexing": numpy.dtype(numpy.int64)}

    def dtypes(self, *, device=None, kind=None):
        """The standard's dtypes gpukit arrays hold, by name, of ``kind`` (as isdtype's) when given."""
        _check_device(device)
        every = {name: numpy.dtype(name) for name in _DTYPE_NAMES}
        if kind is None:
            return every
        return {name: dtype for name, dtype in every.items() if isdtype(dtype, kind)}


def _check_device(device):
    if device is not None and device not in devices():
        raise ValueError(f"{device!r} is not a device of the selected backend: {devices()}")


def __array_namespace_info__():  # noqa: N807 (the standard's name)
    """The standard's inspection namespace: capabilities, devices and dtypes."""
    return _NamespaceInfo()
