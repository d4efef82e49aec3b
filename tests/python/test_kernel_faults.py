"""A buggy kernel never takes the Python process down, and a hung one can be given up: faults raise
KernelFaultError naming the kernel, block, thread and line; synchronize() takes a timeout and Ctrl-C
(KeyboardInterrupt); os.fork() after use gives the child a clear error; the interpreter exits cleanly
while a daemon thread launches kernels. On the simulator, whose device process contains the faults."""

import gc
import os
import select
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy
import pytest

import gpukit
from conftest import on_simulator

pytestmark = pytest.mark.skipif(not on_simulator(), reason="a faulting kernel on a GPU is a sticky error")

FAULTS = r"""
#include <cassert>
#include <cstdlib>
extern "C" __global__ void null_write(int* out) {
  if (blockIdx.x == 1 && threadIdx.x == 9) out = nullptr;
  out[threadIdx.x] = 1;
}
extern "C" __global__ void divide(int* out) {
  volatile int zero = threadIdx.x - threadIdx.x;
  out[threadIdx.x] = 7 / zero;
}
extern "C" __global__ void asserting(int* out) {
  assert(threadIdx.x != 4);
}
extern "C" __global__ void aborting(int* out) { if (threadIdx.x == 2) abort(); }
extern "C" __global__ void exiting(int* out) { exit(1); }
extern "C" __global__ void trapping(int* out) { __trap(); }
extern "C" __global__ void spin(volatile int* flag) { while (flag[0] == 0) {} }
extern "C" __global__ void add(const float* a, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}
"""


@pytest.fixture(scope="module")
def module():
    return gpukit.RawModule(FAULTS)


def assert_device_usable(module, rng):
    n = 5000
    a = rng.uniform(-1, 1, n).astype(numpy.float32)
    b = rng.uniform(-1, 1, n).astype(numpy.float32)
    out = gpukit.empty(n, numpy.float32)
    module.get_function("add")(((n + 255) // 256,), (256,), (gpukit.asarray(a), gpukit.asarray(b), out, n))
    numpy.testing.assert_array_equal(gpukit.asnumpy(out), a + b)


@pytest.mark.parametrize("kernel, reason, thread, line", [
    ("null_write", "memory_access", (9, 0, 0), 6),
    ("divide", "integer_division", None, 10),
    ("asserting", "assertion", (4, 0, 0), 13),
    ("aborting", "abort", (2, 0, 0), None),
    ("exiting", "exit", None, None),
    ("trapping", "trap", None, None),
])
def test_a_faulting_kernel_raises_and_the_device_goes_on(module, rng, kernel, reason, thread, line):
    if reason in ("memory_access", "integer_division") and gpukit.check_tools_from_environment() != "none":
        pytest.skip("check mode stops the access before it happens")
    out = gpukit.zeros(64, numpy.int32)
    with pytest.raises(gpukit.KernelFaultError) as caught:
        module.get_function(kernel)((2,), (32,), (out,))
        gpukit.synchronize()
    error = caught.value
    assert isinstance(error, gpukit.LaunchError)
    assert error.reason == reason
    assert error.kernel == kernel
    assert f"Kernel {kernel}" in str(error)
    if thread is not None:
        assert error.thread == thread
    if line is not None:
        assert error.line == line
    if reason == "memory_access":
        assert error.block == (1, 0, 0)
        assert error.address == 9 * 4
    if reason == "assertion":
        assert "thread: [4,0,0] Assertion `threadIdx.x != 4` failed." in str(error)
    assert_device_usable(module, rng)


GUARDED = r"""
extern "C" __global__ void far_write(float* p, int n) {
  if (blockIdx.x == 37 && threadIdx.x == 5) p[1 << 26] = 1.0f;
}
extern "C" __global__ void far_read(float* p, int n) {
  p[threadIdx.x] = p[n + (1 << 24)];
}
__device__ float deep(float x, int d) {
  volatile float pad[64];
  pad[d & 63] = x;
  return d > 0 ? deep(x + pad[(d * 7) & 63], d + 1) : x;
}
extern "C" __global__ void recurse(float* p, int n) { p[threadIdx.x] = deep(1.0f, n); }
__device__ float sum_down(const float* p, int i) { return i < 0 ? 0.0f : p[i] + sum_down(p, i - 1); }
extern "C" __global__ void sum_recursively(float* p, int n) { p[n] = sum_down(p, n - 1); }
"""


@pytest.mark.parametrize("kernel, grid, block, faulting_block, thread, line, offset", [
    ("far_write", 64, 64, (37, 0, 0), (5, 0, 0), 3, 1 << 26),
    ("far_read", 1, 8, (0, 0, 0), (0, 0, 0), 6, 1000 + (1 << 24)),
])
def test_an_access_far_past_an_array_raises_naming_the_block_thread_and_address(
        module, rng, kernel, grid, block, faulting_block, thread, line, offset):
    """Device memory that no allocation holds is inaccessible to kernels, as on a GPU."""
    if gpukit.check_tools_from_environment() != "none":
        pytest.skip("check mode stops the access before it happens")
    values = rng.uniform(-1, 1, 1000).astype(numpy.float32)
    p = gpukit.asarray(values)
    with pytest.raises(gpukit.KernelFaultError) as caught:
        gpukit.RawModule(GUARDED).get_function(kernel)((grid,), (block,), (p, 1000))
        gpukit.synchronize()
    error = caught.value
    assert error.reason == "memory_access"
    assert error.kernel == kernel
    assert error.block == faulting_block
    assert error.thread == thread
    assert error.line == line
    assert error.address == p.data_ptr + 4 * offset
    assert "in no allocation" in str(error)
    caught = error = None  # no reference cycle keeps p (test_synchronize_with_a_timeout... says why)
    numpy.testing.assert_array_equal(p.get(), values)  # nothing reached the array
    assert_device_usable(module, rng)


def test_unbounded_recursion_is_a_stack_overflow_not_a_hang(module, rng):
    p = gpukit.zeros(64, numpy.float32)
    start = time.monotonic()
    with pytest.raises(gpukit.KernelFaultError) as caught:
        gpukit.RawModule(GUARDED).get_function("recurse")((2,), (8,), (p, 1000))
        gpukit.synchronize()
    assert time.monotonic() - start < 20
    error = caught.value
    assert error.reason == "stack_overflow"
    assert error.kernel == "recurse"
    assert error.block[0] < 2 and error.thread[0] < 8
    assert "overflowed its stack" in str(error)
    caught = error = None  # no reference cycle keeps p
    assert_device_usable(module, rng)
    # Recursion that fits runs.
    values = rng.uniform(-1, 1, 101).astype(numpy.float32)
    values[100] = 0
    q = gpukit.asarray(values)
    gpukit.RawModule(GUARDED).get_function("sum_recursively")((1,), (1,), (q, 100))
    expected = numpy.float32(0)
    for value in values[:100]:  # the kernel's order: p[99] + (p[98] + ... + (p[0] + 0))
        expected = numpy.float32(value + expected)
    assert q.get()[100] == expected


def collect_earlier_tests_arrays():
    """An array a launch used waits for the device when it goes: one that an earlier test left in a
    reference cycle (a caught exception's traceback) must not go while an endless kernel runs, when a
    garbage collection at any allocation would wait for it for ever."""
    gc.collect()


def test_synchronize_with_a_timeout_gives_up_a_kernel_that_never_ends(module, rng):
    collect_earlier_tests_arrays()
    flag = gpukit.zeros(1, numpy.int32)
    module.get_function("spin")((1,), (1,), (flag,))
    start = time.monotonic()
    with pytest.raises(gpukit.WaitTimeoutError) as caught:
        gpukit.synchronize(timeout=0.3)
    assert isinstance(caught.value, TimeoutError)
    assert caught.value.timeout_seconds == pytest.approx(0.3)
    assert time.monotonic() - start < 30
    with pytest.raises(gpukit.InvalidArgumentError):
        gpukit.get_device().synchronize(timeout=-1)
    stream = gpukit.Stream()
    with stream:
        module.get_function("spin")((1,), (1,), (flag,))
    with pytest.raises(gpukit.WaitTimeoutError):
        stream.synchronize(timeout=0.2)
    assert_device_usable(module, rng)


def synchronize_until_interrupted():
    """gpukit.synchronize() until a Ctrl-C ends the wait, then SIGINT ignored; whether one came.

    A SIGINT the test sends may land before the wait begins (a loaded machine can hold the main
    thread back for longer than the sender waits): Python raises KeyboardInterrupt there and the
    kernel runs on, so the wait is simply entered again, as a user would press Ctrl-C again.
    """
    interrupted = False
    while True:
        try:
            gpukit.synchronize()
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            return interrupted
        except KeyboardInterrupt:
            interrupted = True


def test_ctrl_c_interrupts_synchronize_with_keyboard_interrupt(module, rng):
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers run on the main thread only")
    collect_earlier_tests_arrays()
    flag = gpukit.zeros(1, numpy.int32)
    module.get_function("spin")((2,), (64,), (flag,))
    main = threading.main_thread().ident
    stop = threading.Event()

    def press_ctrl_c():
        while not stop.wait(0.3):
            signal.pthread_kill(main, signal.SIGINT)

    presser = threading.Thread(target=press_ctrl_c)
    previous = signal.getsignal(signal.SIGINT)
    # Python's own Ctrl-C handler, whatever this process inherited: a shell that starts a program
    # in the background (`pytest &`, as a CI script may) ignores SIGINT there, and Python then
    # installs no handler, so that no KeyboardInterrupt would ever come.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    presser.start()
    try:
        assert synchronize_until_interrupted()
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        stop.set()
        presser.join()
        signal.signal(signal.SIGINT, previous)
    assert_device_usable(module, rng)


def run_script(body, timeout=120):
    """PRELUDE, then ``body``, in a new interpreter: the CompletedProcess, output as text."""
    return subprocess.run([sys.executable, "-c", PRELUDE + textwrap.dedent(body)], capture_output=True, text=True,
                          timeout=timeout)


PRELUDE = f"""
import os, signal, sys, threading, time
import numpy
import gpukit
signal.signal(signal.SIGINT, signal.default_int_handler)  # even where the parent ignores SIGINT (started with &)
gpukit.use_backend("sim")
SOURCE = {FAULTS!r}
module = gpukit.RawModule(SOURCE)
def add_works():
    a = numpy.arange(1000, dtype=numpy.float32)
    out = gpukit.empty(1000, numpy.float32)
    module.get_function("add")((4,), (256,), (gpukit.asarray(a), gpukit.asarray(a), out, 1000))
    return bool((gpukit.asnumpy(out) == 2 * a).all())
"""


def test_sigint_from_another_process_interrupts_a_hung_kernel():
    process = subprocess.Popen(
        [sys.executable, "-c", PRELUDE + textwrap.dedent("""
            flag = gpukit.zeros(1, numpy.int32)
            module.get_function("spin")((1,), (1,), (flag,))
            print("waiting", flush=True)
            interrupted = False
            while True:  # a SIGINT that lands before the wait begins leaves the kernel running: wait again
                try:
                    gpukit.synchronize()
                    signal.signal(signal.SIGINT, signal.SIG_IGN)
                    break
                except KeyboardInterrupt:
                    interrupted = True
            print("interrupted" if interrupted else "not interrupted", flush=True)
            print("usable" if add_works() else "broken", flush=True)
        """)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline() == "waiting\n"
        # Ctrl-C from outside every 0.3 s until the child's wait ends (it then ignores SIGINT).
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            time.sleep(0.3)
            process.send_signal(signal.SIGINT)
            if select.select([process.stdout], [], [], 0)[0]:
                break
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert out.split() == ["interrupted", "usable"]


def test_a_forked_child_gets_a_clear_error_and_never_hangs():
    result = run_script("""
        assert add_works()
        pid = os.fork()
        if pid == 0:
            signal.alarm(60)  # a hang fails the test instead of blocking it
            try:
                add_works()
                os._exit(3)
            except gpukit.UsageError as error:
                os._exit(0 if "fork()" in str(error) else 4)
            except BaseException:
                os._exit(5)
        _, status = os.waitpid(pid, 0)
        print(os.waitstatus_to_exitcode(status))
        print("parent", add_works())
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["0", "parent", "True"]


def test_the_interpreter_exits_cleanly_while_a_daemon_thread_launches_kernels():
    result = run_script("""
        def launch_forever():
            while True:
                add_works()
        for _ in range(2):
            threading.Thread(target=launch_forever, daemon=True).start()
        time.sleep(1.0)
        print("exiting", flush=True)
    """, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "exiting\n"
    assert "Fatal" not in result.stderr and "terminate" not in result.stderr, result.stderr


@pytest.mark.parametrize("spin", ["0", "50", "2000"])
def test_launches_are_right_however_long_the_processes_spin_for_each_other(spin):
    """GPUKIT_SIM_SPIN_US: how long the host and the device process spin before they sleep."""
    ran = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import numpy, gpukit
        step = gpukit.RawKernel(r'''
        extern "C" __global__ void step(unsigned* x, unsigned scale, unsigned add) {
          x[threadIdx.x] = x[threadIdx.x] * scale + add;
        }''', "step")
        rng = numpy.random.default_rng(7)
        start = rng.integers(1, 2**32, 32, dtype=numpy.uint32)
        x = gpukit.asarray(start)
        expected = start.copy()
        for k in range(200):
            scale, add = rng.integers(1, 2**32, 2, dtype=numpy.uint32)
            step((1,), (32,), (x, scale, add))
            if k % 5 == 0:
                gpukit.synchronize()
            expected = expected * scale + add
        print(bool((x.get() == expected).all()))
        """)], capture_output=True, text=True, timeout=120,
        env=dict(os.environ, GPUKIT_BACKEND="sim", GPUKIT_SIM_SPIN_US=spin))
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["True"]


def test_a_bad_spin_time_is_an_error():
    ran = subprocess.run([sys.executable, "-c", "import gpukit; gpukit.zeros(4)"], capture_output=True, text=True,
                         timeout=120, env=dict(os.environ, GPUKIT_BACKEND="sim", GPUKIT_SIM_SPIN_US="soon"))
    assert ran.returncode != 0
    assert "GPUKIT_SIM_SPIN_US=soon: give the microseconds" in ran.stderr
