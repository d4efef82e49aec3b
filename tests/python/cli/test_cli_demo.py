"""gpukit demo: the course's kernels, run end to end against NumPy; the table; a wrong result
exits 1."""

import io
import json
import re

import numpy
import pytest

import course
import gpukit
from cli_helpers import run_gpukit, run_in_process
from gpukit.cli import demo, workloads
from gpukit.cli._progress import Progress
from gpukit.cli.workloads.workload import mismatch_beyond

WORKLOAD_NAMES = [workload.name for workload in workloads.COURSE_ORDER]


@pytest.fixture(scope="module")
def quick_run():
    """One `gpukit demo --quick --json` run, as a user starts it, shared by the tests that read it."""
    return run_gpukit("demo", "--quick", "--json")


def test_every_workload_runs_and_matches_numpy(quick_run):
    assert quick_run.returncode == 0, quick_run.stdout + quick_run.stderr
    assert quick_run.stderr == ""  # no progress line: stderr is not a terminal here
    report = json.loads(quick_run.stdout)
    assert report["sizes"] == "quick"
    assert [workload["name"] for workload in report["workloads"]] == WORKLOAD_NAMES
    for workload in report["workloads"]:
        assert workload["correct"] is True and workload["mismatch"] is None, workload
        assert workload["builtin_correct"] is True and workload["builtin_mismatch"] is None, workload
        assert workload["builtin_seconds"] > 0
        assert workload["numpy_seconds"] > 0 and workload["kernel_seconds"] > 0
        assert workload["device_with_copies_seconds"] > 0
        assert workload["speedup"] == pytest.approx(workload["numpy_seconds"] / workload["kernel_seconds"])
        assert workload["rate_unit"] in ("B/s", "FLOP/s")


def test_the_table_has_a_row_per_workload(capsys):
    status, out, _ = run_in_process(capsys, "demo", "--quick")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("gpukit demo: the course's workloads on ")
    assert lines[1] == "Quick run: tiny sizes, one run each; the times say little."
    header = next(line for line in lines if line.startswith("workload "))
    assert header.split() == ["workload", "size", "NumPy", "device+copies", "kernels", "speed-up", "achieved",
                              "built-in", "result"]
    rows = lines[lines.index(header) + 1:lines.index(header) + 1 + len(WORKLOAD_NAMES)]
    for name, row in zip(WORKLOAD_NAMES, rows):
        assert row.startswith(name)
        assert re.search(r"\d+(\.\d+)?x +[\d.]+ [kMGT]?(B/s|FLOP/s) +[\d.]+ [mun]?s +ok$", row), row
    assert lines[-2] == f"All {len(WORKLOAD_NAMES)} results match NumPy's."
    assert lines[-1].endswith("gpukit bench --quick")


def test_the_simulator_says_what_a_gpu_would_run():
    simulator = gpukit.all_devices()[-1]
    header = demo.header(simulator, demo.SIMULATOR_PLAN)
    assert "sizes that take about a minute on two cores" in header
    assert "2^26-element vectors and 4096x4096 matrices" in header


class _VectorSubtract(workloads.VectorAdd):
    """The course's vector add with a planted mistake: it subtracts."""

    def __init__(self, sizes, rng):
        super().__init__(sizes, rng)
        source = course.VECTOR_ADD.replace("A[item] + B[item]", "A[item] - B[item]")
        self.kernel = gpukit.RawKernel(source, "vector_add")


def test_a_wrong_result_is_named_and_exits_1(capsys, monkeypatch):
    monkeypatch.setattr(workloads, "COURSE_ORDER", (_VectorSubtract, workloads.Saxpy))
    status, out, _ = run_in_process(capsys, "demo", "--quick")
    assert status == 1
    assert re.search(r"^vector add .* WRONG$", out, re.M)
    assert re.search(r"^saxpy .* ok$", out, re.M)
    assert "1 of 2 results differ from NumPy's:\n  vector add: element [" in out


def test_mismatches_name_the_worst_element():
    expected = numpy.array([1.0, 2.0, 3.0])
    assert mismatch_beyond(expected.copy(), expected, 0.0) is None
    assert mismatch_beyond(expected + 1e-7, expected, 1e-6) is None
    message = mismatch_beyond(numpy.array([1.0, 2.5, 3.1]), expected, 0.2)
    assert message.startswith("element [1] is 2.5, NumPy says 2.0")
    assert "nan" in mismatch_beyond(numpy.array([1.0, numpy.nan, 3.0]), expected, 1.0)
    assert mismatch_beyond(numpy.zeros(2), expected, 1.0) == "shape (2,) instead of (3,)"


def test_progress_is_drawn_on_a_terminal_only():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal, log = Terminal(), io.StringIO()
    for stream in (terminal, log):
        with Progress(3, stream) as progress:
            progress.show(2, "sum: timing the kernels")
    assert terminal.getvalue() == "\r\033[K[2/3] sum: timing the kernels\r\033[K"
    assert log.getvalue() == ""
