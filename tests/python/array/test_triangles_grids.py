"""tril, triu, diag, diagflat, meshgrid, indices and copyto against NumPy (src/array/triangles.cpp,
grids.cpp, copyto.cpp)."""

import numpy
import pytest

import gpukit
from conftest import ALL_DTYPES, random_array
from layouts import assert_same


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_tril_and_triu_every_dtype(dtype, rng):
    host = random_array(rng, (2, 4, 5), dtype)
    if dtype[0] == "f":
        host[0, 3, 0] = numpy.nan  # NaN outside the triangle becomes 0, as NumPy's where(mask, m, 0)
    device = gpukit.asarray(host)
    for k in (-2, 0, 1, 9):
        assert_same(gpukit.tril(device, k), numpy.tril(host, k))
        assert_same(gpukit.triu(device[:, ::-1], k), numpy.triu(host[:, ::-1], k))
    assert_same(gpukit.tril(device[0, 0]), numpy.tril(host[0, 0]))  # 1-D: the rows of a square matrix


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("copy", [False, True])
def test_meshgrid(indexing, sparse, copy, rng):
    vectors = [random_array(rng, n, "float64") for n in (3, 4, 2)]
    for count in (1, 2, 3):
        got = gpukit.meshgrid(*[gpukit.asarray(v) for v in vectors[:count]], indexing=indexing, sparse=sparse,
                              copy=copy)
        expected = numpy.meshgrid(*vectors[:count], indexing=indexing, sparse=sparse, copy=copy)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_same(g, e)
    with pytest.raises(ValueError, match="indexing"):
        gpukit.meshgrid(gpukit.asarray(vectors[0]), indexing="xx")


@pytest.mark.parametrize("dimensions", [(2, 3), (4,), (2, 0, 3), (), (3, 1, 2)])
def test_indices(dimensions):
    assert_same(gpukit.indices(dimensions), numpy.indices(dimensions))
    assert_same(gpukit.indices(dimensions, dtype="int16"), numpy.indices(dimensions, dtype="int16"))
    for got, expected in zip(gpukit.indices(dimensions, sparse=True), numpy.indices(dimensions, sparse=True)):
        assert_same(got, expected)


def test_copyto_casting_broadcast_and_where(rng):
    host = random_array(rng, (3, 4), "float32")
    device = gpukit.asarray(host)
    row = random_array(rng, 4, "int16")
    gpukit.copyto(device, gpukit.asarray(row))
    numpy.copyto(host, row)
    numpy.testing.assert_array_equal(device.get(), host)
    mask = random_array(rng, (3, 1), "bool")
    source = random_array(rng, (3, 4), "float64")
    gpukit.copyto(device, gpukit.asarray(source), casting="same_kind", where=gpukit.asarray(mask))
    numpy.copyto(host, source, casting="same_kind", where=mask)
    numpy.testing.assert_array_equal(device.get(), host)
    gpukit.copyto(device[:, ::-1], device[::-1], where=gpukit.asarray(mask[::-1, 0][:, None]))  # overlapping
    numpy.copyto(host[:, ::-1], host[::-1].copy(), where=mask[::-1, 0][:, None])
    numpy.testing.assert_array_equal(device.get(), host)
    halves = gpukit.zeros(5, "float16")
    wide = numpy.array([1.0 + 2.0**-11 + 2.0**-30, 0.1, -7.25, 65519.0, 1e-8])
    gpukit.copyto(halves, gpukit.asarray(wide), where=gpukit.asarray(numpy.array([1, 1, 0, 1, 1], bool)))
    expected = numpy.zeros(5, "float16")
    numpy.copyto(expected, wide, casting="same_kind", where=numpy.array([1, 1, 0, 1, 1], bool))
    numpy.testing.assert_array_equal(halves.get(), expected)  # float64 -> float16 rounded once
    gpukit.copyto(device, 2)  # a weak Python int takes the array's dtype
    numpy.testing.assert_array_equal(device.get(), numpy.full((3, 4), 2, "float32"))
    with pytest.raises(TypeError, match="Cannot cast array data from dtype.'float64'. to dtype.'int32'. according to "
                                        "the rule 'same_kind'"):
        gpukit.copyto(gpukit.zeros(3, "int32"), gpukit.asarray(source[0, :3]))
    with pytest.raises(TypeError, match="same_kind"):
        gpukit.copyto(gpukit.zeros(3, "int32"), 2.5)
    with pytest.raises(ValueError, match="could not broadcast input array from shape"):
        gpukit.copyto(device, gpukit.asarray(row[:3]))
    with pytest.raises(ValueError, match="could not broadcast where mask from shape"):
        gpukit.copyto(device, 1.0, where=gpukit.asarray(numpy.ones(3, bool)))
    with pytest.raises(TypeError, match="bool"):
        gpukit.copyto(device, 1.0, where=gpukit.asarray(numpy.ones(4, "int8")))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("k", [0, 2, -3])
def test_diag_and_diagflat_equal_numpy_s(dtype, k, rng):
    vector = random_array(rng, 5, dtype)
    matrix = random_array(rng, (4, 6), dtype)
    pairs = [(vector, gpukit.asarray(vector)), (matrix, gpukit.asarray(matrix)),
             (matrix[::-1, ::2], gpukit.asarray(matrix)[::-1, ::2])]
    for host, device in pairs:
        assert_same(gpukit.diag(device, k), numpy.diag(host, k))
    numpy.testing.assert_array_equal(gpukit.diagflat(gpukit.asarray(matrix[:2, :3]), k).get(),
                                     numpy.diagflat(matrix[:2, :3], k))
    assert gpukit.diag(gpukit.asarray(vector[:0]), k).shape == numpy.diag(vector[:0], k).shape


def test_diag_of_other_dimensions_is_an_error():
    with pytest.raises(ValueError, match="1- or 2-d"):
        gpukit.diag(gpukit.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="1- or 2-d"):
        gpukit.diag(gpukit.asarray(numpy.float64(1.0)))
