"""RandomState: CuPy's (and NumPy's legacy) sampling methods, generated on the device."""

import numpy

from cuarray.random._sampler import Sampler, float_dtype

_FLOAT_ONLY = "cuarray.random only supports float32 and float64 (got {dt})"


def _float(dtype):
    return float_dtype(dtype, _FLOAT_ONLY)


class RandomState(Sampler):
    """A Philox generator seeded with `seed` (an integer in [0, 2**64), or None for fresh entropy). The same seed
    gives the same numbers on every run and every device of one kind."""

    def seed(self, seed=None):
        """Restart from `seed` (None: fresh entropy)."""
        self._reseed(seed)

    def random_sample(self, size=None, dtype=float):
        """Uniform floats on [0, 1)."""
        return self._sample("uniform", size, _float(dtype), 0.0, 1.0)

    random = random_sample
    ranf = random_sample
    sample = random_sample

    def rand(self, *size, dtype=float):
        return self.random_sample(size, dtype)

    def randn(self, *size, dtype=float):
        return self.standard_normal(size, dtype)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=float):
        return self._uniform(low, high, size, _float(dtype))

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return self._normal(loc, scale, size, _float(dtype))

    def standard_normal(self, size=None, dtype=float):
        return self._sample("normal", size, _float(dtype), 0.0, 1.0)

    def exponential(self, scale=1.0, size=None, dtype=float):
        return self._exponential(scale, size, _float(dtype))

    def gamma(self, shape, scale=1.0, size=None, dtype=float):
        return self._gamma(shape, scale, size, _float(dtype))

    def beta(self, a, b, size=None, dtype=float):
        return self._beta(a, b, size, _float(dtype))

    def poisson(self, lam=1.0, size=None, dtype=numpy.int64):
        return self._poisson(lam, size, dtype)

    def binomial(self, n, p, size=None, dtype=numpy.int64):
        return self._binomial(n, p, size, dtype)

    def randint(self, low, high=None, size=None, dtype=numpy.int64):
        """Integers in [low, high) (or [0, low) without high)."""
        if high is None:
            low, high = 0, low
        return self._integers(low, high, size, dtype, "randint")

    def random_integers(self, low, high=None, size=None):
        """Integers in [low, high] (or [1, low] without high)."""
        if high is None:
            low, high = 1, low
        return self._integers(low, high, size, numpy.int64, "random_integers", endpoint=True)

    def choice(self, a, size=None, replace=True, p=None):
        return self._choice(a, size, replace, p, one_dimensional=True)

    def permutation(self, x):
        """A shuffled copy of `x` along axis 0, or a permutation of range(x) for an integer."""
        return self._permutation(x, 0)

    def shuffle(self, x):
        """Shuffles the device array `x` along axis 0, in place."""
        self._shuffle(x, 0)

