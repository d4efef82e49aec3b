"""gpukit's Philox generator in the shapes dask.array.random asks for.

Dask gives every chunk of a random array its own generator: ``da.random.Generator`` spawns children
of a ``numpy.random.SeedSequence`` (a bit generator's ``_seed_seq``), and the legacy functions
(``da.random.random``, ``da.random.normal``, ...) seed a ``RandomState`` per chunk with 624 words
drawn on the client. ``Philox`` and ``RandomState`` are gpukit generators keyed by those seeds, so
chunks are drawn on the device where their task runs, and the same seed and chunks give the same
array on either backend, whichever worker draws each chunk.
"""

import numpy

import gpukit


def _seed_sequence(seed):
    """A numpy.random.SeedSequence from what Dask and users seed with: None (fresh entropy), ints,
    sequences of ints, a SeedSequence, or a gpukit generator (its key and position)."""
    if isinstance(seed, numpy.random.SeedSequence):
        return seed
    if isinstance(seed, gpukit.random.Generator):
        offset = seed.offset
        return numpy.random.SeedSequence([*seed.key, offset.low, offset.high])
    if isinstance(seed, (bool, float)):
        raise TypeError(f"a seed must be None, an int, a sequence of ints, a numpy.random.SeedSequence or a "
                        f"gpukit.random.Generator, not {type(seed).__name__}")
    return numpy.random.SeedSequence(seed)


def _key(sequence):
    return int(sequence.generate_state(1, numpy.uint64)[0])


def _refuse_missing(generator, name, numpy_class):
    """The AttributeError for a distribution NumPy's class has and gpukit's generator lacks, naming
    what it draws instead of a bare attribute name."""
    if name.startswith("_") or not hasattr(numpy_class, name):
        return AttributeError(f"{type(generator).__name__!r} object has no attribute {name!r}")
    drawn = sorted(name for name in dir(type(generator)) if not name.startswith("_") and hasattr(numpy_class, name))
    return AttributeError(f"gpukit's random generator has no {name} (numpy.random.{numpy_class.__name__}.{name}): "
                          f"it draws {', '.join(drawn)}")


class Philox(gpukit.random.Generator):
    """gpukit's generator (Philox4x32-10) as the bit generator of ``da.random.Generator``: keyed by a
    SeedSequence, which Dask spawns one child of per chunk (``_seed_seq``, NumPy's attribute name)."""

    def __init__(self, seed=None):
        sequence = _seed_sequence(seed)
        super().__init__(_key(sequence))
        self._seed_seq = sequence

    def __getattr__(self, name):
        raise _refuse_missing(self, name, numpy.random.Generator)


class RandomState(gpukit.random.Generator):
    """numpy.random.RandomState's names over gpukit's generator, for Dask's legacy random functions
    under the gpukit backend, which seed one per chunk (with an int or an array of 32-bit words)."""

    def __init__(self, seed=None):
        super().__init__(_key(_seed_sequence(seed)))

    def random_sample(self, size=None):
        return self.random(size)

    def randint(self, low, high=None, size=None, dtype=int):
        return self.integers(low, high, size, dtype)

    def __getattr__(self, name):
        raise _refuse_missing(self, name, numpy.random.RandomState)
