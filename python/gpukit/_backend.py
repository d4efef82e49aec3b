"""Backends and devices: which one runs the kernels, and what it is.

The backend is chosen once per process: ``GPUKIT_BACKEND=cuda|sim|auto`` or :func:`use_backend`
before the first device is used. ``auto`` (the default) picks CUDA when a driver and a GPU exist,
otherwise the simulator, which runs the same kernels on the CPU.
"""

from . import _core

Device = _core.Device


def use_backend(name):
    """Chooses the backend for this process: ``'cuda'``, ``'sim'`` or ``'auto'``.

    Call it before the first device is used; asking for another backend later raises
    :class:`gpukit.UsageError`, and asking for CUDA where it cannot run raises
    :class:`gpukit.BackendUnavailableError` saying what is missing."""
    _core.select_backend(name)


def backend():
    """The backend in use, ``'cuda'`` or ``'sim'`` (choosing it from ``GPUKIT_BACKEND`` on first call)."""
    return _core.selected_backend()


def cuda_available():
    """True when the CUDA backend can run here (a driver, NVRTC and a GPU); never raises."""
    return _core.backend_unavailable_reason("cuda") == ""


def cuda_unavailable_reason():
    """Why the CUDA backend cannot run here, or ``''`` when it can."""
    return _core.backend_unavailable_reason("cuda")


def devices():
    """Every device of the selected backend, in ordinal order."""
    return _core.devices()


def all_devices():
    """Every device of every backend that runs here: the GPUs, then the simulator (a device of its own)."""
    return _core.all_devices()


def get_device():
    """The calling thread's current device (``with device:`` or ``device.use()`` changes it)."""
    return _core.current_device()


def synchronize():
    """Waits for all work on the current device."""
    _core.current_device().synchronize()
