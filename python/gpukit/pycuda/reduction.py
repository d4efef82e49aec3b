"""``gpukit.pycuda.reduction.ReductionKernel``: PyCUDA's, whose map_expr indexes pointer arguments
with ``i`` (``"x[i]*y[i]"``), run by gpukit's reduction engine (a tree over the elements)."""

import re

import numpy

from .. import _core
from .._errors import describe_value
from ._arguments import c_type_of, parse_arguments


class ReductionKernel:
    """PyCUDA's ReductionKernel: ``dot = ReductionKernel(numpy.float32, neutral="0", reduce_expr="a+b",
    map_expr="x[i]*y[i]", arguments="float *x, float *y")``, then ``dot(x_gpu, y_gpu).get()``."""

    def __init__(self, dtype_out, neutral, reduce_expr, map_expr=None, arguments=None, name="reduce_kernel",
                 keep=False, options=None, preamble="", allocator=None):
        for value, what in ((neutral, "neutral"), (reduce_expr, "reduce_expr"), (name, "name"),
                            (preamble, "preamble")):
            if not isinstance(value, str):
                raise TypeError(f"{what} must be a str, not {describe_value(value)}")
        arguments = arguments if arguments is not None else f"{c_type_of(dtype_out)} *in"
        map_expr = map_expr if map_expr is not None else "in[i]"
        parsed = parse_arguments(arguments)
        for argument, _, pointer in parsed:
            if pointer:
                map_expr = re.sub(rf"\b{argument}\s*\[\s*i\s*\]", argument, map_expr)
                if re.search(rf"\b{argument}\s*\[", map_expr):
                    raise NotImplementedError(f"map_expr reads {argument} other than at [i]: gpukit's reduction "
                                              "engine gives each element by name; write the reduction with "
                                              "gpukit.ReductionKernel and a raw parameter")
        in_params = ", ".join(f"{dtype.name} {argument}" for argument, dtype, _ in parsed)
        out_type = numpy.dtype(dtype_out).name
        self._kernel = _core.ReductionKernel(in_params, f"{out_type} out", map_expr, reduce_expr, "out = a", neutral,
                                             name, reduce_type=out_type, preamble=preamble,
                                             options=list(options or ()))

    def __call__(self, *args, stream=None, out=None):
        return self._kernel(*args, out=out, stream=stream)
