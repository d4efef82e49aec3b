"""``import gpukit.pycuda.autoinit``: PyCUDA's default context. gpukit needs none (the current device
is used on first use); ``device`` and ``context`` are here for code that reads them."""

from .. import _backend
from .driver import Context

device = _backend.get_device()
context = Context(device)
