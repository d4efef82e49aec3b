"""PyCUDA's C argument lists ("float a, float *x, int n"): each name, its dtype and whether it is a pointer."""

import re

import numpy

C_TYPES = {
    "bool": "bool", "char": "int8", "signed char": "int8", "unsigned char": "uint8", "short": "int16",
    "unsigned short": "uint16", "int": "int32", "unsigned int": "uint32", "unsigned": "uint32", "long": "int64",
    "unsigned long": "uint64", "long long": "int64", "unsigned long long": "uint64", "float": "float32",
    "double": "float64", "int8_t": "int8", "uint8_t": "uint8", "int16_t": "int16", "uint16_t": "uint16",
    "int32_t": "int32", "uint32_t": "uint32", "int64_t": "int64", "uint64_t": "uint64", "size_t": "uint64",
}


def c_type_of(dtype):
    """The C name of ``dtype`` that parse_arguments reads back (float, double, bool, int32_t...)."""
    dtype = numpy.dtype(dtype)
    return {"bool": "bool", "float32": "float", "float64": "double"}.get(dtype.name, dtype.name + "_t")


def parse_arguments(arguments):
    """[(name, dtype, is_pointer)] of a PyCUDA argument list; ValueError naming a part it cannot read."""
    if not isinstance(arguments, str):
        raise TypeError("PyCUDA-style arguments are a str such as 'float a, float *x'")
    parsed = []
    for part in arguments.split(","):
        text = " ".join(part.replace("*", " * ").split())
        match = re.fullmatch(r"(?:const )?([a-z_0-9 ]+?)( \*)? (?:__restrict__ |const )?([A-Za-z_]\w*)", text)
        if match is None or match.group(1) not in C_TYPES:
            raise ValueError(f"cannot read the argument {part.strip()!r}: write a C type of {sorted(C_TYPES)} "
                             "and a name, with * for a pointer ('float *x')")
        parsed.append((match.group(3), numpy.dtype(C_TYPES[match.group(1)]), match.group(2) is not None))
    return parsed
