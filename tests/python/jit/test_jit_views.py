"""gpukit.jit: views (slices and partial indexing, as NumPy's basic indexing), dynamic shared memory
sized by the launch, and local names for intrinsics (``tid = cuda.threadIdx``), against NumPy.

Each kernel runs on the suite's backend (the simulator in CI, the GPU in gpu-check).
"""

import math

import numpy
import pytest

import gpukit
from gpukit import cuda

RNG = numpy.random.default_rng(1515)


@cuda.jit
def tiled_matmul_dynamic_shared(m, n, out, tw):
    # The course's Numba matmul (seeds 003): one dynamic shared array split in two by slices.
    cbi, cbd, tid = cuda.blockIdx, cuda.blockDim, cuda.threadIdx
    tc, tr = tid.x, tid.y
    r, c = cbi.y * cbd.y + tr, cbi.x * cbd.x + tc
    h, k = m.shape
    k2, w = n.shape
    shar = cuda.shared.array(0, dtype=numpy.float32)
    ms, ns = shar[:tw * tw], shar[tw * tw:2 * tw * tw]
    p = numpy.float32(0.0)
    for ph in range(math.ceil(k / tw)):
        idx = ph * tw
        ms[tr * tw + tc] = m[r, tc + idx] if r < h and idx + tc < k else 0.
        ns[tr * tw + tc] = n[tr + idx, c] if c < w and idx + tr < k else 0.
        cuda.syncthreads()
        for i in range(tw):
            p += ms[tr * tw + i] * ns[i * tw + tc]
        cuda.syncthreads()
    if r < h and c < w:
        out[r, c] = p


@pytest.mark.parametrize("tw", [8, 16])
@pytest.mark.parametrize("shape", [(1, 1, 1), (67, 45, 33), (32, 48, 16)])
def test_tiled_matmul_with_dynamic_shared_memory_split_by_slices(shape, tw):
    h, k, w = shape
    a = RNG.standard_normal((h, k), dtype=numpy.float32)
    b = RNG.standard_normal((k, w), dtype=numpy.float32)
    out = gpukit.zeros((h, w), numpy.float32)
    blocks = ((w + tw - 1) // tw, (h + tw - 1) // tw)
    tiled_matmul_dynamic_shared[blocks, (tw, tw), 0, 2 * tw * tw * 4](gpukit.asarray(a), gpukit.asarray(b), out, tw)
    numpy.testing.assert_allclose(out.get(), a @ b, rtol=1e-4, atol=1e-4)


@cuda.jit
def dynamic_shared_extent(out):
    staged = cuda.shared.array(0, numpy.float64)
    if cuda.grid(1) == 0:
        out[0] = staged.shape[0]
        out[1] = staged.size
        out[2] = len(staged[2:])


@pytest.mark.parametrize("shared_bytes", [0, 8, 1000, 4096])
def test_a_dynamic_shared_array_holds_the_launchs_bytes_as_numba_says(shared_bytes):
    out = gpukit.zeros(3, numpy.int64)
    dynamic_shared_extent[1, 32, 0, shared_bytes](out)
    n = shared_bytes // 8
    numpy.testing.assert_array_equal(out.get(), [n, n, max(0, n - 2)])


@cuda.jit
def copy_slice_1d(x, out, start, stop):
    part = x[start:stop]
    i = cuda.grid(1)
    if i < part.shape[0]:
        out[i] = part[i]


SLICES_1D = [(0, 10), (3, 7), (-4, 100), (-100, 2), (5, 3), (7, -1), (0, 0)]


@pytest.mark.parametrize("start, stop", SLICES_1D)
def test_a_slice_clamps_its_bounds_as_python_does(start, stop):
    x = RNG.integers(-1000, 1000, 10).astype(numpy.int32)
    expected = x[start:stop]
    out = gpukit.zeros(max(1, expected.size), numpy.int32)
    copy_slice_1d[1, 32](gpukit.asarray(x), out, start, stop)
    numpy.testing.assert_array_equal(out.get()[:expected.size], expected)


@cuda.jit
def stepped_views(x, forward, backward, every_third_from_end):
    a = x[1::2]
    b = x[::-1]
    c = x[-1:0:-3]
    i = cuda.grid(1)
    if i < a.size:
        forward[i] = a[i]
    if i < b.size:
        backward[i] = b[i]
    if i < c.size:
        every_third_from_end[i] = c[i]


@pytest.mark.parametrize("n", [1, 2, 11, 100])
def test_slices_with_constant_steps_forwards_and_backwards(n):
    x = RNG.standard_normal(n).astype(numpy.float32)
    outputs = [gpukit.zeros(max(1, len(v)), numpy.float32) for v in (x[1::2], x[::-1], x[-1:0:-3])]
    stepped_views[1, 128](gpukit.asarray(x), *outputs)
    for out, expected in zip(outputs, (x[1::2], x[::-1], x[-1:0:-3])):
        numpy.testing.assert_array_equal(out.get()[:len(expected)], expected)


@cuda.jit
def row_and_column_sums(matrix, row_sums, column_sums):
    i = cuda.grid(1)
    if i < matrix.shape[0]:
        row = matrix[i]          # a 2-d array indexed once: its row, as NumPy gives
        total = 0.0
        for j in range(row.shape[0]):
            total += row[j]
        row_sums[i] = total
    if i < matrix.shape[1]:
        column = matrix[:, i]    # a column: strided
        total = 0.0
        for j in range(column.size):
            total += column[j]
        column_sums[i] = total


@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_rows_and_columns_of_any_layout_are_views(layout):
    values = RNG.standard_normal((37, 29))
    matrix = gpukit.asarray(values)
    if layout == "F":
        matrix = gpukit.asfortranarray(matrix)
    elif layout == "strided":
        values = RNG.standard_normal((74, 58))
        matrix = gpukit.asarray(values)[::2, 1::2]
        values = values[::2, 1::2]
    row_sums, column_sums = gpukit.zeros(37), gpukit.zeros(29)
    row_and_column_sums[1, 64](matrix, row_sums, column_sums)
    numpy.testing.assert_allclose(row_sums.get(), values.sum(axis=1), rtol=1e-12)
    numpy.testing.assert_allclose(column_sums.get(), values.sum(axis=0), rtol=1e-12)


@cuda.jit(device=True)
def block_total(values):
    total = 0.0
    for k in range(values.size):
        total += values[k]
    return total


@cuda.jit
def shared_array_to_a_device_function(x, out):
    staged = cuda.shared.array(64, numpy.float64)
    t = cuda.threadIdx.x
    staged[t] = x[cuda.grid(1)]
    cuda.syncthreads()
    if t == 0:
        out[cuda.blockIdx.x, 0] = block_total(staged)
        out[cuda.blockIdx.x, 1] = block_total(staged[32:])


def test_shared_arrays_and_their_slices_pass_to_device_functions():
    x = RNG.standard_normal(64 * 5)
    out = gpukit.zeros((5, 2))
    shared_array_to_a_device_function[5, 64](gpukit.asarray(x), out)
    blocks = x.reshape(5, 64)
    numpy.testing.assert_allclose(out.get(), numpy.stack([blocks.sum(axis=1), blocks[:, 32:].sum(axis=1)], 1),
                                  rtol=1e-12)


@cuda.jit
def compare_with_a_shape(x, out):
    i = cuda.threadIdx.x        # int32
    out[0] = i < x.shape[0]     # the shape is not narrowed to int32 to compare


def test_an_int32_index_compares_with_a_shape_by_value():
    out = gpukit.zeros(1, numpy.bool_)
    source = compare_with_a_shape.inspect_source(gpukit.zeros(3), out)
    assert "(int)(py_x_shape0)" not in source
    compare_with_a_shape[1, 1](gpukit.zeros(3), out)
    assert out.get()[0]


@cuda.jit
def alias_reassigned(out):
    tid = cuda.threadIdx
    tid = cuda.blockIdx
    out[0] = tid.x


@cuda.jit
def slice_with_a_variable_step(x, out, step):
    part = x[::step]
    out[0] = part[0]


@cuda.jit
def too_many_indices_for_a_view(x, out):
    part = x[1:, 2]
    out[0] = part[0]


@pytest.mark.parametrize("kernel, args, error, message", [
    (alias_reassigned, (numpy.zeros(1),), TypeError, "'tid' already names"),
    (slice_with_a_variable_step, (numpy.zeros(4), numpy.zeros(1), 2), ValueError,
     "a slice's step must be a constant integer other than 0"),
    (too_many_indices_for_a_view, (numpy.zeros(4), numpy.zeros(1)), IndexError, "1 dimension; 2 indices given"),
])
def test_views_and_names_that_cannot_be_translated_say_why(kernel, args, error, message):
    with pytest.raises(error, match=message):
        kernel[1, 1](*args)


@cuda.jit
def write_at(x, position, value):
    if cuda.grid(1) == 0:
        x[position] = value


def test_offsets_are_32_bit_where_every_offset_fits():
    small = gpukit.zeros(10, numpy.int8)
    source = write_at.inspect_source(small, 3, numpy.int8(7))
    assert "py_x[((int)(gk_py_wrap(py_position, py_x_shape0)))]" in source
    write_at[1, 32](small, -2, numpy.int8(7))
    numpy.testing.assert_array_equal(small.get(), [0] * 8 + [7, 0])


@pytest.mark.needs_simulator
def test_check_mode_keeps_64_bit_offsets_so_that_memcheck_sees_the_real_address():
    checked = cuda.jit(write_at.py_func, check="memcheck")
    small = gpukit.zeros(10, numpy.int8)
    checked[1, 32](small, 3, numpy.int8(7))
    (source,) = [source for _, source in checked._specialisations.values()]
    assert "py_x[(gk_py_wrap(py_position, py_x_shape0))]" in source.code


@pytest.mark.needs_gpu
def test_an_array_past_2_31_elements_is_indexed_in_64_bits():
    big = gpukit.zeros(2**31 + 16, numpy.int8)
    write_at[1, 32](big, 2**31 + 5, numpy.int8(7))
    write_at[1, 32](big, -1, numpy.int8(9))
    values = big[2**31:].get()
    assert values[5] == 7 and values[-1] == 9 and big[:16].get().sum() == 0
    del big
