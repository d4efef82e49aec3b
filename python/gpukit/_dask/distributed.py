"""gpukit arrays between dask.distributed's client, scheduler and workers.

Two of distributed's serialiser families, as for CuPy arrays:

- ``dask`` (every comm, and spilling to disk): host frames. The array is copied to the host (laid out
  contiguously), sent as one frame with its shape, strides and dtype, and copied to the device of the
  process that receives it: a chunk made on the client's device lands on the worker's.
- ``cuda`` (comms that move device memory, such as UCX): the array's device memory itself, as one
  frame of bytes with ``__cuda_array_interface__``; the receiver views the frame it got as the array
  without a copy. On the simulator, whose memory is not CUDA memory, it declines and the ``dask``
  family serves.

gpukit arrays do not pickle (a pickle would hide a device-to-host copy); distributed's pickler uses
the ``dask`` family for arrays inside task graphs too, so every process that unpickles such a graph
(the scheduler as well as the workers) receives its arrays. A process whose device cannot take one
(no device, no driver, its memory full) gets an :class:`UndeliveredArray` instead of failing inside
distributed's comm, where the failure would stall the computation: it travels on as the array it
stands for (a scheduler without a device forwards it intact), and the task that uses it raises the
device's error, which reaches the client.
"""

import pickle

import numpy
from dask.sizeof import sizeof
from distributed.protocol import cuda_deserialize, cuda_serialize, dask_deserialize, dask_serialize

import gpukit

_DLPACK_CUDA = 2  # DLPack's kDLCUDA: the device's memory is CUDA memory


class _DeviceMemory:
    """Device memory described by the CUDA Array Interface, kept alive by ``owner`` (an array, a CuPy
    array, an RMM buffer: anything with the interface). gpukit.asarray views it without a copy."""

    def __init__(self, owner, shape, typestr, strides):
        interface = owner.__cuda_array_interface__
        self.owner = owner
        self.__cuda_array_interface__ = {
            "version": 3, "shape": tuple(shape), "typestr": typestr, "strides": tuple(strides),
            "data": (interface["data"][0], False), "stream": interface.get("stream"),
        }


def _contiguous(array):
    if array.flags.c_contiguous or array.flags.f_contiguous:
        return array
    return gpukit.ascontiguousarray(array)


def _layout(array):
    # The dtype goes pickled: bfloat16's NumPy dtype (ml_dtypes) has no string NumPy parses back.
    return {"shape": list(array.shape), "strides": list(array.strides), "dtype": pickle.dumps(array.dtype)}


def serialize_to_host(array):
    """(header, [one frame of host bytes]) for the ``dask`` family."""
    host = array.get()
    if not (host.flags.c_contiguous or host.flags.f_contiguous):
        host = numpy.ascontiguousarray(host)
    # The frame is a NumPy array rather than a memoryview: distributed's pickler sends arrays inside
    # task graphs as (deserialise, (header, frames)), which must pickle, and NumPy arrays pickle
    # their memory out of band without a copy.
    return _layout(host), [host.ravel(order="K").view(numpy.uint8)]


def deserialize_from_host(header, frames):
    """The array of :func:`serialize_to_host`'s frame, on the receiving process's current device."""
    (frame,) = frames
    dtype = pickle.loads(header["dtype"])
    host = numpy.ndarray(tuple(header["shape"]), dtype, buffer=frame, strides=tuple(header["strides"]))
    try:
        return gpukit.asarray(host)
    except gpukit.GpukitError as error:
        return UndeliveredArray(host, error)


class UndeliveredArray:
    """A gpukit array that reached a process whose device could not take it: the host copy and the
    device's error. Sent on, it is the array again; its shape, dtype and sizes answer (Dask inspects
    them); any use of its elements raises the error."""

    def __init__(self, host, error):
        self.host = host
        self.error = error
        self.shape, self.dtype, self.ndim, self.size, self.nbytes = host.shape, host.dtype, host.ndim, host.size, \
            host.nbytes

    def refuse(self, *args, **kwargs):
        message = f"a gpukit array {self.host.shape} {self.host.dtype} sent to this process could not be put on its " \
                  f"device: {self.error}"
        try:
            error = type(self.error)(message)
        except Exception:  # an error type that takes more than a message: raised as it is
            raise self.error from None
        raise error from self.error

    __getitem__ = __setitem__ = __array__ = __array_function__ = __array_ufunc__ = __len__ = __iter__ = refuse
    __bool__ = __float__ = __int__ = __index__ = __dlpack__ = __neg__ = __pos__ = __abs__ = __invert__ = refuse
    __cuda_array_interface__ = property(refuse)  # gpukit.asarray and other libraries read it first

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        self.refuse()

    def __repr__(self):
        return f"<gpukit array {self.host.shape} {self.host.dtype} not on a device here: {self.error}>"


for _operator in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor", "lshift",
                  "rshift"):
    setattr(UndeliveredArray, f"__{_operator}__", UndeliveredArray.refuse)
    setattr(UndeliveredArray, f"__r{_operator}__", UndeliveredArray.refuse)
for _operator in ("lt", "le", "gt", "ge"):
    setattr(UndeliveredArray, f"__{_operator}__", UndeliveredArray.refuse)
del _operator


def _undelivered_to_host(undelivered):
    return _layout(undelivered.host), [undelivered.host.ravel(order="K").view(numpy.uint8)]


def serialize_on_device(array):
    """(header, [the array's bytes on the device]) for the ``cuda`` family; NotImplementedError (the
    next family then) where the device's memory is not CUDA memory."""
    if array.device.backend_info.capabilities.dlpack_device_type != _DLPACK_CUDA:
        raise NotImplementedError(f"a gpukit array on {array.device.name} is not in CUDA memory: sent in host frames")
    contiguous = _contiguous(array)
    header = _layout(contiguous)
    header["typestr"] = contiguous.__cuda_array_interface__["typestr"]
    frame = gpukit.asarray(_DeviceMemory(contiguous, (contiguous.nbytes,), "|u1", (1,)))
    return header, [frame]


def deserialize_on_device(header, frames):
    """A gpukit array viewing the device frame (any object with ``__cuda_array_interface__``)."""
    (frame,) = frames
    return gpukit.asarray(_DeviceMemory(frame, header["shape"], header["typestr"], header["strides"]))


def register():
    """Registers gpukit.ndarray with distributed's ``dask`` and ``cuda`` serialiser families (idempotent)."""
    dask_serialize.register(gpukit.ndarray, serialize_to_host)
    dask_deserialize.register(gpukit.ndarray, deserialize_from_host)
    dask_serialize.register(UndeliveredArray, _undelivered_to_host)
    dask_deserialize.register(UndeliveredArray, deserialize_from_host)
    sizeof.register(UndeliveredArray, lambda undelivered: int(undelivered.nbytes))
    cuda_serialize.register(gpukit.ndarray, serialize_on_device)
    cuda_deserialize.register(gpukit.ndarray, deserialize_on_device)
