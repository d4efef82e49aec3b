"""gpukit._interop: NumPy, DLPack and the CUDA Array Interface, both ways.

NumPy interop runs everywhere. CuPy, PyTorch and Numba need a GPU: those tests skip without one
(scripts/gpu-check runs them on the GPU machine, where the three are installed)."""

import ctypes
import gc
import os
import subprocess
import sys

import numpy
import pytest

import course
import gpukit
from conftest import on_simulator, random_array

needs_gpu = pytest.mark.needs_gpu
needs_simulator = pytest.mark.needs_simulator


@pytest.fixture(scope="module")
def vector_add():
    return gpukit.RawKernel(course.VECTOR_ADD, "vector_add")


def capsule_name(capsule):
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    return get_name(capsule).decode()


class DLPackOnly:
    """A producer that offers nothing but DLPack, as a library gpukit knows nothing about would."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, **kwargs):
        return self.array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def test_asarray_copies_host_data_on_every_backend(rng):
    values = random_array(rng, 50, "float32")
    array = gpukit.asarray(values)
    values[0] = 123.0
    assert array.get()[0] != 123.0
    assert gpukit.asarray(array) is array
    numpy.testing.assert_array_equal(gpukit.asarray([[1, 2], [3, 4]]).get(), [[1, 2], [3, 4]])
    assert gpukit.asarray([1.5, 2.5], dtype=numpy.float32).dtype == numpy.float32
    copied = gpukit.array(array)
    assert copied is not array and copied.data_ptr != array.data_ptr


def test_asnumpy_of_gpukit_and_other_objects(rng):
    values = random_array(rng, (4, 4), "int32")
    numpy.testing.assert_array_equal(gpukit.asnumpy(gpukit.asarray(values)), values)
    numpy.testing.assert_array_equal(gpukit.asnumpy([1, 2]), [1, 2])


def test_dlpack_device_says_where_the_memory_is():
    array = gpukit.zeros(3)
    assert array.__dlpack_device__() == ((1, 0) if on_simulator() else (2, array.device.id))


def test_a_legacy_capsule_unless_max_version_asks_for_1_x():
    array = gpukit.zeros(3)
    assert capsule_name(array.__dlpack__()) == "dltensor"
    assert capsule_name(array.__dlpack__(max_version=(0, 8))) == "dltensor"
    assert capsule_name(array.__dlpack__(max_version=(1, 0))) == "dltensor_versioned"
    assert capsule_name(array.__dlpack__(max_version=(1, 3))) == "dltensor_versioned"


@needs_simulator
@pytest.mark.parametrize("key", [numpy.s_[:], numpy.s_[::2], numpy.s_[::-1], numpy.s_[1:, ::3]])
def test_numpy_from_dlpack_is_a_zero_copy_view_on_the_simulator(vector_add, key, rng):
    a, b = random_array(rng, (6, 50), "float32"), random_array(rng, (6, 50), "float32")
    c = gpukit.zeros((6, 50), numpy.float32)
    view = numpy.from_dlpack(c[key])
    numpy.testing.assert_array_equal(view, numpy.zeros((6, 50), numpy.float32)[key])
    vector_add(2, 256, (gpukit.asarray(a), gpukit.asarray(b), c, 300))
    gpukit.synchronize()
    numpy.testing.assert_array_equal(view, (a + b)[key])  # the kernel's writes, seen without a copy


@needs_simulator
def test_gpukit_from_dlpack_refuses_numpy_memory_the_device_process_cannot_reach(rng):
    # Kernels run in the simulator's device process, which sees device memory only: host memory is
    # refused (a copy through asarray works), gpukit's own memory shared back through NumPy is not.
    with pytest.raises(BufferError, match="gpukit.asarray"):
        gpukit.from_dlpack(numpy.zeros(300, numpy.float32))
    with pytest.raises(BufferError, match="GPUKIT_SIM_ISOLATION=0"):
        gpukit.from_dlpack(numpy.arange(20, dtype=numpy.int64)[::-3])
    own = gpukit.asarray(random_array(rng, 40, "float32"))
    back = gpukit.from_dlpack(numpy.from_dlpack(own))
    numpy.testing.assert_array_equal(back.get(), own.get())


@needs_simulator
def test_gpukit_from_dlpack_shares_numpy_memory_when_kernels_run_in_this_process():
    code = """
import numpy, gpukit
gpukit.use_backend("sim")
add = gpukit.RawModule(r'''
extern "C" __global__ void add(const float* a, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}''').get_function("add")
rng = numpy.random.default_rng(3)
a, b = rng.uniform(-1, 1, 300).astype(numpy.float32), rng.uniform(-1, 1, 300).astype(numpy.float32)
out = numpy.zeros(300, numpy.float32)
shared = gpukit.from_dlpack(out)
assert shared.shape == (300,) and shared.dtype == numpy.float32
add((2,), (256,), (gpukit.asarray(a), gpukit.asarray(b), shared, 300))
gpukit.synchronize()
numpy.testing.assert_array_equal(out, a + b)
strided = gpukit.from_dlpack(numpy.arange(20, dtype=numpy.int64)[::-3])
numpy.testing.assert_array_equal(strided.get(), numpy.arange(20)[::-3])
print("shared")
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                            env=dict(os.environ, GPUKIT_SIM_ISOLATION="0"))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "shared\n"


@needs_gpu
def test_gpu_memory_reaches_the_host_only_as_a_copy_and_host_memory_the_gpu_only_as_one():
    array = gpukit.arange(3, dtype=numpy.float32)
    host_capsule = array.__dlpack__(dl_device=(1, 0))
    assert capsule_name(host_capsule) == "dltensor"
    with pytest.raises(BufferError):
        array.__dlpack__(dl_device=(1, 0), copy=False)
    with pytest.raises(BufferError, match="without a copy|gpukit.asarray"):
        gpukit.from_dlpack(numpy.zeros(3))


def test_a_dlpack_only_producer_is_shared_without_a_copy(rng):
    values = random_array(rng, (5, 7), "complex64")
    original = gpukit.asarray(values)
    shared = gpukit.from_dlpack(DLPackOnly(original))
    assert shared.data_ptr == original.data_ptr and shared.strides == original.strides
    original[2] = 0
    values[2] = 0
    numpy.testing.assert_array_equal(shared.get(), values)
    assert not shared.flags.owndata
    assert gpukit.from_dlpack(original) is original


def test_a_dlpack_consumer_keeps_the_array_alive(rng):
    values = random_array(rng, 1000, "float64")
    array = gpukit.asarray(values)
    memory = gpukit._core.MemoryWatch(array)
    consumer = gpukit.from_dlpack(DLPackOnly(array))
    del array
    gc.collect()
    assert memory.alive
    numpy.testing.assert_array_equal(consumer.get(), values)
    del consumer
    gc.collect()
    assert not memory.alive


def test_an_unconsumed_capsule_releases_its_array():
    array = gpukit.zeros(10)
    memory = gpukit._core.MemoryWatch(array)
    capsule = array.__dlpack__(max_version=(1, 0))
    del array
    gc.collect()
    assert memory.alive
    del capsule
    gc.collect()
    assert not memory.alive


def test_cuda_array_interface_only_where_it_is_truthful():
    array = gpukit.arange(12, dtype=numpy.float32).reshape(3, 4)
    if on_simulator():
        assert not hasattr(array, "__cuda_array_interface__")
        return
    interface = array.__cuda_array_interface__
    assert interface["version"] == 3 and interface["shape"] == (3, 4) and interface["typestr"] == "<f4"
    assert interface["data"] == (array.data_ptr, False) and interface["strides"] is None
    assert interface["stream"] == 1  # the legacy default stream
    assert array[:, ::2].__cuda_array_interface__["strides"] == (16, 8)
    stream = gpukit.Stream()
    with stream:
        assert array.__cuda_array_interface__["stream"] == stream.ptr


@needs_simulator
def test_cuda_arrays_are_refused_on_the_simulator_with_a_reason(vector_add):
    class FakeCudaArray:
        __cuda_array_interface__ = {"shape": (4,), "typestr": "<f4", "data": (0x1000, False), "version": 3}

    with pytest.raises(TypeError, match="sim backend cannot read"):
        gpukit.asarray(FakeCudaArray())
    with pytest.raises(TypeError, match="sim backend cannot read"):
        vector_add(1, 32, (FakeCudaArray(), FakeCudaArray(), gpukit.zeros(4, numpy.float32), 4))


# ---- other libraries on a GPU


@needs_gpu
def test_cupy_arrays_go_into_gpukit_kernels_and_back(vector_add, rng):
    cupy = pytest.importorskip("cupy")
    a, b = random_array(rng, 1000, "float32"), random_array(rng, 1000, "float32")
    ca, cb = cupy.asarray(a), cupy.asarray(b)
    c = gpukit.zeros(1000, numpy.float32)
    vector_add(4, 256, (ca, cb, c, 1000))  # CuPy arrays as kernel arguments (CAI)
    as_cupy = cupy.asarray(c)  # gpukit into CuPy (CAI), no copy
    assert as_cupy.data.ptr == c.data_ptr
    numpy.testing.assert_array_equal(cupy.asnumpy(as_cupy), a + b)
    from_cupy = gpukit.asarray(ca)
    assert from_cupy.data_ptr == ca.data.ptr
    via_dlpack = cupy.from_dlpack(c)
    assert via_dlpack.data.ptr == c.data_ptr
    numpy.testing.assert_array_equal(gpukit.from_dlpack(cb).get(), b)


@needs_gpu
def test_torch_tensors_go_into_gpukit_kernels_and_back(vector_add, rng):
    torch = pytest.importorskip("torch")
    a, b = random_array(rng, 1000, "float32"), random_array(rng, 1000, "float32")
    ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
    c = gpukit.zeros(1000, numpy.float32)
    vector_add(4, 256, (ta, tb, c, 1000))
    tc = torch.from_dlpack(c)
    assert tc.data_ptr() == c.data_ptr and tc.is_cuda
    numpy.testing.assert_array_equal(tc.cpu().numpy(), a + b)
    shared = gpukit.asarray(ta)
    assert shared.data_ptr == ta.data_ptr()
    numpy.testing.assert_array_equal(gpukit.from_dlpack(tb).get(), b)


@needs_gpu
def test_numba_kernels_take_gpukit_arrays_and_gpukit_takes_numba_arrays(rng):
    numba_cuda = pytest.importorskip("numba.cuda")
    values = random_array(rng, 1000, "float32")

    @numba_cuda.jit
    def double(x):
        i = numba_cuda.grid(1)
        if i < x.size:
            x[i] *= 2

    array = gpukit.asarray(values)
    double[4, 256](array)
    numba_cuda.synchronize()
    numpy.testing.assert_array_equal(array.get(), 2 * values)
    device_array = numba_cuda.to_device(values)
    shared = gpukit.asarray(device_array)
    assert shared.data_ptr == device_array.__cuda_array_interface__["data"][0]
    numpy.testing.assert_array_equal(shared.get(), values)
