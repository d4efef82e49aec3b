"""gpukit.reduce: binary Python functions as reductions (Numba's @cuda.reduce), against NumPy."""

import numpy
import pytest

import gpukit
from gpukit import cuda

RNG = numpy.random.default_rng(17)


@cuda.reduce
def sum_reduce(a, b):
    return a + b


@gpukit.reduce
def max_reduce(a, b):
    return a if a > b else b


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "float32", "float64"])
@pytest.mark.parametrize("n", [1, 31, 4097])
def test_sum_and_max_of_every_dtype(dtype, n):
    values = (RNG.random(n) * 100).astype(dtype)
    device = cuda.to_device(values)
    total = sum_reduce(device)
    assert isinstance(total, numpy.generic) and total.dtype == dtype
    numpy.testing.assert_allclose(total, values.sum(dtype=dtype), rtol=1e-5)
    assert max_reduce(device, init=values.min()) == values.max()


def test_the_course_call_on_a_host_array_with_init_size_and_res():
    values = numpy.arange(1, 10).astype(numpy.float32)
    assert sum_reduce(values) == 45.0  # seeds 004's warm-up call
    assert sum_reduce(values, init=5) == 50.0  # init counts once
    assert sum_reduce(values, size=3) == 6.0
    res = gpukit.zeros(1, numpy.float32)
    assert sum_reduce(cuda.to_device(values), res=res) is None
    assert res.get()[0] == 45.0
    assert sum_reduce(numpy.zeros(0, numpy.float32), init=7) == 7.0


def test_bad_functions_and_arguments():
    with pytest.raises(TypeError, match="takes two values"):
        gpukit.reduce(lambda a: a)
    with pytest.raises(ValueError, match="size must be an int from 0"):
        sum_reduce(numpy.ones(3), size=4)
