"""PyCUDA's drv.In / drv.Out and gpuarray, as its tutorial uses them (multiply_them), ported to gpukit
by changing the imports. Runs on a GPU or on the simulator (GPUKIT_BACKEND=sim)."""

import sys

import numpy

import gpukit.pycuda.autoinit  # noqa: F401
import gpukit.pycuda.driver as drv
from gpukit.pycuda import gpuarray
from gpukit.pycuda.compiler import SourceModule

mod = SourceModule("""
__global__ void multiply_them(float *dest, float *a, float *b)
{
  const int i = threadIdx.x;
  dest[i] = a[i] * b[i];
}
""")

multiply_them = mod.get_function("multiply_them")

a = numpy.random.randn(400).astype(numpy.float32)
b = numpy.random.randn(400).astype(numpy.float32)

dest = numpy.zeros_like(a)
multiply_them(drv.Out(dest), drv.In(a), drv.In(b), block=(400, 1, 1), grid=(1, 1))

a_gpu = gpuarray.to_gpu(a)
doubled = (2 * a_gpu).get()

correct = numpy.array_equal(dest, a * b) and numpy.array_equal(doubled, 2 * a)
print(f"drv.In, drv.Out and gpuarray in PyCUDA style: {'correct' if correct else 'WRONG'}")
sys.exit(0 if correct else 1)
