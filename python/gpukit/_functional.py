"""NumPy's functions that call a Python function on arrays: fromfunction, apply_along_axis,
apply_over_axes, piecewise and mask_indices. The Python function runs on gpukit arrays (views and
masked selections on the device); what these add around it is gpukit's own operations, so no
element is copied to the host (a function that returns host values has them copied to the device)."""

import numpy
from numpy.lib.array_utils import normalize_axis_index

from . import _core
from ._creation import zeros_like
from ._interop import asarray


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """``function(*indices)`` called once with the coordinate arrays of a grid of ``shape``
    (``gpukit.indices(shape, dtype)``), as numpy.fromfunction; ``kwargs`` go to ``function``.
    ``like`` is NumPy's dispatch argument, accepted and unused."""
    return function(*_core.indices(shape, dtype=dtype), **kwargs)


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """``func1d`` applied to each 1-D slice of ``arr`` along ``axis``, the results gathered into one
    array whose dimensions at ``axis`` are the results' (none for scalar results), as
    numpy.apply_along_axis. ``func1d`` gets views of ``arr``; each result is written into the gathered
    array on the device."""
    arr = asarray(arr)
    ndim = arr.ndim
    axis = normalize_axis_index(axis, ndim)
    # The applied axis last: each slice is then lines[index] for an index over the others.
    lines = _core.moveaxis(arr, axis, -1)
    outer = lines.shape[:-1]
    positions = numpy.ndindex(outer)  # tuples of Python ints: host bookkeeping, not array data
    try:
        first = next(positions)
    except StopIteration:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0") from None
    result = asarray(func1d(lines[first], *args, **kwargs))
    gathered = _core.empty(outer + result.shape, dtype=result.dtype)
    gathered[first] = result
    for index in positions:
        gathered[index] = func1d(lines[index], *args, **kwargs)
    # The results' dimensions back where `axis` was: outer[:axis], the result's, outer[axis:].
    order = [*range(axis), *range(ndim - 1, ndim - 1 + result.ndim), *range(axis, ndim - 1)]
    return gathered.transpose(order)


def apply_over_axes(func, a, axes):
    """``func(a, axis)`` applied for each axis of ``axes`` in turn, each result (with the reduced
    axis put back as a dimension of extent 1 when ``func`` drops it) the next call's input, as
    numpy.apply_over_axes."""
    value = asarray(a)
    ndim = value.ndim
    if numpy.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = ndim + axis
        result = asarray(func(value, axis))
        if result.ndim != value.ndim:
            result = _core.expand_dims(result, axis)
            if result.ndim != value.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        value = result
    return value


def _is_one_condition(condlist, x):
    """Whether ``condlist`` is a single condition rather than a list of them, as numpy.piecewise
    decides: a scalar, or (for x of at least 1 dimension) a sequence whose first item is a number."""
    if isinstance(condlist, _core.ndarray):
        # NumPy looks at condlist[0] (IndexError when there is none): an array only when condlist has
        # two dimensions or more.
        if condlist.ndim >= 1 and len(condlist) == 0:
            raise IndexError("index 0 is out of bounds for axis 0 with size 0")
        return condlist.ndim == 0 or (condlist.ndim == 1 and x.ndim != 0)
    if numpy.isscalar(condlist):
        return True
    return not isinstance(condlist[0], (list, _core.ndarray, numpy.ndarray)) and x.ndim != 0


def piecewise(x, condlist, funclist, *args, **kw):
    """An array like ``x`` whose elements where ``condlist[i]`` holds are ``funclist[i]`` (a value, or
    a function called on those elements of ``x`` with ``args`` and ``kw``), zero elsewhere, as
    numpy.piecewise: one more function than conditions is the 'otherwise' one, for where none hold."""
    x = asarray(x)
    function_count = len(funclist)
    if _is_one_condition(condlist, x):
        condlist = [condlist]
    conditions = asarray(condlist, dtype=bool)
    count = len(conditions)
    if count == function_count - 1:
        otherwise = ~_core.any(conditions, axis=0, keepdims=True)
        conditions = _core.concatenate([conditions, otherwise], axis=0)
        count += 1
    elif count != function_count:
        raise ValueError(f"with {count} condition(s), either {count} or {count + 1} functions are expected")
    result = zeros_like(x)
    for condition, function in zip(conditions, funclist):
        if not callable(function):
            result[condition] = function
            continue
        selected = x[condition]
        if selected.size > 0:
            result[condition] = function(selected, *args, **kw)
    return result


def mask_indices(n, mask_func, k=0):
    """The indices where ``mask_func(ones((n, n)), k)`` is nonzero, as numpy.mask_indices: with
    gpukit.triu, the upper triangle's."""
    return _core.nonzero(mask_func(_core.ones((n, n), dtype=int), k) != 0)
