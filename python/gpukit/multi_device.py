"""One array's work split across several devices and combined again.

    import numpy as np, gpukit as gk
    from gpukit import multi_device as md
    x = gk.asarray(np.random.rand(1 << 24).astype(np.float32))
    roots = md.map(lambda p: gk.sqrt(p) * 2, x)                       # every device a block, concatenated
    total = md.map(gk.sum, x, combine="sum")                           # partial sums added
    counts = md.map(lambda p: gk.histogram(p, bins=256, range=(0, 1))[0], x, combine="sum")
    c = md.map(gk.matmul, a, broadcast=(b,))                           # A's row blocks times B on every device
    smooth = md.map(lambda p, k: gk.signal.convolve2d(p, k, mode="same"), image,
                    halo=k.shape[0] // 2, broadcast=(k,))              # rows with their halos, cropped back

``split(x, devices=None, axis=0, halo=0)`` cuts ``x`` (a gpukit array on any device, or a NumPy
array, copied straight from the host to each device) along ``axis`` into nearly equal blocks, as
``numpy.array_split`` cuts them, one per device (``None``: every device, ``range(2)``: the first two,
or a list of :class:`gpukit.Device`), each copied to its device (where ``x`` already is, a view of
it). A device that would get no rows gets no part, so ``fn`` never runs on an empty block unless
``x`` itself is empty (then one empty part goes to the first device). With ``halo`` each part also
holds up to ``halo`` entries of its neighbours on either side (fewer at the array's edges), as a
stencil or convolution needs. A halo comes from the neighbouring parts alone, as Dask's
``map_overlap`` takes it: a halo longer than a part lying between two others is refused (use
fewer devices); the first and last parts may be shorter, since halos stop at the array's edges.

``map(fn, x, devices=None, axis=0, halo=0, combine='concatenate', out_device=None, broadcast=())``
calls ``fn(part, *broadcast)`` on every part at once: one host thread per device, with the part's
device current and the caller's current stream of that device current, so that ``fn``'s
operations queue on that device (gpukit releases the GIL while it launches, so the devices work
side by side). Arrays in ``broadcast`` (gpukit or NumPy) are copied to every device once; other
values are passed as they are. ``fn`` returns a gpukit array on its part's device. Then
``combine``: ``'concatenate'`` along ``axis`` (with a halo each result must keep its part's
extent along the axis, a 'same' stencil, and is cropped to the part's own entries), ``'stack'``,
``'sum'``, ``'prod'``, ``'max'``, ``'min'`` (elementwise over the parts' results: partial sums,
histogram counts), ``None`` (the list of results, each on its device) or a callable given the
list of results moved to ``out_device``. The result lands on ``out_device``: by default where
``x`` was (the current device for NumPy input or a :class:`Split`). ``x`` may be a
:class:`Split` already made, to reuse its copies. An exception in ``fn`` is raised once every
device has finished, as itself, with a note naming the device and the entries it was given.

``gather(parts, device=None, axis=None)`` joins a Split's own entries (or a list of arrays on any
devices) on one device; ``reduce(parts, op='sum', device=None)`` combines partial results with
``'sum'``, ``'prod'``, ``'max'`` or ``'min'``; ``broadcast(x, devices=None)`` gives x on every
device. Nothing waits for the devices: copies between them are ordered by events on their
streams. The work is gpukit's C++ (``gpukit/multi_device.hpp``); this module only names it.

'same' convolutions are exact with ``boundary='fill'`` and a fill value of 0 (scipy's default):
the parts' halos are real neighbouring rows and the array's own edges are the parts' edges.
"""

from ._core import multi_device as _native

Part = _native.Part
Split = _native.Split
split = _native.split
gather = _native.gather
reduce = _native.reduce
broadcast = _native.broadcast
map = _native.map

__all__ = ["Part", "Split", "broadcast", "gather", "map", "reduce", "split"]
