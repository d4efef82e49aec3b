"""gpukit check --sandbox: the same check, in a child that cannot write outside its private
temporary directory, reach the network or touch other processes."""

import json
import re
import socket
import subprocess
import sys

import pytest

from cli_helpers import EXAMPLES, run_gpukit
from gpukit.cli import _sandbox, check


def sandbox_unavailable():
    """Why this machine cannot enter the sandbox (user namespaces off), or None."""
    probe = subprocess.run([sys.executable, "-c", "import sys, tempfile; sys.path.insert(0, sys.argv[1]); "
                            "import _sandbox; _sandbox._enter(tempfile.mkdtemp())",
                            str(_sandbox.__file__).rsplit("/", 1)[0]], capture_output=True, text=True)
    return None if probe.returncode == 0 else probe.stderr.strip().splitlines()[-1]


UNAVAILABLE = sandbox_unavailable()
needs_sandbox = pytest.mark.skipif(UNAVAILABLE is not None, reason=f"no sandbox here: {UNAVAILABLE}")

def found(result):
    """What `gpukit check --json` found and where: (tool, what, file, line) of each hazard. A race's
    order (write-after-read or write-after-write) is left out: which one a run meets first depends on
    how its workers interleave."""
    return sorted({(h["tool"], re.sub(r" \((read|write)-after-(read|write)\)", "", h["what"]), h["file"], h["line"])
                   for h in json.loads(result.stdout)["hazards"]})


HISTOGRAM = ["--kernel", "histogram", "--grid", "8", "--block", "256", "--arg", "int32[2000]:random:0:16",
             "--arg", "int32[16]", "--arg", "int32:2000"]

# Tries what the sandbox forbids; whatever works leaves a trace the test sees from outside.
ESCAPE = r"""
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <unistd.h>
extern "C" __global__ void escape(int* out) {
    if (threadIdx.x != 0) return;
    out[0] = open(WRITE_HERE, O_CREAT | O_WRONLY, 0600) >= 0;
    int s = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(PORT);
    address.sin_addr.s_addr = htonl(0x7f000001);
    out[1] = s >= 0 && connect(s, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    out[2] = kill(VICTIM, SIGKILL) == 0;
    out[3] = mount(nullptr, "/", nullptr, MS_REMOUNT | MS_BIND, nullptr) == 0;
}
"""


@needs_sandbox
def test_a_sandboxed_check_reports_what_the_plain_one_does():
    for name, status in (("histogram_non_atomic.cu", 1), ("histogram_non_atomic_fixed.cu", 0)):
        plain = run_gpukit("check", EXAMPLES / name, *HISTOGRAM, "--json")
        sandboxed = run_gpukit("check", "--sandbox", EXAMPLES / name, *HISTOGRAM, "--json")
        assert (plain.returncode, sandboxed.returncode) == (status, status), sandboxed.stderr
        # Which two threads a race names, how often and in which order, depends on how the workers
        # met the race: the hazards are compared by what and where.
        assert found(sandboxed) == found(plain)


@needs_sandbox
def test_a_sandboxed_kernel_cannot_write_connect_signal_or_remount(tmp_path):
    source = tmp_path / "escape.cu"
    source.write_text(ESCAPE)
    target = tmp_path / "written-by-the-kernel"
    victim = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(0.5)
        try:
            result = run_gpukit("check", "--sandbox", source, "--kernel", "escape", "--grid", "1", "--block", "1",
                                "--arg", "int32[4]", "--tools", "racecheck", f'-DWRITE_HERE="{target}"',
                                f"-DPORT={server.getsockname()[1]}", f"-DVICTIM={victim.pid}")
            assert result.returncode == 0, result.stderr
            with pytest.raises(socket.timeout):
                server.accept()
        finally:
            alive = victim.poll() is None
            victim.kill()
    assert not target.exists()
    assert alive


def test_the_sandbox_runs_every_option_of_the_command():
    """command_line must give back each option check takes: a new one is passed on, or this fails."""
    import argparse

    subcommands = argparse.ArgumentParser().add_subparsers()
    check.add_to(subcommands)
    parser = subcommands.choices["check"]
    args = parser.parse_args(["k.cu", "-k", "k", "-g", "2,3", "-b", "4", "--shared", "8", "-t", "memcheck", "-a",
                              "int32:3", "-a", "float32[4]:random", "-D", "N=2", "-I", "inc", "--seed", "5", "--json",
                              "--sandbox"])
    again = parser.parse_args(check.command_line(args)[1:])
    for name, value in vars(args).items():
        if name == "kernel_args":
            assert [a.text for a in getattr(again, name)] == [a.text for a in value]
        elif name != "sandbox" and not callable(value):
            assert getattr(again, name) == value, name
    assert again.sandbox is False


def test_a_sandbox_that_cannot_be_entered_says_so_in_one_line(tmp_path):
    child = subprocess.run([sys.executable, _sandbox.__file__, str(tmp_path / "missing"), "check", "x.cu"],
                           capture_output=True, text=True)
    assert child.returncode == 2
    lines = child.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gpukit check: error: cannot enter the sandbox: ")
    assert "run without --sandbox only kernels you trust" in lines[0]


def test_help_states_the_trust_model():
    text = run_gpukit("check", "--help").stdout
    assert "exactly like importing a C extension" in text
    assert "--sandbox" in text and "no network" in text
