"""Dask with gpukit arrays: dask.array chunks, the ``gpukit`` array backend, dask.distributed workers.

gpukit registers itself with Dask when either is imported after the other (``gpukit._dask.hook``),
so nothing needs importing this module; importing it registers at once, and fails with a clear
ImportError where Dask is missing::

    import dask, dask.array as da, gpukit

    x = da.from_array(gpukit.asarray(host), chunks=2**24, asarray=False)
    x = da.from_array(host, chunks=2**24).map_blocks(gpukit.asarray)  # or each chunk copied in its task
    total = x.sum().compute()  # a gpukit array
    with dask.config.set({"array.backend": "gpukit"}):
        y = da.random.default_rng(42).random(2**30, chunks=2**26)  # drawn on the device, chunk by chunk

On a ``dask.distributed`` cluster every worker process uses its current gpukit device:
:class:`LocalDeviceCluster` starts one worker per device, each on its own (``GPUKIT_DEVICE``), so the
chunks' work runs on every GPU at once. Arrays travel between processes in host frames (any comm) or
as device memory (comms that carry it, such as UCX).
"""

try:
    import dask.array  # noqa: F401 (what the registrations below need; its absence is the error to give)
except ImportError as error:
    raise ImportError("gpukit.dask needs Dask: pip install 'dask[array]' (and 'distributed' for clusters)") from error

import sys

from ._dask import array as _array
from ._dask.array import GpukitBackendEntrypoint, to_gpukit_dispatch
from ._dask.random import Philox, RandomState

_array.register()
if "distributed.protocol" in sys.modules:  # else gpukit._dask.hook registers when it is imported
    from ._dask import distributed as _distributed

    _distributed.register()

__all__ = [
    "GpukitBackendEntrypoint",
    "LocalDeviceCluster",  # noqa: F822 (given by __getattr__: it imports dask.distributed)
    "Philox",
    "RandomState",
    "to_gpukit_dispatch",
]


def __getattr__(name):
    # dask.distributed is needed for clusters only: imported when one is asked for.
    if name == "LocalDeviceCluster":
        try:
            from ._dask.cluster import LocalDeviceCluster
        except ImportError as error:
            raise ImportError("gpukit.dask.LocalDeviceCluster needs dask.distributed: pip install distributed") \
                from error
        return LocalDeviceCluster
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
