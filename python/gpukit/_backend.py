"""Backends and devices: which one runs the kernels, and what it is.

The backend is chosen once per process: ``GPUKIT_BACKEND=<name>`` (``cuda``, ``sim``) or ``auto``,
or :func:`use_backend` before the first device is used. ``auto`` (the default) picks a GPU when a
driver and a GPU exist, otherwise the simulator, which runs the same kernels on the CPU.
:func:`backends` lists them with what each can do; code that must differ by device asks
``device.backend_info.capabilities``, never a backend's name.
"""

from . import _core

Device = _core.Device

_DLPACK_CUDA = 2  # DLPack's kDLCUDA: the backend's memory is CUDA device memory


def backends():
    """Every backend gpukit knows (:class:`BackendInfo`: name, description, capabilities, and why it
    cannot run here), the built ones first, in the order ``auto`` tries them."""
    return _core.backends()


def use_backend(name):
    """Chooses the backend for this process by name (``'cuda'``, ``'sim'``) or ``'auto'``.

    Call it before the first device is used; asking for another backend later raises
    :class:`gpukit.UsageError`, and asking for one that cannot run here raises
    :class:`gpukit.BackendUnavailableError` saying what is missing."""
    _core.select_backend(name)


def backend():
    """The name of the backend in use (choosing it from ``GPUKIT_BACKEND`` on first call)."""
    return _core.selected_backend().name


def _cuda_backends():
    return [info for info in _core.backends() if info.capabilities.dlpack_device_type == _DLPACK_CUDA]


def cuda_available():
    """True when a CUDA GPU can run kernels here (a driver, NVRTC and a GPU); never raises."""
    return any(info.unavailable_reason == "" for info in _cuda_backends())


def cuda_unavailable_reason():
    """Why no CUDA GPU can run kernels here, or ``''`` when one can."""
    reasons = [info.unavailable_reason for info in _cuda_backends()]
    if not reasons:
        return "this gpukit has no backend for CUDA GPUs"
    return "" if "" in reasons else "\n".join(reasons)


def devices():
    """Every device of the selected backend, in ordinal order."""
    return _core.devices()


def all_devices():
    """Every device of every backend that runs here: the GPUs, then the simulator (a device of its own)."""
    return _core.all_devices()


def get_device():
    """The calling thread's current device (``with device:`` or ``device.use()`` changes it)."""
    return _core.current_device()


def synchronize(timeout=None):
    """Waits for all work on the current device; see :meth:`Device.synchronize` for ``timeout`` and Ctrl-C."""
    _core.current_device().synchronize(timeout)
