"""Which code computes matrix products (src/ops/linalg/matmul.cpp): the backend's BLAS (cuBLAS on
CUDA; the simulator has none, so gpukit's kernels serve) or gpukit's own kernels, chosen by
set_matmul_library (products of up to 64^3 multiply-adds run gpukit's kernels in either: the
library's host time would be most of theirs); float32 precision by set_matmul_precision. Both
libraries against numpy.matmul for every float and complex dtype and every layout cuBLAS takes as is
or gpukit copies first; the error where cuBLAS is missing."""

import os
import subprocess
import sys

import numpy
import pytest

import gpukit
from conftest import random_array

FLOAT_DTYPES = ["float16", "bfloat16", "float32", "float64", "complex64", "complex128"]


@pytest.fixture(params=["vendor", "own"])
def library(request):
    gpukit.set_matmul_library(request.param)
    yield request.param
    gpukit.set_matmul_library("vendor")


def tolerance(dtype, k):
    base = {"float16": 2e-3, "bfloat16": 2e-2, "float32": 2e-6, "complex64": 2e-6}.get(str(dtype), 1e-13)
    return base * max(k, 16) ** 0.5


def host_matmul(a, b):
    """NumPy's product, bfloat16 through float32 (NumPy has no bfloat16)."""
    return numpy.matmul(a.astype(numpy.float32), b.astype(numpy.float32)) if a.dtype.name == "bfloat16" else a @ b


def compare(result, expected, k):
    got = result.get()
    scale = max(float(numpy.abs(expected).max()), 1.0) if expected.size else 1.0
    numpy.testing.assert_allclose(got.astype(expected.dtype), expected, rtol=tolerance(result.dtype, k),
                                  atol=tolerance(result.dtype, k) * scale)


LAYOUTS = {
    "row-major": (lambda x: x, lambda y: y),
    "column-major": (lambda x: x.T.copy().T, lambda y: y.T.copy().T),
    "transposed": (lambda x: x.T.T, lambda y: y.T.copy().T),
    "row slices": (lambda x: x[::2], lambda y: y[:, ::1]),
    "column slices": (lambda x: x[:, ::2], lambda y: y[::2]),
    "reversed": (lambda x: x[::-1, ::-1], lambda y: y[::-1]),
    "padded rows": (lambda x: x[:, :-3], lambda y: y[:-6, 1:]),
}


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_float_dtype_and_layout_as_numpy(rng, library, dtype, layout):
    a, b = random_array(rng, (137, 124), "float64"), random_array(rng, (124, 145), "float64")
    take_a, take_b = LAYOUTS[layout]
    x, y = take_a(a), take_b(b)
    if y.shape[0] != x.shape[1]:
        y = y[: x.shape[1]] if y.shape[0] > x.shape[1] else numpy.concatenate([y, y])[: x.shape[1]]
    host_dtype = "float32" if dtype == "bfloat16" else dtype
    x_host, y_host = x.astype(host_dtype), y.astype(host_dtype)
    gx, gy = take_a(gpukit.asarray(a).astype(dtype)), take_b(gpukit.asarray(b).astype(dtype))
    if gy.shape[0] != gx.shape[1]:
        gy = gy[: gx.shape[1]] if gy.shape[0] > gx.shape[1] else gpukit.concatenate([gy, gy])[: gx.shape[1]]
    result = gx @ gy
    assert result.dtype == gpukit.asarray(a).astype(dtype).dtype
    compare(result, host_matmul(x_host, y_host).astype(host_dtype), x.shape[1])


@pytest.mark.parametrize("shapes", [((3, 1, 40, 50), (2, 50, 60)), ((2, 3, 1, 700), (700, 1)),
                                    ((1, 700), (40, 700, 20)), ((600,), (2, 600, 300)), ((2, 300, 600), (600,)),
                                    ((5, 1, 1), (5, 1, 9)), ((3, 1, 4, 5), (2, 5, 6)), ((1, 1), (1, 1)),
                                    ((0, 4), (4, 3)), ((3, 0), (0, 2))], ids=str)
def test_batches_broadcasts_and_vectors(rng, library, shapes):
    a, b = random_array(rng, shapes[0], "float32"), random_array(rng, shapes[1], "float32")
    result = gpukit.matmul(gpukit.asarray(a), gpukit.asarray(b))
    expected = numpy.matmul(a, b)
    assert result.shape == expected.shape
    compare(result, expected, shapes[0][-1])


def test_batches_that_do_not_merge_into_one_stride(rng, library):
    """Batch axes walked with strides no single batch stride describes: one library call per outer index."""
    a = random_array(rng, (4, 6, 90, 100), "float64")[:, ::2]
    b = random_array(rng, (3, 100, 70), "float64")[None, :, :, ::-1]
    expected = numpy.matmul(a, b)
    compare(gpukit.asarray(a.copy())[:, :] @ gpukit.asarray(b.copy()), expected, 100)
    ga = gpukit.asarray(random_array(rng, (4, 6, 90, 100), "float64"))
    gb = gpukit.asarray(random_array(rng, (3, 100, 70), "float64"))
    compare(ga[:, ::2] @ gb[None, :, :, ::-1], numpy.matmul(ga.get()[:, ::2], gb.get()[None, :, :, ::-1]), 100)


def test_products_through_tensordot_einsum_and_dot(rng, library):
    a, b = random_array(rng, (50, 60, 70), "complex128"), random_array(rng, (70, 60, 30), "complex128")
    compare(gpukit.tensordot(gpukit.asarray(a), gpukit.asarray(b), axes=([1, 2], [1, 0])),
            numpy.tensordot(a, b, axes=([1, 2], [1, 0])), 4200)
    compare(gpukit.einsum("bij,jkl->bikl", gpukit.asarray(a), gpukit.asarray(b)), numpy.einsum("bij,jkl->bikl", a, b),
            70)
    c = random_array(rng, (4, 70, 30), "complex128")
    compare(gpukit.dot(gpukit.asarray(a), gpukit.asarray(c)), numpy.dot(a, c), 70)


def test_integer_products_run_gpukits_kernels_in_either_library(rng, library):
    a, b = rng.integers(-50, 50, (9, 8)), rng.integers(-50, 50, (8, 5))
    numpy.testing.assert_array_equal((gpukit.asarray(a) @ gpukit.asarray(b)).get(), a @ b)


def test_precision_and_library_choices():
    assert gpukit.get_matmul_precision() == "highest"
    assert gpukit.get_matmul_library() == "vendor"
    for name, expected in (("tf32", "high"), ("high", "high"), ("highest", "highest")):
        gpukit.set_matmul_precision(name)
        assert gpukit.get_matmul_precision() == expected
    with pytest.raises(ValueError, match="'medium' is not a precision gpukit offers"):
        gpukit.set_matmul_precision("medium")
    with pytest.raises(ValueError, match="'cublas' is not 'vendor'"):
        gpukit.set_matmul_library("cublas")
    assert gpukit.get_matmul_precision() == "highest" and gpukit.get_matmul_library() == "vendor"


def test_tf32_only_when_asked(rng):
    """float32 products are float32 throughout unless the user opts in; with 'high' they may round the
    inputs to TF32 (10-bit mantissas) on a GPU's tensor cores."""
    a, b = random_array(rng, (64, 512), "float32"), random_array(rng, (512, 48), "float32")
    expected = a.astype(numpy.float64) @ b.astype(numpy.float64)
    exact = (gpukit.asarray(a) @ gpukit.asarray(b)).get()
    numpy.testing.assert_allclose(exact, expected, rtol=1e-4, atol=1e-4)
    gpukit.set_matmul_precision("tf32")
    try:
        fast = (gpukit.asarray(a) @ gpukit.asarray(b)).get()
    finally:
        gpukit.set_matmul_precision("highest")
    numpy.testing.assert_allclose(fast, expected, rtol=2e-2, atol=2e-2)


@pytest.mark.needs_gpu
def test_missing_cublas_is_an_error_naming_it_and_own_kernels_still_serve(tmp_path):
    """GPUKIT_CUBLAS names the library's file; where it is not there, a float product says what is missing
    and how to install it (never a silent fallback); integer products and set_matmul_library('own') work."""
    missing = tmp_path / "libcublas.so.13"
    script = """
import numpy, gpukit
a = gpukit.asarray(numpy.ones((128, 128), numpy.float32))  # past the small products gpukit's kernel takes
try:
    a @ a
except gpukit.BackendUnavailableError as error:
    print("ERROR", error)
i = gpukit.asarray(numpy.ones((3, 3), numpy.int32))
print("INT", int((i @ i).get()[0, 0]))
gpukit.set_matmul_library("own")
print("OWN", float((a @ a).get()[0, 0]))
"""
    environment = dict(os.environ, GPUKIT_CUBLAS=str(missing))
    result = subprocess.run([sys.executable, "-c", script], env=environment, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    assert "ERROR cuBLAS (libcublas.so)" in result.stdout and str(missing) in result.stdout
    assert "pip install nvidia-cublas-cu13" in result.stdout
    assert "INT 3" in result.stdout and "OWN 128.0" in result.stdout
