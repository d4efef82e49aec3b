"""gpukit._check: check mode from Python finds planted bugs and reports nothing on the fixed twins."""

import os
import subprocess
import sys

import numpy
import pytest

import gpukit

pytestmark = pytest.mark.needs_simulator

OVERSHOOTING_WRITE = r"""
extern "C" __global__ void scale(const float* in, float* out, const int size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * in[i];
}"""
GUARDED_WRITE = OVERSHOOTING_WRITE.replace("  out[i]", "  if (i < size) out[i]")

SHARED_RACE = r"""
extern "C" __global__ void reverse_blocks(float* data) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = data[i];
  data[i] = tile[blockDim.x - 1 - threadIdx.x];
}"""
SHARED_SYNCED = SHARED_RACE.replace("  data[i] =", "  __syncthreads();\n  data[i] =")


@pytest.fixture(autouse=True)
def clean_report():
    gpukit.take_check_report()
    yield
    gpukit.set_raise_on_hazard(False)
    gpukit.take_check_report()


def run_scale(source, n=1000):
    kernel = gpukit.RawKernel(source, "scale", check="memcheck")
    values = numpy.random.default_rng(3).uniform(-1, 1, n).astype(numpy.float32)
    out = gpukit.zeros(n, numpy.float32)
    kernel((n + 255) // 256, 256, (gpukit.asarray(values), out, n))
    return values, out


def test_memcheck_finds_an_out_of_bounds_write_and_names_block_thread_and_line():
    values, out = run_scale(OVERSHOOTING_WRITE)
    report = gpukit.take_check_report()
    assert not report.clean and bool(report) and len(report) >= 1
    hazards = [hazard for hazard in report if hazard.tool == "memcheck"]
    assert hazards, report.text()
    read = next(h for h in hazards if "read" in h.what)
    assert read.what == "Invalid __global__ read of size 4 bytes"
    assert (read.kernel, read.file, read.line) == ("scale", "kernel.cu", 4)
    assert read.occurrences == 24 and read.block == (3, 0, 0) and read.thread[0] >= 232
    assert "0 bytes after the nearest allocation" in read.detail
    text = str(report)
    assert "========= Invalid __global__" in text and "at scale in kernel.cu:4" in text
    assert "ERROR SUMMARY" in report.text()
    # The stopped threads were the ones past the end: every element is still right.
    numpy.testing.assert_array_equal(out.get(), 2 * values)


def test_memcheck_reports_nothing_on_the_guarded_twin():
    values, out = run_scale(GUARDED_WRITE)
    report = gpukit.take_check_report()
    assert report.clean, report.text()
    numpy.testing.assert_array_equal(out.get(), 2 * values)


def test_one_launch_of_a_fast_mode_kernel_can_ask_for_check_mode():
    kernel = gpukit.RawKernel(SHARED_RACE, "reverse_blocks")
    values = numpy.random.default_rng(5).uniform(-1, 1, 512).astype(numpy.float32)
    kernel(2, 256, (gpukit.asarray(values),))
    assert gpukit.take_check_report().clean  # not checked: nothing to report
    kernel(2, 256, (gpukit.asarray(values),), check="racecheck")
    report = gpukit.take_check_report()
    assert report and {hazard.tool for hazard in report} == {"racecheck"}, report.text()
    with pytest.raises(ValueError, match="Unknown check tool 'racechek'"):
        kernel(2, 256, (gpukit.asarray(values),), check="racechek")


def run_reverse(source):
    kernel = gpukit.RawKernel(source, "reverse_blocks", check=["racecheck"])
    values = numpy.random.default_rng(4).uniform(-1, 1, 512).astype(numpy.float32)
    data = gpukit.asarray(values)
    kernel(2, 256, (data,))
    return values, data


def test_racecheck_finds_the_shared_memory_race_of_a_missing_barrier():
    run_reverse(SHARED_RACE)
    report = gpukit.take_check_report()
    races = [hazard for hazard in report.hazards if hazard.tool == "racecheck"]
    assert races, report.text()
    assert races[0].kernel == "reverse_blocks"
    assert {races[0].line, races[0].other_line} == {5, 6}
    assert "__shared__" in races[0].what or "shared" in races[0].detail
    assert "Race reported between" in report.text()


def test_racecheck_reports_nothing_once_the_barrier_is_there():
    values, data = run_reverse(SHARED_SYNCED)
    report = gpukit.take_check_report()
    assert report.clean, report.text()
    numpy.testing.assert_array_equal(data.get(), values.reshape(2, 256)[:, ::-1].reshape(-1))


CONSTANT_TABLE = r"""
__constant__ float table[4];
extern "C" __global__ void k(float* p, int n) { p[0] = table[n]; }   // launched with n = 6
"""


def test_memcheck_names_the_constant_table_an_index_runs_past():
    module = gpukit.RawModule(CONSTANT_TABLE, check="memcheck")
    values = numpy.random.default_rng(12).uniform(-1, 1, 4).astype(numpy.float32)
    module.get_global("table", numpy.float32).set(values)
    kernel = module.get_function("k")
    out = gpukit.asarray(numpy.array([7.5], numpy.float32))
    kernel((1,), (1,), (out, numpy.int32(6)))
    gpukit.synchronize()
    report = gpukit.take_check_report()
    assert len(report.hazards) == 1, report.text()
    hazard = report.hazards[0]
    assert hazard.tool == "memcheck"
    assert hazard.what == "Invalid __constant__ read of size 4 bytes"
    assert "8 bytes after the end of __constant__ table" in hazard.detail
    assert "16 bytes): offset 24 of it" in hazard.detail
    assert (hazard.kernel, hazard.file, hazard.line) == ("k", "kernel.cu", 3)
    assert hazard.block == (0, 0, 0) and hazard.thread == (0, 0, 0)
    assert hazard.size == 4 and not hazard.is_write
    assert "Invalid __constant__ read" in report.text() and "at k in kernel.cu:3" in report.text()
    assert out.get()[0] == numpy.float32(7.5)  # the thread stopped before its store
    for n in range(4):  # in bounds: the table's values, and nothing to report
        kernel((1,), (1,), (out, numpy.int32(n)))
        assert out.get()[0] == values[n]
    assert gpukit.take_check_report().clean


def test_gpukit_check_alone_names_the_constant_table_too():
    script = f"""
import numpy, gpukit
kernel = gpukit.RawModule(r'''{CONSTANT_TABLE}''').get_function("k")  # no check= here
out = gpukit.zeros(1, numpy.float32)
kernel((1,), (1,), (out, numpy.int32(6)))
report = gpukit.take_check_report()
print(len(report.hazards), report.hazards[0].what)
print(report.hazards[0].detail)
"""
    result = run_checked(script)
    assert result.returncode == 0, result.stderr
    count_and_what, detail = result.stdout.strip().splitlines()
    assert count_and_what == "1 Invalid __constant__ read of size 4 bytes"
    assert "8 bytes after the end of __constant__ table" in detail and "offset 24 of it" in detail


def test_raise_on_hazard_raises_hazard_error_at_the_next_synchronisation():
    gpukit.set_raise_on_hazard(True)
    assert gpukit.raise_on_hazard()
    with pytest.raises(gpukit.HazardError) as caught:
        run_scale(OVERSHOOTING_WRITE)
        gpukit.synchronize()
    hazard = caught.value.hazard
    assert isinstance(hazard, gpukit.Hazard)
    assert hazard.kernel == "scale" and hazard.line == 4
    assert "Invalid __global__" in str(caught.value) and "kernel.cu:4" in str(caught.value)
    gpukit.set_raise_on_hazard(False)
    assert not gpukit.take_check_report().clean  # the hazards stay in the report


def test_gpukit_check_turns_check_mode_on_for_every_module():
    script = f"""
import numpy, gpukit
print(gpukit.check_tools_from_environment())
kernel = gpukit.RawKernel('''{OVERSHOOTING_WRITE}''', "scale")  # no check= here
out = gpukit.zeros(100, numpy.float32)
kernel(1, 128, (gpukit.asarray(numpy.ones(100, numpy.float32)), out, 100))
report = gpukit.take_check_report()
print(len(report.hazards), report.hazards[0].what)
"""
    environment = {**os.environ, "GPUKIT_BACKEND": "sim", "GPUKIT_CHECK": "memcheck"}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=environment)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0] == "memcheck"
    assert lines[1] == "1 Invalid __global__ read of size 4 bytes"  # the reading thread stops before writing


PRINTED_BY_ITSELF = f"""
import numpy, gpukit
kernel = gpukit.RawKernel('''{OVERSHOOTING_WRITE}''', "scale")  # no check=, no report asked for
values = numpy.random.default_rng(8).uniform(-1, 1, 1000).astype(numpy.float32)
out = gpukit.zeros(1000, numpy.float32)
kernel(4, 256, (gpukit.asarray(values), out, 1000))
assert (out.get() == 2 * values).all()  # a synchronisation: the hazards are printed here
print("after the copy")
gpukit.synchronize()  # nothing new to print
"""


def run_checked(script, **environment):
    environment = {**os.environ, "GPUKIT_BACKEND": "sim", "GPUKIT_CHECK": "memcheck", **environment}
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=environment,
                          timeout=600)


def test_gpukit_check_alone_prints_the_report_on_stderr_once_with_a_summary_at_exit():
    result = run_checked(PRINTED_BY_ITSELF)
    assert result.returncode == 0, result.stderr  # printing never fails the program
    assert result.stdout == "after the copy\n"
    lines = result.stderr.splitlines()
    assert lines.count("========= Invalid __global__ read of size 4 bytes") == 1, result.stderr
    assert "=========     at scale in kernel.cu:4" in lines
    assert "=========     (24 times from this line)" in lines
    assert lines[-1] == "========= ERROR SUMMARY: 24 errors (1 distinct)", result.stderr
    assert result.stderr.count("ERROR SUMMARY") == 1


def test_the_printed_report_is_still_taken_by_the_program_and_not_printed_again():
    script = PRINTED_BY_ITSELF + """
report = gpukit.take_check_report()
print(len(report.hazards), report.hazards[0].line, gpukit.print_check_report())
"""
    result = run_checked(script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["after the copy", "1 4 True"]
    assert result.stderr.count("========= Invalid __global__") == 1, result.stderr
    assert result.stderr.splitlines()[-1] == "========= ERROR SUMMARY: 24 errors (1 distinct)"


def test_a_clean_program_prints_only_the_summary():
    result = run_checked(PRINTED_BY_ITSELF.replace("  out[i]", "  if (i < size) out[i]"))
    assert result.returncode == 0, result.stderr
    assert result.stderr == "========= ERROR SUMMARY: 0 errors (0 distinct)\n"


def test_the_report_on_stderr_can_be_turned_off_and_raise_changes_the_exit_status():
    quiet = run_checked("import gpukit\ngpukit.set_print_check_report(False)\n" + PRINTED_BY_ITSELF)
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    raising = run_checked(PRINTED_BY_ITSELF, GPUKIT_CHECK_RAISE="1")
    assert raising.returncode == 1 and "HazardError" in raising.stderr, raising.stderr
    assert raising.stderr.count("========= Invalid __global__ read of size 4 bytes") == 1, raising.stderr
    unset = run_checked(PRINTED_BY_ITSELF, GPUKIT_CHECK="")
    assert unset.returncode == 0 and unset.stderr == "", unset.stderr


def test_set_print_check_report_round_trips():
    before = gpukit.print_check_report()
    try:
        gpukit.set_print_check_report(not before)
        assert gpukit.print_check_report() is (not before)
    finally:
        gpukit.set_print_check_report(before)
