"""gpukit.jit with explicit signatures (Numba's eager form): translated at the decoration, launches
take the first signature their arguments convert to, and arguments no signature takes are refused."""

import numpy
import pytest

import gpukit
from gpukit import cuda
from gpukit.cuda import float32, float64, int32, void

RNG = numpy.random.default_rng(1517)


@cuda.jit("void(float32[:], float32[:], float32)")
def scale_from_string(x, out, factor):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * factor


@cuda.jit([void(float64[:, :], float64[:, :], int32), void(float32[:, :], float32[:, :], int32)])
def shift_rows(x, out, by):
    i, j = cuda.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        out[i, j] = x[(i + by) % x.shape[0], j]


@pytest.mark.parametrize("n", [1, 33, 1000])
def test_a_string_signature_converts_a_python_number_to_its_parameter_type(n):
    x = RNG.standard_normal(n).astype(numpy.float32)
    out = gpukit.empty(n, numpy.float32)
    scale_from_string[(n + 127) // 128, 128](gpukit.asarray(x), out, 3)  # an int for float32
    numpy.testing.assert_allclose(out.get(), x * numpy.float32(3), rtol=1e-7)
    scale_from_string[(n + 127) // 128, 128](gpukit.asarray(x), out, numpy.float64(0.5))
    numpy.testing.assert_allclose(out.get(), x * numpy.float32(0.5), rtol=1e-7)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("layout", ["C", "F"])
def test_signature_objects_choose_by_dtype_and_keep_the_arrays_layout(dtype, layout):
    x = RNG.standard_normal((19, 7)).astype(dtype)
    device = gpukit.asarray(x) if layout == "C" else gpukit.asfortranarray(gpukit.asarray(x))
    out = gpukit.empty((19, 7), dtype)
    shift_rows[(1, 1), (32, 8)](device, out, 5)
    numpy.testing.assert_array_equal(out.get(), numpy.roll(x, -5, axis=0))


@pytest.mark.parametrize("args, message", [
    ((numpy.zeros(4, numpy.float64), numpy.zeros(4, numpy.float32), 1.0), "no signature takes the arguments"),
    ((numpy.zeros((2, 2), numpy.float32), numpy.zeros(4, numpy.float32), 1.0), "no signature takes"),
    ((numpy.zeros(4, numpy.float32), numpy.zeros(4, numpy.float32), "x"), "argument 2 is a str"),
])
def test_arguments_no_signature_takes_are_refused(args, message):
    with pytest.raises(TypeError, match=message):
        scale_from_string[1, 32](*args)


def test_a_float_for_an_int_parameter_is_refused():
    x = gpukit.zeros((2, 2))
    with pytest.raises(TypeError, match=r"no signature takes the arguments .*float64\)"):
        shift_rows[1, 32](x, x, 1.5)


def test_a_kernel_signature_returns_void():
    with pytest.raises(TypeError, match=r"a kernel returns nothing, so its signature is void\(...\)"):
        @cuda.jit("float32(float32[:])")
        def returns(x):
            x[0] = 1


def test_a_signature_translates_at_the_decoration():
    with pytest.raises(NameError, match="name 'undefined_name' is not defined"):
        @cuda.jit("void(float32[:])")
        def broken(x):
            x[0] = undefined_name  # noqa: F821 (the error under test)


def test_a_device_function_takes_a_signature_and_is_typed_by_its_calls():
    @cuda.jit("float32(float32, float32)", device=True)
    def hypot2(a, b):
        return a * a + b * b

    @cuda.jit
    def use(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = hypot2(x[i], float32(2))

    x = RNG.standard_normal(50).astype(numpy.float32)
    out = gpukit.empty(50, numpy.float32)
    use[1, 64](gpukit.asarray(x), out)
    numpy.testing.assert_allclose(out.get(), x * x + 4, rtol=1e-6)
