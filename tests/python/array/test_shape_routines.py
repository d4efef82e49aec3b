"""hsplit, vsplit, dsplit, block, row_stack, rollaxis, broadcast_shapes, tri and the triangle, diagonal
and mask indices, ix_, logspace, geomspace, vander, asanyarray, require, isfortran, fromfunction,
apply_along_axis, apply_over_axes and piecewise, each compared with NumPy's on random values in
several dtypes and layouts, and NumPy's errors for bad input."""

import warnings

import numpy
import pytest

import gpukit
from conftest import random_array

DTYPES = ["bool", "int8", "uint16", "int64", "float32", "float64", "complex64", "complex128"]
REAL = ["int32", "float32", "float64"]


def same(got, expected, exact=True):
    """A gpukit result equals NumPy's: values, shape, dtype; tuples and lists item by item."""
    if isinstance(expected, (tuple, list)):
        assert type(got) is type(expected) and len(got) == len(expected)
        for one, other in zip(got, expected):
            same(one, other, exact)
        return
    assert isinstance(got, gpukit.ndarray), type(got)
    host = got.get()
    assert host.shape == expected.shape and host.dtype == expected.dtype, (host.shape, host.dtype, expected.shape,
                                                                            expected.dtype)
    if exact:
        numpy.testing.assert_array_equal(host, expected)
    else:
        single = expected.dtype in (numpy.float16, numpy.float32, numpy.complex64)
        numpy.testing.assert_allclose(host, expected, rtol=1e-5 if single else 1e-12, atol=1e-6 if single else 1e-14)


def views(rng, shape, dtype):
    """(host, device) pairs: contiguous, transposed and strided views of random values of `shape`."""
    base = random_array(rng, tuple(2 * n + 1 for n in shape), dtype)
    device = gpukit.asarray(base)
    take_strided = tuple(slice(1, 2 * n + 1, 2) for n in shape)
    contiguous = random_array(rng, shape, dtype)
    transposed = random_array(rng, shape[::-1], dtype)
    return [(contiguous, gpukit.asarray(contiguous)), (transposed.T, gpukit.asarray(transposed).T),
            (base[take_strided], device[take_strided])]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(6, 4, 2), (1, 3, 4), (0, 2, 4), (4, 6, 1)])
def test_hsplit_vsplit_dsplit_are_numpys_views(rng, dtype, shape):
    for host, device in views(rng, shape, dtype):
        for name in ("hsplit", "vsplit", "dsplit"):
            for how in (1, [1, 3], [], [-1, 10]):
                same(getattr(numpy, name)(device, how), getattr(numpy, name)(host, how))
        same(gpukit.hsplit(device[:, 0, 0], [1, 2]), numpy.hsplit(host[:, 0, 0], [1, 2]))  # 1-D: along axis 0
        for parts in gpukit.vsplit(device, [2]):
            assert gpukit.shares_memory(parts, device) or parts.size == 0


def test_splits_refuse_too_few_dimensions_and_unequal_division():
    a = gpukit.arange(6)
    with pytest.raises(ValueError, match="hsplit only works on arrays of 1 or more dimensions"):
        gpukit.hsplit(a[0], 1)
    with pytest.raises(ValueError, match="vsplit only works on arrays of 2 or more dimensions"):
        gpukit.vsplit(a, 2)
    with pytest.raises(ValueError, match="dsplit only works on arrays of 3 or more dimensions"):
        gpukit.dsplit(a.reshape(2, 3), 2)
    with pytest.raises(ValueError, match="array split does not result in an equal division"):
        gpukit.hsplit(a, 4)
    with pytest.raises(TypeError):
        gpukit.hsplit(numpy.arange(6), 2)


@pytest.mark.parametrize("dtype", DTYPES)
def test_block_arranges_nested_lists_as_numpy(rng, dtype):
    a, b, c = (random_array(rng, shape, dtype) for shape in [(2, 3), (2, 1), (3, 4)])
    ga, gb, gc = gpukit.asarray(a), gpukit.asarray(b), gpukit.asarray(c)
    same(gpukit.block([[ga, gb], [gc]]), numpy.block([[a, b], [c]]))
    same(numpy.block([[ga.T[:2]], [gb.T[:, :2]]]), numpy.block([[a.T[:2]], [b.T[:, :2]]]))
    same(gpukit.block([ga[0], gc[1]]), numpy.block([a[0], c[1]]))
    same(gpukit.block([[[ga]], [[ga]]]), numpy.block([[[a]], [[a]]]))  # the nesting adds a dimension
    same(gpukit.block(ga), numpy.block(a))
    assert not gpukit.shares_memory(gpukit.block(ga), ga)
    same(gpukit.block([ga[:0, 0], gb[:, 0]]), numpy.block([a[:0, 0], b[:, 0]]))
    same(gpukit.block([ga[0, 0], gb[1, 0], 7]), numpy.block([a[0, 0], b[1, 0], 7]))  # 0-d and numbers
    same(gpukit.block([[ga, gpukit.ones((2, 1), "int64")]]), numpy.block([[a, numpy.ones((2, 1), "int64")]]))


def test_block_errors_are_numpys():
    a = gpukit.ones((2, 2))
    with pytest.raises(TypeError, match=r"arrays\[1\] is a tuple. Only lists can be used to arrange blocks"):
        gpukit.block([a, (a, a)])
    with pytest.raises(ValueError, match=r"List depths are mismatched. First element was at depth 2, but there is "
                                         r"an element at depth 1 \(arrays\[1\]\)"):
        gpukit.block([[a], a])
    with pytest.raises(ValueError, match=r"List at arrays\[1\] cannot be empty"):
        gpukit.block([[a], []])
    with pytest.raises(ValueError, match="List at arrays cannot be empty"):
        gpukit.block([])
    with pytest.raises(ValueError):
        gpukit.block([[a], [gpukit.ones((3, 3))]])


@pytest.mark.parametrize("dtype", ["bool", "int16", "float64", "complex64"])
def test_row_stack_is_vstack_with_numpys_deprecation_warning(rng, dtype):
    a, b = random_array(rng, (3,), dtype), random_array(rng, (2, 3), dtype)
    with pytest.warns(DeprecationWarning, match="`row_stack` alias is deprecated. Use `np.vstack` directly."):
        got = gpukit.row_stack([gpukit.asarray(a), gpukit.asarray(b)])
    same(got, numpy.vstack([a, b]))
    if not hasattr(numpy, "row_stack"):  # NumPy 2.4 removed it; gpukit keeps it, deprecated, as CuPy does
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        same(numpy.row_stack([gpukit.asarray(b).T.T], dtype="complex128"), numpy.row_stack([b], dtype="complex128"))


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex128"])
def test_rollaxis_is_numpys_view(rng, dtype):
    for host, device in views(rng, (2, 3, 4), dtype):
        for axis in range(-3, 3):
            for start in range(-3, 4):
                got = numpy.rollaxis(device, axis, start)
                same(got, numpy.rollaxis(host, axis, start))
                assert gpukit.shares_memory(got, device)
    with pytest.raises(numpy.exceptions.AxisError, match=r"'start' arg requires -3 <= start < 4, but 5 was passed"):
        gpukit.rollaxis(gpukit.ones((2, 3, 4)), 0, 5)
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.rollaxis(gpukit.ones((2, 3, 4)), 3)


def test_broadcast_shapes_is_numpys():
    for shapes in [(), ((),), (3,), ((2, 1), (3,)), (5, (1, 5), (4, 1, 1)), ((0,), (1,)), ((1, 0), (3, 1))]:
        assert gpukit.broadcast_shapes(*shapes) == numpy.broadcast_shapes(*shapes)
    for shapes in [((2,), (3,)), ((1, 3), (2, 1), (2, 4)), ((5, 2), (3, 1), (4, 7))]:
        with pytest.raises(ValueError) as expected:
            numpy.broadcast_shapes(*shapes)
        with pytest.raises(ValueError, match=str(expected.value).replace("(", r"\(").replace(")", r"\)")):
            gpukit.broadcast_shapes(*shapes)
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        gpukit.broadcast_shapes((2, -1))
    with pytest.raises(TypeError):
        gpukit.broadcast_shapes("a")


@pytest.mark.parametrize("dtype", [None, "bool", "int32", "uint8", "float32", "complex64"])
def test_tri_is_numpys(dtype):
    for n, m, k in [(0, None, 0), (1, None, 0), (4, None, 0), (3, 5, 1), (5, 3, -2), (4, 4, 10), (4, 4, -10),
                    (3, 0, 0), (-1, None, 0), (3, 2, 2**40)]:
        kwargs = {} if dtype is None else {"dtype": dtype}
        same(gpukit.tri(n, m, k, **kwargs), numpy.tri(n, m, k, **kwargs))


def test_triangle_and_diagonal_indices_are_numpys(rng):
    for n, k, m in [(0, 0, None), (1, 0, None), (4, 0, None), (4, 1, 6), (5, -2, 3), (3, 9, None), (3, -9, 2)]:
        same(gpukit.tril_indices(n, k, m), numpy.tril_indices(n, k, m))
        same(gpukit.triu_indices(n, k, m), numpy.triu_indices(n, k, m))
    for shape in [(4, 4), (3, 5), (5, 2), (0, 3), (1, 1)]:
        for dtype in ("bool", "float32", "complex128"):
            host = random_array(rng, shape, dtype)
            for device, view in [(gpukit.asarray(host), host), (gpukit.asarray(host.T.copy()).T, host)]:
                for k in (-1, 0, 2):
                    same(numpy.tril_indices_from(device, k), numpy.tril_indices_from(view, k))
                    same(numpy.triu_indices_from(device, k=k), numpy.triu_indices_from(view, k=k))
    for n, ndim in [(0, 2), (1, 2), (4, 2), (3, 3), (2, 1), (3, 0)]:
        same(gpukit.diag_indices(n, ndim), numpy.diag_indices(n, ndim))
    for shape in [(3, 3), (2, 2, 2), (1, 1), (0, 0)]:
        host = random_array(rng, shape, "int16")
        same(numpy.diag_indices_from(gpukit.asarray(host)), numpy.diag_indices_from(host))
        a = gpukit.asarray(host)
        a[gpukit.diag_indices_from(a)] = 7
        host[numpy.diag_indices_from(host)] = 7
        same(a, host)
    with pytest.raises(ValueError, match="input array must be 2-d"):
        gpukit.tril_indices_from(gpukit.ones(3))
    with pytest.raises(ValueError, match="input array must be 2-d"):
        gpukit.triu_indices_from(gpukit.ones((2, 2, 2)))
    with pytest.raises(ValueError, match="input array must be at least 2-d"):
        gpukit.diag_indices_from(gpukit.ones(3))
    with pytest.raises(ValueError, match="All dimensions of input must be of equal length"):
        gpukit.diag_indices_from(gpukit.ones((3, 2)))


def test_mask_indices_is_numpys():
    for n, function, k in [(3, gpukit.triu, 0), (4, gpukit.tril, -1), (4, gpukit.triu, 1), (0, gpukit.triu, 0),
                           (1, gpukit.tril, 0)]:
        same(gpukit.mask_indices(n, function, k), numpy.mask_indices(n, getattr(numpy, function.__name__), k))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "int64", "float64"])
def test_ix_is_numpys(rng, dtype):
    first, second, third = (random_array(rng, (n,), dtype) for n in (3, 1, 5))
    if dtype == "float64":
        first, second, third = (abs(x) for x in (first, second, third))
    got = gpukit.ix_(gpukit.asarray(first), gpukit.asarray(second)[::-1], gpukit.asarray(third)[::2])
    same(got, numpy.ix_(first, second[::-1], third[::2]))
    same(numpy.ix_(gpukit.asarray(first)), numpy.ix_(first))
    same(gpukit.ix_([0, 2], []), numpy.ix_([0, 2], []))
    same(gpukit.ix_(), numpy.ix_())
    matrix = random_array(rng, (4, 5), "float32")
    rows, columns = gpukit.ix_([1, 3], gpukit.asarray([True, False, True, True, False]))
    same(gpukit.asarray(matrix)[rows, columns], matrix[numpy.ix_([1, 3], [True, False, True, True, False])])
    with pytest.raises(ValueError, match="Cross index must be 1 dimensional"):
        gpukit.ix_(gpukit.ones((2, 2)))


@pytest.mark.parametrize("dtype", [None, "float32", "int64", "complex128"])
def test_logspace_is_numpys(dtype):
    for start, stop, num, endpoint, base in [(0, 3, 4, True, 10.0), (-1.5, 2.25, 7, False, 2), (1, 1, 1, True, 10),
                                             (0.5, -2, 0, True, 3.0), (2, 0, 5, True, numpy.float32(2.0)),
                                             (0, 1j, 4, True, 10.0), (1, 2, 9, True, 1.5 + 0.5j)]:
        if dtype == "int64" and (isinstance(stop, complex) or isinstance(base, complex)):
            continue
        got = gpukit.logspace(start, stop, num, endpoint, base, dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
            same(got, numpy.logspace(start, stop, num, endpoint, base, dtype), exact=dtype == "int64" and num < 2)
    same(gpukit.logspace(0, 2, 3, axis=-1), numpy.logspace(0, 2, 3, axis=-1), exact=False)
    with pytest.raises(ValueError, match="Number of samples, -1, must be non-negative."):
        gpukit.logspace(0, 1, -1)
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.logspace(0, 1, 3, axis=1)


@pytest.mark.parametrize("dtype", [None, "float32", "float64", "complex64", "complex128"])
def test_geomspace_is_numpys_with_exact_endpoints(dtype):
    cases = [(1, 1000, 4, True), (-1, -1000, 4, True), (2.5, 0.01, 9, False), (1j, 1000j, 4, True), (-3, -3, 1, True),
             (1 + 1j, 1000 + 1000j, 5, True), (-1 + 0j, 1 + 0j, 5, True), (3, 7, 0, True), (0.5, 8, 2, True),
             (numpy.float32(1.5), numpy.float32(20), 6, True)]
    for start, stop, num, endpoint in cases:
        if dtype in ("float32", "float64") and (isinstance(start, complex) or isinstance(stop, complex)):
            continue
        got = gpukit.geomspace(start, stop, num, endpoint, dtype)
        expected = numpy.geomspace(start, stop, num, endpoint, dtype)
        same(got, expected, exact=False)
        if num > 0 and dtype in (None, "float64", "complex128"):
            assert got[0].get() == expected[0]  # the endpoints as given
            if endpoint:
                assert got[-1].get() == expected[-1]
    same(gpukit.geomspace(1, 1000, 4, dtype="int64"), numpy.geomspace(1, 1000, 4, dtype="int64"))
    for start, stop in [(0, 5), (3, 0), (0j, 1)]:
        with pytest.raises(ValueError, match="Geometric sequence cannot include zero"):
            gpukit.geomspace(start, stop)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int64", "uint64", "float16", "float32", "float64",
                                   "complex64", "complex128"])
def test_vander_is_numpys(rng, dtype):
    for size in (0, 1, 5):
        host = random_array(rng, (2 * size,), dtype)
        for view, device in [(host[:size], gpukit.asarray(host)[:size]), (host[::2], gpukit.asarray(host)[::2])]:
            for n in (None, 0, 1, 3, 6):
                for increasing in (False, True):
                    expected = numpy.vander(view, n, increasing)
                    same(numpy.vander(device, n, increasing), expected, exact=expected.dtype.kind in "biu")
    with pytest.raises(ValueError, match="x must be a one-dimensional array or sequence."):
        gpukit.vander(gpukit.ones((2, 2)))
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        gpukit.vander(gpukit.ones(3), -1)


def test_asanyarray_is_asarray(rng):
    host = random_array(rng, (3, 4), "complex64")
    device = gpukit.asarray(host)
    assert gpukit.asanyarray(device) is device
    same(gpukit.asanyarray(host), numpy.asanyarray(host))
    same(gpukit.asanyarray([1, 2], dtype="float32"), numpy.asanyarray([1, 2], dtype="float32"))
    same(gpukit.asanyarray(device.T, order="C"), numpy.asanyarray(host.T, order="C"))
    assert gpukit.asanyarray(device.T, order="C").flags.c_contiguous


@pytest.mark.parametrize("dtype", ["bool", "int16", "float32", "complex128"])
def test_require_copies_only_what_falls_short(rng, dtype):
    host = random_array(rng, (4, 6), dtype)
    device = gpukit.asarray(host)
    assert gpukit.require(device) is device
    assert gpukit.require(device, requirements="CAWE") is device
    assert gpukit.require(device, requirements=["C_CONTIGUOUS", "aligned", "writeable", "OWNDATA"]) is device
    transposed = gpukit.require(device.T, requirements="C")
    assert transposed.flags.c_contiguous
    same(transposed, numpy.require(host.T, requirements="C"))
    assert gpukit.require(device.T, requirements=["F"]) is not None
    assert gpukit.require(device, requirements="F").flags.f_contiguous
    strided = gpukit.require(device[::2], requirements="O")
    assert strided.flags.owndata and strided.flags.c_contiguous
    same(strided, host[::2])
    same(gpukit.require(device, "float64"), numpy.require(host, "float64"))
    same(gpukit.require(host, requirements="F"), numpy.require(host, requirements="F"))
    with pytest.raises(ValueError, match='Cannot specify both "C" and "F" order'):
        gpukit.require(device, requirements="CF")
    with pytest.raises(KeyError):
        gpukit.require(device, requirements="X")
    with pytest.raises(KeyError):
        gpukit.require(device, requirements="C_CONTIGUOUS")  # as NumPy's: a string is its letters


def test_isfortran_is_numpys(rng):
    host = random_array(rng, (3, 4), "float32")
    device = gpukit.asarray(host)
    for take in (lambda a: a, lambda a: a.T, lambda a: a[:, ::2], lambda a: a[0], lambda a: a[:1].T,
                 lambda a: a[:0], lambda a: a[1, 1]):
        assert gpukit.isfortran(take(device)) == numpy.isfortran(take(host))
    assert gpukit.isfortran(gpukit.asfortranarray(device))


@pytest.mark.parametrize("dtype", [float, "int32", "float32", "complex64", "bool"])
def test_fromfunction_is_numpys(dtype):
    for shape in [(2, 3), (4,), (0, 2), (1, 1, 2)]:
        if dtype == "bool" and max(shape) > 2:  # NumPy's arange has no bool fill beyond 2 elements
            continue
        same(gpukit.fromfunction(lambda *i: sum(i[1:], i[0]) * 1, shape, dtype=dtype),
             numpy.fromfunction(lambda *i: sum(i[1:], i[0]) * 1, shape, dtype=dtype))
    same(gpukit.fromfunction(lambda i, j, scale: i * scale - j, (3, 2), scale=3),
         numpy.fromfunction(lambda i, j, scale: i * scale - j, (3, 2), scale=3))


@pytest.mark.parametrize("dtype", ["int16", "float64", "complex64"])
def test_apply_along_axis_is_numpys(rng, dtype):
    for host, device in views(rng, (3, 4, 2), dtype):
        for axis in (0, 1, -1):
            same(numpy.apply_along_axis(lambda line: line.sum(), axis, device),
                 numpy.apply_along_axis(lambda line: line.sum(), axis, host), exact=dtype == "int16")
            same(gpukit.apply_along_axis(lambda line, n: line[::-1][:n], axis, device, 2),
                 numpy.apply_along_axis(lambda line, n: line[::-1][:n], axis, host, 2))
            same(gpukit.apply_along_axis(lambda line: gpukit.outer(line, line[:2]), axis, device),
                 numpy.apply_along_axis(lambda line: numpy.outer(line, line[:2]), axis, host), exact=dtype == "int16")
    one = random_array(rng, (5,), dtype)
    same(gpukit.apply_along_axis(lambda line: line * 2, 0, gpukit.asarray(one)), numpy.apply_along_axis(
        lambda line: line * 2, 0, one))
    with pytest.raises(ValueError, match="Cannot apply_along_axis when any iteration dimensions are 0"):
        gpukit.apply_along_axis(lambda line: line, 0, gpukit.ones((2, 0)))
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.apply_along_axis(lambda line: line, 2, gpukit.ones((2, 3)))


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex128"])
def test_apply_over_axes_is_numpys(rng, dtype):
    for host, device in views(rng, (2, 3, 4), dtype):
        for axes in (0, [0, 2], (-1, 1), []):
            same(numpy.apply_over_axes(gpukit.sum, device, axes), numpy.apply_over_axes(numpy.sum, host, axes),
                 exact=dtype == "int8")
            same(gpukit.apply_over_axes(lambda a, axis: gpukit.cumsum(a, axis=axis), device, axes),
                 numpy.apply_over_axes(lambda a, axis: numpy.cumsum(a, axis=axis), host, axes),
                 exact=dtype == "int8")
    with pytest.raises(ValueError, match="function is not returning an array of the correct shape"):
        gpukit.apply_over_axes(lambda a, axis: a.sum(), gpukit.ones((2, 3)), [0])


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64"])
def test_piecewise_is_numpys(rng, dtype):
    for shape in [(7,), (3, 4), (0,), (1,)]:
        for host, device in views(rng, shape, dtype)[:2] if len(shape) > 1 else [(x, gpukit.asarray(x)) for x in
                                                                                 [random_array(rng, shape, dtype)]]:
            low, high = host.real < 0, host.real > 0.5
            dlow, dhigh = device.real < 0, device.real > 0.5
            same(gpukit.piecewise(device, [dlow, dhigh], [lambda v: v * 2, 5]),
                 numpy.piecewise(host, [low, high], [lambda v: v * 2, 5]))
            same(gpukit.piecewise(device, [dlow, dhigh], [lambda v, s: v - s, 1, lambda v, s: -v], 3),
                 numpy.piecewise(host, [low, high], [lambda v, s: v - s, 1, lambda v, s: -v], 3))
            if host.ndim == 1 and host.size > 0:  # one condition (NumPy takes the rows of a 2-D one as conditions)
                same(gpukit.piecewise(device, dlow, [7, lambda v: v]), numpy.piecewise(host, low, [7, lambda v: v]))
    scalar = gpukit.asarray(numpy.float64(-0.5))
    same(gpukit.piecewise(scalar, [True, False], [lambda v: v * 4, 0]),
         numpy.piecewise(numpy.float64(-0.5), [True, False], [lambda v: v * 4, 0]))
    with pytest.raises(ValueError, match=r"with 3 condition\(s\), either 3 or 4 functions are expected"):
        gpukit.piecewise(gpukit.ones(3), [gpukit.ones(3, dtype=bool)] * 3, [1])


def test_numpy_dispatches_each_to_gpukit(rng):
    device = gpukit.asarray(random_array(rng, (4, 4), "float64"))
    for function, args in [(numpy.hsplit, (device, 2)), (numpy.vsplit, (device, 2)), (numpy.block, ([device],)),
                           (numpy.rollaxis, (device, 1)), (numpy.tril_indices_from, (device,)),
                           (numpy.triu_indices_from, (device,)), (numpy.diag_indices_from, (device,)),
                           (numpy.ix_, (device[0] > 0,)), (numpy.vander, (device[0],)),
                           (numpy.apply_along_axis, (lambda x: x, 0, device)),
                           (numpy.apply_over_axes, (gpukit.sum, device, 0)),
                           (numpy.piecewise, (device, [device > 0], [1]))]:
        result = function(*args)
        for item in result if isinstance(result, (tuple, list)) else [result]:
            assert isinstance(item, gpukit.ndarray), function
