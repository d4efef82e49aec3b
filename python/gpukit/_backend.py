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


def use_backend(name, *, sandbox=None):
    """Chooses the backend for this process by name (``'cuda'``, ``'sim'``) or ``'auto'``.

    Call it before the first device is used; asking for another backend later raises
    :class:`gpukit.UsageError`, and asking for one that cannot run here raises
    :class:`gpukit.BackendUnavailableError` saying what is missing. ``sandbox=True`` (or ``False``)
    then calls :func:`set_sandbox`; ``None`` leaves it as it is."""
    _core.select_backend(name)
    if sandbox is not None:
        set_sandbox(sandbox)


def set_sandbox(on):
    """Runs kernels in the backend's sandbox (``True``), or no longer (``False``).

    On the simulator a kernel is native code with your rights; in the sandbox it runs in the
    simulator's device process with no network (no socket can be made), a private temporary directory
    (``$TMPDIR``, an empty tmpfs, the only place it can write), every other file read-only, and no
    other process of yours in reach (a PID namespace of its own; no tracing). Work already running
    finishes first; loaded modules are loaded again inside, their variables keeping their values. It
    returns once kernels run as asked. ``GPUKIT_SIM_SANDBOX=1`` turns it on from the start.

    Raises :class:`gpukit.BackendUnavailableError` on a backend without a sandbox (see
    ``capabilities.sandbox``; a GPU's kernels are not native code of yours), with
    ``GPUKIT_SIM_ISOLATION=0``, or where this system forbids what it needs (unprivileged user
    namespaces, named in the message): kernels are then refused, never run unconfined, until
    ``set_sandbox(False)``."""
    _core.set_sandbox(on)


def sandboxed():
    """Whether the backend's kernels run in its sandbox (:func:`set_sandbox`)."""
    return _core.sandboxed()


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
