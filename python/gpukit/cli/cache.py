"""gpukit cache info|clear: the compile cache on disk — where it is, what it holds, how often it hit."""

import argparse
import json

from .. import _core
from ._format import format_bytes

HELP = "show the compile cache (info) or empty it (clear)"

EXAMPLES = """\
examples:
  gpukit cache info          where compiled kernels are kept, how many, how much, hits and misses
  gpukit cache info --json   the same for scripts, sizes in bytes
  gpukit cache clear         delete every compiled kernel (and the counts); the next runs compile again

GPUKIT_CACHE_DIR moves the cache, GPUKIT_CACHE_MAX_BYTES bounds it, GPUKIT_CACHE_DISABLE=1 turns it off.

The cache holds compiled code that gpukit loads, so it is private to you: gpukit creates its directory
with mode 0700 and refuses a directory another user owns or that others can write (an error for
GPUKIT_CACHE_DIR; the default one is left alone with a warning, and kernels are kept in the process
only). Entries and the statistics file are opened without following symbolic links and without
blocking, and used only when each is a regular file of yours that no one else can write: a link, FIFO,
directory, device or another user's file in their place is skipped with a warning. Each entry's
checksum is verified before it is loaded.
"""

POLICY = ("private to you: created with mode 0700, refused if another user owns it or others can write it; "
          "entries are loaded only when each is a regular file of yours that no one else can write, checksum "
          "verified; links, FIFOs, directories, devices and other users' files are skipped with a warning")


def add_to(subcommands):
    parser = subcommands.add_parser("cache", help=HELP, description=HELP + ".", epilog=EXAMPLES,
                                    formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = parser.add_subparsers(dest="action", metavar="{info,clear}", required=True)
    info = actions.add_parser("info", help="where the cache is, its size, entries, hits and misses",
                              epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    info.add_argument("--json", action="store_true", help="as a JSON object, sizes in bytes")
    info.set_defaults(run=run_info)
    clear = actions.add_parser("clear", help="delete every entry, and the hit and miss counts",
                               epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    clear.set_defaults(run=run_clear)


def run_info(args):
    described = describe()
    print(json.dumps(described, indent=2) if args.json else "\n".join(text_lines(described)))
    return 0


def run_clear(args):
    config = _core.cache_config()
    if config.directory is None:
        print("There is no compile cache on disk to clear: no GPUKIT_CACHE_DIR, XDG_CACHE_HOME or HOME is set.")
        return 0
    size_bytes, entries = _core.cache_disk_usage()
    _core.clear_disk_cache()
    print(f"Cleared the compile cache in {config.directory}: deleted {plural(entries, 'entry', 'entries')} "
          f"({format_bytes(size_bytes)}).")
    return 0


def describe():
    """The disk cache as plain data: its directory (None when there is none), whether lookups use it,
    its bound, what it holds, and the hits and misses of every process since it was created or cleared."""
    config = _core.cache_config()
    size_bytes, entries = _core.cache_disk_usage()
    counts = _core.cache_disk_stats()
    return {
        "directory": config.directory,
        "disk_enabled": config.disk_enabled,
        "policy": POLICY,
        "refused": _core.cache_directory_refusal() or None,
        "max_bytes": config.max_bytes,
        "entries": entries,
        "bytes": size_bytes,
        "hits": counts.hits,
        "misses": counts.misses,
        "corrupt_entries": counts.corrupt_entries,
        "evictions": counts.evictions,
    }


def text_lines(cache):
    """The cache as ``gpukit cache info`` and ``gpukit info`` print it."""
    if cache["directory"] is None:
        return ["compile cache     in memory only: no GPUKIT_CACHE_DIR, XDG_CACHE_HOME or HOME to keep it in"]
    lines = [f"compile cache     {cache['directory']}"]
    if not cache["disk_enabled"]:
        lines.append("    turned off      GPUKIT_CACHE_DISABLE is set: kernels compile again in every process")
    elif cache["refused"]:
        lines.append(f"    refused         {cache['refused']}")
    lines.append(f"    policy          {cache['policy']}")
    lines.append(f"    holds           {plural(cache['entries'], 'compiled module', 'compiled modules')}, "
                 f"{format_bytes(cache['bytes'])} (at most {format_bytes(cache['max_bytes'])})")
    lookups = f"{plural(cache['hits'], 'hit', 'hits')}, {plural(cache['misses'], 'miss', 'misses')} (compiles)"
    if cache["corrupt_entries"]:
        lookups += f", {plural(cache['corrupt_entries'], 'damaged entry', 'damaged entries')} compiled again"
    if cache["evictions"]:
        lookups += f", {plural(cache['evictions'], 'entry', 'entries')} evicted to stay under the bound"
    lines.append(f"    lookups         {lookups}, since it was created or cleared")
    return lines


def plural(count, one, many):
    return f"{count} {one if count == 1 else many}"
