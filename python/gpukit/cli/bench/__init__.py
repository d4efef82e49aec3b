"""gpukit bench: the course's CPU-vs-GPU studies as a suite: every workload over a sweep of sizes
in gpukit, NumPy, CuPy and PyTorch (those that import and see a GPU), each result checked against
NumPy's before it is timed; rates, the fraction of the measured ceiling, ratios to each peer, JSON
and plots; ``--compare`` shows the regressions between two runs.

The package: libraries.py (each library behind one face), workloads.py (what runs), measure.py
(checking and timing one cell), ceilings.py (the limits), report.py (table, JSON, comparison),
plots.py (the figures)."""

import argparse
import json
import os
import pathlib
import sys

import numpy

from ... import _core
from ..._backend import get_device, use_backend
from .. import info
from .._errors import CommandError
from .._progress import Progress
from . import ceilings, libraries, measure, plots, report, several_devices, workloads

HELP = "time gpukit against NumPy, CuPy and PyTorch over a sweep of sizes, with a table, JSON and plots"

EXAMPLES = """\
examples:
  gpukit bench --quick                       every workload at three smaller sizes, fewer runs
  gpukit bench --workloads add,sum,matmul --libs gpukit,torch --json run.json --plots figures/
  gpukit bench --backend sim --quick         the simulator's figures (CI; per core count)
  gpukit bench --compare old.json new.json   new/old per measurement; regressions marked
  gpukit bench --devices                     work over several devices: peer copies, all-reduce, the
                                             course's exercise split over them (vs PyTorch, CuPy, 1 device)

Every result is checked against NumPy's before it is timed; a wrong one is reported, not timed.
GPU libraries are timed by CUDA events around each call (median of many runs after warm-up),
NumPy by the wall clock. Rates count bytes read and written (GB/s) or floating-point operations
(FLOP/s); '% ceiling' is gpukit's share of the device copy bandwidth, the vendor BLAS's float32
rate or the pinned host-to-device bandwidth, measured in the same run. * marks the fastest."""


def add_to(subcommands):
    parser = subcommands.add_parser("bench", help=HELP, description=HELP + ".", epilog=EXAMPLES,
                                    formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workloads", type=_names, help="comma-separated workloads or groups (default: all)")
    parser.add_argument("--libs", type=_names, help=f"comma-separated libraries (default: {','.join(libraries.KNOWN)})")
    parser.add_argument("--sizes", type=_sizes, help="comma-separated sizes instead of each workload's sweep "
                        "(elements, or a matrix's side): 4096, 2^20, 1e6")
    parser.add_argument("--quick", action="store_true", help="three sizes and fewer runs each")
    parser.add_argument("--backend", choices=[backend.name for backend in _core.backends()],
                        help="gpukit's backend (default: the GPU where there is one)")
    parser.add_argument("--json", metavar="PATH", type=pathlib.Path, help="write the run's results as JSON")
    parser.add_argument("--plots", metavar="FOLDER", type=pathlib.Path, help="write the figures (PNG) into FOLDER")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default 0)")
    parser.add_argument("--devices", action="store_true",
                        help="instead of the workloads: peer copies, all-reduce and the course's exercise over every "
                        "device, against PyTorch, CuPy and one device (needs two devices)")
    parser.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"), type=pathlib.Path,
                        help="compare two runs' JSON instead of running")
    parser.set_defaults(run=run)


def _names(text):
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give at least one name")
    return names


def _sizes(text):
    sizes = []
    for part in text.split(","):
        part = part.strip()
        try:
            size = 2 ** int(part[2:]) if part.startswith("2^") else int(float(part)) if "e" in part else int(part, 0)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{part}' is not a size (write 4096, 2^20 or 1e6)") from None
        if size < 1:
            raise argparse.ArgumentTypeError(f"{part} is not a size: sizes are at least 1")
        sizes.append(size)
    return sizes


def selected_workloads(names):
    """The workloads ``names`` picks (workload or group names); CommandError naming the known ones."""
    if names is None:
        return list(workloads.WORKLOADS)
    known = workloads.by_name()
    groups = sorted({workload.group for workload in workloads.WORKLOADS})
    chosen = []
    for name in names:
        picked = [known[name]] if name in known else [w for w in workloads.WORKLOADS if w.group == name]
        if not picked:
            raise CommandError(f"unknown workload '{name}'; the workloads are: {', '.join(known)}; "
                               f"the groups: {', '.join(groups)}")
        chosen += [w for w in picked if w not in chosen]
    return chosen


def run(args):
    if args.compare:
        try:
            regressions = report.compare(report.load(args.compare[0]), report.load(args.compare[1]))
        except (OSError, ValueError, KeyError) as error:
            raise CommandError(f"cannot compare: {error}") from None
        return 1 if regressions else 0
    chosen = selected_workloads(args.workloads)
    library_names = args.libs or list(libraries.KNOWN)
    unknown = [name for name in library_names if name not in libraries.KNOWN]
    if unknown:
        raise CommandError(f"unknown library '{unknown[0]}'; the libraries are: {', '.join(libraries.KNOWN)}")
    if args.backend:
        use_backend(args.backend)
    if args.devices:
        return _several_devices(args)
    device = get_device()
    simulated = device.backend_info.capabilities.simulated
    libs, skipped = libraries.load(library_names, simulated)
    device_text = f"{device.backend_info.device_label} {device.id}: {device.name}"
    cores = os.cpu_count() or 1
    print(f"gpukit bench on {device_text}")
    for name, reason in skipped.items():
        print(f"  {name} skipped: {reason}")
    gpukit_library = next((lib for lib in libs if lib.name == "gpukit"), None) or libraries.Gpukit()
    limits = ceilings.measure(gpukit_library, simulated)
    repeats = measure.QUICK if args.quick else measure.FULL
    cells = [(w, size) for w in chosen for size in (args.sizes or w.sweep.sizes(simulated, args.quick))]
    rng = numpy.random.default_rng(args.seed)
    results = []
    with _progress(len(cells)) as progress:
        for step, (workload, size) in enumerate(cells, 1):
            progress(step, f"{workload.name} {workload.size_text(size)}")
            results += _measure_cell(workload, size, libs, rng, repeats)
    names = [lib.name for lib in libs]
    report.table(results, limits, names, per_element=simulated)
    document = report.document(results, limits, skipped,
                               report.environment(libs, device_text, device.backend, simulated, cores,
                                                  libraries.numpy_threads(), info.describe()),
                               ["gpukit", "bench", *sys.argv[2:]] if sys.argv[1:2] == ["bench"] else sys.argv)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        print(f"results: {args.json}")
    if args.plots:
        try:
            written = plots.write(document, args.plots)
        except ImportError as error:
            raise CommandError(str(error)) from None
        print(f"figures: {len(written)} in {args.plots}")
    return 1 if any(not m.verified and m.note.startswith("wrong result") for m in results) else 0


def _several_devices(args):
    """gpukit bench --devices: the table of several_devices.py, and its rows as JSON."""
    device = get_device()
    print(f"gpukit bench --devices on {len(_core.devices())} x {device.backend_info.device_label}: {device.name}")
    rows, reason = several_devices.run(device.backend_info.capabilities.simulated, args.quick)
    if reason:
        raise CommandError(f"--devices {reason}")
    print("\n".join(several_devices.table(rows)))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"several_devices": [row.to_json() for row in rows]}, indent=1) + "\n",
                             encoding="utf-8")
        print(f"results: {args.json}")
    return 0


def _measure_cell(workload, size, libs, rng, repeats):
    """Every library's Measurement of one workload at one size (NumPy's reference made once)."""
    try:
        host_inputs = workload.make(size, rng)
        reference = workload.reference(*host_inputs)
    except MemoryError:
        return [measure.Measurement(workload.name, workload.group, size, workload.size_text(size), lib.name,
                                    workload.unit, float(workload.amount(size)), workload.elements(size),
                                    workload.ceiling, workload.host_clock, note="does not fit in the host's memory")
                for lib in libs]
    rows = []
    for lib in libs:
        if workload.only and lib.name not in workload.only:
            continue
        row = measure.measure(workload, lib, size, host_inputs, reference, repeats)
        if row is not None:
            rows.append(row)
    return rows


class _progress:
    """tqdm's bar on stderr where tqdm is installed and stderr is a terminal, else gpukit's own line."""

    def __init__(self, total):
        self.total = total
        try:
            from tqdm import tqdm
        except ImportError:
            tqdm = None
        self.bar = tqdm(total=total, unit="cell", file=sys.stderr, disable=not sys.stderr.isatty(),
                        leave=False) if tqdm else None
        self.line = None if self.bar else Progress(total)

    def __enter__(self):
        return self._show

    def _show(self, step, text):
        if self.bar is not None:
            self.bar.set_description_str(text[:40])
            self.bar.update(1)
        else:
            self.line.show(step, text)

    def __exit__(self, *exc_info):
        if self.bar is not None:
            self.bar.close()
        else:
            self.line.__exit__(*exc_info)
