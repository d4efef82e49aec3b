"""Views of one base array in every layout the array tests cover, the same on the host (NumPy) and
on the device (gpukit), so that one comparison checks each: contiguous, strided, negative strides,
transposed, a 0-size slice, 0-d, and sizes 1, 31 and 4097."""

import numpy

import gpukit
from conftest import random_array

# name -> (base shape, what to take of it)
LAYOUTS = {
    "contiguous": ((5, 7), lambda a: a),
    "strided": ((6, 9), lambda a: a[::2, 1::3]),
    "negative": ((5, 8), lambda a: a[::-1, ::-2]),
    "transposed": ((4, 6), lambda a: a.T),
    "empty": ((4, 6), lambda a: a[2:2]),
    "0-d": ((3, 4), lambda a: a[1, 2]),
    "size 1": ((1,), lambda a: a),
    "size 31": ((62,), lambda a: a[::2]),
    "size 4097": ((4097,), lambda a: a),
}


def layout_pair(rng, name, dtype):
    """(host view, device view) of random values of ``dtype`` in layout ``name``."""
    shape, take = LAYOUTS[name]
    host = random_array(rng, shape, dtype)
    device = gpukit.asarray(host)
    return take(host), take(device)


def assert_same(device, expected, exact=True):
    """The device array holds NumPy's values, in NumPy's shape and dtype."""
    got = device.get()
    assert device.shape == numpy.shape(expected), (device.shape, numpy.shape(expected))
    assert got.dtype == numpy.asarray(expected).dtype, (got.dtype, numpy.asarray(expected).dtype)
    if exact:
        numpy.testing.assert_array_equal(got, expected)
    else:
        numpy.testing.assert_allclose(got, expected, rtol=1e-6)
