"""What kernels call: Numba-CUDA's names (cuda.grid, cuda.shared.array, cuda.atomic.add, ...).

Each is a marker the translator recognises by identity and turns into CUDA C; called from the host,
outside a kernel, each raises TypeError saying so (as Numba's do).
"""


class Intrinsic:
    """A name that exists only inside a kernel; ``name`` is its Numba spelling."""

    def __init__(self, name):
        self.name = name

    def __call__(self, *args, **kwargs):
        raise TypeError(f"cuda.{self.name}() can only be called inside a kernel (a function decorated "
                        "with @gpukit.jit), where it is translated to CUDA C")

    def __repr__(self):
        return f"<gpukit kernel intrinsic cuda.{self.name}>"


class Dim3Intrinsic(Intrinsic):
    """threadIdx, blockIdx, blockDim, gridDim: their .x, .y, .z are read inside kernels."""

    def __getattr__(self, axis):
        if axis in ("x", "y", "z"):
            raise TypeError(f"cuda.{self.name}.{axis} can only be read inside a kernel")
        raise AttributeError(axis)


class Namespace:
    """cuda.shared, cuda.local, cuda.const, cuda.atomic: groups of intrinsics."""

    def __init__(self, name, members):
        self._name = name
        for member in members:
            setattr(self, member, Intrinsic(f"{name}.{member}"))

    def __repr__(self):
        return f"<gpukit kernel namespace cuda.{self._name}>"


threadIdx = Dim3Intrinsic("threadIdx")
blockIdx = Dim3Intrinsic("blockIdx")
blockDim = Dim3Intrinsic("blockDim")
gridDim = Dim3Intrinsic("gridDim")
grid = Intrinsic("grid")
gridsize = Intrinsic("gridsize")
syncthreads = Intrinsic("syncthreads")
syncthreads_count = Intrinsic("syncthreads_count")
syncthreads_and = Intrinsic("syncthreads_and")
syncthreads_or = Intrinsic("syncthreads_or")
syncwarp = Intrinsic("syncwarp")
threadfence = Intrinsic("threadfence")
threadfence_block = Intrinsic("threadfence_block")
laneid = Intrinsic("laneid")
warpsize = 32
shfl_sync = Intrinsic("shfl_sync")
shfl_up_sync = Intrinsic("shfl_up_sync")
shfl_down_sync = Intrinsic("shfl_down_sync")
shfl_xor_sync = Intrinsic("shfl_xor_sync")
all_sync = Intrinsic("all_sync")
any_sync = Intrinsic("any_sync")
eq_sync = Intrinsic("eq_sync")
ballot_sync = Intrinsic("ballot_sync")
activemask = Intrinsic("activemask")
lanemask_lt = Intrinsic("lanemask_lt")
popc = Intrinsic("popc")
clz = Intrinsic("clz")
ffs = Intrinsic("ffs")
brev = Intrinsic("brev")
fma = Intrinsic("fma")
selp = Intrinsic("selp")
shared = Namespace("shared", ("array",))
local = Namespace("local", ("array",))
const = Namespace("const", ("array_like",))
atomic = Namespace("atomic", ("add", "sub", "max", "min", "exch", "cas", "and_", "or_", "xor"))
