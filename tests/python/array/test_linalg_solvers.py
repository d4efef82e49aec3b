"""gpukit.linalg's dense solvers (src/ops/linalg/, the backend's solver library) against numpy.linalg:
every float and complex dtype and promoted integers, sizes 0, 1 and odd, stacks with broadcasting,
non-contiguous and transposed operands, decompositions checked by reconstruction, and NumPy's
errors in NumPy's words."""

import os
import subprocess
import sys

import numpy
import pytest

import gpukit
from conftest import random_array

DTYPES = ["float32", "float64", "complex64", "complex128"]
TOLERANCE = {"float32": 2e-4, "complex64": 2e-4, "float64": 1e-10, "complex128": 1e-10, "int32": 1e-10}
L = gpukit.linalg


def well_conditioned(rng, shape, dtype):
    """Random matrices plus n on the diagonal (integers: small values plus n * I)."""
    a = random_array(rng, shape, dtype)
    n = shape[-1]
    if len(shape) >= 2 and shape[-1] == shape[-2]:
        a = a + (n + 1) * numpy.eye(n, dtype=a.dtype)
    return a


def positive_definite(rng, shape, dtype):
    """A A^H + n I: Hermitian positive definite."""
    a = random_array(rng, shape, dtype)
    n = shape[-1]
    return (a @ numpy.conj(numpy.swapaxes(a, -1, -2)) + n * numpy.eye(n)).astype(dtype)


def close(got, expected, dtype, scale=1.0):
    tolerance = TOLERANCE.get(str(numpy.dtype(dtype)), 1e-10) * scale
    numpy.testing.assert_allclose(gpukit.asnumpy(got) if isinstance(got, gpukit.ndarray) else got, expected,
                                  rtol=tolerance, atol=tolerance)


def same_type(got, expected):
    assert got.shape == expected.shape and got.dtype == expected.dtype, (got.shape, got.dtype, expected.shape,
                                                                         expected.dtype)


@pytest.mark.parametrize("dtype", DTYPES + ["int32"])
@pytest.mark.parametrize("shape", [(1, 1), (5, 5), (3, 4, 4), (0, 0), (2, 0, 0), (0, 3, 3)])
def test_inv_det_slogdet(shape, dtype, rng):
    a = well_conditioned(rng, shape, dtype)
    d = gpukit.asarray(a)
    for name in ("inv", "det"):
        expected = getattr(numpy.linalg, name)(a)
        got = getattr(L, name)(d)
        same_type(got, numpy.asarray(expected))
        close(got, expected, dtype, scale=10)
    sign, logdet = L.slogdet(d)
    expected = numpy.linalg.slogdet(a)
    assert isinstance(L.slogdet(d), L.SlogdetResult)
    same_type(sign, numpy.asarray(expected.sign))
    same_type(logdet, numpy.asarray(expected.logabsdet))
    close(sign, expected.sign, dtype, scale=10)
    close(logdet, expected.logabsdet, dtype, scale=10)


@pytest.mark.parametrize("dtype", DTYPES + ["int64"])
def test_solve_vectors_matrices_and_broadcasting(dtype, rng):
    a = well_conditioned(rng, (3, 1, 5, 5), dtype)
    for b_shape in [(5,), (5, 2), (2, 5, 3), (3, 2, 5, 1), (0,)]:
        if b_shape == (0,):
            a0 = well_conditioned(rng, (0, 0), dtype)
            b = random_array(rng, b_shape, dtype)
            expected, got = numpy.linalg.solve(a0, b), L.solve(gpukit.asarray(a0), gpukit.asarray(b))
        else:
            b = random_array(rng, b_shape, dtype)
            expected, got = numpy.linalg.solve(a, b), L.solve(gpukit.asarray(a), gpukit.asarray(b))
        same_type(got, expected)
        close(got, expected, dtype, scale=10)


@pytest.mark.parametrize("dtype", ["float64", "complex64"])
def test_non_contiguous_and_transposed_operands(dtype, rng):
    big = well_conditioned(rng, (2, 8, 8), dtype)
    a = big[:, ::2, ::2] + 4 * numpy.eye(4, dtype=dtype)
    device = gpukit.asarray(big)[:, ::2, ::2] + gpukit.asarray(4 * numpy.eye(4, dtype=dtype))
    close(L.inv(device), numpy.linalg.inv(a), dtype, scale=10)
    t = numpy.swapaxes(big, -1, -2)
    close(L.inv(gpukit.asarray(big).swapaxes(-1, -2)), numpy.linalg.inv(t), dtype, scale=10)
    b = random_array(rng, (4, 6), dtype)
    close(L.solve(device, gpukit.asarray(b)[:, ::2]), numpy.linalg.solve(a, b[:, ::2]), dtype, scale=10)
    spd = positive_definite(rng, (5, 5), dtype).T
    close(L.cholesky(gpukit.asarray(spd)), numpy.linalg.cholesky(spd), dtype, scale=10)


@pytest.mark.parametrize("dtype", DTYPES + ["int16"])
@pytest.mark.parametrize("shape", [(1, 1), (6, 6), (2, 3, 3), (0, 0)])
def test_cholesky_lower_and_upper(shape, dtype, rng):
    a = positive_definite(rng, shape, dtype if dtype != "int16" else "float64")
    if dtype == "int16":
        a = numpy.rint(a * 10).astype(dtype) + numpy.eye(shape[-1], dtype=dtype) * 100
    for upper in (False, True):
        expected = numpy.linalg.cholesky(a, upper=upper)
        got = L.cholesky(gpukit.asarray(a), upper=upper)
        same_type(got, expected)
        close(got, expected, dtype, scale=10)


@pytest.mark.parametrize("dtype", DTYPES + ["int32"])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 3), (1, 1), (0, 3), (3, 0)])
def test_qr_modes(shape, dtype, rng):
    a = random_array(rng, shape, dtype)
    d = gpukit.asarray(a)
    for mode in ("reduced", "complete"):
        expected = numpy.linalg.qr(a, mode=mode)
        got = L.qr(d, mode=mode)
        assert isinstance(got, L.QRResult)
        same_type(got.Q, expected.Q)
        same_type(got.R, expected.R)
        q, r = gpukit.asnumpy(got.Q), gpukit.asnumpy(got.R)
        close(q @ r, a.astype(expected.Q.dtype), dtype, scale=10)
        close(numpy.conj(numpy.swapaxes(q, -1, -2)) @ q, numpy.eye(q.shape[-1]) * numpy.ones(q.shape[:-2] + (1, 1)),
              dtype, scale=10)
        assert numpy.allclose(numpy.tril(r, -1), 0)
    r_only = L.qr(d, mode="r")
    same_type(r_only, numpy.linalg.qr(a, mode="r"))
    close(numpy.abs(gpukit.asnumpy(r_only)), numpy.abs(numpy.linalg.qr(a, mode="r")), dtype, scale=10)
    h, tau = L.qr(d, mode="raw")
    eh, etau = numpy.linalg.qr(a, mode="raw")
    same_type(h, eh)
    same_type(tau, etau)


@pytest.mark.parametrize("dtype", DTYPES + ["int32"])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 3), (2, 3, 6), (1, 1), (0, 3), (3, 0)])
def test_svd_reconstructs(shape, dtype, rng):
    a = random_array(rng, shape, dtype)
    d = gpukit.asarray(a)
    for full in (True, False):
        expected = numpy.linalg.svd(a, full_matrices=full)
        got = L.svd(d, full_matrices=full)
        assert isinstance(got, L.SVDResult)
        for g, e in zip(got, expected):
            same_type(g, e)
        close(got.S, expected.S, dtype, scale=10)
        u, s, vh = (gpukit.asnumpy(x) for x in got)
        k = s.shape[-1]
        close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, dtype, scale=10)
    values = L.svd(d, compute_uv=False)
    same_type(values, numpy.linalg.svd(a, compute_uv=False))
    close(L.svdvals(d), numpy.linalg.svdvals(a), dtype, scale=10)


@pytest.mark.parametrize("dtype", DTYPES)
def test_hermitian_svd_and_eigh(dtype, rng):
    a = positive_definite(rng, (2, 5, 5), dtype) - 6 * numpy.eye(5, dtype=dtype)  # indefinite, Hermitian
    d = gpukit.asarray(a)
    for uplo in ("L", "U"):
        expected = numpy.linalg.eigh(a, UPLO=uplo)
        got = L.eigh(d, UPLO=uplo)
        assert isinstance(got, L.EighResult)
        same_type(got.eigenvalues, expected.eigenvalues)
        same_type(got.eigenvectors, expected.eigenvectors)
        close(got.eigenvalues, expected.eigenvalues, dtype, scale=10)
        w, v = gpukit.asnumpy(got.eigenvalues), gpukit.asnumpy(got.eigenvectors)
        close(a @ v, v * w[..., None, :], dtype, scale=50)  # eigenvectors up to phase: A v = w v
        close(L.eigvalsh(d, UPLO=uplo), numpy.linalg.eigvalsh(a, UPLO=uplo), dtype, scale=10)
    got = L.svd(d, hermitian=True)
    expected = numpy.linalg.svd(a, hermitian=True)
    close(got.S, expected.S, dtype, scale=10)
    u, s, vh = (gpukit.asnumpy(x) for x in got)
    close((u * s[..., None, :]) @ vh, a, dtype, scale=50)
    close(L.svd(d, compute_uv=False, hermitian=True), numpy.linalg.svd(a, compute_uv=False, hermitian=True), dtype,
          scale=10)


@pytest.mark.parametrize("shape", [(0, 0), (1, 1), (3, 0, 0)])
def test_eigh_edge_sizes(shape, rng):
    a = positive_definite(rng, shape, "float64")
    got, expected = L.eigh(gpukit.asarray(a)), numpy.linalg.eigh(a)
    same_type(got.eigenvalues, expected.eigenvalues)
    same_type(got.eigenvectors, expected.eigenvectors)


@pytest.mark.parametrize("dtype", DTYPES + ["int32"])
@pytest.mark.parametrize("shapes", [((6, 3), (6,)), ((6, 3), (6, 2)), ((3, 6), (3,)), ((4, 4), (4, 2))])
def test_lstsq(shapes, dtype, rng):
    a = random_array(rng, shapes[0], dtype)
    b = random_array(rng, shapes[1], dtype)
    expected = numpy.linalg.lstsq(a, b)
    got = L.lstsq(gpukit.asarray(a), gpukit.asarray(b))
    for index in (0, 1, 3):
        same_type(got[index], expected[index])
        close(got[index], expected[index], dtype, scale=100)
    assert int(got[2]) == int(expected[2])


@pytest.mark.parametrize("dtype", DTYPES + ["int32"])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4), (0, 3)])
def test_pinv_and_matrix_rank(shape, dtype, rng):
    a = random_array(rng, shape, dtype)
    d = gpukit.asarray(a)
    got, expected = L.pinv(d), numpy.linalg.pinv(a)
    same_type(got, expected)
    close(got, expected, dtype, scale=100)
    if dtype != "int32":  # NumPy's finfo refuses integers there
        close(L.pinv(d, rtol=None), numpy.linalg.pinv(a, rtol=None), dtype, scale=100)
    low_rank = a[..., :1] * numpy.ones(a.shape[-1], dtype=a.dtype) if a.size else a
    for m in (a, low_rank):
        got, expected = L.matrix_rank(gpukit.asarray(m)), numpy.linalg.matrix_rank(m)
        assert numpy.array_equal(gpukit.asnumpy(got), expected)
    assert int(L.matrix_rank(gpukit.asarray(numpy.zeros(3)))) == 0


@pytest.mark.parametrize("dtype", DTYPES + ["int32", "bool"])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 6, -1, -3])
def test_matrix_power(n, dtype, rng):
    a = well_conditioned(rng, (2, 3, 3), dtype) if dtype != "bool" else random_array(rng, (2, 3, 3), dtype)
    if n < 0 and dtype == "bool":
        return
    if dtype == "int32":
        a = a % 4  # small: powers stay exact
    expected = numpy.linalg.matrix_power(a, n)
    got = L.matrix_power(gpukit.asarray(a), n)
    same_type(got, expected)
    close(got, expected, dtype if dtype != "bool" else "float64", scale=100)
    with pytest.raises(TypeError, match="exponent must be an integer"):
        L.matrix_power(gpukit.asarray(a), 1.5)


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex128"])
def test_singular_value_norms(dtype, rng):
    m = random_array(rng, (2, 6, 7), dtype)
    d = gpukit.asarray(m)
    for ord in (2, -2, "nuc"):
        close(L.norm(d[0], ord), numpy.linalg.norm(m[0], ord), dtype, scale=10)
        for axis in ((1, 2), (2, 0)):
            for keepdims in (False, True):
                expected = numpy.linalg.norm(m, ord, axis=axis, keepdims=keepdims)
                got = L.norm(d, ord, axis=axis, keepdims=keepdims)
                same_type(got, expected)
                close(got, expected, dtype, scale=10)


def test_on_a_stream_of_its_own(rng):
    """The solvers run on the current stream (their workspaces and info words ordered there)."""
    a = well_conditioned(rng, (4, 6, 6), "float64")
    b = random_array(rng, (4, 6, 2), "float64")
    stream = gpukit.Stream()
    with stream:
        d = gpukit.asarray(a)
        x = L.solve(d, gpukit.asarray(b))
        w = L.eigvalsh(d + d.swapaxes(-1, -2))
        s = L.svdvals(d)
    stream.synchronize()
    close(x, numpy.linalg.solve(a, b), "float64", scale=10)
    close(w, numpy.linalg.eigvalsh(a + numpy.swapaxes(a, -1, -2)), "float64", scale=10)
    close(s, numpy.linalg.svdvals(a), "float64", scale=10)


# ---- bad input: NumPy's exception types and words


def test_singular_matrices_raise_linalg_error():
    singular = numpy.array([[1.0, 2.0], [2.0, 4.0]])
    stack = numpy.stack([numpy.eye(2), singular])
    for call in (lambda: L.inv(gpukit.asarray(singular)), lambda: L.inv(gpukit.asarray(stack)),
                 lambda: L.solve(gpukit.asarray(singular), gpukit.asarray(numpy.ones(2)))):
        with pytest.raises(L.LinAlgError, match="^Singular matrix$") as error:
            call()
        assert isinstance(error.value, numpy.linalg.LinAlgError) and isinstance(error.value, ValueError)
    assert float(L.det(gpukit.asarray(singular))) == 0.0
    sign, logdet = L.slogdet(gpukit.asarray(singular))
    assert float(sign) == 0.0 and float(logdet) == -numpy.inf


def test_cholesky_of_non_positive_definite():
    with pytest.raises(L.LinAlgError, match="^Matrix is not positive definite$"):
        L.cholesky(gpukit.asarray(numpy.array([[1.0, 2.0], [2.0, 1.0]])))


@pytest.mark.parametrize("name", ["inv", "det", "slogdet", "cholesky", "eigh", "eigvalsh", "solve", "matrix_power"])
def test_shape_errors(name):
    call = getattr(L, name)
    args = {"solve": (gpukit.ones(2),), "matrix_power": (2,)}.get(name, ())
    with pytest.raises(L.LinAlgError, match="^Last 2 dimensions of the array must be square$"):
        call(gpukit.ones((2, 3)), *args)
    with pytest.raises(L.LinAlgError, match="^1-dimensional array given. Array must be at least two-dimensional$"):
        call(gpukit.ones(3), *args)


def test_more_shape_errors():
    for name in ("svd", "qr", "pinv", "svdvals"):
        with pytest.raises(L.LinAlgError, match="Array must be at least two-dimensional"):
            getattr(L, name)(gpukit.ones(3))
    with pytest.raises(L.LinAlgError, match="Array must be two-dimensional"):
        L.lstsq(gpukit.ones(3), gpukit.ones(3))
    with pytest.raises(ValueError):
        L.solve(gpukit.ones((3, 3)), gpukit.ones(4))
    with pytest.raises(ValueError, match="UPLO"):
        L.eigh(gpukit.ones((2, 2)), UPLO="X")
    with pytest.raises(ValueError, match="Unrecognized mode"):
        L.qr(gpukit.ones((2, 2)), mode="economic")


@pytest.mark.parametrize("name", ["inv", "det", "cholesky", "eigh", "svd", "qr"])
def test_float16_is_refused_as_numpy_refuses_it(name):
    with pytest.raises(TypeError, match="^array type float16 is unsupported in linalg$"):
        getattr(L, name)(gpukit.ones((2, 2), dtype="float16"))


def test_missing_library_names_it_and_how_to_install_it(tmp_path):
    """The solver library of the backend in use, pointed at a file that is not there (a subprocess: the
    library is loaded once per process)."""
    variable = "GPUKIT_CUSOLVER" if gpukit.get_device().backend_info.name == "cuda" else "GPUKIT_LAPACK"
    missing = tmp_path / "no-such-library.so"
    script = ("import gpukit\ntry:\n    gpukit.linalg.inv(gpukit.ones((2, 2)))\n"
              "except gpukit.BackendUnavailableError as e:\n    print(e)\nelse:\n    print('loaded')\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                         env={**os.environ, variable: str(missing)}, check=True).stdout
    assert str(missing) in out
    if variable == "GPUKIT_CUSOLVER":
        assert "cuSOLVER" in out and "pip install nvidia-cusolver-cu13" in out
    else:
        assert "LAPACK" in out and "apt-get install liblapack3" in out
