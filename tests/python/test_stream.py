"""gpukit._stream: streams, the current stream, events and their timing."""

import math

import numpy
import pytest

import course
import gpukit


@pytest.fixture(scope="module")
def histogram():
    return gpukit.RawKernel(course.HISTOGRAM, "histogram")


def test_the_default_stream_is_current_outside_any_with_block():
    current = gpukit.get_current_stream()
    assert current is gpukit.Stream.null and current.is_default and current.ptr == 0
    current.synchronize()
    assert current.done()


def test_with_stream_makes_it_current_for_the_block_and_nests():
    first, second = gpukit.Stream(), gpukit.Stream(non_blocking=True)
    assert not first.is_default and first.ptr != 0 and first != second
    with first:
        assert gpukit.get_current_stream() == first
        with second:
            assert gpukit.get_current_stream() == second
        assert gpukit.get_current_stream() == first
    assert gpukit.get_current_stream() is gpukit.Stream.null


def test_two_streams_with_an_event_dependency_as_in_the_notebook(histogram, rng):
    size = 50_000
    values = rng.integers(0, 256, size).astype(numpy.int32)
    source, output = gpukit.asarray(values), gpukit.zeros(256, numpy.int32)
    grid = math.ceil(size / 256)
    stream_one, stream_two, sync_point = gpukit.Stream(), gpukit.Stream(), gpukit.Event()
    with stream_one:
        histogram(grid, 256, (source, output, size))
        sync_point.record(stream=stream_one)
        histogram(grid, 256, (source, output, size))
    with stream_two:
        stream_two.wait_event(sync_point)
        histogram(grid, 256, (source, output, size))
    stream_one.synchronize()
    stream_two.synchronize()
    assert stream_one.done() and stream_two.done() and sync_point.done()
    numpy.testing.assert_array_equal(output.get(), 3 * numpy.bincount(values, minlength=256))


def test_copies_on_a_stream_return_complete_data(rng):
    values = rng.uniform(-1, 1, 10_000)
    stream = gpukit.Stream()
    with stream:
        array = gpukit.asarray(values)
        numpy.testing.assert_array_equal(array.get(), values)
    numpy.testing.assert_array_equal(array.get(stream=stream), values)


def test_events_time_the_work_between_them(histogram, rng):
    size = 200_000
    values = rng.integers(0, 256, size).astype(numpy.int32)
    source, output = gpukit.asarray(values), gpukit.zeros(256, numpy.int32)
    start, end = gpukit.Event(), gpukit.Event()
    assert not start.is_recorded
    start.record()
    histogram(math.ceil(size / 256), 256, (source, output, size))
    end.record()
    end.synchronize()
    elapsed = gpukit.get_elapsed_time(start, end)
    assert elapsed >= 0 and elapsed == pytest.approx(start.elapsed_time(end), abs=1e-3)
    assert start.is_recorded and "recorded" in repr(end)


def test_elapsed_time_needs_timing_events():
    start, end = gpukit.Event(timing=False), gpukit.Event(timing=False)
    start.record()
    end.record()
    end.synchronize()
    with pytest.raises(gpukit.GpukitError, match="timing"):
        gpukit.get_elapsed_time(start, end)


def test_stream_record_makes_an_event_and_a_wrong_stream_type_is_refused():
    stream = gpukit.Stream()
    event = stream.record()
    event.synchronize()
    assert event.done()
    with pytest.raises(TypeError, match="gpukit.Stream"):
        event.record("stream")


def test_use_sets_the_current_stream_outside_with_blocks():
    stream = gpukit.Stream()
    try:
        assert stream.use() is stream
        assert gpukit.get_current_stream() == stream
    finally:
        gpukit.Stream.null.use()
    assert gpukit.get_current_stream() is gpukit.Stream.null
