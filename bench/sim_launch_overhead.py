#!/usr/bin/env python3
"""What running kernels apart from the program costs on the simulator: runs gpukit_sim_launch_bench
in this process (GPUKIT_SIM_ISOLATION=0), in the device process (the default) and in the device
process's sandbox (GPUKIT_SIM_SANDBOX=1), in turn, several times (a shared machine's noise falls on
each alike), and prints the median of each figure, its best run and its ratio to this process's.

    bench/sim_launch_overhead.py [--build BUILD_DIR] [--binary LABEL=PATH ...] [--repeats N] [--rounds N]

--binary (repeatable) compares builds in the same session, e.g. one from before a change
(``--binary before=/tmp/old_bench --binary after=build/bench/gpukit_sim_launch_bench``); by
default the build directory's. The environment passes through (GPUKIT_SIM_THREADS,
GPUKIT_SIM_SPIN_US, ...).
"""

import argparse
import os
import pathlib
import statistics
import subprocess
import sys

WAYS = {
    "in process": {"GPUKIT_SIM_ISOLATION": "0"},
    "device process": {},
    "sandboxed": {"GPUKIT_SIM_SANDBOX": "1"},
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--binary", action="append", default=[], metavar="LABEL=PATH")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each way, in turn (default 5)")
    parser.add_argument("--rounds", type=int, default=15, help="rounds per figure in each run (default 15)")
    args = parser.parse_args()
    binaries = dict(spec.split("=", 1) for spec in args.binary) or {
        "": str(pathlib.Path(args.build) / "bench" / "gpukit_sim_launch_bench")}
    figures = {(label, way): {} for label in binaries for way in WAYS}
    for _ in range(args.repeats):
        for label, binary in binaries.items():
            for way, env in WAYS.items():
                environment = {k: v for k, v in os.environ.items() if k not in WAYS["sandboxed"] | WAYS["in process"]}
                ran = subprocess.run([binary, str(args.rounds)], capture_output=True, text=True,
                                     env={**environment, **env})
                if ran.returncode != 0:
                    sys.exit(f"{label} {way}: {ran.stderr.strip()}")
                for line in ran.stdout.splitlines():
                    name, _, value = line.rpartition(": ")
                    try:
                        number = float(value)
                    except ValueError:
                        continue  # "where: ..."
                    figures[label, way].setdefault(name, []).append(number)
    print(f"median (best) of {args.repeats} runs, and the median's ratio to the same build in process; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for label in binaries:
        if label:
            print(f"\n{label}: {binaries[label]}")
        print(f"{'':42}" + "".join(f"{way:>26}" for way in WAYS))
        base = figures[label, "in process"]
        for name in figures[label, "device process"]:
            row = f"{name:42}"
            for way in WAYS:
                these = figures[label, way].get(name)
                if not these:
                    row += f"{'':>26}"
                    continue
                median = statistics.median(these)
                ratio = f"{median / statistics.median(base[name]):5.2f}x" if name in base else ""
                row += f"{median:>10.2f} ({min(these):8.2f}) {ratio:>6}"
            print(row)


if __name__ == "__main__":
    main()
