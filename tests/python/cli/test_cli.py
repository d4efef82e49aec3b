"""The gpukit command as a whole: how it is started, its version, its help, unknown commands."""

import importlib.metadata
import pathlib
import subprocess
import sys

import pytest

import gpukit
from cli_helpers import assert_one_line_error, run_gpukit, run_in_process

SUBCOMMANDS = ("devices", "info", "check", "cache", "demo")


def test_the_installed_script_and_python_dash_m_run_the_same_command():
    script = pathlib.Path(sys.executable).with_name("gpukit")
    assert script.exists(), "pip install should put the gpukit script beside the interpreter"
    by_script = subprocess.run([str(script), "--version"], capture_output=True, text=True, check=True)
    by_module = run_gpukit("--version")
    assert by_script.stdout == by_module.stdout == f"gpukit {gpukit.__version__}\n"


def test_the_version_is_the_packages_and_the_cores():
    assert gpukit.__version__ == importlib.metadata.version("gpukit") == gpukit._core.version()


def test_without_a_command_it_prints_the_commands_and_exits_2(capsys):
    status, out, err = run_in_process(capsys)
    assert status == 2
    assert out == ""
    for name in SUBCOMMANDS:
        assert name in err


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_every_command_has_help_with_an_example(capsys, name):
    status, out, _ = run_in_process(capsys, name, "--help")
    assert status == 0
    assert f"usage: gpukit {name}" in out
    assert "examples:" in out
    assert f"gpukit {name}" in out.split("examples:")[1]


def test_an_unknown_command_is_one_line(capsys):
    status, _, err = run_in_process(capsys, "compile")
    assert status == 2
    assert_one_line_error(err, "gpukit", "invalid choice: 'compile'", "devices")


def test_an_unknown_option_is_reported_by_its_command(capsys):
    status, _, err = run_in_process(capsys, "devices", "--verbose")
    assert status == 2
    assert_one_line_error(err, "gpukit devices", "unrecognized arguments: --verbose", "gpukit devices --help")
