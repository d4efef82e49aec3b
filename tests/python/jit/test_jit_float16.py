"""float16 in Python kernels: stored as half, computed in float32 and rounded once per operation,
as NumPy computes float16, so results equal NumPy's bit for bit (on both backends)."""

import math

import numpy
import pytest

import gpukit
from gpukit import cuda

RNG = numpy.random.default_rng(1518)


@cuda.jit
def half_arithmetic(x, y, out, less):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = x[i] * 2.0 + y[i]
        out[i, 1] = math.sqrt(abs(x[i])) - min(x[i], y[i])
        out[i, 2] = -x[i] / y[i]
        out[i, 3] = x[i] // y[i] + x[i] % y[i]
        out[i, 4] = math.floor(x[i]) + max(x[i], 0.25)
        out[i, 5] = math.exp(x[i]) if x[i] < 2 else x[i] ** 2
        less[i] = x[i] < y[i] and bool(x[i])


@pytest.mark.parametrize("n", [1, 31, 1000])
def test_float16_operations_round_as_numpy_does(n):
    x = RNG.standard_normal(n).astype(numpy.float16)
    y = (RNG.random(n) + 0.5).astype(numpy.float16)
    out, less = gpukit.zeros((n, 6), numpy.float16), gpukit.zeros(n, numpy.bool_)
    half_arithmetic[(n + 127) // 128, 128](gpukit.asarray(x), gpukit.asarray(y), out, less)
    with numpy.errstate(all="ignore"):
        want = numpy.stack([
            x * numpy.float16(2.0) + y, numpy.sqrt(numpy.abs(x)) - numpy.minimum(x, y), -x / y,
            x // y + x % y, numpy.floor(x) + numpy.maximum(x, numpy.float16(0.25)),
            numpy.where(x < 2, numpy.exp(x), x ** 2)], axis=1)
    numpy.testing.assert_array_equal(out.get(), want)
    numpy.testing.assert_array_equal(less.get(), (x < y) & (x != 0))


@cuda.jit
def half_block_sums(x, out):
    staged = cuda.shared.array(128, numpy.float16)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    staged[t] = x[i] if i < x.size else 0
    cuda.syncthreads()
    if t == 0:
        total = numpy.float32(0)
        for k in range(128):
            total += staged[k]
        out[cuda.blockIdx.x] = total


def test_float16_shared_arrays_and_a_float32_accumulator():
    x = RNG.standard_normal(300).astype(numpy.float16)
    out = gpukit.zeros(3, numpy.float32)
    half_block_sums[3, 128](gpukit.asarray(x), out)
    padded = numpy.concatenate([x, numpy.zeros(84, numpy.float16)]).astype(numpy.float32).reshape(3, 128)
    numpy.testing.assert_allclose(out.get(), padded.sum(axis=1), rtol=1e-5)


@cuda.vectorize
def fused(a, b):
    return a * b + 1.0


def test_vectorize_and_its_reduce_on_float16():
    x, y = RNG.standard_normal(77).astype(numpy.float16), RNG.standard_normal(77).astype(numpy.float16)
    got = fused(gpukit.asarray(x), gpukit.asarray(y))
    assert got.dtype == numpy.float16
    numpy.testing.assert_array_equal(got.get(), x * y + numpy.float16(1))


@cuda.jit("void(float16[:], float16[:])")
def copy_half(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i]


def test_a_float16_signature():
    x = RNG.standard_normal(40).astype(numpy.float16)
    out = gpukit.zeros(40, numpy.float16)
    copy_half[1, 64](gpukit.asarray(x), out)
    numpy.testing.assert_array_equal(out.get(), x)


@cuda.jit
def atomic_on_half(x):
    cuda.atomic.add(x, 0, 1.0)


def test_atomics_on_float16_say_which_types_they_take():
    with pytest.raises(TypeError, match="cuda.atomic.add on float16 elements"):
        atomic_on_half[1, 1](gpukit.zeros(1, numpy.float16))


@cuda.jit
def narrow_to_half(x, out, pairs):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i]  # float64 -> float16: rounded once
        a, b = x[i], x[i] * 2.0
        pair = (numpy.float16(0), numpy.float16(0))
        pair = a, b  # tuple items go through the same casts as single values
        pairs[i, 0] = pair[0]
        pairs[i, 1] = pair[1] + 1.0000001


def test_float64_to_float16_rounds_once_as_numpy_does():
    # 1 + 2^-11 + 2^-40 rounds up to the next half; through float32 it first becomes 1 + 2^-11, a tie
    # that rounds to even (down).
    x = numpy.concatenate([[1 + 2**-11 + 2**-40, -(1 + 2**-11 + 2**-40)], RNG.standard_normal(98)])
    out, pairs = gpukit.zeros(100, numpy.float16), gpukit.zeros((100, 2), numpy.float16)
    narrow_to_half[1, 128](gpukit.asarray(x), out, pairs)
    numpy.testing.assert_array_equal(out.get(), x.astype(numpy.float16))
    numpy.testing.assert_array_equal(pairs.get()[:, 0], x.astype(numpy.float16))
    # pair unifies (float16, float16) with (float64, float64): float64 items, rounded to half once at the store
    numpy.testing.assert_array_equal(pairs.get()[:, 1], (x * 2.0 + 1.0000001).astype(numpy.float16))
