"""gpukit._errors: every bad input of the core gives the right Python exception and message, and the
process keeps working: after each one a vector add still computes the right result."""

import numpy
import pytest

import course
import gpukit

N = 2048


@pytest.fixture(scope="module")
def vector_add():
    return gpukit.RawKernel(course.VECTOR_ADD, "vector_add")


@pytest.fixture
def arrays(rng):
    a, b = rng.uniform(-1, 1, N).astype(numpy.float32), rng.uniform(-1, 1, N).astype(numpy.float32)
    return a, b, gpukit.asarray(a), gpukit.asarray(b), gpukit.zeros(N, numpy.float32)


@pytest.fixture(autouse=True)
def still_works_afterwards(vector_add, arrays):
    yield
    a, b, da, db, dc = arrays
    dc.fill(0)
    vector_add(N // 256, 256, (da, db, dc, N))
    numpy.testing.assert_array_equal(dc.get(), a + b, err_msg="the process is no longer usable")


def test_2048_threads_per_block(vector_add, arrays):
    _, _, da, db, dc = arrays
    with pytest.raises(gpukit.LaunchConfigError) as caught:
        vector_add(1, 2048, (da, db, dc, N))
    assert "Cannot launch vector_add on device 0" in str(caught.value)
    assert "block.x = 2048 exceeds the device's limit of 1024" in str(caught.value)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, gpukit.LaunchError)


def test_a_block_of_1024_by_2(vector_add, arrays):
    _, _, da, db, dc = arrays
    with pytest.raises(gpukit.LaunchConfigError, match=r"block \(1024, 2, 1\) has 2048 threads; the device allows at "
                                                         r"most 1024 threads per block"):
        vector_add(1, (1024, 2, 1), (da, db, dc, N))


def test_grid_y_65536(vector_add, arrays):
    _, _, da, db, dc = arrays
    with pytest.raises(gpukit.LaunchConfigError, match="grid.y = 65536 exceeds the device's limit of 65535"):
        vector_add((1, 65536, 1), 256, (da, db, dc, N))


def test_too_much_dynamic_shared_memory(vector_add, arrays):
    _, _, da, db, dc = arrays
    with pytest.raises(gpukit.LaunchConfigError, match=r"asks for 200.0 KiB \(204800 bytes\) of dynamic shared memory"):
        vector_add(1, 256, (da, db, dc, N), shared_mem=200 * 1024)


def test_the_wrong_argument_count(vector_add, arrays):
    _, _, da, db, dc = arrays
    with pytest.raises(gpukit.KernelArgumentError) as caught:
        vector_add(8, 256, (da, db, dc))
    assert ("vector_add: it takes 4 parameters (const float * A, const float * B, float * C, const int size) "
            "but 3 arguments were given") in str(caught.value)
    assert caught.value.parameter_index is None


def test_eight_bytes_for_a_four_byte_int(vector_add, arrays):
    _, _, da, db, dc = arrays
    with pytest.raises(gpukit.KernelArgumentError,
                       match=r"argument 3 is 8 bytes but parameter 3 \('const int size'\) takes 4 bytes"):
        vector_add(8, 256, (da, db, dc, numpy.int64(N)))


def test_an_int_out_of_range_for_the_parameter(vector_add, arrays):
    _, _, da, db, dc = arrays
    with pytest.raises(gpukit.KernelArgumentError, match=r"argument 3 \(4294967296\) is out of range for parameter 3"):
        vector_add(8, 256, (da, db, dc, 2**32))


def test_an_unknown_kernel_name():
    module = gpukit.RawModule(course.VECTOR_ADD)
    with pytest.raises(gpukit.KernelNotFoundError) as caught:
        module.get_function("vector_ad")
    assert "No kernel named 'vector_ad' in the module; it has: vector_add" in str(caught.value)
    assert caught.value.name == "vector_ad" and caught.value.available == ["vector_add"]
    assert isinstance(caught.value, LookupError)


def test_source_that_fails_to_compile():
    with pytest.raises(gpukit.CompileError) as caught:
        gpukit.RawKernel('extern "C" __global__ void k(float* x) { x[0] = y; }', "k")
    error = caught.value
    assert ("kernel.cu:1:" if gpukit.backend() == "sim" else "kernel.cu(1)") in error.log
    assert "y" in error.log
    assert error.target.startswith(gpukit.get_device().properties.target)
    assert "1 | extern" in error.numbered_source()


def test_allocating_twice_the_device(vector_add):
    too_much = 2 * gpukit.get_device().properties.total_memory
    with pytest.raises(gpukit.OutOfMemoryError) as caught:
        gpukit.empty(too_much, numpy.uint8)
    error = caught.value
    assert isinstance(error, MemoryError) and isinstance(error, gpukit.CudaError)
    assert error.requested_bytes == too_much
    assert error.name == "CUDA_ERROR_OUT_OF_MEMORY" and error.code == 2
    assert "Failed to allocate" in str(error)


def test_a_copy_with_mismatched_sizes(arrays):
    _, _, da, _, dc = arrays
    with pytest.raises(ValueError, match=r"cannot set an array of shape \(2048,\) from one of shape \(10,\)"):
        dc.set(numpy.zeros(10, numpy.float32))
    with pytest.raises(ValueError, match="shape"):
        dc.get(out=numpy.zeros(10, numpy.float32))
    with pytest.raises(ValueError, match="broadcast"):
        dc[:10] = da[:20]


def test_a_launch_on_another_device_s_stream_or_a_wrong_stream_type(vector_add, arrays):
    _, _, da, db, dc = arrays
    with pytest.raises(TypeError, match="gpukit.Stream"):
        vector_add(8, 256, (da, db, dc, N), stream="default")


def test_an_unknown_check_tool():
    with pytest.raises(gpukit.InvalidArgumentError, match="Unknown check tool 'memchek'"):
        gpukit.RawModule(course.VECTOR_ADD, check="memchek")
