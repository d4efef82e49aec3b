"""On a GPU, waits for the device take a timeout and give way to Ctrl-C, as on the simulator
(tests/python/test_kernel_faults.py): CUDA's own waits do neither, so gpukit hands a long wait to
a waiter thread (src/backends/cuda/device_waiter.hpp). The GPU cannot stop a running kernel: the
kernels here end by themselves after a second or two, and the device is usable afterwards."""

import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy
import pytest

import gpukit

pytestmark = pytest.mark.needs_gpu

# Spins for about `milliseconds` by the GPU's global nanosecond timer.
SPIN = r"""
extern "C" __global__ void spin(int milliseconds, int* done) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now)); }
  while (now - start < 1000000ull * milliseconds);
  done[0] = 1;
}
"""


@pytest.fixture
def spin():
    return gpukit.RawKernel(SPIN, "spin")


@pytest.mark.parametrize("waiter", ["device", "stream", "event"])
def test_a_wait_past_its_timeout_raises_and_the_gpu_finishes_the_kernel(spin, waiter):
    done = gpukit.zeros(1, numpy.int32)
    stream = gpukit.Stream(non_blocking=True)
    spin((1,), (1,), (1500, done), stream=stream)
    event = gpukit.Event()
    event.record(stream)
    wait = {"device": gpukit.synchronize, "stream": stream.synchronize, "event": event.synchronize}[waiter]
    started = time.monotonic()
    with pytest.raises(gpukit.WaitTimeoutError) as caught:
        wait(timeout=0.2)
    assert 0.15 < time.monotonic() - started < 1.0
    assert caught.value.timeout_seconds == pytest.approx(0.2)
    assert "CUDA cannot stop a running kernel" in str(caught.value)
    wait(timeout=30)  # the kernel ends by itself
    assert done.get()[0] == 1
    again = gpukit.zeros(1, numpy.int32)
    spin((1,), (1,), (1, again))
    gpukit.synchronize()
    assert again.get()[0] == 1


def test_a_short_wait_with_a_timeout_returns_at_once(spin):
    done = gpukit.zeros(1, numpy.int32)
    spin((1,), (1,), (1, done))
    gpukit.synchronize(timeout=10)
    assert done.get()[0] == 1


def test_a_long_wait_in_one_thread_holds_up_no_wait_in_another(spin):
    slow, fast = gpukit.Stream(non_blocking=True), gpukit.Stream(non_blocking=True)
    slow_done, fast_done = gpukit.zeros(1, numpy.int32), gpukit.zeros(1, numpy.int32)
    spin((1,), (1,), (1500, slow_done), stream=slow)
    waiting = threading.Thread(target=slow.synchronize)
    waiting.start()
    time.sleep(0.1)  # the slow wait has gone to a waiter thread
    spin((1,), (1,), (50, fast_done), stream=fast)
    started = time.monotonic()
    fast.synchronize(timeout=1.0)
    assert time.monotonic() - started < 0.5
    assert fast_done.get()[0] == 1
    waiting.join()
    assert slow_done.get()[0] == 1


def test_ctrl_c_interrupts_a_wait_for_the_gpu():
    script = textwrap.dedent(f"""
        import signal, numpy, gpukit
        signal.signal(signal.SIGINT, signal.default_int_handler)  # even where the parent ignores SIGINT
        spin = gpukit.RawKernel({SPIN!r}, "spin")
        done = gpukit.zeros(1, numpy.int32)
        spin((1,), (1,), (3000, done))
        print("waiting", flush=True)
        try:
            gpukit.synchronize()
            print("finished", flush=True)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        gpukit.synchronize()
        print("done", int(done.get()[0]), flush=True)
    """)
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        assert process.stdout.readline() == "waiting\n"
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert out.split() == ["interrupted", "done", "1"]
