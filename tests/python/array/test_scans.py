"""cumsum, cumprod, nancumsum, nancumprod, cumulative_sum, cumulative_prod, diff and ediff1d against
NumPy (src/ops/scan/): every dtype, axes None, first, middle and last, the layouts of layouts.py plus
broadcast ones, lines of several tiles, methods and functions, out= and dtype=, nan handling, and the
errors NumPy raises.

Float16 and bfloat16 accumulate in float32 (NumPy's float16 cumsum accumulates in float16), so their
references are computed in float64 and rounded once."""

import numpy
import pytest

import gpukit
from conftest import ALL_DTYPES, random_array
from layouts import LAYOUTS, layout_pair

SCANS = ["cumsum", "cumprod", "nancumsum", "nancumprod"]
METHODS = ["cumsum", "cumprod"]
LONG = 3 * 4096 + 77  # several tiles and a tail at every tile size


def reference(name, host, **keywords):
    """NumPy's scan ``name`` of ``host``; floats computed in float64 (complex128) and rounded once to
    the result's dtype, with the magnitudes of the partial sums as the scale of their rounding."""
    result_dtype = getattr(numpy, name)(host[:0] if host.ndim else host, **keywords).dtype
    if str(host.dtype) == "bfloat16":
        result_dtype = host.dtype
    if host.dtype.kind not in "fc" and str(host.dtype) != "bfloat16":
        return getattr(numpy, name)(host, **keywords), None
    wide = host.astype(numpy.complex128 if host.dtype.kind == "c" else numpy.float64)
    scale = numpy.cumsum(numpy.abs(numpy.nan_to_num(wide)), **{k: v for k, v in keywords.items() if k == "axis"})
    return getattr(numpy, name)(wide, **keywords).astype(result_dtype), scale


def assert_close(device, expected_and_scale):
    """Integers exactly; floats within a relative tolerance of each partial sum's magnitude."""
    expected, scale = expected_and_scale
    got = device.get()
    expected = numpy.asarray(expected)
    assert device.shape == expected.shape, (device.shape, expected.shape)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    if got.dtype.kind in "biu":
        numpy.testing.assert_array_equal(got, expected)
    else:
        tolerance = {"float16": 2e-3, "bfloat16": 1e-2, "float32": 1e-6, "complex64": 1e-6}.get(str(got.dtype), 1e-12)
        bound = tolerance * numpy.maximum(1, numpy.abs(expected.astype(numpy.complex128)))
        if scale is not None:
            bound = numpy.maximum(bound, 4 * tolerance * scale)
        wide = got.astype(numpy.complex128)
        want = expected.astype(numpy.complex128)
        nan = numpy.isnan(want)
        numpy.testing.assert_array_equal(numpy.isnan(wide), nan)
        assert (numpy.abs(wide - want)[~nan] <= bound[~nan]).all(), numpy.abs(wide - want)[~nan].max()


def scan_values(host, name):
    """Products of many elements overflow: 1, -1 and a few 2s for them. The nan scans meet nans."""
    if "prod" in name and host.dtype.kind != "b":
        signs = numpy.where(numpy.real(host) < 0, -1, 1) if host.dtype.kind != "u" else numpy.ones(host.shape)
        host = signs.astype(host.dtype)
        host.reshape(-1)[7:4000:499] = 2
    if name.startswith("nan") and host.dtype.kind in "fc" or (name.startswith("nan") and str(host.dtype) == "bfloat16"):
        host = host.copy()
        host.reshape(-1)[5::17] = numpy.nan
    return host


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", SCANS)
def test_every_dtype_along_every_axis(name, dtype, rng):
    if dtype == "bfloat16":
        pytest.importorskip("ml_dtypes")
    host = scan_values(random_array(rng, (4, 5, 6), dtype), name)
    device = gpukit.asarray(host)
    for axis in (None, 0, 1, -1):
        expected = reference(name, host, axis=axis)
        assert_close(getattr(gpukit, name)(device, axis=axis), expected)
        if name in METHODS:
            assert_close(getattr(device, name)(axis=axis), expected)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("name", SCANS)
def test_every_layout(name, layout, rng):
    host, device = layout_pair(rng, layout, "float32")
    if "prod" in name:
        host = scan_values(numpy.ascontiguousarray(host), name)
        device = gpukit.asarray(host)
    assert_close(getattr(gpukit, name)(device), reference(name, host))
    for axis in (0, -1) if host.ndim else ():
        assert_close(getattr(gpukit, name)(device, axis=axis), reference(name, host, axis=axis))


@pytest.mark.parametrize("dtype", ["int8", "int32", "float32", "float64", "complex128"])
@pytest.mark.parametrize("shape, axis, take", [
    ((LONG,), None, lambda a: a),
    ((2 * LONG,), 0, lambda a: a[::2]),
    ((LONG,), -1, lambda a: a[::-1]),
    ((1, LONG), 1, lambda a: numpy.broadcast_to(a, (3, LONG)) if isinstance(a, numpy.ndarray)
     else gpukit.broadcast_to(a, (3, LONG))),
    ((3, 5000), -1, lambda a: a),
    ((5000, 3), 0, lambda a: a),
    ((300, 80), 0, lambda a: a[:, ::2]),
    ((40, 1025), 1, lambda a: a.T),
    ((3, 700, 5), 1, lambda a: a),
    ((1025,), None, lambda a: a),
    ((31,), 0, lambda a: a),
    ((1,), None, lambda a: a),
    ((0,), None, lambda a: a),
])
def test_long_and_many_lines(shape, axis, take, dtype, rng):
    host = random_array(rng, shape, dtype)
    device = take(gpukit.asarray(host))
    host = take(host)
    assert_close(gpukit.cumsum(device, axis=axis), reference("cumsum", host, axis=axis))


def test_dtype_and_out(rng):
    host = random_array(rng, (6, 5), "int16")
    device = gpukit.asarray(host)
    assert gpukit.cumsum(device).dtype == numpy.int64
    assert gpukit.cumprod(device.astype(numpy.uint8)).dtype == numpy.uint64
    assert gpukit.cumsum(device.astype(bool)).dtype == numpy.int64
    assert_close(device.cumsum(axis=1, dtype=numpy.float32), (host.cumsum(axis=1, dtype=numpy.float32), None))
    out = gpukit.empty((6, 5), numpy.float64)
    returned = gpukit.cumsum(device, axis=0, out=out)
    numpy.testing.assert_array_equal(out.get(), host.cumsum(axis=0).astype(numpy.float64))
    numpy.testing.assert_array_equal(returned.get(), out.get())
    transposed = gpukit.empty((5, 6), numpy.int64).T  # written through its strides
    assert gpukit.cumsum(device, axis=0, out=transposed) is not None
    numpy.testing.assert_array_equal(transposed.get(), host.cumsum(axis=0))
    in_place = gpukit.asarray(host.astype(numpy.int64))
    in_place.cumsum(axis=1, out=in_place)
    numpy.testing.assert_array_equal(in_place.get(), host.cumsum(axis=1))
    assert gpukit.cumsum(gpukit.asarray(numpy.float32(3))).shape == (1,)  # 0-d: one element


def test_nans_and_wrapping():
    with_nan = numpy.array([1.0, numpy.nan, 3.0], dtype=numpy.float32)
    device = gpukit.asarray(with_nan)
    numpy.testing.assert_array_equal(gpukit.cumsum(device).get(), numpy.cumsum(with_nan))
    numpy.testing.assert_array_equal(gpukit.nancumsum(device).get(), numpy.nancumsum(with_nan))
    numpy.testing.assert_array_equal(gpukit.nancumprod(device).get(), numpy.nancumprod(with_nan))
    z = numpy.array([1 + 1j, complex(numpy.nan, 1), 2], dtype=numpy.complex64)
    numpy.testing.assert_array_equal(gpukit.nancumprod(gpukit.asarray(z)).get(), numpy.nancumprod(z))
    big = numpy.array([2**62, 2**62, 2**62], dtype=numpy.int64)
    numpy.testing.assert_array_equal(gpukit.cumsum(gpukit.asarray(big)).get(), numpy.cumsum(big))  # wraps


def test_float32_sums_are_as_accurate_as_numpys_loop(rng):
    """Within NumPy's bound for its one-by-one loop, (k + 1) eps sum|x| at element k, and no further
    from the float64 result than that loop is."""
    host = rng.uniform(-1, 1, 1 << 20).astype(numpy.float32)
    got = gpukit.cumsum(gpukit.asarray(host)).get().astype(numpy.float64)
    exact = numpy.cumsum(host.astype(numpy.float64))
    error = numpy.abs(got - exact)
    bound = numpy.arange(1, host.size + 1) * 2.0**-24 * numpy.cumsum(numpy.abs(host.astype(numpy.float64)))
    assert (error <= bound).all()
    assert error.max() <= numpy.abs(numpy.cumsum(host).astype(numpy.float64) - exact).max()


def test_errors_are_numpys():
    device = gpukit.ones((3, 4), numpy.float32)
    with pytest.raises(gpukit.AxisError):
        device.cumsum(axis=2)
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.cumprod(device, axis=-3)
    with pytest.raises(ValueError):
        gpukit.cumsum(device, axis=0, out=gpukit.empty((4, 3), numpy.float32))
    with pytest.raises(TypeError):
        gpukit.cumsum(device, out=gpukit.empty(12, numpy.int32))  # float32 -> int32 is not same_kind
    with pytest.raises(TypeError):
        gpukit.cumsum(numpy.ones(3))  # host arrays are not copied behind the user's back


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "float16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_cumulative_functions_match_numpy_2(name, dtype, rng):
    """NumPy 2's (the Array API's) scans: an axis each array of two or more dimensions names, the
    identity first with include_initial, on every axis, a transposed view, 0-d, empty and long inputs."""
    if not hasattr(numpy, name):
        pytest.skip(f"this NumPy has no {name}")
    scan = "cumsum" if name == "cumulative_sum" else "cumprod"

    def check(got, host, **keywords):
        """Against NumPy's function of float64 (complex128) values rounded once: NumPy's float16
        scans round at every element, ours accumulate in float32."""
        expected = getattr(numpy, name)(host, **keywords)
        assert got.shape == expected.shape and got.dtype == expected.dtype
        if host.dtype.kind in "fc":
            wide = host.astype(numpy.complex128 if host.dtype.kind == "c" else numpy.float64)
            expected = getattr(numpy, name)(wide, **keywords)
        tolerance = 2e-3 if host.dtype == numpy.float16 else 1e-5
        numpy.testing.assert_allclose(got.get().astype(numpy.complex128), expected.astype(numpy.complex128),
                                      rtol=tolerance, atol=tolerance * max(1.0, float(numpy.abs(expected).max(
                                          initial=0))))

    host = scan_values(random_array(rng, (4, 5, 6), dtype), scan)
    device = gpukit.asarray(host)
    for axis in (0, 1, -1):
        for include_initial in (False, True):
            check(getattr(gpukit, name)(device, axis=axis, include_initial=include_initial), host, axis=axis,
                  include_initial=include_initial)
    check(getattr(gpukit, name)(device.T, axis=0, include_initial=True), host.T, axis=0, include_initial=True)
    for shape in ((), (0,), (1,), (LONG,)):
        one = scan_values(random_array(rng, shape, dtype), scan)
        check(getattr(gpukit, name)(gpukit.asarray(one), include_initial=True), one, include_initial=True)


def test_cumulative_dtype_out_and_errors(rng):
    host = random_array(rng, (3, 4), "int16")
    device = gpukit.asarray(host)
    assert gpukit.cumulative_sum(device, axis=1).dtype == numpy.int64
    assert gpukit.cumulative_prod(device, axis=1, dtype=numpy.float32).dtype == numpy.float32
    out = gpukit.empty((4, 4), numpy.float64)
    assert gpukit.cumulative_sum(device, axis=0, include_initial=True, out=out) is not None
    numpy.testing.assert_array_equal(out.get(), numpy.cumulative_sum(host, axis=0, include_initial=True,
                                                                     dtype=numpy.float64))
    out = gpukit.empty((3, 5), numpy.int64).T.T  # through a view
    gpukit.cumulative_prod(device, axis=-1, include_initial=True, out=out)
    numpy.testing.assert_array_equal(out.get(), numpy.cumulative_prod(host, axis=-1, include_initial=True))
    with pytest.raises(ValueError, match="must name the axis"):
        gpukit.cumulative_sum(device)  # NumPy: "``axis`` argument is required"
    with pytest.raises(ValueError, match=r"has shape \(3, 4\), not the result's shape \(4, 4\)"):
        gpukit.cumulative_sum(device, axis=0, include_initial=True, out=gpukit.empty((3, 4), numpy.int64))
    with pytest.raises(TypeError):
        gpukit.cumulative_sum(device.astype(numpy.float32), axis=0, out=gpukit.empty((3, 4), numpy.int64))
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.cumulative_prod(device, axis=2)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int64", "float16", "float32", "complex64"])
def test_diff_matches_numpy(dtype, rng):
    host = random_array(rng, (4, 7), dtype)
    device = gpukit.asarray(host)
    for n in (0, 1, 2, 8):
        for axis in (0, -1):
            expected = numpy.diff(host, n=n, axis=axis)
            got = gpukit.diff(device, n=n, axis=axis)
            assert got.dtype == expected.dtype and got.shape == expected.shape
            numpy.testing.assert_array_equal(got.get(), expected)
    if dtype != "bool":
        column = host[:, :1]
        expected = numpy.diff(host, prepend=3, append=column)
        numpy.testing.assert_array_equal(gpukit.diff(device, prepend=3, append=gpukit.asarray(column)).get(), expected)
        numpy.testing.assert_array_equal(gpukit.diff(device, axis=0, append=2.5).get(),
                                         numpy.diff(host, axis=0, append=2.5))


def test_diff_errors():
    with pytest.raises(ValueError, match="order must be non-negative"):
        gpukit.diff(gpukit.ones(3), n=-1)
    with pytest.raises(ValueError, match="at least one dimensional"):
        gpukit.diff(gpukit.asarray(numpy.float32(1)))
    with pytest.raises(gpukit.AxisError):
        gpukit.diff(gpukit.ones(3), axis=1)


def test_ediff1d_matches_numpy(rng):
    host = random_array(rng, (3, 4), "int16")
    device = gpukit.asarray(host)
    numpy.testing.assert_array_equal(gpukit.ediff1d(device).get(), numpy.ediff1d(host))
    end, begin = numpy.array([9, 8], dtype=numpy.int64), -1
    expected = numpy.ediff1d(host, to_end=end, to_begin=begin)
    got = gpukit.ediff1d(device, to_end=gpukit.asarray(end), to_begin=begin)
    assert got.dtype == expected.dtype
    numpy.testing.assert_array_equal(got.get(), expected)
    assert gpukit.ediff1d(gpukit.empty(0, numpy.float32)).shape == (0,)
    with pytest.raises(TypeError, match="same_kind"):
        gpukit.ediff1d(device, to_begin=1.5)
    with pytest.raises(TypeError):
        gpukit.ediff1d(gpukit.asarray(numpy.array([True, False])))
