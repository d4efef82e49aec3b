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

On a ``dask.distributed`` cluster every worker process uses its current gpukit device (one worker per
GPU: ``CUDA_VISIBLE_DEVICES`` per worker, as for CuPy); arrays travel between processes in host frames
(any comm) or as device memory (comms that carry it, such as UCX).
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

__all__ = ["GpukitBackendEntrypoint", "Philox", "RandomState", "to_gpukit_dispatch"]
