"""gpukit.jit: Python kernels in Numba-CUDA's language, translated to CUDA C, against NumPy.

Each kernel runs on the backend the suite runs on (the simulator in CI, the GPU in gpu-check), on
random inputs at sizes that are not a multiple of the block.
"""

import math

import numpy
import pytest

import gpukit
from gpukit import cuda

RNG = numpy.random.default_rng(15)


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "int64", "uint64", "float32", "float64"])
@pytest.mark.parametrize("n", [0, 1, 31, 1025])
def test_saxpy_every_dtype_and_size(dtype, n):
    x = (RNG.random(n) * 50).astype(dtype)
    y = (RNG.random(n) * 50).astype(dtype)
    a = numpy.dtype(dtype).type(3)
    out = gpukit.empty(n, dtype)
    saxpy[max(1, (n + 127) // 128), 128](a, gpukit.asarray(x), gpukit.asarray(y), out)
    # A GPU fuses a * x + y into one rounding (NVRTC's default, as nvcc's): floats agree to an ulp.
    numpy.testing.assert_allclose(out.get(), a * x + y, rtol=2e-7 if dtype == "float32" else 1e-15)


TILE = 16


@cuda.jit
def matmul_tiled(A, B, C):
    """The course's shared-memory matrix multiplication (Numba's documentation has the same)."""
    sA = cuda.shared.array(shape=(TILE, TILE), dtype=numpy.float32)
    sB = cuda.shared.array(shape=(TILE, TILE), dtype=numpy.float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tmp = 0.0
    for i in range(cuda.gridDim.x):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and tx + i * TILE < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TILE]
        if x < B.shape[1] and ty + i * TILE < B.shape[0]:
            sB[ty, tx] = B[ty + i * TILE, x]
        cuda.syncthreads()
        for j in range(TILE):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


@pytest.mark.parametrize("n", [1, 33, 70])
def test_tiled_matmul_with_shared_memory_and_barriers(n):
    a = RNG.random((n, n), dtype=numpy.float32)
    b = RNG.random((n, n), dtype=numpy.float32)
    c = gpukit.zeros((n, n), numpy.float32)
    blocks = (n + TILE - 1) // TILE
    matmul_tiled[(blocks, blocks), (TILE, TILE)](gpukit.asarray(a), gpukit.asarray(b), c)
    numpy.testing.assert_allclose(c.get(), a @ b, rtol=1e-5)


def test_host_arrays_are_copied_in_and_back_as_numba_does():
    x = RNG.random(100)
    y = RNG.random(100)
    out = numpy.zeros(100)
    saxpy[1, 128](2.0, x, y, out)
    numpy.testing.assert_allclose(out, 2.0 * x + y, rtol=1e-15)


@cuda.jit
def transpose_add(a, b, out):
    i, j = cuda.grid(2)
    rows, columns = out.shape
    if i < rows and j < columns:
        out[i, j] = a[i, j] + b[i, j]


def test_strided_views_are_indexed_by_their_strides():
    a = RNG.random((37, 45)).astype(numpy.float32)
    b = RNG.random((45, 37)).astype(numpy.float32)
    out = gpukit.empty((37, 45), numpy.float32)
    transpose_add[(3, 3), (16, 16)](gpukit.asarray(a), gpukit.asarray(b).T, out)
    numpy.testing.assert_array_equal(out.get(), a + b.T)
    sliced = gpukit.asarray(RNG.random((37, 90)).astype(numpy.float32))
    transpose_add[(3, 3), (16, 16)](gpukit.asarray(a), sliced[:, ::2], out)
    numpy.testing.assert_array_equal(out.get(), a + sliced.get()[:, ::2])


@cuda.jit
def python_arithmetic(a, b, quotient, remainder, true_quotient, power):
    i = cuda.grid(1)
    if i < a.size:
        quotient[i] = a[i] // b[i]
        remainder[i] = a[i] % b[i]
        true_quotient[i] = a[i] / b[i]
        power[i] = a[i] ** 3


def test_floor_division_modulo_and_powers_are_pythons():
    a = RNG.integers(-100, 100, 257).astype(numpy.int64)
    b = RNG.integers(1, 9, 257).astype(numpy.int64) * RNG.choice([-1, 1], 257)
    outputs = [gpukit.empty(257, numpy.int64), gpukit.empty(257, numpy.int64), gpukit.empty(257, numpy.float64),
               gpukit.empty(257, numpy.int64)]
    python_arithmetic[3, 128](gpukit.asarray(a), gpukit.asarray(b), *outputs)
    numpy.testing.assert_array_equal(outputs[0].get(), a // b)
    numpy.testing.assert_array_equal(outputs[1].get(), a % b)
    numpy.testing.assert_array_equal(outputs[2].get(), a / b)
    numpy.testing.assert_array_equal(outputs[3].get(), a**3)


@cuda.jit
def float_modulo(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] % b[i] + a[i] // b[i]


def test_float_modulo_takes_the_divisors_sign():
    a = (RNG.random(100) - 0.5) * 20
    b = (RNG.random(100) + 0.5) * RNG.choice([-1, 1], 100)
    out = gpukit.empty(100, numpy.float64)
    float_modulo[1, 128](gpukit.asarray(a), gpukit.asarray(b), out)
    numpy.testing.assert_allclose(out.get(), a % b + a // b, rtol=1e-12)


@cuda.jit
def control_flow(values, out):
    i = cuda.grid(1)
    if i >= values.size:
        return
    v = values[i]
    steps = 0
    while v != 1:  # Collatz: while, break, continue, if/elif/else
        if steps > 1000:
            break
        steps += 1
        if v % 2 == 0:
            v //= 2
            continue
        elif v % 3 == 0:
            v = 3 * v + 1
        else:
            v = 3 * v + 1
    out[i] = steps if v == 1 else -1


def collatz_steps(v):
    steps = 0
    while v != 1:
        if steps > 1000:
            break
        steps += 1
        v = v // 2 if v % 2 == 0 else 3 * v + 1
    return steps if v == 1 else -1


def test_loops_branches_break_and_continue():
    values = RNG.integers(1, 10_000, 300).astype(numpy.int64)
    out = gpukit.empty(300, numpy.int64)
    control_flow[3, 128](gpukit.asarray(values), out)
    numpy.testing.assert_array_equal(out.get(), [collatz_steps(int(v)) for v in values])


@cuda.jit
def math_functions(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i, 0] = math.sqrt(v)
        out[i, 1] = math.exp(-v) + math.log(v)
        out[i, 2] = math.sin(v) * math.cos(v) + math.atan2(v, 2.0)
        out[i, 3] = math.floor(v * 10) + math.ceil(v)
        out[i, 4] = max(v, 0.5) + min(v, 0.25, 1.0) + abs(-v)
        out[i, 5] = numpy.tanh(v) + math.pow(v, 1.5) + math.pi
        out[i, 6] = 1.0 if math.isnan(v) or math.isinf(v) else 0.0


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_math_functions_keep_the_float_width(dtype):
    x = (RNG.random(200) + 0.01).astype(dtype)
    out = gpukit.empty((200, 7), dtype)
    math_functions[2, 128](gpukit.asarray(x), out)
    want = numpy.stack([
        numpy.sqrt(x), numpy.exp(-x) + numpy.log(x), numpy.sin(x) * numpy.cos(x) + numpy.arctan2(x, 2),
        numpy.floor(x * 10) + numpy.ceil(x), numpy.maximum(x, 0.5) + numpy.minimum(x, 0.25) + x,
        numpy.tanh(x) + x**1.5 + numpy.pi, numpy.zeros_like(x)], axis=1)
    # exp(-v) + log(v) cancels near v = 0.567: an absolute bound there, in the float's ulps of 1.
    numpy.testing.assert_allclose(out.get(), want, rtol=1e-5 if dtype == "float32" else 1e-12,
                                  atol=1e-6 if dtype == "float32" else 1e-14)


@cuda.jit
def scale_by_a_python_float(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * 0.1 + 1


def test_python_numbers_are_weak_as_in_numpy_2():
    """float32 * 0.1 is float32 arithmetic (NumPy 2), not float64 (Numba): the kernel has no double."""
    x = RNG.random(100, dtype=numpy.float32)
    out = gpukit.empty(100, numpy.float32)
    scale_by_a_python_float[1, 128](gpukit.asarray(x), out)
    numpy.testing.assert_allclose(out.get(), x * numpy.float32(0.1) + numpy.float32(1), rtol=2e-7)
    assert "double" not in scale_by_a_python_float.inspect_source(gpukit.asarray(x), out).split("gk_jit_")[1]


@cuda.jit
def histogram(values, bins):
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    for k in range(i, values.size, stride):
        cuda.atomic.add(bins, values[k], 1)


@pytest.mark.parametrize("dtype", ["int32", "uint32", "int64", "uint64", "float32", "float64"])
def test_atomic_add_histogram_in_a_grid_stride_loop(dtype):
    values = RNG.integers(0, 37, 5000)
    bins = gpukit.zeros(37, dtype)
    histogram[4, 64](gpukit.asarray(values), bins)
    numpy.testing.assert_array_equal(bins.get(), numpy.bincount(values, minlength=37).astype(dtype))


@cuda.jit
def block_sums(values, out):
    partial = cuda.shared.array(128, numpy.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    partial[t] = values[i] if i < values.size else 0.0
    cuda.syncthreads()
    step = cuda.blockDim.x // 2
    while step > 0:
        if t < step:
            partial[t] += partial[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        out[cuda.blockIdx.x] = partial[0]


def test_the_course_tree_reduction():
    values = RNG.random(1000)
    out = gpukit.empty(8, numpy.float64)
    block_sums[8, 128](gpukit.asarray(values), out)
    numpy.testing.assert_allclose(out.get(), numpy.add.reduceat(values, numpy.arange(0, 1000, 128)))


@cuda.jit
def tuples_and_negative_indices(x, shape, out):
    rows, columns = shape
    a, b = 1, 2
    a, b = b, a
    i = cuda.grid(1)
    before = i - 3  # may be negative: indexing with it wraps
    if i < 5:
        out[i] = x[before] * 100
    if i == 0:
        out[5] = x[-1] + x[-2] * a + b
        out[6] = rows * columns + x.ndim
        k = 7
        for step in range(-1, -3, -1):  # a loop variable that goes below zero
            out[k] = x[step]
            k += 1


def test_tuples_swap_and_negative_indices_wrap():
    x = numpy.arange(10, dtype=numpy.int64)
    out = gpukit.zeros(9, numpy.int64)
    tuples_and_negative_indices[1, 32](gpukit.asarray(x), (3, 4), out)
    numpy.testing.assert_array_equal(out.get(), [700, 800, 900, 0, 100, 9 + 8 * 2 + 1, 13, 9, 8])


def test_indices_known_to_be_at_least_zero_skip_the_wrap():
    """cuda.grid, threadIdx, shapes and loops from 0 up are never negative: no wrap-around in the C."""
    a = gpukit.zeros((4, 4), numpy.float32)
    kernel = matmul_tiled.inspect_source(a, a, a).split("gk_jit_matmul_tiled")[1]
    assert "gk_py_wrap(" not in kernel
    assert "double" not in kernel  # tmp = 0.0, then tmp += float32 products: float32, as in NumPy 2


def test_forall_covers_every_task():
    x = RNG.random(1000)
    out = gpukit.zeros(1000)
    saxpy.forall(1000)(1.5, gpukit.asarray(x), gpukit.asarray(x), out)
    numpy.testing.assert_allclose(out.get(), 1.5 * x + x, rtol=1e-15)


def test_a_kernel_in_a_file_whose_name_needs_escaping(tmp_path):
    """The file name reaches the C source only inside #line's string, percent-encoded: ptxas reads
    the name NVRTC copies into the PTX without C's escapes (quotes, backslashes, non-ASCII)."""
    import importlib.util

    path = tmp_path / 'odd "name" \u00e9\\.py'
    path.write_text("from gpukit import cuda\n\n@cuda.jit\ndef fill(out):\n    out[cuda.grid(1)] = 7\n")
    spec = importlib.util.spec_from_file_location("odd_kernel_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = gpukit.zeros(32, numpy.int32)
    module.fill[1, 32](out)
    numpy.testing.assert_array_equal(out.get(), 7)
    assert 'odd %22name%22 %C3%A9%5C.py"' in module.fill.inspect_source(out)


@cuda.jit
def dynamic_shared_local_and_atomics(values, out, counts):
    staged = cuda.shared.array(0, numpy.float32)  # dynamic: its bytes come with the launch
    scratch = cuda.local.array(4, numpy.int32)
    t = cuda.threadIdx.x
    staged[t] = values[t]
    for k in range(4):
        scratch[k] = t * k
    cuda.syncwarp()
    above = cuda.syncthreads_count(values[t] > 0.5)
    out[t] = staged[(t + 1) % cuda.blockDim.x] + scratch[3]
    if t == 0:
        counts[0] = above
    cuda.atomic.max(counts, 1, t)
    cuda.atomic.min(counts, 2, t)
    cuda.atomic.exch(counts, 3, 5)
    cuda.atomic.cas(counts, 4, 0, t + 1)  # one thread wins


def test_dynamic_shared_memory_local_arrays_counting_barrier_and_atomics():
    values = RNG.random(64, dtype=numpy.float32)
    out = gpukit.empty(64, numpy.float32)
    counts = gpukit.asarray(numpy.array([0, -1, 1000, 0, 0], numpy.int32))
    dynamic_shared_local_and_atomics[1, 64, 0, 64 * 4](gpukit.asarray(values), out, counts)
    numpy.testing.assert_array_equal(out.get(), (numpy.roll(values, -1) + 3 * numpy.arange(64)).astype(numpy.float32))
    got = counts.get()
    assert list(got[:4]) == [int((values > 0.5).sum()), 63, 0, 5] and 1 <= got[4] <= 64


@cuda.jit
def warp_sums_and_votes(values, sums, votes):
    i = cuda.grid(1)
    v = values[i]
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(0xFFFFFFFF, v, offset)
        offset //= 2
    positive = values[i] > 0
    ballot = cuda.ballot_sync(0xFFFFFFFF, positive)  # votes: every lane of the mask takes part
    every = cuda.all_sync(0xFFFFFFFF, positive)
    some = cuda.any_sync(0xFFFFFFFF, positive)
    if cuda.laneid == 0:
        warp = i // cuda.warpsize
        sums[warp] = v
        votes[warp, 0] = cuda.popc(ballot)
        votes[warp, 1] = 1 if every else 0
        votes[warp, 2] = 1 if some else 0
        votes[warp, 3] = cuda.ffs(ballot)


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
def test_warp_shuffles_and_votes(dtype):
    values = (RNG.integers(-50, 50, 128)).astype(dtype)
    values[32:64] = numpy.abs(values[32:64]) + 1  # a warp of positives only
    values[64:96] = -numpy.abs(values[64:96]) - 1  # and one of negatives only
    sums = gpukit.zeros(4, dtype)
    votes = gpukit.zeros((4, 4), numpy.int32)
    warp_sums_and_votes[1, 128](gpukit.asarray(values), sums, votes)
    warps = values.reshape(4, 32)
    numpy.testing.assert_allclose(sums.get(), warps.sum(axis=1), rtol=1e-6)
    positive = warps > 0
    first = [int(numpy.argmax(row)) + 1 if row.any() else 0 for row in positive]
    numpy.testing.assert_array_equal(votes.get(), numpy.stack(
        [positive.sum(axis=1), positive.all(axis=1), positive.any(axis=1), first], axis=1))


def test_the_course_program_runs_with_numbas_host_api():
    """seeds 004: cuda.to_device, cuda.device_array, a 2-D grid kernel, copy_to_host."""
    a = RNG.normal(0, 10, (45, 30)).astype(numpy.float32)
    b = RNG.normal(0, 10, (30, 22)).astype(numpy.float32)
    a_gpu = cuda.to_device(a)
    b_gpu = cuda.to_device(b)
    c_gpu = cuda.device_array((45, 22))
    threads = (16, 16)
    blocks = (math.ceil(a.shape[0] / threads[0]), math.ceil(b.shape[1] / threads[1]))
    naive_matmul[blocks, threads](a_gpu, b_gpu, c_gpu)
    cuda.synchronize()
    numpy.testing.assert_allclose(c_gpu.copy_to_host(), a.astype(numpy.float64) @ b, rtol=1e-4, atol=1e-3)
    out = numpy.empty((45, 22))
    assert c_gpu.copy_to_host(out) is out
    assert cuda.is_available() and len(cuda.gpus) >= 1 and cuda.gpus.current == gpukit.get_device()


@cuda.jit
def naive_matmul(A, B, C):
    i, j = cuda.grid(2)
    if i < C.shape[0] and j < C.shape[1]:
        tmp = 0.
        for k in range(A.shape[1]):
            tmp += A[i, k] * B[k, j]
        C[i, j] = tmp


@cuda.jit(device=True)
def clamp(value, low, high):
    if value < low:
        return low
    if value > high:
        return high
    return value


@cuda.jit(device=True)
def clamped_square(x, i):
    return clamp(x[i] * x[i], 0.25, 4)


@cuda.jit
def uses_device_functions(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = clamped_square(x, i) + clamp(i, 0, 3)


def test_device_functions_called_from_kernels_and_from_each_other():
    x = (RNG.random(300) * 4 - 2).astype(numpy.float32)
    out = gpukit.empty(300, numpy.float32)
    uses_device_functions[3, 128](gpukit.asarray(x), out)
    want = numpy.clip(x * x, 0.25, 4) + numpy.clip(numpy.arange(300), 0, 3)
    numpy.testing.assert_allclose(out.get(), want, rtol=1e-6)
    with pytest.raises(TypeError, match="device function: call it from a kernel"):
        clamp(1, 2, 3)


WEIGHTS = numpy.array([0.25, 0.5, 0.25], dtype=numpy.float32)


@cuda.jit
def smooth_with_constant_weights(x, out):
    weights = cuda.const.array_like(WEIGHTS)
    i = cuda.grid(1)
    if 1 <= i < x.size - 1:
        out[i] = weights[0] * x[i - 1] + weights[1] * x[i] + weights[2] * x[i + 1]


def test_constant_arrays_from_host_globals():
    x = RNG.random(500, dtype=numpy.float32)
    out = gpukit.zeros(500, numpy.float32)
    smooth_with_constant_weights[4, 128](gpukit.asarray(x), out)
    want = numpy.zeros(500, numpy.float32)
    want[1:-1] = numpy.convolve(x, WEIGHTS[::-1], mode="valid")
    numpy.testing.assert_allclose(out.get(), want, rtol=1e-6)


@cuda.jit
def float_extremes(values, result):
    i = cuda.grid(1)
    if i < values.size:
        cuda.atomic.max(result, 0, values[i])
        cuda.atomic.min(result, 1, values[i])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_atomic_max_and_min_of_floats(dtype):
    values = (RNG.random(3000) * 200 - 100).astype(dtype)
    result = gpukit.asarray(numpy.array([-numpy.inf, numpy.inf], dtype))
    float_extremes[12, 256](gpukit.asarray(values), result)
    numpy.testing.assert_array_equal(result.get(), [values.max(), values.min()])


def test_a_kernel_keeps_no_module_array_alive(tmp_path):
    """A translation reads the module's names live: an array the module held while the kernel was
    translated and launched is freed when the module lets it go (a notebook's large arrays)."""
    import importlib.util
    import sys

    path = tmp_path / "module_with_arrays.py"
    path.write_text("from gpukit import cuda\n\n@cuda.jit\ndef fill(out):\n    out[cuda.grid(1)] = 7\n")
    spec = importlib.util.spec_from_file_location("module_with_arrays", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.data = gpukit.zeros(32, numpy.int32)
    references = sys.getrefcount(module.data)
    module.fill[1, 32](module.data)
    module.fill[1, 32](module.data)
    after = sys.getrefcount(module.data)  # outside the assert: pytest's rewriting holds its operands
    assert after == references
    numpy.testing.assert_array_equal(module.data.get(), 7)
    del module.data  # the module and its kernel form a cycle, which only the garbage collector frees
