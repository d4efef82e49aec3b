"""select, interp, trapezoid, cov, corrcoef, unravel_index, ravel_multi_index, append, delete,
shares_memory and may_share_memory (src/ops/numeric.cpp) against NumPy on random data: dtypes, layouts,
edge sizes, their options and their errors; and numpy.<function> reaching them through
__array_function__."""

import numpy
import pytest

import gpukit
from conftest import random_array

REAL = ["int32", "uint8", "int64", "float32", "float64"]


@pytest.mark.parametrize("dtype", REAL + ["complex64", "bool"])
def test_select_equals_numpy_s(dtype, rng):
    x = random_array(rng, (5, 7), dtype)
    conditions = [rng.random((5, 7)) < 0.3, rng.random((1, 7)) < 0.5]
    choices = [x, random_array(rng, (5, 1), dtype)]
    expected = numpy.select(conditions, choices, default=2)
    got = gpukit.select([gpukit.asarray(c) for c in conditions], [gpukit.asarray(c) for c in choices], default=2)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    numpy.testing.assert_array_equal(got.get(), expected)
    assert numpy.select([x > 0], [x]).dtype == gpukit.select([gpukit.asarray(x) > 0], [gpukit.asarray(x)]).dtype
    with pytest.raises(ValueError, match="same length"):
        gpukit.select([gpukit.asarray(conditions[0])], [])
    with pytest.raises(TypeError, match="boolean"):
        gpukit.select([gpukit.asarray(x).astype(numpy.int8)], [gpukit.asarray(x)])


@pytest.mark.parametrize("size", [0, 1, 7, 1000])
@pytest.mark.parametrize("points", [1, 2, 9])
def test_interp_equals_numpy_s(size, points, rng):
    xp = numpy.sort(rng.random(points)) * 10 - 2
    fp = rng.standard_normal(points)
    x = rng.random(size) * 14 - 4  # beyond both ends too
    x[: size // 4] = xp[rng.integers(0, points, size // 4)]  # exactly on the points
    got = gpukit.interp(gpukit.asarray(x), gpukit.asarray(xp), gpukit.asarray(fp))
    numpy.testing.assert_allclose(got.get(), numpy.interp(x, xp, fp), rtol=1e-12, atol=1e-12)
    got = gpukit.interp(gpukit.asarray(x.astype(numpy.float32)), gpukit.asarray(xp), gpukit.asarray(fp), left=-9,
                        right=gpukit.asarray(9.0))
    numpy.testing.assert_allclose(got.get(), numpy.interp(x.astype(numpy.float32), xp, fp, left=-9, right=9),
                                  rtol=1e-12, atol=1e-12)
    complex_fp = fp + 1j * rng.standard_normal(points)
    got = gpukit.interp(gpukit.asarray(x), gpukit.asarray(xp), gpukit.asarray(complex_fp))
    assert got.dtype == numpy.complex128
    numpy.testing.assert_allclose(got.get(), numpy.interp(x, xp, complex_fp), rtol=1e-12, atol=1e-12)


def test_interp_with_a_period_and_its_errors(rng):
    xp = numpy.array([190.0, -190, 350, -350])
    fp = numpy.array([5.0, 10, 3, 4])
    x = numpy.array([-180.0, -170, -185, 185, -10, -5, 0, 365])
    numpy.testing.assert_allclose(gpukit.interp(gpukit.asarray(x), gpukit.asarray(xp), gpukit.asarray(fp),
                                                period=360).get(), numpy.interp(x, xp, fp, period=360))
    assert float(gpukit.interp(2.5, gpukit.asarray([1.0, 2.0, 3.0]), gpukit.asarray([3.0, 2.0, 0.0]))) == 1.0
    with pytest.raises(ValueError, match="same length"):
        gpukit.interp(gpukit.ones(3), gpukit.ones(3), gpukit.ones(2))
    with pytest.raises(ValueError, match="empty"):
        gpukit.interp(gpukit.ones(3), gpukit.ones(0), gpukit.ones(0))
    with pytest.raises(ValueError, match="period"):
        gpukit.interp(gpukit.ones(3), gpukit.ones(3), gpukit.ones(3), period=0)


@pytest.mark.parametrize("dtype", REAL + ["complex128"])
def test_trapezoid_equals_numpy_s(dtype, rng):
    y = random_array(rng, (4, 9), dtype)
    x1 = numpy.sort(rng.random(9))
    x2 = numpy.sort(rng.random((4, 9)), axis=1)
    for args, keywords in (((), {}), ((), {"dx": 0.5}), ((x1,), {}), ((x2,), {"axis": 1}),
                           ((numpy.sort(rng.random(4)),), {"axis": 0})):
        expected = numpy.trapezoid(y, *args, **keywords)
        got = gpukit.trapezoid(gpukit.asarray(y), *[gpukit.asarray(a) for a in args], **keywords)
        assert got.shape == expected.shape
        numpy.testing.assert_allclose(got.get(), expected, rtol=1e-5)
    assert float(gpukit.trapezoid(gpukit.ones(1))) == 0.0


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "complex128"])
def test_cov_and_corrcoef_equal_numpy_s(dtype, rng):
    m = random_array(rng, (3, 11), dtype)
    y = random_array(rng, (2, 11), dtype)
    tolerance = 1e-5 if dtype == "float32" else 1e-10
    cases = [((), {}), ((), {"bias": True}), ((), {"ddof": 3}), ((), {"rowvar": False}), ((y,), {}),
             ((), {"fweights": rng.integers(1, 4, 11)}), ((), {"aweights": rng.random(11)}),
             ((), {"fweights": rng.integers(1, 4, 11), "aweights": rng.random(11), "ddof": 2}),
             ((), {"dtype": numpy.float32})]
    for args, keywords in cases:
        if keywords.get("rowvar") is False:
            m_in = m.T.copy()
        else:
            m_in = m
        expected = numpy.cov(m_in, *args, **keywords)
        device_keywords = {k: gpukit.asarray(v) if isinstance(v, numpy.ndarray) else v for k, v in keywords.items()}
        got = gpukit.cov(gpukit.asarray(m_in), *[gpukit.asarray(a) for a in args], **device_keywords)
        assert got.shape == expected.shape and got.dtype == expected.dtype, (keywords, got.dtype, expected.dtype)
        close = 1e-5 if expected.dtype in (numpy.float32, numpy.complex64) else tolerance
        numpy.testing.assert_allclose(got.get(), expected, rtol=close, atol=close)
    for args in ((), (y,)):
        expected = numpy.corrcoef(m, *args)
        got = gpukit.corrcoef(gpukit.asarray(m), *[gpukit.asarray(a) for a in args])
        numpy.testing.assert_allclose(got.get(), expected, rtol=tolerance, atol=tolerance)
    one_variable = random_array(rng, (11,), dtype)
    assert gpukit.cov(gpukit.asarray(one_variable)).shape == ()
    numpy.testing.assert_allclose(float(gpukit.cov(gpukit.asarray(one_variable)).real),
                                  numpy.cov(one_variable).real, rtol=tolerance)
    with pytest.raises(ValueError, match="cannot be negative"):
        gpukit.cov(gpukit.asarray(m), aweights=gpukit.asarray(-numpy.ones(11)))
    with pytest.raises(TypeError, match="integer"):
        gpukit.cov(gpukit.asarray(m), fweights=gpukit.ones(11))


@pytest.mark.parametrize("order", ["C", "F"])
def test_unravel_and_ravel_multi_index_equal_numpy_s(order, rng):
    shape = (3, 5, 7)
    flat = rng.integers(0, 105, (4, 6))
    expected = numpy.unravel_index(flat, shape, order=order)
    got = gpukit.unravel_index(gpukit.asarray(flat), shape, order=order)
    assert isinstance(got, tuple) and len(got) == 3
    for g, e in zip(got, expected):
        numpy.testing.assert_array_equal(g.get(), e)
    numpy.testing.assert_array_equal(gpukit.ravel_multi_index(got, shape, order=order).get(),
                                     numpy.ravel_multi_index(expected, shape, order=order))
    coordinates = (rng.integers(-4, 9, 20), rng.integers(-4, 9, 20), rng.integers(-4, 9, 20))
    for mode in ("wrap", "clip", ("clip", "wrap", "clip")):
        on_device = tuple(gpukit.asarray(c) for c in coordinates)
        numpy.testing.assert_array_equal(gpukit.ravel_multi_index(on_device, shape, mode=mode, order=order).get(),
                                         numpy.ravel_multi_index(coordinates, shape, mode=mode, order=order))
    assert [int(c) for c in gpukit.unravel_index(17, (4, 5))] == [3, 2]
    with pytest.raises(ValueError, match="out of bounds"):
        gpukit.unravel_index(gpukit.asarray([105]), shape)
    with pytest.raises(ValueError, match="invalid entry"):
        gpukit.ravel_multi_index(tuple(gpukit.asarray(c) for c in coordinates), shape)
    with pytest.raises(TypeError, match="int indices"):
        gpukit.unravel_index(gpukit.ones(2), shape)


@pytest.mark.parametrize("dtype", REAL + ["complex64"])
def test_append_and_delete_equal_numpy_s(dtype, rng):
    a = random_array(rng, (4, 6), dtype)
    b = random_array(rng, (4, 2), dtype)
    numpy.testing.assert_array_equal(gpukit.append(gpukit.asarray(a), gpukit.asarray(b)).get(), numpy.append(a, b))
    numpy.testing.assert_array_equal(gpukit.append(gpukit.asarray(a), gpukit.asarray(b), axis=1).get(),
                                     numpy.append(a, b, axis=1))
    x = gpukit.asarray(a)
    for obj, axis in ((2, None), (-1, 1), (slice(1, 5, 2), 1), ([0, 3, 3], 0), (numpy.array([1, -2]), 1),
                      (numpy.array([True, False, True, False]), 0), (slice(None), 0)):
        device_obj = gpukit.asarray(obj) if isinstance(obj, numpy.ndarray) else obj
        numpy.testing.assert_array_equal(gpukit.delete(x, device_obj, axis=axis).get(), numpy.delete(a, obj, axis=axis))
        numpy.testing.assert_array_equal(gpukit.delete(x, obj, axis=axis).get(), numpy.delete(a, obj, axis=axis))
    with pytest.raises(IndexError, match="out of bounds"):
        gpukit.delete(x, 6, axis=1)
    with pytest.raises(ValueError, match="boolean array"):
        gpukit.delete(x, gpukit.asarray([True, False]), axis=0)


def test_shares_memory_and_may_share_memory_equal_numpy_s():
    host = numpy.arange(48.0).reshape(6, 8)
    x = gpukit.asarray(host)
    pairs = [(slice(None), slice(None)), (numpy.s_[:, ::2], numpy.s_[:, 1::2]), (numpy.s_[:3], numpy.s_[3:]),
             (numpy.s_[::2], numpy.s_[1::2]), (numpy.s_[:, :4], numpy.s_[:, 3:]), (numpy.s_[1], numpy.s_[:, 2])]
    for first, second in pairs:
        assert gpukit.shares_memory(x[first], x[second]) == numpy.shares_memory(host[first], host[second])
        assert gpukit.may_share_memory(x[first], x[second]) == numpy.may_share_memory(host[first], host[second])
    assert not gpukit.shares_memory(x, x.copy())
    assert not gpukit.may_share_memory(x[:, ::2], gpukit.zeros(3))
    assert not gpukit.may_share_memory(x[:, ::2], x[:, 1::2], max_work=-1)


def test_numpy_s_functions_reach_them():
    x = gpukit.asarray(numpy.arange(12.0).reshape(3, 4))
    assert isinstance(numpy.delete(x, 1, axis=0), gpukit.ndarray)
    assert isinstance(numpy.cov(x), gpukit.ndarray)
    assert isinstance(numpy.interp(x, gpukit.asarray([0.0, 20.0]), gpukit.asarray([0.0, 1.0])), gpukit.ndarray)
    assert isinstance(numpy.unravel_index(gpukit.asarray([5]), (3, 4))[0], gpukit.ndarray)
    assert numpy.shares_memory(x, x[1]) is True


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex128"])
def test_gradient_equals_numpy_s(dtype, rng):
    f = random_array(rng, (5, 7), dtype)
    x, y = numpy.sort(rng.random(7)), numpy.sort(rng.random(5))
    tolerance = 1e-4 if dtype == "float32" else 1e-10
    for args, keywords in (((), {}), ((2.0,), {}), ((0.5, 3.0), {}), ((y, x), {}), ((y, x), {"edge_order": 2}),
                           ((), {"axis": 1}), ((x,), {"axis": -1, "edge_order": 2}),
                           ((), {"axis": (1, 0), "edge_order": 2})):
        expected = numpy.gradient(f, *args, **keywords)
        got = gpukit.gradient(gpukit.asarray(f), *[gpukit.asarray(a) if isinstance(a, numpy.ndarray) else a
                                                   for a in args], **keywords)
        if isinstance(expected, tuple):
            assert isinstance(got, tuple) and len(got) == len(expected)
        else:
            got, expected = (got,), (expected,)
        for g, e in zip(got, expected):
            assert g.dtype == e.dtype and g.shape == e.shape
            numpy.testing.assert_allclose(g.get(), e, rtol=tolerance, atol=tolerance)
    with pytest.raises(ValueError, match="too small"):
        gpukit.gradient(gpukit.ones(2), edge_order=2)
    with pytest.raises(ValueError, match="distances must match"):
        gpukit.gradient(gpukit.ones(4), gpukit.ones(3))
    with pytest.raises(ValueError, match="edge_order"):
        gpukit.gradient(gpukit.ones(4), edge_order=3)


@pytest.mark.parametrize("dtype", REAL + ["complex64", "bool"])
def test_insert_equals_numpy_s(dtype, rng):
    a = random_array(rng, (4, 6), dtype)
    cases = [
        (3, random_array(rng, 1, dtype)[0], None),          # one value, flattened
        (-2, random_array(rng, (2, 6), dtype), 0),           # one block of two rows
        (1, random_array(rng, (2, 1), dtype), 1),            # a column block, broadcast along the rows
        ([3, 1, 1, -1, 6], random_array(rng, (5,), dtype), 1),  # repeated places keep their order
        ([0, 4], random_array(rng, (1, 6), dtype), 0),
        (slice(None, None, 2), random_array(rng, 1, dtype), 1),
        (numpy.array([True, False, True, False]), random_array(rng, (2, 6), dtype), 0),
        ([], random_array(rng, 0, dtype), None),
    ]
    for obj, values, axis in cases:
        expected = numpy.insert(a, obj, values, axis=axis)
        device_obj = gpukit.asarray(obj) if isinstance(obj, numpy.ndarray) else obj
        got = gpukit.insert(gpukit.asarray(a), device_obj, gpukit.asarray(values), axis=axis)
        assert got.dtype == expected.dtype and got.shape == expected.shape, (obj, axis)
        numpy.testing.assert_array_equal(got.get(), expected, err_msg=f"insert {obj} axis={axis}")
        host_obj = gpukit.insert(gpukit.asarray(a), obj, gpukit.asarray(values), axis=axis)  # NumPy's positions too
        numpy.testing.assert_array_equal(host_obj.get(), expected, err_msg=f"insert {obj} axis={axis}")
    cube = random_array(rng, (3, 5, 4), dtype)  # along a middle axis, the values broadcast along the others
    for obj, values in (([5, 0, 2, 2], random_array(rng, (4, 1), dtype)), ([1, -1], random_array(rng, 1, dtype))):
        expected = numpy.insert(cube, obj, values, axis=1)
        numpy.testing.assert_array_equal(gpukit.insert(gpukit.asarray(cube), obj, gpukit.asarray(values), axis=1).get(),
                                         expected, err_msg=f"insert {obj} into a cube")
    got = numpy.insert(gpukit.asarray(a)[::-1, ::2], [1, 2], 7, axis=1)  # a view, a weak number, NumPy's name
    numpy.testing.assert_array_equal(got.get(), numpy.insert(a[::-1, ::2], [1, 2], 7, axis=1))
    numpy.testing.assert_array_equal(gpukit.insert(gpukit.asarray(numpy.arange(4)), 1, 2.7).get(),
                                     numpy.insert(numpy.arange(4), 1, 2.7))  # values cast as NumPy casts them


def test_insert_refuses_what_numpy_refuses():
    x = gpukit.asarray(numpy.arange(4))
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 4"):
        gpukit.insert(x, 7, 9)
    with pytest.raises(IndexError, match="index -6 is out of bounds for axis 0 with size 4"):
        gpukit.insert(x, [1, -6], 9)
    with pytest.raises(ValueError, match="one dimensional or scalar"):
        gpukit.insert(x, gpukit.asarray(numpy.array([[1]])), 9)
    with pytest.raises(IndexError, match="integer"):
        gpukit.insert(x, gpukit.asarray(numpy.array([1.5])), 9)
    with pytest.raises(numpy.exceptions.AxisError):
        gpukit.insert(x, 1, 9, axis=1)


@pytest.mark.parametrize("dtype", REAL + ["complex128"])
def test_resize_repeats_the_elements_as_numpy_s(dtype, rng):
    a = random_array(rng, (3, 5), dtype)
    for shape in ((2, 4), 31, (4, 0), (1,), (6, 5, 2)):
        got = gpukit.resize(gpukit.asarray(a)[:, ::-2], shape)
        expected = numpy.resize(a[:, ::-2], shape)
        assert got.shape == expected.shape and got.dtype == expected.dtype
        numpy.testing.assert_array_equal(got.get(), expected)
    numpy.testing.assert_array_equal(numpy.resize(gpukit.zeros(0, dtype), 3).get(), numpy.zeros(3, dtype))
    with pytest.raises(ValueError, match="must be non-negative"):
        gpukit.resize(gpukit.asarray(a), (-1,))
