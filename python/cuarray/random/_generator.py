"""Generator and default_rng: NumPy's newer sampling interface, generated on the device."""

import operator

import numpy

from cuarray import _core
from cuarray._ndarray import ndarray
from cuarray.random._discrete import Distributions
from cuarray.random._sampler import float_dtype

F8 = numpy.dtype(numpy.float64)
I8 = numpy.dtype(numpy.int64)


class Generator(Distributions):
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

    # ---------------------------------------------------------------- NumPy's other distributions

    def bytes(self, length):
        """`length` random bytes (a Python bytes object, read back from the device)."""
        return self._bytes(length)

    def chisquare(self, df, size=None):
        return self._chisquare(df, size, F8)

    def dirichlet(self, alpha, size=None):
        return self._dirichlet(alpha, size, F8, legacy=False)

    def f(self, dfnum, dfden, size=None):
        return self._f(dfnum, dfden, size, F8)

    def geometric(self, p, size=None):
        return self._geometric(p, size, I8)

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        return self._gumbel(loc, scale, size, F8)

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        return self._hypergeometric(ngood, nbad, nsample, size, I8, legacy=False)

    def laplace(self, loc=0.0, scale=1.0, size=None):
        return self._laplace(loc, scale, size, F8)

    def logistic(self, loc=0.0, scale=1.0, size=None):
        return self._logistic(loc, scale, size, F8)

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        return self._lognormal(mean, sigma, size, F8)

    def logseries(self, p, size=None):
        return self._logseries(p, size, I8)

    def multinomial(self, n, pvals, size=None):
        """Counts of each outcome in n trials; n and pvals[..., :-1] broadcast (int64, shape + (k,))."""
        return self._multinomial(n, pvals, size, legacy=False)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *, method="svd"):
        return self._multivariate_normal(mean, cov, size, check_valid, tol, method, F8)

    def negative_binomial(self, n, p, size=None):
        return self._negative_binomial(n, p, size, I8, legacy=False)

    def noncentral_chisquare(self, df, nonc, size=None):
        return self._noncentral_chisquare(df, nonc, size, F8)

    def noncentral_f(self, dfnum, dfden, nonc, size=None):
        return self._noncentral_f(dfnum, dfden, nonc, size, F8)

    def pareto(self, a, size=None):
        return self._pareto(a, size, F8)

    def power(self, a, size=None):
        return self._power(a, size, F8)

    def rayleigh(self, scale=1.0, size=None):
        return self._rayleigh(scale, size, F8)

    def standard_cauchy(self, size=None):
        return self._standard_cauchy(size, F8)

    def standard_exponential(self, size=None, dtype=numpy.float64, method="zig", out=None):
        """Drawn by inversion whatever `method` says (NumPy's 'zig' and 'inv' give the same law)."""
        dt = float_dtype(dtype, "Unsupported dtype {dt!r} for standard_exponential")
        return self._into(out, size, lambda s: self._sample("exponential", s, dt, 1.0))

    def standard_gamma(self, shape, size=None, dtype=numpy.float64, out=None):
        dt = float_dtype(dtype, "Unsupported dtype {dt!r} for standard_gamma")
        return self._into(out, size, lambda s: self._standard_gamma(shape, s, dt))

    def standard_t(self, df, size=None):
        return self._standard_t(df, size, F8)

    def triangular(self, left, mode, right, size=None):
        return self._triangular(left, mode, right, size, F8)

    def vonmises(self, mu, kappa, size=None):
        return self._vonmises(mu, kappa, size, F8)

    def wald(self, mean, scale, size=None):
        return self._wald(mean, scale, size, F8)

    def weibull(self, a, size=None):
        return self._weibull(a, size, F8)

    def zipf(self, a, size=None):
        return self._zipf(a, size, I8)


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
