"""gpukit.dask.LocalDeviceCluster: one Dask worker process per device, each on its own, and the
course's exercise (sum, histogram, a 2-D convolution with halos) computed over all of them. On the
simulator the workers share conftest.py's four simulated devices."""

import os

import numpy
import pytest

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

import dask  # noqa: E402
import scipy.signal  # noqa: E402

import gpukit  # noqa: E402
import gpukit.dask  # noqa: E402

pytestmark = pytest.mark.skipif(len(gpukit.devices()) < 2, reason="needs two devices of the selected backend")

SIDE, CHUNK_ROWS = 256, 64


@pytest.fixture(scope="module")
def client():
    """A worker on each of devices 0 and 1, started once for the module."""
    with gpukit.dask.LocalDeviceCluster(devices=[0, 1], dashboard_address=":0",
                                        env={"GPUKIT_SIM_THREADS": "1"}) as cluster, \
            distributed.Client(cluster) as client:
        yield client


@pytest.fixture(scope="module")
def image():
    return numpy.random.default_rng(7).uniform(0.5, 1.5, size=(SIDE, SIDE)).astype(numpy.float32)


def chunks_on_every_worker(client, host):
    """The image as a Dask array of gpukit chunks, made on the workers, at least one chunk per worker."""
    x = da.from_array(host, chunks=(CHUNK_ROWS, SIDE)).map_blocks(gpukit.asarray)
    return x.persist()


def test_each_worker_works_on_its_own_device(client):
    ordinals = client.run(lambda: gpukit.get_device().id)
    assert sorted(ordinals.values()) == [0, 1]
    names = client.run(lambda: os.environ.get("GPUKIT_DEVICE"))
    assert sorted(names.values()) == ["0", "1"]


def test_chunks_land_on_both_devices(client, image):
    x = chunks_on_every_worker(client, image)
    devices = x.map_blocks(lambda block: numpy.full((1, 1), block.device.id), chunks=(1, 1), dtype=int)
    assert set(numpy.asarray(devices.compute(scheduler=client.get)).ravel()) == {0, 1}


def test_sum_and_histogram_over_every_device(client, image):
    x = chunks_on_every_worker(client, image)
    total, (counts, _) = dask.compute(x.sum(dtype=numpy.float64), da.histogram(x, bins=64, range=(0.5, 1.5)))
    numpy.testing.assert_allclose(float(gpukit.asnumpy(total)), image.sum(dtype=numpy.float64), rtol=1e-12)
    numpy.testing.assert_array_equal(gpukit.asnumpy(counts), numpy.histogram(image, bins=64, range=(0.5, 1.5))[0])


def test_a_convolution_with_halos_over_every_device(client, image):
    weights = numpy.random.default_rng(3).uniform(-1, 1, size=(5, 5)).astype(numpy.float32)
    x = chunks_on_every_worker(client, image)

    def convolve(block):
        return gpukit.signal.convolve2d(block, gpukit.asarray(weights, device=block.device), mode="same")

    expected = scipy.signal.convolve2d(image, weights, mode="same")
    # Zeros around the image: Dask's boundary chunks (their graph holds the chunks' empty meta, which
    # pickles), or none at all, since 'same' pads the image's edges with zeros itself.
    for boundary in (0, "none"):
        result = x.map_overlap(convolve, depth=2, boundary=boundary, dtype=numpy.float32).compute()
        numpy.testing.assert_allclose(gpukit.asnumpy(result), expected, rtol=1e-4, atol=1e-4)


def test_bad_device_lists_are_refused_before_any_worker_starts():
    count = len(gpukit.devices())
    with pytest.raises(ValueError, match=f"there are {count}"):
        gpukit.dask.LocalDeviceCluster(devices=[count])
    with pytest.raises(ValueError, match="listed twice"):
        gpukit.dask.LocalDeviceCluster(devices=[0, 0])
    with pytest.raises(ValueError, match="processes must be True"):
        gpukit.dask.LocalDeviceCluster(processes=False)
    with pytest.raises(TypeError, match="devices= instead of n_workers"):
        gpukit.dask.LocalDeviceCluster(n_workers=3)
