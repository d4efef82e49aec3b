"""gpukit.jit's launch fast path (_core.JitLaunchCache): a launch like one seen before is keyed,
packed and launched in C++, with the results the Python slow path gives, and anything it does
not take goes to the slow path, whose errors users see.

Each test launches once (the slow path, which records the specialisation), then launches through
``kernel._fast.launch`` directly, so that a fall back to the slow path would show as False."""

import gc
import math

import numpy
import pytest

import gpukit
from gpukit import cuda

RNG = numpy.random.default_rng(1515)


@cuda.jit
def scale_2d(x, out, factor):
    i, j = cuda.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        out[i, j] = x[i, j] * factor


def fast(kernel, blocks, threads, args, shared=0, stream=None):
    """Launches through the fast path only; whether it took the launch."""
    return kernel._fast.launch(blocks, threads, args, shared, stream)


def grid_2d(shape):
    return (max(1, math.ceil(shape[0] / 8)), max(1, math.ceil(shape[1] / 8))), (8, 8)


def layouts():
    """Arrays of each layout a kernel takes: (name, array, its NumPy twin)."""
    values = RNG.random((12, 10)).astype(numpy.float32)
    base = gpukit.asarray(values)
    yield "c", base, values
    yield "f", gpukit.asarray(numpy.asfortranarray(values)), values
    yield "transposed", base.T, values.T
    yield "strided", base[::2, ::3], values[::2, ::3]
    yield "reversed", base[::-1, 1:], values[::-1, 1:]
    yield "empty", gpukit.asarray(values[:0]), values[:0]


@pytest.mark.parametrize("name", [name for name, _, _ in layouts()])
def test_every_layout_gives_the_slow_paths_result(name):
    _, x, expected = next(item for item in layouts() if item[0] == name)
    blocks, threads = grid_2d(expected.shape)
    slow, quick = gpukit.zeros(expected.shape, numpy.float32), gpukit.zeros(expected.shape, numpy.float32)
    scale_2d[blocks, threads](x, slow, 3.0)
    assert fast(scale_2d, blocks, threads, (x, quick, 3.0))
    numpy.testing.assert_array_equal(quick.get(), slow.get())
    numpy.testing.assert_array_equal(quick.get(), expected * numpy.float32(3.0))


def test_a_0d_array():
    @cuda.jit
    def read_0d(x, out):
        out[0] = x[()]

    out = gpukit.zeros(1, numpy.float32)
    read_0d[1, 1](gpukit.asarray(numpy.array(3.5, numpy.float32)), out)
    assert fast(read_0d, 1, 1, (gpukit.asarray(numpy.array(4.5, numpy.float32)), out))
    assert out.get()[0] == 4.5


@cuda.jit
def store(out, value):
    out[0] = value


SCALAR_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32",
                 "float64"]


@pytest.mark.parametrize("dtype", SCALAR_DTYPES)
def test_every_numpy_scalar_dtype_travels_as_its_bytes(dtype):
    info = numpy.finfo(dtype) if numpy.dtype(dtype).kind == "f" else None
    edges = [True, False] if dtype == "bool" else [info.max, info.tiny] if info else [numpy.iinfo(dtype).min,
                                                                                      numpy.iinfo(dtype).max]
    out = gpukit.zeros(1, dtype)
    store[1, 1](out, numpy.dtype(dtype).type(1))
    for edge in edges:
        value = numpy.dtype(dtype).type(edge)
        assert fast(store, 1, 1, (out, value))
        assert out.get()[0] == value


@pytest.mark.parametrize("value", [0, -1, 2**63 - 1, -2**63, 1.5, -0.0, math.inf, True, False])
def test_python_numbers_as_the_slow_path_passes_them(value):
    out = gpukit.zeros(1, numpy.float64 if isinstance(value, float) else numpy.bool_ if isinstance(
        value, bool) else numpy.int64)
    store[1, 1](out, value.__class__(0))
    assert fast(store, 1, 1, (out, value))
    assert out.get()[0] == value


def test_python_ints_beyond_int64_fall_back_to_the_slow_paths_overflow_error():
    out = gpukit.zeros(1, numpy.int64)
    store[1, 1](out, 0)
    assert not fast(store, 1, 1, (out, 2**63))
    assert not fast(store, 1, 1, (out, -2**63 - 1))
    with pytest.raises(gpukit.KernelArgumentError, match="out of range"):  # the types known: the launch's check
        store[1, 1](out, 2**63)
    with pytest.raises(OverflowError, match="does not fit in int64"):  # types worked out anew
        cuda.jit(store.py_func)[1, 1](out, 2**63)


@cuda.jit("void(int32[:], int32)")
def store_int32(out, value):
    out[0] = value


@cuda.jit("void(int16[:], int16)")
def store_int16(out, value):
    out[0] = value


@cuda.jit("void(float32[:], float32)")
def store_float32(out, value):
    out[0] = value


@pytest.mark.parametrize("kernel, dtype", [(store_int32, numpy.int32), (store_int16, numpy.int16)])
def test_python_ints_at_a_narrow_parameters_range_edges(kernel, dtype):
    limits = numpy.iinfo(dtype)
    out = gpukit.zeros(1, dtype)
    kernel[1, 1](out, 0)
    for edge in (int(limits.min), int(limits.max)):
        assert fast(kernel, 1, 1, (out, edge))
        assert out.get()[0] == edge
    for beyond in (int(limits.min) - 1, int(limits.max) + 1):
        assert not fast(kernel, 1, 1, (out, beyond))
        with pytest.raises(gpukit.KernelArgumentError, match="out of range"):
            kernel[1, 1](out, beyond)


def test_numbers_converted_to_a_signatures_float32():
    out = gpukit.zeros(1, numpy.float32)
    for value in (2.5, 7, True, 1e-50):
        store_float32[1, 1](out, value.__class__(0))  # each Python type is a key of its own
        assert fast(store_float32, 1, 1, (out, value))
        assert out.get()[0] == numpy.float32(value)
    assert not fast(store_float32, 1, 1, (out, 1e39))  # finite, beyond float32: the slow path refuses it
    with pytest.raises(gpukit.KernelArgumentError, match="out of range"):
        store_float32[1, 1](out, 1e39)
    store_float32[1, 1](out, numpy.float64(0.1))  # another dtype: converted as value.astype(float32)
    assert fast(store_float32, 1, 1, (out, numpy.float64(1 / 3)))
    assert out.get()[0] == numpy.float64(1 / 3).astype(numpy.float32)
    store_float32[1, 1](out, numpy.int16(0))
    assert fast(store_float32, 1, 1, (out, numpy.int16(-9)))  # 'same_kind': an integer for a float
    assert out.get()[0] == -9


@cuda.jit
def reverse_in_shared(values, out):
    staged = cuda.shared.array(0, numpy.float32)  # dynamic: its bytes come with the launch
    t = cuda.threadIdx.x
    staged[t] = values[t]
    cuda.syncthreads()
    out[t] = staged[staged.size - 1 - t]


def test_dynamic_shared_memory_is_passed_to_the_kernel():
    values = RNG.random(64).astype(numpy.float32)
    out = gpukit.zeros(64, numpy.float32)
    reverse_in_shared[1, 64, 0, 64 * 4](gpukit.asarray(values), out)
    numpy.testing.assert_array_equal(out.get(), values[::-1])
    fewer = gpukit.zeros(32, numpy.float32)
    assert fast(reverse_in_shared, 1, 32, (gpukit.asarray(values[:32]), fewer), 32 * 4)
    numpy.testing.assert_array_equal(fewer.get(), values[:32][::-1])


def test_launches_on_a_stream_and_on_stream_0():
    x = gpukit.asarray(RNG.random((9, 9)).astype(numpy.float32))
    out = gpukit.zeros((9, 9), numpy.float32)
    stream = gpukit.Stream()
    blocks, threads = grid_2d(x.shape)
    scale_2d[blocks, threads, stream](x, out, 2.0)
    assert fast(scale_2d, blocks, threads, (x, out, 5.0), 0, stream)
    stream.synchronize()
    numpy.testing.assert_array_equal(out.get(), x.get() * numpy.float32(5.0))
    scale_2d[blocks, threads, 0](x, out, 7.0)
    numpy.testing.assert_array_equal(out.get(), x.get() * numpy.float32(7.0))


@cuda.jit
def slow_copy(source, out, rounds):
    i = cuda.grid(1)
    if i < source.size:
        value = numpy.float32(0)
        for _ in range(rounds):
            value = value * numpy.float32(0.5) + source[i]  # converges to 2 * source[i]
        out[i] = value


@pytest.mark.parametrize("view", ["contiguous", "strided"])
def test_an_array_freed_right_after_a_launch_outlives_it(view):
    size = 1 << 15
    values = RNG.uniform(1, 2, 2 * size).astype(numpy.float32)
    out = gpukit.zeros(size, numpy.float32)
    stream = gpukit.Stream()
    source = gpukit.asarray(values)
    source = source[:size] if view == "contiguous" else source[::2]
    slow_copy[size // 256, 256, stream](source.copy() if view == "contiguous" else source[::-1], out, 2)
    assert fast(slow_copy, size // 256, 256, (source, out, 200), 0, stream)
    memory = gpukit._core.MemoryWatch(source)
    del source  # while the launch may still be running
    gc.collect()
    assert not memory.alive
    scribble = [gpukit.full(2 * size, -7.0, numpy.float32) for _ in range(4)]  # likely to reuse the address
    stream.synchronize()
    expected = values[:size] if view == "contiguous" else values[::2]
    numpy.testing.assert_allclose(out.get(), 2 * expected, rtol=1e-5)
    assert all((array.get() == -7.0).all() for array in scribble)


def test_arguments_the_fast_path_does_not_take_go_to_the_slow_path():
    @cuda.jit
    def add_pair(out, pair):
        out[0] = pair[0] + pair[1]

    out = gpukit.zeros(1, numpy.int64)
    add_pair[1, 1](out, (2, 3))  # a tuple: never recorded
    assert len(add_pair._fast) == 0 and not fast(add_pair, 1, 1, (out, (4, 5)))
    add_pair[1, 1](out, (4, 5))
    assert out.get()[0] == 9

    host = numpy.zeros((4, 4), numpy.float32)
    x = RNG.random((4, 4)).astype(numpy.float32)
    scale_2d[1, (8, 8)](gpukit.asarray(x), gpukit.zeros((4, 4), numpy.float32), 1.0)
    assert not fast(scale_2d, 1, (8, 8), (gpukit.asarray(x), host, 2.0))  # a host array: copied in and back
    scale_2d[1, (8, 8)](gpukit.asarray(x), host, 2.0)
    numpy.testing.assert_array_equal(host, x * numpy.float32(2.0))
    assert not fast(scale_2d, 1, (8, 8), (gpukit.asarray(x), gpukit.zeros((4, 4), numpy.float64), 2.0))
    assert not fast(scale_2d, 1, (8, 8), [gpukit.asarray(x), gpukit.zeros((4, 4), numpy.float32), 2.0])


def test_launch_errors_are_the_raw_kernels():
    out = gpukit.zeros(1, numpy.int64)
    store[1, 1](out, 1)
    with pytest.raises(ValueError, match="grid dimension -1"):
        store[-1, 1](out, 1)
    with pytest.raises(TypeError, match="block must be an int"):
        store[1, 1.5](out, 1)
    with pytest.raises(gpukit.LaunchConfigError):
        store[1, 1 << 20](out, 1)


def test_a_configuration_is_reused_and_kept_apart():
    assert store[1, 1] is store[1, 1]
    assert store[1, 2] is not store[1, 1]
    assert store[True, 1] is not store[1, 1]


@pytest.mark.skipif(len(gpukit.devices()) < 2, reason="needs a second device")
def test_an_array_on_another_device_is_the_slow_paths_error():
    out = gpukit.zeros(1, numpy.int64)
    store[1, 1](out, 1)
    with gpukit.devices()[1]:
        elsewhere = gpukit.zeros(1, numpy.int64)
    assert not fast(store, 1, 1, (elsewhere, 1))
    with pytest.raises(gpukit.InvalidArgumentError, match="copy it there first"):
        store[1, 1](elsewhere, 1)
