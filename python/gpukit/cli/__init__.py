"""The ``gpukit`` command: one subcommand per module of this package.

::

    gpukit devices [--long | --json]      the GPUs and the simulator, with their limits
    gpukit info [--json]                  versions, backends, compilers, the compile cache
    gpukit check FILE.cu --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] --arg SPEC ...
                                          one kernel under the simulator's check mode
    gpukit cache info|clear               the compile cache on disk
    gpukit demo [--quick]                 the course's workloads against NumPy
    gpukit bench [--quick] [--json F] [--plots DIR] [--compare OLD NEW]
                                          gpukit against NumPy, CuPy and PyTorch over sizes

Each subcommand module has ``add_to(subcommands)``, which declares its arguments and sets
``run(args) -> exit status``. A mistake on the command line ends with one line on stderr,
``gpukit SUBCOMMAND: error: ...``, and exit status 2, never a traceback.
"""

import argparse
import os
import sys

from .. import __version__
from .._errors import CompileError, GpukitError
from . import bench, cache, check, demo, devices, info
from ._errors import CommandError

SUBCOMMANDS = (devices, info, check, cache, demo, bench)


class _Parser(argparse.ArgumentParser):
    """argparse, reporting a mistake on one line (without the usage block argparse prints above it)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser():
    parser = _Parser(prog="gpukit", description="CUDA C kernels on an NVIDIA GPU or on gpukit's CPU simulator.",
                     epilog="`gpukit COMMAND --help` shows a command's options and examples.")
    parser.add_argument("--version", action="version", version=f"gpukit {__version__}")
    subcommands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for module in SUBCOMMANDS:
        module.add_to(subcommands)
    return parser, subcommands.choices


def main(argv=None):
    """Runs the ``gpukit`` command line ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    parser, command_parsers = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # said by the subcommand's parser, so that the error names it: "gpukit check: error: ..."
        command_parsers.get(args.command, parser).error(f"unrecognized arguments: {' '.join(unknown)}")
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    prog = f"gpukit {args.command}"
    try:
        return args.run(args)
    except CommandError as error:
        return _fail(prog, str(error))
    except CompileError as error:
        return _fail(prog, f"{error.program_name} does not compile:\n{error.log}")
    except GpukitError as error:  # the core's message says what was wrong with the request
        return _fail(prog, str(error))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `gpukit devices | head -1`: the reader left early. Point stdout at nothing, or Python
        # complains once more while flushing it at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as error:  # a file or device the command needs cannot be used: say which and why
        return _fail(prog, f"{error.filename}: {error.strerror}" if error.filename else str(error))


def _fail(prog, message):
    print(f"{prog}: error: {message}", file=sys.stderr)
    return 2
