"""gpukit demo: the course's workloads, as the course wrote them in CUDA C, on the best device
here, each checked against NumPy and timed against it, beside gpukit's built-in operation.

On a GPU the sizes fill the chip; without one the simulator runs them at sizes that take about a
minute on two cores, and says so. Exit status 1 when any result differs from NumPy's."""

import argparse
import json
from dataclasses import dataclass
from typing import Optional

import numpy

from .. import _core
from .._backend import get_device
from . import workloads
from ._format import first_sentence, format_rate, format_seconds
from ._progress import Progress
from ._timing import Repeats, median_device_seconds, median_host_seconds

HELP = "run the course's workloads (vector add ... 2-D convolution) against NumPy and time them"

EXAMPLES = """\
examples:
  gpukit demo           on the GPU, or on the simulator where there is none (about a minute)
  gpukit demo --quick   tiny sizes, a few seconds: checks that everything runs and is right
  GPUKIT_BACKEND=sim gpukit demo    on the simulator even where there is a GPU

columns: NumPy is the CPU's time; device+copies adds copying the inputs in and the result out to
the kernels' time; speed-up is NumPy's time over the kernels'; achieved is the kernels' memory
bandwidth (bytes they must move) or arithmetic rate (FLOP/s); built-in is the time of gpukit's
own operation for the same result (a + b, gpukit.sum, gpukit.bincount, @, gpukit.correlate,
gpukit.ndimage.correlate), what a user past the course would call; result is ok when both match.
"""


@dataclass(frozen=True)
class Plan:
    """What the demo runs: the sizes and how often each thing is timed."""

    sizes: workloads.Sizes
    numpy_repeats: Repeats
    with_copies_repeats: Repeats
    kernel_repeats: Repeats


GPU_PLAN = Plan(workloads.GPU, Repeats(runs=10, budget_seconds=2.0, warmup=1),
                Repeats(runs=10, budget_seconds=2.0, warmup=1), Repeats(runs=100, budget_seconds=1.0, warmup=3))
# Each simulated launch is slow: one timed run of each (after the run whose result is checked).
SIMULATOR_PLAN = Plan(workloads.SIMULATOR, Repeats(runs=5, budget_seconds=0.5, warmup=0),
                      Repeats(runs=1, budget_seconds=0.0, warmup=0), Repeats(runs=1, budget_seconds=0.0, warmup=0))
QUICK_PLAN = Plan(workloads.QUICK, Repeats(runs=1, budget_seconds=0.0, warmup=0),
                  Repeats(runs=1, budget_seconds=0.0, warmup=0), Repeats(runs=1, budget_seconds=0.0, warmup=0))


def add_to(subcommands):
    parser = subcommands.add_parser("demo", help=HELP, description=HELP + ".", epilog=EXAMPLES,
                                    formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="tiny sizes, one run each (for tests)")
    parser.add_argument("--json", action="store_true", help="the results as JSON instead of a table")
    parser.add_argument("--seed", type=_seed, default=0, help="seed of the random inputs (default 0)")
    parser.set_defaults(run=run)


def _seed(text):
    """--seed's value: a whole number at least 0, as numpy.random.default_rng takes it."""
    try:
        seed = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if seed < 0:
        raise argparse.ArgumentTypeError(f"{seed} is negative; a seed is at least 0")
    return seed


@dataclass(frozen=True)
class Result:
    """One workload's row: what it is, its times in seconds, and what is wrong with its result
    (None: it matches NumPy's). Keeps no inputs: a GPU-sized run would hold gigabytes."""

    name: str
    size: str
    work: float       # bytes or floating-point operations per run, in rate_unit
    rate_unit: str
    numpy_seconds: float
    with_copies_seconds: float
    kernel_seconds: float
    builtin_seconds: float  # gpukit's built-in operation for the same result
    mismatch: Optional[str]
    builtin_mismatch: Optional[str]

    @property
    def speedup(self):
        return self.numpy_seconds / self.kernel_seconds if self.kernel_seconds > 0 else float("inf")

    @property
    def rate(self):
        return self.work / self.kernel_seconds if self.kernel_seconds > 0 else float("inf")


def run(args):
    device = get_device()
    simulated = device.backend_info.capabilities.simulated
    plan = QUICK_PLAN if args.quick else SIMULATOR_PLAN if simulated else GPU_PLAN
    if not args.json:
        print(header(device, plan))
    rng = numpy.random.default_rng(args.seed)
    results = []
    with Progress(len(workloads.COURSE_ORDER)) as progress:
        for step, workload_type in enumerate(workloads.COURSE_ORDER, start=1):
            progress.show(step, f"{workload_type.name}: compiling and making the inputs")
            workload = workload_type(plan.sizes, rng)
            def say(what, step=step, workload=workload):
                progress.show(step, f"{workload.name}: {what}")

            results.append(measure(workload, plan, say))
    wrong = [result for result in results if result.mismatch is not None or result.builtin_mismatch is not None]
    if args.json:
        print(json.dumps(as_json(device, plan, results), indent=2))
    else:
        print("\n".join(table(results)))
        print()
        if wrong:
            print(f"{len(wrong)} of {len(results)} results differ from NumPy's:")
            for result in wrong:
                if result.mismatch is not None:
                    print(f"  {result.name}: {result.mismatch}")
                if result.builtin_mismatch is not None:
                    print(f"  {result.name} (built-in): {result.builtin_mismatch}")
        else:
            print(f"All {len(results)} results match NumPy's.")
        print("The library's own operations beside NumPy, CuPy and PyTorch, over a sweep of sizes, with plots: "
              "gpukit bench --quick")
    return 1 if wrong else 0


def measure(workload, plan, say):
    """Checks ``workload``'s result against NumPy's, then times NumPy, the device with the copies,
    and the kernels alone. ``say(what)`` reports each step."""
    def with_copies():
        state = workload.upload()
        workload.launch(state)
        return workload.download(state)

    say("checking the result against NumPy")
    expected = workload.reference()
    mismatch = workload.mismatch(with_copies(), expected)
    say("timing NumPy")
    numpy_seconds = median_host_seconds(workload.reference, plan.numpy_repeats)
    say("timing the device with the copies")
    with_copies_seconds = median_host_seconds(with_copies, plan.with_copies_repeats)
    say("timing the kernels")
    state = workload.upload()
    kernel_seconds = median_device_seconds(lambda: workload.launch(state), plan.kernel_repeats)
    say("checking and timing gpukit's built-in operation")
    # Fresh inputs: the course's saxpy updates y in place on every run.
    builtin_mismatch = workload.mismatch(workload.builtin(workload.upload()).get(), expected)
    builtin_seconds = median_device_seconds(lambda: workload.builtin(state), plan.kernel_repeats)
    return Result(workload.name, workload.size_text(), workload.work(), workload.rate_unit, numpy_seconds,
                  with_copies_seconds, kernel_seconds, builtin_seconds, mismatch, builtin_mismatch)


def header(device, plan):
    """What runs where, and at which sizes; on the simulator, why and what a GPU would run."""
    where = f"{device.backend_info.device_label} {device.id}: {device.name}"
    lines = [f"gpukit demo: the course's workloads on {where}"]
    if plan is QUICK_PLAN:
        lines.append("Quick run: tiny sizes, one run each; the times say little.")
    elif device.backend_info.capabilities.simulated:
        reasons = [backend.unavailable_reason for backend in _core.backends() if not backend.capabilities.simulated]
        if all(reasons):
            lines.append(f"No GPU here: {first_sentence(reasons[0]) if reasons else 'this gpukit has no GPU backend'}")
        else:
            lines.append(f"GPUKIT_BACKEND={device.backend} chose the simulator.")
        gpu = workloads.GPU
        lines.append("The CPU simulator runs the workloads, at sizes that take about a minute on two cores;")
        lines.append(f"a GPU runs 2^{gpu.vector.bit_length() - 1}-element vectors and {gpu.matrix}x{gpu.matrix} "
                     "matrices. Simulated times are not a GPU's.")
    lines.append("")
    return "\n".join(lines)


COLUMNS = ("workload", "size", "NumPy", "device+copies", "kernels", "speed-up", "achieved", "built-in", "result")


def table(results):
    """The results as aligned text: names and sizes left, numbers right."""
    rows = [COLUMNS] + [
        (result.name, result.size, format_seconds(result.numpy_seconds), format_seconds(result.with_copies_seconds),
         format_seconds(result.kernel_seconds), format_speedup(result.speedup),
         format_rate(result.rate, result.rate_unit), format_seconds(result.builtin_seconds),
         "ok" if result.mismatch is None and result.builtin_mismatch is None else "WRONG")
        for result in results
    ]
    widths = [max(len(row[column]) for row in rows) for column in range(len(COLUMNS))]
    left_aligned = (0, 1, 8)
    return ["  ".join(cell.ljust(width) if column in left_aligned else cell.rjust(width)
                      for column, (cell, width) in enumerate(zip(row, widths))).rstrip() for row in rows]


def as_json(device, plan, results):
    return {
        "device": {"backend": device.backend, "id": device.id, "name": device.name},
        "sizes": plan.sizes.name,
        "workloads": [
            {
                "name": result.name,
                "size": result.size,
                "numpy_seconds": result.numpy_seconds,
                "device_with_copies_seconds": result.with_copies_seconds,
                "kernel_seconds": result.kernel_seconds,
                "builtin_seconds": result.builtin_seconds,
                "speedup": result.speedup,
                "rate": result.rate,
                "rate_unit": result.rate_unit,
                "correct": result.mismatch is None,
                "mismatch": result.mismatch,
                "builtin_correct": result.builtin_mismatch is None,
                "builtin_mismatch": result.builtin_mismatch,
            }
            for result in results
        ],
    }


def format_speedup(ratio):
    """Three significant digits, so that the simulator's 0.00364x reads as more than zero."""
    return f"{ratio:.0f}x" if ratio >= 1000 else f"{ratio:.3g}x"
