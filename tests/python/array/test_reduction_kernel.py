"""gpukit.ReductionKernel (src/ops/reduction_kernel.cpp) as CuPy's: the course's absolute sum, two
inputs, scalars, reduce_type, no identity, axis/keepdims/out, and the errors."""

import numpy
import pytest

import gpukit
from conftest import random_array


@pytest.fixture(scope="module")
def absolute_sum():
    return gpukit.ReductionKernel("T x", "T y", "abs(x)", "a + b", "y = a", "0", "absolute_sum")


@pytest.mark.parametrize("shape", [(1,), (31,), (1025,), (37, 65), (3, 4, 5)])
def test_absolute_sum(absolute_sum, shape, rng):
    host = random_array(rng, shape, "float64")
    device = gpukit.asarray(host)
    assert float(absolute_sum(device)) == pytest.approx(numpy.abs(host).sum(), rel=1e-12)
    for axis in range(len(shape)):
        numpy.testing.assert_allclose(absolute_sum(device, axis=axis).get(), numpy.abs(host).sum(axis=axis),
                                      rtol=1e-12)
    numpy.testing.assert_allclose(absolute_sum(device.T, axis=0, keepdims=True).get(),
                                  numpy.abs(host.T).sum(axis=0, keepdims=True), rtol=1e-12)


def test_two_inputs_scalars_and_reduce_type(rng):
    x = random_array(rng, (40, 30), "float32")
    y = random_array(rng, (30,), "float32")
    dot = gpukit.ReductionKernel("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "row_dot")
    numpy.testing.assert_allclose(dot(gpukit.asarray(x), gpukit.asarray(y), axis=1).get(), x @ y, rtol=1e-5, atol=1e-5)
    scaled = gpukit.ReductionKernel("T x, T s", "float64 z", "x * s", "a + b", "z = a", "0", "scaled",
                                    reduce_type="float64")
    assert float(scaled(gpukit.asarray(x), 2.0)) == pytest.approx(2 * x.astype(numpy.float64).sum(), rel=1e-12)
    counts = gpukit.ReductionKernel("T x", "int64 n", "x > 0 ? 1 : 0", "a + b", "n = a", "0", "positives",
                                    reduce_type="int64")
    assert int(counts(gpukit.asarray(x))) == int((x > 0).sum())


def test_without_identity_and_into_out(rng):
    x = random_array(rng, (17, 33), "int32")
    largest = gpukit.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", None, "largest")
    numpy.testing.assert_array_equal(largest(gpukit.asarray(x), axis=0).get(), x.max(axis=0))
    out = gpukit.empty(17, numpy.int32)
    assert largest(gpukit.asarray(x), axis=1, out=out) is not None
    numpy.testing.assert_array_equal(out.get(), x.max(axis=1))
    with pytest.raises(ValueError, match="no identity"):
        largest(gpukit.empty((0,), numpy.int32))


def test_errors(absolute_sum):
    with pytest.raises(ValueError, match="one output"):
        gpukit.ReductionKernel("T x", "T y, T z", "x", "a + b", "y = a", "0")
    with pytest.raises(ValueError, match="cannot be named 'a'"):
        gpukit.ReductionKernel("T a", "T y", "a", "a + b", "y = a", "0")
    with pytest.raises(TypeError):
        absolute_sum(gpukit.empty(3, numpy.float32), gpukit.empty(3, numpy.float32))
    fixed = gpukit.ReductionKernel("float32 x", "float32 y", "x", "a + b", "y = a", "0", "fixed")
    with pytest.raises(TypeError, match="float64"):
        fixed(gpukit.empty(3, numpy.float64))
    broken = gpukit.ReductionKernel("T x", "T y", "x +", "a + b", "y = a", "0", "broken")
    with pytest.raises(gpukit.CompileError):
        broken(gpukit.empty(3, numpy.float32))
    assert float(absolute_sum(gpukit.asarray(numpy.array([-1.0, 2.0])))) == 3.0  # still usable


def test_a_reduction_kernel_made_again_from_its_definition_reuses_what_was_compiled():
    """As ElementwiseKernel: the same definition compiles once however often it is made; another
    map expression is another kernel."""
    x = gpukit.asarray(numpy.arange(1, 1001, dtype=numpy.float32))

    def make(map_expr):
        return gpukit.ReductionKernel("T x", "T y", map_expr, "a + b", "y = a", "0", "made_again_sum")

    assert float(make("x")(x)) == 500500
    before = gpukit._core.cache_stats()
    for _ in range(5):
        assert float(make("x")(x)) == 500500
    after = gpukit._core.cache_stats()
    assert (after.memory_hits, after.disk_hits, after.misses) == (before.memory_hits, before.disk_hits, before.misses)
    assert float(make("x * 2")(x)) == 1001000
