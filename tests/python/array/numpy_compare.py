"""Comparing gpukit's elementwise results with NumPy's: inputs per ufunc, loops, ulp bounds.

Results must equal NumPy's exactly for integers and bool and for the float operations IEEE 754
rounds correctly (+ - * /, sqrt, the exact ones); other float functions within ULPS[name] units in
the last place of NumPy's result, as their device implementations (CUDA's libdevice on a GPU, the
C library on the simulator) and NumPy's differ by up to that. float16 and bfloat16 are computed in
float32 on both sides, so they may differ by one unit of their own where float32 results differ.
"""

import numpy

try:
    import ml_dtypes
except ImportError:  # bfloat16 loops are skipped without it
    ml_dtypes = None

# Units in the last place each function may differ from NumPy by (floats; complex results by the
# magnitude of the result). Functions not named here must match exactly.
ULPS = {name: 4 for name in (
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "cbrt", "sin", "cos", "tan", "arcsin", "arccos",
    "arctan", "arctan2", "hypot", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "power", "float_power",
    "deg2rad", "rad2deg", "logaddexp", "logaddexp2")}
# Complex results: the device's complex arithmetic (fused multiply-adds, Smith's division) rounds
# differently from NumPy's, by a few units of the result's magnitude.
COMPLEX_ULPS = 8
COMPLEX_FUNCTION_ULPS = 16

LETTERS = {"?": "bool", "b": "int8", "h": "int16", "i": "int32", "q": "int64", "B": "uint8", "H": "uint16",
           "I": "uint32", "Q": "uint64", "e": "float16", "f": "float32", "d": "float64", "F": "complex64",
           "D": "complex128"}


def dtype_of_letter(letter):
    """The NumPy dtype of a letter of ufunc.types (E: ml_dtypes' bfloat16, None without it)."""
    if letter == "E":
        return numpy.dtype(ml_dtypes.bfloat16) if ml_dtypes else None
    return numpy.dtype(LETTERS[letter])


def loop_dtypes(ufunc, loop):
    """(input dtypes, output dtypes) of a loop such as 'ff->f'; None where one is unavailable (bfloat16)."""
    inputs, outputs = loop.split("->")
    dtypes = [dtype_of_letter(letter) for letter in inputs + outputs]
    if any(dtype is None for dtype in dtypes):
        return None
    return dtypes[:ufunc.nin], dtypes[ufunc.nin:]


def is_bfloat16(dtype):
    return ml_dtypes is not None and numpy.dtype(dtype) == numpy.dtype(ml_dtypes.bfloat16)


def random_values(rng, shape, dtype):
    """Random values of ``dtype``, never zero: small integers, floats and both parts of complex in [-1, 1]."""
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype.kind in "iu":
        info = numpy.iinfo(dtype)
        values = rng.integers(max(info.min, -100), min(info.max, 100), size=shape, endpoint=True)
        values[values == 0] = 1
        return values.astype(dtype)
    if dtype.kind == "c":
        return (rng.uniform(0.05, 1, size=shape) * rng.choice([-1, 1], size=shape)
                + 1j * rng.uniform(0.05, 1, size=shape) * rng.choice([-1, 1], size=shape)).astype(dtype)
    values = rng.uniform(0.05, 1, size=shape) * rng.choice([-1, 1], size=shape)
    return values.astype(numpy.float32).astype(dtype) if is_bfloat16(dtype) else values.astype(dtype)


def ufunc_inputs(name, rng, shapes, dtypes):
    """Random inputs in the domain where ``name`` is defined and NumPy's result is exact for integers."""
    values = [random_values(rng, shape, dtype) for shape, dtype in zip(shapes, dtypes)]
    kinds = [numpy.dtype(d).kind for d in dtypes]
    if name in ("sqrt", "log", "log2", "log10", "log1p", "reciprocal") and kinds[0] in "fe":
        values[0] = abs(values[0])
    if name == "arccosh" and kinds[0] == "f":
        values[0] = (1 + abs(values[0].astype(numpy.float32))).astype(values[0].dtype)
    if name in ("power", "float_power") and kinds[0] in "iuf":
        values[0] = abs(values[0]) if kinds[0] != "u" else values[0]
        if kinds[1] in "iu":  # NumPy refuses negative integer powers of integers
            values[1] = (abs(values[1].astype(numpy.int64)) % 5).astype(dtypes[1])
    if name in ("left_shift", "right_shift"):
        bits = numpy.dtype(dtypes[0]).itemsize * 8
        values[1] = (abs(values[1].astype(numpy.int64)) % bits).astype(dtypes[1])
    if name == "ldexp":
        values[1] = (values[1].astype(numpy.int64) % 20 - 10).astype(dtypes[1])
    return values


def numpy_reference(name, values, output_dtypes):
    """NumPy's result of ufunc ``name`` on host ``values``; bfloat16 is computed in float32 and rounded."""
    function = getattr(numpy, name)
    # nextafter and spacing step in their own precision (ml_dtypes has the bfloat16 loops): float32 steps would not
    own_precision = name in ("nextafter", "spacing")
    wide = [v.astype(numpy.float32) if is_bfloat16(v.dtype) and not own_precision else v for v in values]
    with numpy.errstate(all="ignore"):
        result = function(*wide)
    results = result if isinstance(result, tuple) else (result,)
    return tuple(numpy.asarray(r).astype(d) if is_bfloat16(d) else numpy.asarray(r)
                 for r, d in zip(results, output_dtypes))


def ulps_for(name, dtype, inputs=()):
    """The units in the last place ufunc ``name``'s results of ``dtype`` (from ``inputs`` of those dtypes) may
    differ from NumPy's by."""
    dtype = numpy.dtype(dtype)
    if dtype.kind == "c" or any(numpy.dtype(d).kind == "c" for d in inputs):
        if name in ULPS or name in ("sqrt", "reciprocal", "sign"):
            return COMPLEX_FUNCTION_ULPS
        return COMPLEX_ULPS if name in ("multiply", "true_divide", "square", "absolute") else 0
    if name not in ULPS:
        return 0
    # float16 and bfloat16 are computed in float32 and rounded: one unit of their own.
    return 1 if dtype.itemsize == 2 else ULPS[name]


def error_magnitude(name, inputs, expected):
    """The magnitude whose units in the last place bound ``name``'s error, where it is not the result's own:
    logaddexp(x, y) is max(x, y) plus a log1p term rounded on its own, and the sum may cancel (the result
    near 0, the term near ln 2), so its error is in units of the larger of the result and that term."""
    if name not in ("logaddexp", "logaddexp2"):
        return None
    expected = numpy.asarray(expected)
    with numpy.errstate(all="ignore"):
        larger = numpy.maximum(*[numpy.asarray(v).astype(expected.dtype) for v in inputs])
        return abs(expected - larger)


def assert_close(actual, expected, ulps=0, what="", magnitude=None):
    """``actual`` (host) equals ``expected``: exactly (nan where NumPy has nan), or for floats within
    ``ulps`` units in the last place of NumPy's result (of its magnitude for complex), or of ``magnitude``
    where that is larger (error_magnitude)."""
    actual = numpy.asarray(actual)
    expected = numpy.asarray(expected)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape}, NumPy {expected.shape}"
    assert actual.dtype == expected.dtype, f"{what}: dtype {actual.dtype}, NumPy {expected.dtype}"
    if is_bfloat16(actual.dtype):
        actual, expected = actual.astype(numpy.float32), expected.astype(numpy.float32)
        with numpy.errstate(all="ignore"):  # bfloat16 keeps 8 significant bits
            spacing = 2.0 ** (numpy.floor(numpy.log2(numpy.maximum(abs(expected), 2.0**-126))) - 7)
    elif actual.dtype.kind == "c":
        real = actual.real.dtype
        spacing = numpy.spacing(numpy.maximum(numpy.abs(expected).astype(real), numpy.finfo(real).tiny))
    elif actual.dtype.kind == "f":
        spacing = numpy.spacing(abs(expected) if magnitude is None else numpy.maximum(abs(expected), magnitude))
    else:
        numpy.testing.assert_array_equal(actual, expected, err_msg=what)
        return
    with numpy.errstate(all="ignore"):
        good = (actual == expected) | (numpy.isnan(actual) & numpy.isnan(expected))
        if ulps:
            error = abs(actual.astype(numpy.complex128) - expected.astype(numpy.complex128))
            good |= numpy.isfinite(expected) & (error <= ulps * spacing)
    assert good.all(), (f"{what}: {actual[~good][:4]} where NumPy has {expected[~good][:4]}"
                        + (f" (more than {ulps} ulp)" if ulps else " (must be exact)"))
