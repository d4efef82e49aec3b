"""bench/dask_bench.py at tiny sizes on the simulator: it runs, checks its sums and reports every row
(scripts/gpu-check runs it at its GPU sizes)."""

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("dask.array")
pytest.importorskip("distributed")

from conftest import REPOSITORY, on_simulator  # noqa: E402


@pytest.mark.skipif(not on_simulator(), reason="on a GPU scripts/gpu-check runs the benchmark at its sizes")
def test_the_benchmark_runs_at_tiny_sizes(tmp_path):
    report = tmp_path / "dask_bench.json"
    command = [sys.executable, str(REPOSITORY / "bench" / "dask_bench.py"), "--size-log2", "14", "--chunk-log2",
               "12", "13", "--repeats", "1", "--warmup", "1", "--cluster", "--json", str(report)]
    completed = subprocess.run(command, capture_output=True, text=True, timeout=300, env=os.environ.copy())
    assert completed.returncode == 0, completed.stdout + completed.stderr
    rows = {(row["library"], row["how"]) for row in json.loads(report.read_text())["rows"]}
    assert {("gpukit", "direct"), ("gpukit", "dask, chunks 2^12"), ("gpukit", "dask, chunks 2^13"),
            ("gpukit", "LocalCluster(1 worker), chunks 2^13")} <= rows
