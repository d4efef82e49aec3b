"""gpukit.ndarray's operators against NumPy's: each is its ufunc, reflected and in place, with gpukit
arrays, 0-d arrays, Python numbers and NumPy scalars on either side."""

import operator

import numpy
import pytest

import gpukit
from numpy_compare import assert_close, random_values, ulps_for

UFUNCS = gpukit._core.ufuncs()

# operator, its in-place form, the ufunc it runs, and the dtypes it is tested with.
BINARY = [
    (operator.add, operator.iadd, "add", ("int16", "uint8", "float32", "complex128", "bool")),
    (operator.sub, operator.isub, "subtract", ("int32", "float64", "complex64")),
    (operator.mul, operator.imul, "multiply", ("int8", "uint32", "float16", "complex128", "bool")),
    (operator.truediv, operator.itruediv, "true_divide", ("int32", "float32", "complex64")),
    (operator.floordiv, operator.ifloordiv, "floor_divide", ("int64", "uint16", "float64")),
    (operator.mod, operator.imod, "remainder", ("int8", "uint64", "float32")),
    (operator.pow, operator.ipow, "power", ("int32", "float64")),
    (operator.and_, operator.iand, "bitwise_and", ("int32", "uint8", "bool")),
    (operator.or_, operator.ior, "bitwise_or", ("int64", "bool")),
    (operator.xor, operator.ixor, "bitwise_xor", ("int16", "bool")),
    (operator.lshift, operator.ilshift, "left_shift", ("int32", "uint16")),
    (operator.rshift, operator.irshift, "right_shift", ("int64", "uint8")),
]
COMPARISONS = [(operator.eq, "equal"), (operator.ne, "not_equal"), (operator.lt, "less"),
               (operator.le, "less_equal"), (operator.gt, "greater"), (operator.ge, "greater_equal")]
UNARY = [(operator.neg, "negative", ("int8", "float32", "complex64")), (operator.pos, "positive", ("int32", "float64")),
         (operator.abs, "absolute", ("int16", "float32", "complex128")),
         (operator.invert, "bitwise_not", ("int32", "uint8", "bool"))]


def operands(rng, name, dtype, shape=(5, 6)):
    """Two host arrays of `dtype` in `name`'s domain (non-negative small powers and shifts)."""
    a, b = random_values(rng, shape, dtype), random_values(rng, shape[-1:], dtype)
    if name == "power":
        a = abs(a)
        b = (abs(b.astype(numpy.int64)) % 4).astype(dtype) if numpy.dtype(dtype).kind in "iu" else b
    if name in ("left_shift", "right_shift"):
        b = (abs(b.astype(numpy.int64)) % (8 * numpy.dtype(dtype).itemsize)).astype(dtype)
    return a, b


def numpy_says(function, *values):
    """NumPy's result, or the exception type it raises."""
    with numpy.errstate(all="ignore"):
        try:
            return function(*values)
        except TypeError:
            return TypeError
        except OverflowError:
            return OverflowError


def check(function, name, device_values, host_values, what):
    expected = numpy_says(function, *host_values)
    if isinstance(expected, type):
        with pytest.raises(expected):
            function(*device_values)
        return
    result = function(*device_values)
    assert isinstance(result, gpukit.ndarray), what
    expected = numpy.asarray(expected)
    ulps = ulps_for(name, expected.dtype, [numpy.asarray(v).dtype for v in host_values])
    assert_close(result.get(), expected, ulps, what)


@pytest.mark.parametrize(("function", "in_place", "name", "dtypes"), BINARY, ids=[row[2] for row in BINARY])
def test_binary_operators_match_numpy_either_way_round(function, in_place, name, dtypes, rng):
    if name not in UFUNCS:
        with pytest.raises(TypeError):  # NotImplemented from both sides until the ufunc's row exists
            function(gpukit.zeros(2), gpukit.zeros(2))
        return
    for dtype in dtypes:
        a, b = operands(rng, name, dtype)
        x, y = gpukit.asarray(a), gpukit.asarray(b)
        check(function, name, (x, y), (a, b), f"{name} {dtype} arrays (broadcast)")
        check(function, name, (y, x), (b, a), f"{name} {dtype} arrays, swapped")
        scalar = b[0].item()  # a Python number: weak
        check(function, name, (x, scalar), (a, scalar), f"{name} {dtype} and {scalar!r}")
        check(function, name, (scalar, x), (scalar, a), f"{scalar!r} {name} {dtype} (reflected)")
        typed = b[0]  # a NumPy scalar: typed
        check(function, name, (x, typed), (a, typed), f"{name} {dtype} and {typed!r}")
        check(function, name, (typed, x), (typed, a), f"{typed!r} {name} {dtype} (NumPy's operator defers)")
        zero_d = gpukit.asarray(b[:1].reshape(()))  # a 0-d array: strong, as NumPy's
        check(function, name, (x, zero_d), (a, b[:1].reshape(())), f"{name} {dtype} and a 0-d array")


@pytest.mark.parametrize(("function", "in_place", "name", "dtypes"), BINARY, ids=[row[2] for row in BINARY])
def test_in_place_operators_write_into_the_left_operand(function, in_place, name, dtypes, rng):
    if name not in UFUNCS:
        pytest.skip(f"no {name} row yet")
    for dtype in dtypes:
        a, b = operands(rng, name, dtype)
        x = gpukit.asarray(a)
        expected = numpy_says(in_place, a.copy(), b)
        if isinstance(expected, type):
            with pytest.raises(expected):
                in_place(x, gpukit.asarray(b))
            continue
        same = x
        x = in_place(x, gpukit.asarray(b))
        assert x is same, f"{name}: x op= y must return x itself"
        assert_close(x.get(), expected, ulps_for(name, expected.dtype, [a.dtype]), f"{name}= {dtype}")


def test_in_place_operators_keep_the_dtype_and_refuse_other_kinds(rng):
    counts = gpukit.asarray(numpy.arange(6, dtype=numpy.int32))
    with pytest.raises(TypeError, match=r"Cannot cast ufunc 'add' output from dtype\('float64'\) to dtype\('int32'\)"):
        counts += 1.5
    with pytest.raises(TypeError):
        counts /= 2  # true division gives float64, which int32 does not hold under same_kind
    counts += numpy.int64(3)  # int64 results cast back to int32: same kind
    assert counts.dtype == numpy.int32 and counts.get().tolist() == [3, 4, 5, 6, 7, 8]
    small = gpukit.asarray(numpy.array([250, 1], dtype=numpy.uint8))
    small += 10  # wraps as NumPy's
    assert small.get().tolist() == [4, 11]
    with pytest.raises(OverflowError, match="300 out of bounds for uint8"):
        small += 300
    with pytest.raises(ValueError, match="broadcast"):
        row = gpukit.asarray(numpy.ones(3))
        row += gpukit.asarray(numpy.ones((2, 3)))  # the output decides the shape


def test_in_place_with_an_overlapping_operand_reads_it_as_numpy_does(rng):
    a = random_values(rng, 31, "float64")
    x = gpukit.asarray(a)
    x += x[::-1]
    expected = a.copy()
    expected += expected[::-1]
    numpy.testing.assert_array_equal(x.get(), expected)


@pytest.mark.parametrize(("function", "name"), COMPARISONS, ids=[row[1] for row in COMPARISONS])
def test_comparisons_match_numpy(function, name, rng):
    for dtype in ("int8", "uint32", "float32", "float64"):
        a, b = random_values(rng, (4, 7), dtype), random_values(rng, 7, dtype)
        b[::2] = a[0, ::2]  # some equal pairs
        x, y = gpukit.asarray(a), gpukit.asarray(b)
        check(function, name, (x, y), (a, b), f"{name} {dtype}")
        check(function, name, (x, 0), (a, 0), f"{name} {dtype} and 0")
        check(function, name, (1.5, x), (1.5, a), f"1.5 {name} {dtype}")
        check(function, name, (numpy.float32(0.5), x), (numpy.float32(0.5), a), f"float32 {name} {dtype}")


def test_comparing_with_none_or_other_objects_falls_back_as_python_does():
    x = gpukit.asarray(numpy.arange(3))
    assert (x == None) is False  # noqa: E711 (what is tested)
    assert (x != None) is True  # noqa: E711
    assert (x == "text") is False
    assert x != object()
    with pytest.raises(TypeError, match="'<' not supported"):
        x < None  # noqa: B015
    with pytest.raises(TypeError, match="unsupported operand"):
        x + object()
    with pytest.raises(TypeError):
        "text" * x  # noqa: B018


@pytest.mark.parametrize(("function", "name", "dtypes"), UNARY, ids=[row[1] for row in UNARY])
def test_unary_operators_match_numpy(function, name, dtypes, rng):
    if name not in UFUNCS:
        pytest.skip(f"no {name} row yet")
    for dtype in dtypes:
        a = random_values(rng, (3, 5), dtype)
        check(function, name, (gpukit.asarray(a),), (a,), f"{name} {dtype}")
        check(function, name, (gpukit.asarray(a).T,), (a.T,), f"{name} {dtype} transposed")


def test_divmod_gives_floor_division_and_remainder(rng):
    for dtype in ("int32", "float64"):
        a, b = random_values(rng, 12, dtype), random_values(rng, 12, dtype)
        x, y = gpukit.asarray(a), gpukit.asarray(b)
        quotient, rest = divmod(x, y)
        numpy.testing.assert_array_equal(quotient.get(), a // b)
        numpy.testing.assert_array_equal(rest.get(), a % b)
        quotient, rest = divmod(7, x)
        numpy.testing.assert_array_equal(quotient.get(), 7 // a)
        numpy.testing.assert_array_equal(rest.get(), 7 % a)


def test_power_takes_no_modulo():
    x = gpukit.asarray(numpy.arange(4))
    if "power" not in UFUNCS:
        pytest.skip("no power row yet")
    with pytest.raises(TypeError):
        pow(x, 2, 3)


def test_matmul_is_the_at_operator_and_other_objects_are_not_implemented(rng):
    host = random_values(rng, (3, 3), "float64")
    x = gpukit.asarray(host)
    numpy.testing.assert_allclose((x @ x).get(), host @ host, rtol=1e-12)
    x @= x
    numpy.testing.assert_allclose(x.get(), host @ host, rtol=1e-12)
    with pytest.raises(TypeError, match="unsupported operand"):
        x @ object()  # noqa: B018


def test_numpy_arrays_beside_gpukit_arrays_name_gpukit_asarray(rng):
    host = random_values(rng, 4, "float32")
    x = gpukit.asarray(host)
    for operation in (lambda: x + host, lambda: host + x, lambda: x * host[:1].reshape(()), lambda: host - x,
                      lambda: x < host, lambda: x + [1, 2, 3, 4], lambda: (1, 2, 3, 4) * x):
        with pytest.raises(TypeError, match="gpukit.asarray"):
            operation()


def test_numpy_ufuncs_on_gpukit_arrays_run_gpukit_s(rng):
    a = random_values(rng, 6, "float64")
    x = gpukit.asarray(a)
    result = numpy.negative(x)
    assert isinstance(result, gpukit.ndarray)
    numpy.testing.assert_array_equal(result.get(), -a)
    result = numpy.add(x, 2.5)
    assert isinstance(result, gpukit.ndarray)
    numpy.testing.assert_array_equal(result.get(), a + 2.5)
    out = gpukit.empty(6, numpy.float64)
    assert numpy.multiply(x, x, out=out) is out
    numpy.testing.assert_array_equal(out.get(), a * a)
    numpy.testing.assert_array_equal(numpy.subtract.outer(x, x).get(), numpy.subtract.outer(a, a))
    with pytest.raises(TypeError, match="gpukit.asarray"):
        numpy.add(a, x)
    # (numpy.add.reduce(x) and the other methods: test_ufunc_methods.)


def test_integer_results_wrap_as_numpy_s():
    values = numpy.array([127, -128, 100], dtype=numpy.int8)
    x = gpukit.asarray(values)
    with numpy.errstate(all="ignore"):
        numpy.testing.assert_array_equal((x + 1).get(), values + 1)
        numpy.testing.assert_array_equal((x * 3).get(), values * 3)
        numpy.testing.assert_array_equal((-x).get(), -values)
    assert (x // 7).dtype == numpy.int8 and (x / 7).dtype == numpy.float64


@pytest.mark.needs_gpu
@pytest.mark.parametrize("library", ["cupy", "torch"])
def test_cuda_arrays_of_other_libraries_are_operands_in_place(library, rng):
    module = pytest.importorskip(library)
    a, b = random_values(rng, 64, "float32"), random_values(rng, 64, "float32")
    other = module.asarray(b) if library == "cupy" else module.from_numpy(b).cuda()
    x = gpukit.asarray(a)
    numpy.testing.assert_array_equal((x + other).get(), a + b)
    numpy.testing.assert_array_equal(gpukit.multiply(other, x).get(), b * a)
    out = module.zeros(64, dtype=module.float32) if library == "cupy" else module.zeros(64, device="cuda")
    assert gpukit.subtract(x, other, out=out) is out  # written in place, the object itself returned
    numpy.testing.assert_array_equal(out.get() if library == "cupy" else out.cpu().numpy(), a - b)
