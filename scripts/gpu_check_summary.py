#!/usr/bin/env python3
"""scripts/gpu_check_summary.py: the short table scripts/gpu-check prints last.

Reads CTest's and pytest's JUnit XML, Google Benchmark's JSON and `gpukit demo --json`'s; prints
test counts per binary and per Python test file, the benchmark figures next to their goals, and how
the gpukit command did (devices, info, and the demo's workloads). Exits non-zero when a test failed
or was skipped, or a command failed or computed a wrong result."""
import argparse
import json
import sys
import xml.etree.ElementTree as ElementTree
from collections import defaultdict


def test_rows(path):
    counts = defaultdict(lambda: {"passed": 0, "failed": 0, "skipped": 0})
    failed, skipped = [], []
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        suite = case.get("name", "").split(".")[0]
        status = case.get("status", "run")
        if case.find("failure") is not None or case.find("error") is not None or status == "fail":
            counts[suite]["failed"] += 1
            failed.append(case.get("name"))
        elif case.find("skipped") is not None or status in ("notrun", "disabled"):
            counts[suite]["skipped"] += 1
            skipped.append(case.get("name"))
        else:
            counts[suite]["passed"] += 1
    return counts, failed, skipped


def pytest_rows(path):
    """Counts per Python test file ("python: test_kernel"), from pytest's JUnit XML; test_examples,
    which runs every program of examples/python, gets a row of its own name."""
    counts = defaultdict(lambda: {"passed": 0, "failed": 0, "skipped": 0})
    failed, skipped = [], []
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        module = case.get("classname", "").split(".")[-1]
        name = f"{module}::{case.get('name')}"
        row = counts["examples/python (programs)" if module == "test_examples" else f"python: {module}"]
        if case.find("failure") is not None or case.find("error") is not None:
            row["failed"] += 1
            failed.append(name)
        elif case.find("skipped") is not None:
            row["skipped"] += 1
            skipped.append(name)
        else:
            row["passed"] += 1
    return counts, failed, skipped


def bench_medians(path):
    with open(path) as f:
        data = json.load(f)
    medians = {}
    for bench in data.get("benchmarks", []):
        if bench.get("aggregate_name") in (None, "median"):
            name = bench.get("run_name", bench["name"])
            medians[name.split("/")[0]] = bench  # drop "/iterations:20/manual_time" and the like
    return medians, data.get("context", {})


def seconds(bench):
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[bench.get("time_unit", "ns")]
    return bench["real_time"] * scale


def command_status(rc):
    return {"0": "ok", "no-build": "not run (no Python package)"}.get(rc, f"FAILED (exit {rc})")


def si(value, unit):
    """``2.1e12, 'B/s'`` -> ``'2.10 TB/s'``."""
    for prefix, scale in (("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3), ("", 1.0)):
        if value >= scale or not prefix:
            return f"{value / scale:.3g} {prefix}{unit}"


def demo_rows(path, rc):
    """(text lines, ok) for `gpukit demo --json`'s results: a line per workload, kernels' time and rate."""
    if rc == "no-build":
        return [f"{'gpukit demo':<46}{command_status(rc)}"], False
    try:
        with open(path) as f:
            demo = json.load(f)
    except (OSError, ValueError) as error:
        return [f"{'gpukit demo':<46}no results ({error}; exit {rc})"], False
    workloads = demo["workloads"]
    correct = sum(workload["correct"] and workload.get("builtin_correct", True) for workload in workloads)
    device = demo["device"]
    lines = [f"{'gpukit demo (' + demo['sizes'] + ' sizes, ' + device['backend'] + ')':<46}"
             f"{correct} of {len(workloads)} results match NumPy" + ("" if rc == "0" else f", exit {rc}")]
    lines.append(f"  {'workload':<28}{'size':<22}{'kernels':>11}{'achieved':>15}{'vs NumPy':>10}{'built-in':>12}")
    for workload in workloads:
        builtin = workload.get("builtin_seconds")
        lines.append(f"  {workload['name']:<28}{workload['size']:<22}{workload['kernel_seconds'] * 1e3:>8.3f} ms"
                     f"{si(workload['rate'], workload['rate_unit']):>15}{workload['speedup']:>9.1f}x"
                     + (f"{builtin * 1e3:>9.3f} ms" if builtin is not None else "")
                     + ("" if workload["correct"] else f"  WRONG: {workload['mismatch']}")
                     + ("" if workload.get("builtin_correct", True) else
                        f"  built-in WRONG: {workload['builtin_mismatch']}"))
    return lines, rc == "0" and correct == len(workloads)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ctest", nargs="+", required=True, help="ctest's JUnit XML, one per part of the run")
    parser.add_argument("--bench", required=True)
    parser.add_argument("--sanitizer", default="skipped")
    parser.add_argument("--bench-rc", default="0")
    parser.add_argument("--pytest", nargs="+", help="pytest's JUnit XML, one per part of the run")
    parser.add_argument("--pytest-rc", nargs="+", default=["0"], help="each part's exit status")
    parser.add_argument("--devices-rc", default="no-build", help="exit status of gpukit devices --long")
    parser.add_argument("--info-rc", default="no-build", help="exit status of gpukit info")
    parser.add_argument("--demo", help="gpukit demo --json's output")
    parser.add_argument("--demo-rc", default="no-build")
    args = parser.parse_args()

    ok = True
    print("=" * 72)
    print("gpu-check summary")
    print("=" * 72)
    try:
        counts, failed, skipped = test_rows(args.ctest[0])
        for path in args.ctest[1:]:
            more_counts, more_failed, more_skipped = test_rows(path)
            for suite, row in more_counts.items():
                for key, value in row.items():
                    counts[suite][key] += value
            failed += more_failed
            skipped += more_skipped
    except (OSError, ElementTree.ParseError) as error:
        print(f"tests: no results ({error})")
        counts, failed, skipped, ok = {}, [], [], False
    for index, path in enumerate(args.pytest or []):
        rc = args.pytest_rc[index] if index < len(args.pytest_rc) else "not-run"
        try:
            python_counts, python_failed, python_skipped = pytest_rows(path)
            for suite, row in python_counts.items():
                for key, value in row.items():
                    counts.setdefault(suite, {"passed": 0, "failed": 0, "skipped": 0})[key] += value
            failed += python_failed
            skipped += python_skipped
        except (OSError, ElementTree.ParseError) as error:
            print(f"python tests: no results ({error}; pytest exit {rc})")
            ok = False
        if rc != "0":
            print(f"python tests ({path}): pytest exited with {rc}")
            ok = False
    print(f"{'test suite':<34}{'passed':>10}{'failed':>10}{'skipped':>10}")
    totals = {"passed": 0, "failed": 0, "skipped": 0}
    for suite in sorted(counts):
        row = counts[suite]
        for key in totals:
            totals[key] += row[key]
        print(f"{suite:<34}{row['passed']:>10}{row['failed']:>10}{row['skipped']:>10}")
    print(f"{'TOTAL':<34}{totals['passed']:>10}{totals['failed']:>10}{totals['skipped']:>10}")
    for name in failed:
        print(f"  FAILED: {name}")
    # GPUKIT_REQUIRE_GPU turns "no GPU" into a failure, so skips left are tests that exist for
    # one backend only (PTX on the simulator, deadlock reports on the GPU); name them.
    for name in skipped:
        print(f"  skipped (other backend's feature): {name}")
    if totals["failed"] or not totals["passed"]:
        ok = False
    sanitizer = {"0": "clean", "skipped": "skipped"}.get(args.sanitizer, f"ERRORS (rc {args.sanitizer})")
    print(f"compute-sanitizer memcheck (GPU tests): {sanitizer}")
    if args.sanitizer not in ("0", "skipped"):
        ok = False

    print("-" * 72)
    try:
        medians, context = bench_medians(args.bench)
    except (OSError, ValueError) as error:
        print(f"benchmarks: no results ({error})")
        return 1
    get = medians.get
    rows = []
    for label, bare, ours in (("empty launch", "BM_EmptyLaunch_BareCuLaunchKernel", "BM_EmptyLaunch_Gpukit"),
                              ("vector_add launch (4 args)", "BM_VectorAddLaunch_BareCuLaunchKernel",
                               "BM_VectorAddLaunch_Gpukit")):
        if get(bare) and get(ours):
            b, o = seconds(get(bare)) * 1e6, seconds(get(ours)) * 1e6
            rows.append((f"{label}: host us/launch", f"{o:.3f} vs bare {b:.3f} ({(o / b - 1) * 100:+.1f}%)",
                         "within 10% of bare"))
    if get("BM_CacheHit_InProcess"):
        rows.append(("compile cache hit, in process", f"{seconds(get('BM_CacheHit_InProcess')) * 1e6:.2f} us",
                     "<= 10 us"))
    if get("BM_CacheHit_DiskInNewProcess"):
        rows.append(("compile cache hit, disk, new process",
                     f"{seconds(get('BM_CacheHit_DiskInNewProcess')) * 1e3:.3f} ms", "<= 2 ms"))
    if get("BM_ColdCompile_VectorAdd"):
        rows.append(("cold NVRTC compile, vector_add", f"{seconds(get('BM_ColdCompile_VectorAdd')) * 1e3:.1f} ms",
                     "(measure)"))
    for label, name in (("host->device, pageable", "BM_HostToDevice_Pageable"),
                        ("host->device, pinned", "BM_HostToDevice_Pinned")):
        if get(name):
            rows.append((label, f"{get(name)['bytes_per_second'] / 1e9:.2f} GB/s", "(measure)"))
    print(f"{'benchmark (median of 5)':<46}{'measured':<34}{'goal'}")
    for label, value, goal in rows:
        print(f"{label:<46}{value:<34}{goal}")
    if args.bench_rc != "0":
        print(f"benchmark binary exited with {args.bench_rc}")
        ok = False

    print("-" * 72)
    print(f"{'gpukit devices --long':<46}{command_status(args.devices_rc)}")
    print(f"{'gpukit info':<46}{command_status(args.info_rc)}")
    ok = ok and args.devices_rc == "0" and args.info_rc == "0"
    if args.demo:
        lines, demo_ok = demo_rows(args.demo, args.demo_rc)
        print("\n".join(lines))
        ok = ok and demo_ok
    print("=" * 72)
    print("GPU CHECK PASSED" if ok else "GPU CHECK FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
