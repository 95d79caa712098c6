"""RandomState: CuPy's (and NumPy's legacy) sampling methods, generated on the device."""

import numpy

from cuarray.random._discrete import Distributions
from cuarray.random._sampler import _int_dtype, float_dtype

_FLOAT_ONLY = "cuarray.random only supports float32 and float64 (got {dt})"


def _float(dtype):
    return float_dtype(dtype, _FLOAT_ONLY)


class RandomState(Distributions):
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


    # ---------------------------------------------------------------- NumPy's other distributions

    def chisquare(self, df, size=None, dtype=float):
        return self._chisquare(df, size, _float(dtype))

    def dirichlet(self, alpha, size=None, dtype=float):
        return self._dirichlet(alpha, size, _float(dtype), legacy=True)

    def f(self, dfnum, dfden, size=None, dtype=float):
        return self._f(dfnum, dfden, size, _float(dtype))

    def geometric(self, p, size=None, dtype=numpy.int64):
        return self._geometric(p, size, _int_dtype(dtype, "geometric"))

    def gumbel(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return self._gumbel(loc, scale, size, _float(dtype))

    def hypergeometric(self, ngood, nbad, nsample, size=None, dtype=numpy.int64):
        return self._hypergeometric(ngood, nbad, nsample, size, _int_dtype(dtype, "hypergeometric"), legacy=True)

    def laplace(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return self._laplace(loc, scale, size, _float(dtype))

    def logistic(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return self._logistic(loc, scale, size, _float(dtype))

    def lognormal(self, mean=0.0, sigma=1.0, size=None, dtype=float):
        return self._lognormal(mean, sigma, size, _float(dtype))

    def logseries(self, p, size=None, dtype=numpy.int64):
        return self._logseries(p, size, _int_dtype(dtype, "logseries"))

    def multinomial(self, n, pvals, size=None):
        """Counts of each of len(pvals) outcomes in n trials (int64, shape size + (len(pvals),))."""
        return self._multinomial(n, pvals, size, legacy=True)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, method="svd", dtype=float):
        """NumPy's check_valid and tol; CuPy's method ('svd', NumPy's, 'eigh' or 'cholesky') and dtype."""
        return self._multivariate_normal(mean, cov, size, check_valid, tol, method, _float(dtype))

    def negative_binomial(self, n, p, size=None, dtype=numpy.int64):
        return self._negative_binomial(n, p, size, _int_dtype(dtype, "negative_binomial"), legacy=True)

    def noncentral_chisquare(self, df, nonc, size=None, dtype=float):
        return self._noncentral_chisquare(df, nonc, size, _float(dtype))

    def noncentral_f(self, dfnum, dfden, nonc, size=None, dtype=float):
        return self._noncentral_f(dfnum, dfden, nonc, size, _float(dtype))

    def pareto(self, a, size=None, dtype=float):
        return self._pareto(a, size, _float(dtype))

    def power(self, a, size=None, dtype=float):
        return self._power(a, size, _float(dtype))

    def rayleigh(self, scale=1.0, size=None, dtype=float):
        return self._rayleigh(scale, size, _float(dtype))

    def standard_cauchy(self, size=None, dtype=float):
        return self._standard_cauchy(size, _float(dtype))

    def standard_exponential(self, size=None, dtype=float):
        return self._sample("exponential", size, _float(dtype), 1.0)

    def standard_gamma(self, shape, size=None, dtype=float):
        return self._standard_gamma(shape, size, _float(dtype))

    def standard_t(self, df, size=None, dtype=float):
        return self._standard_t(df, size, _float(dtype))

    def triangular(self, left, mode, right, size=None, dtype=float):
        return self._triangular(left, mode, right, size, _float(dtype))

    def vonmises(self, mu, kappa, size=None, dtype=float):
        return self._vonmises(mu, kappa, size, _float(dtype))

    def wald(self, mean, scale, size=None, dtype=float):
        return self._wald(mean, scale, size, _float(dtype))

    def weibull(self, a, size=None, dtype=float):
        return self._weibull(a, size, _float(dtype))

    def zipf(self, a, size=None, dtype=numpy.int64):
        return self._zipf(a, size, _int_dtype(dtype, "zipf"))

    def bytes(self, length):
        """`length` random bytes (a Python bytes object, read back from the device)."""
        return self._bytes(length)
