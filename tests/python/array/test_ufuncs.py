"""gpukit's ufuncs against NumPy's: every row of the C++ table and every loop it has (from
``ufunc.types``, so a new row is tested without a line here), layouts, scalars, keywords, errors."""

import numpy
import pytest

import gpukit
from numpy_compare import (
    assert_close,
    error_magnitude,
    loop_dtypes,
    numpy_reference,
    random_values,
    ufunc_inputs,
    ulps_for,
)

# One object per row of the table; aliases (gpukit.divide is gpukit.true_divide) are the same objects.
ROWS = {ufunc.__name__: ufunc for ufunc in gpukit._core.ufuncs().values()}
NAMES = sorted(ROWS)
BINARY = [name for name in NAMES if ROWS[name].nin == 2 and ROWS[name].nout == 1]


def results_of(result):
    return result if isinstance(result, tuple) else (result,)


def device_inputs(values):
    return [gpukit.asarray(v) for v in values]


def check_against_numpy(name, device, host, what):
    """gpukit's `name` on `device` operands equals NumPy's on the `host` ones (dtypes included)."""
    ufunc = ROWS[name]
    with numpy.errstate(all="ignore"):
        expected = results_of(getattr(numpy, name)(*host))
    actual = results_of(ufunc(*device))
    assert len(actual) == ufunc.nout
    for result, reference in zip(actual, expected):
        reference = numpy.asarray(reference)
        assert_close(result.get(), reference, ulps_for(name, reference.dtype, [h.dtype for h in host]), what,
                     error_magnitude(name, host, reference))


@pytest.mark.parametrize("name", NAMES)
def test_every_loop_of_every_ufunc_matches_numpy(name, rng):
    ufunc = ROWS[name]
    assert ufunc.types, name
    tested = 0
    for loop in ufunc.types:
        dtypes = loop_dtypes(ufunc, loop)
        if dtypes is None:  # bfloat16 without ml_dtypes
            continue
        inputs, outputs = dtypes
        values = ufunc_inputs(name, rng, [(31,)] * ufunc.nin, inputs)
        actual = results_of(ufunc(*device_inputs(values)))
        expected = numpy_reference(name, values, outputs)
        for result, reference, dtype in zip(actual, expected, outputs):
            assert result.dtype == dtype, f"{name} {loop}: the loop gives {dtype}, the call gave {result.dtype}"
            assert_close(result.get(), reference, ulps_for(name, dtype, inputs), f"{name} {loop}",
                         error_magnitude(name, values, reference))
        tested += 1
    assert tested > 0


def layouts(make, nin):
    """(what, host operands, device operands) for each layout. ``make(shapes)`` gives host values; the
    device views are made on the device as the host ones are made of the host arrays."""
    def pair(shape):
        host = make([shape] * nin)
        return host, device_inputs(host)

    host, device = pair((4097,))
    yield "contiguous 4097", host, device
    host, device = pair((1,))
    yield "size 1", host, device
    host, device = pair((0,))
    yield "size 0", host, device
    host, device = pair(())
    yield "0-d", host, device
    host, device = pair((31 * 3,))
    yield "strided (step 3)", [h[::3] for h in host], [d[::3] for d in device]
    host, device = pair((31,))
    yield "reversed", [h[::-1] for h in host], [d[::-1] for d in device]
    host, device = pair((5, 7))
    yield "transposed and contiguous", [host[0].T] + [h.T.copy() for h in host[1:]], \
        [device[0].T] + [gpukit.asarray(h.T.copy()) for h in host[1:]]
    host, device = pair((3, 4, 5))
    yield "transposed 3-D", [h.transpose(2, 0, 1) for h in host], [d.transpose(2, 0, 1) for d in device]
    if nin > 1:
        host = make([(3, 1), (5,)] + [(1, 5)] * (nin - 2))
        yield "broadcast (3, 1) and (5,)", host, device_inputs(host)
        host = make([(4, 5), ()] + [(5,)] * (nin - 2))
        yield "broadcast with a 0-d array", host, device_inputs(host)


def layout_dtype(ufunc):
    """The loop dtype layouts are tested with: float32 where the ufunc has it, else its first loop's."""
    same = [dtypes[0][0] for dtypes in map(lambda loop: loop_dtypes(ufunc, loop), ufunc.types)
            if dtypes and len(set(dtypes[0])) == 1]
    return numpy.dtype(numpy.float32) if numpy.float32 in same else (same[0] if same else None)


@pytest.mark.parametrize("name", NAMES)
def test_every_ufunc_on_every_layout_matches_numpy(name, rng):
    ufunc = ROWS[name]
    dtype = layout_dtype(ufunc)
    if dtype is None:
        pytest.skip(f"{name} has no loop of one input dtype")

    def make(shapes):
        return ufunc_inputs(name, rng, shapes, [dtype] * ufunc.nin)

    for what, host, device in layouts(make, ufunc.nin):
        check_against_numpy(name, device, host, f"{name} {dtype} {what}")


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64", "float16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("scalar", [3, -2, 0.5, True, 2j, numpy.float32(1.5), numpy.int16(-3), numpy.uint8(7),
                                    numpy.float64(0.25), numpy.bool_(True)])
def test_python_and_numpy_scalars_promote_as_numpy_2(dtype, scalar, rng):
    host = random_values(rng, 17, dtype)
    array = gpukit.asarray(host)
    for name in ("add", "multiply", "subtract", "maximum", "less"):
        if name not in ROWS:
            continue
        with numpy.errstate(all="ignore"):
            try:
                expected = getattr(numpy, name)(host, scalar)
            except (TypeError, OverflowError) as error:
                with pytest.raises(type(error)):
                    ROWS[name](array, scalar)
                continue
        promoted = numpy.result_type(host, scalar)
        if not any(loop_dtypes(ROWS[name], loop) and loop_dtypes(ROWS[name], loop)[0][0] == promoted
                   for loop in ROWS[name].types):
            continue  # gpukit has no loop for it yet (complex maximum, NumPy's ordering of complex)
        result = ROWS[name](array, scalar)
        assert_close(result.get(), expected, ulps_for(name, expected.dtype, [promoted]), f"{name}({dtype}, {scalar!r})",
                     error_magnitude(name, (host, scalar), expected))
        flipped = ROWS[name](scalar, array)
        with numpy.errstate(all="ignore"):
            flipped_expected = getattr(numpy, name)(scalar, host)
            assert_close(flipped.get(), flipped_expected, ulps_for(name, expected.dtype, [promoted]),
                         f"{name}({scalar!r}, {dtype})", error_magnitude(name, (scalar, host), flipped_expected))


def test_python_ints_out_of_the_dtype_s_range_raise_overflow_error_as_numpy():
    small = gpukit.asarray(numpy.arange(3, dtype=numpy.uint8))
    with pytest.raises(OverflowError, match="300 out of bounds for uint8"):
        gpukit.add(small, 300)
    with pytest.raises(gpukit.ScalarOverflowError, match="-1 out of bounds for uint8"):
        small + -1
    with pytest.raises(OverflowError, match="int64 and uint64"):
        gpukit.add(gpukit.asarray(numpy.arange(3)), 2**64)
    with pytest.raises(OverflowError):
        gpukit.add(gpukit.asarray(numpy.arange(3)), -2**63 - 1)
    # Above int64 a Python int still fits uint64 arrays and floats.
    big = gpukit.asarray(numpy.array([1, 2], dtype=numpy.uint64))
    assert (big + 2**63).get().tolist() == [2**63 + 1, 2**63 + 2]
    assert (gpukit.asarray(numpy.ones(2)) + 2**63).get().tolist() == [2.0**63 + 1] * 2


def test_calls_of_numbers_alone_give_a_0_d_array_as_cupy():
    three = gpukit.add(1, 2)
    assert isinstance(three, gpukit.ndarray) and three.shape == () and three.dtype == numpy.int64
    assert three.item() == 3
    assert gpukit.add(1, 2.5).dtype == numpy.float64
    assert gpukit.add(1, numpy.float32(2)).dtype == numpy.float32  # the typed scalar decides, as NumPy's
    assert gpukit.multiply(2.0, 3j).item() == 6j
    assert gpukit.negative(numpy.int8(5)).dtype == numpy.int8


def test_out_is_written_and_returned(rng):
    a, b = (random_values(rng, (4, 6), "float32") for _ in range(2))
    x, y = gpukit.asarray(a), gpukit.asarray(b)
    out = gpukit.empty((4, 6), numpy.float32)
    assert gpukit.add(x, y, out=out) is out
    numpy.testing.assert_array_equal(out.get(), a + b)
    assert gpukit.multiply(x, y, out=(out,)) is out
    numpy.testing.assert_array_equal(out.get(), a * b)
    assert gpukit.subtract(x, y, out) is out  # positional, as NumPy's
    numpy.testing.assert_array_equal(out.get(), a - b)
    wide = gpukit.empty((4, 6), numpy.float64)  # same_kind: float32 results into float64
    gpukit.add(x, y, out=wide)
    numpy.testing.assert_array_equal(wide.get(), (a + b).astype(numpy.float64))
    column = gpukit.empty((4, 12), numpy.float32)[:, ::2]  # a strided view of a larger array
    gpukit.add(x, 1.0, out=column)
    numpy.testing.assert_array_equal(column.get(), a + numpy.float32(1))
    # The output decides the shape; inputs broadcast to it.
    gpukit.add(x[0], 2.0, out=out)
    numpy.testing.assert_array_equal(out.get(), numpy.broadcast_to(a[0] + numpy.float32(2), (4, 6)))


def test_out_errors_say_what_is_wrong():
    x = gpukit.asarray(numpy.ones(4, numpy.float32))
    with pytest.raises(ValueError, match="shape"):
        gpukit.add(x, x, out=gpukit.empty(5, numpy.float32))
    with pytest.raises(TypeError, match=r"Cannot cast ufunc 'add' output from dtype\('float32'\) to dtype\('int32'\)"):
        gpukit.add(x, x, out=gpukit.empty(4, numpy.int32))
    with pytest.raises(TypeError, match="out must be a gpukit array"):
        gpukit.add(x, x, out=numpy.empty(4, numpy.float32))
    with pytest.raises(TypeError, match="both a positional and keyword"):
        gpukit.add(x, x, gpukit.empty(4, numpy.float32), out=gpukit.empty(4, numpy.float32))
    with pytest.raises(ValueError, match="one entry per ufunc output"):
        gpukit.add(x, x, out=(gpukit.empty(4, numpy.float32),) * 2)


def test_where_writes_only_where_the_mask_is_true(rng):
    a = random_values(rng, (3, 8), "float64")
    mask = rng.integers(0, 2, size=8).astype(bool)
    x = gpukit.asarray(a)
    out = gpukit.asarray(numpy.full((3, 8), -7.0))
    gpukit.multiply(x, 2.0, out=out, where=gpukit.asarray(mask))
    numpy.testing.assert_array_equal(out.get(), numpy.where(mask, a * 2, -7.0))
    gpukit.add(x, 1.0, out=out, where=False)
    numpy.testing.assert_array_equal(out.get(), numpy.where(mask, a * 2, -7.0))
    gpukit.add(x, 1.0, out=out, where=True)
    numpy.testing.assert_array_equal(out.get(), a + 1)
    with pytest.raises(TypeError, match="gpukit.asarray"):
        gpukit.add(x, 1.0, out=out, where=mask)
    with pytest.raises(TypeError, match="bool"):
        gpukit.add(x, 1.0, out=out, where=gpukit.asarray(mask.astype(numpy.int8)))


def test_dtype_chooses_the_loop_and_casting_limits_it(rng):
    a = random_values(rng, 10, "int16")
    x = gpukit.asarray(a)
    for dtype in (numpy.float64, "float64", numpy.dtype("float64"), float):
        result = gpukit.add(x, x, dtype=dtype)
        assert result.dtype == numpy.float64
        numpy.testing.assert_array_equal(result.get(), numpy.add(a, a, dtype=numpy.float64))
    f = gpukit.asarray(a.astype(numpy.float32) + numpy.float32(0.5))
    with pytest.raises(TypeError):
        gpukit.add(f, f, dtype=numpy.int8)  # float32 -> int8 inputs is not same_kind
    narrow = gpukit.add(f, f, dtype=numpy.int32, casting="unsafe")
    with numpy.errstate(all="ignore"):
        expected = numpy.add(f.get(), f.get(), dtype=numpy.int32, casting="unsafe")
    numpy.testing.assert_array_equal(narrow.get(), expected)
    with pytest.raises(TypeError, match="casting rule 'no'"):
        gpukit.add(x, 1.5, casting="no")
    assert gpukit.add(x, x, casting="safe").dtype == numpy.int16
    with pytest.raises(ValueError, match="casting must be one of"):
        gpukit.add(x, x, casting="sometimes")
    with pytest.raises(TypeError, match="casting must be one of"):
        gpukit.add(x, x, casting=1)


def test_bad_calls_raise_type_error_naming_what_is_wrong():
    x = gpukit.asarray(numpy.ones(4))
    with pytest.raises(TypeError, match="gpukit.asarray"):
        gpukit.add(x, numpy.ones(4))
    with pytest.raises(TypeError, match="gpukit.asarray"):
        gpukit.add(numpy.float64(1), numpy.array(2.0))  # 0-d NumPy arrays are host arrays too (CuPy)
    with pytest.raises(TypeError, match="gpukit.asarray"):
        gpukit.add(x, [1, 2, 3, 4])
    with pytest.raises(TypeError, match="input 1 must be a gpukit array or a number"):
        gpukit.add(x, None)
    with pytest.raises(TypeError, match="input 0 must be a gpukit array or a number"):
        gpukit.negative("text")
    with pytest.raises(TypeError, match="unexpected keyword argument 'order'"):
        gpukit.add(x, x, order="K")
    with pytest.raises(TypeError, match="takes from 2 to 3 positional arguments but 1 was given"):
        gpukit.add(x)
    with pytest.raises(ValueError, match=r"could not be broadcast together with shapes \(2, 3\) \(4,\)"):
        gpukit.add(gpukit.asarray(numpy.ones((2, 3))), x)


def test_arrays_of_cuda_libraries_cannot_be_read_on_the_simulator():
    class CudaArray:
        __cuda_array_interface__ = {"shape": (4,), "typestr": "<f8", "data": (1 << 40, False), "version": 3}

    x = gpukit.asarray(numpy.ones(4))
    if gpukit.get_device().backend_info.capabilities.dlpack_device_type == 2:
        pytest.skip("on a GPU such an array is used in place (tested with CuPy and PyTorch in test_interop)")
    with pytest.raises(TypeError, match="CUDA device memory"):
        gpukit.add(x, CudaArray())


def test_ufunc_attributes_are_numpy_s():
    add = gpukit.add
    assert isinstance(add, gpukit.ufunc)
    assert (add.__name__, add.nin, add.nout, add.nargs) == ("add", 2, 1, 3)
    assert repr(add) == "<ufunc 'add'>"
    assert add.ntypes == len(add.types) and "ff->f" in add.types and "??->?" in add.types
    assert add.identity == 0 and gpukit.multiply.identity == 1 and gpukit.subtract.identity is None
    assert add.signature is None
    for name, ufunc in ROWS.items():
        assert all("->" in loop and len(loop) == ufunc.nargs + 2 for loop in ufunc.types), name
        # gpukit.clip is numpy.clip's function (None for either bound) over the clip ufunc, as NumPy's
        assert (getattr(gpukit, name) is ufunc or name == "clip") and name in gpukit.__all__
    assert gpukit.divide is gpukit.true_divide and gpukit.mod is gpukit.remainder and gpukit.abs is gpukit.absolute


def test_numpy_s_aliases_are_the_ufuncs_they_name():
    aliases = {name: ufunc for name, ufunc in gpukit._core.ufuncs().items() if ufunc.__name__ != name}
    assert {"divide", "mod", "abs"} <= set(aliases)
    for alias, ufunc in aliases.items():
        # NumPy's alias of the same ufunc, or (degrees, radians) a twin with the same loops
        numpy_alias, numpy_ufunc = getattr(numpy, alias), getattr(numpy, ufunc.__name__)
        assert numpy_alias is numpy_ufunc or numpy_alias.types == numpy_ufunc.types, alias


def test_outer_gives_every_pair(rng):
    a = random_values(rng, (3,), "float32")
    b = random_values(rng, (2, 4), "float32")
    result = gpukit.multiply.outer(gpukit.asarray(a), gpukit.asarray(b))
    assert result.shape == (3, 2, 4)
    numpy.testing.assert_array_equal(result.get(), numpy.multiply.outer(a, b))
    strided = gpukit.asarray(random_values(rng, (6,), "float64"))[::2]
    numpy.testing.assert_array_equal(gpukit.subtract.outer(strided, 2.0).get(),
                                     numpy.subtract.outer(strided.get(), 2.0))
    out = gpukit.empty((3, 2, 4), numpy.float32)
    assert gpukit.add.outer(gpukit.asarray(a), gpukit.asarray(b), out=out) is out
    numpy.testing.assert_array_equal(out.get(), numpy.add.outer(a, b))
    with pytest.raises(ValueError, match="binary functions"):
        gpukit.negative.outer(gpukit.asarray(a), gpukit.asarray(a))
