"""Random numbers on the device, as ``numpy.random``::

    rng = gpukit.random.default_rng(42)
    x = rng.standard_normal((1000, 1000), dtype=numpy.float32)
    k = rng.integers(0, 10, size=100)

Philox4x32-10 keyed by the seed, counter-based: the same seed gives the same bits on a GPU and on
the simulator, whatever the launch (kernels/gpukit_random.cuh documents every conversion). The
numbers differ from NumPy's own generators. ``size=None`` gives a 0-d array, as CuPy's Generator
does. The legacy functions (``seed``, ``rand``, ``randn``, ``randint``, ...) draw from one global
generator, as ``numpy.random``'s do.
"""

import os

import numpy

from . import _core

_native = _core.random

Counter = _native.Counter


class Generator(_native.Generator):
    """numpy.random.Generator's methods over Philox4x32-10 (see :func:`default_rng`)."""

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """A random sample of ``a`` (an int n: of ``range(n)``), as numpy.random.Generator.choice.

        ``a`` and ``p`` may be host sequences too: they are copied to the device.
        """
        return super().choice(_device(a), size, replace, _device(p), axis, shuffle)

    def __repr__(self):
        return f"Generator(Philox4x32-10, key={list(self.key)}, offset={_counter(self.offset)})"


def _device(value):
    """Host sequences (lists, NumPy arrays) as gpukit arrays; numbers and gpukit arrays as they are."""
    if value is None or isinstance(value, (int, numpy.integer, _core.ndarray)):
        return value
    from ._interop import asarray

    return asarray(numpy.asarray(value))


def _counter(offset):
    return offset.low | (offset.high << 64)


def _seed_of(seed):
    """A 64-bit key from an int seed (wider ones folded 64 bits at a time); None: fresh entropy."""
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    if isinstance(seed, (bool, float)) or not isinstance(seed, (int, numpy.integer)):
        raise TypeError(f"seed must be None, an int or a gpukit.random.Generator, not {type(seed).__name__}")
    seed = int(seed)
    if seed < 0:
        raise ValueError("expected non-negative integer")
    key = 0
    while True:
        key ^= seed & 0xFFFF_FFFF_FFFF_FFFF
        seed >>= 64
        if not seed:
            return key


def default_rng(seed=None):
    """A :class:`Generator` keyed by ``seed`` (an int; None: from os.urandom); a Generator is returned as it is."""
    if isinstance(seed, _native.Generator):
        return seed
    return Generator(_seed_of(seed))


# ---- numpy.random's legacy functions, over one global generator

_global = default_rng()


def seed(seed=None):
    """Re-keys the global generator, as numpy.random.seed."""
    global _global
    _global = default_rng(seed)


def get_random_state():
    """The global generator the legacy functions draw from."""
    return _global


def rand(*dims):
    """Floats in [0, 1) of shape ``dims``, as numpy.random.rand."""
    return _global.random(dims)


def randn(*dims):
    """Standard normal numbers of shape ``dims``, as numpy.random.randn."""
    return _global.standard_normal(dims)


def randint(low, high=None, size=None, dtype=int):
    """Integers in [low, high) ([0, low) without high), as numpy.random.randint."""
    return _global.integers(low, high, size, dtype)


def random_sample(size=None):
    """Floats in [0, 1), as numpy.random.random_sample."""
    return _global.random(size)


random = ranf = sample = random_sample


def standard_normal(size=None):
    return _global.standard_normal(size)


def normal(loc=0.0, scale=1.0, size=None):
    return _global.normal(loc, scale, size)


def uniform(low=0.0, high=1.0, size=None):
    return _global.uniform(low, high, size)


def exponential(scale=1.0, size=None):
    return _global.exponential(scale, size)


def poisson(lam=1.0, size=None):
    return _global.poisson(lam, size)


def standard_gamma(shape, size=None):
    return _global.standard_gamma(shape, size)


def gamma(shape, scale=1.0, size=None):
    return _global.gamma(shape, scale, size)


def beta(a, b, size=None):
    return _global.beta(a, b, size)


def chisquare(df, size=None):
    return _global.chisquare(df, size)


def f(dfnum, dfden, size=None):
    return _global.f(dfnum, dfden, size)


def standard_t(df, size=None):
    return _global.standard_t(df, size)


def lognormal(mean=0.0, sigma=1.0, size=None):
    return _global.lognormal(mean, sigma, size)


def laplace(loc=0.0, scale=1.0, size=None):
    return _global.laplace(loc, scale, size)


def logistic(loc=0.0, scale=1.0, size=None):
    return _global.logistic(loc, scale, size)


def gumbel(loc=0.0, scale=1.0, size=None):
    return _global.gumbel(loc, scale, size)


def weibull(a, size=None):
    return _global.weibull(a, size)


def pareto(a, size=None):
    return _global.pareto(a, size)


def power(a, size=None):
    return _global.power(a, size)


def rayleigh(scale=1.0, size=None):
    return _global.rayleigh(scale, size)


def standard_cauchy(size=None):
    return _global.standard_cauchy(size)


def standard_exponential(size=None):
    return _global.standard_exponential(size)


def geometric(p, size=None):
    return _global.geometric(p, size)


def negative_binomial(n, p, size=None):
    return _global.negative_binomial(n, p, size)


def binomial(n, p, size=None):
    return _global.binomial(n, p, size)


def wald(mean, scale, size=None):
    return _global.wald(mean, scale, size)


def triangular(left, mode, right, size=None):
    return _global.triangular(left, mode, right, size)


def noncentral_chisquare(df, nonc, size=None):
    return _global.noncentral_chisquare(df, nonc, size)


def noncentral_f(dfnum, dfden, nonc, size=None):
    return _global.noncentral_f(dfnum, dfden, nonc, size)


def multinomial(n, pvals, size=None):
    return _global.multinomial(n, pvals, size)


def multivariate_normal(mean, cov, size=None, check_valid="warn", tol=1e-8):
    return _global.multivariate_normal(mean, cov, size, check_valid, tol)


def logseries(p, size=None):
    return _global.logseries(p, size)


def zipf(a, size=None):
    return _global.zipf(a, size)


def hypergeometric(ngood, nbad, nsample, size=None):
    return _global.hypergeometric(ngood, nbad, nsample, size)


def vonmises(mu, kappa, size=None):
    return _global.vonmises(mu, kappa, size)


def dirichlet(alpha, size=None):
    return _global.dirichlet(alpha, size)


def choice(a, size=None, replace=True, p=None):
    return _global.choice(a, size, replace, p)


def permutation(x):
    return _global.permutation(x)


def shuffle(x):
    _global.shuffle(x)


__all__ = [
    "Counter", "Generator", "beta", "binomial", "chisquare", "choice", "default_rng", "dirichlet", "exponential", "f",
    "gamma", "geometric", "get_random_state", "gumbel", "hypergeometric", "laplace", "logistic", "lognormal",
    "logseries", "multinomial", "multivariate_normal", "negative_binomial", "noncentral_chisquare", "noncentral_f",
    "normal", "pareto", "permutation", "poisson", "power", "rand", "randint", "randn", "random", "random_sample",
    "ranf", "rayleigh", "sample", "seed", "shuffle", "standard_cauchy", "standard_exponential", "standard_gamma",
    "standard_normal", "standard_t", "triangular", "uniform", "vonmises", "wald", "weibull", "zipf",
]
