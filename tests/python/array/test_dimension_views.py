"""Views that rearrange dimensions, and reshape/ravel/flatten, against NumPy: values, shapes, and
whether the result shares the array's memory exactly when NumPy's does (src/array/dimension_views.cpp,
Array::reshape and ravel). Views run no kernel; the copies reuse the copy kernels of int16 and
complex64."""

import numpy
import pytest

import gpukit
from conftest import random_array
from layouts import LAYOUTS, assert_same, layout_pair


def shares(device_result, device_base, host_result, host_base):
    """gpukit's result shares the base's memory exactly when NumPy's does."""
    host_shares = numpy.shares_memory(host_result, host_base)
    device_shares = device_result.size == 0 or (
        device_result.data_ptr - device_base.data_ptr) in range(-device_base.nbytes * 4, device_base.nbytes * 4)
    if device_result.size and device_base.size:
        return host_shares == device_shares
    return True


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ["int16", "complex64"])
def test_reshape_ravel_and_flatten_in_every_order(layout, dtype, rng):
    host, device = layout_pair(rng, layout, dtype)
    for order in "CFA":
        for shape in ((-1,), (1, -1), (host.size, 1)):
            assert_same(device.reshape(shape, order=order), host.reshape(shape, order=order))
            assert_same(gpukit.reshape(device, shape, order=order), numpy.reshape(host, shape, order=order))
    for order in "CFAK":
        raveled = device.ravel(order)
        assert_same(raveled, host.ravel(order))
        host_view = numpy.shares_memory(host.ravel(order), host) and host.size > 0
        assert (raveled.data_ptr == device.data_ptr) == host_view or host.size <= 1
        assert_same(device.flatten(order), host.flatten(order))
        assert_same(gpukit.ravel(device, order), numpy.ravel(host, order))


def test_reshape_is_a_view_exactly_when_numpy_s_is(rng):
    host = random_array(rng, (4, 6), "int16")
    device = gpukit.asarray(host)
    cases = [(numpy.s_[:, ::2], (12,)), (numpy.s_[:, :4:2], (8,)), (numpy.s_[:, :4:2], (2, 2, 2)),
             (numpy.s_[::-1], (2, 12)), (numpy.s_[...], (3, 8))]
    for key, shape in cases:
        for order in "CF":
            source_host, source_device = host[key], device[key]
            if order == "F":
                source_host, source_device = source_host.T, source_device.T
            expected = source_host.reshape(shape, order=order)
            got = source_device.reshape(shape, order=order)
            assert_same(got, expected)
            assert (got.data_ptr - device.data_ptr) == (expected.ctypes.data - host.ctypes.data) \
                if numpy.shares_memory(expected, host) else got.data_ptr not in range(
                    device.data_ptr, device.data_ptr + device.nbytes)
    with pytest.raises(ValueError, match="avoid creating a copy"):
        device.T.reshape(24, copy=False)
    assert device.reshape(24, copy=True).data_ptr != device.data_ptr
    with pytest.raises(ValueError, match="'K' is not permitted"):
        device.reshape(24, order="K")


def test_views_rearranging_dimensions(rng):
    host = random_array(rng, (2, 1, 3, 4), "int16")
    device = gpukit.asarray(host)
    views = [
        (gpukit.squeeze(device), numpy.squeeze(host)),
        (device.squeeze(axis=1), host.squeeze(axis=1)),
        (gpukit.expand_dims(device, (0, -1)), numpy.expand_dims(host, (0, -1))),
        (gpukit.swapaxes(device, 0, -1), numpy.swapaxes(host, 0, -1)),
        (device.swapaxes(1, 2), host.swapaxes(1, 2)),
        (gpukit.moveaxis(device, 0, -1), numpy.moveaxis(host, 0, -1)),
        (gpukit.moveaxis(device, (0, 3), (2, 0)), numpy.moveaxis(host, (0, 3), (2, 0))),
        (gpukit.transpose(device, (3, 1, 0, 2)), numpy.transpose(host, (3, 1, 0, 2))),
        (device.transpose(), host.transpose()),
        (device.T, host.T),
        (gpukit.broadcast_to(device[:, :, :1], (3, 2, 5, 7, 4)), numpy.broadcast_to(host[:, :, :1], (3, 2, 5, 7, 4))),
        (gpukit.flip(device), numpy.flip(host)),
        (gpukit.flip(device, (0, 2)), numpy.flip(host, (0, 2))),
        (gpukit.fliplr(device), numpy.fliplr(host)),
        (gpukit.flipud(device), numpy.flipud(host)),
        (gpukit.atleast_3d(device[0, 0]), numpy.atleast_3d(host[0, 0])),
        (gpukit.atleast_2d(device[0, 0, 0, 0]), numpy.atleast_2d(host[0, 0, 0, 0, ...])),
    ]
    for k in range(-2, 5):
        views.append((gpukit.rot90(device, k, (2, 3)), numpy.rot90(host, k, (2, 3))))
    matrix_host, matrix = host[:, 0], device[:, 0]
    for offset in (-3, -1, 0, 1, 2, 5):
        views.append((gpukit.diagonal(matrix, offset, 1, 2), numpy.diagonal(matrix_host, offset, 1, 2)))
        views.append((matrix.diagonal(offset, 2, 0), matrix_host.diagonal(offset, 2, 0)))
    for got, expected in views:
        assert_same(got, expected)
        assert shares(got, device, expected, host)
    a, b = gpukit.broadcast_arrays(device[0, :, :, :1], device[1, 0])
    x, y = numpy.broadcast_arrays(host[0, :, :, :1], host[1, 0])
    assert_same(a, x)
    assert_same(b, y)


def test_real_and_imag_are_views_that_write_back(rng):
    host = random_array(rng, (3, 4), "complex128")
    device = gpukit.asarray(host)
    assert_same(device.real, host.real)
    assert_same(gpukit.imag(device[:, ::-2]), numpy.imag(host[:, ::-2]))
    device.imag = 2.5
    host.imag = 2.5
    device.real[1] = gpukit.asarray(host.real[0])
    host.real[1] = host.real[0]
    numpy.testing.assert_array_equal(device.get(), host)
    real_host = random_array(rng, 5, "float32")
    real_device = gpukit.asarray(real_host)
    assert real_device.real.data_ptr == real_device.data_ptr
    assert_same(real_device.imag, real_host.imag)
    with pytest.raises(TypeError, match="imaginary"):
        real_device.imag = 1.0


def test_axis_errors_are_numpy_s_axis_error_and_shape_errors_value_errors():
    device = gpukit.zeros((2, 3))
    for call in (lambda: gpukit.squeeze(device, 2), lambda: gpukit.swapaxes(device, 0, 2),
                 lambda: gpukit.expand_dims(device, 3), lambda: gpukit.flip(device, -3),
                 lambda: gpukit.moveaxis(device, 2, 0), lambda: gpukit.diagonal(device, 0, 0, 5)):
        with pytest.raises(numpy.exceptions.AxisError, match="out of bounds for array of dimension"):
            call()
        with pytest.raises(IndexError):
            call()
        with pytest.raises(ValueError):
            call()
    with pytest.raises(ValueError, match="size not equal to one"):
        gpukit.squeeze(device, 0)
    with pytest.raises(ValueError, match="repeated axis"):
        gpukit.expand_dims(device, (0, 0))
    with pytest.raises(ValueError, match="same number of elements"):
        gpukit.moveaxis(device, (0, 1), 0)
    with pytest.raises(ValueError, match="could not be broadcast"):
        gpukit.broadcast_to(device, (4, 3, 2))
    with pytest.raises(ValueError, match="at least two dimensions"):
        gpukit.diagonal(device[0])
    with pytest.raises(ValueError, match="Axes must be different"):
        gpukit.rot90(device, 1, (0, 0))
    with pytest.raises(TypeError, match="gpukit.asarray"):
        gpukit.squeeze(numpy.zeros(3))


VIEW_DTYPES = ["bool", "int8", "uint16", "int32", "float32", "int64", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ["int16", "float32", "complex128"])
def test_view_reads_the_same_bytes_as_another_dtype_as_numpy(layout, dtype, rng):
    # numpy.ndarray.view(dtype): where NumPy can, gpukit's view holds the same bits and shares the
    # memory; where NumPy cannot (a strided last axis, a 0-d array of another itemsize), both refuse.
    host, device = layout_pair(rng, layout, dtype)
    for target in VIEW_DTYPES:
        try:
            expected = host.view(target)
        except ValueError:
            with pytest.raises(ValueError):
                device.view(target)
            continue
        try:
            viewed = device.view(target)
        except ValueError as error:  # a device reads elements only aligned: NumPy's host view need not be
            assert "aligned" in str(error), (layout, dtype, target)
            continue
        assert viewed.dtype == expected.dtype and viewed.shape == expected.shape
        got = viewed.get()
        if numpy.dtype(target).kind in "fc":  # nans' payloads: compare bits
            got, expected = (numpy.ascontiguousarray(v).view(numpy.uint8) for v in (got, expected))
        numpy.testing.assert_array_equal(got, expected, err_msg=f"{layout} {dtype} as {target}")
        assert viewed.size == 0 or viewed.data_ptr == device.data_ptr
    assert device.view().dtype == device.dtype and device.view(gpukit.ndarray).shape == device.shape


def test_view_shares_memory_and_refuses_misaligned_reads():
    data = gpukit.asarray(numpy.arange(16, dtype=numpy.uint8))
    words = data.view(numpy.uint32)
    words[0] = 0xFFFFFFFF
    numpy.testing.assert_array_equal(data.get()[:4], [255] * 4)
    with pytest.raises(ValueError, match="aligned to 4 bytes"):
        data[1:5].view(numpy.int32)
    with pytest.raises(ValueError, match="last axis must be contiguous"):
        data[::2].view(numpy.int16)
    with pytest.raises(ValueError, match="0d array"):
        data[0].view(numpy.int16)
    with pytest.raises(TypeError):
        data.view(numpy.int8, type=numpy.ndarray)
    with pytest.raises(TypeError, match="do not hold"):
        data.view("U4")
    numpy.testing.assert_array_equal(data.view(numpy.int8).get(), data.get().view(numpy.int8))
