"""gpukit._benchmark: CPU and device times of repeated runs, as cupyx.profiler.benchmark gives them."""

import numpy

import course
import gpukit


def test_benchmark_times_a_kernel_launch_on_host_and_device(rng):
    kernel = gpukit.RawKernel(course.VECTOR_ADD, "vector_add")
    size = 2048
    a, b = gpukit.asarray(rng.uniform(-1, 1, size).astype(numpy.float32)), gpukit.asarray(
        rng.uniform(-1, 1, size).astype(numpy.float32))
    c = gpukit.zeros(size, numpy.float32)
    result = gpukit.benchmark(kernel, ((size // 32, 1, 1), (32, 1, 1), (a, b, c, size)), n_repeat=10, n_warmup=2)
    assert result.name == "vector_add"
    assert result.cpu_times.shape == (10,) and result.gpu_times.shape == (1, 10)
    assert (result.cpu_times > 0).all() and (result.gpu_times >= 0).all()
    assert numpy.average(result.gpu_times) >= 0  # as the course reads it
    text = str(result)
    assert text.startswith("vector_add") and "CPU:" in text and " us" in text
    assert ("GPU-0:" if gpukit.backend() == "cuda" else "SIM-0:") in text
    numpy.testing.assert_array_equal(c.get(), a.get() + b.get())


def test_benchmark_stops_at_max_duration_and_takes_kwargs():
    calls = []

    def work(value, scale=1):
        calls.append(value * scale)

    result = gpukit.benchmark(work, (2,), {"scale": 3}, n_repeat=1000, n_warmup=0, max_duration=0.0, name="work")
    assert result.cpu_times.size == 1 and calls == [6]
    assert repr(result) == "<gpukit.BenchmarkResult work: 1 runs>"
