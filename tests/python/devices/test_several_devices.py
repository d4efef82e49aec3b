"""Arrays on several devices: to_device and asarray(device=) copies between them (peer to peer, or
through the host without peer access), the one-device rule of operations, the current device, and
peer access. On the simulator, conftest.py presents four devices."""

import os
import subprocess
import sys
import textwrap
import threading

import numpy
import pytest

import gpukit
from conftest import random_array

DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64", "complex64", "complex128"]

pytestmark = pytest.mark.skipif(len(gpukit.devices()) < 2, reason="needs two devices of the selected backend")
LAST = len(gpukit.devices()) - 1  # 1 on a machine of two GPUs, 3 on conftest.py's simulated devices


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(0,), (1,), (7,), (33, 5), (3, 0, 4), (5, 6, 7)])
def test_to_device_copies_every_dtype_and_shape(rng, dtype, shape):
    values = random_array(rng, shape, dtype)
    source = gpukit.asarray(values)
    copied = source.to_device(1)
    assert copied.device == gpukit.Device(1) and copied.dtype == values.dtype and copied.shape == shape
    numpy.testing.assert_array_equal(gpukit.asnumpy(copied), values)
    numpy.testing.assert_array_equal(gpukit.asnumpy(copied.to_device(gpukit.Device(0))), values)


@pytest.mark.parametrize("view", ["F", "T", "step", "reversed", "column"])
def test_to_device_copies_views_and_keeps_dense_layouts(rng, view):
    values = random_array(rng, (21, 10), "float32")
    base = gpukit.asarray(values)
    source, expected = {
        "F": (gpukit.asfortranarray(base), values),
        "T": (base.T, values.T),
        "step": (base[1:19:3, ::2], values[1:19:3, ::2]),
        "reversed": (base[::-1], values[::-1]),
        "column": (base[:, 4], values[:, 4]),
    }[view]
    copied = source.to_device(LAST)
    numpy.testing.assert_array_equal(gpukit.asnumpy(copied), expected)
    if source.flags.c_contiguous or source.flags.f_contiguous:
        assert copied.strides == source.strides


def test_to_device_of_its_own_device_is_the_array_itself(rng):
    x = gpukit.asarray(random_array(rng, (5,), "float64"))
    assert x.to_device(0) is x or x.to_device(0).data_ptr == x.data_ptr


def test_asarray_with_a_device_copies_over_and_converts(rng):
    values = random_array(rng, (4, 6), "int32")
    x = gpukit.asarray(values)
    y = gpukit.asarray(x, device=LAST, dtype="float64")
    assert y.device == gpukit.Device(LAST) and y.dtype == numpy.float64
    numpy.testing.assert_array_equal(gpukit.asnumpy(y), values.astype(numpy.float64))
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        gpukit.asarray(x, device=1, copy=False)


def test_operations_refuse_arrays_of_two_devices_and_name_the_fix(rng):
    a = gpukit.asarray(random_array(rng, (8,), "float32"))
    b = gpukit.asarray(random_array(rng, (8,), "float32"), device=1)
    for operation in (lambda: a + b, lambda: gpukit.matmul(a.reshape(2, 4), b.reshape(4, 2)),
                      lambda: gpukit.where(a > 0, a, b), lambda: a[b > 0], lambda: gpukit.searchsorted(a, b)):
        with pytest.raises(ValueError, match=r"one device.*device 1.*to_device\(0\)") as caught:
            operation()
        assert isinstance(caught.value, gpukit.InvalidArgumentError)
    numpy.testing.assert_allclose(gpukit.asnumpy(a + b.to_device(0)), gpukit.asnumpy(a) + gpukit.asnumpy(b))


def test_assignment_across_devices_copies_converts_and_broadcasts(rng):
    row = random_array(rng, (6,), "float32")
    target = gpukit.zeros((3, 6), dtype="float64")
    target[...] = gpukit.asarray(row, device=LAST)
    numpy.testing.assert_array_equal(gpukit.asnumpy(target), numpy.broadcast_to(row.astype(numpy.float64), (3, 6)))


def test_the_current_device_places_new_arrays_and_is_restored():
    with gpukit.Device(1):
        assert gpukit.zeros(3).device == gpukit.Device(1)
        with gpukit.Device(0):
            assert gpukit.arange(4).device == gpukit.Device(0)
        assert gpukit.get_device() == gpukit.Device(1)
    assert gpukit.get_device() == gpukit.Device(0)


def test_an_operation_runs_on_its_arrays_device_whatever_the_current_one(rng):
    values = random_array(rng, (100,), "float64")
    x = gpukit.asarray(values, device=1)
    with gpukit.Device(0):
        total = gpukit.sum(x)
    assert total.device == gpukit.Device(1)
    numpy.testing.assert_allclose(float(total), values.sum())


def test_each_thread_has_its_own_current_device_and_work_runs_on_each(rng):
    values = [random_array(rng, (1000,), "float32") for _ in gpukit.devices()]
    results = {}

    def work(ordinal):
        with gpukit.Device(ordinal):
            x = gpukit.asarray(values[ordinal])
            results[ordinal] = (x.device, float(gpukit.sum(x * 2)))

    threads = [threading.Thread(target=work, args=(d.id,)) for d in gpukit.devices()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for device in gpukit.devices():
        assert results[device.id][0] == device
        numpy.testing.assert_allclose(results[device.id][1], (values[device.id] * 2).sum(dtype=numpy.float64),
                                      rtol=1e-5)


def test_a_device_out_of_range_names_how_many_there_are():
    count = len(gpukit.devices())
    expected = rf"There is no \w+ device {count + 2}; there are {count} \(0 to {count - 1}\)"
    with pytest.raises(ValueError, match=expected):
        gpukit.Device(count + 2)
    with pytest.raises(ValueError, match="there are"):
        gpukit.zeros(3).to_device(count)
    with pytest.raises(TypeError, match="device must be"):
        gpukit.zeros(3).to_device("1")


def test_peer_access_is_asked_per_pair_and_enabled_once():
    first, second = gpukit.Device(0), gpukit.Device(1)
    assert not first.can_access_peer(first)
    if first.can_access_peer(second):
        first.enable_peer_access(second)
        first.enable_peer_access(second)
    else:
        with pytest.raises(ValueError, match="go through the host"):
            first.enable_peer_access(second)


@pytest.mark.skipif(gpukit.backend() != "sim", reason="GPUKIT_SIM_PEER_ACCESS is the simulator's")
def test_without_peer_access_copies_go_through_the_host():
    program = textwrap.dedent("""
        import numpy, gpukit
        first, second = gpukit.Device(0), gpukit.Device(1)
        assert not first.can_access_peer(second)
        values = numpy.arange(1000, dtype=numpy.float32) * 0.5 + 1
        copied = gpukit.asarray(values).to_device(second)
        assert copied.device == second
        numpy.testing.assert_array_equal(gpukit.asnumpy(copied), values)
        try:
            first.enable_peer_access(second)
        except ValueError as error:
            print("refused:", error)
    """)
    environment = dict(os.environ, GPUKIT_SIM_PEER_ACCESS="0", GPUKIT_SIM_DEVICES="2", GPUKIT_BACKEND="sim")
    done = subprocess.run([sys.executable, "-c", program], env=environment, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "refused:" in done.stdout and "go through the host" in done.stdout


@pytest.mark.skipif(gpukit.backend() != "sim", reason="GPUKIT_SIM_DEVICES is the simulator's")
@pytest.mark.parametrize("value", ["0", "17", "two", "-1"])
def test_a_bad_simulated_device_count_is_an_error(value):
    environment = dict(os.environ, GPUKIT_SIM_DEVICES=value, GPUKIT_BACKEND="sim")
    done = subprocess.run([sys.executable, "-c", "import gpukit; gpukit.devices()"], env=environment,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode != 0 and f"GPUKIT_SIM_DEVICES={value}: give how many devices" in done.stderr


@pytest.mark.parametrize(("value", "expected"), [("1", "ok 1 1"), ("9", "GPUKIT_DEVICE=9: There is no"),
                                                 ("one", "GPUKIT_DEVICE=one: give the number")])
def test_gpukit_device_sets_the_default_device_of_a_process(value, expected):
    program = textwrap.dedent("""
        import gpukit
        try:
            print("ok", gpukit.get_device().id, gpukit.zeros(3).device.id)
        except ValueError as error:
            print(error)
    """)
    environment = dict(os.environ, GPUKIT_DEVICE=value)
    done = subprocess.run([sys.executable, "-c", program], env=environment, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout
