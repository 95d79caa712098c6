"""Generator and default_rng: NumPy's newer sampling interface on a bit generator, generated on the device (laid
out as CuPy's cupy.random._generator_api)."""

import numbers

import numpy

from cuarray import _core
from cuarray._core import ndarray
from cuarray.random._bit_generator import BitGenerator, Philox4x3210
from cuarray.random._discrete import Distributions
from cuarray.random._sampler import any_dtype, cast, float_dtype, seed_value

F8 = numpy.dtype(numpy.float64)
I8 = numpy.dtype(numpy.int64)


class Generator(Distributions):
    """NumPy's Generator methods drawing from `bit_generator` (CuPy's Generator(bit_generator)); an integer
    seed, a sequence of them or None instead makes a Philox4x3210 keyed with seed_value(seed), the streams
    default_rng gives for that seed (an integer of 2**64 or more: Philox4x3210(seed), from its SeedSequence).
    Assigning `bit_generator` switches the stream (Note [Bit generators])."""

    def __init__(self, bit_generator=None):
        # NumPy and CuPy take an integer seed of any size, through SeedSequence: so does Philox4x3210.
        integer = isinstance(bit_generator, numbers.Integral) and not isinstance(bit_generator, bool)
        if integer and bit_generator >= 2**64:
            bit_generator = Philox4x3210(int(bit_generator))
        if not isinstance(bit_generator, BitGenerator):
            bit_generator = Philox4x3210._keyed(seed_value(bit_generator))
        self.bit_generator = bit_generator

    @property
    def _state(self):
        return self.bit_generator._state

    def _into(self, out, size, dtype, make, c_only=False):
        """make(size), or make(out.shape) written into `out`, checked as NumPy and CuPy check it: out's dtype
        must be `dtype` (TypeError), it must be contiguous (C-contiguous with `c_only`) and its shape must be
        `size` when both are given (ValueError)."""
        if out is None:
            return make(size)
        if not isinstance(out, ndarray):
            raise TypeError("out must be a cuarray.ndarray")
        if out.dtype != dtype:
            raise TypeError(
                f"Supplied output array has the wrong type. Expected {dtype.name}, got {out.dtype.name}"
            )
        if not (out.flags.c_contiguous or (out.flags.f_contiguous and not c_only)):
            raise ValueError("Supplied output array is not contiguous, writable or aligned.")
        if size is not None and tuple(numpy.atleast_1d(size)) != out.shape:
            raise ValueError("size must match out.shape when used together")
        _core._copyto(out, make(out.shape))
        return out

    def random(self, size=None, dtype=numpy.float64, out=None):
        """Uniform floats in [0, 1) of shape `size`, as `dtype` (float32 or float64), or written into
        `out`."""
        dt = float_dtype(dtype, "Unsupported dtype {dt!r} for random")
        return self._into(out, size, dt, lambda s: self._sample("uniform", s, dt, 0.0, 1.0))

    def integers(self, low, high=None, size=None, dtype=numpy.int64, endpoint=False):
        """Integers in [low, high) ([low, high] with `endpoint`); [0, low) without high."""
        if high is None:
            low, high = 0, low
        return self._integers(low, high, size, dtype, "integers", endpoint)

    def standard_normal(self, size=None, dtype=numpy.float64, out=None):
        """Standard normal floats of shape `size`, as `dtype` (float32 or float64), or written into `out`."""
        dt = float_dtype(dtype, "Unsupported dtype {dt!r} for standard_normal")
        return self._into(out, size, dt, lambda s: self._sample("normal", s, dt, 0.0, 1.0))

    def normal(self, loc=0.0, scale=1.0, size=None):
        """Samples of the normal distribution with mean `loc` and standard deviation `scale`, of shape
        `size`."""
        return self._normal(loc, scale, size, numpy.float64)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=numpy.float64):
        """Samples of the uniform distribution on [`low`, `high`), of shape `size`, as `dtype` (float64 or
        float32: CuPy's argument, which NumPy's Generator lacks)."""
        return self._uniform(low, high, size, float_dtype(dtype, "Unsupported dtype {dt!r} for uniform"))

    def exponential(self, scale=1.0, size=None):
        """Samples of the exponential distribution with mean `scale`, of shape `size`."""
        return self._exponential(scale, size, numpy.float64)

    def gamma(self, shape, scale=1.0, size=None):
        """Samples of the gamma distribution with `shape` and `scale`, of shape `size`."""
        return self._gamma(shape, scale, size, numpy.float64)

    def beta(self, a, b, size=None, dtype=numpy.float64):
        """CuPy's Generator.beta takes a dtype (any numeric one: float32 and float64 sampled so, others cast)."""
        s, dt = any_dtype(dtype, "f")
        return cast(self._beta(a, b, size, s), dt)

    def poisson(self, lam=1.0, size=None):
        """Samples of the Poisson distribution with mean `lam`, of shape `size`."""
        return self._poisson(lam, size, numpy.int64)

    def binomial(self, n, p, size=None):
        """Samples of the binomial distribution: successes in `n` trials of probability `p`, of shape
        `size`."""
        return self._binomial(n, p, size, numpy.int64)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """Samples along `axis` of `a`; without replacement the sample is always in random order."""
        return self._choice(a, size, replace, p, one_dimensional=False, axis=axis)

    def permutation(self, x, axis=0):
        """A shuffled copy of `x` along `axis`, or a permutation of ``range(x)`` for an integer."""
        return self._permutation(x, axis, legacy=False)

    def shuffle(self, x, axis=0):
        """Shuffles the device array `x` along `axis`, in place."""
        self._shuffle(x, axis)

    # ---------------------------------------------------------------- NumPy's other distributions

    def bytes(self, length):
        """`length` random bytes (a Python bytes object, read back from the device)."""
        return self._bytes(length)

    def chisquare(self, df, size=None):
        """Samples of the chi-square distribution with `df` degrees of freedom, of shape `size`."""
        return self._chisquare(df, size, F8)

    def dirichlet(self, alpha, size=None):
        """Samples of the Dirichlet distribution with concentration `alpha` (the last axis sums to 1), of
        shape `size`."""
        return self._dirichlet(alpha, size, F8, legacy=False)

    def f(self, dfnum, dfden, size=None):
        """Samples of the F distribution with `dfnum` and `dfden` degrees of freedom, of shape `size`."""
        return self._f(dfnum, dfden, size, F8)

    def geometric(self, p, size=None):
        """Samples of the geometric distribution: trials up to the first success of probability `p`, of
        shape `size`."""
        return self._geometric(p, size, I8)

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        """Samples of the Gumbel distribution with location `loc` and `scale`, of shape `size`."""
        return self._gumbel(loc, scale, size, F8)

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        """Samples of the hypergeometric distribution: good items among `nsample` drawn from `ngood` and
        `nbad`, of shape `size`."""
        return self._hypergeometric(ngood, nbad, nsample, size, I8, legacy=False)

    def laplace(self, loc=0.0, scale=1.0, size=None):
        """Samples of the Laplace distribution with location `loc` and `scale`, of shape `size`."""
        return self._laplace(loc, scale, size, F8)

    def logistic(self, loc=0.0, scale=1.0, size=None):
        """Samples of the logistic distribution with location `loc` and `scale`, of shape `size`."""
        return self._logistic(loc, scale, size, F8)

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        """Samples whose logarithm is normal with `mean` and standard deviation `sigma`, of shape `size`."""
        return self._lognormal(mean, sigma, size, F8)

    def logseries(self, p, size=None):
        """Samples of the logarithmic series distribution with parameter `p`, of shape `size`."""
        return self._logseries(p, size, I8)

    def multinomial(self, n, pvals, size=None):
        """Counts of each outcome in n trials; n and pvals[..., :-1] broadcast (int64, shape + (k,))."""
        return self._multinomial(n, pvals, size, legacy=False)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *, method="svd"):
        """Samples of the multivariate normal distribution with `mean` and covariance `cov`, of shape
        `size`."""
        return self._multivariate_normal(mean, cov, size, check_valid, tol, method, F8)

    def negative_binomial(self, n, p, size=None):
        """Samples of the negative binomial distribution: failures before `n` successes of probability `p`,
        of shape `size`."""
        return self._negative_binomial(n, p, size, I8, legacy=False)

    def noncentral_chisquare(self, df, nonc, size=None):
        """Samples of the noncentral chi-square distribution with `df` and noncentrality `nonc`, of shape
        `size`."""
        return self._noncentral_chisquare(df, nonc, size, F8)

    def noncentral_f(self, dfnum, dfden, nonc, size=None):
        """Samples of the noncentral F distribution with `dfnum`, `dfden` and noncentrality `nonc`, of
        shape `size`."""
        return self._noncentral_f(dfnum, dfden, nonc, size, F8)

    def pareto(self, a, size=None):
        """Samples of the Pareto II (Lomax) distribution with shape `a`, of shape `size`."""
        return self._pareto(a, size, F8)

    def power(self, a, size=None):
        """Samples of the power distribution with exponent `a` - 1, in [0, 1], of shape `size`."""
        return self._power(a, size, F8)

    def rayleigh(self, scale=1.0, size=None):
        """Samples of the Rayleigh distribution with `scale`, of shape `size`."""
        return self._rayleigh(scale, size, F8)

    def standard_cauchy(self, size=None):
        """Samples of the standard Cauchy distribution, of shape `size`."""
        return self._standard_cauchy(size, F8)

    def standard_exponential(self, size=None, dtype=numpy.float64, method="zig", out=None):
        """Drawn by inversion whatever `method` says (NumPy's 'zig' and 'inv' give the same law)."""
        dt = float_dtype(dtype, "Unsupported dtype {dt!r} for standard_exponential")
        return self._into(out, size, dt, lambda s: self._sample("exponential", s, dt, 1.0))

    def standard_gamma(self, shape, size=None, dtype=numpy.float64, out=None):
        """Samples of the gamma distribution with `shape` and scale 1, as `dtype`, or written into `out`."""
        dt = float_dtype(dtype, "Unsupported dtype {dt!r} for standard_gamma")
        return self._into(out, size, dt, lambda s: self._standard_gamma(shape, s, dt), c_only=True)

    def standard_t(self, df, size=None):
        """Samples of Student's t distribution with `df` degrees of freedom, of shape `size`."""
        return self._standard_t(df, size, F8)

    def triangular(self, left, mode, right, size=None):
        """Samples of the triangular distribution on [`left`, `right`] with peak `mode`, of shape `size`."""
        return self._triangular(left, mode, right, size, F8)

    def vonmises(self, mu, kappa, size=None):
        """Samples of the von Mises distribution on [-pi, pi] with mode `mu` and concentration `kappa`, of
        shape `size`."""
        return self._vonmises(mu, kappa, size, F8)

    def wald(self, mean, scale, size=None):
        """Samples of the Wald (inverse Gaussian) distribution with `mean` and `scale`, of shape `size`."""
        return self._wald(mean, scale, size, F8)

    def weibull(self, a, size=None):
        """Samples of the Weibull distribution with shape `a`, of shape `size`."""
        return self._weibull(a, size, F8)

    def zipf(self, a, size=None):
        """Samples of the Zipf distribution with exponent `a`, of shape `size`."""
        return self._zipf(a, size, I8)


def default_rng(seed=None):
    """A Generator: `seed` itself when it is one; on `seed` when it is a bit generator; else seeded with `seed`
    (a non-negative integer, a sequence of them, a numpy.random.SeedSequence, or None for fresh entropy)."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, BitGenerator):
        return Generator(seed)
    if isinstance(seed, numpy.random.SeedSequence):
        return Generator(Philox4x3210(seed))
    if isinstance(seed, numbers.Integral) and seed < 0:
        raise ValueError("expected non-negative integer")
    return Generator(seed)
