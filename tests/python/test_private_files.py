"""The simulator's files live in one private directory per process (mkdtemp, mode 0700) and go with
it: nothing is written under a predictable name in $TMPDIR, and nothing is left there at exit, after
plain and check-mode modules alike (check mode once left /tmp/gpukit-kernel-*.so behind)."""

import os
import re
import signal
import stat
import subprocess
import sys
import time

import pytest

SCRIPT = r"""
import os, sys
import numpy
import gpukit
gpukit.use_backend("sim")
SOURCE = 'extern "C" __global__ void scale(float* x, float a, int n) {' \
         ' int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= a; }'
rng = numpy.random.default_rng()
values = rng.standard_normal(1000).astype(numpy.float32)
for check in (False, "memcheck,racecheck"):
    module = gpukit.RawModule(SOURCE, options=("-DVARIANT=%d" % rng.integers(1 << 30),), check=check)
    x = gpukit.asarray(values)
    module.get_function("scale")((4,), (256,), (x, numpy.float32(2.5), numpy.int32(values.size)))
    gpukit.synchronize()
    assert numpy.allclose(gpukit.asnumpy(x), values * 2.5)
# While it runs: only private directories of this process's in $TMPDIR, mode 0700, no loose file.
for name in os.listdir(os.environ["TMPDIR"]):
    path = os.path.join(os.environ["TMPDIR"], name)
    status = os.lstat(path)
    print(name, oct(status.st_mode & 0o7777), "dir" if os.path.isdir(path) else "file")
"""


@pytest.mark.parametrize("cache", ["on", "off"])
def test_nothing_is_left_in_tmpdir_and_what_is_there_is_private(tmp_path, cache):
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    environment = dict(os.environ, TMPDIR=str(tmpdir), GPUKIT_BACKEND="sim",
                       GPUKIT_CACHE_DIR=str(tmp_path / "cache"))
    if cache == "off":
        environment["GPUKIT_CACHE_DISABLE"] = "1"
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=environment,
                            timeout=600)
    assert result.returncode == 0, result.stderr
    seen = [line.split() for line in result.stdout.splitlines()]
    assert seen, "the simulator made no private directory"
    for name, mode, kind in seen:
        assert kind == "dir" and mode == "0o700", (name, mode, kind)
        assert not name.startswith("gpukit-kernel-"), name
    assert list(tmpdir.iterdir()) == []
    if cache == "on":
        assert stat.S_IMODE((tmp_path / "cache").stat().st_mode) == 0o700



# The device process's directory of loaded modules: "gpukit-sim-" and mkdtemp's six characters.
DEVICE_PROCESS_DIRECTORY = re.compile(r"gpukit-sim-[A-Za-z0-9]{6}")

ENDS_ABRUPTLY = r"""
import os, signal, sys
import numpy
import gpukit
SOURCE = 'extern "C" __global__ void twice(float* x) { x[threadIdx.x] *= 2; }'
x = gpukit.asarray(numpy.arange(32, dtype=numpy.float32))
gpukit.RawModule(SOURCE).get_function("twice")((1,), (32,), (x,))
gpukit.synchronize()
print(*(name for name in os.listdir(os.environ["TMPDIR"])), flush=True)
os.kill(os.getpid(), signal.SIGKILL) if sys.argv[1] == "sigkill" else os._exit(0)
"""


@pytest.mark.parametrize("how", ["sigkill", "os._exit"])
def test_a_host_that_ends_abruptly_leaves_no_directory_of_modules(tmp_path, how):
    # No exit handler of the host runs: the device process sees its end and removes its directory.
    environment = dict(os.environ, TMPDIR=str(tmp_path), GPUKIT_BACKEND="sim", GPUKIT_SIM_ISOLATION="1",
                       GPUKIT_CACHE_DIR=str(tmp_path / "cache"))
    environment.pop("GPUKIT_SIM_SANDBOX", None)
    result = subprocess.run([sys.executable, "-c", ENDS_ABRUPTLY, how], capture_output=True, text=True,
                            env=environment, timeout=300)
    assert result.returncode in (0, -signal.SIGKILL), result.stderr
    assert any(DEVICE_PROCESS_DIRECTORY.fullmatch(name) for name in result.stdout.split()), result.stdout
    deadline = time.monotonic() + 20
    while any(DEVICE_PROCESS_DIRECTORY.fullmatch(path.name) for path in tmp_path.iterdir()):
        assert time.monotonic() < deadline, sorted(path.name for path in tmp_path.iterdir())
        time.sleep(0.05)
