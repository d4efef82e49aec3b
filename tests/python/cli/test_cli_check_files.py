"""gpukit check leaves nothing in $TMPDIR: the simulator's files, check mode's included, live in a
private directory of the process that goes when it exits (it once left /tmp/gpukit-kernel-*.so)."""

from cli_helpers import EXAMPLES, run_gpukit


def test_gpukit_check_leaves_nothing_in_tmpdir(tmp_path):
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    result = run_gpukit("check", EXAMPLES / "histogram_non_atomic.cu", "--kernel", "histogram", "--grid", "8", "--block",
                        "256", "--arg", "int32[2000]:random:0:16", "--arg", "int32[16]", "--arg", "int32:2000",
                        env={"TMPDIR": str(tmpdir)})
    assert result.returncode == 1, result.stderr  # the race is found
    assert "race" in result.stdout.lower(), result.stdout
    assert list(tmpdir.iterdir()) == []
