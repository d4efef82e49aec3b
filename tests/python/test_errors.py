"""gpukit._errors: every bad input of the core gives the right Python exception and message, and the
process keeps working: after each one a vector add still computes the right result."""

import re

import numpy
import pytest

import course
import gpukit
from conftest import REPOSITORY

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


# ---- bad arguments, as a new user writes them: each gives a gpukit message in Python's words (the
# parameter, what was given, what is accepted) with the exception Python uses, never nanobind's
# "incompatible function arguments" list.

SCALE = r"""
extern "C" __global__ void scale(float* x, const float factor, const int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= factor;
}
__device__ float table[4];
"""


@pytest.fixture(scope="module")
def scale_module():
    return gpukit.RawModule(SCALE)


def _matrix():
    return gpukit.asarray(numpy.arange(1, 25, dtype=numpy.float32).reshape(4, 6))


def _launch(scale_module, grid=1, block=8, args=..., **options):
    x = gpukit.ones(8, numpy.float32)
    scale_module.get_function("scale")(grid, block, (x, 2.0, 8) if args is ... else args, **options)


BAD_CALLS = [
    # creation: shapes and dtypes
    ("empty(None)", lambda m: gpukit.empty(None), TypeError, "shape must be an int or a tuple of ints, not None"),
    ("empty(2.5)", lambda m: gpukit.empty(2.5), TypeError, r"shape must be .*, not a float \(2\.5\)"),
    ("empty(True)", lambda m: gpukit.empty(True), TypeError, r"not a bool \(True\)"),
    ("empty('3')", lambda m: gpukit.empty("3"), TypeError, r"not a str \('3'\)"),
    ("ones((3, None))", lambda m: gpukit.ones((3, None)), TypeError, r"shape\[1\] must be an int, not None"),
    ("zeros((2.0, 3))", lambda m: gpukit.zeros((2.0, 3)), TypeError, r"shape\[0\] must be an int, not a float"),
    ("empty(-1)", lambda m: gpukit.empty(-1), ValueError, r"negative dimensions are not allowed: \(-1,\)"),
    ("empty((2, -3))", lambda m: gpukit.empty((2, -3)), ValueError, r"negative dimensions .*\(2, -3\)"),
    ("empty(2**63)", lambda m: gpukit.empty(2**63), OverflowError,
     "shape = 9223372036854775808 is too large: it must be at most 9223372036854775807"),
    ("empty(2**64)", lambda m: gpukit.empty(2**64), OverflowError, "shape = 18446744073709551616 is too large"),
    ("empty((2**62, 4))", lambda m: gpukit.empty((2**62, 4)), ValueError, "array is too big"),
    ("empty(3, 'float128')", lambda m: gpukit.empty(3, "float128"), ValueError,
     "gpukit arrays do not hold float128; they hold bool, int8"),
    ("empty(3, object)", lambda m: gpukit.empty(3, object), ValueError, "do not hold object"),
    # UnsupportedDTypeError is a TypeError too (as Dask's arg-reductions expect of a structured empty_like)
    ("empty_like(a, structured)", lambda m: gpukit.empty_like(_matrix(), dtype=[("v", "f4"), ("i", "i8")]),
     TypeError, r"do not hold \[\('v'"),
    ("zeros(2, 'M8[s]')", lambda m: gpukit.zeros(2, "M8[s]"), gpukit.UnsupportedDTypeError, "do not hold datetime64"),
    ("empty(3, 'foo')", lambda m: gpukit.empty(3, "foo"), TypeError,
     r"dtype must be a numpy.dtype, a type or a name such as 'float32', not a str \('foo'\)"),
    ("full(3, 'a')", lambda m: gpukit.full(3, "a"), TypeError, r"fill_value must be a number .*not a str \('a'\)"),
    ("full(3, None)", lambda m: gpukit.full(3, None), TypeError, "fill_value must be a number .*not None"),
    ("full(3, 2**70, int64)", lambda m: gpukit.full(3, 2**70, numpy.int64), gpukit.ScalarOverflowError,
     "Python integer 1180591620717411303424 out of bounds for int64"),
    ("zeros_like(None)", lambda m: gpukit.zeros_like(None), TypeError, "a must be an array .*not None"),
    ("arange(0, 10, 0)", lambda m: gpukit.arange(0, 10, 0), ZeroDivisionError, "arange: step must not be zero"),
    ("arange(None)", lambda m: gpukit.arange(None), TypeError, "arange: start must be a real number .*not None"),
    ("arange(0, 'a')", lambda m: gpukit.arange(0, "a"), TypeError, r"arange: stop must be .*not a str \('a'\)"),
    ("arange(0, 2**64)", lambda m: gpukit.arange(0, 2**64), ValueError, "more elements than an array can hold"),
    ("asarray(None)", lambda m: gpukit.asarray(None), TypeError, "a must be an array, a .*not None"),
    ("asarray(['a'])", lambda m: gpukit.asarray(["a"]), TypeError, r"not a list \(\['a'\]\)"),
    ("asarray(object())", lambda m: gpukit.asarray(object()), TypeError, "not an object"),
    ("array([1], float128)", lambda m: gpukit.array([1], dtype="float128"), ValueError, "do not hold float128"),
    ("from_dlpack(5)", lambda m: gpukit.from_dlpack(5), TypeError,
     r"x must be a DLPack producer, an object with __dlpack__ and __dlpack_device__ .*not an int \(5\)"),
    ("from_dlpack(None)", lambda m: gpukit.from_dlpack(None), TypeError, "x must be a DLPack producer.*not None"),
    ("pinned_empty(-1)", lambda m: gpukit.pinned_empty(-1), ValueError, "negative dimensions are not allowed"),
    ("pinned_empty(None)", lambda m: gpukit.pinned_empty(None), TypeError, "shape must be an int or a tuple"),
    ("pinned_empty(2**64)", lambda m: gpukit.pinned_empty(2**64), OverflowError, "is too large"),
    ("pinned_empty(3, 'float128')", lambda m: gpukit.pinned_empty(3, "float128"), ValueError, "do not hold"),
    ("ndarray(3, memptr=5)", lambda m: gpukit.ndarray(3, memptr=5), TypeError,
     r"memptr must be a gpukit.ndarray .*not an int \(5\)"),
    # ndarray methods
    ("a.reshape(None)", lambda m: _matrix().reshape(None), TypeError, "shape must be an int or a tuple of ints"),
    ("a.reshape(2.5)", lambda m: _matrix().reshape(2.5), TypeError, r"not a float \(2\.5\)"),
    ("a.reshape(2**64)", lambda m: _matrix().reshape(2**64), OverflowError, r"shape\[0\] = 18446744073709551616"),
    ("a.reshape(7)", lambda m: _matrix().reshape(7), ValueError, r"cannot reshape an array of size 24 into shape"),
    ("a.transpose((0, 5))", lambda m: _matrix().transpose((0, 5)), ValueError,
     r"axes \(0, 5\): axis 5 is out of bounds for an array of 2 dimensions \(axes are -2 to 1\)"),
    ("a.transpose(-3, 0)", lambda m: _matrix().transpose(-3, 0), ValueError, "axis -3 is out of bounds"),
    ("a.transpose(0, 0)", lambda m: _matrix().transpose(0, 0), ValueError, "axis 0 is repeated"),
    ("a.transpose(0)", lambda m: _matrix().transpose(0), ValueError, "give one axis for each of the array's 2"),
    ("a.transpose(1.0, 0)", lambda m: _matrix().transpose(1.0, 0), TypeError, r"axes\[0\] must be an int"),
    ("a[2**64]", lambda m: _matrix()[2**64], IndexError, "index 18446744073709551616 is out of bounds"),
    ("a[1.5]", lambda m: _matrix()[1.5], IndexError, r"valid indices \(not float\)"),
    ("a.astype('float128')", lambda m: _matrix().astype("float128"), ValueError, "do not hold float128"),
    ("a.astype(float32, copy='x')", lambda m: _matrix().astype(numpy.float32, copy="x"), TypeError,
     r"copy must be True or False, not a str \('x'\)"),
    ("a.fill(None)", lambda m: _matrix().fill(None), TypeError, "value must be a number .*not None"),
    ("a.fill('x')", lambda m: _matrix().fill("x"), TypeError, r"not a str \('x'\)"),
    ("int32 a.fill(2**70)", lambda m: gpukit.zeros(3, numpy.int32).fill(2**70), gpukit.ScalarOverflowError,
     "out of bounds for int32"),
    ("a.get(out=5)", lambda m: _matrix().get(out=5), TypeError,
     r"out must be a NumPy array of shape \(4, 6\) and dtype float32 \(or None\), not an int \(5\)"),
    ("a.get(out=wrong shape)", lambda m: _matrix().get(out=numpy.zeros(3, numpy.float32)), ValueError,
     r"out must be a NumPy array of shape \(4, 6\) and dtype float32, not one of shape \(3,\)"),
    ("a.get(stream=5)", lambda m: _matrix().get(stream=5), TypeError,
     r"stream must be a gpukit.Stream or None \(the current stream\), not an int \(5\)"),
    ("a.set(None)", lambda m: _matrix().set(None), TypeError, "arr must be numbers.*not None"),
    ("a.set('x')", lambda m: _matrix().set("x"), TypeError, r"arr must be numbers.*not a str \('x'\)"),
    ("a[...] = None", lambda m: _matrix().__setitem__(Ellipsis, None), TypeError, "value must be numbers"),
    ("a[...] = 'x'", lambda m: _matrix().__setitem__(Ellipsis, "x"), TypeError, "value must be numbers"),
    ("a.__dlpack__(stream='x')", lambda m: _matrix().__dlpack__(stream="x"), TypeError,
     "stream must be an int .* or None"),
    ("a.__dlpack__(max_version=5)", lambda m: _matrix().__dlpack__(max_version=5), TypeError,
     r"max_version must be a \(major, minor\) version tuple"),
    ("a.__dlpack__(dl_device=(1, 2**64))", lambda m: _matrix().__dlpack__(dl_device=(1, 2**64)), OverflowError,
     r"dl_device\[1\] = 18446744073709551616 is too large"),
    # modules and kernels
    ("RawModule(None)", lambda m: gpukit.RawModule(None), TypeError, "code must be a str of CUDA C source, not None"),
    ("RawModule(src, options=5)", lambda m: gpukit.RawModule(SCALE, options=5), TypeError,
     r"options must be a str or a sequence of str, not an int \(5\)"),
    ("RawModule(src, options=[5])", lambda m: gpukit.RawModule(SCALE, options=[5]), TypeError,
     r"options\[0\] is an int \(5\)"),
    ("RawModule(src, check=5)", lambda m: gpukit.RawModule(SCALE, check=5), TypeError, "check must be a str"),
    ("RawModule(src, device=5)", lambda m: gpukit.RawModule(SCALE, device=5), TypeError,
     r"device must be a gpukit.Device .*not an int \(5\)"),
    ("RawModule(src, backend=5)", lambda m: gpukit.RawModule(SCALE, backend=5), TypeError, "backend must be"),
    ("RawModule(src, program_name=None)", lambda m: gpukit.RawModule(SCALE, program_name=None), TypeError,
     "program_name must be a str"),
    ("RawKernel(src, None)", lambda m: gpukit.RawKernel(SCALE, None), TypeError, "name must be a str"),
    ("get_function(5)", lambda m: m.get_function(5), TypeError, r"name must be a str .*not an int \(5\)"),
    ("get_global(None)", lambda m: m.get_global(None), TypeError, "name must be a str, not None"),
    ("get_global('table', shape=-1)", lambda m: m.get_global("table", numpy.float32, shape=-1), ValueError,
     "negative dimensions"),
    ("launch grid=None", lambda m: _launch(m, grid=None), TypeError,
     "grid must be an int or a tuple of 1 to 3 ints, not None"),
    ("launch block=(8, None)", lambda m: _launch(m, block=(8, None)), TypeError,
     "block dimensions must be ints, not None"),
    ("launch grid=2**64", lambda m: _launch(m, grid=2**64), ValueError, "grid dimension 18446744073709551616"),
    ("launch shared_mem=-1", lambda m: _launch(m, shared_mem=-1), ValueError, "shared_mem must be at least 0"),
    ("launch shared_mem=2**64", lambda m: _launch(m, shared_mem=2**64), OverflowError, "shared_mem = 1844"),
    ("launch shared_mem=None", lambda m: _launch(m, shared_mem=None), TypeError, "shared_mem must be an int"),
    ("launch check=5", lambda m: _launch(m, check=5), TypeError, "check must be a str"),
    ("launch args=None", lambda m: _launch(m, args=None), TypeError, "not None"),
    ("launch n=None", lambda m: _launch(m, args=(gpukit.ones(8, numpy.float32), 2.0, None)), TypeError,
     r"argument 2 is None, which is not a kernel argument: parameter 2 \('const int n'\) takes a number"),
    ("max_dynamic_shared_size_bytes = -1", lambda m: setattr(m.get_function("scale"), "max_dynamic_shared_size_bytes",
                                                             -1), ValueError,
     "max_dynamic_shared_size_bytes must be at least 0, not -1"),
    ("max_dynamic_shared_size_bytes = None", lambda m: setattr(m.get_function("scale"),
                                                               "max_dynamic_shared_size_bytes", None), TypeError,
     "max_dynamic_shared_size_bytes must be an int, not None"),
    ("suggest_block_size(-1)", lambda m: m.get_function("scale").suggest_block_size(-1), ValueError,
     "shared_mem must be at least 0"),
    ("suggest_block_size(0, 2**40)", lambda m: m.get_function("scale").suggest_block_size(0, 2**40), OverflowError,
     "block_size_limit = 1099511627776 is too large: it must be at most 4294967295"),
    # streams, events, devices, backends, check mode, benchmarks
    ("Stream(non_blocking='x')", lambda m: gpukit.Stream(non_blocking="x"), TypeError,
     r"non_blocking must be True or False, not a str \('x'\)"),
    ("Stream(device=5)", lambda m: gpukit.Stream(device=5), ValueError, r"There is no \w+ device 5; there (is|are)"),
    ("Stream(device='1')", lambda m: gpukit.Stream(device="1"), TypeError, "device must be a gpukit.Device"),
    ("Stream().wait_event(None)", lambda m: gpukit.Stream().wait_event(None), TypeError,
     "event must be a gpukit.Event, not None"),
    ("Stream().record(5)", lambda m: gpukit.Stream().record(5), TypeError, "event must be a gpukit.Event or None"),
    ("Event(timing='x')", lambda m: gpukit.Event(timing="x"), TypeError, "timing must be True or False"),
    ("Event().record(5)", lambda m: gpukit.Event().record(5), TypeError, "stream must be a gpukit.Stream or None"),
    ("Event().elapsed_time(None)", lambda m: gpukit.Event().elapsed_time(None), TypeError,
     "end must be a gpukit.Event, not None"),
    ("get_elapsed_time(None, None)", lambda m: gpukit.get_elapsed_time(None, None), TypeError,
     "start_event must be a gpukit.Event"),
    ("Device('x')", lambda m: gpukit.Device("x"), TypeError, r"id must be an int, not a str \('x'\)"),
    ("Device(True)", lambda m: gpukit.Device(True), TypeError, r"id must be an int, not a bool \(True\)"),
    ("Device(2**64)", lambda m: gpukit.Device(2**64), OverflowError, "id = 18446744073709551616 is too large"),
    ("Device(100)", lambda m: gpukit.Device(100), ValueError, "There is no .* device 100"),
    ("use_backend(None)", lambda m: gpukit.use_backend(None), TypeError, "name must be a str, not None"),
    ("use_backend('bogus')", lambda m: gpukit.use_backend("bogus"), ValueError, "Unknown backend 'bogus'"),
    ("set_raise_on_hazard('x')", lambda m: gpukit.set_raise_on_hazard("x"), TypeError,
     "raise_on_hazard must be True or False"),
    ("benchmark(None)", lambda m: gpukit.benchmark(None), TypeError, "func must be callable, not None"),
    ("benchmark(f, n_repeat=-1)", lambda m: gpukit.benchmark(print, n_repeat=-1), ValueError,
     "n_repeat must be at least 0, not -1"),
    ("benchmark(f, n_repeat=1.5)", lambda m: gpukit.benchmark(print, n_repeat=1.5), TypeError,
     r"n_repeat must be an int, not a float \(1\.5\)"),
    ("benchmark(f, devices=5)", lambda m: gpukit.benchmark(print, devices=5), TypeError,
     "devices must be a sequence of gpukit.Device"),
    ("benchmark(f, args=5)", lambda m: gpukit.benchmark(print, args=5), TypeError, "args must be a tuple"),
]


@pytest.mark.parametrize("call,error,message", [row[1:] for row in BAD_CALLS], ids=[row[0] for row in BAD_CALLS])
def test_a_bad_argument_is_refused_in_python_s_words(scale_module, call, error, message):
    with pytest.raises(error, match=message) as caught:
        call(scale_module)
    assert "incompatible function arguments" not in str(caught.value)
    assert isinstance(caught.value, gpukit.GpukitError) or type(caught.value) in (
        TypeError, ValueError, OverflowError, IndexError, ZeroDivisionError)  # arange's step 0: NumPy's error


def test_values_python_accepts_are_still_accepted(scale_module, rng):
    values = rng.uniform(-1, 1, (4, 6)).astype(numpy.float32)
    matrix = gpukit.asarray(values)
    numpy.testing.assert_array_equal(matrix.transpose(None).get(), values.T)
    numpy.testing.assert_array_equal(matrix.transpose(-1, -2).get(), values.T)
    numpy.testing.assert_array_equal(matrix.reshape(numpy.int64(6), 4).get(), values.reshape(6, 4))
    numpy.testing.assert_array_equal(matrix[0:2**70].get(), values)  # slice bounds clamp, as in Python
    assert gpukit.empty((numpy.int32(2), 3)).shape == (2, 3)
    assert gpukit.Stream(non_blocking=numpy.bool_(True)) is not None
    assert gpukit.arange(numpy.int64(3)).get().tolist() == [0, 1, 2]
    x = gpukit.asarray(values.ravel()[:8].copy())
    scale_module.get_function("scale")(1, 8, (x, 2.0, 8), shared_mem=numpy.uint16(0), check=False)
    numpy.testing.assert_allclose(x.get(), 2 * values.ravel()[:8])


def test_python_spellings_replace_the_cxx_apis_a_message_names():
    assert gpukit._core.python_spelling("Opt in first with Kernel::set_max_dynamic_shared_bytes(65536); then") == \
        "Opt in first with kernel.max_dynamic_shared_size_bytes = 65536; then"
    assert gpukit._core.python_spelling("Event::elapsed_ms: both events need EventFlags::timing") == \
        "Event.elapsed_time: both events need timing=True (the default)"
    assert gpukit._core.python_spelling("plain words") == "plain words"


# C++ APIs that messages may name because those messages come only from C++-only calls: no Python
# call reaches them (copies between buffers, loading a module from a file, moved-from objects,
# which Python never makes).
CXX_ONLY_APIS = {"BufferView::subview", "Module::load_file", "gpukit::Buffer", "gpukit::BufferView",
                 "gpukit::DeviceBuffer", "gpukit::ManagedBuffer", "gpukit::PinnedBuffer", "gpukit::Event",
                 "gpukit::Stream"}


def test_every_cxx_api_a_core_message_names_has_a_python_spelling():
    named = set()
    for path in (REPOSITORY / "src").rglob("*.cpp"):
        code = "\n".join(line for line in path.read_text().splitlines() if not line.lstrip().startswith("//"))
        for literal in re.findall(r'"((?:[^"\\\n]|\\.)*)"', code):
            named.update(re.findall(r"\b(?:gpukit::\w+|[A-Z]\w*::\w+)(?:\([^)]*\))?", literal))
    named -= CXX_ONLY_APIS
    assert "Kernel::set_max_dynamic_shared_bytes" in named, "the scan no longer finds C++ APIs: the pattern is broken"
    for api in sorted(named):
        spelled = gpukit._core.python_spelling(f"use {api} here")
        assert "::" not in spelled, f"{api} has no Python spelling in python/src/errors.cpp"


def test_a_message_from_the_core_arrives_in_python_s_words(scale_module):
    kernel = scale_module.get_function("scale")
    x = gpukit.ones(8, numpy.float32)
    too_much = gpukit.get_device().properties.limits.shared_memory_per_block + 1024
    with pytest.raises(gpukit.LaunchConfigError) as caught:
        kernel(1, 8, (x, 2.0, 8), shared_mem=too_much)
    assert "Kernel::" not in str(caught.value)
    assert f"kernel.max_dynamic_shared_size_bytes = {too_much}" in str(caught.value)
    start, end = gpukit.Event(timing=False), gpukit.Event(timing=False)
    start.record()
    end.record()
    end.synchronize()
    with pytest.raises(gpukit.InvalidArgumentError, match=r"^Event.elapsed_time: both events need timing=True"):
        start.elapsed_time(end)
