"""bench/memo_rss.py: resident memory while a process compiles many distinct small modules.

The in-process memo of compiled images and loaded modules is bounded (GPUKIT_CACHE_MEMORY_MAX_ENTRIES,
GPUKIT_CACHE_MEMORY_MAX_BYTES): RSS and the process's memory mappings must level off, whatever the
number of modules. Each simulator module is a shared object loaded with dlopen, so an unbounded memo
grows RSS by tens of KiB a module and ends at the kernel's limit on memory mappings
(vm.max_map_count).

    GPUKIT_BACKEND=sim python bench/memo_rss.py --modules 10000

Compiling 10,000 modules takes about 0.5 s each on the simulator; the disk cache keeps them, so a
second run (or a run of another build against the same GPUKIT_CACHE_DIR) loads them from disk in
seconds. ``--threads`` compiles on several threads.
"""

import argparse
import concurrent.futures
import gc
import os
import time

import gpukit

SOURCE = """
extern "C" __global__ void module_{index}(float* values, const int size) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size) values[i] = values[i] * {index}.0f + 1.0f;
}}
"""


def resident_mib():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def mappings():
    with open("/proc/self/maps") as maps:
        return sum(1 for _ in maps)


def memo_usage():
    """The memo's (images, image bytes, modules) where this gpukit reports them."""
    usage = getattr(gpukit._core, "memory_cache_usage", None)
    if usage is None:
        return "not reported by this build"
    u, config = usage(), gpukit._core.cache_config()
    return (f"{u.images} images ({u.image_bytes / 2**20:.1f} MiB), {u.modules} modules "
            f"(bound: {config.memory_max_entries} entries, {config.memory_max_bytes / 2**20:.0f} MiB each)")


def compile_one(index):
    gpukit.RawModule(SOURCE.format(index=index))  # dropped at once: only the memo holds it


def report(label, count, started):
    gc.collect()
    print(f"{label:>8} modules: RSS {resident_mib():7.1f} MiB, {mappings():6d} mappings, "
          f"{time.perf_counter() - started:7.1f} s; memo: {memo_usage()}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modules", type=int, default=10_000, help="distinct modules to compile (default 10000)")
    parser.add_argument("--threads", type=int, default=1, help="threads compiling at once (default 1)")
    parser.add_argument("--every", type=int, default=1000, help="report every this many modules")
    args = parser.parse_args()

    print(f"gpukit {gpukit.__version__} from {os.path.dirname(gpukit.__file__)}, backend {gpukit.backend()}, "
          f"cache {gpukit._core.cache_config().directory}")
    gpukit.empty(1)  # the device and its worker threads exist before the first figure
    started = time.perf_counter()
    report("0", 0, started)
    with concurrent.futures.ThreadPoolExecutor(args.threads) as pool:
        for first in range(0, args.modules, args.every):
            last = min(first + args.every, args.modules)
            list(pool.map(compile_one, range(first, last)))
            report(str(last), last, started)
    gpukit._core.clear_memory_cache()
    report("cleared", args.modules, started)


if __name__ == "__main__":
    main()
