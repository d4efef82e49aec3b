"""gpukit.vectorize's functions as full ufuncs: reduce, accumulate, reduceat, outer and at, against
NumPy's own ufuncs on random inputs, for several dtypes and layouts, on the suite's backend."""

import numpy
import pytest

import gpukit
from gpukit import cuda

RNG = numpy.random.default_rng(1516)
DTYPES = ["int32", "int64", "float32", "float64"]


@cuda.vectorize
def add(a, b):
    return a + b


@cuda.vectorize
def subtract(a, b):  # not associative: accumulate, reduceat and at must go in order
    return a - b


@cuda.vectorize(["float64(float64)", "int64(int64)"])
def negate(a):
    return -a


def random(shape, dtype):
    if numpy.dtype(dtype).kind == "f":
        return RNG.standard_normal(shape).astype(dtype)
    return RNG.integers(-1000, 1000, shape).astype(dtype)


def tolerance(dtype):
    return {"float32": 1e-4, "float64": 1e-12}.get(dtype, 0)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape, axis", [((1,), 0), ((1025,), 0), ((37, 29), 0), ((37, 29), 1), ((5, 6, 7), (0, 2)),
                                         ((37, 29), None), ((4, 0), 0)])
def test_reduce_matches_numpy(shape, axis, dtype):
    x = random(shape, dtype)
    got = add.reduce(gpukit.asarray(x), axis=axis)
    numpy.testing.assert_allclose(got.get(), numpy.add.reduce(x, axis=axis), rtol=tolerance(dtype))


@pytest.mark.parametrize("keepdims", [False, True])
def test_reduce_with_keepdims_initial_dtype_and_out(keepdims):
    x = random((9, 13), "float32")
    got = add.reduce(x, axis=1, keepdims=keepdims, initial=2.5, dtype=numpy.float64)
    want = numpy.add.reduce(x.astype(numpy.float64), axis=1, keepdims=keepdims, initial=2.5)
    assert isinstance(got, numpy.ndarray) and got.dtype == numpy.float64
    numpy.testing.assert_allclose(got, want, rtol=1e-12)
    out = gpukit.empty(want.shape, numpy.float64)
    assert add.reduce(gpukit.asarray(x), axis=1, keepdims=keepdims, initial=2.5, dtype=numpy.float64, out=out) is out
    numpy.testing.assert_allclose(out.get(), want, rtol=1e-12)


def test_an_empty_reduction_needs_initial_as_numpy_says():
    empty = gpukit.zeros((0, 3), numpy.float64)
    with pytest.raises(ValueError, match="zero-size array to reduction operation add which has no identity"):
        add.reduce(empty, axis=0)
    numpy.testing.assert_array_equal(add.reduce(empty, axis=0, initial=4.0).get(), [4.0, 4.0, 4.0])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape, axis", [((1,), 0), ((1000,), 0), ((37, 29), 0), ((37, 29), 1), ((3, 4, 5), 1),
                                         ((3, 0), 1), ((3, 0), 0)])
def test_accumulate_goes_in_order_as_numpy(shape, axis, dtype):
    x = random(shape, dtype)
    got = subtract.accumulate(gpukit.asarray(x), axis=axis)
    numpy.testing.assert_allclose(got.get(), numpy.subtract.accumulate(x, axis=axis), rtol=tolerance(dtype) * 10)


def test_accumulate_of_a_non_contiguous_view():
    x = random((40, 30), "float64")
    got = add.accumulate(gpukit.asarray(x)[::3, 1::2], axis=1)
    numpy.testing.assert_allclose(got.get(), numpy.add.accumulate(x[::3, 1::2], axis=1), rtol=1e-12)


@pytest.mark.parametrize("indices", [[0, 4, 1, 6], [0], [5, 5, 2], [0, 1, 2, 3, 4, 5, 6]])
@pytest.mark.parametrize("axis", [0, 1])
def test_reduceat_segments_as_numpy(indices, axis):
    x = random((7, 7), "float64")
    got = subtract.reduceat(gpukit.asarray(x), indices, axis=axis)
    numpy.testing.assert_allclose(got.get(), numpy.subtract.reduceat(x, indices, axis=axis), rtol=1e-12)


@pytest.mark.parametrize("a_shape, b_shape", [((5,), (7,)), ((1,), (1,)), ((3, 2), (4,)), ((0,), (3,))])
def test_outer_pairs_every_element(a_shape, b_shape):
    a, b = random(a_shape, "float32"), random(b_shape, "float32")
    got = subtract.outer(gpukit.asarray(a), gpukit.asarray(b))
    assert got.shape == a_shape + b_shape
    numpy.testing.assert_allclose(got.get(), numpy.subtract.outer(a, b), rtol=1e-6)


@pytest.mark.parametrize("dtype", DTYPES)
def test_at_updates_repeated_indices_once_each_in_order(dtype):
    x = random((6, 5), dtype)
    indices = (numpy.array([0, 2, 2, 5, 0]), numpy.array([1, 1, 1, 4, 1]))
    operands = random(5, dtype)
    device = gpukit.asarray(x)
    subtract.at(device, indices, operands)
    numpy.subtract.at(x, indices, operands)
    numpy.testing.assert_allclose(device.get(), x, rtol=tolerance(dtype))


def test_at_of_a_unary_function_and_a_non_contiguous_array():
    x = random((8, 6), "float64")
    device = gpukit.asarray(numpy.asfortranarray(x))
    negate.at(device, [1, 1, 7])  # row 1 negated twice, row 7 once
    numpy.negative.at(x, [1, 1, 7])
    numpy.testing.assert_array_equal(device.get(), x)


def test_ufunc_attributes():
    assert (negate.nin, negate.nout, negate.nargs) == (1, 1, 2)
    assert negate.types == ["d->d", numpy.dtype("int64").char * 1 + "->" + numpy.dtype("int64").char]
    assert add.identity is None and add.signature is None and add.ntypes == 0


@pytest.mark.parametrize("call, error, message", [
    (lambda: negate.reduce(gpukit.zeros(3)), ValueError, "reduce only supported for binary functions"),
    (lambda: add.reduce(gpukit.zeros(3), where=numpy.ones(3, bool)), NotImplementedError, "where"),
    (lambda: add.reduce(gpukit.zeros((2, 2)), axis=2), numpy.exceptions.AxisError, "axis 2 is out of bounds"),
    (lambda: add.reduce(gpukit.zeros((2, 2)), axis=(0, 0)), ValueError, "repeated axis"),
    (lambda: add.accumulate(gpukit.zeros(())), TypeError, "cannot accumulate on a scalar"),
    (lambda: add.reduceat(gpukit.zeros(4), [0, 4]), IndexError, "index 4 out-of-bounds"),
    (lambda: add.reduceat(gpukit.zeros(4), [0.5]), TypeError, "integer indices"),
    (lambda: add.at(numpy.zeros(3), [0], 1.0), TypeError, "updates a gpukit array in place"),
    (lambda: add.at(gpukit.zeros(3), [0]), TypeError, "takes a second operand"),
])
def test_bad_method_calls_say_what_is_wrong(call, error, message):
    with pytest.raises(error, match=message):
        call()
