"""Generator and default_rng: NumPy's newer sampling interface, generated on the device."""

import operator

import numpy

from cuarray import _core
from cuarray._ndarray import ndarray
from cuarray.random._sampler import Sampler, float_dtype


class Generator(Sampler):
    """NumPy's Generator methods on a Philox state (made by default_rng)."""

    def _into(self, out, size, make):
        """make(size), written into `out` when given (whose shape is then the size)."""
        if out is None:
            return make(size)
        if not isinstance(out, ndarray):
            raise TypeError("out must be a cuarray.ndarray")
        if size is not None and tuple(numpy.atleast_1d(size)) != out.shape:
            raise ValueError("size must match out.shape when used together")
        _core._copyto(out, make(out.shape))
        return out

    def random(self, size=None, dtype=numpy.float64, out=None):
        dt = float_dtype(dtype, "Unsupported dtype {dt!r} for random")
        return self._into(out, size, lambda s: self._sample("uniform", s, dt, 0.0, 1.0))

    def integers(self, low, high=None, size=None, dtype=numpy.int64, endpoint=False):
        """Integers in [low, high) ([low, high] with `endpoint`); [0, low) without high."""
        if high is None:
            low, high = 0, low
        return self._integers(low, high, size, dtype, "integers", endpoint)

    def standard_normal(self, size=None, dtype=numpy.float64, out=None):
        dt = float_dtype(dtype, "Unsupported dtype {dt!r} for standard_normal")
        return self._into(out, size, lambda s: self._sample("normal", s, dt, 0.0, 1.0))

    def normal(self, loc=0.0, scale=1.0, size=None):
        return self._normal(loc, scale, size, numpy.float64)

    def uniform(self, low=0.0, high=1.0, size=None):
        return self._uniform(low, high, size, numpy.float64)

    def exponential(self, scale=1.0, size=None):
        return self._exponential(scale, size, numpy.float64)

    def gamma(self, shape, scale=1.0, size=None):
        return self._gamma(shape, scale, size, numpy.float64)

    def beta(self, a, b, size=None):
        return self._beta(a, b, size, numpy.float64)

    def poisson(self, lam=1.0, size=None):
        return self._poisson(lam, size, numpy.int64)

    def binomial(self, n, p, size=None):
        return self._binomial(n, p, size, numpy.int64)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """Samples along `axis` of `a`; without replacement the sample is always in random order."""
        return self._choice(a, size, replace, p, one_dimensional=False, axis=axis)

    def permutation(self, x, axis=0):
        return self._permutation(x, axis)

    def shuffle(self, x, axis=0):
        self._shuffle(x, axis)


class Philox4x3210:
    """A bit generator: the seed of a Generator, drawn from a numpy.random.SeedSequence (made from `seed`, an
    integer, a sequence of them or None, or given), as CuPy's and NumPy's bit generators are. Dask spawns
    one per block from `_seed_seq` (da.random.default_rng with the "cuarray" array backend)."""

    def __init__(self, seed=None):
        sequence = isinstance(seed, numpy.random.SeedSequence)
        self._seed_seq = seed if sequence else numpy.random.SeedSequence(seed)
        self.seed = int(self._seed_seq.generate_state(1, numpy.uint64)[0])

    def __repr__(self):
        return f"Philox4x3210(seed={self.seed})"


def default_rng(seed=None):
    """A Generator seeded with `seed` (a non-negative integer, a Philox4x3210 bit generator, or None for fresh
    entropy); a Generator is returned as it is."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, Philox4x3210):
        return Generator(seed.seed)
    if seed is not None and not isinstance(seed, ndarray) and operator.index(seed) < 0:
        raise ValueError("expected non-negative integer")
    return Generator(seed)
