"""gpukit.get_default_memory_pool(): the caching allocator arrays use, with CuPy's names."""

import gc
import math
import os

import numpy
import pytest

import gpukit

MIB = 1 << 20


@pytest.fixture
def pool():
    """The current device's pool, caching (the simulator's does not by default), empty, no limit; put back after."""
    gc.collect()  # arrays in reference cycles other tests left (a module and its kernels) go first
    pool = gpukit.get_default_memory_pool()
    was_caching = pool.caching
    pool.set_caching(True)
    pool.set_limit()
    pool.free_all_blocks()
    yield pool
    gpukit.synchronize()
    pool.set_limit()
    pool.set_caching(was_caching)
    pool.free_all_blocks()


def test_the_default_pool_is_the_devices_and_caches_unless_the_backend_checks_accesses():
    pool = gpukit.get_default_memory_pool()
    assert isinstance(pool, gpukit.MemoryPool)
    assert pool.device == gpukit.get_device()
    assert gpukit.get_default_memory_pool(gpukit.get_device()).used_bytes() == pool.used_bytes()
    if "GPUKIT_MEMORY_POOL" not in os.environ:
        assert pool.caching == (not gpukit.get_device().backend_info.capabilities.check_mode)
    with pytest.raises(TypeError, match="no constructor"):
        gpukit.MemoryPool()


def test_arrays_take_blocks_and_give_them_back(pool, rng):
    values = rng.uniform(-1, 1, 1000).astype(numpy.float32)
    a = gpukit.asarray(values)
    assert pool.used_bytes() == 4096  # 4000 bytes, rounded up to 512
    assert pool.total_bytes() == 2 * MIB  # a small segment
    assert pool.free_bytes() == 2 * MIB - 4096
    assert pool.n_free_blocks() == 1
    address = a.data_ptr
    del a
    assert pool.used_bytes() == 0 and pool.total_bytes() == 2 * MIB
    b = gpukit.asarray(values[::-1].copy())
    assert b.data_ptr == address  # the same block again
    numpy.testing.assert_array_equal(b.get(), values[::-1])
    del b
    pool.free_all_blocks()
    assert pool.total_bytes() == 0 and pool.n_free_blocks() == 0
    assert "0 bytes used, 0 held" in repr(pool)


def test_a_view_keeps_its_block(pool, rng):
    values = rng.uniform(-1, 1, (40, 50)).astype(numpy.float32)
    view = gpukit.asarray(values)[3:30:2, ::-3]
    assert pool.used_bytes() == 8192
    other = gpukit.empty((40, 50), numpy.float32)
    assert pool.used_bytes() == 2 * 8192
    numpy.testing.assert_array_equal(view.get(), values[3:30:2, ::-3])
    del view
    assert pool.used_bytes() == 8192
    del other


def test_a_stream_takes_back_its_own_block(pool):
    stream = gpukit.Stream()
    with stream:
        a = gpukit.zeros(3000, numpy.float64)  # a memset on the stream, maybe still queued
        address = a.data_ptr
        del a
        assert gpukit.empty(3000, numpy.float64).data_ptr == address
    stream.synchronize()


def test_past_the_limit_the_cache_goes_back_then_out_of_memory(pool):
    pool.set_limit(size=4 * MIB)
    assert pool.get_limit() == 4 * MIB
    del_me = gpukit.empty(MIB, numpy.uint8)
    del del_me
    assert pool.total_bytes() == 2 * MIB
    big = gpukit.empty(3 * MIB, numpy.uint8)  # room once the cached segment went back
    assert pool.total_bytes() == 3 * MIB
    with pytest.raises(gpukit.OutOfMemoryError) as caught:
        gpukit.empty(3 * MIB, numpy.uint8)
    error = caught.value
    assert isinstance(error, MemoryError)
    assert error.requested_bytes == 3 * MIB
    assert "Failed to allocate 3.0 MiB" in str(error)
    assert "the pool's limit of 4.0 MiB would be passed" in str(error)
    pool.set_limit()
    assert pool.get_limit() == 0
    more = gpukit.empty(3 * MIB, numpy.uint8)
    assert pool.used_bytes() == 6 * MIB
    del big, more


def test_a_limit_as_a_fraction_of_the_device(pool):
    total = gpukit.get_device().properties.total_memory
    pool.set_limit(fraction=0.25)
    assert pool.get_limit() == math.floor(0.25 * total)
    pool.set_limit(fraction=0)
    assert pool.get_limit() == 0


@pytest.mark.parametrize(("arguments", "error", "message"), [
    ({"size": 1, "fraction": 0.5}, ValueError, "size or fraction, not both"),
    ({"fraction": 1.5}, ValueError, r"fraction must be in \[0, 1\]"),
    ({"fraction": math.nan}, ValueError, r"fraction must be in \[0, 1\]"),
    ({"fraction": "half"}, TypeError, "fraction must be a number"),
    ({"size": -1}, ValueError, "size"),
    ({"size": 2.5}, TypeError, "size"),
])
def test_bad_limits_are_refused(pool, arguments, error, message):
    with pytest.raises(error, match=message):
        pool.set_limit(**arguments)
    assert pool.get_limit() == 0


def test_without_caching_each_array_is_its_own_allocation(pool):
    cached = gpukit.empty(10, numpy.int8)
    del cached
    pool.set_caching(False)
    assert not pool.caching
    assert pool.total_bytes() == 0
    a = gpukit.empty(1000, numpy.int8)
    assert pool.used_bytes() == pool.total_bytes() == 1000
    del a
    assert pool.total_bytes() == 0
    assert "not caching" in repr(pool)
    with pytest.raises(TypeError, match="on must be"):
        pool.set_caching(1)
