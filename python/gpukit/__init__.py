"""gpukit: CUDA C kernels from Python, on an NVIDIA GPU or on a CPU simulator that checks them.

Names follow CuPy and PyCUDA, so course code ports with few changes::

    import gpukit, numpy
    add = gpukit.RawKernel(source, "vector_add")
    a = gpukit.asarray(numpy.random.rand(n).astype(numpy.float32))
    b = gpukit.asarray(numpy.random.rand(n).astype(numpy.float32))
    c = gpukit.empty(n, numpy.float32)
    add(((n + 255) // 256,), (256,), (a, b, c, n))
    result = c.get()

The backend is the GPU when one is usable, else the simulator; ``GPUKIT_BACKEND=sim`` or
:func:`use_backend` chooses. The simulator's check mode (``RawModule(..., check='memcheck')`` or
``GPUKIT_CHECK``) reports out-of-bounds accesses, races and barrier misuse with block, thread and
source line: see :func:`take_check_report`.
"""

import numpy as _numpy

from . import _core, _dtypes, _errors, cuda, fft, linalg, ndimage, random, signal, streaming  # noqa: F401 (gpukit._dtypes and gpukit._errors, which the core raises from)
from ._array_api import (
    __array_api_version__,
    __array_namespace_info__,
    astype,
    clip,
    concat,
    finfo,
    iinfo,
    isdtype,
    permute_dims,
)
from ._backend import (
    Device,
    all_devices,
    backend,
    backends,
    cuda_available,
    cuda_unavailable_reason,
    devices,
    get_device,
    sandboxed,
    set_sandbox,
    synchronize,
    use_backend,
)
from ._benchmark import BenchmarkResult, benchmark
from ._check import (
    CheckReport,
    Hazard,
    check_tools_from_environment,
    print_check_report,
    raise_on_hazard,
    set_print_check_report,
    set_raise_on_hazard,
    take_check_report,
)
from ._core import (
    DevicePointer,
    ElementwiseKernel,
    Event,
    MemoryPool,
    ReductionKernel,
    Stream,
    all,
    allclose,
    amax,
    amin,
    angle,
    any,
    append,
    arange,
    argmax,
    argmin,
    argpartition,
    argsort,
    argwhere,
    around,
    array_equal,
    array_equiv,
    array_split,
    atleast_1d,
    atleast_2d,
    atleast_3d,
    average,
    bincount,
    broadcast_arrays,
    broadcast_to,
    can_cast,
    choose,
    column_stack,
    compress,
    concatenate,
    convolve,
    copy,
    copyto,
    corrcoef,
    correlate,
    count_nonzero,
    cov,
    cross,
    cumprod,
    cumsum,
    cumulative_prod,
    cumulative_sum,
    delete,
    diag,
    diagflat,
    diagonal,
    diff,
    digitize,
    dot,
    dstack,
    ediff1d,
    einsum,
    empty,
    expand_dims,
    extract,
    eye,
    fill_diagonal,
    flatnonzero,
    flip,
    full,
    get_array_module,
    get_current_stream,
    get_default_memory_pool,
    get_elapsed_time,
    get_matmul_library,
    get_matmul_precision,
    gradient,
    histogram,
    histogram2d,
    histogram_bin_edges,
    histogramdd,
    hstack,
    identity,
    imag,
    in1d,
    indices,
    inner,
    insert,
    interp,
    intersect1d,
    isclose,
    iscomplex,
    iscomplexobj,
    isin,
    isreal,
    isrealobj,
    isscalar,
    kron,
    lexsort,
    linspace,
    matmul,
    matrix_transpose,
    max,
    may_share_memory,
    mean,
    median,
    meshgrid,
    min,
    moveaxis,
    nan_to_num,
    nanargmax,
    nanargmin,
    nancumprod,
    nancumsum,
    nanmax,
    nanmean,
    nanmedian,
    nanmin,
    nanpercentile,
    nanprod,
    nanquantile,
    nanstd,
    nansum,
    nanvar,
    ndarray,
    ndim,
    nonzero,
    ones,
    outer,
    partition,
    percentile,
    place,
    polyfit,
    polyval,
    prod,
    promote_types,
    ptp,
    put,
    put_along_axis,
    putmask,
    quantile,
    ravel_multi_index,
    real,
    repeat,
    resize,
    result_type,
    roll,
    rot90,
    round,
    searchsorted,
    select,
    set_host_conversion,
    set_matmul_library,
    set_matmul_precision,
    setdiff1d,
    setxor1d,
    shape,
    shares_memory,
    size,
    sort,
    split,
    squeeze,
    stack,
    std,
    sum,
    swapaxes,
    take,
    take_along_axis,
    tensordot,
    tile,
    trace,
    transpose,
    trapezoid,
    tril,
    triu,
    ufunc,
    union1d,
    unique,
    unique_all,
    unique_counts,
    unique_inverse,
    unique_values,
    unravel_index,
    unstack,
    var,
    vdot,
    vecdot,
    vstack,
    zeros,
)
from ._creation import empty_like, full_like, ones_like, pinned_empty, zeros_like
from ._errors import (
    ArrayIndexError,
    AxisError,
    BackendUnavailableError,
    CompileError,
    ContextUnusableError,
    CudaError,
    DTypeError,
    GpukitError,
    HazardError,
    InvalidArgumentError,
    KernelArgumentError,
    KernelFaultError,
    KernelNotFoundError,
    LaunchAbandonedError,
    LaunchConfigError,
    LaunchError,
    LaunchTimeoutError,
    OutOfMemoryError,
    ScalarOverflowError,
    UnsupportedDTypeError,
    UsageError,
    WaitInterruptedError,
    WaitTimeoutError,
)
from ._indexing import where
from ._interop import array, asarray, ascontiguousarray, asfortranarray, asnumpy, from_dlpack
from ._jit import guvectorize, jit, reduce, vectorize
from ._kernel import RawKernel, RawModule
from ._shape import fliplr, flipud, pad, ravel, reshape

# The ufuncs, one per row of the C++ table (src/ops/ufuncs.def), and NumPy's aliases of them:
# gpukit.add, gpukit.sqrt, gpukit.divide, ...
_ufuncs = _core.ufuncs()
del _ufuncs["clip"]  # gpukit.clip is numpy.clip's function (either bound may be None), over the clip ufunc
globals().update(_ufuncs)

# Tracebacks and reprs name the public path (gpukit.LaunchConfigError), not the private module. The
# classes the extension defines (ndarray, Stream, Event, Device) keep gpukit._core as theirs, so that
# its stub (_core.pyi) describes them rather than importing them back from here.
for _name in ("ArrayIndexError", "AxisError", "BackendUnavailableError", "BenchmarkResult", "CompileError",
              "ContextUnusableError", "CudaError", "DTypeError", "GpukitError", "HazardError", "InvalidArgumentError",
              "KernelArgumentError", "KernelFaultError", "KernelNotFoundError", "LaunchAbandonedError",
              "LaunchConfigError", "LaunchError", "LaunchTimeoutError", "OutOfMemoryError", "RawKernel", "RawModule",
              "ScalarOverflowError", "UnsupportedDTypeError", "UsageError", "WaitInterruptedError",
              "WaitTimeoutError"):
    globals()[_name].__module__ = __name__
del _name

__version__ = _core.version()  # the version CMake states, which pyproject.toml repeats

#: A null pointer for a kernel's pointer parameter: launches refuse None and plain ints there.
nullptr = DevicePointer(0)

# The Array API standard's dtypes and constants, NumPy's own (as CuPy's are): gpukit.float32 is
# numpy.float32, so dtype= takes either.
bool = _numpy.bool_  # noqa: A001 (the standard's name; gpukit.all and gpukit.max shadow builtins too)
int8, int16, int32, int64 = _numpy.int8, _numpy.int16, _numpy.int32, _numpy.int64
uint8, uint16, uint32, uint64 = _numpy.uint8, _numpy.uint16, _numpy.uint32, _numpy.uint64
float16, float32, float64 = _numpy.float16, _numpy.float32, _numpy.float64
complex64, complex128 = _numpy.complex64, _numpy.complex128
e, pi, inf, nan, newaxis = _numpy.e, _numpy.pi, _numpy.inf, _numpy.nan, None

__all__ = [
    "ArrayIndexError", "AxisError", "BackendUnavailableError", "BenchmarkResult", "CheckReport", "CompileError",
    "ContextUnusableError", "CudaError", "DTypeError", "Device", "DevicePointer", "ElementwiseKernel", "Event",
    "GpukitError", "Hazard", "HazardError", "InvalidArgumentError", "KernelArgumentError", "KernelFaultError",
    "KernelNotFoundError", "LaunchAbandonedError", "LaunchConfigError", "LaunchError", "LaunchTimeoutError",
    "MemoryPool", "OutOfMemoryError", "RawKernel", "RawModule", "ReductionKernel", "ScalarOverflowError", "Stream",
    "UnsupportedDTypeError", "UsageError", "WaitInterruptedError", "WaitTimeoutError", "__array_api_version__",
    "__array_namespace_info__", "all", "all_devices", "allclose", "amax", "amin", "angle", "any", "append", "arange",
    "argmax", "argmin", "argpartition", "argsort", "argwhere", "around", "array", "array_equal", "array_equiv",
    "array_split", "asarray", "ascontiguousarray", "asfortranarray", "asnumpy", "astype", "atleast_1d", "atleast_2d",
    "atleast_3d", "average", "backend", "backends", "benchmark", "bincount", "bool", "broadcast_arrays", "broadcast_to",
    "can_cast", "check_tools_from_environment", "choose", "clip", "column_stack", "complex128", "complex64", "compress",
    "concat", "concatenate", "convolve", "copy", "copyto", "corrcoef", "correlate", "count_nonzero", "cov", "cross",
    "cuda", "cuda_available", "cuda_unavailable_reason", "cumprod", "cumsum", "cumulative_prod", "cumulative_sum",
    "delete", "devices", "diag", "diagflat", "diagonal", "diff", "digitize", "dot", "dstack", "e", "ediff1d", "einsum",
    "empty", "empty_like", "expand_dims", "extract", "eye", "fft", "fill_diagonal", "finfo", "flatnonzero", "flip",
    "fliplr", "flipud", "float16", "float32", "float64", "from_dlpack", "full", "full_like", "get_array_module",
    "get_current_stream", "get_default_memory_pool", "get_device", "get_elapsed_time", "get_matmul_library",
    "get_matmul_precision", "gradient", "guvectorize", "histogram", "histogram2d", "histogram_bin_edges", "histogramdd",
    "hstack", "identity", "iinfo", "imag", "in1d", "indices", "inf", "inner", "insert", "int16", "int32", "int64",
    "int8", "interp", "intersect1d", "isclose", "iscomplex", "iscomplexobj", "isdtype", "isin", "isreal", "isrealobj",
    "isscalar", "jit", "kron", "lexsort", "linalg", "linspace", "matmul", "matrix_transpose", "max", "may_share_memory",
    "mean", "median", "meshgrid", "min", "moveaxis", "nan", "nan_to_num", "nanargmax", "nanargmin", "nancumprod",
    "nancumsum", "nanmax", "nanmean", "nanmedian", "nanmin", "nanpercentile", "nanprod", "nanquantile", "nanstd",
    "nansum", "nanvar", "ndarray", "ndim", "ndimage", "newaxis", "nonzero", "nullptr", "ones", "ones_like", "outer",
    "pad", "partition", "percentile", "permute_dims", "pi", "pinned_empty", "place", "polyfit", "polyval",
    "print_check_report", "prod",
    "promote_types", "ptp", "put", "put_along_axis", "putmask", "quantile", "raise_on_hazard", "random", "ravel",
    "ravel_multi_index", "real", "reduce", "repeat", "reshape", "resize", "result_type", "roll", "rot90", "round",
    "sandboxed", "searchsorted", "select", "set_host_conversion", "set_matmul_library", "set_matmul_precision",
    "set_print_check_report", "set_raise_on_hazard", "set_sandbox", "setdiff1d", "setxor1d", "shape", "shares_memory",
    "signal", "size", "sort", "split", "squeeze", "stack", "std", "streaming", "sum", "swapaxes", "synchronize", "take",
    "take_along_axis", "take_check_report", "tensordot", "tile", "trace", "transpose", "trapezoid", "tril", "triu",
    "ufunc", "uint16", "uint32", "uint64", "uint8", "union1d", "unique", "unique_all", "unique_counts",
    "unique_inverse", "unique_values", "unravel_index", "unstack", "use_backend", "var", "vdot", "vecdot", "vectorize",
    "vstack", "where", "zeros", "zeros_like",
] + sorted(_ufuncs)

from ._dask import hook as _dask_hook  # noqa: E402, F401 (registers gpukit with Dask: now, or once Dask is imported)
