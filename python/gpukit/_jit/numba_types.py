"""Numba's type objects as kernels' signatures use them: scalar types (``float32``, which called
with types makes a function signature and sliced makes an array type, ``float32[:]``), ``void``,
and the signatures they make, for gpukit.vectorize, gpukit.guvectorize and their strings."""

import re
from dataclasses import dataclass

import numpy

from .._errors import describe_value
from .types import dtype_of

KERNEL_TYPES = "bool, int8..int64, uint8..uint64, float16, float32, float64, complex64, complex128"


class Signature:
    """A return type and argument types, as Numba's ``float32(float32, float32)`` makes one."""

    def __init__(self, result, args):
        self.result = result
        self.args = tuple(args)

    def __repr__(self):
        return f"{self.result.name}({', '.join(a.name for a in self.args)})"


class ScalarType:
    """Numba's scalar type objects (``float32``): a dtype; called with types, a signature; sliced
    (``float32[:, :]``), an array type."""

    def __init__(self, name):
        self.name = name

    def __call__(self, *args):
        dtypes = [dtype_or_raise(a) for a in args]
        return Signature(numpy.dtype(self.name), dtypes)

    def __repr__(self):
        return self.name

    def __getitem__(self, dimensions):
        dimensions = dimensions if isinstance(dimensions, tuple) else (dimensions,)
        for dimension in dimensions:
            if not (isinstance(dimension, slice) and dimension.start is None and dimension.stop is None
                    and dimension.step in (None, 1)):
                raise TypeError(f"an array type is written {self.name}[:] or {self.name}[:, :] (a ':' per "
                                f"dimension), not {self.name}[{dimensions!r}]")
        return ArrayType(numpy.dtype(self.name), len(dimensions))


def dtype_or_raise(value):
    dtype = dtype_of(value)
    if dtype is None:
        raise TypeError(f"{value!r} is not a type kernels have ({KERNEL_TYPES})")
    return dtype


def parse_signature(signature):
    """A Signature from Numba's forms: ``float32(float32, float32)`` or its string."""
    if isinstance(signature, Signature):
        return signature
    if isinstance(signature, str):
        match = re.fullmatch(r"\s*(\w+)\s*\(([\w\s,]*)\)\s*", signature)
        if match is None:
            raise ValueError(f"a signature reads 'float32(float32, float32)', not {signature!r}")
        args = [a.strip() for a in match.group(2).split(",") if a.strip()]
        return Signature(dtype_or_raise(match.group(1)), [dtype_or_raise(a) for a in args])
    if hasattr(signature, "return_type") and hasattr(signature, "args"):  # numba's own Signature
        return Signature(dtype_or_raise(str(signature.return_type)), [dtype_or_raise(str(a)) for a in signature.args])
    raise TypeError(f"a signature is 'float32(float32, float32)' or gpukit.cuda.float32(...), not "
                    f"{describe_value(signature)}")


@dataclass(frozen=True)
class ArrayType:
    """Numba's array type, ``float32[:]`` or ``float64[:, :]``: an element dtype and a number of dimensions."""

    dtype: numpy.dtype
    ndim: int

    def __repr__(self):
        return f"{self.dtype.name}[{', '.join([':'] * self.ndim)}]"


class GufuncSignature:
    """The types of a gufunc's operands, inputs then outputs: ArrayType, or a dtype for a scalar input."""

    def __init__(self, operands):
        self.operands = tuple(operands)

    def __repr__(self):
        return f"void({', '.join(type_name(t) for t in self.operands)})"


class VoidType:
    """Numba's ``void``: ``void(float32[:], float32[:])`` is a gufunc's signature (it returns nothing)."""

    def __call__(self, *operands):
        return GufuncSignature(operand_type(t) for t in operands)

    def __repr__(self):
        return "void"


def type_name(t):
    return repr(t) if isinstance(t, ArrayType) else t.name


def operand_type(value):
    """An operand's type from Numba's forms: ``float32[:]`` (ours or Numba's own) or a scalar type."""
    if isinstance(value, ArrayType):
        return value
    if hasattr(value, "ndim") and hasattr(value, "dtype") and not isinstance(value, (numpy.dtype, type)):
        return ArrayType(dtype_or_raise(str(value.dtype)), int(value.ndim))  # numba.float32[:]
    return dtype_or_raise(value)


def _split_top_level(text):
    """``text`` split at the commas outside brackets (those of ``float32[:, :]`` stay)."""
    items, depth, current = [], 0, []
    for character in text:
        depth += {"[": 1, "]": -1}.get(character, 0)
        if character == "," and depth == 0:
            items.append("".join(current))
            current = []
        else:
            current.append(character)
    items.append("".join(current))
    return items


def _parse_type_text(text, signature):
    match = re.fullmatch(r"\s*(\w+)\s*(?:\[([^\]]*)\])?\s*", text)
    if match is None:
        raise ValueError(f"{text.strip()!r} in signature {signature!r} is not a type such as float32 or float32[:]")
    dtype = dtype_or_raise(match.group(1))
    if match.group(2) is None:
        return dtype
    dimensions = [d.replace(" ", "") for d in match.group(2).split(",")]
    if not all(d in (":", "::1") for d in dimensions):
        raise ValueError(f"{text.strip()!r} in signature {signature!r}: an array type has a ':' per dimension, "
                         f"as float32[:, :]")
    return ArrayType(dtype, len(dimensions))


def parse_gufunc_signature(signature):
    """A GufuncSignature from Numba's forms: ``(float32[:], float32[:])``, its string with or without
    ``void``, ``void(float32[:], float32[:])``, or Numba's own signature object."""
    if isinstance(signature, GufuncSignature):
        return signature
    if isinstance(signature, str):
        match = re.fullmatch(r"\s*(?:void\s*)?\((.*)\)\s*", signature, re.DOTALL)
        if match is None:
            raise ValueError(f"a gufunc signature reads 'void(float32[:], float32[:])', not {signature!r}")
        items = _split_top_level(match.group(1)) if match.group(1).strip() else []
        return GufuncSignature(_parse_type_text(item, signature) for item in items)
    if isinstance(signature, (tuple, list)):
        return GufuncSignature(operand_type(t) for t in signature)
    if hasattr(signature, "return_type") and hasattr(signature, "args"):  # numba's own Signature
        return GufuncSignature(operand_type(t) for t in signature.args)
    raise TypeError(f"a gufunc signature is a tuple of types such as (float32[:], float32[:]) or its string "
                    f"'void(float32[:], float32[:])', not {describe_value(signature)}")


def parse_signatures(signatures, parse, one, decorator):
    """A decorator's signatures as Numba takes them (one, of the types ``one``, or a list of them)
    parsed with ``parse``; None (types from each call) stays None."""
    if signatures is None:
        return None
    if isinstance(signatures, one) or not hasattr(signatures, "__iter__"):
        signatures = [signatures]
    parsed = [parse(s) for s in signatures]
    if not parsed:
        raise ValueError(f"{decorator} needs at least one signature, or none at all (None)")
    return parsed
