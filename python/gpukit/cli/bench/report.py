"""What ``gpukit bench`` writes: the table in the terminal, the JSON of a run, and the comparison
of two runs' JSON."""

import json
import platform
import sys

from .._format import format_rate, format_seconds

SCHEMA = "gpukit-bench/1"


def table(measurements, ceilings, libraries, per_element=False, stream=None):
    """One line per workload and size: each library's rate (time for host-clock rows), the fastest
    marked *, gpukit's fraction of the ceiling, and gpukit's ratio to each peer; with
    ``per_element`` (the simulator's runs) gpukit's nanoseconds per element of the result too."""
    stream = stream or sys.stdout
    peers = [name for name in libraries if name != "gpukit"]
    header = f"{'workload':36} {'size':>10}" + "".join(f"{name:>15}" for name in libraries)
    header += f"{'% ceiling':>11}" + "".join(f"{'vs ' + name:>11}" for name in peers)
    header += f"{'ns/element':>12}" if per_element else ""
    print(header, file=stream)
    rows = {}
    for m in measurements:
        rows.setdefault((m.workload, m.size), {})[m.library] = m
    notes = []
    for (workload, _size), by_library in rows.items():
        first = next(iter(by_library.values()))
        timed = {name: m for name, m in by_library.items() if m.seconds}
        host_clock = first.host_clock
        fastest = min(timed, key=lambda name: timed[name].seconds) if timed else None
        line = f"{workload[:36]:36} {first.size_text:>10}"
        for name in libraries:
            m = by_library.get(name)
            if m is None:
                text = "-"
            elif not m.seconds:
                text = "(see note)"
                notes.append(f"{workload} {m.size_text} {name}: {m.note}")
            else:
                text = format_seconds(m.seconds) if host_clock else format_rate(m.rate, m.unit)
                text += "*" if name == fastest and len(timed) > 1 else " "
            line += f"{text:>15}"
        ours = by_library.get("gpukit")
        ceiling = ceilings.get(ours.ceiling) if ours is not None and ours.seconds and ours.ceiling else None
        line += f"{100 * ours.rate / ceiling:>10.1f}%" if ceiling else f"{'':>11}"
        for name in peers:
            peer = by_library.get(name)
            ratio = peer.seconds / ours.seconds if ours and ours.seconds and peer and peer.seconds else None
            line += f"{ratio:>10.2f}x" if ratio else f"{'':>11}"
        if per_element and ours is not None and ours.seconds:
            line += f"{ours.ns_per_element:>12.3g}"
        print(line, file=stream)
    for note in notes:
        print(f"  note: {note}", file=stream)


def document(measurements, ceilings, skipped, environment, command):
    """The JSON of a run: what ran where, every measurement, the ceilings and what was skipped."""
    return {
        "schema": SCHEMA,
        "command": command,
        "environment": environment,
        "ceilings": ceilings,
        "skipped_libraries": skipped,
        "results": [m.to_json() for m in measurements],
    }


def environment(libraries, device_text, backend, simulated, cores, numpy_threads, gpukit_info):
    """Where the run ran: the device, the host's cores and NumPy's threads, every library's version,
    and ``gpukit info``'s report (the driver, NVRTC, the backends)."""
    return {
        "device": device_text,
        "backend": backend,
        "simulated": simulated,
        "host": platform.node(),
        "cpu_cores": cores,
        "numpy_threads": numpy_threads,
        "python": platform.python_version(),
        "libraries": {library.name: library.version() for library in libraries},
        "gpukit_info": gpukit_info,
    }


def compare(old, new, threshold=0.9, stream=None):
    """Prints new/old rates of every measurement both runs have; a ratio under ``threshold`` is a
    regression. Returns the number of regressions. Warns where the runs' devices differ."""
    stream = stream or sys.stdout
    for run, name in ((old, "old"), (new, "new")):
        if run.get("schema") != SCHEMA:
            raise ValueError(f"the {name} file is not a gpukit bench result (schema {run.get('schema')!r})")
    old_device, new_device = old["environment"].get("device"), new["environment"].get("device")
    if old_device != new_device:
        print(f"warning: the runs were on different devices ({old_device!r} and {new_device!r}): "
              "their figures are not comparable", file=sys.stderr)
    before = {(r["workload"], r["size"], r["library"]): r for r in old["results"]}
    regressions = 0
    print(f"{'workload':36} {'size':>10} {'library':>8} {'old':>14} {'new':>14} {'new/old':>8}", file=stream)
    for r in new["results"]:
        o = before.get((r["workload"], r["size"], r["library"]))
        if o is None or not o.get("seconds") or not r.get("seconds"):
            continue
        ratio = o["seconds"] / r["seconds"]
        flag = "  regression" if ratio < threshold else ""
        regressions += ratio < threshold
        print(f"{r['workload'][:36]:36} {r['size_text']:>10} {r['library']:>8} {format_seconds(o['seconds']):>14} "
              f"{format_seconds(r['seconds']):>14} {ratio:>7.2f}x{flag}", file=stream)
    return regressions


def load(path):
    with open(path, encoding="utf-8") as file:
        return json.load(file)
