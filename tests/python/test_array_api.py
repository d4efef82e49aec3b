"""gpukit as the Array API standard's namespace (python/gpukit/_array_api.py and the functions the standard
names): the namespace and its inspection, the functions NumPy spells otherwise, device= and to_device, the
standard's keywords (descending, min/max, dtype of fftfreq), each against NumPy on random data, and the
errors. scripts/array-api-conformance runs the standard's own suite."""

import numpy
import pytest

import gpukit
from conftest import ALL_DTYPES, random_array

NUMPY_DTYPES = [d for d in ALL_DTYPES if d != "bfloat16"]


def test_arrays_name_gpukit_as_their_namespace():
    x = gpukit.asarray([1.0, 2.0])
    assert x.__array_namespace__() is gpukit
    assert x.__array_namespace__(api_version="2024.12") is gpukit
    assert gpukit.__array_api_version__ == "2024.12"
    with pytest.raises(ValueError, match="api_version"):
        x.__array_namespace__(api_version="2019.01")
    with pytest.raises(TypeError):
        x.__array_namespace__(api_version=2024)


def test_the_inspection_namespace_describes_gpukit():
    info = gpukit.__array_namespace_info__()
    assert info.capabilities() == {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}
    assert info.default_device() == gpukit.get_device()
    assert info.devices() == list(gpukit.devices())
    assert info.default_dtypes()["real floating"] == numpy.float64
    assert info.default_dtypes(device=gpukit.get_device())["indexing"] == numpy.int64
    every = info.dtypes()
    assert set(every) == {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                          "float32", "float64", "complex64", "complex128"}
    assert set(info.dtypes(kind="unsigned integer")) == {"uint8", "uint16", "uint32", "uint64"}
    assert set(info.dtypes(kind=("bool", "complex floating"))) == {"bool", "complex64", "complex128"}
    with pytest.raises(ValueError, match="kind"):
        info.dtypes(kind="strings")
    with pytest.raises(ValueError, match="not a device"):
        info.dtypes(device="cpu")


def test_dtypes_and_constants_are_numpy_s():
    assert gpukit.float32 is numpy.float32 and gpukit.bool is numpy.bool_ and gpukit.uint64 is numpy.uint64
    assert gpukit.zeros(2, dtype=gpukit.complex64).dtype == numpy.complex64
    assert gpukit.pi == numpy.pi and gpukit.e == numpy.e and gpukit.inf == numpy.inf and numpy.isnan(gpukit.nan)
    assert gpukit.newaxis is None


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_isdtype_agrees_with_numpy_s(dtype):
    for kind in ("bool", "signed integer", "unsigned integer", "integral", "real floating", "complex floating",
                 "numeric", ("bool", "integral"), numpy.dtype(dtype)):
        assert gpukit.isdtype(numpy.dtype(dtype), kind) == numpy.isdtype(numpy.dtype(dtype), kind)
    with pytest.raises(TypeError):
        gpukit.isdtype("float32", "numeric")


def test_finfo_and_iinfo_of_dtypes_and_arrays():
    limits = gpukit.finfo(gpukit.asarray([1.0], dtype=numpy.float32))
    assert isinstance(limits.eps, float) and isinstance(limits.bits, int)
    assert limits.eps == float(numpy.finfo(numpy.float32).eps) and limits.dtype == numpy.float32
    assert gpukit.finfo(numpy.complex64).dtype == numpy.float32
    assert gpukit.finfo(numpy.float64).smallest_normal == float(numpy.finfo(numpy.float64).smallest_normal)
    assert gpukit.iinfo(gpukit.zeros(1, numpy.int16)).max == 32767 and gpukit.iinfo(numpy.uint8).min == 0
    with pytest.raises(ValueError):
        gpukit.finfo(numpy.int32)


def test_the_standard_s_names_of_numpy_s_functions(rng):
    host = random_array(rng, (3, 4, 5), "float32")
    x = gpukit.asarray(host)
    numpy.testing.assert_array_equal(gpukit.permute_dims(x, (2, 0, 1)).get(), host.transpose(2, 0, 1))
    numpy.testing.assert_array_equal(gpukit.concat([x, x], axis=1).get(), numpy.concatenate([host, host], axis=1))
    numpy.testing.assert_array_equal(gpukit.concat([x, x], axis=None).get(), numpy.concatenate([host, host], None))
    converted = gpukit.astype(x, numpy.int16)
    numpy.testing.assert_array_equal(converted.get(), host.astype(numpy.int16))
    assert gpukit.astype(x, numpy.float32, copy=False).data_ptr == x.data_ptr
    assert gpukit.astype(x, numpy.float32).data_ptr != x.data_ptr
    with pytest.raises(TypeError, match="gpukit array"):
        gpukit.astype(host, numpy.float32)
    pieces = gpukit.unstack(x, axis=1)
    assert isinstance(pieces, tuple) and len(pieces) == 4
    for i, piece in enumerate(pieces):
        numpy.testing.assert_array_equal(piece.get(), host[:, i])
    assert gpukit.unstack(gpukit.zeros((0, 3)), axis=0) == ()
    with pytest.raises(gpukit.AxisError):
        gpukit.unstack(x, axis=3)
    numpy.testing.assert_array_equal(x.mT.get(), numpy.swapaxes(host, -1, -2))
    numpy.testing.assert_array_equal(gpukit.matrix_transpose(x).get(), numpy.matrix_transpose(host))
    with pytest.raises(ValueError, match="at least 2"):
        _ = gpukit.asarray([1, 2]).mT


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_vecdot_equals_numpy_s(dtype, rng):
    a, b = random_array(rng, (4, 1, 5), dtype), random_array(rng, (3, 5), dtype)
    wide = "float64" if dtype == "float16" else dtype
    expected = numpy.vecdot(a.astype(wide), b.astype(wide)).astype(numpy.result_type(a, b))
    got = gpukit.vecdot(gpukit.asarray(a), gpukit.asarray(b))
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if dtype == "float16":
        numpy.testing.assert_allclose(got.get().astype(numpy.float64), expected, rtol=1e-2)
    elif numpy.dtype(dtype).kind in "fc":
        numpy.testing.assert_allclose(got.get(), expected, rtol=1e-5)
    else:
        numpy.testing.assert_array_equal(got.get(), expected)
    columns, rows = a[:3, 0, :], b[:3, :]  # (3, 5) each: vectors down axis 0
    along_first = gpukit.vecdot(gpukit.asarray(columns), gpukit.asarray(rows), axis=0)
    first_expected = numpy.vecdot(columns.astype(wide), rows.astype(wide), axis=0).astype(expected.dtype)
    assert along_first.shape == first_expected.shape == (5,)
    numpy.testing.assert_allclose(along_first.get().astype(numpy.complex128), first_expected, rtol=1e-2)
    numpy.testing.assert_array_equal(gpukit.linalg.vecdot(gpukit.asarray(a), gpukit.asarray(b)).shape, expected.shape)
    with pytest.raises(ValueError, match="components"):
        gpukit.vecdot(gpukit.asarray(a), gpukit.asarray(b[:, :4]))


@pytest.mark.parametrize("dtype", ["int32", "uint8", "float32", "float64", "complex128"])
@pytest.mark.parametrize(("n", "m"), [(3, 3), (2, 3), (3, 2), (2, 2)])
def test_cross_equals_numpy_s(dtype, n, m, rng):
    a, b = random_array(rng, (5, 1, n), dtype), random_array(rng, (4, m), dtype)

    def three(v):  # NumPy 2 deprecated (and later removed) vectors of two components: a zero third one
        return v if v.shape[-1] == 3 else numpy.concatenate([v, numpy.zeros(v.shape[:-1] + (1,), v.dtype)], -1)

    expected = numpy.cross(three(a), three(b))
    moved = numpy.cross(three(a), three(b), axisc=0) if n == 3 or m == 3 else None
    if n == 2 and m == 2:
        expected = expected[..., 2]  # the z component alone
    got = gpukit.cross(gpukit.asarray(a), gpukit.asarray(b))
    assert got.dtype == expected.dtype
    numpy.testing.assert_allclose(got.get(), expected, rtol=1e-6)
    if moved is not None:
        numpy.testing.assert_allclose(gpukit.cross(gpukit.asarray(a), gpukit.asarray(b), axisc=0).get(), moved,
                                      rtol=1e-6)


def test_cross_along_other_axes_and_its_errors(rng):
    a, b = random_array(rng, (3, 6), "float64"), random_array(rng, (6, 3), "float64")
    numpy.testing.assert_allclose(gpukit.cross(gpukit.asarray(a), gpukit.asarray(b), axisa=0).get(),
                                  numpy.cross(a, b, axisa=0))
    numpy.testing.assert_allclose(gpukit.cross(gpukit.asarray(a.T), gpukit.asarray(b), axis=1).get(),
                                  numpy.cross(a.T, b, axis=1))
    numpy.testing.assert_allclose(gpukit.linalg.cross(gpukit.asarray(a), gpukit.asarray(b.T), axis=0).get(),
                                  numpy.linalg.cross(a, b.T, axis=0))
    with pytest.raises(ValueError, match="dimension must be 2 or 3"):
        gpukit.cross(gpukit.ones((2, 4)), gpukit.ones((2, 3)))
    with pytest.raises(ValueError, match="3-dimensional"):
        gpukit.linalg.cross(gpukit.ones((2, 2)), gpukit.ones((2, 2)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int32"])
def test_vector_and_matrix_norms_equal_numpy_s(dtype, rng):
    host = random_array(rng, (3, 4, 5), dtype)
    x = gpukit.asarray(host)
    tolerance = 1e-5 if dtype in ("float32", "complex64") else 1e-12
    for axis in (None, 1, (0, 2), (0, 1, 2)):
        for ord_ in (2, 1, numpy.inf, -numpy.inf, 0, 3.5):
            for keepdims in (False, True):
                expected = numpy.linalg.vector_norm(host, axis=axis, ord=ord_, keepdims=keepdims)
                got = gpukit.linalg.vector_norm(x, axis=axis, ord=ord_, keepdims=keepdims)
                assert got.shape == expected.shape
                numpy.testing.assert_allclose(got.get(), expected, rtol=tolerance)
    for ord_ in ("fro", "nuc", 1, -1, 2, -2, numpy.inf, -numpy.inf):
        for keepdims in (False, True):
            expected = numpy.linalg.matrix_norm(host, ord=ord_, keepdims=keepdims)
            got = gpukit.linalg.matrix_norm(x, ord=ord_, keepdims=keepdims)
            assert got.shape == expected.shape
            numpy.testing.assert_allclose(got.get(), expected, rtol=max(tolerance, 1e-9))
    with pytest.raises(ValueError, match="at least 2"):
        gpukit.linalg.matrix_norm(gpukit.ones(3))
    with pytest.raises(ValueError, match="ord"):
        gpukit.linalg.vector_norm(x, ord="fro")


def test_linalg_s_names_of_the_products_and_diagonals(rng):
    host = random_array(rng, (2, 4, 4), "float64")
    x = gpukit.asarray(host)
    numpy.testing.assert_array_equal(gpukit.linalg.diagonal(x, offset=1).get(), numpy.linalg.diagonal(host, offset=1))
    numpy.testing.assert_allclose(gpukit.linalg.trace(x, offset=-1).get(), numpy.linalg.trace(host, offset=-1))
    numpy.testing.assert_allclose(gpukit.linalg.matmul(x, x).get(), numpy.linalg.matmul(host, host))
    numpy.testing.assert_array_equal(gpukit.linalg.matrix_transpose(x).get(), numpy.linalg.matrix_transpose(host))
    pair = numpy.linalg.tensordot(host, host[0], axes=1)  # (2, 4, 4) . (4, 4)
    numpy.testing.assert_allclose(gpukit.linalg.tensordot(x, x[0], axes=1).get(), pair)
    v = host[0, 0]
    numpy.testing.assert_allclose(gpukit.linalg.outer(x[0, 0], x[1, 1]).get(), numpy.linalg.outer(v, host[1, 1]))
    with pytest.raises(ValueError, match="1-dimensional"):
        gpukit.linalg.outer(x, x)


@pytest.mark.parametrize("dtype", ["int16", "uint32", "float32", "float64", "bool"])
def test_descending_sorts_are_stable(dtype, rng):
    host = rng.integers(0, 4, (6, 9)).astype(dtype)  # many equal keys
    x = gpukit.asarray(host)
    for axis in (-1, 0, None):
        flat = host.ravel() if axis is None else host
        along = 0 if axis is None else axis
        # The stable descending order: the stable ascending order of the negated keys, by position.
        keys = -(flat.astype(numpy.int64))
        expected = numpy.argsort(keys, axis=along, kind="stable")
        numpy.testing.assert_array_equal(gpukit.argsort(x, axis=axis, descending=True).get(), expected)
        numpy.testing.assert_array_equal(gpukit.sort(x, axis=axis, descending=True).get(),
                                         numpy.take_along_axis(flat, expected, axis=along))
    assert gpukit.argsort(gpukit.zeros((3, 0)), descending=True).shape == (3, 0)


def test_clip_takes_the_standard_s_and_numpy_s_keywords(rng):
    host = random_array(rng, (5, 6), "float32")
    x = gpukit.asarray(host)
    numpy.testing.assert_array_equal(gpukit.clip(x, min=0.2).get(), numpy.clip(host, min=0.2))
    numpy.testing.assert_array_equal(gpukit.clip(x, 0.1, 0.7).get(), numpy.clip(host, 0.1, 0.7))
    numpy.testing.assert_array_equal(gpukit.clip(x, a_min=0.3, a_max=0.5).get(), numpy.clip(host, 0.3, 0.5))
    numpy.testing.assert_array_equal(gpukit.clip(x, max=gpukit.asarray(host[0])).get(), numpy.clip(host, max=host[0]))
    unbounded = gpukit.clip(x)
    assert unbounded.data_ptr != x.data_ptr
    numpy.testing.assert_array_equal(unbounded.get(), host)
    numpy.testing.assert_array_equal(numpy.clip(x, 0.1, 0.7).get(), numpy.clip(host, 0.1, 0.7))


def test_repeat_takes_counts_on_the_device(rng):
    host = random_array(rng, (4, 3), "float32")
    counts = numpy.array([2, 0, 1], dtype=numpy.int8)
    got = gpukit.repeat(gpukit.asarray(host), gpukit.asarray(counts), axis=1)
    numpy.testing.assert_array_equal(got.get(), numpy.repeat(host, counts, axis=1))
    assert gpukit.repeat(gpukit.zeros(0, bool), gpukit.zeros(0, numpy.int8)).shape == (0,)
    with pytest.raises(TypeError, match="integers"):
        gpukit.repeat(gpukit.asarray(host), gpukit.ones(3), axis=1)


def test_device_keywords_and_to_device():
    device = gpukit.get_device()
    for array in (gpukit.zeros(3, device=device), gpukit.ones(3, device=device), gpukit.full(3, 2.0, device=device),
                  gpukit.arange(3, device=device), gpukit.linspace(0, 1, 3, device=device),
                  gpukit.eye(3, device=device), gpukit.empty(3, device=device),
                  gpukit.zeros_like(gpukit.zeros(3), device=device), gpukit.full_like(numpy.zeros(3), 1, device=device),
                  gpukit.asarray([1, 2], device=device), gpukit.fft.fftfreq(4, device=device)):
        assert array.device == device
    x = gpukit.asarray([1.0, 2.0])
    moved = x.to_device(device)
    assert moved.data_ptr == x.data_ptr  # already there: the same memory
    with pytest.raises(TypeError, match="gpukit.Device"):
        x.to_device("cuda:1")
    with pytest.raises(ValueError, match="stream"):
        x.to_device(device, stream=1)
    with pytest.raises(TypeError, match="gpukit.Device"):
        gpukit.zeros(3, device="cpu")


def test_from_dlpack_copy_and_device():
    host = numpy.arange(6.0)
    x = gpukit.asarray(host)
    assert gpukit.from_dlpack(x, copy=False).data_ptr == x.data_ptr
    copied = gpukit.from_dlpack(x, copy=True)
    assert copied.data_ptr != x.data_ptr
    numpy.testing.assert_array_equal(copied.get(), host)
    assert gpukit.from_dlpack(x, device=gpukit.get_device()).data_ptr == x.data_ptr


def test_asarray_stacks_lists_of_device_arrays(rng):
    host = random_array(rng, (3, 2), "float32")
    x = gpukit.asarray(host)
    nested = gpukit.asarray([[x[i, j] * 2 for j in range(2)] for i in range(3)])
    numpy.testing.assert_array_equal(nested.get(), host * 2)
    assert nested.dtype == numpy.float32
    numpy.testing.assert_array_equal(gpukit.asarray([x[0], x[1]], dtype=numpy.float64).get(),
                                     host[:2].astype(numpy.float64))
    with pytest.raises(ValueError):
        gpukit.asarray([x[0], x], copy=None)  # shapes that do not stack
    with pytest.raises(ValueError, match="copy"):
        gpukit.asarray([x[0], x[1]], copy=False)


def test_empty_boolean_masks_select_nothing_from_any_extent():
    for shape, mask in (((3,), (0,)), ((1, 2), (0, 2)), ((3, 2), (0, 2))):
        x = gpukit.arange(numpy.prod(shape), dtype=numpy.float32).reshape(shape)
        assert x[gpukit.zeros(mask, bool)].shape == numpy.zeros(shape)[numpy.zeros(mask, bool)].shape
        x[gpukit.zeros(mask, bool)] = 7
        x[gpukit.zeros(mask, bool)] = gpukit.ones(0, numpy.float32)
        numpy.testing.assert_array_equal(x.get(), numpy.arange(numpy.prod(shape)).reshape(shape))
    with pytest.raises(IndexError, match="did not match"):
        gpukit.zeros(3)[gpukit.ones(2, bool)]


def test_eye_takes_any_diagonal_and_fftfreq_a_dtype():
    for k in (2**63, -(2**70), 5, -5):
        numpy.testing.assert_array_equal(gpukit.eye(3, 4, k=k).get(), numpy.eye(3, 4, k=k))
    frequencies = gpukit.fft.rfftfreq(9, 0.5, dtype=numpy.float32)
    assert frequencies.dtype == numpy.float32
    numpy.testing.assert_allclose(frequencies.get(), numpy.fft.rfftfreq(9, 0.5), rtol=1e-6)
    with pytest.raises(TypeError, match="real floating"):
        gpukit.fft.fftfreq(4, dtype=numpy.int32)


def test_complex_expm1_and_logaddexp_special_values():
    z = numpy.array([complex(-0.0, 0.0), complex(numpy.inf, 0.0), complex(-numpy.inf, numpy.inf),
                     complex(numpy.inf, numpy.nan), complex(numpy.nan, 0.0), complex(-numpy.inf, 2.0)])
    with numpy.errstate(all="ignore"):  # NumPy's values, not the standard's (tests/array_api/xfails.txt)
        numpy.testing.assert_array_equal(gpukit.expm1(gpukit.asarray(z)).get(), numpy.expm1(z))
    a = numpy.array([numpy.inf, -numpy.inf, 1000.0, -1000.0, numpy.nan, 3.0])
    b = numpy.array([numpy.inf, -numpy.inf, 1000.0, 1.0, 1.0, -numpy.inf])
    for name in ("logaddexp", "logaddexp2"):
        with numpy.errstate(invalid="ignore"):
            expected = getattr(numpy, name)(a, b)
        numpy.testing.assert_array_equal(getattr(gpukit, name)(gpukit.asarray(a), gpukit.asarray(b)).get(), expected)
        assert getattr(gpukit, name).identity == -numpy.inf
