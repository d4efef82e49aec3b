"""gpukit.guvectorize: Python functions of core arrays as generalized ufuncs (Numba's @guvectorize), against NumPy."""

import numpy
import pytest

import gpukit
from gpukit import cuda
from gpukit.cuda import float32, float64, int32, int64, void

DTYPES = ["float32", "float64", "int32", "int64"]


def random_array(rng, shape, dtype):
    """Random values, never zero: integers in [1, 9], floats in [0.5, 2)."""
    if numpy.dtype(dtype).kind in "iu":
        return rng.integers(1, 10, shape).astype(dtype)
    return rng.uniform(0.5, 2.0, shape).astype(dtype)


def assert_matches(got, want, dtype):
    assert numpy.dtype(got.dtype) == numpy.dtype(dtype)
    if numpy.dtype(dtype).kind in "iu":
        numpy.testing.assert_array_equal(got, want)
    else:
        numpy.testing.assert_allclose(got, want, rtol=1e-5 if numpy.dtype(dtype) == numpy.float32 else 1e-12)


@gpukit.guvectorize([(float32[:], float32[:], float32[:]), (float64[:], float64[:], float64[:]),
                     (int32[:], int32[:], int32[:]), (int64[:], int64[:], int64[:])], "(n),(n)->()", target="cuda")
def dot(a, b, out):
    total = 0
    for i in range(a.shape[0]):
        total += a[i] * b[i]
    out[0] = total


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("loop", [0, 1, 257])
def test_dot_with_signatures_over_loop_sizes(rng, dtype, loop):
    a = random_array(rng, (loop, 7), dtype)
    b = random_array(rng, (loop, 7), dtype)
    result = dot(gpukit.asarray(a), gpukit.asarray(b))
    assert isinstance(result, gpukit.ndarray) and result.shape == (loop,)  # device inputs, device output
    assert_matches(result.get(), numpy.einsum("ij,ij->i", a, b), dtype)


def test_host_inputs_give_a_host_result_and_loop_dimensions_broadcast(rng):
    a = random_array(rng, (4, 1, 5), "float64")
    b = random_array(rng, (3, 5), "float64")
    result = dot(a, b)
    assert isinstance(result, numpy.ndarray) and result.shape == (4, 3)
    assert_matches(result, numpy.einsum("ikn,jn->ij", a, b), "float64")
    row = random_array(rng, 5, "float64")  # one core array against a loop of them
    assert_matches(dot(row, b[0:3]), b[0:3] @ row, "float64")
    assert_matches(dot(row, row), numpy.array(row @ row), "float64")  # no loop dimensions: a 0-d result
    assert_matches(dot([[1.5, 2.0], [3.0, 1.0]], [2.0, 4.0]), numpy.array([11.0, 10.0]), "float64")  # lists


def test_a_stream_orders_the_copies_and_the_launch(rng):
    a = random_array(rng, (300, 9), "float32")
    stream = cuda.stream()
    result = dot(gpukit.asarray(a), a[0], stream=stream)
    stream.synchronize()
    assert_matches(result.get(), a @ a[0], "float32")


def test_inputs_cast_to_the_first_signature_they_convert_to(rng):
    a = random_array(rng, (3, 4), "int16")
    b = random_array(rng, (3, 4), "int32")
    result = dot(a, b)
    assert result.dtype == numpy.float64  # as NumPy picks a loop: the first signature both convert to safely
    assert_matches(result, numpy.einsum("ij,ij->i", a, b), "float64")
    assert dot(b, b).dtype == numpy.int32  # an exact match comes first
    assert dot(a, a).dtype == numpy.float32  # int16 converts to float32 safely

    @gpukit.guvectorize(["void(float32[:], float32[:], float32[:])"], "(n),(n)->()")
    def dot32(a, b, out):
        total = 0.0
        for i in range(a.shape[0]):
            total += a[i] * b[i]
        out[0] = total

    y = random_array(rng, (3, 4), "float64")
    result = dot32(gpukit.asarray(y), gpukit.asarray(a.astype(numpy.int64)))  # same_kind: float64 -> float32
    assert_matches(result.get(), numpy.einsum("ij,ij->i", y.astype(numpy.float32), a.astype(numpy.float32)),
                   "float32")


@gpukit.guvectorize("(n)->(n)")
def running_sum(x, out):
    total = 0
    for i in range(x.shape[0]):
        total += x[i]
        out[i] = total


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (33, 5), (0, 3), (2, 0)])
def test_types_come_from_the_arguments_without_signatures(rng, dtype, shape):
    x = random_array(rng, shape, dtype)
    result = running_sum(gpukit.asarray(x)).get()
    assert_matches(result, numpy.cumsum(x, axis=-1, dtype=dtype), dtype)


def test_non_contiguous_inputs_and_outputs(rng):
    x = random_array(rng, (6, 9), "float64")
    assert_matches(running_sum(x[::2, ::3]), numpy.cumsum(x[::2, ::3], axis=-1), "float64")
    assert_matches(running_sum(x.T), numpy.cumsum(x.T, axis=-1), "float64")
    device = gpukit.asarray(x)
    assert_matches(running_sum(device[::2, ::-3]).get(), numpy.cumsum(x[::2, ::-3], axis=-1), "float64")
    assert_matches(running_sum(device.T).get(), numpy.cumsum(x.T, axis=-1), "float64")
    out = gpukit.zeros((9, 6), numpy.float64)
    running_sum(device, out=out.T)
    assert_matches(out.get(), numpy.cumsum(x, axis=-1).T, "float64")


@gpukit.guvectorize(["void(float64[:,:], float64[:,:], float64[:,:])", void(float32[:, :], float32[:, :],
                                                                              float32[:, :])],
                    "(m,n),(n,p)->(m,p)")
def matmul(x, y, z):
    for i in range(x.shape[0]):
        for j in range(y.shape[1]):
            acc = 0
            for k in range(x.shape[1]):
                acc += x[i, k] * y[k, j]
            z[i, j] = acc


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_batched_matmul_broadcasts_and_reads_transposed_cores(rng, dtype):
    x = random_array(rng, (2, 1, 3, 5), dtype)
    y = random_array(rng, (4, 5, 7), dtype)
    result = matmul(gpukit.asarray(x), gpukit.asarray(y))
    assert result.shape == (2, 4, 3, 7)
    assert_matches(result.get(), x @ y, dtype)
    xt = random_array(rng, (5, 3), dtype)  # a core read through its transpose: strides (1, 3)
    assert_matches(matmul(gpukit.asarray(xt).T, y).get(), xt.T @ y, dtype)


@gpukit.guvectorize("(n),()->(n)")
def scale(v, factor, out):
    for i in range(v.shape[0]):
        out[i] = v[i] * factor


def test_scalar_operands_broadcast_and_python_numbers_take_the_arrays_type(rng):
    v = random_array(rng, (4, 7), "float32")
    factors = random_array(rng, 4, "float32")
    assert_matches(scale(v, factors), v * factors[:, None], "float32")
    assert_matches(scale(v, 2.5), v * numpy.float32(2.5), "float32")  # NumPy 2: the Python float stays weak
    assert_matches(scale(v[0], factors), v[0] * factors[:, None], "float32")  # the scalar's loop broadcasts v
    integers = random_array(rng, (3, 5), "int64")
    assert_matches(scale(gpukit.asarray(integers), 3).get(), integers * 3, "int64")


@gpukit.guvectorize([(float64[:], float64, float64[:]), (int32[:], int32, int32[:])], "(n),()->(n)")
def shift(v, offset, out):
    for i in range(v.shape[0]):
        out[i] = v[i] + offset


def test_a_scalar_signature_type_and_out_given_positionally_or_by_keyword(rng):
    v = random_array(rng, (5, 3), "int32")
    offsets = random_array(rng, (5,), "int32")
    out = gpukit.empty((5, 3), numpy.int32)
    assert shift(gpukit.asarray(v), gpukit.asarray(offsets), out) is out  # Numba's: outputs after the inputs
    assert_matches(out.get(), v + offsets[:, None], "int32")
    host_out = numpy.empty((5, 3))
    assert shift(v.astype(numpy.float64), 0.5, out=host_out) is host_out
    assert_matches(host_out, v + 0.5, "float64")
    wider = gpukit.empty((5, 3), numpy.float64)  # an output of another dtype of the same kind
    shift(v.astype(numpy.float32), numpy.float32(1.5), out=wider)
    assert_matches(wider.get(), v + 1.5, "float64")


@gpukit.guvectorize([(float64[:], float64[:], float64[:])], "(n)->(),()")
def extremes(x, low, high):
    low[0] = x[0]
    high[0] = x[0]
    for i in range(1, x.shape[0]):
        low[0] = min(low[0], x[i])
        high[0] = max(high[0], x[i])


def test_several_outputs(rng):
    x = random_array(rng, (11, 6), "float64")
    low, high = extremes(x)
    assert_matches(low, x.min(axis=1), "float64")
    assert_matches(high, x.max(axis=1), "float64")
    outs = (gpukit.empty(11), gpukit.empty(11))
    assert extremes(gpukit.asarray(x), out=outs) == outs
    assert_matches(outs[1].get(), x.max(axis=1), "float64")
    assert extremes.nin == 1 and extremes.nout == 2 and extremes.signature == "(n)->(),()"


@gpukit.guvectorize("(3),(n)->(n)")
def blend(weights, x, out):
    for i in range(x.shape[0]):
        out[i] = weights[0] * x[i] + weights[1] * x[i] * x[i] + weights[2]


def test_fixed_core_sizes(rng):
    weights = random_array(rng, 3, "float64")
    x = random_array(rng, (4, 6), "float64")
    assert_matches(blend(weights, x), weights[0] * x + weights[1] * x * x + weights[2], "float64")
    with pytest.raises(ValueError, match="core dimension 3 .* is fixed at 3 but 4 in input 0"):
        blend(random_array(rng, 4, "float64"), x)


def test_an_output_dimension_no_input_has_comes_from_out(rng):
    @gpukit.guvectorize("(n)->(m)")
    def repeat_sum(x, out):
        total = 0.0
        for i in range(x.shape[0]):
            total += x[i]
        for j in range(out.shape[0]):
            out[j] = total * (j + 1)

    x = random_array(rng, (3, 4), "float64")
    out = numpy.empty((3, 5))
    repeat_sum(x, out=out)
    assert_matches(out, x.sum(axis=1)[:, None] * numpy.arange(1, 6), "float64")
    with pytest.raises(ValueError, match="core dimension 'm' of output 0 appears in no input .*give the output"):
        repeat_sum(x)


def test_the_numba_namespace_and_attributes():
    assert cuda.guvectorize is gpukit.guvectorize
    assert "guvectorize" in cuda.__all__ and "guvectorize" in gpukit.__all__
    assert repr(float64[:, :]) == "float64[:, :]"
    assert repr(dot) == "<gpukit.guvectorize dot '(n),(n)->()'>"


@pytest.mark.parametrize("layout, message", [
    ("(n),(n)", "reads inputs->outputs"),
    ("(n)->(n)->()", "has 2 '->'"),
    ("n->n", "lists operands as \\(dimensions\\)"),
    ("(n),->()", "lists operands as \\(dimensions\\)"),
    ("(n m)->()", "'n m' in layout '\\(n m\\)->\\(\\)' is neither"),
    ("(n,)->()", "'' in layout"),
])
def test_layouts_that_do_not_parse(layout, message):
    with pytest.raises(ValueError, match=message):
        gpukit.guvectorize([(float32[:], float32[:])], layout)


def test_bad_decorations():
    def copy(x, out):
        for i in range(x.shape[0]):
            out[i] = x[i]

    with pytest.raises(TypeError, match="has 3 operands; layout '\\(n\\)->\\(n\\)' has 2"):
        gpukit.guvectorize([(float32[:], float32[:], float32[:])], "(n)->(n)")
    with pytest.raises(TypeError, match="gives operand 0 2 dimensions, but layout '\\(n\\)->\\(n\\)' gives it 1"):
        gpukit.guvectorize([(float32[:, :], float32[:])], "(n)->(n)")
    with pytest.raises(TypeError, match="makes output 0 a number"):
        gpukit.guvectorize([(float32[:], float32)], "(n)->()")
    with pytest.raises(TypeError, match="makes operand 0 a number, but layout"):
        gpukit.guvectorize([(float32, float32[:])], "(n)->(n)")
    with pytest.raises(TypeError, match="copy takes 2 arguments; layout '\\(n\\),\\(n\\)->\\(n\\)' has 3 operands"):
        gpukit.guvectorize("(n),(n)->(n)")(copy)
    with pytest.raises(TypeError, match="needs a layout"):
        gpukit.guvectorize([(float32[:], float32[:])])
    with pytest.raises(ValueError, match="reads 'void\\(float32\\[:\\], float32\\[:\\]\\)'"):
        gpukit.guvectorize(["float32[:] float32[:]"], "(n)->(n)")
    with pytest.raises(ValueError, match="a ':' per dimension"):
        gpukit.guvectorize(["void(float32[1], float32[:])"], "(n)->(n)")
    with pytest.raises(TypeError, match="'datetime64' is not a type kernels have"):
        gpukit.guvectorize(["void(datetime64[:], float32[:])"], "(n)->(n)")
    with pytest.raises(TypeError, match="written float32\\[:\\]"):
        float32[2]
    with pytest.raises(ValueError, match="target 'cuda' \\(the current device\\)"):
        gpukit.guvectorize([(float32[:], float32[:])], "(n)->(n)", target="cpu")
    with pytest.raises(TypeError, match="unexpected keyword arguments: nopython"):
        gpukit.guvectorize([(float32[:], float32[:])], "(n)->(n)", nopython=True)


def test_bad_calls(rng):
    x = random_array(rng, (3, 4), "float32")
    with pytest.raises(TypeError, match="dot takes 2 inputs \\(and its 1 output may follow them\\), not 1"):
        dot(x)
    with pytest.raises(TypeError, match="given both as arguments and as out="):
        dot(x, x, numpy.empty(3, numpy.float32), out=numpy.empty(3, numpy.float32))
    with pytest.raises(ValueError, match="core dimension 'n' .* is 4 in an earlier operand but 5 in input 1"):
        dot(x, random_array(rng, (3, 5), "float32"))
    with pytest.raises(ValueError, match="input 1 has 0 dimensions .* gives it 1 core dimensions \\(n\\)"):
        dot(x, numpy.float32(2))
    with pytest.raises(ValueError, match="loop dimensions \\(3,\\), \\(2,\\) .* do not broadcast"):
        dot(x, random_array(rng, (2, 4), "float32"))
    with pytest.raises(TypeError, match="no signature takes inputs of \\(complex64, float32\\); it has "
                                        "void\\(float32\\[:\\], float32\\[:\\], float32\\[:\\]\\), void\\(float64"):
        dot(x.astype(numpy.complex64), x)
    with pytest.raises(TypeError, match="input 0 is of str64, which gufuncs do not take"):
        running_sum(numpy.array(["ab", "cd"]))
    with pytest.raises(TypeError, match="input 0 is a str"):
        running_sum("text")
    with pytest.raises(ValueError, match="output 0 has loop dimensions \\(2,\\) .* broadcast to \\(3,\\)"):
        dot(x, x, out=numpy.empty(2, numpy.float32))
    with pytest.raises(TypeError, match="output 0 is int32, which the result's float32 does not cast to"):
        dot(x, x, out=numpy.empty(3, numpy.int32))
    with pytest.raises(TypeError, match="has 1 output; out= gives 2"):
        dot(x, x, out=(numpy.empty(3), numpy.empty(3)))

    @gpukit.guvectorize("(n)->()")
    def returns(x, out):
        return x[0]

    with pytest.raises(TypeError, match="returns a value; a gufunc writes its results into its output arguments"):
        returns(x)
