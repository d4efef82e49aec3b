"""Kernel arguments written on the command line, as ``gpukit check --arg`` takes them:
``float32[1000]:random`` is a device array, ``int32:1000`` a scalar. :data:`SYNTAX` is the whole
grammar, as ``gpukit check --help`` prints it."""

import re
from dataclasses import dataclass

import numpy

from .. import _creation, _interop

DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64")

SYNTAX = """\
kernel arguments (--arg, once per parameter, in order):
  DTYPE[LENGTH]:FILL   a device array of LENGTH elements; FILL is one of
                         zeros            every element 0 (the default when :FILL is left out)
                         arange           0, 1, 2, ...
                         random           floats uniform in [0, 1), integers uniform in [0, 100)
                         random:LOW:HIGH  uniform in [LOW, HIGH)
                         const:VALUE      every element VALUE
                         empty            never written: initcheck reports reads of it
  DTYPE:VALUE          a scalar: int32:1000, float32:2.5, uint64:0xff
  DTYPE                int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32 float64
  Quote array arguments in shells that expand [...] (zsh): --arg 'float32[1000]:random'.
"""

_ARRAY = re.compile(r"(?P<dtype>\w+)\[(?P<length>[^\]]*)\](?::(?P<fill>.*))?")
_SCALAR = re.compile(r"(?P<dtype>\w+):(?P<value>.*)")
_DEFAULT_INTEGER_RANGE = (0, 100)
_DEFAULT_FLOAT_RANGE = (0.0, 1.0)


@dataclass(frozen=True)
class ArrayArgument:
    """A device array the command allocates and fills before the launch."""

    text: str
    dtype: numpy.dtype
    length: int
    fill: str           # 'zeros', 'arange', 'random', 'const' or 'empty'
    fill_values: tuple  # random: (low, high); const: (value,); otherwise ()

    def make(self, rng):
        """The filled device array (on the current device); ``rng`` draws the random fills."""
        if self.fill == "empty":
            return _creation.empty(self.length, self.dtype)
        if self.fill == "zeros":
            return _creation.zeros(self.length, self.dtype)
        if self.fill == "const":
            return _creation.full(self.length, self.fill_values[0], self.dtype)
        if self.fill == "arange":
            host = numpy.arange(self.length).astype(self.dtype)
        elif self.dtype.kind in "iu":
            host = rng.integers(*self.fill_values, size=self.length, dtype=self.dtype)
        else:
            host = rng.uniform(*self.fill_values, size=self.length).astype(self.dtype)
        return _interop.asarray(host)


@dataclass(frozen=True)
class ScalarArgument:
    """A value the kernel takes by value."""

    text: str
    value: numpy.generic

    def make(self, rng):
        """The value; ``rng`` is unused (the same call as :meth:`ArrayArgument.make`)."""
        return self.value


def parse_argument(text):
    """An :class:`ArrayArgument` or :class:`ScalarArgument` for ``text``; ``ValueError`` saying
    what is wrong and how it should read otherwise."""
    array = _ARRAY.fullmatch(text)
    if array:
        dtype = _dtype(array["dtype"], text)
        length = _length(array["length"], text)
        fill, fill_values = _fill(array["fill"], dtype, text)
        return ArrayArgument(text, dtype, length, fill, fill_values)
    scalar = _SCALAR.fullmatch(text)
    if scalar:
        dtype = _dtype(scalar["dtype"], text)
        return ScalarArgument(text, dtype.type(_value(scalar["value"], dtype, text)))
    raise ValueError(f"'{text}' is neither an array (DTYPE[LENGTH]:FILL, e.g. float32[1000]:random) "
                     "nor a scalar (DTYPE:VALUE, e.g. int32:1000)")


def _dtype(name, text):
    if name not in DTYPES:
        raise ValueError(f"'{text}': unknown type '{name}'; use one of {', '.join(DTYPES)}")
    return numpy.dtype(name)


def _length(digits, text):
    if not digits.isdigit() or int(digits) < 1:
        raise ValueError(f"'{text}': the length in [...] must be a whole number of elements, at least 1, "
                         f"not '{digits}'")
    return int(digits)


# Each fill's written form and how many ':'-separated values may follow its name.
_FILLS = {
    "zeros": ("zeros", (0,)),
    "arange": ("arange", (0,)),
    "empty": ("empty", (0,)),
    "const": ("const:VALUE", (1,)),
    "random": ("random or random:LOW:HIGH", (0, 2)),
}


def _fill(fill, dtype, text):
    name, *values = (fill or "zeros").split(":")
    if name not in _FILLS:
        raise ValueError(f"'{text}': unknown fill '{name}'; use zeros, arange, random, random:LOW:HIGH, "
                         "const:VALUE or empty")
    form, value_counts = _FILLS[name]
    if len(values) not in value_counts:
        raise ValueError(f"'{text}': write the fill as {form}")
    if name == "random":
        return name, _random_range(values, dtype, text)
    return name, tuple(_value(value, dtype, text) for value in values)


def _random_range(values, dtype, text):
    """(LOW, HIGH) for ``random[:LOW:HIGH]``: HIGH is excluded, so it may be one past the type's largest value."""
    if not values:
        return _DEFAULT_INTEGER_RANGE if dtype.kind in "iu" else _DEFAULT_FLOAT_RANGE
    low, high = (_number(value, dtype, text) for value in values)
    if not low < high:
        raise ValueError(f"'{text}': random:LOW:HIGH needs LOW < HIGH (values are drawn from [LOW, HIGH))")
    _check_fits(low, values[0], dtype, text)
    _check_fits(high - 1 if dtype.kind in "iu" else high, values[1], dtype, text)
    return low, high


def _value(text, dtype, whole):
    """``text`` as a Python number that ``dtype`` holds; ValueError otherwise."""
    value = _number(text, dtype, whole)
    _check_fits(value, text, dtype, whole)
    return value


def _number(text, dtype, whole):
    try:
        return int(text, 0) if dtype.kind in "iu" else float(text)
    except ValueError:
        kind = "an integer" if dtype.kind in "iu" else "a number"
        raise ValueError(f"'{whole}': '{text}' is not {kind}, as {dtype} needs") from None


def _check_fits(value, text, dtype, whole):
    limits = numpy.iinfo(dtype) if dtype.kind in "iu" else numpy.finfo(dtype)
    low, high = (limit if dtype.kind in "iu" else float(limit) for limit in (limits.min, limits.max))
    if abs(value) != float("inf") and not low <= value <= high:  # infinity is a float32 as much as a float64
        raise ValueError(f"'{whole}': {text} does not fit in {dtype} ({limits.min} to {limits.max})")
