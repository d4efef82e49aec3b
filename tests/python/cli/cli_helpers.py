"""Running the gpukit command in tests, as a user does: in a process of its own (``python -m
gpukit``, with this interpreter and the test suite's compile cache), or in this process through
:func:`gpukit.cli.main` where a test needs neither a fresh backend nor a separate process."""

import os
import subprocess
import sys

from conftest import REPOSITORY
from gpukit.cli import main

EXAMPLES = REPOSITORY / "examples" / "check"


def run_gpukit(*args, env=None, cwd=REPOSITORY, timeout=600):
    """``gpukit ARGS`` in a new process; ``env`` adds to (or, with None values, removes from) this
    process's environment. Returns the CompletedProcess, output as text."""
    environment = dict(os.environ)
    for name, value in (env or {}).items():
        if value is None:
            environment.pop(name, None)
        else:
            environment[name] = value
    return subprocess.run([sys.executable, "-m", "gpukit", *map(str, args)], capture_output=True, text=True,
                          env=environment, cwd=cwd, timeout=timeout)


def run_in_process(capsys, *args):
    """``gpukit ARGS`` through gpukit.cli.main in this process: (exit status, stdout, stderr).
    argparse's own errors exit through SystemExit; their status is returned the same way."""
    try:
        status = main([str(arg) for arg in args])
    except SystemExit as exit_:
        status = exit_.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def assert_one_line_error(stderr, prog, *fragments):
    """The error contract: one line, ``PROG: error: ...``, naming what is wrong; never a traceback."""
    assert "Traceback" not in stderr
    lines = stderr.strip().split("\n")
    assert len(lines) == 1, stderr
    assert lines[0].startswith(f"{prog}: error: "), stderr
    for fragment in fragments:
        assert fragment in lines[0], f"{fragment!r} not in {lines[0]!r}"
