"""Check mode on Python kernels: hazards name the Python file and line of both accesses."""

import inspect

import numpy
import pytest

import gpukit
from gpukit import cuda

pytestmark = pytest.mark.needs_simulator


def line_of(function, text):
    lines, first = inspect.getsourcelines(function.py_func)
    return first + next(k for k, line in enumerate(lines) if text in line)


@cuda.jit(check="racecheck")
def reverse_without_a_barrier(out):
    s = cuda.shared.array(64, numpy.float32)
    t = cuda.threadIdx.x
    s[t] = t  # the write
    out[t] = s[63 - t]  # the read, racing with another warp's write


@cuda.jit(check="racecheck")
def reverse_with_a_barrier(out):
    s = cuda.shared.array(64, numpy.float32)
    t = cuda.threadIdx.x
    s[t] = t
    cuda.syncthreads()
    out[t] = s[63 - t]


@cuda.jit(check="memcheck")
def unguarded_write(out):
    i = cuda.grid(1)
    out[i] = 1.0  # no i < out.size


@cuda.jit(check="synccheck")
def barrier_in_a_branch(out):
    t = cuda.threadIdx.x
    if t < 16:
        cuda.syncthreads()
    out[t] = t


def test_a_race_names_both_python_lines():
    out = gpukit.zeros(64, numpy.float32)
    reverse_without_a_barrier[1, 64](out)
    report = str(gpukit.take_check_report())
    write = line_of(reverse_without_a_barrier, "# the write")
    read = line_of(reverse_without_a_barrier, "# the read")
    assert f"test_jit_check.py:{write}" in report and f"test_jit_check.py:{read}" in report
    assert "Race" in report


def test_the_fixed_kernel_reports_nothing():
    out = gpukit.zeros(64, numpy.float32)
    reverse_with_a_barrier[1, 64](out)
    assert "0 errors" in str(gpukit.take_check_report())
    numpy.testing.assert_array_equal(out.get(), numpy.arange(64)[::-1])


def test_an_out_of_bounds_write_names_its_python_line_and_thread():
    out = gpukit.zeros(10, numpy.float32)
    unguarded_write[1, 32](out)
    report = str(gpukit.take_check_report())
    assert f"test_jit_check.py:{line_of(unguarded_write, 'out[i] = 1.0')}" in report
    assert "Invalid __global__ write of size 4 bytes" in report and "thread (10, 0, 0)" in report


def test_a_divergent_barrier_names_its_python_line():
    out = gpukit.zeros(32, numpy.float32)
    barrier_in_a_branch[1, 32](out)
    gpukit.synchronize()
    report = str(gpukit.take_check_report())
    assert "Barrier error detected" in report
    assert f"test_jit_check.py:{line_of(barrier_in_a_branch, 'cuda.syncthreads()')}" in report
