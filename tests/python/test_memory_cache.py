"""The in-process memo of compiled images and loaded modules (src/cache/compile_cache.cpp) stays
within its bound however many distinct modules a program compiles, and lets go of what it evicts:
on the simulator each module is a loaded shared object, whose mappings must go with it."""

import numpy
import pytest

import gpukit

SOURCE = """
extern "C" __global__ void offset_{index}(float* values, const int size) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size) values[i] += {index}.0f;
}}
__device__ int marker;
"""


def mappings():
    with open("/proc/self/maps") as maps:
        return sum(1 for _ in maps)


@pytest.fixture
def memo_of(request):
    """Sets the memo's bound to the test's, and puts the configuration back afterwards."""
    config = gpukit._core.cache_config()
    gpukit._core.clear_memory_cache()

    def bound(max_entries=None, max_bytes=None):
        gpukit._core.configure_memory_cache(max_entries, max_bytes)

    yield bound
    gpukit._core.configure_memory_cache(config.memory_max_entries, config.memory_max_bytes)
    gpukit._core.clear_memory_cache()


def test_many_distinct_modules_keep_the_memo_within_its_bound(memo_of, rng):
    memo_of(max_entries=3)
    values = rng.uniform(-1, 1, 64).astype(numpy.float32)
    evictions_before = gpukit._core.cache_stats().memory_evictions
    gpukit.RawModule(SOURCE.format(index=0))  # the first module of a process maps the most
    maps_before = mappings()
    count = 30
    for index in range(1, count + 1):
        kernel = gpukit.RawKernel(SOURCE.format(index=index), f"offset_{index}")
        array = gpukit.asarray(values)
        kernel(1, 64, (array, 64))
        numpy.testing.assert_array_equal(array.get(), values + index)
        del kernel
        usage = gpukit._core.memory_cache_usage()
        assert usage.modules <= 3 and usage.images <= 3, usage
    grown = mappings() - maps_before
    # Unbounded, 30 modules stayed loaded: about 5 mappings each on the simulator. Bounded, 3 do.
    assert grown < 40, f"{grown} more memory mappings after {count} modules"
    assert gpukit._core.cache_stats().memory_evictions - evictions_before >= 2 * (count - 3)


def test_a_module_still_held_outlives_its_eviction_and_is_given_back(memo_of):
    memo_of(max_entries=1)
    held = gpukit.RawModule(SOURCE.format(index=100))
    marker = held.get_global("marker", numpy.int32)
    marker[...] = 77
    for index in range(101, 104):
        gpukit.RawModule(SOURCE.format(index=index))
    assert gpukit._core.memory_cache_usage().modules == 1
    again = gpukit.RawModule(SOURCE.format(index=100))  # the same module, not a second copy
    assert again.get_global("marker", numpy.int32).get()[0] == 77
    values = gpukit.zeros(8, numpy.float32)
    held.get_function("offset_100")(1, 8, (values, 8))
    assert (values.get() == 100).all()


def test_the_memo_s_bounds_are_configurable_and_refuse_bad_values(memo_of):
    memo_of(max_entries=7, max_bytes=12345)
    config = gpukit._core.cache_config()
    assert (config.memory_max_entries, config.memory_max_bytes) == (7, 12345)
    with pytest.raises(ValueError, match="max_entries must be at least 0, not -1"):
        gpukit._core.configure_memory_cache(-1)
    with pytest.raises(TypeError, match=r"max_bytes must be an int, not a str \('1G'\)"):
        gpukit._core.configure_memory_cache(None, "1G")


def test_clearing_the_memo_empties_it(memo_of):
    gpukit.RawModule(SOURCE.format(index=200))
    assert gpukit._core.memory_cache_usage().modules >= 1
    gpukit._core.clear_memory_cache()
    usage = gpukit._core.memory_cache_usage()
    assert (usage.images, usage.modules, usage.image_bytes, usage.module_bytes) == (0, 0, 0, 0)


SLOW = """
extern "C" __global__ void slow_fill_{index}(float* out, const int size, const int rounds) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= size) return;
  float value = 0.0f;
  for (int r = 0; r < rounds; ++r) value = value * 0.5f + {index}.0f;  // converges to 2 * index
  out[i] = value;
}}
"""


def test_a_module_evicted_and_dropped_while_its_launch_runs_stays_loaded_until_the_launch_ends(memo_of):
    memo_of(max_entries=1)
    size = 1 << 16
    out = gpukit.zeros(size, numpy.float32)
    stream = gpukit.Stream()
    kernel = gpukit.RawKernel(SLOW.format(index=3), "slow_fill_3")
    kernel((size + 255) // 256, 256, (out, size, 20000), stream=stream)
    del kernel  # the launch may still be queued or running: only the memo holds its module now
    for index in range(4, 7):  # evicts it
        gpukit.RawModule(SLOW.format(index=index))
    stream.synchronize()
    numpy.testing.assert_allclose(out.get(), 6.0, rtol=1e-5)
