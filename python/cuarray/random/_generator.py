"""RandomState (CuPy's and NumPy's legacy sampling methods, generated on the device) and the process-wide
RandomState of each device (get_random_state, set_random_state, reset_states, seed), laid out as CuPy's
cupy.random._generator."""

import operator
import threading

import numpy

from cuarray import _core
from cuarray.random._discrete import Distributions
from cuarray.random._sampler import any_dtype, cast, environment_seed, float_dtype

_FLOAT_ONLY = "cuarray.random only supports float32 and float64 (got {dt})"
_UINT32_MAX = 2**32 - 1


def _float(dtype):
    return float_dtype(dtype, _FLOAT_ONLY)


def _check_and_get_dtype(dtype):
    """`dtype` as a numpy.dtype when it is float32 or float64, else TypeError (CuPy's check of the dtypes its
    float samplers make)."""
    return _float(dtype)


class RandomState(Distributions):
    """A Philox generator seeded with `seed` (an integer in [0, 2**64), a 1-d sequence of them, or None for fresh
    entropy). The same seed gives the same numbers on every run and every device of one kind.

    Note [RandomState output dtypes]
    ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    `dtype=` follows CuPy's RandomState method by method. The methods CuPy builds on cuRAND's float generators
    (random_sample, rand, randn, uniform, normal, standard_normal, lognormal, exponential, standard_exponential,
    gumbel, laplace, logistic, pareto, power, rayleigh, weibull, standard_cauchy, triangular, wald,
    multivariate_normal) take float32 or float64 only (TypeError otherwise). The ones whose CuPy kernel stores
    into an array of the asked dtype (beta, gamma, standard_gamma, chisquare, f, noncentral_chisquare,
    noncentral_f, standard_t, vonmises, dirichlet; binomial, poisson, geometric, negative_binomial, zipf,
    logseries, hypergeometric) take any numeric dtype: a dtype the sampler does not make is drawn as float64
    (int64 for counts) and cast (_sampler.any_dtype). float32 and float64 draws are unchanged by this, so seeds
    keep their numbers.
    """

    def __init__(self, seed=None, method=None):
        """`method` names a cuRAND generator in CuPy; every cuarray sample comes from Philox streams (Note [Bit
        generators]), so it is kept as `self.method` and unused."""
        super().__init__(seed)
        self.method = method

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
        """Uniform floats in [0, 1) of shape `size` (given as separate integers), as `dtype`."""
        return self.random_sample(size, dtype)

    def randn(self, *size, dtype=float):
        """Standard normal floats of shape `size` (given as separate integers), as `dtype`."""
        return self.standard_normal(size, dtype)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=float):
        """Samples of the uniform distribution on [`low`, `high`), of shape `size`, as `dtype` (Note
        [RandomState output dtypes])."""
        return self._uniform(low, high, size, _float(dtype))

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=float):
        """Samples of the normal distribution with mean `loc` and standard deviation `scale`, of shape
        `size`, as `dtype` (Note [RandomState output dtypes])."""
        return self._normal(loc, scale, size, _float(dtype))

    def standard_normal(self, size=None, dtype=float):
        """Samples of the normal distribution with mean 0 and standard deviation 1, of shape `size`, as
        `dtype` (Note [RandomState output dtypes])."""
        return self._sample("normal", size, _float(dtype), 0.0, 1.0)

    def exponential(self, scale=1.0, size=None, dtype=float):
        """Samples of the exponential distribution with mean `scale`, of shape `size`, as `dtype` (Note
        [RandomState output dtypes])."""
        return self._exponential(scale, size, _float(dtype))

    def gamma(self, shape, scale=1.0, size=None, dtype=float):
        """Samples of the gamma distribution with `shape` and `scale`, of shape `size`, as `dtype` (Note
        [RandomState output dtypes])."""
        s, dt = any_dtype(dtype, "f")
        return cast(self._gamma(shape, scale, size, s), dt)

    def beta(self, a, b, size=None, dtype=float):
        """Samples of the beta distribution with parameters `a` and `b`, of shape `size`, as `dtype` (Note
        [RandomState output dtypes])."""
        s, dt = any_dtype(dtype, "f")
        return cast(self._beta(a, b, size, s), dt)

    def poisson(self, lam=1.0, size=None, dtype=numpy.int64):
        """Samples of the Poisson distribution with mean `lam`, of shape `size`, as `dtype` (Note
        [RandomState output dtypes])."""
        s, dt = any_dtype(dtype, "i")
        return cast(self._poisson(lam, size, s), dt)

    def binomial(self, n, p, size=None, dtype=numpy.int64):
        """Samples of the binomial distribution: successes in `n` trials of probability `p`, of shape
        `size`, as `dtype` (Note [RandomState output dtypes])."""
        s, dt = any_dtype(dtype, "i")
        return cast(self._binomial(n, p, size, s), dt)

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
        """A random sample from `a` (a 1-D array, or ``arange(a)`` for an integer), with or without
        replacement, with probabilities `p`."""
        return self._choice(a, size, replace, p, one_dimensional=True)

    def permutation(self, x):
        """A shuffled copy of `x` along axis 0, or a permutation of range(x) for an integer."""
        return self._permutation(x, 0, legacy=True)

    def shuffle(self, x):
        """Shuffles the device array `x` along axis 0, in place."""
        self._shuffle(x, 0)

    # ---------------------------------------------------------------- NumPy's other distributions

    def chisquare(self, df, size=None, dtype=float):
        """Samples of the chi-square distribution with `df` degrees of freedom, of shape `size`, as `dtype`
        (Note [RandomState output dtypes])."""
        s, dt = any_dtype(dtype, "f")
        return cast(self._chisquare(df, size, s), dt)

    def dirichlet(self, alpha, size=None, dtype=float):
        """Samples of the Dirichlet distribution with concentration `alpha` (the last axis sums to 1), of
        shape `size`, as `dtype` (Note [RandomState output dtypes])."""
        s, dt = any_dtype(dtype, "f")
        return cast(self._dirichlet(alpha, size, s, legacy=True), dt)

    def f(self, dfnum, dfden, size=None, dtype=float):
        """Samples of the F distribution with `dfnum` and `dfden` degrees of freedom, of shape `size`, as
        `dtype` (Note [RandomState output dtypes])."""
        s, dt = any_dtype(dtype, "f")
        return cast(self._f(dfnum, dfden, size, s), dt)

    def geometric(self, p, size=None, dtype=numpy.int64):
        """Samples of the geometric distribution: trials up to the first success of probability `p`, of
        shape `size`, as `dtype` (Note [RandomState output dtypes])."""
        s, dt = any_dtype(dtype, "i")
        return cast(self._geometric(p, size, s), dt)

    def gumbel(self, loc=0.0, scale=1.0, size=None, dtype=float):
        """Samples of the Gumbel distribution with location `loc` and `scale`, of shape `size`, as `dtype`
        (Note [RandomState output dtypes])."""
        return self._gumbel(loc, scale, size, _float(dtype))

    def hypergeometric(self, ngood, nbad, nsample, size=None, dtype=numpy.int64):
        """Samples of the hypergeometric distribution: good items among `nsample` drawn from `ngood` and
        `nbad`, of shape `size`, as `dtype` (Note [RandomState output dtypes])."""
        s, dt = any_dtype(dtype, "i")
        return cast(self._hypergeometric(ngood, nbad, nsample, size, s, legacy=True), dt)

    def laplace(self, loc=0.0, scale=1.0, size=None, dtype=float):
        """Samples of the Laplace distribution with location `loc` and `scale`, of shape `size`, as `dtype`
        (Note [RandomState output dtypes])."""
        return self._laplace(loc, scale, size, _float(dtype))

    def logistic(self, loc=0.0, scale=1.0, size=None, dtype=float):
        """Samples of the logistic distribution with location `loc` and `scale`, of shape `size`, as
        `dtype` (Note [RandomState output dtypes])."""
        return self._logistic(loc, scale, size, _float(dtype))

    def lognormal(self, mean=0.0, sigma=1.0, size=None, dtype=float):
        """Samples whose logarithm is normal with `mean` and standard deviation `sigma`, of shape `size`,
        as `dtype` (Note [RandomState output dtypes])."""
        return self._lognormal(mean, sigma, size, _float(dtype))

    def logseries(self, p, size=None, dtype=numpy.int64):
        """Samples of the logarithmic series distribution with parameter `p`, of shape `size`, as `dtype`
        (Note [RandomState output dtypes])."""
        s, dt = any_dtype(dtype, "i")
        return cast(self._logseries(p, size, s), dt)

    def multinomial(self, n, pvals, size=None):
        """Counts of each of len(pvals) outcomes in n trials (int64, shape size + (len(pvals),))."""
        return self._multinomial(n, pvals, size, legacy=True)

    def multivariate_normal(
        self, mean, cov, size=None, check_valid="warn", tol=1e-8, method="svd", dtype=float
    ):
        """NumPy's check_valid and tol; CuPy's method ('svd', NumPy's, 'eigh' or 'cholesky') and dtype."""
        return self._multivariate_normal(mean, cov, size, check_valid, tol, method, _float(dtype))

    def negative_binomial(self, n, p, size=None, dtype=numpy.int64):
        """Samples of the negative binomial distribution: failures before `n` successes of probability `p`,
        of shape `size`, as `dtype` (Note [RandomState output dtypes])."""
        s, dt = any_dtype(dtype, "i")
        return cast(self._negative_binomial(n, p, size, s, legacy=True), dt)

    def noncentral_chisquare(self, df, nonc, size=None, dtype=float):
        """Samples of the noncentral chi-square distribution with `df` and noncentrality `nonc`, of shape
        `size`, as `dtype` (Note [RandomState output dtypes])."""
        s, dt = any_dtype(dtype, "f")
        return cast(self._noncentral_chisquare(df, nonc, size, s), dt)

    def noncentral_f(self, dfnum, dfden, nonc, size=None, dtype=float):
        """Samples of the noncentral F distribution with `dfnum`, `dfden` and noncentrality `nonc`, of
        shape `size`, as `dtype` (Note [RandomState output dtypes])."""
        s, dt = any_dtype(dtype, "f")
        return cast(self._noncentral_f(dfnum, dfden, nonc, size, s), dt)

    def pareto(self, a, size=None, dtype=float):
        """Samples of the Pareto II (Lomax) distribution with shape `a`, of shape `size`, as `dtype` (Note
        [RandomState output dtypes])."""
        return self._pareto(a, size, _float(dtype))

    def power(self, a, size=None, dtype=float):
        """Samples of the power distribution with exponent `a` - 1, in [0, 1], of shape `size`, as `dtype`
        (Note [RandomState output dtypes])."""
        return self._power(a, size, _float(dtype))

    def rayleigh(self, scale=1.0, size=None, dtype=float):
        """Samples of the Rayleigh distribution with `scale`, of shape `size`, as `dtype` (Note
        [RandomState output dtypes])."""
        return self._rayleigh(scale, size, _float(dtype))

    def standard_cauchy(self, size=None, dtype=float):
        """Samples of the standard Cauchy distribution, of shape `size`, as `dtype` (Note [RandomState
        output dtypes])."""
        return self._standard_cauchy(size, _float(dtype))

    def standard_exponential(self, size=None, dtype=float):
        """Samples of the exponential distribution with mean 1, of shape `size`, as `dtype` (Note
        [RandomState output dtypes])."""
        return self._sample("exponential", size, _float(dtype), 1.0)

    def standard_gamma(self, shape, size=None, dtype=float):
        """Samples of the gamma distribution with `shape` and scale 1, of shape `size`, as `dtype` (Note
        [RandomState output dtypes])."""
        s, dt = any_dtype(dtype, "f")
        return cast(self._standard_gamma(shape, size, s), dt)

    def standard_t(self, df, size=None, dtype=float):
        """Samples of Student's t distribution with `df` degrees of freedom, of shape `size`, as `dtype`
        (Note [RandomState output dtypes])."""
        s, dt = any_dtype(dtype, "f")
        return cast(self._standard_t(df, size, s), dt)

    def triangular(self, left, mode, right, size=None, dtype=float):
        """Samples of the triangular distribution on [`left`, `right`] with peak `mode`, of shape `size`,
        as `dtype` (Note [RandomState output dtypes])."""
        return self._triangular(left, mode, right, size, _float(dtype))

    def vonmises(self, mu, kappa, size=None, dtype=float):
        """Samples of the von Mises distribution on [-pi, pi] with mode `mu` and concentration `kappa`, of
        shape `size`, as `dtype` (Note [RandomState output dtypes])."""
        s, dt = any_dtype(dtype, "f")
        return cast(self._vonmises(mu, kappa, size, s), dt)

    def wald(self, mean, scale, size=None, dtype=float):
        """Samples of the Wald (inverse Gaussian) distribution with `mean` and `scale`, of shape `size`, as
        `dtype` (Note [RandomState output dtypes])."""
        return self._wald(mean, scale, size, _float(dtype))

    def weibull(self, a, size=None, dtype=float):
        """Samples of the Weibull distribution with shape `a`, of shape `size`, as `dtype` (Note
        [RandomState output dtypes])."""
        return self._weibull(a, size, _float(dtype))

    def zipf(self, a, size=None, dtype=numpy.int64):
        """Samples of the Zipf distribution with exponent `a`, of shape `size`, as `dtype` (Note
        [RandomState output dtypes])."""
        s, dt = any_dtype(dtype, "i")
        return cast(self._zipf(a, size, s), dt)

    def tomaxint(self, size=None):
        """Uniform integers in ``[0, numpy.iinfo(numpy.int_).max]`` (``int_``, the C long)."""
        info = numpy.iinfo(numpy.int_)
        return self._integers(0, info.max, size, numpy.int_, "tomaxint", endpoint=True)

    def _interval(self, mx, size):
        """CuPy's RandomState._interval: uniform integers in [0, mx], uint32 for mx < 2**32 else uint64."""
        mx = operator.index(mx)
        if mx < 0:
            raise ValueError(f"mx must be non-negative (actual: {mx})")
        if mx >= 2**64:
            raise ValueError(f"mx must be within uint64 range (actual: {mx})")
        dtype = numpy.uint32 if mx <= _UINT32_MAX else numpy.uint64
        return self._integers(0, mx, size, dtype, "_interval", endpoint=True)

    def bytes(self, length):
        """`length` random bytes (a Python bytes object, read back from the device)."""
        return self._bytes(length)


# ---------------------------------------------------------------- the process-wide RandomState of each device

_random_states = {}  # device id -> RandomState
_lock = threading.Lock()


def get_random_state():
    """The current device's process-wide RandomState, made on first use and seeded from the environment
    (CUARRAY_SEED, or CuPy's CUPY_SEED) or fresh entropy."""
    device = _core.cuda.current_device()
    state = _random_states.get(device)
    if state is None:
        with _lock:  # one RandomState per device however many threads ask first
            state = _random_states.get(device)
            if state is None:
                state = _random_states[device] = RandomState(environment_seed())
    return state


def set_random_state(rs):
    """Makes `rs` the current device's process-wide RandomState."""
    if not isinstance(rs, RandomState):
        raise TypeError(f"set_random_state takes a RandomState, not {type(rs).__name__}")
    _random_states[_core.cuda.current_device()] = rs


def reset_states():
    """Forgets every device's RandomState; the next use seeds a new one from the environment."""
    global _random_states
    _random_states = {}


def seed(seed=None):
    """Reseeds the current device's RandomState (None: fresh entropy)."""
    get_random_state().seed(seed)
