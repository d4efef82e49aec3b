"""gpukit info: versions, which backends can run and why one cannot, the compilers, the compile cache.

What a bug report needs, in one command: ``gpukit info --json`` for a script to read."""

import argparse
import json
import os
import pathlib
import platform
import sys

import numpy

from .. import __version__, _core
from .._errors import GpukitError
from . import cache

HELP = "versions, backends (and why one is unavailable), compilers and the compile cache"

EXAMPLES = """\
examples:
  gpukit info          what this machine runs kernels with, for a bug report
  gpukit info --json   the same for scripts
"""


def add_to(subcommands):
    parser = subcommands.add_parser("info", help=HELP, description=HELP + ".", epilog=EXAMPLES,
                                    formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="as a JSON object")
    parser.set_defaults(run=run)


def run(args):
    described = describe()
    print(json.dumps(described, indent=2) if args.json else "\n".join(text_lines(described)))
    return 0


def describe():
    """Everything ``gpukit info`` reports, as plain data."""
    cuda = _core.cuda_toolchain()
    return {
        "gpukit": {"version": __version__, "core_version": _core.version(),
                   "package": str(pathlib.Path(__file__).resolve().parent.parent)},
        "python": {"version": platform.python_version(), "executable": sys.executable},
        "numpy": {"version": numpy.__version__},
        "platform": platform.platform(),
        "backends": {
            "requested": os.environ.get("GPUKIT_BACKEND") or "auto",
            "selected": selected_backend(),
            "cuda": {
                "unavailable_reason": _core.backend_unavailable_reason("cuda") or None,
                "built_in": cuda.built_in,
                "headers_version": cuda.headers_version or None,
                "driver": part(cuda.driver),
                "nvrtc": part(cuda.nvrtc),
            },
            "sim": {
                "unavailable_reason": _core.backend_unavailable_reason("sim") or None,
                "host_compiler": part(_core.simulator_compiler()),
            },
        },
        "cache": cache.describe(),
    }


def selected_backend():
    """The backend kernels run on by default, or None when none can (the reasons say why)."""
    try:
        return _core.selected_backend()
    except GpukitError:  # no backend at all: each backend's reason is reported instead
        return None


def part(found):
    return {"path": found.path or None, "version": found.version or None, "problem": found.problem or None}


def text_lines(info):
    """``gpukit info`` as text: one fact per line, problems quoted in full."""
    gpukit, backends = info["gpukit"], info["backends"]
    cuda, sim = backends["cuda"], backends["sim"]
    lines = [
        f"gpukit            {gpukit['version']} ({gpukit['package']})",
        f"Python            {info['python']['version']} ({info['python']['executable']})",
        f"NumPy             {info['numpy']['version']}",
        f"platform          {info['platform']}",
        "",
        f"backend in use    {backends['selected'] or 'none'} (GPUKIT_BACKEND={backends['requested']})",
        f"cuda              {cuda_availability(cuda)}",
    ]
    if cuda["built_in"]:
        lines.append(f"    built with      CUDA {cuda['headers_version']} headers")
        lines.append(f"    driver          {describe_part(cuda['driver'])}")
        lines.append(f"    NVRTC           {describe_part(cuda['nvrtc'])}")
    lines.append(f"sim               {availability(sim['unavailable_reason'])}")
    lines.append(f"    host compiler   {describe_part(sim['host_compiler'])}")
    lines.append("")
    lines.extend(cache.text_lines(info["cache"]))
    return lines


def availability(reason):
    return "available" if reason is None else "unavailable: " + indent_continuation(reason)


def cuda_availability(cuda):
    """Whether CUDA can run; when the reason is a missing driver or NVRTC, their own lines say it once."""
    reason = cuda["unavailable_reason"]
    for name, found in (("driver", cuda["driver"]), ("NVRTC", cuda["nvrtc"])):
        if reason is not None and reason == found["problem"]:
            return f"unavailable: the {name} is not usable (below)"
    return availability(reason)


def describe_part(found):
    """``'13.0 at /usr/lib/libnvrtc.so.13'``, or why it cannot be used (and where it is, if it was found)."""
    if found["problem"] is None:
        return f"{found['version']} at {found['path']}"
    where = f" (found at {found['path']})" if found["path"] else ""
    return f"not usable{where}: {indent_continuation(found['problem'])}"


def indent_continuation(text):
    """A multi-line message, its later lines indented under the value column."""
    return text.strip().replace("\n", "\n" + " " * 20)
