"""gpukit.multi_device.map on the course's exercise (000 §4.1: work split across several GPUs):
elementwise work, sums, histograms, matmul by row blocks and conv2d with halos, each against NumPy
or SciPy and against one device; the devices' threads running at once; and the failures. On the
simulator, conftest.py presents four devices."""

import threading
import time

import numpy
import pytest
import scipy.ndimage
import scipy.signal

import gpukit
from conftest import random_array
from gpukit import multi_device as md
from partition import COUNTS, DEVICES, NEEDS_TWO_DEVICES, halo_fits

pytestmark = NEEDS_TWO_DEVICES


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("n", [0, 1, 7, 1001])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_elementwise_matches_numpy_and_one_device(rng, count, n, dtype):
    values = numpy.abs(random_array(rng, (n,), dtype)) + 0.5
    x = gpukit.asarray(values)
    result = md.map(lambda p: gpukit.sqrt(p) * 2, x, devices=range(count))
    assert result.device == x.device and result.dtype == values.dtype and result.shape == (n,)
    numpy.testing.assert_array_equal(gpukit.asnumpy(result), gpukit.asnumpy(gpukit.sqrt(x) * 2))
    numpy.testing.assert_allclose(gpukit.asnumpy(result), numpy.sqrt(values) * 2, rtol=1e-6)


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("shape", [(0,), (1,), (997,), (31, 6)])
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
def test_sum_of_partial_sums(rng, count, shape, dtype):
    values = random_array(rng, shape, dtype)
    total = md.map(gpukit.sum, values, devices=range(count), combine="sum")
    assert total.shape == () and total.dtype == numpy.sum(values).dtype
    numpy.testing.assert_allclose(gpukit.asnumpy(total), numpy.sum(values), rtol=1e-5, atol=1e-5)
    largest = md.map(gpukit.max, values, devices=range(count), combine="max") if values.size else None
    if largest is not None:
        assert float(gpukit.asnumpy(largest)) == values.max()
        assert float(gpukit.asnumpy(md.map(gpukit.min, values, devices=range(count), combine="min"))) == values.min()


@pytest.mark.skipif(DEVICES < 3, reason="needs 3 devices (the simulator's four run it)")
def test_prod_and_stack_combines(rng):
    values = numpy.abs(random_array(rng, (12,), "float64")) + 0.5
    product = md.map(gpukit.prod, values, devices=range(3), combine="prod")
    numpy.testing.assert_allclose(float(gpukit.asnumpy(product)), numpy.prod(values), rtol=1e-12)
    stacked = md.map(lambda p: gpukit.sum(p, keepdims=True), values, devices=range(3), combine="stack")
    numpy.testing.assert_allclose(gpukit.asnumpy(stacked), [[values[:4].sum()], [values[4:8].sum()],
                                                            [values[8:].sum()]])


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("n", [0, 1, 4097])
def test_histogram_counts_add_up(rng, count, n):
    values = rng.uniform(0, 1, n).astype(numpy.float32)
    counts = md.map(lambda p: gpukit.histogram(p, bins=64, range=(0, 1))[0], values, devices=range(count),
                    combine="sum", out_device=count - 1)
    assert counts.device == gpukit.Device(count - 1)
    numpy.testing.assert_array_equal(gpukit.asnumpy(counts), numpy.histogram(values, bins=64, range=(0, 1))[0])


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("m", [1, 5, 37])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_matmul_by_row_blocks(rng, count, m, dtype):
    a = random_array(rng, (m, 19), dtype)
    b = random_array(rng, (19, 8), dtype)
    for right in (gpukit.asarray(b), b):  # B copied to every device, from the device or from the host
        product = md.map(gpukit.matmul, gpukit.asarray(a), devices=range(count), broadcast=(right,))
        assert product.shape == (m, 8)
        numpy.testing.assert_allclose(gpukit.asnumpy(product), a @ b, rtol=1e-5, atol=1e-5)
        numpy.testing.assert_allclose(gpukit.asnumpy(product),
                                      gpukit.asnumpy(gpukit.matmul(gpukit.asarray(a), gpukit.asarray(b))),
                                      rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("rows", [1, 9, 30])
@pytest.mark.parametrize("kernel_shape", [(3, 3), (4, 2), (5, 5)])
def test_conv2d_with_halos_matches_scipy_and_one_device(rng, count, rows, kernel_shape):
    image = random_array(rng, (rows, 17), "float32")
    kernel = random_array(rng, kernel_shape, "float32")
    halo = kernel_shape[0] // 2
    if not halo_fits(rows, count, halo):
        pytest.skip("a halo longer than a part between two others is refused (test_halo_longer_than_a_part_is_refused)")
    smooth = md.map(lambda p, k: gpukit.signal.convolve2d(p, k, mode="same"), image, devices=range(count),
                    halo=halo, broadcast=(kernel,), out_device=0)
    one = gpukit.signal.convolve2d(gpukit.asarray(image), gpukit.asarray(kernel), mode="same")
    numpy.testing.assert_allclose(gpukit.asnumpy(smooth), gpukit.asnumpy(one), rtol=1e-6, atol=1e-6)
    numpy.testing.assert_allclose(gpukit.asnumpy(smooth), scipy.signal.convolve2d(image, kernel, mode="same"),
                                  rtol=1e-4, atol=1e-5)


@pytest.mark.skipif(DEVICES < 3, reason="needs 3 devices (the simulator's four run it)")
def test_ndimage_filter_with_halos_matches_scipy(rng):
    image = random_array(rng, (23, 11), "float64")
    weights = random_array(rng, (3, 3), "float64")
    result = md.map(lambda p, w: gpukit.ndimage.convolve(p, w, mode="constant"), image, devices=range(3), halo=1,
                    broadcast=(weights,))
    numpy.testing.assert_allclose(gpukit.asnumpy(result), scipy.ndimage.convolve(image, weights, mode="constant"),
                                  rtol=1e-12, atol=1e-12)


@pytest.mark.skipif(DEVICES < 3, reason="needs 3 devices (the simulator's four run it)")
def test_split_along_columns_with_halos(rng):
    image = random_array(rng, (6, 20), "float64")
    kernel = random_array(rng, (3, 5), "float64")
    smooth = md.map(lambda p, k: gpukit.signal.convolve2d(p, k, mode="same"), image, devices=range(3), axis=1,
                    halo=2, broadcast=(kernel,))
    numpy.testing.assert_allclose(gpukit.asnumpy(smooth), scipy.signal.convolve2d(image, kernel, mode="same"),
                                  rtol=1e-12, atol=1e-12)


def test_a_split_is_reused_and_results_come_back_per_device(rng):
    values = random_array(rng, (40,), "float32")
    split = md.split(values, devices=range(DEVICES))
    results = md.map(lambda p: p * 3, split, combine=None)
    assert [r.device.id for r in results] == list(range(DEVICES))
    numpy.testing.assert_allclose(gpukit.asnumpy(md.gather(results)), values * 3)
    seen = []

    def add_up(parts):
        seen.extend(parts)
        return md.reduce(parts, device=1)

    total = md.map(gpukit.sum, split, combine=add_up, out_device=1)
    assert [r.device.id for r in seen] == [1] * DEVICES and total.device == gpukit.Device(1)
    numpy.testing.assert_allclose(float(gpukit.asnumpy(total)), values.sum(), rtol=1e-5)
    with pytest.raises(ValueError, match="already split"):
        md.map(gpukit.sum, split, halo=1)


def test_parts_run_at_once_each_with_its_device_current(rng):
    values = random_array(rng, (64,), "float32")
    arrived = threading.Barrier(DEVICES, timeout=30)
    current = {}

    def fn(part):
        current[part.device.id] = gpukit.Device().id
        arrived.wait()  # only threads running at the same time all get past it
        return part + 1

    result = md.map(fn, values, devices=range(DEVICES))
    assert current == {i: i for i in range(DEVICES)}
    numpy.testing.assert_allclose(gpukit.asnumpy(result), values + 1)


@pytest.mark.skipif(DEVICES < 4, reason="needs 4 devices (the simulator's four run it)")
def test_a_failure_is_raised_as_itself_naming_its_device_after_the_others_finish(rng):
    values = random_array(rng, (40,), "float32")
    finished = []

    def fn(part):
        if part.device.id == 2:
            raise KeyError("planted")
        time.sleep(0.05)
        finished.append(part.device.id)
        return part

    with pytest.raises(KeyError, match="planted") as failure:
        md.map(fn, values, devices=range(4))
    assert sorted(finished) == [0, 1, 3]
    notes = "\n".join(getattr(failure.value, "__notes__", []))
    assert "raised by fn on device 2" in notes and "entries [20, 30) along axis 0" in notes

    def all_fail(part):
        raise RuntimeError(f"device {part.device.id}")

    with pytest.raises(RuntimeError, match="device 0") as failure:
        md.map(all_fail, values, devices=range(3))
    assert "fn failed on 2 more devices too" in "\n".join(failure.value.__notes__)


@pytest.mark.skipif(DEVICES < 3, reason="needs 3 devices (the simulator's four run it)")
def test_bad_results_and_arguments_are_refused(rng):
    values = random_array(rng, (12, 3), "float32")
    with pytest.raises(TypeError, match=r"fn must return a gpukit array on its part's device, but it returned .*"
                                         r"for the part on device 0"):
        md.map(lambda p: gpukit.asnumpy(p), values, devices=range(2))
    with pytest.raises(ValueError, match="the function returned an array on device 0"):
        md.map(lambda p: p.to_device(0), values, devices=range(2))
    with pytest.raises(ValueError, match="must keep the part's extent with its halos"):
        md.map(lambda p: p[1:-1] if p.shape[0] > 4 else p, values, devices=range(3), halo=1)
    with pytest.raises(ValueError, match="reduce such results"):
        md.map(gpukit.sum, values, devices=range(2))  # 0-d results cannot be concatenated
    with pytest.raises(ValueError, match="Unknown combine 'add'"):
        md.map(gpukit.sum, values, combine="add")
    with pytest.raises(TypeError, match="fn must be callable"):
        md.map(None, values)
    with pytest.raises(TypeError, match="broadcast must be a tuple"):
        md.map(gpukit.matmul, values, broadcast=numpy.ones((3, 3)))
    with pytest.raises(ValueError, match="devices is empty"):
        md.map(gpukit.sum, values, devices=[], combine="sum")
