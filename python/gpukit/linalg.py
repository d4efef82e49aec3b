"""Linear algebra on gpukit arrays, as ``numpy.linalg``.

The solvers run on the device's solver library (cuSOLVER on CUDA, LAPACK on the simulator) over
stacks of matrices in the last two axes. Where NumPy returns several arrays, so does gpukit, in
named tuples of NumPy's names (``EigResult``, ``EighResult``, ``SVDResult``, ``QRResult``, ``SlogdetResult``,
``LstsqResult`` is a plain tuple as NumPy's). Errors: :class:`LinAlgError`, a
``numpy.linalg.LinAlgError``.
"""

from typing import NamedTuple

from . import _core
from ._core import linalg as _native
from ._errors import LinAlgError

LinAlgError.__module__ = __name__

norm = _native.norm
solve = _native.solve
inv = _native.inv
det = _native.det
lstsq = _native.lstsq
matrix_rank = _native.matrix_rank
matrix_power = _native.matrix_power
eigvals = _native.eigvals
cond = _native.cond
multi_dot = _native.multi_dot
tensorinv = _native.tensorinv
tensorsolve = _native.tensorsolve
vector_norm = _native.vector_norm
matrix_norm = _native.matrix_norm
cross = _native.cross
# The Array API's linalg names of functions gpukit has at the top level too (numpy.linalg's).
matmul = _core.matmul
matrix_transpose = _core.matrix_transpose
tensordot = _core.tensordot
vecdot = _core.vecdot


def diagonal(x, /, *, offset=0):
    """The diagonals at ``offset`` of the matrices in the last two axes: a view, as numpy.linalg.diagonal."""
    return _core.diagonal(x, offset, -2, -1)


def trace(x, /, *, offset=0, dtype=None):
    """The sums of the diagonals at ``offset`` of the matrices in the last two axes, as numpy.linalg.trace."""
    return _core.trace(x, offset, -2, -1, dtype)


def outer(x1, x2, /):
    """Every element of the vector x1 times every element of the vector x2, as numpy.linalg.outer (1-D only)."""
    for name, x in (("x1", x1), ("x2", x2)):
        if getattr(x, "ndim", None) != 1:
            raise ValueError(f"linalg.outer: {name} must be 1-dimensional, not of shape {getattr(x, 'shape', ())}")
    return _core.outer(x1, x2)


class EigResult(NamedTuple):
    eigenvalues: object
    eigenvectors: object


class EighResult(NamedTuple):
    eigenvalues: object
    eigenvectors: object


class SVDResult(NamedTuple):
    U: object
    S: object
    Vh: object


class QRResult(NamedTuple):
    Q: object
    R: object


class SlogdetResult(NamedTuple):
    sign: object
    logabsdet: object


_unset = object()  # rtol= not given (NumPy's _NoValue)


def slogdet(a):
    """The sign and log of the absolute value of the determinants, as numpy.linalg.slogdet."""
    return SlogdetResult(*_native.slogdet(a))


def cholesky(a, /, *, upper=False):
    """The Cholesky factors (lower, or upper with upper=True), as numpy.linalg.cholesky."""
    return _native.cholesky(a, upper=upper)


def qr(a, mode="reduced"):
    """QR decompositions, as numpy.linalg.qr: QRResult(Q, R); R alone for mode 'r'; (h, tau) for 'raw'."""
    q, r = _native.qr(a, mode)
    if mode == "r":
        return r
    if mode == "raw":
        return q, r
    return QRResult(q, r)


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """Singular value decompositions, as numpy.linalg.svd: SVDResult(U, S, Vh), or S without compute_uv."""
    result = _native.svd(a, full_matrices, compute_uv, hermitian)
    return SVDResult(*result) if compute_uv else result[0]


def svdvals(x, /):
    """The singular values, descending, as numpy.linalg.svdvals."""
    return _native.svd(x, False, False, False)[0]


def eig(a):
    """Eigenvalues and right eigenvectors of general square matrices, as numpy.linalg.eig: EigResult."""
    return EigResult(*_native.eig(a))


def eigh(a, UPLO="L"):  # noqa: N803 (NumPy's name)
    """Eigenvalues and eigenvectors of Hermitian matrices, as numpy.linalg.eigh."""
    return EighResult(*_native.eigh(a, UPLO))


def eigvalsh(a, UPLO="L"):  # noqa: N803 (NumPy's name)
    """Eigenvalues of Hermitian matrices, ascending, as numpy.linalg.eigvalsh."""
    return _native.eigh(a, UPLO, vectors=False)[0]


def pinv(a, rcond=None, hermitian=False, *, rtol=_unset):
    """The pseudo-inverses, as numpy.linalg.pinv (rcond and rtol as NumPy 2 takes them)."""
    if rcond is not None and rtol is not _unset:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    if rcond is None and rtol is not _unset:
        if rtol is None:  # the array API's default, as NumPy computes it (integers refused as NumPy's finfo does)
            import numpy

            rtol = max(a.shape[-2:]) * numpy.finfo(a.dtype).eps
        rcond = rtol
    return _native.pinv(a, rcond, hermitian)


__all__ = [
    "EigResult", "EighResult", "LinAlgError", "QRResult", "SVDResult", "SlogdetResult", "cholesky", "cond", "cross",
    "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv", "lstsq", "matmul", "matrix_norm", "matrix_power",
    "matrix_rank", "matrix_transpose", "multi_dot", "norm", "outer", "pinv", "qr", "slogdet", "solve", "svd",
    "svdvals", "tensordot", "tensorinv", "tensorsolve", "trace", "vecdot", "vector_norm",
]
