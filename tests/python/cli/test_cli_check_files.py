"""gpukit check and files: it leaves nothing in $TMPDIR (the simulator's files, check mode's included,
live in a private directory of the process that goes when it exits; it once left
/tmp/gpukit-kernel-*.so), never blocks on a FIFO given as the source, and refuses in one line a cache
or keep directory that others can write."""

import os
import random

import pytest

from cli_helpers import EXAMPLES, assert_one_line_error, run_gpukit

HISTOGRAM = ["--kernel", "histogram", "--grid", "8", "--block", "256", "--arg", "int32[2000]:random:0:16", "--arg",
             "int32[16]", "--arg", "int32:2000"]


def test_gpukit_check_leaves_nothing_in_tmpdir(tmp_path):
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    result = run_gpukit("check", EXAMPLES / "histogram_non_atomic.cu", *HISTOGRAM, env={"TMPDIR": str(tmpdir)})
    assert result.returncode == 1, result.stderr  # the race is found
    assert "race" in result.stdout.lower(), result.stdout
    assert list(tmpdir.iterdir()) == []



def test_a_fifo_or_a_device_given_as_the_source_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "kernel.cu"
    os.mkfifo(fifo)  # nobody writes it: reading it would block for ever
    for path, kind in ((fifo, "a FIFO"), ("/dev/zero", "a character device")):
        result = run_gpukit("check", path, *HISTOGRAM, timeout=120)
        assert result.returncode == 2
        assert_one_line_error(result.stderr, "gpukit check", f"{path} is not a regular file ({kind})")


def test_a_folder_given_as_the_source_is_one_line(tmp_path):
    folder = tmp_path / "kernels.cu"
    folder.mkdir()
    result = run_gpukit("check", folder, *HISTOGRAM)
    assert result.returncode == 2
    assert_one_line_error(result.stderr, "gpukit check", f"{folder} is a folder; give the .cu file inside it")


def test_a_source_that_is_not_text_is_one_line(tmp_path):
    source = tmp_path / "kernel.cu"
    source.write_bytes(bytes(random.Random().randrange(128, 256) for _ in range(64)))
    result = run_gpukit("check", source, *HISTOGRAM)
    assert result.returncode == 2
    assert_one_line_error(result.stderr, "gpukit check", f"cannot read {source}")


@pytest.mark.parametrize("variable", ["GPUKIT_CACHE_DIR", "GPUKIT_SIM_KEEP"])
def test_a_directory_others_can_write_is_refused_in_one_line(tmp_path, variable):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    # A fresh cache: GPUKIT_SIM_KEEP is read when the simulator compiles.
    environment = {"GPUKIT_CACHE_DIR": str(tmp_path / "cache"), variable: str(shared)}
    result = run_gpukit("check", EXAMPLES / "histogram_non_atomic.cu", *HISTOGRAM, env=environment)
    assert result.returncode == 2
    assert_one_line_error(result.stderr, "gpukit check", f"{variable}", str(shared),
                          "writable by its group and others (mode 0777)")
    assert list(shared.iterdir()) == []
