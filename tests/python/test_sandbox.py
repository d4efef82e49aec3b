"""gpukit.set_sandbox(True) (GPUKIT_SIM_SANDBOX=1): on the simulator, kernels run in a device process
with no network, a private temporary directory, every other file read-only and no other process in
reach; asked of a backend without a sandbox, or where the system forbids one, it is an error and
kernels never run unconfined. The kernels below make the system calls themselves: on the simulator
a kernel is native code."""

import errno
import os
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time

import numpy
import pytest

import gpukit
from conftest import on_simulator

PROBES = r"""
extern "C" int open(const char*, int, ...);
extern "C" int close(int);
extern "C" long write(int, const void*, unsigned long);
extern "C" int socket(int, int, int);
extern "C" int connect(int, const void*, unsigned);
extern "C" int kill(int, int);
extern "C" char* getenv(const char*);
extern "C" int* __errno_location(void);

__device__ int error_of(int result) { return result >= 0 ? 0 : *__errno_location(); }

// Creates `path` (or, when it is empty, a file in $TMPDIR) and writes `byte` into it: 0 or errno.
extern "C" __global__ void create_file(const char* path, unsigned char byte, int* result) {
  char in_tmp[512];
  if (path[0] == 0) {
    const char* tmp = getenv("TMPDIR");
    int n = 0;
    for (; tmp && tmp[n] && n < 400; ++n) in_tmp[n] = tmp[n];
    const char name[] = "/written-by-a-kernel";
    for (int i = 0; i < (int)sizeof name; ++i) in_tmp[n + i] = name[i];
    path = in_tmp;
  }
  const int fd = open(path, 01 | 0100 | 01000 /* O_WRONLY|O_CREAT|O_TRUNC */, 0600);
  result[0] = error_of(fd);
  if (fd >= 0) {
    if (write(fd, &byte, 1) != 1) result[0] = -1;
    close(fd);
  }
}

// Connects to 127.0.0.1:`port` over TCP: result[0] for socket(), result[1] for connect().
extern "C" __global__ void connect_to(int port, int* result) {
  const int s = socket(2 /* AF_INET */, 1 /* SOCK_STREAM */, 0);
  result[0] = error_of(s);
  if (s < 0) return;
  unsigned char address[16] = {2, 0, (unsigned char)(port >> 8), (unsigned char)port, 127, 0, 0, 1};
  result[1] = error_of(connect(s, address, sizeof address));
  close(s);
}

// Signal 0 to `pid` (nothing is sent; it asks whether a signal could reach it): 0 or errno.
extern "C" __global__ void signal_process(int pid, int* result) { result[0] = error_of(kill(pid, 0)); }

extern "C" __global__ void null_write(int* out) {
  if (threadIdx.x == 3) out = nullptr;
  out[threadIdx.x] = 1;
}
"""

pytestmark = pytest.mark.skipif(not on_simulator(), reason="the sandbox confines the simulator's kernels")


@pytest.fixture(scope="module")
def probes():
    return gpukit.RawModule(PROBES)


@pytest.fixture
def sandbox():
    """Kernels in the sandbox for the test, out of it afterwards."""
    try:
        gpukit.set_sandbox(True)
    except gpukit.BackendUnavailableError as error:
        gpukit.set_sandbox(False)
        if "namespace" in str(error):
            pytest.skip(f"this system forbids the sandbox: {error}")
        raise
    yield
    gpukit.set_sandbox(False)
    assert not gpukit.sandboxed()


def create_file(probes, path, byte):
    name = gpukit.asarray(numpy.frombuffer(os.fsencode(path) + b"\0", dtype=numpy.uint8))
    result = gpukit.full(1, -7, dtype=numpy.int32)
    probes.get_function("create_file")((1,), (1,), (name, numpy.uint8(byte), result))
    return int(result.get()[0])


def connect_to(probes, port):
    result = gpukit.full(2, -7, dtype=numpy.int32)
    probes.get_function("connect_to")((1,), (1,), (numpy.int32(port), result))
    return [int(value) for value in result.get()]


def signal_process(probes, pid):
    result = gpukit.full(1, -7, dtype=numpy.int32)
    probes.get_function("signal_process")((1,), (1,), (numpy.int32(pid), result))
    return int(result.get()[0])


def test_the_simulator_says_it_has_a_sandbox():
    assert gpukit.get_device().backend_info.capabilities.sandbox
    assert "sandbox=True" in repr(gpukit.get_device().backend_info.capabilities)


def test_a_kernel_writes_outside_its_tmp_without_the_sandbox_and_cannot_inside(probes, tmp_path, rng):
    byte = int(rng.integers(1, 256))
    outside = tmp_path / "outside"
    assert create_file(probes, outside, byte) == 0
    assert outside.read_bytes() == bytes([byte])
    outside.unlink()

    try:
        gpukit.set_sandbox(True)
    except gpukit.BackendUnavailableError as error:
        gpukit.set_sandbox(False)
        pytest.skip(f"this system forbids the sandbox: {error}")
    try:
        assert gpukit.sandboxed()
        assert create_file(probes, outside, byte) == errno.EROFS
        assert not outside.exists()
        # Its own $TMPDIR is the one place it writes, a tmpfs this process never sees.
        assert create_file(probes, "", byte) == 0
    finally:
        gpukit.set_sandbox(False)
    assert create_file(probes, outside, byte ^ 0xFF) == 0
    assert outside.read_bytes() == bytes([byte ^ 0xFF])


def test_in_the_sandbox_no_socket_can_be_made(probes, sandbox):
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        assert connect_to(probes, listener.getsockname()[1])[0] == errno.EPERM


def test_without_the_sandbox_the_same_kernel_connects(probes):
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        assert connect_to(probes, listener.getsockname()[1]) == [0, 0]


def test_in_the_sandbox_no_process_outside_can_be_signalled(probes, sandbox):
    assert signal_process(probes, os.getpid()) == errno.ESRCH
    assert signal_process(probes, -1) == errno.ESRCH  # every process it may signal: none but itself


def test_without_the_sandbox_the_same_kernel_reaches_this_process(probes):
    assert signal_process(probes, os.getpid()) == 0


def test_a_fault_in_the_sandbox_is_reported_and_the_restart_enters_it_again(probes, sandbox, tmp_path):
    out = gpukit.zeros(32, dtype=numpy.int32)
    with pytest.raises(gpukit.KernelFaultError) as caught:
        probes.get_function("null_write")((1,), (32,), (out,))
        gpukit.synchronize()
    assert caught.value.kernel == "null_write"
    assert caught.value.thread == (3, 0, 0)
    assert caught.value.line == PROBES.splitlines().index("  out[threadIdx.x] = 1;") + 1
    assert gpukit.sandboxed()
    assert create_file(probes, tmp_path / "after-the-fault", 5) == errno.EROFS
    assert not (tmp_path / "after-the-fault").exists()


def test_modules_loaded_before_keep_their_variables_in_the_sandbox(rng):
    module = gpukit.RawModule(r"""
__device__ int counter[4];
extern "C" __global__ void bump(int by) { counter[threadIdx.x] += by; }
""")
    by = int(rng.integers(1, 1000))
    module.get_function("bump")((1,), (4,), (numpy.int32(by),))
    try:
        gpukit.set_sandbox(True)
    except gpukit.BackendUnavailableError as error:
        gpukit.set_sandbox(False)
        pytest.skip(f"this system forbids the sandbox: {error}")
    try:
        module.get_function("bump")((1,), (4,), (numpy.int32(by),))
        numpy.testing.assert_array_equal(module.get_global("counter", numpy.int32).get(), [2 * by] * 4)
    finally:
        gpukit.set_sandbox(False)


def test_set_sandbox_takes_a_bool_only():
    with pytest.raises(TypeError, match="on"):
        gpukit.set_sandbox(None)
    with pytest.raises(TypeError, match="on"):
        gpukit.set_sandbox("yes")
    assert not gpukit.sandboxed()


def run_python(code, env=None, prefix=()):
    environment = dict(os.environ, GPUKIT_BACKEND="sim", **(env or {}))
    return subprocess.run([*prefix, sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120, env=environment)


FILE_PROBE = f"""
import errno, os, sys, numpy, gpukit
probes = gpukit.RawModule({PROBES!r})
def create_file(path):
    name = gpukit.asarray(numpy.frombuffer(os.fsencode(path) + b"\\0", dtype=numpy.uint8))
    result = gpukit.full(1, -7, dtype=numpy.int32)
    probes.get_function("create_file")((1,), (1,), (name, numpy.uint8(1), result))
    return int(result.get()[0])
"""


def test_the_environment_variable_sandboxes_from_the_start(tmp_path):
    outside = tmp_path / "outside"
    ran = run_python(FILE_PROBE + f"print(gpukit.sandboxed(), errno.errorcode.get(create_file({str(outside)!r})))",
                     env={"GPUKIT_SIM_SANDBOX": "1"})
    if "namespace" in ran.stderr:
        pytest.skip(f"this system forbids the sandbox: {ran.stderr.strip().splitlines()[-1]}")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["True", "EROFS"]
    assert not outside.exists()


def test_use_backend_takes_sandbox_true(tmp_path):
    outside = tmp_path / "outside"
    ran = run_python("import gpukit\ngpukit.use_backend('sim', sandbox=True)\n" + FILE_PROBE +
                     f"print(gpukit.sandboxed(), create_file({str(outside)!r}) == errno.EROFS)")
    if "namespace" in ran.stderr:
        pytest.skip(f"this system forbids the sandbox: {ran.stderr.strip().splitlines()[-1]}")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["True", "True"]


@pytest.mark.parametrize("env, message", [
    ({"GPUKIT_SIM_SANDBOX": "maybe"}, "GPUKIT_SIM_SANDBOX=maybe: say '1'"),
    ({"GPUKIT_SIM_SANDBOX": "1", "GPUKIT_SIM_ISOLATION": "0"}, "GPUKIT_SIM_ISOLATION=0 runs them in this process"),
])
def test_a_sandbox_that_cannot_be_had_from_the_environment_is_an_error(env, message):
    ran = run_python("import gpukit\ngpukit.zeros(4)\n", env=env)
    assert ran.returncode != 0
    assert message in ran.stderr


def test_set_sandbox_with_kernels_in_this_process_is_refused():
    ran = run_python("""
        import gpukit
        try:
            gpukit.set_sandbox(True)
        except gpukit.BackendUnavailableError as error:
            print(error)
        gpukit.set_sandbox(False)
        print(gpukit.sandboxed())
        """, env={"GPUKIT_SIM_ISOLATION": "0"})
    assert ran.returncode == 0, ran.stderr
    assert "GPUKIT_SIM_ISOLATION=0 runs them in this process, which cannot enter one" in ran.stdout
    assert ran.stdout.split()[-1] == "False"


def without_user_namespaces():
    """A command prefix that runs the rest in a user namespace which may create no other (as a
    system with unprivileged user namespaces turned off), or None where that cannot be made."""
    unshare = shutil.which("unshare")
    if not unshare:
        return None
    prefix = [unshare, "--user", "--map-root-user", "sh", "-c",
              'echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"', "sh"]
    probe = subprocess.run([*prefix, "true"], capture_output=True)
    return prefix if probe.returncode == 0 else None


def test_where_the_system_forbids_namespaces_it_is_an_error_never_unconfined(tmp_path):
    prefix = without_user_namespaces()
    if prefix is None:
        pytest.skip("cannot make a process without user namespaces here (needs unshare(1) and user namespaces)")
    outside = tmp_path / "outside"
    ran = run_python(FILE_PROBE + f"""
try:
    gpukit.set_sandbox(True)
except gpukit.BackendUnavailableError as error:
    print("refused:", error)
try:
    create_file({str(outside)!r})
except gpukit.BackendUnavailableError as error:
    print("launch refused too:", error)
print("exists:", os.path.exists({str(outside)!r}))
gpukit.set_sandbox(False)
print("out of the sandbox:", create_file({str(outside)!r}), os.path.exists({str(outside)!r}))
""", prefix=prefix)
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert lines[0].startswith("refused: The simulator's device process cannot start in the sandbox: "), lines[0]
    assert "a new user namespace (unshare) was refused" in lines[0]
    assert "unprivileged_userns_clone" in lines[0]
    assert lines[1].startswith("launch refused too: The simulator's device process cannot start in the sandbox")
    assert lines[2] == "exists: False"
    assert lines[3] == "out of the sandbox: 0 True"


def test_the_sandboxed_processes_end_with_this_one(tmp_path):
    """Killed outright, the program leaves no device process behind, in or out of the sandbox."""
    ran = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import os, sys, time, gpukit
        gpukit.set_sandbox(True)
        gpukit.zeros(4).get()
        print(os.getpid(), flush=True)
        time.sleep(60)
        """)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, GPUKIT_BACKEND="sim"))
    line = ran.stdout.readline()
    if not line:
        ran.wait()
        error = ran.stderr.read()
        if "namespace" in error:
            pytest.skip("this system forbids the sandbox")
        pytest.fail(error)
    descendants = []
    pending = [int(line)]
    while pending:
        pid = pending.pop()
        for task in os.listdir(f"/proc/{pid}/task"):
            children = open(f"/proc/{pid}/task/{task}/children").read().split()
            descendants += [int(child) for child in children]
            pending += [int(child) for child in children]
    assert len(descendants) >= 2  # the spawned device process and, in its PID namespace, the one running kernels
    ran.send_signal(signal.SIGKILL)
    ran.wait()
    deadline = time.monotonic() + 10
    alive = descendants
    while alive and time.monotonic() < deadline:
        alive = [pid for pid in alive if is_running(pid)]
        time.sleep(0.05)
    assert not alive


def is_running(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


SHRINK = r"""
extern "C" int ftruncate(int, long);
extern "C" int* __errno_location(void);
// Tries to shrink every file the device process has open to nothing: 0 or errno, per descriptor.
extern "C" __global__ void shrink_every_file(int* result) {
  for (int fd = 0; fd < 64; ++fd) result[fd] = ftruncate(fd, 0) == 0 ? 0 : *__errno_location();
}
"""


@pytest.mark.parametrize("sandboxed", [False, True], ids=["plain", "sandboxed"])
def test_a_kernel_cannot_shrink_the_memory_it_shares_with_this_process(sandboxed, rng, request):
    """The device memory and the control block are files both processes map: shrunk under this
    process, its next touch would be SIGBUS. Their size is sealed."""
    if sandboxed:
        request.getfixturevalue("sandbox")
    result = gpukit.full(64, -7, dtype=numpy.int32)
    gpukit.RawModule(SHRINK).get_function("shrink_every_file")((1,), (1,), (result,))
    assert 0 not in result.get()[3:].tolist()
    values = rng.uniform(-1, 1, 100_000).astype(numpy.float32)
    numpy.testing.assert_array_equal(gpukit.asarray(values).get(), values)
