"""gpukit's side of Dask: what :mod:`gpukit.dask` registers, one module per Dask registry.

``hook`` imports nothing of Dask: gpukit's import runs it, and it registers the rest once Dask is
imported. ``array`` (dask.array's chunk type, dispatch tables and the ``gpukit`` array backend) and
``random`` (the bit generator Dask's random arrays draw with) need dask.array; ``distributed`` (the
serialisers workers send arrays with) needs dask.distributed.
"""
