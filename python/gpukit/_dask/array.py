"""gpukit arrays as chunks of dask.array: the chunk type, Dask's dispatch tables, and the ``gpukit`` backend.

Most of what Dask does to a chunk it does through NumPy's functions, which reach gpukit through
``__array_function__`` and ``__array_ufunc__``. What it looks up by chunk type instead is registered
here, each entry a gpukit function: joining (concatenate), tensordot, einsum, take, empty arrays,
percentiles, element counts, conversions to NumPy and CuPy, size in bytes and tokens.
``GpukitBackendEntrypoint`` is Dask's array backend ``gpukit`` (``dask.config.set({"array.backend":
"gpukit"})``): ``da.ones``, ``da.zeros``, ``da.full``, ``da.arange`` and ``da.random`` then make
gpukit chunks.
"""

import math
import uuid

import dask
import dask.array as da
import numpy
from dask.array.backends import ArrayBackendEntrypoint
from dask.array.chunk_types import is_valid_chunk_type
from dask.array.dispatch import (
    concatenate_lookup,
    einsum_lookup,
    empty_lookup,
    nannumel_lookup,
    numel_lookup,
    percentile_lookup,
    take_lookup,
    tensordot_lookup,
    to_cupy_dispatch,
    to_numpy_dispatch,
)
from dask.sizeof import sizeof
from dask.tokenize import normalize_token
from dask.utils import Dispatch

import gpukit

from . import random

#: Moves a chunk to gpukit: NumPy arrays are copied to the device, device arrays of other libraries
#: (CuPy) are shared without a copy. ``x.to_backend("gpukit")`` maps it over every chunk.
to_gpukit_dispatch = Dispatch("to_gpukit_dispatch")


@to_gpukit_dispatch.register((numpy.ndarray, gpukit.ndarray))
def _to_gpukit(data, **kwargs):
    return gpukit.asarray(data, **kwargs)


@to_gpukit_dispatch.register_lazy("cupy")
def _register_cupy_to_gpukit():
    import cupy

    to_gpukit_dispatch.register(cupy.ndarray, _to_gpukit)  # shared through __cuda_array_interface__


def _gpukit_to_numpy(data, **kwargs):
    return data.get(**kwargs)


def _gpukit_to_cupy(data, **kwargs):
    import cupy

    return cupy.asarray(data, **kwargs)


def _percentiles_of_chunk(chunk, q, method="linear"):
    """da.percentile's step on one chunk: its percentiles ``q`` and its length, which weighs them."""
    if len(chunk) == 0:
        return None, 0
    if not numpy.issubdtype(chunk.dtype, numpy.number):
        method = "nearest"  # booleans cannot be interpolated (Dask's rule for NumPy chunks)
    return gpukit.percentile(chunk, q, method=method), len(chunk)


def _element_count(chunk, axis=None, keepdims=False, dtype=numpy.float64):
    """How many elements Dask's mean, var and std divide by, as a gpukit array of the reduction's shape."""
    if axis is None:
        axes = range(chunk.ndim)
    else:
        axes = [dimension % chunk.ndim for dimension in (axis if isinstance(axis, (tuple, list)) else (axis,))]
    count = math.prod(chunk.shape[dimension] for dimension in axes)
    if axis is None and not keepdims:
        shape = ()
    else:
        shape = tuple(1 if dimension in axes else extent for dimension, extent in enumerate(chunk.shape)
                      if keepdims or dimension not in axes)
    return gpukit.full(shape, count, dtype=dtype)


def _count_of_numbers(chunk, **kwargs):
    """How many elements are not NaN, for Dask's nanmean, nanvar and nanstd."""
    return gpukit.sum(~gpukit.isnan(chunk), **kwargs)


def _token(array):
    """Dask's name for a gpukit array: hashing device memory would copy it to the host, so a fresh
    one (as Dask gives objects it cannot hash), unless the user asks for deterministic names."""
    if dask.config.get("tokenize.ensure-deterministic", False):
        return "gpukit.ndarray", dask.base.tokenize(array.get())
    return "gpukit.ndarray", uuid.uuid4().hex


def register():
    """Registers gpukit.ndarray with dask.array (idempotent)."""
    if not is_valid_chunk_type(gpukit.ndarray):
        da.register_chunk_type(gpukit.ndarray)
    concatenate_lookup.register(gpukit.ndarray, gpukit.concatenate)
    tensordot_lookup.register(gpukit.ndarray, gpukit.tensordot)
    einsum_lookup.register(gpukit.ndarray, gpukit.einsum)  # it takes the order= and casting= Dask passes on
    take_lookup.register(gpukit.ndarray, gpukit.take)
    empty_lookup.register(gpukit.ndarray, gpukit.empty)
    percentile_lookup.register(gpukit.ndarray, _percentiles_of_chunk)
    numel_lookup.register(gpukit.ndarray, _element_count)
    nannumel_lookup.register(gpukit.ndarray, _count_of_numbers)
    to_numpy_dispatch.register(gpukit.ndarray, _gpukit_to_numpy)
    to_cupy_dispatch.register(gpukit.ndarray, _gpukit_to_cupy)
    sizeof.register(gpukit.ndarray, lambda array: int(array.nbytes))
    normalize_token.register(gpukit.ndarray, _token)


def _with_gpukit_meta(creation, *args, meta=None, **kwargs):
    # NumPy's backend makes its chunks with NumPy's *_like functions on ``meta``, which reach gpukit's.
    with dask.config.set({"array.backend": "numpy"}):
        return getattr(da, creation)(*args, meta=gpukit.empty(()) if meta is None else meta, **kwargs)


class GpukitBackendEntrypoint(ArrayBackendEntrypoint):
    """Dask's array backend ``gpukit``: creation functions and random numbers make gpukit chunks,
    ``x.to_backend("gpukit")`` moves an array's chunks to the device."""

    def __init__(self):
        register()

    @classmethod
    def to_backend_dispatch(cls):
        return to_gpukit_dispatch

    @classmethod
    def to_backend(cls, data, **kwargs):
        if isinstance(data._meta, gpukit.ndarray):
            return data
        return data.map_blocks(to_gpukit_dispatch, **kwargs)

    @property
    def RandomState(self):  # noqa: N802 (Dask's name)
        return random.RandomState

    @property
    def default_bit_generator(self):
        return random.Philox

    @staticmethod
    def ones(*args, **kwargs):
        return _with_gpukit_meta("ones", *args, **kwargs)

    @staticmethod
    def zeros(*args, **kwargs):
        return _with_gpukit_meta("zeros", *args, **kwargs)

    @staticmethod
    def empty(*args, **kwargs):
        return _with_gpukit_meta("empty", *args, **kwargs)

    @staticmethod
    def full(*args, **kwargs):
        return _with_gpukit_meta("full", *args, **kwargs)

    @staticmethod
    def arange(*args, like=None, **kwargs):
        with dask.config.set({"array.backend": "numpy"}):
            return da.arange(*args, like=gpukit.empty(()) if like is None else like, **kwargs)
