"""gpukit.pycuda: PyCUDA's API over gpukit (SourceModule, driver, In/Out, gpuarray, its
ElementwiseKernel and ReductionKernel), against NumPy."""

import numpy
import pytest

import gpukit
import gpukit.pycuda.autoinit  # noqa: F401
import gpukit.pycuda.driver as drv
from gpukit.pycuda import gpuarray
from gpukit.pycuda.compiler import SourceModule
from gpukit.pycuda.elementwise import ElementwiseKernel
from gpukit.pycuda.reduction import ReductionKernel

RNG = numpy.random.default_rng(18)

SCALE = """
__global__ void scale(float *out, const float *in, float factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = factor * in[i];
}
"""


def test_source_module_with_allocations_copies_and_block_grid_keywords():
    scale = SourceModule(SCALE).get_function("scale")
    x = RNG.random(1000, dtype=numpy.float32)
    d_in, d_out = drv.mem_alloc(x.nbytes), drv.mem_alloc(x.nbytes)
    drv.memcpy_htod(d_in, x)
    scale(d_out, d_in, numpy.float32(3), numpy.int32(x.size), block=(128, 1, 1), grid=(8, 1))
    out = numpy.empty_like(x)
    drv.memcpy_dtoh(out, d_out)
    numpy.testing.assert_array_equal(out, 3 * x)
    d_in.free()
    with pytest.raises(ValueError, match="freed"):
        int(d_in)


def test_in_out_and_gpu_arrays():
    scale = SourceModule(SCALE).get_function("scale")
    x = RNG.random(300, dtype=numpy.float32)
    out = numpy.zeros_like(x)
    scale(drv.Out(out), drv.In(x), numpy.float32(0.5), numpy.int32(300), block=(256, 1, 1), grid=(2, 1))
    numpy.testing.assert_array_equal(out, numpy.float32(0.5) * x)
    x_gpu = gpuarray.to_gpu(x)
    y_gpu = gpuarray.zeros(300, numpy.float32)
    scale(y_gpu, x_gpu, numpy.float32(2), numpy.int32(300), block=(256, 1, 1), grid=(2, 1))
    numpy.testing.assert_array_equal(y_gpu.get(), 2 * x)
    with pytest.raises(TypeError, match=r"drv.In\(a\), drv.Out\(a\) or drv.InOut\(a\)"):
        scale(out, x_gpu, numpy.float32(1), numpy.int32(1), block=(1, 1, 1))
    with pytest.raises(TypeError, match="block="):
        scale(y_gpu, x_gpu, numpy.float32(1), numpy.int32(1))


def test_elementwise_kernel_with_pycudas_conventions_and_a_range():
    lin_comb = ElementwiseKernel("float a, float *x, float b, float *y, float *z", "z[i] = a*x[i] + b*y[i]",
                                 "linear_combination")
    x = RNG.random(5000, dtype=numpy.float32)
    y = RNG.random(5000, dtype=numpy.float32)
    z = gpuarray.zeros(5000, numpy.float32)
    lin_comb(5, gpuarray.to_gpu(x), 6, gpuarray.to_gpu(y), z)
    numpy.testing.assert_allclose(z.get(), 5 * x + 6 * y, rtol=1e-6)
    part = gpuarray.zeros(5000, numpy.float32)
    lin_comb(1, gpuarray.to_gpu(x), 0, gpuarray.to_gpu(y), part, range=slice(10, 100, 3))
    want = numpy.zeros(5000, numpy.float32)
    want[10:100:3] = x[10:100:3]
    numpy.testing.assert_allclose(part.get(), want, rtol=1e-6)


def test_reduction_kernel_dot_product():
    dot = ReductionKernel(numpy.float32, neutral="0", reduce_expr="a+b", map_expr="x[i]*y[i]",
                          arguments="float *x, float *y")
    x = RNG.random(100_003, dtype=numpy.float32)
    y = RNG.random(100_003, dtype=numpy.float32)
    numpy.testing.assert_allclose(float(dot(gpuarray.to_gpu(x), gpuarray.to_gpu(y)).get()),
                                  x.astype(numpy.float64) @ y, rtol=1e-5)
    with pytest.raises(NotImplementedError, match="other than at \\[i\\]"):
        ReductionKernel(numpy.float32, "0", "a+b", "x[i+1]", "float *x")
    with pytest.raises(ValueError, match="cannot read the argument 'quaternion q'"):
        ReductionKernel(numpy.float32, "0", "a+b", "q", "quaternion q")


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.int64, numpy.float64])
def test_reduction_kernel_of_one_input_by_default(dtype):
    values = (RNG.random(1001) * 100).astype(dtype)
    total = ReductionKernel(dtype, neutral="0", reduce_expr="a+b")(gpuarray.to_gpu(values))
    numpy.testing.assert_allclose(total.get(), values.sum(), rtol=1e-12)


def test_events_time_a_launch():
    start, end = drv.Event(), drv.Event()
    start.record()
    gpukit.zeros(1000).sum()
    end.record()
    end.synchronize()
    assert end.time_since(start) >= 0


def test_names_and_arguments_never_become_code():
    with pytest.raises(ValueError, match="C identifier"):
        ElementwiseKernel("float *x", "x[i] = 0", "k(){} void evil")
    with pytest.raises(ValueError, match="cannot read the argument"):
        ElementwiseKernel("float *x) {} void evil(float *y", "x[i] = 0")
