"""examples/python: every example runs as its own program, checks its result and says so.

On the simulator the examples run at their --quick sizes (CI); on a GPU (scripts/gpu-check) at
their full sizes. Each must exit 0 and end with its summary line, ending in ': correct'.
"""

import os
import subprocess
import sys

import pytest

import gpukit
from conftest import REPOSITORY, on_simulator

EXAMPLES_DIR = REPOSITORY / "examples" / "python"

# Each example and the start of the summary line it prints last.
EXAMPLES = {
    "first_kernel.py": "first kernel: ",
    "vector_add_any_size.py": "vector add of ",
    "memory_spaces.py": "memory spaces: ",
    "histogram_atomics.py": "histogram of ",
    "constant_memory.py": "constant memory: ",
    "streams_and_events.py": "streams and events: ",
    "reduction.py": "reduction: ",
    "matmul_shared_memory.py": "matmul ",
    "convolution_1d.py": "1-D convolution of ",
    "convolution_2d.py": "2-D convolution of ",
    "signal_processing.py": "signal processing: ",
    "saxpy_pycuda_style.py": "saxpy in PyCUDA style ",
    "dask_histogram.py": "dask histogram of ",
    "multi_gpu_course.py": "multi-GPU course exercise of ",
}
# Examples that need packages gpukit does not: they skip, naming the package, where it is missing.
NEEDS_MODULES = {"dask_histogram.py": ("dask.array", "distributed")}


def test_every_example_is_run_here():
    on_disk = {path.name for path in EXAMPLES_DIR.glob("*.py") if not path.name.startswith("_")}
    assert on_disk == set(EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_checks_its_result_and_says_it_is_correct(name):
    for module in NEEDS_MODULES.get(name, ()):
        pytest.importorskip(module)
    command = [sys.executable, str(EXAMPLES_DIR / name), "--backend", gpukit.backend()]
    if on_simulator():
        command.append("--quick")
    # The compile cache conftest chose is inherited through the environment.
    completed = subprocess.run(command, capture_output=True, text=True, timeout=600, env=os.environ.copy())
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output
    summary = completed.stdout.strip().splitlines()[-1]
    assert summary.startswith(EXAMPLES[name]) and summary.endswith(": correct"), output


# The course's Numba and PyCUDA programs, ported by changing their imports
# (examples/python/numba_style, examples/python/pycuda_style).
PORTED = sorted(f"{path.parent.name}/{path.name}" for style in ("numba_style", "pycuda_style")
                for path in (EXAMPLES_DIR / style).glob("*.py"))


@pytest.mark.parametrize("name", PORTED)
def test_ported_program_runs_and_says_it_is_correct(name):
    command = [sys.executable, str(EXAMPLES_DIR / name)] + (["--quick"] if on_simulator() else [])
    environment = dict(os.environ, GPUKIT_BACKEND=gpukit.backend())
    completed = subprocess.run(command, capture_output=True, text=True, timeout=600, env=environment)
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output
    assert completed.stdout.strip().splitlines()[-1].endswith(": correct"), output
