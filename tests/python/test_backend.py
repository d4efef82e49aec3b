"""gpukit._backend: backend selection, devices and their properties, the current device."""

import os
import subprocess
import sys
import textwrap

import pytest

import gpukit


def test_the_selected_backend_is_the_one_asked_for():
    assert gpukit.backend() in ("cuda", "sim")
    wanted = os.environ.get("GPUKIT_BACKEND", "auto")
    if wanted != "auto":
        assert gpukit.backend() == wanted


def test_asking_again_for_the_selected_backend_is_fine_and_another_is_refused():
    gpukit.use_backend(gpukit.backend())
    other = "sim" if gpukit.backend() == "cuda" else "cuda"
    with pytest.raises((gpukit.UsageError, gpukit.BackendUnavailableError)):
        gpukit.use_backend(other)


def test_an_unknown_backend_name_says_what_is_accepted():
    with pytest.raises(gpukit.InvalidArgumentError, match="cuda.*sim.*auto|auto.*cuda.*sim"):
        gpukit.use_backend("opencl")


def test_cuda_availability_is_a_boolean_with_a_reason_when_false():
    available = gpukit.cuda_available()
    assert isinstance(available, bool)
    assert (gpukit.cuda_unavailable_reason() == "") == available


def test_devices_have_the_limits_of_a_gpu():
    devices = gpukit.devices()
    assert devices, "the selected backend has no device"
    for ordinal, device in enumerate(devices):
        assert device.id == ordinal
        assert device.backend == gpukit.backend()
        assert device.name
        limits = device.properties.limits
        assert limits.max_threads_per_block == 1024
        assert limits.warp_size == 32
        assert limits.max_block_dim == (1024, 1024, 64)
        assert limits.max_grid_dim[1:] == (65535, 65535)
        free, total = device.mem_info
        assert 0 < free <= total
        assert device.compute_capability == device.properties.compute_capability
        assert repr(device).startswith(f"<gpukit.Device {ordinal} (")


def test_the_simulator_is_a_device_of_its_own_in_all_devices():
    backends = [device.backend for device in gpukit.all_devices()]
    assert backends[-1] == "sim"
    # As many as GPUKIT_SIM_DEVICES asks (conftest.py: 4), numbered from 0, after the GPUs.
    simulated = [device.id for device in gpukit.all_devices() if device.backend == "sim"]
    assert simulated == list(range(int(os.environ["GPUKIT_SIM_DEVICES"])))
    assert backends[-len(simulated):] == ["sim"] * len(simulated)


def test_devices_compare_and_hash_by_backend_and_ordinal():
    first = gpukit.Device(0)
    assert first == gpukit.Device(0)
    assert hash(first) == hash(gpukit.Device(0))
    assert first != "device 0"
    assert gpukit.Device() == gpukit.get_device()


def test_with_device_makes_it_current_and_restores_the_previous_one():
    before = gpukit.get_device()
    device = gpukit.devices()[-1]
    with device as entered:
        assert entered == device
        assert gpukit.get_device() == device
        assert gpukit.empty(4).device == device
    assert gpukit.get_device() == before


def test_a_device_ordinal_beyond_the_devices_is_refused():
    with pytest.raises(gpukit.GpukitError):
        gpukit.Device(len(gpukit.devices()) + 5)


def test_the_environment_variable_chooses_the_backend_in_a_new_process():
    code = "import gpukit; print(gpukit.backend())"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            env={**os.environ, "GPUKIT_BACKEND": "sim"})
    assert result.stdout.strip() == "sim"


def test_synchronize_waits_for_the_current_device():
    gpukit.synchronize()
    gpukit.get_device().synchronize()


def _run_on_the_simulator(code, **env):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, GPUKIT_BACKEND="sim", **env))


def test_the_simulated_device_can_have_less_memory_than_the_host():
    """GPUKIT_SIM_MEMORY: work larger than a device, tested on a machine of any size."""
    ran = _run_on_the_simulator("""
        import gpukit
        device = gpukit.get_device()
        print(device.properties.total_memory, device.mem_info)
        kept = gpukit.zeros(8 << 20, dtype="float32")
        print(device.mem_info[0])
        try:
            gpukit.zeros(12 << 20, dtype="float32")
        except gpukit.OutOfMemoryError as error:
            print("refused", "64.0 MiB" in str(error) or "48.0 MiB" in str(error))
        print(float(gpukit.ones(1000).sum()))
        """, GPUKIT_SIM_MEMORY="64M")
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert lines[0] == f"{64 << 20} ({64 << 20}, {64 << 20})"
    assert lines[1:] == [str(32 << 20), "refused True", "1000.0"]


@pytest.mark.parametrize("value", ["lots", "0", "-5", "12Q", "64MB", "99999999999T"])
def test_a_simulated_memory_size_that_is_not_one_is_an_error(value):
    ran = _run_on_the_simulator("import gpukit; gpukit.zeros(4)", GPUKIT_SIM_MEMORY=value)
    assert ran.returncode != 0
    assert f"GPUKIT_SIM_MEMORY={value}: give the simulated device's memory in bytes" in ran.stderr
