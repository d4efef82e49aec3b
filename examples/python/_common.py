"""What every example shares, and nothing more: its command line and its result checks.

Each example picks its problem size by backend: something that runs in seconds on the simulator,
something that means something on a GPU, and a tiny one with ``--quick`` (CI). ``--size`` overrides.
"""

import argparse
import os
import sys

import numpy

import gpukit


def parse_args(description, sizes=None, size_help="the problem size"):
    """Parses --backend, --quick, --seed and, when ``sizes`` is given, --size; selects the backend.

    ``sizes`` maps 'quick', 'sim' (a simulated device) and 'cuda' (a GPU) to the example's default
    size: an int, or a tuple of ints (then --size takes several). ``args.size`` is the size to run,
    ``args.rng`` the random generator of the inputs, ``args.repeats`` the timed runs of a benchmark
    (few on the simulator)."""
    parser = argparse.ArgumentParser(description=description,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=("auto", *(backend.name for backend in gpukit.backends())),
                        default=os.environ.get("GPUKIT_BACKEND", "auto"),
                        help="where kernels run (default: GPUKIT_BACKEND, else a GPU when there is one)")
    parser.add_argument("--quick", action="store_true", help="tiny sizes, to run in CI on the simulator")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the random inputs")
    several = sizes is not None and not isinstance(sizes["sim"], int)
    if sizes is not None:
        parser.add_argument("--size", type=int, nargs="+" if several else None, help=size_help)
    args = parser.parse_args()

    gpukit.use_backend(args.backend)  # before anything touches a device
    simulated = gpukit.get_device().backend_info.capabilities.simulated
    if sizes is not None:
        if args.size is None:
            args.size = sizes["quick"] if args.quick else sizes["sim" if simulated else "cuda"]
        elif several:
            args.size = tuple(args.size)
    args.rng = numpy.random.default_rng(args.seed)
    args.repeats = 3 if simulated else 10
    return args


def agrees(what, result, expected, rtol=0.0, atol=0.0):
    """True when ``result`` is within ``atol + rtol * |expected|`` of ``expected`` everywhere (``atol``
    may be an array, one bound per element). Otherwise says on stderr how many elements are off and
    shows the first, and returns False."""
    result, expected = numpy.asarray(result), numpy.asarray(expected)
    if result.shape != expected.shape:
        print(f"{what}: shape {result.shape}, expected {expected.shape}", file=sys.stderr)
        return False
    error = numpy.abs(result.astype(numpy.float64) - expected.astype(numpy.float64))
    wrong = numpy.argwhere(error > atol + rtol * numpy.abs(expected.astype(numpy.float64)))
    if len(wrong) == 0:
        return True
    first = tuple(wrong[0])
    print(f"{what}: {len(wrong)} of {expected.size} elements wrong, the first at {first}: "
          f"{result[first]} instead of {expected[first]}", file=sys.stderr)
    return False


def simulator():
    """The simulator device, present beside any GPU: the examples show check mode on it."""
    return next(device for device in gpukit.all_devices() if device.backend_info.capabilities.check_mode)


def finish(correct, summary):
    """Prints the example's summary line, ending in 'correct' or 'WRONG', and exits 0 or 1."""
    print(f"{summary} on {gpukit.get_device().name}: {'correct' if correct else 'WRONG'}")
    sys.exit(0 if correct else 1)
