"""Dask graphs that mix what gpukit keeps apart: NumPy and gpukit chunks in one operation (a TypeError,
never a silent copy to or from the host), and chunks of two devices in one task (an error naming the
devices; moving chunks is the user's explicit map_blocks). A worker without a device is
tests/python/dask/test_dask_distributed.py's."""

import numpy
import pytest

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

import gpukit  # noqa: E402
from conftest import random_array  # noqa: E402

NO_SILENT_COPY = "gpukit.asarray"  # what every refusal of host data tells the user to call


@pytest.fixture
def host(rng):
    return random_array(rng, (61, 17), numpy.float32)


@pytest.fixture
def on_device(host):
    return da.from_array(gpukit.asarray(host), chunks=(20, 17), asarray=False)


@pytest.fixture
def on_host(host):
    return da.from_array(host, chunks=(20, 17))


def test_an_elementwise_operation_on_numpy_and_gpukit_chunks_is_a_type_error(on_device, on_host):
    with pytest.raises(TypeError, match=NO_SILENT_COPY):
        (on_device + on_host).compute()


def test_joining_numpy_and_gpukit_chunks_is_a_type_error(on_device, on_host):
    with pytest.raises(TypeError, match=NO_SILENT_COPY):
        da.concatenate([on_device, on_host]).sum().compute()


def test_a_reduction_over_chunks_of_both_kinds_is_a_type_error(on_device):
    # One block comes back to the host: its partial sum meets the device's in the combining task.
    mixed = on_device.map_blocks(lambda block, block_id=None: block.get() if block_id[0] == 1 else block,
                                 meta=gpukit.empty((0, 0), numpy.float32))
    with pytest.raises(TypeError, match=NO_SILENT_COPY):
        mixed.sum().compute()


def test_a_gpukit_chunk_never_becomes_numpy_behind_the_users_back(on_device):
    with pytest.raises(TypeError, match="Implicit conversion of a gpukit array to a NumPy array is not allowed"):
        on_device.map_blocks(numpy.asarray, meta=numpy.empty((0, 0), numpy.float32)).compute()


@pytest.fixture
def two_devices():
    devices = gpukit.all_devices()
    if len(devices) < 2:
        pytest.skip("one device here: a second comes with a GPU (the simulator beside it) or with several "
                    "simulated devices (issue 19)")
    return devices[0], devices[-1]


def chunks_on(device, host):
    """The host data as a Dask array of gpukit chunks on ``device``."""
    with device:
        return da.from_array(gpukit.asarray(host), chunks=(20, 17), asarray=False)


def test_chunks_of_two_devices_in_one_task_are_an_error_naming_them(host, two_devices):
    a, b = (chunks_on(device, host) for device in two_devices)
    with pytest.raises(gpukit.InvalidArgumentError, match="must be on one device.* is on device"):
        (a + b).compute(scheduler="sync")
    with pytest.raises(gpukit.InvalidArgumentError, match="must be on one device.* is on device"):
        da.concatenate([a, b]).rechunk((122, 17)).compute(scheduler="sync")


def test_chunks_moved_to_one_device_explicitly_combine(host, two_devices):
    first, second = two_devices
    a, b = chunks_on(first, host), chunks_on(second, host)
    moved = b.map_blocks(lambda block: block.to_device(first))
    with first:
        result = (a + moved).compute(scheduler="sync")
    assert result.device == first
    numpy.testing.assert_array_equal(result.get(), 2 * host)
