"""Correlation filters on gpukit arrays, as ``scipy.ndimage``: correlate, convolve, their 1-D
forms, and the separable uniform and Gaussian filters (src/ops/convolution/). Weights may be any
array-like (they are copied to the device); the input must be a gpukit array.

Where SciPy reports a bad argument as a ``RuntimeError`` (an unknown boundary mode, weights of the
wrong number of dimensions, no weights), gpukit raises :class:`FilterArgumentError`, both a
``RuntimeError`` and gpukit's ``InvalidArgumentError`` (a ``ValueError``)."""

import functools

from ._core import ndarray
from ._core import ndimage as _native
from ._errors import InvalidArgumentError
from ._interop import asarray


class FilterArgumentError(InvalidArgumentError, RuntimeError):
    """A bad argument SciPy's ndimage reports as a ``RuntimeError``."""


# The starts of the core's messages for the arguments SciPy refuses with a RuntimeError.
_RUNTIME_ERRORS = ("boundary mode not supported", "weights.ndim", "no filter weights given",
                   "A sequence of modes is not supported", "output must have complex dtype",
                   "output shape not correct", "sequence argument must have length")


def _scipy_errors(function):
    @functools.wraps(function)
    def call(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except InvalidArgumentError as error:
            if str(error).startswith(_RUNTIME_ERRORS):
                raise FilterArgumentError(str(error)) from None
            raise
    return call


def _weights(weights):
    return weights if isinstance(weights, ndarray) else asarray(weights)


@_scipy_errors
def correlate(input, weights, output=None, mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.correlate: the weights' centre at weights.shape // 2 + origin."""
    return _native.correlate(input, _weights(weights), output, mode, cval, origin)


@_scipy_errors
def convolve(input, weights, output=None, mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.convolve: correlate with the weights flipped."""
    return _native.convolve(input, _weights(weights), output, mode, cval, origin)


@_scipy_errors
def correlate1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.correlate1d along one axis."""
    return _native.correlate1d(input, _weights(weights), axis, output, mode, cval, origin)


@_scipy_errors
def convolve1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.convolve1d along one axis."""
    return _native.convolve1d(input, _weights(weights), axis, output, mode, cval, origin)


@_scipy_errors
def uniform_filter(input, size=3, output=None, mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.uniform_filter: a mean over ``size`` elements along each axis, one pass per axis."""
    return _native.uniform_filter(input, size, output, mode, cval, origin)


@_scipy_errors
def gaussian_filter(input, sigma, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0, *, radius=None):
    """scipy.ndimage.gaussian_filter: one pass per axis with SciPy's Gaussian kernel (or its derivative)."""
    return _native.gaussian_filter(input, sigma, order, output, mode, cval, truncate, radius)


@_scipy_errors
def gaussian_filter1d(input, sigma, axis=-1, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0, *,
                      radius=None):
    """scipy.ndimage.gaussian_filter1d along one axis."""
    return _native.gaussian_filter1d(input, sigma, axis, order, output, mode, cval, truncate, radius)


__all__ = ["FilterArgumentError", "convolve", "convolve1d", "correlate", "correlate1d", "gaussian_filter",
           "gaussian_filter1d", "uniform_filter"]
