"""
gpukit's C++ core: devices, memory, streams, events, modules, kernels, check mode, the compile cache and the backends. Use it through the gpukit package.
"""

from collections.abc import Iterator, Sequence
import os
import pathlib
from typing import overload


def version() -> str:
    """gpukit's version, e.g. '0.1.0'."""

class BackendCapabilities:
    """
    What a backend can do: code that must differ by device asks these, never a name.
    """

    @property
    def simulated(self) -> bool:
        """
        Kernels run on this machine's CPU, not on an accelerator (timings are CPU timings).
        """

    @property
    def check_mode(self) -> bool:
        """Runs kernels under check mode's tools (memcheck, racecheck, ...)."""

    @property
    def loads_binary_images(self) -> bool:
        """Loads code compiled elsewhere (PTX, cubin, fatbin)."""

    @property
    def tensor_cores(self) -> bool:
        """Its devices may have tensor cores."""

    @property
    def dlpack_device_type(self) -> int:
        """
        Where DLPack places its memory: 1 (kDLCPU, host memory) or 2 (kDLCUDA, CUDA device memory).
        """

    def __repr__(self) -> str: ...

class ToolchainPart:
    """A library or compiler a backend needs, as found here."""

    @property
    def role(self) -> str:
        """What it is for the backend: 'driver', 'NVRTC', 'host compiler'."""

    @property
    def path(self) -> str:
        """The file in use or found; '' when none was found."""

    @property
    def version(self) -> str: ...

    @property
    def problem(self) -> str:
        """Why it cannot be used; '' when it can."""

class BackendInfo:
    """A backend: its name, what it runs kernels on, what it can do."""

    @property
    def name(self) -> str:
        """What GPUKIT_BACKEND and use_backend() take."""

    @property
    def description(self) -> str: ...

    @property
    def device_label(self) -> str:
        """How device lists label its devices ('GPU 0')."""

    @property
    def built(self) -> bool:
        """Built into this gpukit (when not, unavailable_reason says why)."""

    @property
    def capabilities(self) -> BackendCapabilities: ...

    @property
    def unavailable_reason(self) -> str:
        """Why the backend cannot run here, or '' when it can."""

    @property
    def toolchain(self) -> list[ToolchainPart]:
        """
        The libraries and compilers it uses: where they were found, their versions, or why they cannot be used.
        """

    def __repr__(self) -> str: ...

def backends() -> list[BackendInfo]:
    """
    Every backend gpukit knows, the built ones first, in the order automatic selection tries them.
    """

def backend_info(name: str) -> BackendInfo:
    """
    The backend of that name; InvalidArgumentError naming the backends there are.
    """

def select_backend(name: str) -> None:
    """
    Chooses the process's backend by name, or 'auto'. A later call asking for another raises UsageError.
    """

def selected_backend() -> BackendInfo:
    """The backend in use, choosing it from GPUKIT_BACKEND on first use."""

def backend_unavailable_reason(name: str) -> str:
    """
    Why a backend ('auto': any backend) cannot be used here, or '' when it can.
    """

class LaunchLimits:
    """The limits every launch on a device is checked against."""

    @property
    def max_threads_per_block(self) -> int: ...

    @property
    def max_block_dim(self) -> tuple: ...

    @property
    def max_grid_dim(self) -> tuple: ...

    @property
    def shared_memory_per_block(self) -> int:
        """
        Bytes of shared memory (static and dynamic) a block gets without opting in.
        """

    @property
    def shared_memory_per_block_optin(self) -> int:
        """The most shared memory a kernel may opt in to."""

    @property
    def warp_size(self) -> int: ...

class DeviceProperties:
    """What a device is and what it can do."""

    @property
    def backend(self) -> str:
        """The backend's name."""

    @property
    def ordinal(self) -> int: ...

    @property
    def name(self) -> str: ...

    @property
    def compute_capability(self) -> tuple[int, int]: ...

    @property
    def pci_bus_id(self) -> str: ...

    @property
    def total_memory(self) -> int: ...

    @property
    def multiprocessor_count(self) -> int: ...

    @property
    def limits(self) -> LaunchLimits: ...

    @property
    def shared_memory_per_multiprocessor(self) -> int: ...

    @property
    def total_constant_memory(self) -> int: ...

    @property
    def registers_per_block(self) -> int: ...

    @property
    def registers_per_multiprocessor(self) -> int: ...

    @property
    def max_threads_per_multiprocessor(self) -> int: ...

    @property
    def clock_rate_khz(self) -> int: ...

    @property
    def memory_clock_rate_khz(self) -> int: ...

    @property
    def memory_bus_width_bits(self) -> int: ...

    @property
    def l2_cache_bytes(self) -> int: ...

    @property
    def target(self) -> str:
        """
        What kernels are compiled for: 'sm_90', or the host's architecture on a simulated device.
        """

    def architecture(self) -> str: ...

class Device:
    """
    A GPU, or a simulated device. Device() is the current device; Device(n) is device n of the selected backend. `with device:` makes it current inside the block.
    """

    def __init__(self, id: int | None = None) -> None: ...

    @property
    def id(self) -> int:
        """The device's ordinal within its backend."""

    @property
    def backend(self) -> str:
        """The backend's name."""

    @property
    def backend_info(self) -> BackendInfo:
        """The backend: its name, label and capabilities."""

    @property
    def name(self) -> str: ...

    @property
    def properties(self) -> DeviceProperties: ...

    @property
    def compute_capability(self) -> tuple[int, int]: ...

    @property
    def mem_info(self) -> tuple[int, int]:
        """(free bytes, total bytes) now."""

    def use(self) -> None:
        """Makes this the current device of the calling thread."""

    def synchronize(self) -> None:
        """Waits for all work on the device to finish."""

    def describe(self) -> str: ...

    def __enter__(self) -> Device: ...

    def __exit__(self, *args) -> None: ...

    @overload
    def __eq__(self, arg: Device, /) -> bool: ...

    @overload
    def __eq__(self, arg: object, /) -> bool: ...

    def __hash__(self) -> int: ...

    def __repr__(self) -> str: ...

def devices() -> list[Device]:
    """Every device of the selected backend."""

def all_devices() -> list[Device]:
    """Every device of every backend that can run here."""

def current_device() -> Device:
    """The calling thread's current device."""

class Stream:
    """An owned stream of the device it was made on."""

    def __init__(self, device: Device | None = None, non_blocking: bool = False) -> None: ...

    @property
    def device(self) -> Device: ...

    def synchronize(self) -> None: ...

    def query(self) -> bool: ...

    def wait(self, event: Event) -> None: ...

    @property
    def native_handle(self) -> int: ...

def synchronize_default_stream(device: Device) -> None:
    """Waits for the device's legacy default stream."""

def query_default_stream(device: Device) -> bool:
    """
    True when all work enqueued on the device's default stream has finished.
    """

def default_stream_wait(device: Device, event: Event) -> None: ...

class Event:
    """An event of the device it was made on."""

    def __init__(self, device: Device | None = None, timing: bool = True) -> None: ...

    @property
    def device(self) -> Device: ...

    def record(self, stream: Stream | None) -> None: ...

    def synchronize(self) -> None: ...

    def query(self) -> bool: ...

    @property
    def is_recorded(self) -> bool: ...

    @staticmethod
    def elapsed_ms(start: Event, end: Event) -> float:
        """
        Milliseconds between two recorded timing events; `end` must have completed.
        """

class MemoryOwner:
    """Base of the owners of memory behind gpukit arrays."""

    @property
    def device(self) -> Device: ...

class DeviceMemory(MemoryOwner):
    """An allocation on a device, freed with this object."""

    def __init__(self, device: Device, size_bytes: int) -> None: ...

    @property
    def address(self) -> int: ...

    @property
    def size_bytes(self) -> int: ...

class PinnedMemory:
    """Page-locked host memory, freed with this object."""

    def __init__(self, device: Device, size_bytes: int) -> None: ...

    @property
    def address(self) -> int: ...

    @property
    def size_bytes(self) -> int: ...

def copy_to_device(device: Device, dst: int, host: object, stream: Stream | None) -> None:
    """
    Copies a contiguous host buffer to device address `dst`. Asynchronous on a stream: keep the host buffer alive and synchronise before reusing it.
    """

def copy_to_host(device: Device, host: object, src: int, stream: Stream | None) -> None:
    """
    Copies len(host) bytes from device address `src` into a writable contiguous host buffer.
    """

def copy_on_device(device: Device, dst: int, src: int, size_bytes: int, stream: Stream | None) -> None:
    """Copies `size_bytes` between two device addresses of one device."""

def memset(device: Device, dst: int, size_bytes: int, value: int, stream: Stream | None) -> None:
    """Sets `size_bytes` bytes at device address `dst` to `value`."""

class CompileOptions:
    """How a module is compiled."""

    def __init__(self) -> None: ...

    @property
    def defines(self) -> list[tuple[str, str]]: ...

    @defines.setter
    def defines(self, arg: Sequence[tuple[str, str]], /) -> None: ...

    @property
    def include_dirs(self) -> list[pathlib.Path]: ...

    @include_dirs.setter
    def include_dirs(self, arg: Sequence[str | os.PathLike], /) -> None: ...

    @property
    def std(self) -> str: ...

    @std.setter
    def std(self, arg: str, /) -> None: ...

    @property
    def fast_math(self) -> bool: ...

    @fast_math.setter
    def fast_math(self, arg: bool, /) -> None: ...

    @property
    def line_info(self) -> bool: ...

    @line_info.setter
    def line_info(self, arg: bool, /) -> None: ...

    @property
    def name_expressions(self) -> list[str]: ...

    @name_expressions.setter
    def name_expressions(self, arg: Sequence[str], /) -> None: ...

    @property
    def extra_options(self) -> list[str]: ...

    @extra_options.setter
    def extra_options(self, arg: Sequence[str], /) -> None: ...

    @property
    def program_name(self) -> str: ...

    @program_name.setter
    def program_name(self, arg: str, /) -> None: ...

    @property
    def target(self) -> str: ...

    @target.setter
    def target(self, arg: str, /) -> None: ...

    @property
    def check(self) -> str:
        """
        Check-mode tools for the simulator: 'memcheck,racecheck', 'all', or 'none'.
        """

    @check.setter
    def check(self, arg: str, /) -> None: ...

    def header(self, name: str, source: str) -> None:
        """Adds a header that `#include "name"` finds."""

    def to_arguments(self) -> list[str]: ...

class KernelParam:
    """
    One kernel parameter: its place in the argument buffer, size and declaration.
    """

    @property
    def offset(self) -> int: ...

    @property
    def size(self) -> int: ...

    @property
    def type(self) -> str: ...

    @property
    def name(self) -> str: ...

    def describe(self, index: int) -> str: ...

    def __repr__(self) -> str: ...

class KernelAttributes:
    @property
    def num_registers(self) -> int: ...

    @property
    def static_shared_bytes(self) -> int: ...

    @property
    def local_bytes_per_thread(self) -> int: ...

    @property
    def constant_bytes(self) -> int: ...

    @property
    def max_threads_per_block(self) -> int: ...

    @property
    def max_dynamic_shared_bytes(self) -> int: ...

    @property
    def ptx_version(self) -> int: ...

    @property
    def binary_version(self) -> int: ...

class Module:
    """Compiled, loaded code."""

    @staticmethod
    def compile(source: str, options: CompileOptions, device: Device | None) -> Module: ...

    @property
    def device(self) -> Device: ...

    @property
    def compile_log(self) -> str: ...

    def kernel(self, name: str) -> Kernel: ...

    def kernel_names(self) -> list[str]: ...

    def global_symbol(self, name: str) -> tuple[int, int]:
        """
        (device address, size in bytes) of a __constant__ or __device__ variable.
        """

class Kernel:
    """A kernel of a loaded module; keeps its module loaded."""

    @property
    def name(self) -> str: ...

    @property
    def lowered_name(self) -> str: ...

    @property
    def device(self) -> Device: ...

    @property
    def params(self) -> list[KernelParam]: ...

    @property
    def attributes(self) -> KernelAttributes: ...

    def set_max_dynamic_shared_bytes(self, bytes: int) -> None: ...

    def suggest_block_size(self, dynamic_shared_bytes: int = 0, block_size_limit: int = 0) -> tuple[int, int]: ...

    def max_active_blocks_per_multiprocessor(self, block_threads: int, dynamic_shared_bytes: int = 0) -> int: ...

    @property
    def native_handle(self) -> int: ...

    def launch(self, grid: object, block: object, args: object, shared_mem: int, stream: Stream | None, check: str = '') -> None:
        """Checks and enqueues one launch (see gpukit.RawKernel.__call__)."""

class Hazard:
    """
    One distinct hazard check mode found: its first occurrence and how often it happened.
    """

    @property
    def tool(self) -> str:
        """'memcheck', 'racecheck', 'synccheck' or 'initcheck'."""

    @property
    def what(self) -> str:
        """What happened, e.g. 'Invalid __global__ write of size 4 bytes'."""

    @property
    def kernel(self) -> str: ...

    @property
    def block(self) -> tuple: ...

    @property
    def thread(self) -> tuple: ...

    @property
    def file(self) -> str: ...

    @property
    def line(self) -> int: ...

    @property
    def address(self) -> int: ...

    @property
    def size(self) -> int: ...

    @property
    def is_write(self) -> bool: ...

    @property
    def detail(self) -> str: ...

    @property
    def occurrences(self) -> int: ...

    @property
    def other_access(self) -> str:
        """racecheck: the earlier access ('Write' or 'Read')."""

    @property
    def other_file(self) -> str: ...

    @property
    def other_line(self) -> int: ...

    @property
    def other_block(self) -> tuple: ...

    @property
    def other_thread(self) -> tuple: ...

    def __repr__(self) -> str: ...

class CheckReport:
    """The hazards check-mode launches found."""

    @property
    def hazards(self) -> list[Hazard]: ...

    @property
    def clean(self) -> bool:
        """True when nothing was found."""

    def text(self) -> str:
        """compute-sanitizer's layout: a block of '=========' lines per hazard."""

    def __str__(self) -> str: ...

    def __len__(self) -> int: ...

    def __bool__(self) -> bool:
        """True when hazards were found."""

    def __iter__(self) -> Iterator: ...

    def __repr__(self) -> str: ...

def take_check_report() -> CheckReport:
    """
    Waits for check-mode launches to finish and returns the hazards found since the last call.
    """

def set_raise_on_hazard(raise_on_hazard: bool) -> None:
    """
    Whether a check-mode launch that finds a hazard raises HazardError at the next synchronisation.
    """

def raise_on_hazard() -> bool: ...

def check_tools() -> list[tuple[str, str]]:
    """Every check-mode tool, as (name, summary) pairs in report order."""

def check_tools_from_environment() -> str:
    """The tools GPUKIT_CHECK asks for ('none' when unset)."""

def normalize_check_tools(tools: str) -> str:
    """
    'racecheck,memcheck' -> 'memcheck,racecheck'; raises for an unknown tool.
    """

def dlpack_capsule(owner: object, address: int, shape: Sequence[int], strides: Sequence[int], code: int, bits: int, device_type: int, device_id: int, versioned: bool) -> object:
    """
    A DLPack capsule over memory `owner` keeps alive (strides in elements).
    """

class ImportedMemory(MemoryOwner):
    """Another library's memory that gpukit arrays view."""

    def __init__(self, device: Device, keeper: object) -> None:
        """Keeps `keeper` (an object exposing __cuda_array_interface__) alive."""

    @staticmethod
    def from_dlpack(capsule: object, device: Device) -> ImportedMemory:
        """Consumes a DLPack capsule; the tensor is released with this object."""

    @property
    def address(self) -> int:
        """Address of the first element (data + byte_offset)."""

    @property
    def shape(self) -> list[int]: ...

    @property
    def strides(self) -> list[int] | None:
        """In elements; None for compact row-major."""

    @property
    def dtype(self) -> tuple[int, int, int]:
        """(DLPack type code, bits, lanes)."""

    @property
    def dl_device(self) -> tuple[int, int]:
        """(DLPack device type, device id)."""

    @property
    def read_only(self) -> bool: ...

class CacheConfig:
    """Where the disk cache is and how much it may keep."""

    @property
    def directory(self) -> str | None:
        """
        The disk cache's directory; None when no GPUKIT_CACHE_DIR, XDG_CACHE_HOME or HOME names one.
        """

    @property
    def max_bytes(self) -> int: ...

    @property
    def disk_enabled(self) -> bool:
        """False under GPUKIT_CACHE_DISABLE=1 or without a directory."""

class CacheStats:
    """This process's cache lookups."""

    @property
    def memory_hits(self) -> int: ...

    @property
    def disk_hits(self) -> int: ...

    @property
    def misses(self) -> int:
        """Lookups that compiled."""

    @property
    def corrupt_entries(self) -> int: ...

    @property
    def evictions(self) -> int: ...

    @property
    def compile_seconds(self) -> float: ...

class DiskCacheStats:
    """
    The disk cache's counts over every process since it was created or cleared.
    """

    @property
    def hits(self) -> int: ...

    @property
    def misses(self) -> int:
        """Lookups that compiled: no entry, or a damaged one."""

    @property
    def corrupt_entries(self) -> int: ...

    @property
    def evictions(self) -> int: ...

def cache_config() -> CacheConfig:
    """The cache's configuration (from GPUKIT_CACHE_* on first use)."""

def cache_stats() -> CacheStats: ...

def cache_disk_stats() -> DiskCacheStats: ...

def cache_disk_usage() -> tuple:
    """(bytes, entries) of the disk cache now."""

def clear_disk_cache() -> None:
    """Deletes every entry of the disk cache and its counts."""

def clear_memory_cache() -> None:
    """Forgets the compiled images this process holds."""
