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
    return {
        "gpukit": {"version": __version__, "core_version": _core.version(),
                   "package": str(pathlib.Path(__file__).resolve().parent.parent)},
        "python": {"version": platform.python_version(), "executable": sys.executable},
        "numpy": {"version": numpy.__version__},
        "platform": platform.platform(),
        "backends": {
            "requested": os.environ.get("GPUKIT_BACKEND") or "auto",
            "selected": selected_backend(),
            **{backend.name: describe_backend(backend) for backend in _core.backends()},
        },
        "cache": cache.describe(),
    }


def describe_backend(backend):
    """One backend: what it is, whether it runs here, what it can do, and what it found."""
    capabilities = backend.capabilities
    return {
        "description": backend.description or None,
        "built": backend.built,
        "unavailable_reason": backend.unavailable_reason or None,
        "capabilities": {name: getattr(capabilities, name) for name in CAPABILITIES},
        "toolchain": {found.role: part(found) for found in backend.toolchain},
    }


CAPABILITIES = ("simulated", "check_mode", "loads_binary_images", "tensor_cores", "dlpack_device_type", "sandbox")


def selected_backend():
    """The backend kernels run on by default, or None when none can (the reasons say why)."""
    try:
        return _core.selected_backend().name
    except GpukitError:  # no backend at all: each backend's reason is reported instead
        return None


def part(found):
    return {"path": found.path or None, "version": found.version or None, "problem": found.problem or None}


def text_lines(info):
    """``gpukit info`` as text: one fact per line, problems quoted in full."""
    gpukit, backends = info["gpukit"], info["backends"]
    lines = [
        f"gpukit            {gpukit['version']} ({gpukit['package']})",
        f"Python            {info['python']['version']} ({info['python']['executable']})",
        f"NumPy             {info['numpy']['version']}",
        f"platform          {info['platform']}",
        "",
        f"backend in use    {backends['selected'] or 'none'} (GPUKIT_BACKEND={backends['requested']})",
    ]
    for name, backend in backends.items():
        if name in ("requested", "selected"):
            continue
        lines.append(f"{name:<18}{availability(backend)}")
        for role, found in backend["toolchain"].items():
            lines.append(f"    {role:<16}{describe_part(found)}")
    lines.append("")
    lines.extend(cache.text_lines(info["cache"]))
    return lines


def availability(backend):
    """Whether the backend runs here; when the reason is a part that is not usable, the part's own line says it once."""
    reason = backend["unavailable_reason"]
    if reason is None:
        return "available"
    if not backend["built"]:
        return "not built in: " + indent_continuation(reason)
    for role, found in backend["toolchain"].items():
        if reason == found["problem"]:
            return f"unavailable: the {role} is not usable (below)"
    return "unavailable: " + indent_continuation(reason)


def describe_part(found):
    """``'13.0 at /usr/lib/libnvrtc.so.13'``, or why it cannot be used (and where it is, if it was found)."""
    if found["problem"] is None:
        return found["version"] + (f" at {found['path']}" if found["path"] else "")
    where = f" (found at {found['path']})" if found["path"] else ""
    return f"not usable{where}: {indent_continuation(found['problem'])}"


def indent_continuation(text):
    """A multi-line message, its later lines indented under the value column."""
    return text.strip().replace("\n", "\n" + " " * 20)
