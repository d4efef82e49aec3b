"""The element types gpukit arrays hold, and their DLPack codes."""

import numpy

# NumPy kind -> DLPack type code.
_DLPACK_CODES = {"b": 6, "i": 0, "u": 1, "f": 2, "c": 5}
_KINDS_BY_CODE = {code: kind for kind, code in _DLPACK_CODES.items()}

SUPPORTED = tuple(
    numpy.dtype(name)
    for name in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float16", "float32", "float64", "complex64", "complex128")
)


def to_dtype(dtype):
    """``dtype`` as a supported, native-byte-order numpy.dtype; ValueError naming the supported ones otherwise."""
    resolved = numpy.dtype(dtype)
    if resolved.byteorder == ">" or (resolved.byteorder == "=" and not numpy.little_endian):
        resolved = resolved.newbyteorder("=")
    if resolved not in SUPPORTED:
        names = ", ".join(str(d) for d in SUPPORTED)
        raise ValueError(f"gpukit arrays do not hold {resolved}; they hold {names}")
    return resolved


def to_dlpack(dtype):
    """(DLPack type code, bits) of a supported dtype."""
    return _DLPACK_CODES[dtype.kind], dtype.itemsize * 8


def from_dlpack(code, bits, lanes):
    """The numpy.dtype of a DLPack data type; BufferError for one gpukit arrays cannot hold."""
    kind = _KINDS_BY_CODE.get(code)
    if kind is None or lanes != 1 or bits % 8:
        raise BufferError(f"gpukit arrays cannot hold DLPack type (code {code}, {bits} bits, {lanes} lanes)")
    return to_dtype(f"{kind}{bits // 8}" if kind != "b" else "bool")
