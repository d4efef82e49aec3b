"""NCCL's collectives over gpukit arrays on several devices: all_reduce, reduce, broadcast,
all_gather and reduce_scatter (gpukit/collectives.hpp).

Two ways to make a :class:`Communicator`, as NCCL's::

    # one process drives every device (ncclCommInitAll): a list of arrays, one per device
    comm = gpukit.collectives.Communicator.over([0, 1])
    sums = comm.all_reduce([x0, x1])

    # a rank per process (or thread): rank 0 makes the id and sends bytes(uid) (or the pickled id)
    uid = gpukit.collectives.UniqueId.create()
    comm = gpukit.collectives.Communicator(uid, rank, size, device=rank)
    total = comm.all_reduce(x, op="sum")

On GPUs this is NCCL, loaded at run time (``pip install nvidia-nccl-cu13``, or GPUKIT_NCCL=<path>);
on the simulator a host implementation gives the same results, for several devices of one process
(GPUKIT_SIM_DEVICES=4) and for ranks that are threads of one process.
"""

from ._core import collectives as _native

Communicator = _native.Communicator
UniqueId = _native.UniqueId

Communicator.__module__ = UniqueId.__module__ = __name__

__all__ = ["Communicator", "UniqueId"]
