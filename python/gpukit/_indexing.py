"""Indexing routines: take, put, take_along_axis, put_along_axis, compress, nonzero, argwhere, flatnonzero and
where(condition), as NumPy's and CuPy's (the work is the core's: gpukit/advanced_indexing.hpp)."""

from ._core import nonzero


def where(condition, x=None, y=None):
    """``where(condition)``: the indices of the nonzero elements of ``condition``, as :func:`nonzero` gives them.

    The three-argument form (elements of ``x`` where ``condition``, else of ``y``) is the elementwise ``where``
    ufunc's."""
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    raise NotImplementedError("where(condition, x, y) is the elementwise where ufunc, which this build does not have "
                              "yet; where(condition) alone gives the indices of the nonzero elements")
