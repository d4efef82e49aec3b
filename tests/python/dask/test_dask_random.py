"""da.random under the gpukit backend: chunks drawn on the device by gpukit's Philox generator, one
generator per chunk spawned from the seed, reproducible, and never the same stream twice."""

import numpy
import pytest

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

import gpukit  # noqa: E402
from gpukit.dask import Philox  # noqa: E402


@pytest.fixture
def gpukit_backend():
    with dask.config.set({"array.backend": "gpukit"}):
        yield


def computed_chunks(array):
    chunks = dask.compute(*array.to_delayed().ravel())
    assert {type(chunk) for chunk in chunks} == {gpukit.ndarray}
    return [chunk.get() for chunk in chunks]


def test_default_rng_draws_gpukit_chunks_reproducibly(gpukit_backend):
    x = da.random.default_rng(42).random((1001, 3), chunks=(300, 3), dtype=numpy.float32)
    assert isinstance(x._meta, gpukit.ndarray) and x.dtype == numpy.float32
    first = numpy.concatenate(computed_chunks(x))
    again = da.random.default_rng(42).random((1001, 3), chunks=(300, 3), dtype=numpy.float32).compute().get()
    numpy.testing.assert_array_equal(first, again)
    assert ((first >= 0) & (first < 1)).all() and abs(first.mean() - 0.5) < 0.03
    other_seed = da.random.default_rng(43).random((1001, 3), chunks=(300, 3), dtype=numpy.float32).compute().get()
    assert not numpy.array_equal(first, other_seed)


def test_every_chunk_has_its_own_stream(gpukit_backend):
    chunks = computed_chunks(da.random.default_rng(7).standard_normal(4000, chunks=1000))
    assert len({chunk.tobytes() for chunk in chunks}) == len(chunks)
    values = numpy.concatenate(chunks)
    assert abs(values.mean()) < 0.06 and abs(values.std() - 1) < 0.05


def test_integers_normal_and_uniform_follow_their_arguments(gpukit_backend):
    rng = da.random.default_rng(3)
    integers = numpy.concatenate(computed_chunks(rng.integers(5, 17, size=3001, chunks=1000)))
    assert integers.min() == 5 and integers.max() == 16
    normal = numpy.concatenate(computed_chunks(rng.normal(10.0, 0.5, size=(2001,), chunks=700)))
    assert abs(normal.mean() - 10) < 0.05 and abs(normal.std() - 0.5) < 0.05
    uniform = numpy.concatenate(computed_chunks(rng.uniform(-2, 3, size=2001, chunks=700)))
    assert uniform.min() >= -2 and uniform.max() < 3


def test_a_gpukit_generator_seeds_dasks(gpukit_backend):
    x = da.random.default_rng(gpukit.random.default_rng(11)).random(500, chunks=200)
    y = da.random.default_rng(gpukit.random.default_rng(11)).random(500, chunks=200)
    numpy.testing.assert_array_equal(numpy.concatenate(computed_chunks(x)), y.compute().get())


def test_a_philox_bit_generator_serves_without_the_backend():
    x = da.random.Generator(Philox(5)).random(300, chunks=100)
    assert isinstance(x._meta, gpukit.ndarray)
    assert len(computed_chunks(x)) == 3


def test_the_legacy_functions_draw_gpukit_chunks(gpukit_backend):
    values = numpy.concatenate(computed_chunks(da.random.random(1000, chunks=300)))
    assert ((values >= 0) & (values < 1)).all()
    integers = numpy.concatenate(computed_chunks(da.random.randint(0, 4, size=1000, chunks=300)))
    assert set(integers.tolist()) == {0, 1, 2, 3}
    normal = numpy.concatenate(computed_chunks(da.random.RandomState(5).normal(1.0, 2.0, size=2000, chunks=600)))
    assert abs(normal.mean() - 1) < 0.2 and abs(normal.std() - 2) < 0.15


def test_distributions_built_on_the_gamma_draw_gpukit_chunks(gpukit_backend):
    rng = da.random.default_rng(8)
    gammas = numpy.concatenate(computed_chunks(rng.gamma(2.0, 3.0, size=4000, chunks=1500)))
    assert abs(gammas.mean() / 6 - 1) < 0.1
    betas = numpy.concatenate(computed_chunks(rng.beta(2.0, 5.0, size=4000, chunks=1500)))
    assert ((betas > 0) & (betas < 1)).all() and abs(betas.mean() - 2 / 7) < 0.02


def test_a_distribution_gpukit_lacks_is_named(gpukit_backend):
    with pytest.raises(AttributeError,
                       match="gpukit's random generator has no multivariate_hypergeometric.*it draws .*vonmises"):
        da.random.default_rng(1).multivariate_hypergeometric([3, 4], 2, size=10)


def test_a_seed_that_is_not_one_is_refused():
    with pytest.raises(TypeError, match="a seed must be None, an int"):
        Philox(1.5)
