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


# --- the cache is private to its user ---------------------------------------------------------------

def shared_directory(tmp_path):
    """A directory anyone can write, like /tmp (mode 1777)."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    return shared


def test_info_shows_the_policy_and_a_new_directory_is_private(cache_dir):
    info = cache_info(cache_dir)
    assert info["refused"] is None
    assert "mode 0700" in info["policy"] and "skipped with a warning" in info["policy"]
    assert cache_dir.stat().st_mode & 0o7777 == 0o700
    text = run_gpukit("cache", "info", env={"GPUKIT_CACHE_DIR": str(cache_dir)}).stdout
    assert "    policy          private to you: created with mode 0700" in text


def test_a_chosen_directory_others_can_write_is_refused_with_a_clear_error(tmp_path):
    shared = shared_directory(tmp_path)
    info = cache_info(shared)
    assert f"The compile cache directory {shared}" in info["refused"] and "mode 1777" in info["refused"]
    text = run_gpukit("cache", "info", env={"GPUKIT_CACHE_DIR": str(shared)}).stdout
    assert f"    refused         The compile cache directory {shared}" in text
    compiled = subprocess.run([sys.executable, "-c", f"import gpukit; gpukit.RawKernel({KERNEL!r}, 'touch')"],
                              env=environment(shared), capture_output=True, text=True)
    assert compiled.returncode != 0
    last_line = compiled.stderr.strip().splitlines()[-1]
    assert last_line.startswith("gpukit.InvalidArgumentError: The compile cache directory ")  # a ValueError
    assert "mode 1777" in last_line
    assert list(shared.iterdir()) == []


def test_the_default_directory_falls_back_to_the_process_with_a_warning(tmp_path):
    shared = shared_directory(tmp_path)
    (shared / "gpukit").mkdir()
    (shared / "gpukit").chmod(0o777)
    env = {**os.environ, "XDG_CACHE_HOME": str(shared)}
    del env["GPUKIT_CACHE_DIR"]
    compiled = subprocess.run([sys.executable, "-c", f"import gpukit; gpukit.RawKernel({KERNEL!r}, 'touch')"],
                              env=env, capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stderr
    assert compiled.stderr.count("gpukit: warning: The compile cache directory") == 1
    assert "Compiled kernels are kept in this process only" in compiled.stderr
    assert list((shared / "gpukit").iterdir()) == []


def test_planted_entries_are_skipped_with_a_warning(cache_dir):
    compile_in_a_new_process(cache_dir)
    (entry,) = cache_dir.glob("*/*.gkc")
    target = cache_dir.parent / "elsewhere.gkc"
    entry.rename(target)
    entry.symlink_to(target)  # a link to a valid entry: not followed, compiled again
    compiled = subprocess.run([sys.executable, "-c", f"import gpukit; gpukit.RawKernel({KERNEL!r}, 'touch')"],
                              env=environment(cache_dir), capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stderr
    assert f"compile cache: skipped {entry} is a symbolic link" in compiled.stderr
    assert not entry.is_symlink()  # replaced by a fresh entry of ours
    info = cache_info(cache_dir)
    assert (info["hits"], info["misses"]) == (0, 2)
