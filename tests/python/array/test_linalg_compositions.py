"""gpukit.linalg's eig, eigvals (the solver library's geev) and cond, multi_dot, tensorinv, tensorsolve
(compositions of gpukit's other functions) against numpy.linalg: every dtype NumPy takes (integers and
bool in float64), sizes 0, 1 and odd, stacks, the dispatch of NumPy's functions to gpukit's, and NumPy's
errors."""

import numpy
import pytest

import gpukit
from close_to_numpy import assert_close, host
from conftest import random_array

L = gpukit.linalg
FLOATS = ["float32", "float64", "complex64", "complex128"]
EVERY = FLOATS + ["int8", "int64", "uint16", "bool"]
TOLERANCE = {"float32": 1e-4, "complex64": 1e-4}
INF = float("inf")


def tolerance(dtype):
    return TOLERANCE.get(str(numpy.dtype(dtype)), 1e-10)


def check(got, expected, dtype, scale=1.0):
    assert_close(got, expected, tolerance(dtype) * scale)


def square(rng, shape, dtype):
    """Random matrices plus n on the diagonal (well conditioned); bool: unit upper triangles, rows permuted."""
    a = random_array(rng, shape, dtype)
    if a.dtype == bool:
        triangles = numpy.triu(a, 1) | numpy.eye(shape[-1], dtype=bool)
        return triangles[..., rng.permutation(shape[-1]), :]
    return a + (shape[-1] + 1) * numpy.eye(shape[-1], dtype=a.dtype) if shape[-1] else a


# ---- eig and eigvals


def eig_dtype(a, w):
    """NumPy 2.4's result dtype: real for a real input whose eigenvalues are all real (NumPy 2.5 made it
    always complex; gpukit keeps the value-dependent rule), else complex, single precision kept."""
    single = a.dtype in (numpy.float32, numpy.complex64)
    if a.dtype.kind != "c" and numpy.all(numpy.imag(w) == 0):
        return numpy.dtype(numpy.float32 if single else numpy.float64)
    return numpy.dtype(numpy.complex64 if single else numpy.complex128)


def sorted_eigenvalues(w):
    w = numpy.asarray(w)
    return numpy.sort_complex(w.astype(numpy.complex128)) if w.size else w


@pytest.mark.parametrize("dtype", EVERY)
@pytest.mark.parametrize("shape", [(1, 1), (5, 5), (3, 4, 4), (0, 0), (2, 0, 0), (0, 3, 3), (2, 3, 7, 7)])
def test_eig_and_eigvals_as_numpy(shape, dtype, rng):
    a = random_array(rng, shape, dtype)  # general: complex conjugate pairs are likely
    if a.dtype == bool:  # random bits make defective matrices: a permutation has distinct roots of unity
        a = numpy.broadcast_to(numpy.eye(shape[-1], dtype=bool)[numpy.roll(numpy.arange(shape[-1]), 1)], shape)
    d = gpukit.asarray(a)
    w_expected, v_expected = numpy.linalg.eig(a)
    result = L.eig(d)
    assert isinstance(result, L.EigResult)
    w, v = result
    assert host(w).dtype == eig_dtype(a, w_expected) and host(v).dtype == eig_dtype(a, w_expected)
    assert host(w).shape == w_expected.shape and host(v).shape == v_expected.shape
    # Eigenvalues: NumPy's, as a set per matrix (the order of LAPACK builds may differ).
    got_w, got_v = host(w).astype(numpy.complex128), host(v).astype(numpy.complex128)
    for index in numpy.ndindex(shape[:-2]):
        numpy.testing.assert_allclose(sorted_eigenvalues(got_w[index]), sorted_eigenvalues(w_expected[index]),
                                      rtol=tolerance(dtype) * 10, atol=tolerance(dtype) * 10)
    # Eigenvectors: a v = w v, each of unit norm with its largest component real (geev's).
    reconstructed = a.astype(numpy.complex128) @ got_v
    numpy.testing.assert_allclose(reconstructed, got_v * got_w[..., None, :], atol=tolerance(dtype) * 100 * shape[-1])
    if shape[-1]:
        numpy.testing.assert_allclose(numpy.linalg.norm(got_v, axis=-2), 1, rtol=tolerance(dtype) * 10)
    eigenvalues = L.eigvals(d)
    assert host(eigenvalues).dtype == eig_dtype(a, w_expected)
    numpy.testing.assert_allclose(host(eigenvalues), got_w, rtol=tolerance(dtype) * 10, atol=tolerance(dtype) * 10)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_eig_of_real_input_with_real_eigenvalues_is_real(dtype, rng):
    # A symmetric matrix has only real eigenvalues: NumPy returns the real dtype.
    a = random_array(rng, (2, 6, 6), dtype)
    a = a + numpy.swapaxes(a, -1, -2)
    w, v = L.eig(gpukit.asarray(a))
    assert host(w).dtype == numpy.dtype(dtype) and host(v).dtype == numpy.dtype(dtype)
    expected_w, expected_v = numpy.linalg.eig(a)
    numpy.testing.assert_allclose(numpy.sort(host(w), -1), numpy.sort(expected_w.real, -1), atol=tolerance(dtype) * 10)
    # Rotation by 90 degrees: eigenvalues +-i, so complex, in LAPACK's order (positive part first).
    rotation = numpy.array([[0, -1], [1, 0]], dtype=dtype)
    w, v = L.eig(gpukit.asarray(rotation))
    expected_w, expected_v = numpy.linalg.eig(rotation)
    check(w, expected_w, dtype)
    check(v, expected_v, dtype)


def test_eig_is_numpy_dispatch_and_errors(rng):
    a = random_array(rng, (4, 4), "float64")
    w, v = numpy.linalg.eig(gpukit.asarray(a))
    assert isinstance(w, gpukit.ndarray) and isinstance(v, gpukit.ndarray)
    assert isinstance(numpy.linalg.eigvals(gpukit.asarray(a)), gpukit.ndarray)
    for bad, message in [(numpy.ones((2, 3)), "Last 2 dimensions of the array must be square"),
                         (numpy.ones(3), "1-dimensional array given"),
                         (numpy.array([[1.0, numpy.nan], [0, 1]]), "Array must not contain infs or NaNs"),
                         (numpy.array([[1.0, numpy.inf], [0, 1]]), "Array must not contain infs or NaNs")]:
        for function in (L.eig, L.eigvals):
            with pytest.raises(numpy.linalg.LinAlgError, match=message):
                function(gpukit.asarray(bad))
            with pytest.raises(numpy.linalg.LinAlgError, match=message):
                getattr(numpy.linalg, function.__name__)(gpukit.asarray(bad))
    with pytest.raises(TypeError, match="float16"):
        L.eig(gpukit.asarray(numpy.eye(2, dtype=numpy.float16)))


# ---- cond

ORDERS = [None, 2, -2, "fro", "nuc", INF, -INF, 1, -1]
# NumPy's nuclear norm of a singular matrix's failed (nan) inverse raises "SVD did not converge";
# gpukit's gives inf, as every other order does.
SINGULAR_ORDERS = [p for p in ORDERS if p != "nuc"]


@pytest.mark.parametrize("p", ORDERS)
@pytest.mark.parametrize("dtype", EVERY)
@pytest.mark.parametrize("shape", [(1, 1), (5, 5), (3, 4, 4), (0, 3, 3)])
def test_cond_as_numpy(shape, dtype, p, rng):
    a = square(rng, shape, dtype)
    expected = numpy.linalg.cond(a, p)
    check(gpukit.linalg.cond(gpukit.asarray(a), p), expected, dtype, scale=100)
    check(numpy.linalg.cond(gpukit.asarray(a), p), expected, dtype, scale=100)  # dispatched to gpukit


@pytest.mark.parametrize("p", [None, 2, -2])
@pytest.mark.parametrize("shape", [(3, 5), (7, 2), (2, 4, 3)])
def test_cond_of_rectangular_matrices_by_singular_values(shape, p, rng):
    a = random_array(rng, shape, "float64")
    check(L.cond(gpukit.asarray(a), p), numpy.linalg.cond(a, p), "float64", scale=100)


@pytest.mark.parametrize("p", SINGULAR_ORDERS)
def test_cond_of_singular_and_nan_matrices(p):
    # Exactly singular (a zero pivot): inf where NumPy's inverse fails, as NumPy turns its nan into inf.
    stack = numpy.array([[[1.0, 2.0], [2.0, 4.0]], [[2.0, 1.0], [1.0, 3.0]]])
    if p not in (None, 2, -2):  # an SVD of nans may not converge, in NumPy and in gpukit
        stack = numpy.concatenate([stack, [[[1.0, numpy.nan], [0.0, 1.0]]]])
    with numpy.errstate(all="ignore"):
        expected = numpy.linalg.cond(stack, p)
    got = host(L.cond(gpukit.asarray(stack), p))
    assert got.dtype == expected.dtype and got.shape == expected.shape
    numpy.testing.assert_allclose(got[1], expected[1], rtol=1e-10)
    if p == -2:
        assert got[0] < 1e-15
    elif numpy.isinf(expected[0]):
        assert numpy.isinf(got[0])
    else:
        assert got[0] > 1e15
    if len(stack) == 3:
        assert numpy.isnan(got[2]) and numpy.isnan(expected[2])


def test_cond_errors():
    with pytest.raises(numpy.linalg.LinAlgError, match="cond is not defined on empty arrays"):
        L.cond(gpukit.zeros((0, 0)))
    with pytest.raises(numpy.linalg.LinAlgError, match="cond is not defined on empty arrays"):
        L.cond(gpukit.zeros((2, 3, 0)), 1)
    with pytest.raises(numpy.linalg.LinAlgError, match="square"):
        L.cond(gpukit.ones((2, 3)), 1)
    with pytest.raises(numpy.linalg.LinAlgError, match="1-dimensional array given"):
        L.cond(gpukit.ones(3))
    with pytest.raises(ValueError, match="Invalid norm order"):
        L.cond(gpukit.eye(3), 3)


# ---- multi_dot


def chain(rng, shapes, dtype):
    return [random_array(rng, shape, dtype) for shape in shapes]


@pytest.mark.parametrize("dtype", EVERY)
@pytest.mark.parametrize("shapes", [
    [(3, 4), (4, 5)],
    [(10, 1), (1, 20), (20, 3)],      # (AB)C and A(BC) cost differently
    [(2, 30), (30, 1), (1, 7)],
    [(5, 3), (3, 9), (9, 2), (2, 7), (7, 1)],
    [(4,), (4, 6), (6, 3), (3,)],     # 1-D first and last: a 0-d result
    [(4,), (4, 6), (6, 3), (3, 2)],
    [(4, 6), (6, 3), (3, 1), (1,)],
    [(1, 1), (1, 1), (1, 1)],
    [(3, 0), (0, 2), (2, 5)],
])
def test_multi_dot_as_numpy(shapes, dtype, rng):
    arrays = chain(rng, shapes, dtype)
    expected = numpy.linalg.multi_dot(arrays)
    got = L.multi_dot([gpukit.asarray(a) for a in arrays])
    check(got, expected, dtype, scale=100)
    check(numpy.linalg.multi_dot([gpukit.asarray(a) for a in arrays]), expected, dtype, scale=100)


def test_multi_dot_order_is_numpys():
    # NumPy's chain order decides the rounding: float32 values where the order matters.
    rng = numpy.random.default_rng(7)
    arrays = [rng.standard_normal(shape).astype(numpy.float32) for shape in [(9, 40), (40, 2), (2, 33), (33, 5)]]
    expected = numpy.linalg.multi_dot(arrays)
    scale = numpy.abs(expected).max()
    numpy.testing.assert_allclose(host(L.multi_dot([gpukit.asarray(a) for a in arrays])), expected, atol=1e-5 * scale)
    out = gpukit.empty(expected.shape, dtype=numpy.float32)
    L.multi_dot([gpukit.asarray(a) for a in arrays], out=out)
    numpy.testing.assert_allclose(host(out), expected, atol=1e-5 * scale)


def test_multi_dot_errors():
    with pytest.raises(ValueError, match="Expecting at least two arrays"):
        L.multi_dot([gpukit.ones((2, 2))])
    with pytest.raises(numpy.linalg.LinAlgError, match="3-dimensional array given"):
        L.multi_dot([gpukit.ones((2, 2)), gpukit.ones((2, 2, 2)), gpukit.ones((2, 2))])


# ---- tensorinv and tensorsolve


@pytest.mark.parametrize("dtype", EVERY)
@pytest.mark.parametrize("shape, ind", [((4, 6, 8, 3), 2), ((24, 8, 3), 1), ((3, 5, 15), 2), ((1, 1), 1),
                                        ((2, 3, 6), 2)])
def test_tensorinv_as_numpy(shape, ind, dtype, rng):
    rows = int(numpy.prod(shape[ind:]))
    a = square(rng, (rows, rows), dtype).reshape(shape)
    expected = numpy.linalg.tensorinv(a, ind)
    check(L.tensorinv(gpukit.asarray(a), ind), expected, dtype, scale=100)
    check(numpy.linalg.tensorinv(gpukit.asarray(a), ind=ind), expected, dtype, scale=100)


def test_tensorinv_errors():
    with pytest.raises(ValueError, match="Invalid ind argument"):
        L.tensorinv(gpukit.eye(4).reshape(2, 2, 2, 2), 0)
    with pytest.raises(numpy.linalg.LinAlgError, match="square"):
        L.tensorinv(gpukit.ones((2, 3, 4)), 1)


@pytest.mark.parametrize("dtype", EVERY)
@pytest.mark.parametrize("a_shape, b_shape, axes", [
    ((2, 3, 6), (2, 3), None),
    ((6, 4, 2, 3, 4), (6, 4), None),
    ((6, 2, 3), (2, 3), (0,)),
    ((5, 5), (5,), None),
    ((1, 1), (1,), None),
    ((2, 3, 2, 3), (2, 3), (1, 0)),
])
def test_tensorsolve_as_numpy(a_shape, b_shape, axes, dtype, rng):
    n = int(numpy.prod(b_shape))
    a = square(rng, (n, n), dtype).reshape(a_shape)
    b = random_array(rng, b_shape, dtype)
    expected = numpy.linalg.tensorsolve(a, b, axes)
    check(L.tensorsolve(gpukit.asarray(a), gpukit.asarray(b), axes), expected, dtype, scale=100)
    check(numpy.linalg.tensorsolve(gpukit.asarray(a), gpukit.asarray(b), axes=axes), expected, dtype, scale=100)


def test_tensorsolve_errors():
    with pytest.raises(numpy.linalg.LinAlgError, match="Input arrays must satisfy the requirement"):
        L.tensorsolve(gpukit.ones((2, 3, 4)), gpukit.ones((2, 3)))
    with pytest.raises(numpy.linalg.LinAlgError, match="Singular matrix"):
        L.tensorsolve(gpukit.ones((2, 3, 6)), gpukit.ones((2, 3)))
