"""gpukit bench: a quick run on the simulator writes a table, JSON and plots, every result checked
against NumPy before it was timed; bad names, sizes that do not fit, a wrong result and the
comparison of two runs."""

import json

import numpy
import pytest

from cli_helpers import assert_one_line_error, run_gpukit, run_in_process
from gpukit.cli.bench import libraries, measure, workloads

SOME = "add,sum,histogram,matmul,conv2d 5x5,random,fft c2c complex64,transfer,streaming,launch"


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    """One `gpukit bench --quick` on the simulator over a workload of each group, with JSON and plots."""
    folder = tmp_path_factory.mktemp("bench")
    completed = run_gpukit("bench", "--backend", "sim", "--quick", "--workloads", SOME, "--json",
                           folder / "run.json", "--plots", folder / "figures")
    return completed, folder


def test_a_quick_run_checks_every_result_against_numpy_before_timing_it(quick_run):
    completed, folder = quick_run
    assert completed.returncode == 0, completed.stdout + completed.stderr
    document = json.loads((folder / "run.json").read_text())
    assert document["schema"] == "gpukit-bench/1"
    assert document["command"][:2] == ["gpukit", "bench"]
    environment = document["environment"]
    assert environment["simulated"] and environment["cpu_cores"] >= 1
    assert set(environment["libraries"]) == {"gpukit", "numpy"}
    assert set(document["skipped_libraries"]) == {"cupy", "torch"}
    assert all(document["ceilings"][name] > 0 for name in ("copy", "blas", "h2d"))
    results = document["results"]
    chosen = {w.name for w in workloads.WORKLOADS if w.name in SOME.split(",") or w.group in SOME.split(",")}
    assert {r["workload"] for r in results} == chosen
    for r in results:
        assert r["verified"], r
        assert r["seconds"] > 0 and r["low"] <= r["seconds"] <= r["high"] and r["runs"] >= 1, r
        assert r["rate"] == pytest.approx(r["amount"] / r["seconds"])
        assert r["ns_per_element"] == pytest.approx(1e9 * r["seconds"] / r["elements"])  # the simulator's figure
    sizes = {r["size"] for r in results if r["workload"] == "add"}
    assert sizes == set(workloads.VECTOR.simulator_quick)
    for name in ("add", "matmul f32", "histogram 256 bins", "ns/element"):
        assert name in completed.stdout


def test_the_plots_are_written(quick_run):
    _, folder = quick_run
    figures = folder / "figures"
    for name in ("add.png", "matmul-f32.png", "ceiling.png"):
        assert (figures / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name


def test_unknown_workloads_and_libraries_name_the_known_ones(capsys):
    status, _, err = run_in_process(capsys, "bench", "--backend", "sim", "--workloads", "add,nonesuch")
    assert status == 2
    assert_one_line_error(err, "gpukit bench", "unknown workload 'nonesuch'", "sqrt", "the groups", "reduction")
    status, _, err = run_in_process(capsys, "bench", "--backend", "sim", "--libs", "gpukit,jax")
    assert status == 2
    assert_one_line_error(err, "gpukit bench", "unknown library 'jax'", "cupy", "torch")
    status, _, err = run_in_process(capsys, "bench", "--sizes", "2^x")
    assert status == 2 and "'2^x' is not a size" in err


def test_a_size_that_does_not_fit_is_a_note_not_a_crash():
    # A process of its own: this one may already run on another backend, and a process picks one once.
    completed = run_gpukit("bench", "--backend", "sim", "--quick", "--workloads", "add", "--libs", "gpukit,numpy",
                           "--sizes", "2^50")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "does not fit" in completed.stdout


def test_a_wrong_result_is_reported_and_not_timed():
    wrong = workloads.Workload("add, but the reference subtracts", "elementwise", workloads.VECTOR, workloads.BYTES,
                               lambda n: 12 * n, lambda n, rng: (numpy.ones(n, numpy.float32),) * 2,
                               lambda lib, x, y: (lambda: x + y), lambda x, y: x - y)
    library = libraries.Numpy()
    host = wrong.make(100, numpy.random.default_rng(0))
    row = measure.measure(wrong, library, 100, host, wrong.reference(*host), measure.QUICK)
    assert not row.verified and row.seconds is None and row.runs == 0
    assert row.note.startswith("wrong result, not timed: differs from NumPy's by 2")


def _run_document(device, seconds):
    results = [{"workload": "add", "size": 1024, "size_text": "2^10", "library": "gpukit", "seconds": seconds}]
    return {"schema": "gpukit-bench/1", "environment": {"device": device}, "results": results}


def test_compare_marks_regressions_and_warns_across_devices(tmp_path, capsys):
    old, same, slower, elsewhere = (tmp_path / f"{name}.json" for name in ("old", "same", "slower", "elsewhere"))
    old.write_text(json.dumps(_run_document("GPU 0: H200", 1e-3)))
    same.write_text(json.dumps(_run_document("GPU 0: H200", 1e-3)))
    slower.write_text(json.dumps(_run_document("GPU 0: H200", 2e-3)))
    elsewhere.write_text(json.dumps(_run_document("GPU 0: H100", 1e-3)))
    status, out, err = run_in_process(capsys, "bench", "--compare", old, same)
    assert status == 0 and "1.00x" in out and err == ""
    status, out, _ = run_in_process(capsys, "bench", "--compare", old, slower)
    assert status == 1 and "0.50x  regression" in out
    status, _, err = run_in_process(capsys, "bench", "--compare", old, elsewhere)
    assert "warning: the runs were on different devices" in err
    (tmp_path / "other.json").write_text("{}")
    status, _, err = run_in_process(capsys, "bench", "--compare", old, tmp_path / "other.json")
    assert status == 2
    assert_one_line_error(err, "gpukit bench", "not a gpukit bench result")


def test_devices_times_copies_all_reduce_and_the_exercise_over_every_device(tmp_path):
    """--devices on the simulator's devices (conftest.py: four): every study has gpukit's row, and
    the exercise its one-device row beside it; the JSON holds the same rows."""
    completed = run_gpukit("bench", "--backend", "sim", "--devices", "--json", tmp_path / "devices.json")
    assert completed.returncode == 0, completed.stderr
    rows = json.loads((tmp_path / "devices.json").read_text())["several_devices"]
    studies = {(row["study"], row["library"]) for row in rows}
    assert ("peer copy 0->1", "gpukit") in studies
    assert any(study.startswith("all-reduce sum x") and library == "gpukit" for study, library in studies)
    for exercise in ("sum", "histogram 256 bins", "conv2d 5x5 (results stay split)"):
        assert (exercise, "gpukit, 1 device") in studies
        assert any(study == exercise and library.endswith(" devices") for study, library in studies)
    assert all(row["seconds"] > 0 and row["rate"] > 0 for row in rows)


def test_devices_needs_two_devices():
    completed = run_gpukit("bench", "--backend", "sim", "--devices", env={"GPUKIT_SIM_DEVICES": "1"})
    assert completed.returncode != 0
    assert_one_line_error(completed.stderr, "gpukit bench", "--devices needs two devices")
