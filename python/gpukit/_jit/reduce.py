"""@gpukit.reduce: a binary Python function as a reduction of a device array (Numba's
``@cuda.reduce``), run by the array layer's reduction engine through a ReductionKernel.

The function must be associative: the engine combines elements in a tree, not left to right.
``init`` is combined once, with the reduction of the elements, as Numba does.
"""

import numpy

from .. import _core
from .._errors import describe_value
from .._interop import asarray
from .dispatcher import numba_stream
from .translate import KernelSource, c_name_part
from .types import C_NAMES, Scalar, dtype_of


def reduction_kernel(function, dtype, prefix):
    """A ReductionKernel of ``dtype`` whose combine step is the translated binary ``function``, with
    no identity: the engine starts from the first element (an empty input is the caller's case)."""
    t = Scalar(numpy.dtype(dtype))
    source = KernelSource(function, (t, t), device=True)
    if source.return_type is None:
        raise TypeError(f"{function.__name__} returns no value; a reduction's function returns one")
    name = prefix + c_name_part(function.__name__)
    return _core.ReductionKernel(f"{t.dtype.name} x", f"{t.dtype.name} y", "x",
                                 f"({C_NAMES[t.dtype]}){source.name}(a, b)", "y = a", None, name,
                                 preamble=source.code)


def reduce(function):
    """Makes a reduction of a binary function: ``sum_reduce = gpukit.reduce(lambda a, b: a + b)`` or as a
    decorator; ``sum_reduce(array, size=None, res=None, init=0, stream=0)`` as Numba's."""
    if not callable(function) or not hasattr(function, "__code__"):
        raise TypeError(f"reduce takes a Python function of two values, not {describe_value(function)}")
    if function.__code__.co_argcount != 2:
        raise TypeError(f"a reduction's function takes two values; {function.__qualname__} takes "
                        f"{function.__code__.co_argcount}")
    return Reducer(function)


class Reducer:
    """A reduction made from a binary function; call it on a device (or NumPy) array."""

    def __init__(self, function):
        self.py_func = function
        self._kernels = {}
        self.__name__ = function.__name__
        self.__doc__ = function.__doc__

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        array = asarray(arr) if not isinstance(arr, _core.ndarray) else arr
        if array.ndim != 1:
            array = array.ravel()
        if size is not None:
            if not isinstance(size, (int, numpy.integer)) or isinstance(size, bool) or not 0 <= size <= array.size:
                raise ValueError(f"size must be an int from 0 to the array's {array.size} elements, not {size!r}")
            array = array[:int(size)]
        dtype = numpy.dtype(array.dtype)
        if dtype_of(dtype) is None:
            raise TypeError(f"{self.__name__}: arrays of {dtype.name} cannot be reduced by a Python function yet")
        start = dtype.type(init)
        if array.size == 0:
            total = start
        else:
            reduced = self._kernel_for(dtype)(array, stream=numba_stream(stream)).get()[()]
            total = dtype.type(self.py_func(start, reduced))  # init once, on the host, as Numba's
        if res is None:
            return total
        res[0:1] = numpy.array([total], dtype)
        return None

    def _kernel_for(self, dtype):
        kernel = self._kernels.get(dtype)
        if kernel is None:
            kernel = self._kernels[dtype] = reduction_kernel(self.py_func, dtype, "reduced_")
        return kernel

    def __repr__(self):
        return f"<gpukit.reduce {self.__name__}>"
