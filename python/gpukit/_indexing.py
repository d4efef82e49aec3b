"""Basic indexing: what part of an array a key selects, as a byte offset, a shape and byte strides.

Integers, slices (with steps, negative ones included), ``...`` and ``None`` select a view that
shares the array's memory, exactly as NumPy's basic indexing does. Index arrays (advanced
indexing) gather copies and need kernels; they are refused with a pointer to ``.get()``.
"""

import operator


def _normalise_key(key, ndim):
    """``key`` as a tuple with ``...`` expanded into full slices."""
    if not isinstance(key, tuple):
        key = (key,)
    ellipses = sum(1 for item in key if item is Ellipsis)
    if ellipses > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    selecting = sum(1 for item in key if item is not None and item is not Ellipsis)
    if selecting > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, but {selecting} were indexed")
    fill = (slice(None),) * (ndim - selecting)
    if ellipses:
        at = key.index(Ellipsis)
        return key[:at] + fill + key[at + 1:]
    return key + fill


def select(shape, strides, key):
    """(byte offset of the first element, shape, strides) of ``array[key]`` for basic indexing."""
    offset = 0
    new_shape, new_strides = [], []
    dim = 0
    for item in _normalise_key(key, len(shape)):
        if item is None:
            new_shape.append(1)
            new_strides.append(0)
            continue
        if isinstance(item, slice):
            start, stop, step = item.indices(shape[dim])
            new_shape.append(len(range(start, stop, step)))
            new_strides.append(strides[dim] * step)
            if new_shape[-1]:
                offset += start * strides[dim]
            dim += 1
            continue
        if isinstance(item, bool) or not hasattr(item, "__index__"):
            raise TypeError(
                f"gpukit arrays take integers, slices, '...' and None as indices, not {type(item).__name__}; "
                "index arrays (advanced indexing) are not supported yet: index the host copy from .get()")
        index = operator.index(item)
        if not -shape[dim] <= index < shape[dim]:
            raise IndexError(f"index {index} is out of bounds for axis {dim} with size {shape[dim]}")
        offset += (index % shape[dim]) * strides[dim]
        dim += 1
    return offset, tuple(new_shape), tuple(new_strides)


def c_strides(shape, itemsize):
    """Byte strides of a C-contiguous (row-major) array."""
    strides = []
    step = itemsize
    for extent in reversed(shape):
        strides.append(step)
        step *= max(extent, 1)
    return tuple(reversed(strides))


def is_c_contiguous(shape, strides, itemsize):
    """True when the elements lie in row-major order with no gaps (dimensions of extent 1 ignored)."""
    if any(extent == 0 for extent in shape):
        return True
    expected = itemsize
    for extent, stride in zip(reversed(shape), reversed(strides)):
        if extent != 1 and stride != expected:
            return False
        expected *= extent
    return True


def byte_extent(shape, strides, itemsize):
    """(lowest, highest + 1) byte offsets the elements touch, relative to the first element."""
    low = high = 0
    for extent, stride in zip(shape, strides):
        if extent == 0:
            return 0, 0
        if stride < 0:
            low += stride * (extent - 1)
        else:
            high += stride * (extent - 1)
    return low, high + itemsize
