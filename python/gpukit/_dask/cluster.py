"""One dask.distributed worker process per gpukit device: :class:`LocalDeviceCluster`.

Each worker process gets ``GPUKIT_DEVICE=<n>`` in its environment, so every task it runs works on its
own device without code for it (gpukit's default device of a thread that chose none), as
dask-cuda's LocalCUDACluster gives each worker one GPU through ``CUDA_VISIBLE_DEVICES``. Chunks then
live on the worker that made them, and the work over them runs on all the devices at once.
"""

import distributed

import gpukit


def _device_ordinals(devices):
    """The ordinals of ``devices`` (ids or gpukit.Device; all of the selected backend's when None)."""
    if devices is None:
        return [device.id for device in gpukit.devices()]
    ordinals = []
    for device in devices:
        ordinal = device.id if isinstance(device, gpukit.Device) else gpukit.Device(device).id  # checks the range
        if ordinal in ordinals:
            raise ValueError(f"LocalDeviceCluster: device {ordinal} is listed twice; each device gets one worker")
        ordinals.append(ordinal)
    if not ordinals:
        raise ValueError("LocalDeviceCluster: give at least one device")
    return ordinals


class LocalDeviceCluster(distributed.LocalCluster):
    """A :class:`distributed.LocalCluster` of one worker process per device (``devices``: ids or
    gpukit.Device, default every device of the selected backend), each working on its own device;
    ``threads_per_worker`` threads each (default 1: a device's work is queued, not computed, by its
    threads). Every other argument is LocalCluster's."""

    def __init__(self, devices=None, *, threads_per_worker=1, env=None, **kwargs):
        if kwargs.pop("processes", True) is not True:
            raise ValueError("LocalDeviceCluster: processes must be True: each worker is a process of its own, "
                             "whose default device its environment sets")
        if "n_workers" in kwargs:
            raise TypeError("LocalDeviceCluster: the workers are one per device: give devices= instead of n_workers")
        self._device_ordinals = _device_ordinals(devices)
        super().__init__(n_workers=0, threads_per_worker=threads_per_worker, processes=True, env=dict(env or {}),
                         **kwargs)
        self.scale(len(self._device_ordinals))

    def new_worker_spec(self):
        """The next device without a worker, named ``device-<n>``, with ``GPUKIT_DEVICE=<n>``."""
        taken = {spec["options"].get("env", {}).get("GPUKIT_DEVICE") for spec in self.worker_spec.values()}
        free = [ordinal for ordinal in self._device_ordinals if str(ordinal) not in taken]
        if not free:
            raise ValueError(f"LocalDeviceCluster: every device has its worker ({len(self._device_ordinals)}); "
                             "a device takes one worker")
        options = dict(self.new_spec["options"])
        options["env"] = {**options.get("env", {}), "GPUKIT_DEVICE": str(free[0])}
        return {f"device-{free[0]}": {"cls": self.new_spec["cls"], "options": options}}
