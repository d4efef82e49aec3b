"""gpukit devices: every device gpukit can run kernels on, one line each, or their limits in full."""

import argparse
import json

from .. import _core
from ._format import first_sentence, format_bytes

HELP = ("list the GPUs and the simulator, with their limits (--long) or as JSON (--json), and which devices reach "
        "each other's memory (peer access)")

EXAMPLES = """\
examples:
  gpukit devices            GPU 0: NVIDIA H200 (backend cuda, sm_90, 139.8 GiB)
                            SIM 0: gpukit CPU simulator (16 worker threads) (backend sim, 125.5 GiB)
  gpukit devices --long     every limit a launch is checked against, per device
  gpukit devices --json     the same facts for scripts, sizes in bytes

With several devices of one backend, a matrix says which reach which directly (peer access over NVLink
or PCIe); copies between the others go through the host.
"""


def add_to(subcommands):
    parser = subcommands.add_parser("devices", help=HELP, description=HELP + ".", epilog=EXAMPLES,
                                    formatter_class=argparse.RawDescriptionHelpFormatter)
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--long", "-l", action="store_true", help="every property and limit of each device")
    output.add_argument("--json", action="store_true", help="a JSON list of the devices, every property included")
    parser.set_defaults(run=run)


def run(args):
    selected = _core.selected_backend().name
    devices = _core.all_devices()
    described = [describe(device, selected, devices) for device in devices]
    if args.json:
        print(json.dumps(described, indent=2))
        return 0
    for device in described:
        print(f"{device['label']}: {device['name']} ({summary(device)}){'  [default]' if device['default'] else ''}")
        if args.long:
            for label, value in long_rows(device):
                print(f"    {label:<34}{value}")
            print()
    for backend in _core.backends():
        of_backend = [device for device in devices if device.backend == backend.name]
        if len(of_backend) > 1:
            print()
            print("\n".join(peer_matrix(of_backend)))
    for backend in _core.backends():  # an accelerator that cannot run here says why
        if not backend.capabilities.simulated and not any(device["backend"] == backend.name for device in described):
            reason = first_sentence(backend.unavailable_reason)
            print(f"No {backend.device_label} ({backend.name}): {reason} (gpukit info says where it looked.)")
    return 0


def label(device):
    """``'GPU 0'`` or ``'SIM 0'``: how this listing names a device, after ``nvidia-smi -L``."""
    return f"{device.backend_info.device_label} {device.id}"


def peer_matrix(devices):
    """Lines of a table: whether each row's device reaches each column's memory directly."""
    labels = [label(device) for device in devices]
    width = max(len(text) for text in labels) + 2
    lines = [f"Peer access ({devices[0].backend}): can the row's device reach the column's memory directly? "
             "(no: copies between them go through the host)",
             " " * width + "".join(f"{text:>{width}}" for text in labels)]
    for row, text in zip(devices, labels):
        cells = ["-" if row == column else ("yes" if row.can_access_peer(column) else "no") for column in devices]
        lines.append(f"{text:<{width}}" + "".join(f"{cell:>{width}}" for cell in cells))
    return lines


def describe(device, selected_backend, devices=()):
    """Everything gpukit knows about ``device`` as plain data (sizes in bytes, clocks in kHz; 0 or
    None where the backend has no such thing, as the simulator has no clock); ``peer_access``: the
    ids of the devices among ``devices`` whose memory it reaches directly."""
    properties = device.properties
    limits = properties.limits
    free_bytes, total_bytes = device.mem_info
    major, minor = properties.compute_capability
    return {
        "label": label(device),
        "backend": device.backend,
        "simulated": device.backend_info.capabilities.simulated,
        "id": device.id,
        "name": properties.name,
        "default": device.backend == selected_backend and device.id == 0,
        "compute_capability": f"{major}.{minor}",
        "target": properties.target,
        "pci_bus_id": properties.pci_bus_id or None,
        "total_memory_bytes": total_bytes,
        "free_memory_bytes": free_bytes,
        "multiprocessor_count": properties.multiprocessor_count,
        "clock_rate_khz": properties.clock_rate_khz,
        "memory_clock_rate_khz": properties.memory_clock_rate_khz,
        "memory_bus_width_bits": properties.memory_bus_width_bits,
        "l2_cache_bytes": properties.l2_cache_bytes,
        "max_threads_per_block": limits.max_threads_per_block,
        "max_block_dim": list(limits.max_block_dim),
        "max_grid_dim": list(limits.max_grid_dim),
        "shared_memory_per_block_bytes": limits.shared_memory_per_block,
        "shared_memory_per_block_optin_bytes": limits.shared_memory_per_block_optin,
        "shared_memory_per_multiprocessor_bytes": properties.shared_memory_per_multiprocessor,
        "registers_per_block": properties.registers_per_block,
        "registers_per_multiprocessor": properties.registers_per_multiprocessor,
        "max_threads_per_multiprocessor": properties.max_threads_per_multiprocessor,
        "total_constant_memory_bytes": properties.total_constant_memory,
        "warp_size": limits.warp_size,
        "peer_access": [other.id for other in devices
                        if other.backend == device.backend and device.can_access_peer(other)],
    }


def summary(device):
    """The one-line listing's parenthesis: backend, what kernels compile for, memory."""
    parts = [f"backend {device['backend']}"]
    if not device["simulated"]:  # a simulated device compiles for the host, which says little
        parts.append(device["target"])
    parts.append(format_bytes(device["total_memory_bytes"]))
    return ", ".join(parts)


def long_rows(device):
    """(label, text) for --long, leaving out what the device does not have (the simulator's clock)."""
    def dims(values):
        return " x ".join(str(value) for value in values)

    rows = [
        ("backend", device["backend"]),
        ("compute capability", f"{device['compute_capability']} (kernels compile for {device['target']})"),
        ("PCI bus id", device["pci_bus_id"]),
        ("memory", f"{format_bytes(device['total_memory_bytes'])} ({format_bytes(device['free_memory_bytes'])} free)"),
        ("multiprocessors (SMs)", device["multiprocessor_count"]),
        ("clock", device["clock_rate_khz"] and f"{device['clock_rate_khz'] / 1000:.0f} MHz"),
        ("memory clock", device["memory_clock_rate_khz"] and f"{device['memory_clock_rate_khz'] / 1000:.0f} MHz"),
        ("memory bus", device["memory_bus_width_bits"] and f"{device['memory_bus_width_bits']} bits"),
        ("L2 cache", device["l2_cache_bytes"] and format_bytes(device["l2_cache_bytes"])),
        ("max threads per block", device["max_threads_per_block"]),
        ("max block dims", dims(device["max_block_dim"])),
        ("max grid dims", dims(device["max_grid_dim"])),
        ("shared memory per block", format_bytes(device["shared_memory_per_block_bytes"])),
        ("shared memory per block (opt-in)", format_bytes(device["shared_memory_per_block_optin_bytes"])),
        ("shared memory per SM", format_bytes(device["shared_memory_per_multiprocessor_bytes"])),
        ("registers per block", device["registers_per_block"]),
        ("registers per SM", device["registers_per_multiprocessor"]),
        ("max threads per SM", device["max_threads_per_multiprocessor"]),
        ("constant memory", format_bytes(device["total_constant_memory_bytes"])),
        ("warp size", device["warp_size"]),
    ]
    return [(name, value) for name, value in rows if value]
