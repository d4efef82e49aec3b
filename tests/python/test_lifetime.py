"""Reference counting and leaks: memory outlives the launches and consumers that use it, and
creating and freeing arrays many times leaves nothing behind."""

import gc
import math
import pathlib
import sys

import numpy

import gpukit

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))
import lifetime_rss  # noqa: E402  (the benchmark's cycle: one definition for both)

SLOW_COPY = r"""
extern "C" __global__ void slow_copy(const float* in, float* out, const int size, const int rounds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= size) return;
  float value = 0.0f;
  for (int r = 0; r < rounds; ++r) value = value * 0.5f + in[i];  // converges to 2 * in[i]
  out[i] = value;
}"""


def test_an_array_freed_while_a_launch_reads_it_stays_valid_until_the_launch_ends(rng):
    kernel = gpukit.RawKernel(SLOW_COPY, "slow_copy")
    size = 1 << 16
    values = rng.uniform(1, 2, size).astype(numpy.float32)
    source, out = gpukit.asarray(values), gpukit.zeros(size, numpy.float32)
    stream = gpukit.Stream()
    kernel(math.ceil(size / 256), 256, (source, out, size, 200), stream=stream)
    memory = gpukit._core.MemoryWatch(source)
    del source  # while the launch may still be running
    gc.collect()
    assert not memory.alive
    scribble = [gpukit.full(size, -7.0, numpy.float32) for _ in range(4)]  # likely to reuse the address
    stream.synchronize()
    numpy.testing.assert_allclose(out.get(), 2 * values, rtol=1e-5)
    assert all((array.get() == -7.0).all() for array in scribble)


def cycle(count):
    for _ in range(count):
        array = gpukit.empty(1024, numpy.float32)
        view = array[::2]
        capsule = view.__dlpack__()
        del array, view, capsule


def test_no_leak_over_100000_create_and_free_cycles():
    cycle(2000)  # warm up allocator caches and interned objects
    gc.collect()
    rss_before = lifetime_rss.resident_bytes()
    free_before = gpukit.get_device().mem_info[0]
    objects_before = len(gc.get_objects())
    cycle(100_000)
    gc.collect()
    grown = lifetime_rss.resident_bytes() - rss_before
    # 100000 arrays of 4 KiB would be 400 MiB; allocator noise stays far below 16 MiB.
    assert grown < 16 * 2**20, f"resident memory grew by {grown / 2**20:.1f} MiB"
    assert len(gc.get_objects()) - objects_before < 100
    if gpukit.backend() == "cuda":
        assert gpukit.get_device().mem_info[0] >= free_before - 16 * 2**20


def test_arrays_freed_while_their_fill_or_copy_still_runs_on_a_stream(rng):
    # A memset or device copy enqueued on a stream may run after the call returns; the memory it
    # touches must outlive it even when its arrays are dropped at once (the simulator frees at once).
    values = gpukit.asarray(rng.uniform(-1, 1, 4096).astype(numpy.float32))
    stream = gpukit.Stream()
    with stream:
        for _ in range(1500):
            gpukit.zeros(4096, numpy.float32)
            values.copy()
        kept = values.copy()
    stream.synchronize()
    numpy.testing.assert_array_equal(kept.get(), values.get())


def launch_cycle(kernel, count, check_every=0):
    """``count`` of bench/lifetime_rss.py's cycles; checks the results of every ``check_every``-th."""
    for index in range(count):
        lifetime_rss.one_cycle(kernel, index, check=check_every and index % check_every == 0)


def test_no_leak_over_launch_stream_event_and_view_cycles():
    # bench/lifetime_rss.py runs 100000 of these cycles and reports the figures; ten thousand here
    # find a leak of 300 bytes a cycle.
    kernel = gpukit.RawKernel(lifetime_rss.FILL, "fill")
    launch_cycle(kernel, 500, check_every=97)
    gpukit.synchronize()
    gc.collect()
    rss_before = lifetime_rss.resident_bytes()
    free_before = gpukit.get_device().mem_info[0]
    objects_before = len(gc.get_objects())
    launch_cycle(kernel, 10_000, check_every=997)
    gpukit.synchronize()
    gc.collect()
    grown = lifetime_rss.resident_bytes() - rss_before
    assert grown < 3 * 2**20, f"resident memory grew by {grown / 2**20:.1f} MiB over 10000 launch cycles"
    assert len(gc.get_objects()) - objects_before < 100
    if gpukit.backend() == "cuda":
        assert gpukit.get_device().mem_info[0] >= free_before - 2 * 2**20
