"""gpukit check: one kernel of a .cu file, run on the simulator in check mode with arguments made
from the command line, and the hazards it found, as compute-sanitizer prints them. With --sandbox,
all of it runs in a child that cannot reach the network or write outside a private temporary
directory (cli/_sandbox.py).

Exit status: 0 when the tools found nothing, 1 when they found a hazard (or the kernel failed
while running), 2 when the command line is wrong (no such file or kernel, a malformed --arg, a
grid the device cannot launch, arguments that do not match the kernel's parameters)."""

import argparse
import json
import os
import pathlib
import stat
import sys

import numpy

from .. import _check, _core, _kernel
from .._backend import use_backend
from .._errors import KernelNotFoundError, LaunchError, LaunchTimeoutError
from . import _sandbox
from ._errors import CommandError
from ._kernel_args import SYNTAX, parse_argument

HELP = "run one kernel under the simulator's check mode and report its hazards (exit 1 if any)"

DEFAULT_TIME_LIMIT = 60.0  # seconds a checked launch may run (check mode is slow, but not this slow)

TOOLS = tuple(name for name, _ in _core.check_tools())  # the rows of gpukit/check_tools.def, in order

EXAMPLES = """\
examples:
  gpukit check vector_add.cu --kernel vector_add --grid 4 --block 256 \\
      --arg 'float32[1000]:random' --arg 'float32[1000]:random' --arg 'float32[1000]' --arg int32:1000
  gpukit check matmul.cu -k matmul_tiled --grid 7,7 --block 16,16 --tools racecheck \\
      --arg 'float32[10000]:random' --arg 'float32[10000]:random' --arg 'float32[10000]' --arg int32:100

tools (--tools, comma-separated, or all):
""" + "".join(f"  {name:<10}  {summary}\n" for name, summary in _core.check_tools()) + """
exit status: 0 clean, 1 hazards found (or the kernel failed), 2 a mistake on the command line.
examples/check/ holds the course's classic mistakes, each with its fix and the command that checks it.

security: on the simulator the kernel is compiled and run as native code of yours, with your rights,
exactly like importing a C extension: without --sandbox, check only kernels you trust. --sandbox runs
the compile and the launch in a child process with no network, no other process in sight, a
read-only view of the files and an empty private temporary directory as the only place it can write
(Linux user namespaces, no privileges needed; the compile cache is read, never written). It still
reads what you can read and uses the CPU and memory it likes. Compiler options pass one allowlist
and #include finds only the -I folders, FILE.cu's folder and gpukit's and the compiler's headers,
with or without it. README.md, "Security", says what gpukit protects and what it does not.
"""


def add_to(subcommands):
    parser = subcommands.add_parser("check", help=HELP, description=HELP + ".", epilog=SYNTAX + "\n" + EXAMPLES,
                                    formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", metavar="FILE.cu", type=pathlib.Path, help="the CUDA C source")
    parser.add_argument("--kernel", "-k", required=True, metavar="NAME", help="the kernel to run")
    parser.add_argument("--grid", "-g", required=True, type=_argument_type(parse_dim3), metavar="X[,Y,Z]",
                        help="blocks in the grid")
    parser.add_argument("--block", "-b", required=True, type=_argument_type(parse_dim3), metavar="X[,Y,Z]",
                        help="threads per block")
    parser.add_argument("--shared", type=_argument_type(parse_byte_count), default=0, metavar="BYTES",
                        help="dynamic shared memory for extern __shared__ arrays (default 0)")
    parser.add_argument("--tools", "-t", type=_argument_type(parse_tools), default=TOOLS, metavar="TOOLS",
                        help=f"{','.join(TOOLS)} or all (default all)")
    parser.add_argument("--arg", "-a", dest="kernel_args", action="append", default=[],
                        type=_argument_type(parse_argument), metavar="SPEC",
                        help="one kernel argument, in parameter order (see below)")
    parser.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                        help="define a macro for the kernel source")
    parser.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                        help="look for #include files in DIR (FILE.cu's own folder is searched too)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random fills (default 0)")
    parser.add_argument("--json", action="store_true", help="the hazards as JSON records instead of text")
    parser.add_argument("--sandbox", action="store_true",
                        help="run it all in a child with no network and a read-only view of the files "
                             "(see security below)")
    parser.add_argument("--time-limit", type=_argument_type(parse_seconds), default=DEFAULT_TIME_LIMIT,
                        metavar="SECONDS",
                        help=f"give up the launch past this many seconds, saying how far it got (default "
                             f"{DEFAULT_TIME_LIMIT:g}; 0: no limit)")
    parser.set_defaults(run=run)


def run(args):
    if args.sandbox:
        _core.cache_directory_refusal()  # makes the cache directory now: inside, nothing can be made
        return _sandbox.run(command_line(args))
    source = read_source(args.file)
    # The simulator gives up a launch past its time limit (LaunchTimeoutError: the kernel, the blocks done).
    os.environ["GPUKIT_SIM_LAUNCH_TIMEOUT"] = f"{args.time_limit:g}"
    use_backend(checking_backend())  # check mode runs on the simulator, whatever GPUKIT_BACKEND says
    _check.set_raise_on_hazard(False)  # a hazard is reported, not raised
    _check.set_print_check_report(False)  # reported once, below, even when GPUKIT_CHECK is set
    options = [f"-D{define}" for define in args.defines]
    options += [f"-I{directory}" for directory in [*args.include_dirs, args.file.resolve().parent]]
    module = _kernel.RawModule(source, options, check=",".join(args.tools), program_name=args.file.name)
    kernel = find_kernel(module, args.kernel, args.file)
    rng = numpy.random.default_rng(args.seed)
    values = tuple(argument.make(rng) for argument in args.kernel_args)
    try:
        kernel(args.grid, args.block, values, shared_mem=args.shared)
    except TypeError as error:  # an array for a scalar parameter or the reverse; the core's errors are GpukitErrors
        raise CommandError(str(error)) from None

    if not args.json:
        print(f"Checked {args.kernel} from {args.file} with {', '.join(args.tools)}: grid {dim3_text(args.grid)}, "
              f"block {dim3_text(args.block)}" +
              (f", {args.shared} bytes of dynamic shared memory" if args.shared else ""))
    try:
        report = _check.take_check_report()
    except LaunchTimeoutError as failure:  # it ran too long: which kernel, how far it got
        print(f"gpukit check: {args.kernel} ran past the time limit of {args.time_limit:g} s with "
              f"{failure.blocks_done} of its {failure.blocks_total} blocks done, and was given up (a loop that "
              "never ends? --time-limit sets the limit)", file=sys.stderr)
        return 1
    except LaunchError as failure:  # the kernel itself failed (a deadlock, a runaway atomicCAS loop): exit 1
        print(f"gpukit check: {args.kernel} failed while running: {failure}", file=sys.stderr)
        return 1

    if args.json:
        print(json.dumps(as_json(args, report), indent=2))
    else:
        print(report.text(), end="")
        for line in summary_lines(args.tools, report):
            print(line)
    return 0 if report.clean else 1


def command_line(args):
    """The ``gpukit check`` arguments that give ``args``, without --sandbox: what the sandbox runs."""
    argv = ["check", str(args.file), "--kernel", args.kernel, "--grid", ",".join(map(str, args.grid)),
            "--block", ",".join(map(str, args.block)), "--shared", str(args.shared), "--tools", ",".join(args.tools),
            "--seed", str(args.seed), "--time-limit", f"{args.time_limit:g}"]
    for argument in args.kernel_args:
        argv += ["--arg", argument.text]
    for define in args.defines:
        argv.append(f"-D{define}")
    for directory in args.include_dirs:
        argv.append(f"-I{directory}")
    if args.json:
        argv.append("--json")
    return argv


def checking_backend():
    """The first backend that runs check mode (the simulator)."""
    return next(info.name for info in _core.backends() if info.capabilities.check_mode)


def read_source(path):
    """FILE.cu's text. Opened without blocking and read only when it is a regular file: a FIFO or a
    device named by mistake (or planted) is refused instead of waited on for ever."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise CommandError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CommandError(f"{path} is a folder; give the .cu file inside it") from None
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror}") from None
    mode = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(mode):
        os.close(descriptor)
        if stat.S_ISDIR(mode):
            raise CommandError(f"{path} is a folder; give the .cu file inside it")
        raise CommandError(f"{path} is not a regular file ({describe_mode(mode)}); give a .cu file")
    with os.fdopen(descriptor, "rb") as file:
        try:
            return file.read().decode()
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"cannot read {path}: {error}") from None


def describe_mode(mode):
    """What a non-regular file is, in words."""
    for test, words in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                        (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return words
    return "not a plain file"


def find_kernel(module, name, path):
    try:
        return module.get_function(name)
    except KernelNotFoundError:
        raise CommandError(f"{path} has no kernel '{name}'; its kernels are {', '.join(module.kernel_names)} "
                           "(a kernel declared without extern \"C\" goes by its mangled C++ name)") from None


def parse_dim3(text):
    """``'16,16'`` -> ``(16, 16)``: one to three whole numbers, each at least 1."""
    parts = text.split(",")
    if not 1 <= len(parts) <= 3 or not all(part.strip().isdigit() and int(part) >= 1 for part in parts):
        raise ValueError(f"'{text}' is not X, X,Y or X,Y,Z with whole numbers of at least 1 (e.g. 256 or 16,16)")
    return tuple(int(part) for part in parts)


def dim3_text(dims):
    """``(16, 16)`` -> ``'(16, 16, 1)'``, as CUDA reports grids and blocks."""
    return "(" + ", ".join(str(value) for value in (*dims, 1, 1)[:3]) + ")"


def parse_byte_count(text):
    if not text.isdigit():
        raise ValueError(f"'{text}' is not a whole number of bytes")
    return int(text)


def parse_seconds(text):
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds >= 0 or seconds == float("inf"):
        raise ValueError(f"'{text}' is not a number of seconds >= 0 (0: no limit)")
    return seconds


def parse_tools(text):
    """``'racecheck,memcheck'`` -> ``('memcheck', 'racecheck')``; ``'all'`` -> every tool."""
    normalized = _core.normalize_check_tools(text)  # ValueError naming the tools for an unknown one
    if normalized == "none":
        raise ValueError(f"name at least one tool: {', '.join(TOOLS)}, or all")
    return tuple(normalized.split(","))


def _argument_type(parse):
    """``parse`` as an argparse type: its ValueError becomes argparse's one-line error, message intact."""
    def convert(text):
        try:
            return parse(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    convert.__name__ = parse.__name__
    return convert


def summary_lines(tools, report):
    """One line per tool run: how many distinct hazards it found and how often they happened."""
    lines = []
    for tool in tools:
        found = [hazard for hazard in report.hazards if hazard.tool == tool]
        if found:
            times = sum(hazard.occurrences for hazard in found)
            lines.append(f"{tool:<10}  {len(found)} {'hazard' if len(found) == 1 else 'hazards'}, "
                         f"{times} {'time' if times == 1 else 'times'}")
        else:
            lines.append(f"{tool:<10}  clean")
    return lines


def as_json(args, report):
    return {
        "file": str(args.file),
        "kernel": args.kernel,
        "grid": list(args.grid),
        "block": list(args.block),
        "shared_bytes": args.shared,
        "tools": list(args.tools),
        "arguments": [argument.text for argument in args.kernel_args],
        "clean": report.clean,
        "hazards": [hazard_record(hazard) for hazard in report.hazards],
    }


def hazard_record(hazard):
    record = {
        "tool": hazard.tool, "what": hazard.what, "kernel": hazard.kernel, "file": hazard.file,
        "line": hazard.line, "block": list(hazard.block), "thread": list(hazard.thread),
        "occurrences": hazard.occurrences, "detail": hazard.detail,
    }
    if hazard.tool == "racecheck":
        record["other"] = {"access": hazard.other_access, "file": hazard.other_file, "line": hazard.other_line,
                           "block": list(hazard.other_block), "thread": list(hazard.other_thread)}
    return record
