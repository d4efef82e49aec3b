"""PyCUDA's API over gpukit, so that the course's PyCUDA programs run by changing their imports:
``import gpukit.pycuda.autoinit``, ``import gpukit.pycuda.driver as cuda``, ``from
gpukit.pycuda.compiler import SourceModule``, ``gpukit.pycuda.gpuarray``, and
``gpukit.pycuda.elementwise.ElementwiseKernel`` / ``gpukit.pycuda.reduction.ReductionKernel`` with
PyCUDA's argument conventions. Kernels run on the current gpukit device: a GPU, or the simulator
(GPUKIT_BACKEND=sim), where check mode finds their races and out-of-bounds accesses.
"""
