"""examples/check: every command its README gives runs as documented. Each planted mistake exits 1
with its tool naming hazards; each fixed twin exits 0 with every tool clean."""

import re
import shlex

import pytest

from cli_helpers import EXAMPLES, run_gpukit

# The tool that must find each planted mistake (others may find more: a thread that reads out of
# bounds also races, for instance).
FOUND_BY = {
    "histogram_non_atomic.cu": "racecheck",
    "vector_add_no_bounds_check.cu": "memcheck",
    "histogram_shared_past_input.cu": "memcheck",
    "matmul_tiled_missing_first_barrier.cu": "racecheck",
    "matmul_tiled_missing_second_barrier.cu": "racecheck",
    "bounds_test_and_instead_of_or.cu": "memcheck",
    "matmul_tiled_unguarded_loads.cu": "memcheck",
    "syncthreads_in_branch.cu": "synccheck",
    "histogram_shared_bins_not_zeroed.cu": "initcheck",
    "write_race_between_blocks.cu": "racecheck",
    "shuffle_after_return.cu": "synccheck",
}


def readme_commands():
    """(file name, command arguments after 'gpukit') of each command line in the README."""
    commands = []
    for line in (EXAMPLES / "README.md").read_text().splitlines():
        if line.startswith("    gpukit check "):
            arguments = shlex.split(line)[1:]
            commands.append((arguments[1].rsplit("/", 1)[-1], arguments))
    return commands


COMMANDS = readme_commands()


def test_the_readme_checks_every_example_file():
    checked = {name for name, _ in COMMANDS}
    on_disk = {path.name for path in EXAMPLES.glob("*.cu")}
    assert checked == on_disk
    assert set(FOUND_BY) == {name for name in on_disk if not name.endswith("_fixed.cu")}


@pytest.mark.parametrize("name, arguments", COMMANDS, ids=[f"{name} ({number})" for number, (name, _) in
                                                           enumerate(COMMANDS, start=1)])
def test_each_documented_command(name, arguments):
    result = run_gpukit(*arguments)
    summary = dict(re.findall(r"^(memcheck|racecheck|synccheck|initcheck) +(.+)$", result.stdout, re.M))
    assert "Traceback" not in result.stderr
    if name in FOUND_BY:
        assert result.returncode == 1, result.stdout + result.stderr
        tool = FOUND_BY[name]
        assert re.fullmatch(r"\d+ hazards?, \d+ times?", summary[tool]), result.stdout
        assert f"at {arguments[3]} in {name}:" in result.stdout or f"access at {name}:" in result.stdout
    else:
        assert result.returncode == 0, result.stdout + result.stderr
        assert summary == dict.fromkeys(("memcheck", "racecheck", "synccheck", "initcheck"), "clean")
