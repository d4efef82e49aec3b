"""Writes ufunc_cases.inc: NumPy 2's loops of every ufunc gpukit has, and NumPy's results on inputs
chosen per function (its domain, signed zeros, infinities, nan, edges of the integer types) for every
loop, for tests/device/ufuncs_test.cpp.

Run with the project's NumPy: .venv/bin/python tests/device/data/make_ufunc_cases.py
bfloat16 is not NumPy's: its loops ('E') are computed as gpukit computes them, in float32 with NumPy
and rounded to bfloat16 (to nearest, ties to even) at the end.
Each value is written as its bits in hexadecimal (complex: the real part's, then the imaginary
part's), so that the file holds exactly what NumPy gave.
"""

import pathlib
import warnings

import numpy as np

warnings.simplefilter("ignore")
rng = np.random.default_rng(20261126)
COUNT = 67  # odd: every vector width leaves a tail, so both kernel paths run

LETTERS = {"?": "?", "b": "b", "h": "h", "i": "i", "l": "q", "q": "q", "B": "B", "H": "H", "I": "I",
           "L": "Q", "Q": "Q", "e": "e", "f": "f", "d": "d", "F": "F", "D": "D"}
NUMPY_TYPE = {"?": np.bool_, "b": np.int8, "h": np.int16, "i": np.int32, "q": np.int64, "B": np.uint8,
              "H": np.uint16, "I": np.uint32, "Q": np.uint64, "e": np.float16, "E": np.float32,
              "f": np.float32, "d": np.float64, "F": np.complex64, "D": np.complex128}


def numpy_loops(ufunc):
    """NumPy's loops in gpukit's letters, 'E' (bfloat16) after each 'e' loop, long double dropped."""
    loops = []
    for types in ufunc.types:
        ins, outs = types.split("->")
        if any(c not in LETTERS for c in ins + outs):
            continue
        spec = "".join(LETTERS[c] for c in ins) + "->" + "".join(LETTERS[c] for c in outs)
        if spec not in loops:
            loops.append(spec)
            if "e" in spec:
                loops.append(spec.replace("e", "E"))
    return loops


def round_bfloat16(values):
    """float32 values rounded to the nearest bfloat16 (ties to even), as float32."""
    values = np.asarray(values, np.float32)
    bits = values.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    out = rounded.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(values), values, out)


def hex_of(values, letter):
    """The bits of each value, as fixed-width hexadecimal, concatenated."""
    values = np.asarray(values)
    if letter == "?":
        return "".join("01" if v else "00" for v in values)
    if letter == "E":
        bits = round_bfloat16(values).view(np.uint32) >> 16
        return "".join(f"{int(b):04x}" for b in bits)
    if letter in "FD":
        part = "f" if letter == "F" else "d"
        pairs = np.stack([values.real, values.imag], axis=-1).ravel()
        return hex_of(pairs.astype(NUMPY_TYPE[part]), part)
    dtype = np.dtype(NUMPY_TYPE[letter])
    width = dtype.itemsize * 2
    unsigned = values.astype(dtype).view(f"u{dtype.itemsize}")
    return "".join(f"{int(b):0{width}x}" for b in unsigned)


# ---- inputs

def float_specials(letter):
    t = NUMPY_TYPE["f" if letter in "eE" else letter]
    info = np.finfo(np.float16 if letter == "e" else t)
    tiny = info.smallest_subnormal if letter != "E" else np.float32(2.0 ** -133)
    big = info.max if letter != "E" else np.float32(3.3895e38)
    return [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -2.5, 2.5, 1.5, float(big), float(-big),
            float(tiny), float(info.tiny) if letter != "E" else 2.0 ** -126]


def as_letter(values, letter):
    """Values as NumPy holds them in the loop's dtype (bfloat16: float32 values of bfloat16's)."""
    values = np.asarray(values, np.float64 if letter not in "FD" else np.complex128)
    if letter == "E":
        return round_bfloat16(values.astype(np.float32))
    return values.astype(NUMPY_TYPE[letter])


def log_uniform(n, low, high, signed=True):
    magnitude = np.exp(rng.uniform(np.log(low), np.log(high), n))
    return magnitude * (rng.choice([-1.0, 1.0], n) if signed else 1.0)


def float_values(letter, domain):
    """COUNT floats: special values, then random ones in the function's domain."""
    specials = float_specials(letter)
    n = COUNT - len(specials)
    limit = {"e": 1.0, "E": 8.0, "f": 8.0, "d": 64.0}[letter]  # how far exp may go: log(max) / 10
    if domain == "wide":
        rand = log_uniform(n, 1e-3, 1e3)
    elif domain == "exp":
        rand = rng.uniform(-10 * limit, 10 * limit, n)
    elif domain == "positive":
        rand = np.concatenate([log_uniform(n - 4, 1e-4, 1e4, signed=False), [-1.0, -3.0, -0.25, -1e3]])
    elif domain == "unit":
        rand = np.concatenate([rng.uniform(-1, 1, n - 4), [1.5, -1.5, 0.999, -0.999]])
    elif domain == "above_one":
        rand = np.concatenate([log_uniform(n - 3, 1.0, 1e3, signed=False), [0.5, -2.0, 1.0]])
    elif domain == "log1p":
        rand = np.concatenate([rng.uniform(-0.99, 10, n - 6), log_uniform(4, 1e-7, 1e-3), [-1.5, -1.0]])
    elif domain == "angle":
        rand = np.concatenate([rng.uniform(-10, 10, n - 4), [1e4, -1e4, 3.14159, 1.5707963]])
    elif domain == "tan":
        rand = rng.uniform(-1.5, 1.5, n)
    elif domain == "power_base":
        rand = np.concatenate([log_uniform(n - 8, 0.1, 10, signed=False), [-2.0, -3.0, -0.5, -1.0, 0.0, 2.0,
                                                                             10.0, -10.0]])
    elif domain == "power_exponent":
        rand = np.concatenate([rng.uniform(-4, 4, n - 8), [2.0, 3.0, -1.0, 0.0, 0.5, 1.0, 4.0, -2.0]])
    elif domain == "halves":
        rand = np.concatenate([rng.integers(-40, 40, n // 2) / 2.0, log_uniform(n - n // 2, 1e-3, 1e3)])
    else:
        raise ValueError(domain)
    values = np.concatenate([specials, rand])
    return as_letter(values, letter)


def complex_values(letter, domain):
    """COUNT complex numbers: special values (infinities, nan, signed zeros on the branch cuts),
    then random ones of moderate size."""
    inf, nan = np.inf, np.nan
    specials = [complex(0, 0), complex(-0.0, 0), complex(0, -0.0), complex(-0.0, -0.0), complex(1, 0),
                complex(-1, 0), complex(-2, 0), complex(-2, -0.0), complex(2, 0), complex(2, -0.0),
                complex(0, 2), complex(-0.0, 2), complex(0, -2), complex(0.5, 0), complex(-0.5, -0.0),
                complex(inf, 0), complex(-inf, 0), complex(0, inf), complex(1, inf), complex(inf, 1),
                complex(-inf, 1), complex(inf, inf), complex(-inf, -inf), complex(nan, 0), complex(0, nan),
                complex(nan, 1), complex(1, nan), complex(nan, nan), complex(inf, nan), complex(nan, inf)]
    n = COUNT - len(specials)
    scale = 30.0 if letter == "F" else 300.0
    if domain == "exp":
        re = rng.uniform(-scale, scale, n)
        im = rng.uniform(-10, 10, n)
    elif domain == "power_exponent":
        re = rng.uniform(-3, 3, n)
        im = rng.uniform(-3, 3, n)
    else:
        re = log_uniform(n, 1e-2, 1e2)
        im = log_uniform(n, 1e-2, 1e2)
    values = np.concatenate([np.array(specials, np.complex128), re + 1j * im])
    return as_letter(values, letter)


def int_values(letter, domain):
    dtype = np.dtype(NUMPY_TYPE[letter])
    info = np.iinfo(dtype)
    if domain == "shift":
        bits = dtype.itemsize * 8
        low = -2 if info.min < 0 else 0
        return rng.integers(low, bits + 3, COUNT).astype(dtype)
    if domain == "exponent":
        return rng.integers(0, 12, COUNT).astype(dtype)
    if domain == "moderate":
        return rng.integers(max(int(info.min), -10**6), min(int(info.max), 10**6), COUNT).astype(dtype)
    if domain == "small":
        low = max(int(info.min), -1000)
        return np.concatenate([[1, 0, info.max, info.min], rng.integers(low, min(int(info.max), 1000) + 1,
                                                                         COUNT - 4)]).astype(dtype)
    if domain == "nonzero":
        values = int_values(letter, "wide")
        return np.where(values == 0, 1, values).astype(dtype)
    edges = [0, 1, info.max, info.min, info.max - 1, info.min + 1, 2, 3]
    if info.min < 0:
        edges += [-1, -2, -3]
    n = COUNT - len(edges)
    wide = rng.integers(int(info.min), int(info.max), n // 2, dtype=dtype, endpoint=True)
    small = rng.integers(max(int(info.min), -100), min(int(info.max), 100) + 1, n - n // 2).astype(dtype)
    return np.concatenate([np.array(edges, dtype=dtype), wide, small]).astype(dtype)


def values_for(letter, domain):
    if letter == "?":
        return rng.integers(0, 2, COUNT).astype(bool)
    if letter in "bhiqBHIQ":
        return int_values(letter, domain if domain in ("shift", "exponent", "small", "nonzero", "moderate") else "wide")
    if letter in "FD":
        return complex_values(letter, domain)
    if domain in ("shift", "exponent", "small", "nonzero", "moderate"):
        domain = "wide"
    return float_values(letter, domain)


# ---- the ufuncs: NumPy's function, each input's domain
UFUNCS = {
    "add": ("wide", "wide"), "subtract": ("wide", "wide"), "multiply": ("wide", "wide"),
    "true_divide": ("wide", "wide"), "floor_divide": ("wide", "wide"), "remainder": ("wide", "wide"),
    "negative": ("wide",), "positive": ("wide",), "absolute": ("wide",),
    "maximum": ("wide", "wide"), "minimum": ("wide", "wide"),
    "equal": ("wide", "wide"), "not_equal": ("wide", "wide"), "less": ("wide", "wide"),
    "less_equal": ("wide", "wide"), "greater": ("wide", "wide"), "greater_equal": ("wide", "wide"),
    "fmod": ("wide", "wide"), "power": ("power_base", "power_exponent"),
    "float_power": ("power_base", "power_exponent"),
    "fabs": ("wide",), "sign": ("wide",), "reciprocal": ("nonzero",),
    "exp": ("exp",), "exp2": ("exp",), "expm1": ("exp",), "log": ("positive",), "log2": ("positive",),
    "log10": ("positive",), "log1p": ("log1p",), "sqrt": ("positive",), "cbrt": ("wide",), "square": ("wide",),
    "sin": ("angle",), "cos": ("angle",), "tan": ("tan",), "arcsin": ("unit",), "arccos": ("unit",),
    "arctan": ("wide",), "arctan2": ("wide", "wide"), "hypot": ("wide", "wide"), "sinh": ("exp",),
    "cosh": ("exp",), "tanh": ("wide",), "arcsinh": ("wide",), "arccosh": ("above_one",), "arctanh": ("unit",),
    "deg2rad": ("wide",), "rad2deg": ("wide",), "floor": ("halves",), "ceil": ("halves",), "trunc": ("halves",),
    "rint": ("halves",), "fmax": ("wide", "wide"), "fmin": ("wide", "wide"),
    "logical_and": ("wide", "wide"), "logical_or": ("wide", "wide"), "logical_xor": ("wide", "wide"),
    "logical_not": ("wide",), "bitwise_and": ("wide", "wide"), "bitwise_or": ("wide", "wide"),
    "bitwise_xor": ("wide", "wide"), "bitwise_not": ("wide",), "left_shift": ("wide", "shift"),
    "right_shift": ("wide", "shift"), "isnan": ("wide",), "isinf": ("wide",), "isfinite": ("wide",),
    "signbit": ("wide",), "copysign": ("wide", "wide"), "ldexp": ("wide", "ldexp"), "heaviside": ("wide", "wide"),
    "conjugate": ("wide",), "gcd": ("small", "small"), "lcm": ("small", "small"),
    "divmod": ("wide", "wide"), "frexp": ("wide",), "modf": ("halves",), "nextafter": ("wide", "wide"),
    "clip": ("wide", "wide", "wide"), "logaddexp": ("wide", "wide"), "logaddexp2": ("wide", "wide"),
}
# Rows added later, written after the functions' cases so that the earlier cases keep their inputs.
LATER_UFUNCS = {"spacing": ("wide",), "bitwise_count": ("wide",)}


def ldexp_exponents(letter, mantissa_letter):
    reach = {"e": 30, "E": 300, "f": 300, "d": 2200}[mantissa_letter]
    values = rng.integers(-reach, reach, COUNT)
    if letter == "q":
        values[:4] = [2**40, -(2**40), 2**31, -(2**31) - 5]
    return values.astype(NUMPY_TYPE[letter])


def bfloat16_nextafter(x, y):
    """nextafter in bfloat16's own precision (x and y float32 values of bfloat16's), as gpukit's."""
    x, y = np.asarray(x, np.float32), np.asarray(y, np.float32)
    bits = (x.view(np.uint32) >> 16).astype(np.int64)
    away = (x < y) == (x > 0)
    stepped = np.where(x == 0, 1 | np.where(y < 0, 0x8000, 0), np.where(away, bits + 1, bits - 1))
    out = (stepped.astype(np.uint32) << 16).view(np.float32)
    out = np.where(x == y, y, out)
    return np.where(np.isnan(x) | np.isnan(y), np.float32(np.nan), out)


def bfloat16_spacing(x):
    """spacing in bfloat16's own precision, as ml_dtypes' (and gpukit's): the next value away from zero
    (a zero keeps its sign) minus x; infinities and nan give nan."""
    x = np.asarray(x, np.float32)
    bits = (x.view(np.uint32) >> 16) + 1
    out = (bits.astype(np.uint32) << 16).view(np.float32) - x
    return np.where(np.isfinite(x), out, np.float32(np.nan))


def numpy_function(name):
    return getattr(np._core.umath, name, None) or getattr(np, name)


def compute(name, loop, inputs):
    """NumPy's outputs of `loop` on `inputs` (bfloat16 loops: the float32 loop, rounded)."""
    f = numpy_function(name)
    ins, outs = loop.split("->")
    arrays = [np.asarray(x, NUMPY_TYPE[c]) for x, c in zip(inputs, ins)]
    if name == "nextafter" and loop == "EE->E":
        return [bfloat16_nextafter(*arrays)]
    if name == "spacing" and loop == "E->E":
        return [bfloat16_spacing(*arrays)]
    results = f(*arrays)  # NumPy picks the loop (for 'E': the float32 one)
    if not isinstance(results, tuple):
        results = (results,)
    for r, c in zip(results, outs):
        assert r.dtype == np.dtype(NUMPY_TYPE[c]), (name, loop, r.dtype)
    return [round_bfloat16(r) if c == "E" else r for r, c in zip(results, outs)]


def c_text(text):
    """A C string's text: '?' escaped, since '??-' is a trigraph to compilers that warn."""
    return text.replace("?", "\\?")


def case_line(name, loop, inputs, outputs):
    ins, outs = loop.split("->")
    fields = [hex_of(x, c) for x, c in zip(inputs, ins)]
    fields += [""] * (3 - len(fields))
    results = [hex_of(y, c) for y, c in zip(outputs, outs)]
    results += [""] * (2 - len(results))
    quoted = ", ".join(f'"{x}"' for x in fields + results)
    return f'ufunc_case("{name}", "{c_text(loop)}", {quoted});'


def integer_power_inputs(loop):
    """Bases and non-negative exponents (NumPy raises for negative ones: tested by hand)."""
    letter = loop[0]
    info = np.iinfo(NUMPY_TYPE[letter])
    bases = rng.integers(max(int(info.min), -6), 7, COUNT).astype(NUMPY_TYPE[letter])
    exponents = rng.integers(0, 2 * info.bits, COUNT).astype(NUMPY_TYPE[letter])
    return [bases, exponents]


ALL_LETTERS = "?bBhHiIqQeEfdFD"
BFLOAT16_MAX = 3.3895313892515355e38


def function_cases():
    """NumPy's functions that are not ufuncs, named with their arguments: (name, loop, inputs, outputs)."""
    cases = []
    for letter in ALL_LETTERS:
        condition = values_for("?", "wide")
        x, y = values_for(letter, "wide"), values_for(letter, "wide")
        cases.append(("where", f"?{letter}{letter}->{letter}", [condition, x, y],
                      [np.where(condition, x, y)]))
    condition, x, y = values_for("b", "wide"), values_for("b", "wide"), values_for("f", "wide")
    cases.append(("where", "bbf->f", [condition, x, y], [np.where(condition, x, y)]))
    for decimals in (2, -1, 0):
        for letter in ALL_LETTERS[1:]:
            # Integers whose rounding overflows their type convert back as the platform does (x86:
            # through int32 or int64): not NumPy's to define, so not tested.
            x = values_for(letter, "halves" if letter not in "iIqQ" else "moderate")
            if letter == "E":  # each of NumPy's three steps rounded to bfloat16
                f = round_bfloat16(np.float32(10.0 ** abs(decimals)))
                if decimals > 0:
                    y = round_bfloat16(np.rint(round_bfloat16(x * f)) / f)
                elif decimals < 0:
                    y = round_bfloat16(np.rint(round_bfloat16(x / f)) * f)
                else:
                    y = np.rint(x)
            else:
                y = np.around(x, decimals)
            cases.append((f"around({decimals})", f"{letter}->{letter}", [x], [y]))
    for letter in "eEfdFD":
        x = values_for(letter, "wide")
        if letter == "E":
            y = np.nan_to_num(x, posinf=BFLOAT16_MAX, neginf=-BFLOAT16_MAX)
        else:
            y = np.nan_to_num(x)
        cases.append(("nan_to_num", f"{letter}->{letter}", [x], [y]))
    for degrees in (False, True):
        for letter in ALL_LETTERS:
            x = values_for(letter, "wide")
            if letter == "E":
                a = round_bfloat16(np.arctan2(np.float32(0), x))
                y = round_bfloat16(a * round_bfloat16(np.float32(180 / np.pi))) if degrees else a
                out = "E"
            else:
                y = np.angle(x, deg=degrees)
                out = {v: k for k, v in NUMPY_TYPE.items() if k != "E"}[y.dtype.type]
            cases.append(("angle(deg)" if degrees else "angle", f"{letter}->{out}", [x], [y]))
    return cases


def ufunc_lines(name, domains):
    """The loop list of ufunc `name` and a case of each of its loops."""
    loops = numpy_loops(numpy_function(name))
    lines = [f'ufunc_loops("{name}", "{c_text(" ".join(loops))}");']
    for loop in loops:
        ins = loop.split("->")[0]
        if name == "power" and ins[0] in "bhiqBHIQ":
            inputs = integer_power_inputs(loop)
        elif name == "ldexp":
            inputs = [values_for(ins[0], "wide"), ldexp_exponents(ins[1], ins[0])]
        else:
            inputs = [values_for(c, d) for c, d in zip(ins, domains)]
        lines.append(case_line(name, loop, inputs, compute(name, loop, inputs)))
    return lines


def main():
    lines = [f"// Generated by make_ufunc_cases.py with NumPy {np.__version__}: do not edit.",
             "// ufunc_loops(name, NumPy's loops); ufunc_case(name, loop, input bits x3, output bits x2)"]
    for name, domains in UFUNCS.items():
        lines += ufunc_lines(name, domains)
    for name, loop, inputs, outputs in function_cases():
        lines.append(case_line(name, loop, inputs, outputs))
    for name, domains in LATER_UFUNCS.items():
        lines += ufunc_lines(name, domains)
    path = pathlib.Path(__file__).with_name("ufunc_cases.inc")
    path.write_text("\n".join(lines) + "\n")

if __name__ == "__main__":
    main()
