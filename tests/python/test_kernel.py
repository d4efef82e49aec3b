"""gpukit._kernel: the course's programs from Python, compared with NumPy on random inputs."""

import math

import numpy
import pytest

import course
import gpukit
from conftest import ALL_DTYPES, EDGE_SIZES, on_simulator, random_array

# Every dtype through one template kernel: reversing a vector moves each element's bytes exactly,
# so it proves arguments, addresses and element sizes for all of them.
REVERSE_SOURCE = r"""
#include <cuda_fp16.h>
struct complex64 { float re, im; };
struct complex128 { double re, im; };
template <class T>
__global__ void reverse(const T* in, T* out, const int size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size) out[i] = in[size - 1 - i];
}
"""
C_TYPES = {
    "bool": "bool", "int8": "signed char", "int16": "short", "int32": "int", "int64": "long long",
    "uint8": "unsigned char", "uint16": "unsigned short", "uint32": "unsigned int", "uint64": "unsigned long long",
    "float16": "__half", "float32": "float", "float64": "double", "complex64": "complex64", "complex128": "complex128",
}

# Vector add on every numeric type, with the arithmetic done by the kernel.
ADD_SOURCE = r"""
template <class T>
__global__ void add(const T* a, const T* b, T* c, const int size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size) c[i] = a[i] + b[i];
}
"""
ADD_TYPES = {name: C_TYPES[name] for name in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                               "uint64", "float32", "float64")}


@pytest.fixture(scope="module")
def reverse_module():
    return gpukit.RawModule(REVERSE_SOURCE, name_expressions=[f"reverse<{c}>" for c in C_TYPES.values()])


@pytest.fixture(scope="module")
def add_module():
    return gpukit.RawModule(ADD_SOURCE, name_expressions=[f"add<{c}>" for c in ADD_TYPES.values()])


@pytest.fixture(scope="module")
def vector_add():
    return gpukit.RawKernel(course.VECTOR_ADD, "vector_add")


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("size", EDGE_SIZES)
def test_a_template_kernel_moves_every_dtype(reverse_module, dtype, size, rng):
    kernel = reverse_module.get_function(f"reverse<{C_TYPES[dtype]}>")
    values = random_array(rng, size, dtype)
    source, result = gpukit.asarray(values), gpukit.empty(size, dtype)
    kernel((max(1, math.ceil(size / 128)),), (128,), (source, result, size))
    numpy.testing.assert_array_equal(result.get(), values[::-1])


@pytest.mark.parametrize("dtype", list(ADD_TYPES))
@pytest.mark.parametrize("size", [1, 7, 1000])
def test_vector_add_of_every_numeric_type_matches_numpy(add_module, dtype, size, rng):
    kernel = add_module.get_function(f"add<{ADD_TYPES[dtype]}>")
    a, b = random_array(rng, size, dtype), random_array(rng, size, dtype)
    if dtype.startswith("uint"):
        a, b = a // 2, b // 2
    c = gpukit.empty(size, dtype)
    kernel(math.ceil(size / 256), 256, (gpukit.asarray(a), gpukit.asarray(b), c, size))
    numpy.testing.assert_array_equal(c.get(), (a + b).astype(dtype))


@pytest.mark.parametrize("size", [1, 31, 1000, 1000003])
def test_the_course_vector_add_with_the_grid_from_an_arbitrary_size(vector_add, size, rng):
    a, b = rng.uniform(-1, 1, size).astype(numpy.float32), rng.uniform(-1, 1, size).astype(numpy.float32)
    c = gpukit.zeros(size, numpy.float32)
    threads = 256
    vector_add((math.ceil(size / threads), 1, 1), (threads, 1, 1), (gpukit.asarray(a), gpukit.asarray(b), c, size))
    numpy.testing.assert_array_equal(c.get(), a + b)


def test_saxpy_takes_a_python_float_as_float32(rng):
    kernel = gpukit.RawModule(course.SAXPY).get_function("saxpy")
    n = 5000
    x, y = rng.uniform(-1, 1, n).astype(numpy.float32), rng.uniform(-1, 1, n).astype(numpy.float32)
    dy = gpukit.asarray(y)
    kernel(math.ceil(n / 128), 128, (n, 2.5, gpukit.asarray(x), dy))
    # A GPU fuses a * x + y into one rounding: near cancellation that differs from NumPy's two by
    # up to an ulp of a * x, which no relative tolerance on the (small) result covers.
    numpy.testing.assert_allclose(dy.get(), y + numpy.float32(2.5) * x, rtol=1e-6, atol=4e-7)


def test_constant_memory_through_get_global_as_the_notebook_does(rng):
    module = gpukit.RawModule(code=course.SUM_AND_MULTIPLY)
    factors = gpukit.ndarray(2, numpy.float32, module.get_global("factors"))
    chosen = rng.uniform(0.5, 2, 2).astype(numpy.float32)
    factors[...] = chosen
    numpy.testing.assert_array_equal(module.get_global("factors", numpy.float32).get(), chosen)
    size = 2 * 256
    a, b = rng.uniform(-1, 1, size).astype(numpy.float32), rng.uniform(-1, 1, size).astype(numpy.float32)
    c = gpukit.empty(size, numpy.float32)
    module.get_function("sum_and_multiply")((2, 1, 1), (256, 1, 1), (gpukit.asarray(a), gpukit.asarray(b), c, size))
    numpy.testing.assert_allclose(c.get(), (a + b) * numpy.repeat(chosen, 256), rtol=1e-6)
    with pytest.raises(gpukit.InvalidArgumentError, match="no_such_global|not found|No global"):
        module.get_global("no_such_global")


@pytest.mark.parametrize("source,name",
                         [(course.HISTOGRAM, "histogram"), (course.HISTOGRAM_SHARED, "histogram_shared")])
def test_histograms_with_atomics_match_numpy(source, name, rng):
    kernel = gpukit.RawKernel(source, name)
    size = 100_003
    values = rng.integers(0, 256, size).astype(numpy.int32)
    output = gpukit.zeros(256, numpy.int32)
    kernel(math.ceil(size / 256), 256, (gpukit.asarray(values), output, size))
    numpy.testing.assert_array_equal(output.get(), numpy.bincount(values, minlength=256))


@pytest.mark.parametrize("h,w,k", [(1, 1, 1), (33, 17, 45), (64, 64, 64)])
def test_matmul_naive_tiled_and_dynamic_match_numpy(h, w, k, rng):
    module = gpukit.RawModule(course.MATMUL)
    m, n = rng.uniform(-1, 1, (h, k)).astype(numpy.float32), rng.uniform(-1, 1, (k, w)).astype(numpy.float32)
    dm, dn = gpukit.asarray(m), gpukit.asarray(n)
    grid = (math.ceil(w / 16), math.ceil(h / 16))
    for name in ("matmul_naive", "matmul_tiled"):
        out = gpukit.zeros((h, w), numpy.float32)
        module.get_function(name)(grid, (16, 16), (dm, dn, out, h, w, k))
        numpy.testing.assert_allclose(out.get(), m @ n, rtol=1e-4, atol=1e-5)
    out = gpukit.zeros((h, w), numpy.float32)
    module.get_function("matmul_dynamic")(grid, (16, 16), (dm, dn, out, h, w, k, 16),
                                          shared_mem=2 * 16 * 16 * 4)
    numpy.testing.assert_allclose(out.get(), m @ n, rtol=1e-4, atol=1e-5)


def test_options_reach_the_compiler_as_defines():
    source = r"""
extern "C" __global__ void fill(int* out) { out[threadIdx.x] = SCALE * OFFSET + threadIdx.x; }"""
    kernel = gpukit.RawKernel(source, "fill", options=("-DSCALE=3", "--define-macro=OFFSET=5", "-std=c++17"))
    out = gpukit.empty(32, numpy.int32)
    kernel(1, 32, (out,))
    numpy.testing.assert_array_equal(out.get(), 15 + numpy.arange(32))


def test_kernel_metadata_names_the_parameters(vector_add):
    params = vector_add.params
    assert [p.size for p in params] == [8, 8, 8, 4]
    assert params[3].type == "const int" and params[3].name == "size"
    assert vector_add.name == "vector_add"
    assert vector_add.attributes.max_threads_per_block > 0
    grid, block = vector_add.suggest_block_size()
    assert block > 0 and block % 32 == 0
    assert "vector_add" in gpukit.RawModule(course.VECTOR_ADD).kernel_names


def test_dynamic_shared_memory_beyond_48_kib_after_opt_in(rng):
    source = r"""
extern "C" __global__ void stage(const float* in, float* out, int n) {
  extern __shared__ float staged[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) staged[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = staged[n - 1 - i];
}"""
    kernel = gpukit.RawKernel(source, "stage")
    n = 16 * 1024  # 64 KiB of floats
    values = rng.uniform(-1, 1, n).astype(numpy.float32)
    out = gpukit.empty(n, numpy.float32)
    with pytest.raises(gpukit.LaunchConfigError, match="dynamic shared memory"):
        kernel(1, 256, (gpukit.asarray(values), out, n), shared_mem=n * 4)
    kernel.max_dynamic_shared_size_bytes = n * 4
    assert kernel.max_dynamic_shared_size_bytes == n * 4
    kernel(1, 256, (gpukit.asarray(values), out, n), shared_mem=n * 4)
    numpy.testing.assert_array_equal(out.get(), values[::-1])


def test_the_backend_argument_picks_the_simulator_explicitly():
    module = gpukit.RawModule(course.VECTOR_ADD, backend="sim")
    assert module.device.backend == "sim"
    if on_simulator():
        assert module.device == gpukit.get_device()
    with pytest.raises(ValueError, match="nvcc"):
        gpukit.RawModule(course.VECTOR_ADD, backend="nvcc")
