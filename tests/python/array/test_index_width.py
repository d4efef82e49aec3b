"""Reductions, scans and sorts of more than 2**31 elements on a GPU: index arithmetic in 64 bits
(a 32-bit index would wrap before the last elements)."""

import numpy
import pytest

import gpukit

N = 2**31 + 7  # 5 * 429496731: also a (5, 429496731) matrix
MARK = N - 3


@pytest.fixture(scope="module")
def big():
    x = gpukit.zeros(N, numpy.int8)
    x[MARK] = 5
    x[2] = -1
    yield x
    del x
    gpukit.get_default_memory_pool().free_all_blocks()


@pytest.mark.needs_gpu
def test_reductions_past_two_to_the_31(big):
    assert int(big.sum()) == 4
    assert int(gpukit.argmax(big)) == MARK
    assert int(gpukit.argmin(big)) == 2
    assert int(big.max()) == 5
    assert int(gpukit.count_nonzero(big)) == 2
    rows = big.reshape(5, N // 5)
    numpy.testing.assert_array_equal(rows.sum(axis=1).get(), [-1, 0, 0, 0, 5])
    assert int(gpukit.argmax(rows, axis=1).get()[4]) == MARK - 4 * (N // 5)


@pytest.mark.needs_gpu
def test_scans_and_sorts_past_two_to_the_31(big):
    running = gpukit.cumsum(big, dtype=numpy.int8)
    numpy.testing.assert_array_equal(running[MARK - 1:MARK + 1].get(), [-1, 4])
    numpy.testing.assert_array_equal(running[-2:].get(), [4, 4])
    del running
    ordered = gpukit.sort(big)
    numpy.testing.assert_array_equal(ordered[:2].get(), [-1, 0])
    numpy.testing.assert_array_equal(ordered[-2:].get(), [0, 5])
