"""``gpukit.pycuda.elementwise.ElementwiseKernel``: PyCUDA's, whose operation indexes pointer
arguments with ``i`` (``"z[i] = a*x[i] + y[i]"``) over ``n``, the first array argument's size."""

import re

from .._errors import describe_value
from .._jit.types import C_NAMES
from .._kernel import RawModule
from ._arguments import parse_arguments


class ElementwiseKernel:
    """PyCUDA's ElementwiseKernel: ``lin_comb = ElementwiseKernel("float a, float *x, float *z",
    "z[i] = a*x[i]")``, then ``lin_comb(5, x_gpu, z_gpu)`` (``range=`` or ``slice=`` for part of it)."""

    def __init__(self, arguments, operation, name="kernel", keep=False, options=None, preamble="", loop_prep="",
                 after_loop=""):
        for value, what in ((operation, "operation"), (name, "name"), (preamble, "preamble"),
                            (loop_prep, "loop_prep"), (after_loop, "after_loop")):
            if not isinstance(value, str):
                raise TypeError(f"{what} must be a str, not {describe_value(value)}")
        if not re.fullmatch(r"[A-Za-z_]\w*", name) or name.startswith("gk_"):
            raise ValueError(f"name must be a C identifier not starting with gk_, not {name!r}")
        self.arguments = parse_arguments(arguments)
        # The parameters as parsed, spelled anew: only types, names and * reach the source.
        parameters = ", ".join(f"{C_NAMES[dtype]} {'*' if pointer else ''}{argument}"
                               for argument, dtype, pointer in self.arguments)
        if not any(pointer for _, _, pointer in self.arguments):
            raise ValueError("an ElementwiseKernel needs an array (pointer) argument: its size is the loop's")
        self.name = name
        source = (f"{preamble}\nextern \"C\" __global__ void {name}({parameters}, long long gk_start, "
                  f"long long n, long long gk_step) {{\n{loop_prep};\n"
                  "for (long long i = gk_start + ((long long)blockIdx.x * blockDim.x + threadIdx.x) * gk_step; "
                  "i < n; i += (long long)blockDim.x * gridDim.x * gk_step) {\n"
                  f"{operation};\n}}\n{after_loop};\n}}\n")
        self._kernel = RawModule(source, list(options or ())).get_function(name)

    def __call__(self, *args, range=None, slice=None, stream=None):  # noqa: A002 (PyCUDA's names)
        if len(args) != len(self.arguments):
            raise TypeError(f"{self.name} takes {len(self.arguments)} arguments, not {len(args)}")
        first = next(arg for arg, (_, _, pointer) in zip(args, self.arguments) if pointer)
        start, stop, step = 0, first.size, 1
        if range is not None or slice is not None:
            chosen = range if range is not None else slice
            start, stop, step = chosen.indices(first.size) if hasattr(chosen, "indices") else chosen
            if step <= 0:
                raise ValueError("range/slice steps must be positive")
        count = max(0, (stop - start + step - 1) // step)
        blocks = max(1, min((count + 255) // 256, 65535))
        self._kernel(blocks, 256, (*args, start, stop, step), stream=stream)
