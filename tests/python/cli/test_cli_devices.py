"""gpukit devices: one line per device, --long with every limit, --json with every property."""

import json
import re

import gpukit
from cli_helpers import assert_one_line_error, run_in_process
from conftest import on_gpu


def test_one_line_per_device_naming_its_backend_and_memory(capsys):
    status, out, err = run_in_process(capsys, "devices")
    assert status == 0 and err == ""
    device_lines = [line for line in out.splitlines() if re.match(r"(GPU|SIM) \d+: ", line)]
    assert len(device_lines) == len(gpukit.all_devices())
    simulator = gpukit.all_devices()[-1]
    assert re.search(rf"^SIM 0: {re.escape(simulator.name)} \(backend sim, [\d.]+ [KMGT]iB\)", out, re.M)
    for device in (device for device in gpukit.all_devices() if device.backend == "cuda"):
        assert re.search(rf"^GPU {device.id}: {re.escape(device.name)} \(backend cuda, sm_\d+a?, [\d.]+ GiB\)", out,
                         re.M)


def test_the_default_device_is_marked_once(capsys):
    _, out, _ = run_in_process(capsys, "devices")
    marked = [line for line in out.splitlines() if line.endswith("[default]")]
    assert len(marked) == 1
    assert marked[0].startswith("GPU 0:" if gpukit.backend() == "cuda" else "SIM 0:")


def test_without_a_gpu_it_says_why(capsys):
    _, out, _ = run_in_process(capsys, "devices")
    if on_gpu():
        assert "No GPU" not in out
    elif gpukit.cuda_unavailable_reason():
        assert re.search(r"^No GPU \(cuda\): .+\. \(gpukit info says where it looked\.\)$", out, re.M)


def test_long_lists_every_limit_launches_are_checked_against(capsys):
    status, out, _ = run_in_process(capsys, "devices", "--long")
    assert status == 0
    simulator = out[out.index("SIM 0:"):]
    properties = gpukit.all_devices()[-1].properties
    limits = properties.limits
    expected = {
        "max threads per block": str(limits.max_threads_per_block),
        "max block dims": " x ".join(map(str, limits.max_block_dim)),
        "max grid dims": " x ".join(map(str, limits.max_grid_dim)),
        "shared memory per block": "48 KiB",
        "shared memory per block (opt-in)": "227 KiB",
        "registers per block": str(properties.registers_per_block),
        "multiprocessors (SMs)": str(properties.multiprocessor_count),
        "warp size": "32",
        "compute capability": "9.0 (kernels compile for host-",
    }
    for label, value in expected.items():
        assert re.search(rf"^    {re.escape(label)} +{re.escape(value)}", simulator, re.M), f"{label}: {value}"
    assert "clock" not in simulator  # the simulator has none, and says nothing rather than 0 MHz


def test_json_has_every_property_of_every_device(capsys):
    status, out, _ = run_in_process(capsys, "devices", "--json")
    assert status == 0
    described = json.loads(out)
    assert [entry["label"] for entry in described] == [
        f"{device.backend_info.device_label} {device.id}" for device in gpukit.all_devices()]
    for entry, device in zip(described, gpukit.all_devices()):
        properties = device.properties
        assert entry["backend"] == device.backend and entry["name"] == device.name
        assert entry["total_memory_bytes"] == properties.total_memory
        assert entry["max_block_dim"] == list(properties.limits.max_block_dim)
        assert entry["shared_memory_per_block_optin_bytes"] == properties.limits.shared_memory_per_block_optin
        assert entry["warp_size"] == properties.limits.warp_size
        assert entry["target"] == properties.target
    assert sum(entry["default"] for entry in described) == 1


def test_several_devices_show_which_reach_each_other(capsys):
    status, out, _ = run_in_process(capsys, "devices")
    assert status == 0
    for backend in {device.backend for device in gpukit.all_devices()}:
        of_backend = [device for device in gpukit.all_devices() if device.backend == backend]
        if len(of_backend) < 2:
            continue
        table = out[out.index(f"Peer access ({backend})"):].splitlines()
        labels = [f"{device.backend_info.device_label} {device.id}" for device in of_backend]
        assert table[1].split() == [word for text in labels for word in text.split()]
        for row, line in zip(of_backend, table[2:]):
            cells = line.split()[2:]
            assert cells == ["-" if row == column else ("yes" if row.can_access_peer(column) else "no")
                             for column in of_backend]


def test_json_lists_the_peers_each_device_reaches(capsys):
    _, out, _ = run_in_process(capsys, "devices", "--json")
    for entry, device in zip(json.loads(out), gpukit.all_devices()):
        assert entry["peer_access"] == [other.id for other in gpukit.all_devices()
                                        if other.backend == device.backend and device.can_access_peer(other)]


def test_long_and_json_are_exclusive(capsys):
    status, _, err = run_in_process(capsys, "devices", "--long", "--json")
    assert status == 2
    assert_one_line_error(err, "gpukit devices", "not allowed with argument")
