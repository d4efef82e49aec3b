"""RawModule and RawKernel: CUDA C source compiled at run time, its kernels launched from Python.

The same source compiles with NVRTC for a GPU or with the host compiler for the simulator.
Every launch is checked before it runs: the grid, block and shared memory against the device's
limits, the arguments against the kernel's parameters (count, sizes, integer ranges, and what
each parameter can take), with a message that names the parameter.
"""

import numpy

from . import _core
from ._backend import all_devices, backends, get_device
from ._errors import describe_value


def _str_sequence(value, name):
    """``value`` as a tuple of str: one str, or an iterable of them; TypeError naming ``name`` otherwise."""
    if isinstance(value, str):
        return (value,)
    try:
        items = tuple(value)
    except TypeError:
        raise TypeError(f"{name} must be a str or a sequence of str, not {describe_value(value)}") from None
    for index, item in enumerate(items):
        if not isinstance(item, str):
            raise TypeError(f"{name} must be a str or a sequence of str; {name}[{index}] is {describe_value(item)}")
    return items


def _device_for(device, backend):
    if device is not None and not isinstance(device, _core.Device):
        raise TypeError(f"device must be a gpukit.Device (e.g. gpukit.Device(0)) or None, not {describe_value(device)}")
    if backend is not None and not isinstance(backend, str):
        raise TypeError(f"backend must be a backend's name (a str) or None, not {describe_value(backend)}")
    if device is not None and backend not in (None, "nvrtc"):
        raise ValueError("give either device= or backend=, not both")
    if device is not None:
        return device
    if backend in (None, "nvrtc"):  # 'nvrtc' is CuPy's default: compile at run time for the current device
        return get_device()
    names = [info.name for info in backends()]
    if backend == "nvcc":
        raise ValueError("gpukit compiles with NVRTC (GPU) or the host compiler (simulator), not nvcc; "
                         f"leave backend= out, or name the backend to run on: {' or '.join(map(repr, names))}")
    if backend not in names:
        raise ValueError(f"backend must be {', '.join(map(repr, names))} (or CuPy's 'nvrtc'), not {backend!r}")
    if get_device().backend == backend:
        return get_device()
    for candidate in all_devices():
        if candidate.backend == backend:
            return candidate
    raise ValueError(f"no {backend} device here: {_core.backend_unavailable_reason(backend)}")


def _check_tools(check):
    """``check=`` as the core's tool list: None or False for none, True for all, a str or a list of names."""
    if check is None or check is False:
        return "none"
    if check is True:
        return "all"
    if not isinstance(check, str):
        check = ",".join(_str_sequence(check, "check"))
    return _core.normalize_check_tools(check)


def _compile_options(options, name_expressions, check, program_name):
    """The core's CompileOptions for NVRTC-style command-line ``options`` (CuPy's and PyCUDA's)."""
    options = _str_sequence(options, "options")
    if not isinstance(program_name, str):
        raise TypeError(f"program_name must be a str (the file name messages give the source), not "
                        f"{describe_value(program_name)}")
    compile_options = _core.CompileOptions()
    defines, include_dirs, extra = [], [], []
    for option in options:
        if option.startswith("--define-macro="):
            option = "-D" + option[len("--define-macro="):]
        if option.startswith("--include-path="):
            option = "-I" + option[len("--include-path="):]
        if option.startswith("-D"):
            name, _, value = option[2:].partition("=")
            defines.append((name, value))
        elif option.startswith("-I"):
            include_dirs.append(option[2:])
        elif option.startswith(("-std=", "--std=")):
            compile_options.std = option.split("=", 1)[1]
        elif option in ("--use_fast_math", "-use_fast_math"):
            compile_options.fast_math = True
        elif option in ("-lineinfo", "--generate-line-info"):
            compile_options.line_info = True
        elif option.startswith(("-arch=", "--gpu-architecture=")):
            compile_options.target = option.split("=", 1)[1].replace("compute_", "sm_")
        else:
            extra.append(option)
    compile_options.defines = defines
    compile_options.include_dirs = include_dirs
    compile_options.extra_options = extra
    compile_options.name_expressions = list(name_expressions)
    compile_options.check = _check_tools(check)
    compile_options.program_name = program_name
    return compile_options


class RawModule:
    """CUDA C source compiled for one device, as ``cupy.RawModule``.

    ``options``: NVRTC-style flags (``-DNAME=VALUE``, ``-I``, ``-std=``, ``--use_fast_math``; others
    pass through). ``name_expressions``: template kernels to instantiate (``'axpy<float>'``).
    ``check``: simulator check-mode tools for this module, ``'memcheck,racecheck'``, a list of them,
    ``'all'`` or True (``GPUKIT_CHECK`` adds to them). ``device`` or ``backend`` (``'cuda'`` or
    ``'sim'``): where it runs, by default the current device.

    Raises :class:`gpukit.CompileError`, whose ``log`` has the compiler's messages."""

    def __init__(self, code, options=(), name_expressions=(), *, check=None, device=None, backend=None,
                 program_name="kernel.cu"):
        if not isinstance(code, str):
            raise TypeError(f"code must be a str of CUDA C source, not {describe_value(code)}")
        self.code = code
        self.options = _str_sequence(options, "options")
        self.name_expressions = _str_sequence(name_expressions, "name_expressions")
        compile_options = _compile_options(self.options, self.name_expressions, check, program_name)
        self._module = _core.Module.compile(code, compile_options, _device_for(device, backend))
        self._kernels = {}

    @property
    def device(self):
        """The device the module was compiled for and loaded on."""
        return self._module.device

    @property
    def compile_log(self):
        """The compiler's warnings ('' when it had nothing to say)."""
        return self._module.compile_log

    @property
    def kernel_names(self):
        """The names of the module's kernels."""
        return self._module.kernel_names()

    def get_function(self, name):
        """The kernel ``name`` (its extern "C" name, name expression or mangled name) as a :class:`RawKernel`.

        Raises :class:`gpukit.KernelNotFoundError` listing the kernels the module has."""
        if not isinstance(name, str):
            raise TypeError(f"name must be a str (a kernel's name), not {describe_value(name)}")
        kernel = self._kernels.get(name)
        if kernel is None:
            kernel = self._kernels[name] = RawKernel._of(self, self._module.kernel(name))
        return kernel

    def get_global(self, name, dtype=numpy.uint8, shape=None):
        """A gpukit array viewing the ``__constant__`` or ``__device__`` variable ``name``.

        By default its bytes (uint8); with ``dtype`` (and ``shape``) the variable as those elements.
        Writing the array (``g[...] = values``, ``g.set(host)``) changes what kernels read."""
        return _core.module_global(self._module, name, dtype, shape)

    def __repr__(self):
        return f"<gpukit.RawModule with {', '.join(self.kernel_names)} on {self.device!r}>"


class RawKernel:
    """A kernel, as ``cupy.RawKernel``: ``RawKernel(code, name, options=())`` compiles ``code`` and
    takes the kernel ``name`` from it; :meth:`RawModule.get_function` gives one too.

    Launch with ``kernel(grid, block, args, shared_mem=0, stream=None)``."""

    def __init__(self, code, name, options=(), *, name_expressions=(), check=None, device=None, backend=None,
                 program_name="kernel.cu"):
        if not isinstance(name, str):
            raise TypeError(f"name must be a str (the kernel's name), not {describe_value(name)}")
        module = RawModule(code, options, name_expressions or ((name,) if "<" in name else ()), check=check,
                           device=device, backend=backend, program_name=program_name)
        self._init(module, module._module.kernel(name))

    @classmethod
    def _of(cls, module, kernel):
        raw = cls.__new__(cls)
        raw._init(module, kernel)
        return raw

    def _init(self, module, kernel):
        self.module = module
        self._kernel = kernel

    @property
    def name(self):
        """The kernel's name as it was asked for."""
        return self._kernel.name

    @property
    def code(self):
        """The source the kernel was compiled from."""
        return self.module.code

    @property
    def device(self):
        """The device the kernel runs on."""
        return self._kernel.device

    @property
    def params(self):
        """The parameters: offset, size, declared type and name of each."""
        return list(self._kernel.params)

    @property
    def attributes(self):
        """Registers, static shared memory, local memory and other attributes of the compiled kernel."""
        return self._kernel.attributes

    @property
    def max_dynamic_shared_size_bytes(self):
        """The dynamic shared memory a launch may ask for; raise it to use more than 48 KiB."""
        return self._kernel.attributes.max_dynamic_shared_bytes

    @max_dynamic_shared_size_bytes.setter
    def max_dynamic_shared_size_bytes(self, size_bytes):
        self._kernel.set_max_dynamic_shared_bytes(size_bytes)

    def suggest_block_size(self, shared_mem=0, block_size_limit=0):
        """(min grid size, block size) for the best occupancy, as ``cudaOccupancyMaxPotentialBlockSize``."""
        return self._kernel.suggest_block_size(shared_mem, block_size_limit)

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None, check=None):
        """Launches on ``stream`` (default: the current stream) and returns at once.

        ``grid``, ``block``: an int (a NumPy integer too) or a tuple of 1 to 3 of them. ``args``: a
        tuple with one value per parameter: gpukit arrays (and, on a GPU, objects with
        ``__cuda_array_interface__``) for pointers; Python ints, range-checked and sent at the
        parameter's size; Python floats, sent as float32 or float64 by the parameter's size; NumPy
        scalars, sent as they are; ``bytes`` or NumPy structured scalars for structs.
        ``shared_mem``: bytes of dynamic shared memory. ``check``: on the simulator, run this
        launch under check mode's tools (``'memcheck'``, ``'racecheck,initcheck'``, ``'all'``), on
        top of those the module was compiled with; the report is read with
        :func:`gpukit.take_check_report`. On a GPU it raises ValueError.

        Pointer parameters take gpukit arrays (C-contiguous, of the element type the parameter
        points to, or its signed/unsigned twin; ``void*``, ``char*`` and ``unsigned char*`` take any
        array, as do pointers to typedefs, template parameters and structs, whose element type
        gpukit cannot tell), or :class:`gpukit.DevicePointer` for a raw address, unchecked
        (``gpukit.nullptr`` for a null pointer). Plain ints and None are refused there."""
        if check is not None and check.__class__ is not str:
            check = None if check is False else "all" if check is True else _check_tools(check)
        self._kernel.launch(grid, block, args, shared_mem, stream, check)

    def __repr__(self):
        return f"<gpukit.RawKernel {self.name} on {self.device!r}>"
