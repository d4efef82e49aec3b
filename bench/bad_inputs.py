"""bench/bad_inputs.py: what gpukit does with bad input and hostile set-ups, one case a process.

Each case runs in a fresh Python process on the simulator, with a time limit, and is classified:

    error     it raised an exception (its type and the start of its message are shown)
    clean     it ran without an exception (right for the cases that must run, wrong for the others)
    KILLED    the process died of a signal or with an unexpected exit status
    HUNG      it did not end within the limit

After a case that raised, the same process launches a correct kernel and checks its result
("usable"). Run it with the gpukit to judge on the path (its venv's python), for example the tree
before and after a change, and compare the tables:

    GPUKIT_BACKEND=sim .venv/bin/python bench/bad_inputs.py [--only SUBSTRING] [--markdown]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap

PRELUDE = r'''
import json, os, signal, sys, threading, time
import numpy as np
import gpukit as gk

def K(body, name="k", params="float* p, int n", **options):
    return gk.RawKernel('extern "C" __global__ void %s(%s) {\n%s\n}\n' % (name, params, body), name, **options)

def address(value):
    make = getattr(gk, "DevicePointer", None)
    return make(value) if make else value

def usable():
    add = gk.RawKernel('extern "C" __global__ void add_one(float* p, int n) {'
                       ' int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] += 1.0f; }', "add_one")
    host = np.random.default_rng(1).random(1000).astype(np.float32)
    values = gk.asarray(host)
    add((4,), (256,), (values, np.int32(1000)))
    gk.synchronize()
    return bool(np.allclose(values.get(), host + 1))

def interrupt_after(seconds):
    threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT)).start()

class CommandLineError(Exception):
    """The gpukit command's one line for a user error (the case's outcome)."""

def cli(*arguments):
    import subprocess
    done = subprocess.run([sys.executable, "-m", "gpukit", *arguments], capture_output=True, text=True, timeout=60)
    if "Traceback" in done.stderr:
        raise AssertionError("a traceback: " + done.stderr.strip().splitlines()[-1])
    if done.returncode == 0:
        return
    raise CommandLineError(f"status {done.returncode}: " + " / ".join(done.stderr.strip().splitlines()[:2]))

def report(raised=None, usable_after=None, note=""):
    print("@@" + json.dumps({"raised": raised, "usable": usable_after, "note": note}), flush=True)

p = gk.zeros(1000, np.float32)
p.set(np.random.default_rng(0).random(1000).astype(np.float32))
n = np.int32(1000)
'''


def plant(action, at="entries"):
    """Compiles a module in another process (its entry lands in the cache), replaces its entry (or
    the stats file) by what `action` makes at `path`, and compiles the same module here."""
    where = ("glob.glob(os.path.join(cache, '*', '*.gkc'))" if at == "entries"
             else "[os.path.join(cache, 'stats')]")
    return ("import glob, subprocess\n"
            "source = 'extern \"C\" __global__ void planted(float* p) { p[0] = 5.0f; }'\n"
            "cache = os.environ['GPUKIT_CACHE_DIR']\n"
            "subprocess.run([sys.executable, '-c', 'import gpukit; gpukit.RawModule(%r)' % source], check=True)\n"
            f"for path in {where}:\n"
            "    if os.path.lexists(path): os.remove(path)\n"
            f"    {action}\n"
            "gk.RawModule(source).get_function('planted')((1,), (1,), (p,)); gk.synchronize()\n"
            "assert p[0:1].get()[0] == 5.0")


# name, group, what must happen ("error" or "clean"), the code. The code may set `note`.
CASES = [
    # Faults in kernels
    ("OOB write far past an array", "kernel fault", "error",
     "K('p[1 << 28] = 1.0f;')((1,), (1,), (p, n)); gk.synchronize()"),
    ("OOB write just past an array", "kernel fault", "error",
     "K('int i = blockIdx.x * blockDim.x + threadIdx.x; p[i] = 2.0f;')((8,), (256,), (p, n)); gk.synchronize()\n"
     "big = [gk.zeros(1000, np.float32) for _ in range(50)]; del big"),
    ("OOB read far past an array", "kernel fault", "error",
     "K('p[0] = p[1 << 28];')((1,), (1,), (p, n)); gk.synchronize()"),
    ("null pointer write", "kernel fault", "error",
     "K('p[0] = 1.0f;')((1,), (1,), (getattr(gk, 'nullptr', 0), n)); gk.synchronize()"),
    ("integer as pointer", "kernel fault", "error", "K('p[0] = 1.0f;')((1,), (1,), (4096, n)); gk.synchronize()"),
    ("explicit wild address", "kernel fault", "error",
     "K('p[3] = 1.0f;')((1,), (1,), (address(0x10), n)); gk.synchronize()"),
    ("integer division by zero", "kernel fault", "error-or-clean",
     "k = K('int z = n - 1000; p[0] = (float)(7 / z);')\nk((1,), (1,), (p, n)); gk.synchronize()"),
    ("integer modulo by zero", "kernel fault", "error-or-clean",
     "K('long long z = n - 1000; p[0] = (float)(7 % z);')((1,), (1,), (p, n)); gk.synchronize()"),
    ("INT_MIN / -1", "kernel fault", "error-or-clean",
     "K('int m = -2147483647 - 1 + (n - 1000); int d = -1 + (n - 1000); p[0] = (float)(m / d);')((1,), (1,), (p, n));"
     " gk.synchronize()"),
    ("assert(false)", "kernel fault", "error",
     "K('assert(n < 10);', params='float* p, int n')((1,), (1,), (p, n)); gk.synchronize()"),
    ("abort()", "kernel fault", "error", "K('if (n > 0) abort();')((1,), (1,), (p, n)); gk.synchronize()"),
    ("exit(3)", "kernel fault", "error", "K('if (n > 0) exit(3);')((1,), (1,), (p, n)); gk.synchronize()"),
    ("__trap()", "kernel fault", "error", "K('if (n > 0) __trap();')((1,), (1,), (p, n)); gk.synchronize()"),
    ("stack overflow (recursion)", "kernel fault", "error",
     "m = gk.RawModule('__device__ float deep(float x, int d) { volatile float pad[64]; pad[d & 63] = x; "
     "return d > 0 ? deep(x + pad[(d * 7) & 63], d + 1) : x; }\\n"
     "extern \"C\" __global__ void k(float* p, int n) { p[0] = deep(1.0f, n); }')\n"
     "m.get_function('k')((1,), (1,), (p, n)); gk.synchronize()"),
    ("fault in one block of many", "kernel fault", "error",
     "K('if (blockIdx.x == 37 && threadIdx.x == 5) p[1 << 29] = 1.0f;')((64,), (64,), (p, n)); gk.synchronize()"),
    # Hangs
    ("Ctrl-C during synchronize of an endless kernel", "hang", "error",
     "k = K('while (p[0] >= 0.0f) { p[1] += 1.0f; }')\nk((1,), (1,), (p, n)); interrupt_after(1.0); gk.synchronize()"),
    ("synchronize(timeout=1) on an endless kernel", "hang", "error",
     "k = K('while (p[0] >= 0.0f) { p[1] += 1.0f; }')\nk((1,), (1,), (p, n)); gk.synchronize(timeout=1.0)"),
    ("Stream.synchronize(timeout=1) on an endless kernel", "hang", "error",
     "s = gk.Stream()\nk = K('while (p[0] >= 0.0f) { p[1] += 1.0f; }')\nk((1,), (1,), (p, n), stream=s)\n"
     "s.synchronize(timeout=1.0)"),
    ("os.fork() after use, child launches", "hang", "clean",
     "usable()\npid = os.fork()\n"
     "if pid == 0:\n"
     "    try:\n        usable()\n        os._exit(0)\n"
     "    except Exception:\n        os._exit(0)\n"
     "_, status = os.waitpid(pid, 0)\nassert os.WIFEXITED(status), status"),
    ("interpreter exit while a daemon thread launches", "hang", "clean",
     "def loop():\n    k = K('int i = threadIdx.x; if (i < n) p[i] += 1.0f;')\n"
     "    while True: k((1,), (256,), (p, n))\n"
     "threading.Thread(target=loop, daemon=True).start(); time.sleep(0.5)"),
    # Pointer parameters
    ("None for float*", "pointer argument", "error", "K('p[0] = 1.0f;')((1,), (1,), (None, n))"),
    ("float64 array for float*", "pointer argument", "error",
     "K('p[0] = 1.0f;')((1,), (1,), (gk.zeros(4, np.float64), n))"),
    ("int32 array for float*", "pointer argument", "error",
     "K('p[0] = 1.0f;')((1,), (1,), (gk.zeros(4, np.int32), n))"),
    ("strided view for float*", "pointer argument", "error", "K('p[0] = 1.0f;')((1,), (1,), (p[::2], n))"),
    ("bytes for float*", "pointer argument", "error", "K('p[0] = 1.0f;')((1,), (1,), (b'1234', n))"),
    ("host NumPy array for float*", "pointer argument", "error",
     "K('p[0] = 1.0f;')((1,), (1,), (np.zeros(4, np.float32), n))"),
    # Launch arguments
    ("too few kernel arguments", "launch", "error", "K('p[0] = 1.0f;')((1,), (1,), (p,))"),
    ("float for an int parameter", "launch", "error", "K('p[0] = 1.0f;')((1,), (1,), (p, 2.5))"),
    ("2**40 for an int parameter", "launch", "error", "K('p[0] = 1.0f;')((1,), (1,), (p, 2**40))"),
    ("str for an int parameter", "launch", "error", "K('p[0] = 1.0f;')((1,), (1,), (p, 'x'))"),
    ("block (0,)", "launch", "error", "K('p[0] = 1.0f;')((1,), (0,), (p, n))"),
    ("block (2048,)", "launch", "error", "K('p[0] = 1.0f;')((1,), (2048,), (p, n))"),
    ("grid (-1,)", "launch", "error", "K('p[0] = 1.0f;')((-1,), (1,), (p, n))"),
    ("grid (2**40,)", "launch", "error", "K('p[0] = 1.0f;')((2**40,), (1,), (p, n))"),
    ("grid None", "launch", "error", "K('p[0] = 1.0f;')(None, (1,), (p, n))"),
    ("shared_mem=-1", "launch", "error", "K('p[0] = 1.0f;')((1,), (1,), (p, n), shared_mem=-1)"),
    ("shared_mem=2**30", "launch", "error", "K('p[0] = 1.0f;')((1,), (1,), (p, n), shared_mem=2**30)"),
    ("max_dynamic_shared_size_bytes = 2**30", "launch", "error",
     "k = K('p[0] = 1.0f;')\nk.max_dynamic_shared_size_bytes = 2**30"),
    ("unknown kernel name", "launch", "error",
     "gk.RawModule('extern \"C\" __global__ void k() {}').get_function('nope')"),
    # Array functions
    ("zeros(None)", "arrays", "error", "gk.zeros(None)"),
    ("zeros(-1)", "arrays", "error", "gk.zeros(-1)"),
    ("zeros(2**62)", "arrays", "error", "gk.zeros(2**62)"),
    ("zeros((2, -3))", "arrays", "error", "gk.zeros((2, -3))"),
    ("zeros(3, 'foo')", "arrays", "error", "gk.zeros(3, 'foo')"),
    ("empty(3, object)", "arrays", "error", "gk.empty(3, object)"),
    ("arange(0, 10, 0)", "arrays", "error", "gk.arange(0, 10, 0)"),
    ("from_dlpack(5)", "arrays", "error", "gk.from_dlpack(5)"),
    ("transpose((0, 5)) of a 2-D array", "arrays", "error", "gk.zeros((2, 3)).transpose((0, 5))"),
    ("transpose((0, 0)) of a 2-D array", "arrays", "error", "gk.zeros((2, 3)).transpose((0, 0))"),
    ("reshape(7) of 6 elements", "arrays", "error", "gk.zeros((2, 3)).reshape(7)"),
    ("index 5 of 2 rows", "arrays", "error", "gk.zeros((2, 3))[5]"),
    ("astype('x')", "arrays", "error", "gk.zeros(3).astype('x')"),
    ("set() of a wrong shape", "arrays", "error", "gk.zeros(3).set(np.zeros(4))"),
    ("full(3, 'x')", "arrays", "error", "gk.full(3, 'x')"),
    # Compiling
    ("RawModule(None)", "compile", "error", "gk.RawModule(None)"),
    ("RawModule(123)", "compile", "error", "gk.RawModule(123)"),
    ("syntax error", "compile", "error", "gk.RawModule('extern \"C\" __global__ void k( {}')"),
    ("option -fplugin=/tmp/x.so", "compile", "error",
     "gk.RawModule('extern \"C\" __global__ void k() {}', options=('-fplugin=/tmp/x.so',))"),
    ("option -Wp,-include,/etc/passwd", "compile", "error",
     "gk.RawModule('extern \"C\" __global__ void k() {}', options=('-Wp,-include,/etc/passwd',))"),
    ("option -B/tmp", "compile", "error", "gk.RawModule('extern \"C\" __global__ void k() {}', options=('-B/tmp',))"),
    ("option -o /tmp/out", "compile", "error",
     "gk.RawModule('extern \"C\" __global__ void k() {}', options=('-o', '/tmp/out'))"),
    ("option --bogus", "compile", "error", "gk.RawModule('extern \"C\" __global__ void k() {}', options=('--bogus',))"),
    ("#include \"/etc/passwd\"", "compile", "error",
     "try:\n    gk.RawModule('#include \"/etc/passwd\"\\nextern \"C\" __global__ void k() {}')\n"
     "except Exception as e:\n"
     "    assert 'root:' not in str(e) + str(getattr(e, 'log', '')), 'the log quotes /etc/passwd'\n"
     "    raise"),
    ("#include <../../../../etc/hostname>", "compile", "error",
     "gk.RawModule('#include <../../../../etc/hostname>\\nextern \"C\" __global__ void k() {}')"),
    ("GPUKIT_CHECK=bogus", "compile", "error", "os.environ['GPUKIT_CHECK'] = 'bogus'\nK('p[0] = 1.0f;', check=None)"),
    # Files and the cache
    ("cache dir writable by others", "files", "error-or-warning",
     "K('p[0] = 3.0f;')((1,), (1,), (p, n)); gk.synchronize()", 0o777),
    ("cache dir owned by another user", "files", "error-or-warning",
     "K('p[0] = 3.0f;')((1,), (1,), (p, n)); gk.synchronize()", "nobody"),
    ("FIFO planted at a cache entry", "files", "clean", plant("os.mkfifo(path)")),
    ("symlink planted at a cache entry", "files", "clean", plant("os.symlink('/etc/passwd', path)")),
    ("directory planted at a cache entry", "files", "clean", plant("os.mkdir(path)")),
    ("FIFO planted at the stats file", "files", "clean", plant("os.mkfifo(path)", at="stats")),
    ("check mode leaves no .so in /tmp", "files", "clean",
     "import glob\nbefore = set(glob.glob('/tmp/gpukit-kernel-*'))\n"
     "K('int i = threadIdx.x; if (i < n) p[i] = 1.0f;', check='memcheck')((1,), (32,), (p, n)); gk.synchronize()\n"
     "gk.take_check_report()\nleft = set(glob.glob('/tmp/gpukit-kernel-*')) - before\nassert not left, left"),
    # The command line
    ("gpukit check of a missing file", "cli", "error",
     "cli('check', '/nonexistent/kernel.cu', '-k', 'k', '-g', '1', '-b', '1')"),
    ("gpukit check of a directory", "cli", "error", "cli('check', '/tmp', '-k', 'k', '-g', '1', '-b', '1')"),
    ("gpukit check with a bad kernel name", "cli", "error",
     "open('/tmp/gk_bad_cli.cu', 'w').write('extern \"C\" __global__ void k(float* p) {}')\n"
     "cli('check', '/tmp/gk_bad_cli.cu', '--kernel', 'nope', '-g', '1', '-b', '1')"),
    ("gpukit demo --seed -1", "cli", "error", "cli('demo', '--seed', '-1')"),
    ("gpukit cache --bogus", "cli", "error", "cli('cache', '--bogus')"),
    # The default limit (60 s) is past this script's own; the limit given shows what it reports.
    ("gpukit check of an endless kernel", "cli", "error",
     "open('/tmp/gk_endless.cu', 'w').write('extern \"C\" __global__ void k(float* p) { while (p[0] >= 0.0f) {} }')\n"
     "cli('check', '/tmp/gk_endless.cu', '-k', 'k', '-g', '1', '-b', '1', '--arg', 'float32[4]', '--time-limit', '3')"),
    ("gpukit check of a faulting kernel", "cli", "error",
     "open('/tmp/gk_fault.cu', 'w').write('extern \"C\" __global__ void k(float* p) { p[1 << 28] = 1.0f; }')\n"
     "cli('check', '/tmp/gk_fault.cu', '-k', 'k', '-g', '1', '-b', '1', '--arg', 'float32[4]')"),
    ("gpukit with GPUKIT_BACKEND=nope", "cli", "error", "os.environ['GPUKIT_BACKEND'] = 'nope'\ncli('devices')"),
    # Check mode exactness
    ("__constant__ OOB names the variable", "check mode", "clean",
     "m = gk.RawModule('__constant__ float table[4];\\nextern \"C\" __global__ void k(float* p, int n) "
     "{ p[0] = table[n]; }', check='memcheck')\nm.get_function('k')((1,), (1,), (p, np.int32(6)))\ngk.synchronize()\n"
     "text = str(gk.take_check_report())\nassert 'table' in text, text"),
    ("bytes of one word per thread: no race", "check mode", "clean",
     "img = gk.zeros(256, np.uint8)\nm = gk.RawModule('extern \"C\" __global__ void k(unsigned char* q) "
     "{ q[threadIdx.x] = (unsigned char)threadIdx.x; }', check='racecheck')\n"
     "m.get_function('k')((1,), (256,), (img,))\ngk.synchronize()\nr = gk.take_check_report()\n"
     "assert not r.hazards, str(r)"),
]

RUNNER = r'''
note = ""
try:
{body}
except BaseException as e:
    message = " ".join(str(e).split())
    kind = type(e).__name__
    try:
        ok = usable()
    except BaseException as again:
        ok = "no: " + type(again).__name__ + ": " + " ".join(str(again).split())[:80]
    report(kind + ": " + message, ok)
else:
    report(None, None)
'''


def run_case(code, limit, cache_setup=None):
    program = PRELUDE + RUNNER.format(body=textwrap.indent(code, "    "))
    with tempfile.TemporaryDirectory() as cache:
        if isinstance(cache_setup, int):
            os.chmod(cache, cache_setup)
        elif isinstance(cache_setup, str):
            import pwd

            user = pwd.getpwnam(cache_setup)
            os.chown(cache, user.pw_uid, user.pw_gid)
        env = {**os.environ, "GPUKIT_BACKEND": os.environ.get("GPUKIT_BACKEND", "sim"), "GPUKIT_CACHE_DIR": cache}
        try:
            done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=limit,
                                  env=env, start_new_session=True)
        except subprocess.TimeoutExpired:
            return "HUNG", f"no end within {limit} s", None
    lines = [line for line in done.stdout.splitlines() if line.startswith("@@")]
    if done.returncode < 0:
        return "KILLED", f"signal {-done.returncode}; " + " ".join(done.stderr.split()[-12:]), None
    if not lines:
        return "KILLED", f"exit status {done.returncode}; " + " ".join(done.stderr.split()[-12:]), None
    result = json.loads(lines[-1][2:])
    if result["raised"] is None:
        warned = "Warning" in done.stderr
        return "clean", ("warned: " + done.stderr.strip().splitlines()[-1][:100]) if warned else "", None
    return "error", result["raised"], result["usable"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="run the cases whose name or group contains this")
    parser.add_argument("--limit", type=float, default=30, help="seconds a case may take (default 30)")
    parser.add_argument("--json", help="also write the outcomes to this file")
    args = parser.parse_args()
    import gpukit

    print(f"# gpukit {gpukit.__version__} from {os.path.dirname(gpukit.__file__)}")
    print("| group | case | wanted | outcome | usable after | detail |")
    print("|---|---|---|---|---|---|")
    outcomes = []
    for name, group, wanted, code, *cache_setup in CASES:
        if args.only and args.only not in name and args.only not in group:
            continue
        outcome, detail, usable = run_case(code, args.limit, *cache_setup)
        usable_text = "" if usable is None else ("yes" if usable is True else str(usable))
        print(f"| {group} | {name} | {wanted} | {outcome} | {usable_text} | {detail[:160].replace('|', '/')} |",
              flush=True)
        outcomes.append({"group": group, "case": name, "wanted": wanted, "outcome": outcome, "usable": usable,
                         "detail": detail})
    if args.json:
        with open(args.json, "w") as out:
            json.dump(outcomes, out, indent=1)


if __name__ == "__main__":
    main()
