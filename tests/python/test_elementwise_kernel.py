"""gpukit.ElementwiseKernel against NumPy, with CuPy's examples: saxpy with a scalar, squared_diff
with type placeholders over several dtypes, add_reverse with a raw array, broadcasting, given
outputs, size=, several outputs, and CuPy's errors."""

import numpy
import pytest

import gpukit
from conftest import random_array

SQUARED_DIFF = gpukit.ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff")


def test_saxpy_with_a_python_scalar(rng):
    saxpy = gpukit.ElementwiseKernel("float32 a, float32 x, float32 y", "float32 z", "z = a * x + y", "saxpy")
    x, y = random_array(rng, 4097, numpy.float32), random_array(rng, 4097, numpy.float32)
    z = saxpy(2.5, gpukit.asarray(x), gpukit.asarray(y))
    assert isinstance(z, gpukit.ndarray) and z.dtype == numpy.float32 and z.shape == (4097,)
    # A GPU's compiler fuses a * x + y into one rounding (as CuPy's and PyTorch's do), NumPy rounds twice:
    # within a unit of the product's last place and one of the result's.
    product = numpy.float32(2.5) * x
    expected = product + y
    bound = numpy.spacing(numpy.abs(product)) + numpy.spacing(numpy.abs(expected))
    assert numpy.all(numpy.abs(z.get() - expected) <= bound)
    assert (saxpy.name, saxpy.nin, saxpy.nout, saxpy.nargs) == ("saxpy", 3, 1, 4)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32", "complex64"])
def test_squared_diff_takes_its_type_from_the_arrays(rng, dtype):
    x, y = random_array(rng, (5, 31), dtype), random_array(rng, (5, 31), dtype)
    z = SQUARED_DIFF(gpukit.asarray(x), gpukit.asarray(y))
    assert z.dtype == numpy.dtype(dtype)
    want = (x - y) * (x - y)
    if dtype == "float16":  # computed in float, rounded once
        numpy.testing.assert_allclose(z.get(), want, rtol=2e-3, atol=1e-3)
    elif dtype == "complex64":
        numpy.testing.assert_allclose(z.get(), want, rtol=1e-5, atol=1e-6)
    else:
        numpy.testing.assert_array_equal(z.get(), want)


def test_broadcasting_and_python_numbers(rng):
    x, y = random_array(rng, (4, 1), numpy.float64), random_array(rng, 5, numpy.float64)
    numpy.testing.assert_array_equal(SQUARED_DIFF(gpukit.asarray(x), gpukit.asarray(y)).get(), (x - y) ** 2)
    # A Python float takes T from the array (float32 stays float32).
    x32 = random_array(rng, (3, 4), numpy.float32)
    z = SQUARED_DIFF(gpukit.asarray(x32).T, 0.5)
    assert z.dtype == numpy.float32
    numpy.testing.assert_array_equal(z.get(), (x32.T - numpy.float32(0.5)) ** 2)


def test_given_outputs_are_written_and_returned(rng):
    out_host = numpy.full((5, 8), -7.0, numpy.float32)
    out = gpukit.asarray(out_host)
    columns = out[:, ::2]
    row = random_array(rng, 4, numpy.float32)
    result = SQUARED_DIFF(gpukit.asarray(row), 1.5, columns)
    assert result.shape == (5, 4)
    out_host[:, ::2] = (row - numpy.float32(1.5)) ** 2
    numpy.testing.assert_array_equal(out.get(), out_host)
    numpy.testing.assert_array_equal(result.get(), out_host[:, ::2])
    # Outputs are references: a kernel can read them too.
    accumulate = gpukit.ElementwiseKernel("T x", "T y", "y += x", "accumulate")
    accumulate(gpukit.asarray(row), columns)
    out_host[:, ::2] += row
    numpy.testing.assert_array_equal(out.get(), out_host)


def test_raw_arrays_are_indexed_whole(rng):
    add_reverse = gpukit.ElementwiseKernel("T x, raw T y", "T z", "z = x + y[_ind.size() - i - 1]", "add_reverse")
    x, y = random_array(rng, (3, 4), numpy.int64), random_array(rng, (4, 3), numpy.int64)
    for raw in (gpukit.asarray(y.reshape(3, 4)), gpukit.asarray(y).T, gpukit.asarray(y.ravel())[::-1]):
        held = raw.get().ravel()
        numpy.testing.assert_array_equal(add_reverse(gpukit.asarray(x), raw).get(), x + held[::-1].reshape(3, 4))


def test_size_sets_the_loop_when_every_array_is_raw(rng):
    twice = gpukit.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[i] * 2", "twice_raw")
    x = random_array(rng, 50, numpy.int32)
    y = twice(gpukit.asarray(x), size=20)
    assert y.shape == (20,)
    numpy.testing.assert_array_equal(y.get(), x[:20] * 2)
    out = gpukit.asarray(numpy.ones((5, 10), numpy.int32))
    twice(gpukit.asarray(x), out, size=30)
    numpy.testing.assert_array_equal(out.get().ravel(), numpy.concatenate([x[:30] * 2, numpy.ones(20, numpy.int32)]))


def test_several_outputs_no_return_and_return_tuple(rng):
    source = ("T x, T y", "T q, T r", "q = x / y; r = x - q * y")
    divmod_kernel = gpukit.ElementwiseKernel(*source, "int_divmod")
    x, y = random_array(rng, 40, numpy.int32), random_array(rng, 40, numpy.int32)
    y[y == 0] = 3
    q, r = divmod_kernel(gpukit.asarray(x), gpukit.asarray(y))
    numpy.testing.assert_array_equal(q.get(), numpy.trunc(x / y).astype(numpy.int32))
    numpy.testing.assert_array_equal(r.get(), x - q.get() * y)

    fill = gpukit.ElementwiseKernel("T v", "T y", "y = v * i", "fill_index", no_return=True)
    y_out = gpukit.empty(6, numpy.float64)
    assert fill(numpy.float64(0.5), y_out) is None
    numpy.testing.assert_array_equal(y_out.get(), numpy.arange(6) * 0.5)

    single = gpukit.ElementwiseKernel("T x", "T y", "y = -x", "negate_tuple", return_tuple=True)
    (neg,) = single(gpukit.asarray(x))
    numpy.testing.assert_array_equal(neg.get(), -x)


def test_preamble_options_and_stream(rng):
    kernel = gpukit.ElementwiseKernel("T x", "T y", "y = cube(x) + (T)SHIFT", "cube_shift",
                                      preamble="__device__ T cube(T v) { return v * v * v; }",
                                      options=("-DSHIFT=3",))
    x = random_array(rng, 33, numpy.float64)
    stream = gpukit.Stream()
    y = kernel(gpukit.asarray(x), stream=stream)
    stream.synchronize()
    numpy.testing.assert_allclose(y.get(), x ** 3 + 3, rtol=1e-15)


def test_typed_scalars_decide_placeholders_that_no_array_does(rng):
    scale = gpukit.ElementwiseKernel("T a, float32 x", "float32 y", "y = a * x", "scale")
    x = random_array(rng, 8, numpy.float32)
    numpy.testing.assert_array_equal(scale(numpy.float64(2), gpukit.asarray(x)).get(), x * 2)
    with pytest.raises(TypeError, match="nothing decides the type placeholder T"):
        scale(2.0, gpukit.asarray(x))


def test_bad_calls_raise_as_cupy_does(rng):
    saxpy = gpukit.ElementwiseKernel("float32 a, float32 x, float32 y", "float32 z", "z = a * x + y", "saxpy")
    x = gpukit.asarray(random_array(rng, 8, numpy.float32))
    with pytest.raises(TypeError, match="Wrong number of arguments for 'saxpy'. It must be either 3 or 4"):
        saxpy(1.0, x)
    with pytest.raises(TypeError, match="is a float64 array, but the parameter is float32"):
        saxpy(1.0, x, gpukit.asarray(random_array(rng, 8, numpy.float64)))
    with pytest.raises(TypeError, match="gpukit.asarray"):
        saxpy(1.0, x, numpy.ones(8, numpy.float32))
    with pytest.raises(ValueError, match="could not be broadcast"):
        saxpy(1.0, x, gpukit.asarray(numpy.ones(3, numpy.float32)))
    with pytest.raises(ValueError, match="size= can be given only when every array argument is raw"):
        saxpy(1.0, x, x, size=8)
    with pytest.raises(TypeError):
        saxpy(1.0, x, x, sizes=8)
    with pytest.raises(gpukit.ScalarOverflowError):
        gpukit.ElementwiseKernel("uint8 a, T x", "T y", "y = x + a", "add_byte")(300, x)
    with pytest.raises(gpukit.CompileError):
        gpukit.ElementwiseKernel("T x", "T y", "y = x +* ;", "broken")(x)


def test_bad_definitions_raise():
    with pytest.raises(ValueError, match="invalid kernel name"):
        gpukit.ElementwiseKernel("T x", "T y", "y = x", "my kernel")
    with pytest.raises(ValueError, match="'flaot32'"):
        gpukit.ElementwiseKernel("flaot32 x", "T y", "y = x", "k")
    with pytest.raises(ValueError, match="cannot be named 'i'"):
        gpukit.ElementwiseKernel("T i", "T y", "y = i", "k")
    with pytest.raises(ValueError, match="-fplugin"):
        gpukit.ElementwiseKernel("T x", "T y", "y = x", "k", options=("-fplugin=/tmp/evil.so",))
    with pytest.raises(TypeError):
        gpukit.ElementwiseKernel("T x", "T y", "y = x", "k", options=(1,))


def test_a_kernel_made_again_from_its_definition_reuses_what_was_compiled(rng):
    """A program that makes the same ElementwiseKernel in a loop compiles (and looks up) its code
    once, as CuPy's memoised kernels do; a different definition is a different kernel."""
    x = gpukit.asarray(random_array(rng, 1000, "float32"))

    def make(factor):
        return gpukit.ElementwiseKernel("float32 x", "float32 y", f"y = x * {factor}f", "made_again")

    first = make(3.0)(x)
    before = gpukit._core.cache_stats()
    for _ in range(5):
        again = make(3.0)(x)
    after = gpukit._core.cache_stats()
    assert (after.memory_hits, after.disk_hits, after.misses) == (before.memory_hits, before.disk_hits, before.misses)
    numpy.testing.assert_array_equal(again.get(), first.get())
    numpy.testing.assert_array_equal(make(5.0)(x).get(), x.get() * numpy.float32(5))
