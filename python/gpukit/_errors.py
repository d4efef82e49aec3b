"""The exceptions gpukit raises.

Every one derives from :class:`GpukitError` and, where one fits, from the builtin a Python user
already catches: a bad value is a ``ValueError``, running out of device memory a ``MemoryError``.
The C++ core's messages come through unchanged; the fields it attaches become attributes.

::

    GpukitError
    ├── BackendUnavailableError (RuntimeError)   a backend's libraries or devices are missing
    ├── CudaError (RuntimeError)                 a driver or NVRTC call failed: .name, .code
    │   ├── OutOfMemoryError (MemoryError)       .requested_bytes, .free_bytes, .total_bytes
    │   └── ContextUnusableError                 an earlier sticky error poisoned the context
    ├── CompileError (RuntimeError)              .log, .options, .source
    ├── LaunchError (RuntimeError)               a launch that cannot run as asked
    │   ├── LaunchConfigError (ValueError)       grid, block or shared memory beyond the limits
    │   ├── KernelArgumentError (ValueError)     argument count, sizes or range: .parameter_index
    │   ├── KernelFaultError                     a kernel faulted (simulator): .reason, .kernel, .block, .thread, .line
    │   ├── LaunchTimeoutError (TimeoutError)    a launch ran past the launch time limit: .blocks_done
    │   └── LaunchAbandonedError                 work given up with the device's (a fault elsewhere, Ctrl-C)
    ├── KernelNotFoundError (LookupError)        .name, .available
    ├── HazardError (RuntimeError)               check mode found a hazard: .hazard
    ├── InvalidArgumentError (ValueError)        a bad value given to a call
    │   └── AxisError (numpy.exceptions.AxisError: ValueError and IndexError)  an axis out of range
    ├── ArrayIndexError (IndexError)             an index out of an array's bounds, too many indices
    ├── LinAlgError (numpy.linalg.LinAlgError: ValueError)  singular, not positive definite, not square
    ├── DTypeError (TypeError)                   no ufunc loop for these dtypes, a cast the casting rule forbids
    │   └── UnsupportedDTypeError (also an InvalidArgumentError: TypeError and ValueError)  a dtype arrays
    │                                            do not hold (object, strings, structured, datetime)
    ├── ScalarOverflowError (OverflowError)      a Python int out of the range of the dtype it must take
    ├── UsageError (RuntimeError)                an object used in a state that forbids it
    ├── WaitTimeoutError (TimeoutError)          synchronize(timeout=...) ran out of time: .timeout_seconds
    └── WaitInterruptedError                     a wait for the device was interrupted (not by Ctrl-C, which
                                                 raises KeyboardInterrupt itself)
"""

import builtins

import numpy


class GpukitError(Exception):
    """Base of every error gpukit raises. ``str(error)`` is the core's full message."""

    def __init__(self, message, **fields):
        super().__init__(message)
        for name, value in fields.items():
            setattr(self, name, value)


class BackendUnavailableError(GpukitError, RuntimeError):
    """The backend asked for cannot run here (no driver, no device, not built); says what is missing."""


class CudaError(GpukitError, RuntimeError):
    """A CUDA driver or NVRTC call failed.

    Attributes: ``action`` (what gpukit was doing), ``name`` (``'CUDA_ERROR_INVALID_VALUE'``),
    ``code`` (the numeric code) and ``description`` (the driver's words)."""

    action = ""
    name = ""
    code = 0
    description = ""


class OutOfMemoryError(CudaError, MemoryError):
    """The device cannot hold an allocation. Attributes: ``requested_bytes``, ``free_bytes``, ``total_bytes``."""

    requested_bytes = 0
    free_bytes = 0
    total_bytes = 0


class ContextUnusableError(CudaError):
    """An earlier sticky error (an illegal address, a trap) made the device unusable in this process.

    ``first_failure`` is the message of that error. Only a new process can use the device again."""

    first_failure = ""


class CompileError(GpukitError, RuntimeError):
    """The kernel source did not compile. ``log`` is the compiler's output; ``options``, ``source``,
    ``program_name`` and ``target`` say what was compiled, and ``numbered_source()`` helps read the log."""

    log = ""
    program_name = ""
    target = ""
    options = ()
    source = ""

    def numbered_source(self):
        """The source with line numbers, to read the log against."""
        lines = self.source.split("\n")
        width = len(str(len(lines)))
        return "\n".join(f"{number:>{width}} | {line}" for number, line in enumerate(lines, start=1))


class LaunchError(GpukitError, RuntimeError):
    """A launch that cannot run as asked."""


class LaunchConfigError(LaunchError, ValueError):
    """The grid, block or shared memory exceeds the device's or the kernel's limits; says which and by how much."""


class KernelArgumentError(LaunchError, ValueError):
    """The arguments do not fit the kernel's parameters: their count, a size, or an integer's range.

    ``parameter_index`` is the parameter concerned, or None when the count is wrong."""

    parameter_index = None


class KernelFaultError(LaunchError):
    """A kernel faulted on the simulator (a bad access, an integer division by zero, a failed assert,
    abort(), exit(), __trap(), a stack overflow). The launch ended there; the device stays usable, and the
    work queued after it on its stream was skipped.

    Attributes: ``reason`` (``'memory_access'``, ``'integer_division'``, ``'assertion'``, ``'abort'``,
    ``'exit'``, ``'trap'``, ``'stack_overflow'``, ...), ``kernel``, ``block`` (x, y, z), ``thread`` (x, y, z)
    or None when unknown, ``file`` and ``line`` of the source or None, ``function``, and ``address`` (the
    address a bad access touched) or None."""

    reason = ""
    kernel = ""
    block = (0, 0, 0)
    thread = None
    file = None
    line = None
    function = None
    address = None


class LaunchTimeoutError(LaunchError, TimeoutError):
    """A launch ran past the launch time limit (``gpukit check --time-limit``, GPUKIT_SIM_LAUNCH_TIMEOUT)
    and was given up. Attributes: ``kernel``, ``limit_seconds``, ``blocks_done``, ``blocks_total``."""

    kernel = ""
    limit_seconds = 0.0
    blocks_done = 0
    blocks_total = 0


class LaunchAbandonedError(LaunchError):
    """Work that was running or queued when the device's work was given up (a kernel faulted at the same
    time, a wait was interrupted or timed out): it did not run to its end."""


class KernelNotFoundError(GpukitError, LookupError):
    """The module has no kernel of that name. ``name`` is what was asked for, ``available`` what the module has."""

    name = ""
    available = ()


class HazardError(GpukitError, RuntimeError):
    """A check-mode launch found a hazard (with raise-on-hazard on). ``hazard`` is the first one found;
    all of them stay in :func:`gpukit.take_check_report`."""

    hazard = None


class InvalidArgumentError(GpukitError, ValueError):
    """A bad value given to a gpukit call (sizes that do not match, an unknown name, ...)."""


class AxisError(InvalidArgumentError, numpy.exceptions.AxisError):
    """An axis outside an array's dimensions: NumPy's AxisError (so both a ``ValueError`` and an
    ``IndexError``), with NumPy's message."""

    def __init__(self, message, **fields):
        super().__init__(message, **fields)
        self.args = (message,)

    def __str__(self):
        return self.args[0]


class LinAlgError(GpukitError, numpy.linalg.LinAlgError):
    """A matrix gpukit.linalg cannot take, in NumPy's words: "Singular matrix", "Matrix is not positive
    definite", "Last 2 dimensions of the array must be square". A ``numpy.linalg.LinAlgError`` (so a
    ``ValueError``): code that catches NumPy's catches gpukit's."""


class ArrayIndexError(GpukitError, IndexError):
    """An index outside an array's bounds, more indices than the array has dimensions, or two ellipses:
    an ``IndexError``, as NumPy raises."""


class DTypeError(GpukitError, TypeError):
    """No loop of a ufunc takes the operands' dtypes, or an array or result cannot be cast as the casting
    rule asks (``Cannot cast array data from dtype('float64') to dtype('int32') according to the rule
    'same_kind'``): a ``TypeError``, as NumPy's ``UFuncTypeError``."""


class UnsupportedDTypeError(InvalidArgumentError, DTypeError):
    """A dtype gpukit arrays do not hold (object, strings, structured, datetime, float128). NumPy and
    CuPy raise ``ValueError`` for some such dtypes and ``TypeError`` for others, and code tells them
    apart (Dask catches the ``TypeError`` of a structured ``empty_like`` to take its CuPy path): this is
    both."""


class ZeroDivisionError(GpukitError, builtins.ZeroDivisionError):  # noqa: A001 (Python's, refined)
    """A division by zero NumPy refuses (``numpy.average`` of weights that sum to zero): a
    ``ZeroDivisionError``, as NumPy raises."""


class ScalarOverflowError(GpukitError, OverflowError):
    """A Python int out of the range of the integer dtype it must take (``x_uint8 + 300``): an
    ``OverflowError``, as NumPy 2 raises."""


class UsageError(GpukitError, RuntimeError):
    """An object used in a state that forbids it (a destroyed stream, a backend switched too late)."""


class WaitTimeoutError(GpukitError, TimeoutError):
    """A wait for the device (``synchronize(timeout=...)``) ran out of time. On the simulator the device's
    work was given up so that the device is usable again. ``timeout_seconds`` is the timeout."""

    timeout_seconds = 0.0


class WaitInterruptedError(GpukitError, RuntimeError):
    """A wait for the device was interrupted by the interrupt check of the C++ API. Ctrl-C in Python raises
    ``KeyboardInterrupt`` itself (the device's work given up on the simulator)."""


def describe_value(value):
    """What a user passed, for messages: ``None``, ``an int (5)``, ``a str ('x')``: the words the
    core's messages use (python/src/arguments.cpp)."""
    if value is None:
        return "None"
    name = type(value).__name__
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{'an' if name[0] in 'aeiouAEIOU' else 'a'} {name} ({text})"
