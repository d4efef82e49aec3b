#!/usr/bin/env python3
"""What running kernels apart from the program costs on the simulator: runs
gpukit_sim_launch_bench in this process (GPUKIT_SIM_ISOLATION=0), in the device process (the
default) and in the device process's sandbox (GPUKIT_SIM_SANDBOX=1), in turn, several times (a
shared machine's noise falls on each alike), and prints the median of each figure and its ratio
to this process's.

    bench/sim_launch_overhead.py [BUILD_DIR] [--repeats N] [--rounds N]
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
    parser.add_argument("build", nargs="?", default="build")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each way, in turn (default 5)")
    parser.add_argument("--rounds", type=int, default=15, help="rounds per figure in each run (default 15)")
    args = parser.parse_args()
    binary = pathlib.Path(args.build) / "bench" / "gpukit_sim_launch_bench"
    figures = {way: {} for way in WAYS}
    for _ in range(args.repeats):
        for way, env in WAYS.items():
            environment = {k: v for k, v in os.environ.items() if k not in WAYS["sandboxed"] | WAYS["in process"]}
            ran = subprocess.run([str(binary), str(args.rounds)], capture_output=True, text=True,
                                 env={**environment, **env})
            if ran.returncode != 0:
                sys.exit(f"{way}: {ran.stderr.strip()}")
            for line in ran.stdout.splitlines():
                name, _, value = line.rpartition(": ")
                try:
                    number = float(value)
                except ValueError:
                    continue  # "where: ..."
                figures[way].setdefault(name, []).append(number)
    names = list(figures["in process"])
    print(f"{'median of ' + str(args.repeats) + ' runs':44}" + "".join(f"{way:>22}" for way in WAYS))
    for name in names:
        base = statistics.median(figures["in process"][name])
        row = f"{name:44}"
        for way in WAYS:
            value = statistics.median(figures[way][name])
            row += f"{value:>13.3f} ({value / base:4.2f}x)"
        print(row)
    for name in figures["device process"]:
        if name not in names:
            print(f"{name:44}" + f"{statistics.median(figures['device process'][name]):>35.2f}")


if __name__ == "__main__":
    main()
