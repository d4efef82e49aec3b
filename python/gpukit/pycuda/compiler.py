"""``gpukit.pycuda.compiler.SourceModule``: CUDA C compiled as PyCUDA compiles it (inside
``extern "C"`` unless ``no_extern_c``), its functions called with ``block=`` and ``grid=``."""

from .._errors import describe_value
from .._kernel import RawModule
from .driver import prepare_arguments


class SourceModule:
    """PyCUDA's SourceModule over :class:`gpukit.RawModule` (same compile options, same checks)."""

    def __init__(self, source, nvcc="nvcc", options=None, keep=False, no_extern_c=False, arch=None, code=None,
                 cache_dir=None, include_dirs=()):
        if not isinstance(source, str):
            raise TypeError(f"SourceModule takes CUDA C source (a str), not {describe_value(source)}")
        flags = list(options or ()) + [f"-I{directory}" for directory in include_dirs]
        code = source if no_extern_c else 'extern "C" {\n' + source + "\n}\n"
        self._module = RawModule(code, flags)

    def get_function(self, name):
        """The kernel ``name``, callable as PyCUDA's: ``f(*args, block=(x, y, z), grid=(x, y))``."""
        return Function(self._module.get_function(name))

    def get_global(self, name):
        """(address, bytes) of the ``__device__`` or ``__constant__`` variable ``name``, as PyCUDA's."""
        array = self._module.get_global(name)
        return array.data_ptr, array.nbytes


class Function:
    """A kernel called as PyCUDA calls one."""

    def __init__(self, kernel):
        self._kernel = kernel

    def __call__(self, *args, block=None, grid=(1, 1), shared=0, stream=None, time_kernel=False):
        if block is None:
            raise TypeError("a PyCUDA-style launch needs block=(x, y, z) (threads per block) and grid=(x, y)")
        launch_args, copy_back = prepare_arguments(args)
        self._kernel(tuple(grid), tuple(block), tuple(launch_args), shared_mem=shared, stream=stream)
        for host, device in copy_back:
            device.get(out=host) if host.flags.c_contiguous else host.__setitem__(Ellipsis, device.get())

    @property
    def num_regs(self):
        return self._kernel.attributes.num_registers
