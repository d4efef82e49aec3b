"""gpukit cache info|clear, each in a process of its own with a cache directory of its own."""

import json
import os
import subprocess
import sys

import pytest

from cli_helpers import assert_one_line_error, run_gpukit

KERNEL = 'extern "C" __global__ void touch(float* x) { x[threadIdx.x] = 1.0f; }'


@pytest.fixture
def cache_dir(tmp_path):
    return tmp_path / "cache"


def compile_in_a_new_process(cache_dir, source=KERNEL):
    subprocess.run([sys.executable, "-c", f"import gpukit; gpukit.RawKernel({source!r}, 'touch')"], check=True,
                   env=environment(cache_dir))


def environment(cache_dir):
    return {**os.environ, "GPUKIT_CACHE_DIR": str(cache_dir)}


def cache_info(cache_dir, *extra):
    result = run_gpukit("cache", "info", "--json", *extra, env={"GPUKIT_CACHE_DIR": str(cache_dir)})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_new_cache_is_empty(cache_dir):
    info = cache_info(cache_dir)
    assert info["directory"] == str(cache_dir)
    assert info["disk_enabled"] is True
    assert (info["entries"], info["bytes"], info["hits"], info["misses"]) == (0, 0, 0, 0)


def test_entries_hits_and_misses_add_up_over_processes(cache_dir):
    compile_in_a_new_process(cache_dir)  # compiled: a miss
    compile_in_a_new_process(cache_dir)  # found on disk: a hit
    compile_in_a_new_process(cache_dir, KERNEL.replace("1.0f", "2.0f"))  # another miss
    info = cache_info(cache_dir)
    assert (info["entries"], info["hits"], info["misses"]) == (2, 1, 2)
    assert info["bytes"] > 0
    text = run_gpukit("cache", "info", env={"GPUKIT_CACHE_DIR": str(cache_dir)}).stdout
    assert f"compile cache     {cache_dir}\n" in text
    assert "    holds           2 compiled modules, " in text
    assert "    lookups         1 hit, 2 misses (compiles), since it was created or cleared\n" in text


def test_clear_deletes_the_entries_and_the_counts(cache_dir):
    compile_in_a_new_process(cache_dir)
    compile_in_a_new_process(cache_dir)
    result = run_gpukit("cache", "clear", env={"GPUKIT_CACHE_DIR": str(cache_dir)})
    assert result.returncode == 0
    assert result.stdout.startswith(f"Cleared the compile cache in {cache_dir}: deleted 1 entry (")
    info = cache_info(cache_dir)
    assert (info["entries"], info["bytes"], info["hits"], info["misses"]) == (0, 0, 0, 0)


def test_a_disabled_cache_says_so(cache_dir):
    result = run_gpukit("cache", "info", env={"GPUKIT_CACHE_DIR": str(cache_dir), "GPUKIT_CACHE_DISABLE": "1"})
    assert "    turned off      GPUKIT_CACHE_DISABLE is set" in result.stdout


def test_without_a_directory_the_cache_is_in_memory_only(tmp_path):
    unset = {"GPUKIT_CACHE_DIR": None, "XDG_CACHE_HOME": None, "HOME": None}
    info = run_gpukit("cache", "info", env=unset)
    assert info.stdout.startswith("compile cache     in memory only")
    cleared = run_gpukit("cache", "clear", env=unset)
    assert cleared.returncode == 0
    assert "There is no compile cache on disk to clear" in cleared.stdout


def test_an_action_is_required(cache_dir):
    result = run_gpukit("cache", env={"GPUKIT_CACHE_DIR": str(cache_dir)})
    assert result.returncode == 2
    assert_one_line_error(result.stderr, "gpukit cache", "{info,clear}")


def test_a_bad_cache_setting_is_one_line(cache_dir):
    result = run_gpukit("cache", "info", env={"GPUKIT_CACHE_DIR": str(cache_dir), "GPUKIT_CACHE_MAX_BYTES": "1GB"})
    assert result.returncode == 2
    assert_one_line_error(result.stderr, "gpukit cache", "GPUKIT_CACHE_MAX_BYTES must be a whole number of bytes")
