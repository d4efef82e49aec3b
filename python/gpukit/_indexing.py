"""Indexing routines: take, put, take_along_axis, put_along_axis, compress, nonzero, argwhere, flatnonzero and
where(condition), as NumPy's and CuPy's (the work is the core's: gpukit/advanced_indexing.hpp)."""

from ._core import _where, nonzero


def where(condition, x=None, y=None):
    """``where(condition)``: the indices of the nonzero elements of ``condition``, as :func:`nonzero` gives them.

    ``where(condition, x, y)``: elements of ``x`` where ``condition`` is true, else of ``y``, broadcast together;
    ``x`` and ``y`` may be numbers (weak, as NumPy 2's: ``where(c, x, 0.0)`` keeps ``x``'s float32)."""
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    return _where(condition, x, y)
