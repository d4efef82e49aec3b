"""gpukit's ufunc methods (reduce, accumulate, reduceat, at) against NumPy's: every binary ufunc of the
table, every loop of a few that run the in-order kernels, the parallel engines behind add, multiply,
maximum and the rest, NumPy's keywords (axis, dtype, out, keepdims, initial, where), layouts, edge
sizes, NumPy's own ufuncs dispatching here through __array_ufunc__, and the errors."""

import numpy
import pytest

import gpukit
from layouts import LAYOUTS, layout_pair
from numpy_compare import is_bfloat16, loop_dtypes, random_values, ufunc_inputs

ROWS = {ufunc.__name__: ufunc for ufunc in gpukit._core.ufuncs().values()}
BINARY = sorted(name for name, ufunc in ROWS.items() if ufunc.nin == 2 and ufunc.nout == 1)
# The ufuncs whose every folding loop (inputs and output of one dtype) is tested: they cover each
# storage type of the in-order kernels (bool, integers, float16, bfloat16, floats, complex).
EVERY_LOOP = ["subtract", "power", "arctan2", "bitwise_or", "logical_xor", "maximum", "add", "multiply", "fmin"]
# The ufuncs whose methods run the array layer's parallel reductions and scans.
ENGINES = {"add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or"}


def folding_dtypes(name):
    """The dtypes whose loop of ``name`` takes and gives that dtype (what reduce can apply)."""
    dtypes = []
    for loop in ROWS[name].types:
        found = loop_dtypes(ROWS[name], loop)
        if found and found[0][0] == found[0][1] == found[1][0] and found[0][0] not in dtypes:
            dtypes.append(found[0][0])
    return dtypes


def step(function, acc, value, dtype):
    """One step of a fold in the loop's dtype (bfloat16 computed in float32 and rounded, as gpukit's)."""
    wide = [v.astype(numpy.float32) if is_bfloat16(dtype) else v for v in (acc, value)]
    with numpy.errstate(all="ignore"):
        return numpy.asarray(function(*wide)).astype(dtype)


def in_order(function, host, method, axis, indices=None):
    """NumPy's definition of reduce, accumulate and reduceat, a step at a time along `axis`: acc =
    f(acc, next). (NumPy 2.4's own reduce of a contiguous line computes f(x[0], x[-1]) for arctan2
    and power, skipping the middle: numpy.arctan2.reduce([.3, .5, .7]) is arctan2(.3, .7).)"""
    moved = numpy.moveaxis(host, axis, 0)
    if method == "reduceat":
        parts = []
        for k, start in enumerate(indices):
            stop = indices[k + 1] if k + 1 < len(indices) else moved.shape[0]
            parts.append(in_order(function, moved[start:stop], "reduce", 0) if start < stop else moved[start])
        return numpy.moveaxis(numpy.stack(parts), 0, axis)
    acc, steps = moved[0], [moved[0]]
    for value in moved[1:]:
        acc = step(function, acc, value, host.dtype)
        steps.append(acc)
    return acc if method == "reduce" else numpy.moveaxis(numpy.stack(steps), 0, axis)


def cases():  # a list: pytest takes no generator
    for name in BINARY:
        dtypes = folding_dtypes(name)
        if not dtypes:
            continue
        chosen = dtypes if name in EVERY_LOOP else [numpy.dtype("float64") if numpy.dtype("float64") in dtypes
                                                     else dtypes[-1]]
        for dtype in chosen:
            yield pytest.param(name, dtype, id=f"{name}-{dtype}")


def host_values(name, rng, shape, dtype):
    """Random values where ``name`` is defined, exact for integers, and tame along a fold: powers of
    small bases with exponents 0..2, so that an integer power.accumulate does not overflow."""
    values = ufunc_inputs(name, rng, [shape, shape], [dtype, dtype])[0]
    kind = numpy.dtype(dtype).kind
    if name in ("power", "float_power") and kind in "iu":
        values = (numpy.abs(values.astype(numpy.int64)) % 3).astype(dtype)
    if name in ("left_shift", "right_shift") and kind in "iu":
        values = (numpy.abs(values.astype(numpy.int64)) % 3).astype(dtype)
    if name in ("floor_divide", "remainder", "fmod", "divmod", "gcd", "lcm") and kind in "iu":
        values = numpy.where(values == 0, 1, values).astype(dtype)
    return values


def reference(function, *args, **kwargs):
    """NumPy's result; bfloat16 arrays through float32 and back (NumPy has no bfloat16 loops)."""
    wide = [a.astype(numpy.float32) if isinstance(a, numpy.ndarray) and is_bfloat16(a.dtype) else a for a in args]
    with numpy.errstate(all="ignore"):
        result = function(*wide, **kwargs)
    if args and isinstance(args[0], numpy.ndarray) and is_bfloat16(args[0].dtype):
        result = numpy.asarray(result).astype(args[0].dtype)
    return numpy.asarray(result)


def assert_matches(actual, expected, name, what):
    got = actual.get()
    assert got.shape == expected.shape, f"{what}: shape {got.shape}, NumPy {expected.shape}"
    assert got.dtype == expected.dtype, f"{what}: dtype {got.dtype}, NumPy {expected.dtype}"
    if got.dtype.kind in "biu":
        numpy.testing.assert_array_equal(got, expected, err_msg=what)
        return
    # Floats: each step rounds as NumPy's does, but transcendental functions differ by a few units
    # per step (the device's libraries), and the sums and products of the parallel engines add in
    # another order.
    wide = got.astype(numpy.complex128 if got.dtype.kind == "c" else numpy.float64)
    expected = expected.astype(wide.dtype)
    rtol = {2: 2e-2, 4: 2e-4, 8: 1e-9, 16: 1e-9}[got.dtype.itemsize if got.dtype.kind != "c"
                                                   else got.dtype.itemsize // 2]
    numpy.testing.assert_allclose(wide, expected, rtol=rtol, atol=rtol, equal_nan=True, err_msg=what)


@pytest.mark.parametrize("name, dtype", list(cases()))
def test_reduce_accumulate_and_reduceat_equal_numpy_s(name, dtype, rng):
    host = host_values(name, rng, (5, 7), dtype)
    device = gpukit.asarray(host)
    ufunc, numpy_ufunc = ROWS[name], getattr(numpy, name)
    indices = [0, 3, 3, 1, 6]
    for axis in (0, 1, -1):
        expected = (reference(numpy_ufunc.reduce, host, axis=axis) if name in ENGINES
                    else in_order(numpy_ufunc, host, "reduce", axis))
        assert_matches(ufunc.reduce(device, axis=axis), expected, name, f"{name}.reduce axis={axis} {dtype}")
    expected = (reference(numpy_ufunc.accumulate, host, axis=1) if name in ENGINES
                else in_order(numpy_ufunc, host, "accumulate", 1))
    assert_matches(ufunc.accumulate(device, axis=1), expected, name, f"{name}.accumulate {dtype}")
    expected = (reference(numpy_ufunc.reduceat, host, indices, axis=1) if name in ("add", "multiply")
                else in_order(numpy_ufunc, host, "reduceat", 1, indices))
    assert_matches(ufunc.reduceat(device, indices, axis=1), expected, name, f"{name}.reduceat {dtype}")


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("name", ["subtract", "add", "maximum", "bitwise_xor"])
def test_every_layout_reduces_and_accumulates_as_numpy_s(name, layout, rng):
    dtype = numpy.int32 if name == "bitwise_xor" else numpy.float64
    host, device = layout_pair(rng, layout, dtype)
    ufunc, numpy_ufunc = ROWS[name], getattr(numpy, name)
    if host.ndim == 0:
        assert_matches(ufunc.reduce(device, axis=None), reference(numpy_ufunc.reduce, host, axis=None), name, layout)
        with pytest.raises(numpy.exceptions.AxisError):
            ufunc.reduce(device)
        return
    if host.shape[0] == 0 and numpy_ufunc.identity is None:
        with pytest.raises(ValueError, match="zero-size array to reduction operation"):
            ufunc.reduce(device)
    else:
        assert_matches(ufunc.reduce(device), reference(numpy_ufunc.reduce, host), name, layout)
    assert_matches(ufunc.accumulate(device), reference(numpy_ufunc.accumulate, host), name, layout)
    axis = host.ndim - 1
    if host.shape[axis] > 0:
        indices = [0, host.shape[axis] - 1, 0]
        assert_matches(ufunc.reduceat(device, indices, axis=axis),
                       reference(numpy_ufunc.reduceat, host, indices, axis=axis), name, layout)


@pytest.mark.parametrize("size", [0, 1, 7, 255, 4097])
def test_edge_sizes_along_a_long_line(size, rng):
    host = rng.uniform(0.5, 1.5, size)
    device = gpukit.asarray(host)
    assert_matches(gpukit.true_divide.accumulate(device), numpy.divide.accumulate(host), "divide", f"size {size}")
    assert_matches(gpukit.hypot.reduce(device), numpy.hypot.reduce(host), "hypot", f"size {size}")
    if size == 0:
        with pytest.raises(ValueError, match="zero-size array to reduction operation true_divide"):
            gpukit.true_divide.reduce(device)
    else:
        assert_matches(gpukit.true_divide.reduce(device), numpy.divide.reduce(host), "divide", f"size {size}")


def test_reduce_takes_numpy_s_keywords(rng):
    host = rng.uniform(-1, 1, (4, 5, 6))
    device = gpukit.asarray(host)
    mask = rng.integers(0, 2, (5, 6)).astype(bool)
    checks = [
        ("subtract", dict(axis=1, keepdims=True)),
        ("subtract", dict(axis=2, initial=0.5)),
        ("subtract", dict(axis=0, where=mask, initial=1.0)),
        ("subtract", dict(axis=-1, dtype=numpy.float32)),
        ("hypot", dict(axis=(0, 2))),
        ("hypot", dict(axis=None, keepdims=True)),
        ("bitwise_or", dict(axis=None)),
        ("maximum", dict(axis=(0, 1), initial=0.9, where=mask)),
        ("fmax", dict(axis=2)),
        ("logical_and", dict(axis=0)),
        ("logical_xor", dict(axis=1)),
        ("add", dict(axis=0, dtype=numpy.float32, keepdims=True)),
        ("multiply", dict(axis=None, where=mask)),
    ]
    for name, keywords in checks:
        values = (host * 100).astype(numpy.int64) if name == "bitwise_or" else host
        d_values = gpukit.asarray(values)
        d_keywords = {k: gpukit.asarray(v) if isinstance(v, numpy.ndarray) else v for k, v in keywords.items()}
        expected = reference(getattr(numpy, name).reduce, values, **keywords)
        assert_matches(ROWS[name].reduce(d_values, **d_keywords), expected, name, f"{name}.reduce {keywords}")
    out = gpukit.empty((4, 6))
    assert gpukit.subtract.reduce(device, axis=1, out=out) is out
    assert_matches(out, numpy.subtract.reduce(host, axis=1), "subtract", "out=")
    out = gpukit.empty((4, 5))
    assert gpukit.subtract.accumulate(device[:, :, 0], axis=1, out=(out,)) is out
    assert_matches(out, numpy.subtract.accumulate(host[:, :, 0], axis=1), "subtract", "accumulate out=")


def test_dtypes_follow_numpy_s_rules(rng):
    small = gpukit.asarray(rng.integers(-5, 5, 9).astype(numpy.int8))
    assert gpukit.add.reduce(small).dtype == numpy.int64  # as sum
    assert gpukit.add.reduceat(small, [0, 4]).dtype == numpy.int64
    assert gpukit.add.accumulate(small).dtype == numpy.int64
    assert gpukit.subtract.reduce(small).dtype == numpy.int8
    assert gpukit.arctan2.reduce(gpukit.asarray(numpy.arange(1, 4, dtype=numpy.int32))).dtype == numpy.float64
    assert gpukit.hypot.reduce(gpukit.asarray(numpy.arange(3, dtype=numpy.int16))).dtype == numpy.float32
    assert gpukit.logical_and.reduce(gpukit.asarray(numpy.arange(3.0))).dtype == numpy.bool_


def test_at_applies_each_index_once_per_occurrence(rng):
    for dtype in (numpy.int8, numpy.uint16, numpy.int64, numpy.float32, numpy.float64, numpy.complex64):
        host = random_values(rng, 10, dtype)
        device = gpukit.asarray(host)
        indices = numpy.array([0, 3, 3, 9, 3, 0])
        values = random_values(rng, 6, dtype)
        with numpy.errstate(all="ignore"):
            numpy.subtract.at(host, indices, values)
        gpukit.subtract.at(device, gpukit.asarray(indices), gpukit.asarray(values))
        assert_matches(device, host, "subtract", f"subtract.at {numpy.dtype(dtype)}")
    counts = gpukit.zeros(5, numpy.int8)
    gpukit.add.at(counts, [1, 1, 4] * 100, 1)  # a weak Python int keeps int8, and wraps as NumPy's
    expected = numpy.zeros(5, numpy.int8)
    numpy.add.at(expected, [1, 1, 4] * 100, 1)
    numpy.testing.assert_array_equal(counts.get(), expected)
    for dtype in (numpy.int32, numpy.uint64, numpy.float32, numpy.float64):  # atomic additions, every index at once
        host = random_values(rng, 50, dtype)
        device = gpukit.asarray(host)
        indices = rng.integers(0, 50, 4000)
        values = random_values(rng, 4000, dtype)
        with numpy.errstate(all="ignore"):
            numpy.add.at(host, indices, values)
        gpukit.add.at(device, gpukit.asarray(indices), gpukit.asarray(values))
        assert_matches(device, host, "add", f"add.at {numpy.dtype(dtype)}")
    # The updates that commute exactly, on 4- and 8-byte dtypes: compare-and-swap, every index at once,
    # exactly NumPy's result (nans kept by maximum and minimum, skipped by fmax and fmin).
    for name, dtypes in (("maximum", (numpy.float32, numpy.float64, numpy.int32, numpy.uint64)),
                         ("minimum", (numpy.float32, numpy.int64)), ("fmax", (numpy.float64,)),
                         ("fmin", (numpy.float32,)), ("bitwise_or", (numpy.uint32, numpy.int64)),
                         ("bitwise_xor", (numpy.int32,)), ("multiply", (numpy.int64, numpy.uint32))):
        for dtype in dtypes:
            host = random_values(rng, 40, dtype)
            if numpy.dtype(dtype).kind == "f":
                host[[2, 7]] = numpy.nan
            device = gpukit.asarray(host)
            indices = rng.integers(-40, 40, 3000)
            values = random_values(rng, 3000, dtype)
            with numpy.errstate(all="ignore"):
                getattr(numpy, name).at(host, indices, values)
            getattr(gpukit, name).at(device, gpukit.asarray(indices), gpukit.asarray(values))
            numpy.testing.assert_array_equal(device.get(), host, err_msg=f"{name}.at {numpy.dtype(dtype)}")
    grid_host = rng.uniform(-1, 1, (4, 6))
    grid = gpukit.asarray(grid_host)
    view, view_host = grid[::2, ::-1], grid_host[::2, ::-1]
    key = (numpy.array([0, 1, 1]), slice(1, 4))
    gpukit.multiply.at(view, key, gpukit.asarray(numpy.array([2.0, 3.0, 4.0])))
    numpy.multiply.at(view_host, key, numpy.array([2.0, 3.0, 4.0]))
    assert_matches(grid, grid_host, "multiply", "multiply.at on a strided view with a tuple key")
    flip = gpukit.asarray(numpy.arange(5.0))
    gpukit.negative.at(flip, [0, 0, 2])
    numpy.testing.assert_array_equal(flip.get(), [0.0, 1.0, -2.0, 3.0, 4.0])
    gpukit.maximum.at(flip, slice(None), 2.5)
    numpy.testing.assert_array_equal(flip.get(), [2.5, 2.5, 2.5, 3.0, 4.0])


@pytest.mark.parametrize("key_dtype", [numpy.int8, numpy.int16, numpy.int32, numpy.int64, numpy.uint8,
                                       numpy.uint16, numpy.uint32, numpy.uint64])
def test_at_takes_integer_keys_of_every_dtype_straight_to_the_kernel(rng, key_dtype):
    # A 1-d array's keys (gpukit's or NumPy's, of any shape; negative from the end) go to the kernel.
    signed = numpy.dtype(key_dtype).kind == "i"
    keys_host = rng.integers(-37 if signed else 0, 37, (30, 41)).astype(key_dtype)
    for name, dtype in (("add", numpy.float32), ("add", numpy.uint64), ("maximum", numpy.float64),
                        ("bitwise_xor", numpy.int32), ("subtract", numpy.int16), ("power", numpy.float32)):
        base_host = random_values(rng, 74, dtype)
        base = gpukit.asarray(base_host)
        target, target_host = base[::-2], base_host[::-2]
        values_host = random_values(rng, keys_host.shape, dtype)
        if name == "power":
            values_host = numpy.full(keys_host.shape, 1.01, dtype)
        for keys in (gpukit.asarray(keys_host), keys_host):
            with numpy.errstate(all="ignore"):
                getattr(numpy, name).at(target_host, keys_host, values_host)
            getattr(gpukit, name).at(target, keys, gpukit.asarray(values_host))
        with numpy.errstate(all="ignore"):
            getattr(numpy, name).at(target_host, keys_host, 3)
        getattr(gpukit, name).at(target, keys_host, 3)
        assert_matches(base, base_host, name, f"{name}.at {numpy.dtype(dtype)} with {numpy.dtype(key_dtype)} keys")
    empty = gpukit.asarray(numpy.arange(4.0))
    gpukit.add.at(empty, gpukit.asarray(numpy.zeros(0, key_dtype)), 1.0)
    numpy.testing.assert_array_equal(empty.get(), numpy.arange(4.0))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.int32, numpy.uint32, numpy.int64, numpy.uint64])
def test_add_at_of_many_updates_into_a_small_array_matches_numpy_s(rng, dtype):
    # Each block adds into its own copy in shared memory, then into the array: the updates far outnumber
    # the elements (on a GPU too). An element no update names keeps its bits (-0.0 as well).
    target_host = random_values(rng, 8, dtype)
    if numpy.dtype(dtype).kind == "f":
        target_host[[2, 5]] = -0.0
    keys = rng.integers(-8, 8, 1 << 16)
    keys[(keys == 2) | (keys == -6)] = 1
    values_host = random_values(rng, keys.size, dtype)
    target = gpukit.asarray(target_host)
    numpy.add.at(target_host, keys, values_host)
    gpukit.add.at(target, gpukit.asarray(keys), gpukit.asarray(values_host))
    numpy.add.at(target_host, keys, dtype(3))
    gpukit.add.at(target, keys, dtype(3))  # one value for every update
    if numpy.dtype(dtype).kind == "f":  # the same sum added in another order
        numpy.testing.assert_allclose(target.get(), target_host, rtol=1e-4 if dtype == numpy.float32 else 1e-12)
        assert numpy.signbit(target.get()[2])
    else:  # integers wrap the same in any order
        numpy.testing.assert_array_equal(target.get(), target_host)
    keys[1000] = 8
    with pytest.raises(IndexError, match="index 8 is out of bounds for axis 0 with size 8"):
        gpukit.add.at(target, gpukit.asarray(keys), gpukit.asarray(values_host))


def test_at_names_a_key_out_of_range_and_applies_the_others():
    # The check is the update's own pass (NumPy's precedes it): the keys in range are applied.
    for keys in (numpy.array([0, 5]), numpy.array([-4, 0]), numpy.array([2, 2**64 - 1], numpy.uint64)):
        for name in ("add", "subtract"):
            x = gpukit.zeros(3)
            with pytest.raises(IndexError, match=f"index {keys[-1] if keys[0] >= 0 else keys[0]} is out of bounds "
                               "for axis 0 with size 3"):
                getattr(gpukit, name).at(x, gpukit.asarray(keys), 1.0)
    with pytest.raises(IndexError, match="arrays used as indices must be of integer"):
        gpukit.add.at(gpukit.zeros(3), gpukit.asarray(numpy.array([0.5])), 1.0)
    x = gpukit.zeros(3)
    gpukit.add.at(x, numpy.array([-1]), 2.0)
    numpy.testing.assert_array_equal(x.get(), [0.0, 0.0, 2.0])


def test_numpy_s_ufunc_methods_dispatch_to_gpukit(rng):
    host = rng.uniform(-1, 1, (3, 4))
    device = gpukit.asarray(host)
    result = numpy.subtract.reduce(device, axis=1)
    assert isinstance(result, gpukit.ndarray)
    assert_matches(result, numpy.subtract.reduce(host, axis=1), "subtract", "numpy.subtract.reduce")
    assert_matches(numpy.maximum.accumulate(device, axis=0), numpy.maximum.accumulate(host, axis=0), "maximum",
                   "numpy.maximum.accumulate")
    assert_matches(numpy.add.reduceat(device, [0, 2], axis=1), numpy.add.reduceat(host, [0, 2], axis=1), "add",
                   "numpy.add.reduceat")
    numpy.add.at(device, (0, [1, 1]), 1.0)
    numpy.add.at(host, (0, [1, 1]), 1.0)
    assert_matches(device, host, "add", "numpy.add.at")


def test_bad_input_is_a_clear_error():
    x = gpukit.asarray(numpy.arange(6.0).reshape(2, 3))
    with pytest.raises(ValueError, match="'subtract' is not reorderable"):
        gpukit.subtract.reduce(x, axis=None)
    with pytest.raises(ValueError, match="does not have an identity, so to use a where mask"):
        gpukit.arctan2.reduce(x, where=gpukit.asarray(numpy.array([True, False, True])))
    with pytest.raises(ValueError, match="reduce only supported for binary functions"):
        gpukit.negative.reduce(x)
    with pytest.raises(ValueError, match="duplicate value in 'axis'"):
        gpukit.hypot.reduce(x, axis=(0, 0))
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.subtract.accumulate(x, axis=2)
    with pytest.raises(TypeError, match="numpy boolean subtract"):
        gpukit.subtract.reduce(gpukit.asarray(numpy.array([True, False])))
    with pytest.raises(TypeError, match="'less' has no loop that reduce can apply to int64"):
        gpukit.less.reduce(gpukit.asarray(numpy.arange(3)))
    with pytest.raises(TypeError, match="gpukit.asarray"):
        gpukit.subtract.reduce(numpy.ones(3))
    with pytest.raises(IndexError, match="index 3 out-of-bounds in reduceat"):
        gpukit.add.reduceat(x, [0, 3], axis=1)
    with pytest.raises(ValueError, match="second operand needed"):
        gpukit.add.at(x, [0])
    with pytest.raises(ValueError, match="second operand provided"):
        gpukit.negative.at(x, [0], 1.0)
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output from float64 to int64"):
        gpukit.add.at(gpukit.zeros(3, numpy.int64), [0], 1.5)
    with pytest.raises(TypeError, match="must be a gpukit array"):
        gpukit.add.at(numpy.zeros(3), [0], 1.0)
    with pytest.raises(IndexError):
        gpukit.add.at(gpukit.zeros(3), [5], 1.0)
    # The process goes on: the same array reduces afterwards.
    numpy.testing.assert_array_equal(gpukit.subtract.reduce(x).get(), numpy.subtract.reduce(x.get()))
