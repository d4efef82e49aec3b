"""tensordot, outer, kron, einsum and dot with matrix operands against NumPy
(src/ops/linalg/tensor_products.cpp, einsum.cpp): shapes, axes, dtypes, ellipses, diagonals,
implicit outputs, NumPy's sublist form, and NumPy's errors."""

import numpy
import pytest

import gpukit
from conftest import random_array


def close(result, expected):
    assert result.shape == expected.shape and result.dtype == expected.dtype
    numpy.testing.assert_allclose(result.get(), expected, rtol=1e-5, atol=1e-6)


TENSORDOT_CASES = [(0, (3, 4), (2, 5)), (1, (3, 4, 5), (5, 2)), (2, (3, 4, 5), (4, 5, 2)),
                   (([1, 0], [0, 2]), (3, 4, 5), (4, 2, 3)), (([2], [1]), (3, 4, 5), (2, 5, 3)),
                   (([], []), (3, 4), (2,))]


@pytest.mark.parametrize("axes, a_shape, b_shape", TENSORDOT_CASES, ids=[str(case[0]) for case in TENSORDOT_CASES])
def test_tensordot_as_numpy(rng, axes, a_shape, b_shape):
    a, b = random_array(rng, a_shape, "float64"), random_array(rng, b_shape, "float64")
    close(gpukit.tensordot(gpukit.asarray(a), gpukit.asarray(b), axes=axes), numpy.tensordot(a, b, axes=axes))


def test_tensordot_refuses_mismatched_axes(rng):
    a, b = gpukit.asarray(random_array(rng, (3, 4), "float32")), gpukit.asarray(random_array(rng, (5, 4), "float32"))
    with pytest.raises(ValueError, match="shape-mismatch for sum"):
        gpukit.tensordot(a, b, axes=([0], [0]))


@pytest.mark.parametrize("dtype", ["int16", "float32", "complex128", "bool"])
def test_dot_outer_and_kron_as_numpy(rng, dtype):
    a, b = random_array(rng, (2, 3, 4), dtype), random_array(rng, (5, 4, 3), dtype)
    for result, expected in ((gpukit.dot(gpukit.asarray(a), gpukit.asarray(b)), numpy.dot(a, b)),
                             (gpukit.outer(gpukit.asarray(a), gpukit.asarray(b)), numpy.outer(a, b)),
                             (gpukit.kron(gpukit.asarray(a[0]), gpukit.asarray(b)), numpy.kron(a[0], b))):
        close(result, expected)


EINSUM_CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]),
    ("ii", [(4, 4)]), ("ii->i", [(4, 4)]), ("ij->ji", [(3, 4)]), ("ij->", [(3, 4)]), ("i,i", [(7,), (7,)]),
    ("i,j->ij", [(3,), (4,)]), ("...ii->...i", [(2, 3, 4, 4)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("...ij,...jk", [(2, 1, 3, 4), (5, 4, 2)]), ("ijkl->lk", [(2, 3, 4, 5)]), ("ij,ij->i", [(3, 4), (3, 4)]),
    ("iij->ij", [(3, 3, 2)]), ("Ab,bc->Ac", [(3, 4), (4, 5)]), ("ab,cd->abcd", [(2, 3), (4, 1)]),
    ("abc,cb->a", [(2, 3, 4), (4, 3)]),
]


@pytest.mark.parametrize("subscripts, shapes", EINSUM_CASES, ids=[case[0] for case in EINSUM_CASES])
def test_einsum_as_numpy(rng, subscripts, shapes):
    operands = [random_array(rng, shape, "float64") for shape in shapes]
    close(gpukit.einsum(subscripts, *map(gpukit.asarray, operands)), numpy.einsum(subscripts, *operands))


def test_einsum_sublists_dtypes_and_out(rng):
    a, b = random_array(rng, (3, 4), "int32"), random_array(rng, (4, 5), "float32")
    close(gpukit.einsum(gpukit.asarray(a), [0, 1], gpukit.asarray(b), [1, 2], [0, 2]),
          numpy.einsum(a, [0, 1], b, [1, 2], [0, 2]))
    out = gpukit.empty((3, 5), "float64")
    gpukit.einsum("ij,jk->ik", gpukit.asarray(a), gpukit.asarray(b), out=out, optimize=True)
    numpy.testing.assert_allclose(out.get(), a @ b, rtol=1e-5)


@pytest.mark.parametrize("subscripts, shapes, message", [
    ("ij,jk->ik", [(3, 4)], "operands"),
    ("ijk", [(3, 4)], "too many subscripts for operand 0"),
    ("i", [(3, 4)], "does not name every axis"),
    ("ij->z", [(3, 4)], "output subscript 'z' which never appeared"),
    ("i1", [(3, 4)], "invalid subscript '1'"),
    ("ii", [(3, 4)], "don't match"),
])
def test_einsum_errors_are_numpys(rng, subscripts, shapes, message):
    operands = [gpukit.asarray(random_array(rng, shape, "float32")) for shape in shapes]
    with pytest.raises(ValueError, match=message):
        gpukit.einsum(subscripts, *operands)
