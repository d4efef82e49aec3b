"""Comparing a gpukit result with NumPy's: the shape and dtype exactly, the values exactly for
integers and bool, within one relative and absolute tolerance for floats and complex numbers."""

import numpy

import gpukit


def host(x):
    """A gpukit array's values on the host; anything else as NumPy makes an array of it."""
    return gpukit.asnumpy(x) if isinstance(x, gpukit.ndarray) else numpy.asarray(x)


def assert_close(got, expected, tolerance):
    got, expected = host(got), numpy.asarray(expected)
    assert (got.shape, got.dtype) == (expected.shape, expected.dtype), (got.shape, got.dtype, expected.shape,
                                                                        expected.dtype)
    if got.dtype.kind in "biu":
        numpy.testing.assert_array_equal(got, expected)
    else:
        numpy.testing.assert_allclose(got, expected, rtol=tolerance, atol=tolerance)
