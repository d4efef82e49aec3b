"""The types of the Python kernel language: NumPy scalars, arrays and tuples, and their C spellings.

Typing follows NumPy 2 (NEP 50): a Python number is *weak*, so ``x[i] * 2.0`` with a float32 ``x``
stays float32, as it does in NumPy, where Numba would widen it to float64 (a slow double operation
on most GPUs). Arguments that are Python numbers are strong int64 / float64 / bool, as in Numba.
"""

from dataclasses import dataclass

import numpy

# How CUDA C spells each dtype the kernel language has. float16 and complex types wait for the
# translator's own helpers (Numba's CUDA target has them only partly).
C_NAMES = {
    numpy.dtype(numpy.bool_): "bool",
    numpy.dtype(numpy.int8): "signed char",
    numpy.dtype(numpy.uint8): "unsigned char",
    numpy.dtype(numpy.int16): "short",
    numpy.dtype(numpy.uint16): "unsigned short",
    numpy.dtype(numpy.int32): "int",
    numpy.dtype(numpy.uint32): "unsigned int",
    numpy.dtype(numpy.int64): "long long",
    numpy.dtype(numpy.uint64): "unsigned long long",
    numpy.dtype(numpy.float16): "__half",  # stored as half; computed in float32, as NumPy computes it
    numpy.dtype(numpy.float32): "float",
    numpy.dtype(numpy.float64): "double",
    numpy.dtype(numpy.complex64): "gk_py_complex<float>",  # the translation's own complex (PRELUDE_COMPLEX)
    numpy.dtype(numpy.complex128): "gk_py_complex<double>",
}


@dataclass(frozen=True)
class Scalar:
    """A NumPy scalar type; ``weak`` for a Python number, whose type yields to a NumPy one's."""

    dtype: numpy.dtype
    weak: bool = False

    @property
    def kind(self):
        return self.dtype.kind

    def __str__(self):
        return f"{'Python ' if self.weak else ''}{self.dtype.name}"


@dataclass(frozen=True)
class Array:
    """An array argument: element type and rank; ``contiguous``: C-contiguous (passed checked);
    ``index32``: every element's offset fits in an int, so indexing computes offsets in 32 bits
    (as hand-written CUDA C does, and CuPy and PyTorch where sizes allow: fewer instructions)."""

    dtype: numpy.dtype
    ndim: int
    contiguous: bool
    index32: bool = False

    def __str__(self):
        return f"array({self.dtype.name}, {self.ndim}d, {'C' if self.contiguous else 'A'})"


@dataclass(frozen=True)
class StaticArray:
    """A shared, local or constant array of a constant shape, row-major; ``space``: 'shared', 'local'
    or 'const' (then ``values``: its elements, from the host array it was made like)."""

    dtype: numpy.dtype
    shape: tuple
    space: str
    values: tuple = ()

    @property
    def ndim(self):
        return len(self.shape)

    def __str__(self):
        return f"{self.space} array({self.dtype.name}, {self.shape})"


@dataclass(frozen=True)
class Tuple:
    """A tuple of scalars (cuda.grid(2), an array's shape, a literal tuple)."""

    items: tuple

    def __str__(self):
        return f"tuple({', '.join(map(str, self.items))})"


BOOL = Scalar(numpy.dtype(numpy.bool_))
INT32 = Scalar(numpy.dtype(numpy.int32))
INT64 = Scalar(numpy.dtype(numpy.int64))
HALF = numpy.dtype(numpy.float16)
FLOAT32 = Scalar(numpy.dtype(numpy.float32))
FLOAT64 = Scalar(numpy.dtype(numpy.float64))
WEAK_INT = Scalar(numpy.dtype(numpy.int64), weak=True)
WEAK_FLOAT = Scalar(numpy.dtype(numpy.float64), weak=True)
WEAK_BOOL = Scalar(numpy.dtype(numpy.bool_), weak=True)
WEAK_COMPLEX = Scalar(numpy.dtype(numpy.complex128), weak=True)
COMPLEX128 = Scalar(numpy.dtype(numpy.complex128))


def literal_type(value):
    """The weak type of a Python constant, None for a value the kernel language has no type for."""
    if isinstance(value, bool):
        return WEAK_BOOL
    if isinstance(value, int):
        return WEAK_INT
    if isinstance(value, float):
        return WEAK_FLOAT
    if isinstance(value, complex):
        return WEAK_COMPLEX
    return None


def promote(a, b):
    """The type of an arithmetic result of scalars ``a`` and ``b`` (NumPy 2's rules)."""
    if a.weak and b.weak:
        return Scalar(numpy.result_type(a.dtype, b.dtype), weak=True)
    if a.weak or b.weak:
        # A Python number takes a NumPy scalar's type unless it is of a higher kind (bool < integer <
        # float): np.float32(x) + 1 is float32, np.int32(x) + 1.0 is float64.
        weak, other = (a, b) if a.weak else (b, a)
        if _kind_rank(weak) <= _kind_rank(other):
            return Scalar(other.dtype)
        if weak.kind == "c" and other.kind == "f":  # float32 + 1j is complex64: the float's precision
            return Scalar(numpy.result_type(other.dtype, numpy.complex64))
        return Scalar(weak.dtype)
    return Scalar(numpy.result_type(a.dtype, b.dtype))


_KIND_RANKS = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}  # bool < integer < float < complex


def _kind_rank(t):
    return _KIND_RANKS[t.kind]


def unify(a, b):
    """The type a variable assigned values of types ``a`` and ``b`` holds; None if there is none."""
    if a == b:
        return a
    if isinstance(a, Scalar) and isinstance(b, Scalar):
        return promote(a, b)
    if isinstance(a, Tuple) and isinstance(b, Tuple) and len(a.items) == len(b.items):
        items = tuple(unify(x, y) for x, y in zip(a.items, b.items))
        return None if None in items else Tuple(items)
    return None


def strong(t):
    """``t`` as a variable holds it: a weak number becomes its dtype's strong type."""
    if isinstance(t, Scalar) and t.weak:
        return Scalar(t.dtype)
    if isinstance(t, Tuple):
        return Tuple(tuple(strong(item) for item in t.items))
    return t


def dtype_of(value):
    """A dtype named the ways kernels name one (numpy.float32, 'float32', numba.float32, a dtype)."""
    if isinstance(value, str):
        name = value
    elif isinstance(value, numpy.dtype):
        name = value.name
    elif isinstance(value, type) and issubclass(value, numpy.generic):
        name = numpy.dtype(value).name
    elif value is float:
        name = "float64"
    elif value is int:
        name = "int64"
    elif value is bool:
        name = "bool"
    else:
        name = getattr(value, "name", None) or str(value)  # Numba's types: numba.float32.name == 'float32'
    try:
        dtype = numpy.dtype({"boolean": "bool", "b1": "bool"}.get(name, name))
    except TypeError:
        return None
    return dtype if dtype in C_NAMES else None
