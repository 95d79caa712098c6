"""cuarray.random: CuPy's random functions, generated on the device from Philox streams.

The process-wide generator of each device is seeded from CUARRAY_SEED (or CuPy's CUPY_SEED) when set, else
from fresh entropy; the same seed gives the same numbers on every run and every device of one kind.
"""

import numpy

from cuarray import _core
from cuarray.random._generator import Generator, Philox4x3210, default_rng
from cuarray.random._random_state import RandomState
from cuarray.random._sampler import environment_seed

__all__ = ["Generator", "Philox4x3210", "RandomState", "beta", "binomial", "bytes", "chisquare", "choice",
           "default_rng", "dirichlet", "exponential", "f", "gamma", "geometric", "get_random_state",
           "gumbel", "hypergeometric", "laplace", "logistic", "lognormal", "logseries", "multinomial",
           "multivariate_normal", "negative_binomial", "noncentral_chisquare", "noncentral_f", "normal",
           "pareto", "permutation", "poisson", "power", "rand", "randint", "randn", "random",
           "random_integers", "random_sample", "ranf", "rayleigh", "reset_states", "sample", "seed",
           "set_random_state", "shuffle", "standard_cauchy", "standard_exponential", "standard_gamma",
           "standard_normal", "standard_t", "triangular", "uniform", "vonmises", "wald", "weibull", "zipf"]

_states = {}  # device id -> RandomState


def get_random_state():
    """The current device's process-wide RandomState."""
    device = _core.cuda.current_device()
    state = _states.get(device)
    if state is None:
        state = _states[device] = RandomState(environment_seed())
    return state


def set_random_state(rs):
    """Makes `rs` the current device's process-wide RandomState."""
    if not isinstance(rs, RandomState):
        raise TypeError(f"set_random_state takes a RandomState, not {type(rs).__name__}")
    _states[_core.cuda.current_device()] = rs


def reset_states():
    """Forgets every device's RandomState; the next use seeds a new one from the environment."""
    _states.clear()


def seed(seed=None):
    """Reseeds the current device's RandomState (None: fresh entropy)."""
    get_random_state().seed(seed)


def rand(*size, dtype=float):
    return get_random_state().rand(*size, dtype=dtype)


def randn(*size, dtype=float):
    return get_random_state().randn(*size, dtype=dtype)


def random_sample(size=None, dtype=float):
    return get_random_state().random_sample(size, dtype)


random = ranf = sample = random_sample


def uniform(low=0.0, high=1.0, size=None, dtype=float):
    return get_random_state().uniform(low, high, size, dtype)


def normal(loc=0.0, scale=1.0, size=None, dtype=float):
    return get_random_state().normal(loc, scale, size, dtype)


def standard_normal(size=None, dtype=float):
    return get_random_state().standard_normal(size, dtype)


def exponential(scale=1.0, size=None, dtype=float):
    return get_random_state().exponential(scale, size, dtype)


def gamma(shape, scale=1.0, size=None, dtype=float):
    return get_random_state().gamma(shape, scale, size, dtype)


def beta(a, b, size=None, dtype=float):
    return get_random_state().beta(a, b, size, dtype)


def poisson(lam=1.0, size=None, dtype=numpy.int64):
    return get_random_state().poisson(lam, size, dtype)


def binomial(n, p, size=None, dtype=numpy.int64):
    return get_random_state().binomial(n, p, size, dtype)


def randint(low, high=None, size=None, dtype=numpy.int64):
    return get_random_state().randint(low, high, size, dtype)


def random_integers(low, high=None, size=None):
    return get_random_state().random_integers(low, high, size)


def choice(a, size=None, replace=True, p=None):
    return get_random_state().choice(a, size, replace, p)


def permutation(x):
    return get_random_state().permutation(x)


def shuffle(x):
    get_random_state().shuffle(x)


def chisquare(df, size=None, dtype=float):
    return get_random_state().chisquare(df, size, dtype)


def dirichlet(alpha, size=None, dtype=float):
    return get_random_state().dirichlet(alpha, size, dtype)


def f(dfnum, dfden, size=None, dtype=float):
    return get_random_state().f(dfnum, dfden, size, dtype)


def geometric(p, size=None, dtype=numpy.int64):
    return get_random_state().geometric(p, size, dtype)


def gumbel(loc=0.0, scale=1.0, size=None, dtype=float):
    return get_random_state().gumbel(loc, scale, size, dtype)


def hypergeometric(ngood, nbad, nsample, size=None, dtype=numpy.int64):
    return get_random_state().hypergeometric(ngood, nbad, nsample, size, dtype)


def laplace(loc=0.0, scale=1.0, size=None, dtype=float):
    return get_random_state().laplace(loc, scale, size, dtype)


def logistic(loc=0.0, scale=1.0, size=None, dtype=float):
    return get_random_state().logistic(loc, scale, size, dtype)


def lognormal(mean=0.0, sigma=1.0, size=None, dtype=float):
    return get_random_state().lognormal(mean, sigma, size, dtype)


def logseries(p, size=None, dtype=numpy.int64):
    return get_random_state().logseries(p, size, dtype)


def multinomial(n, pvals, size=None):
    return get_random_state().multinomial(n, pvals, size)


def multivariate_normal(mean, cov, size=None, check_valid="warn", tol=1e-8, method="svd", dtype=float):
    return get_random_state().multivariate_normal(mean, cov, size, check_valid, tol, method, dtype)


def negative_binomial(n, p, size=None, dtype=numpy.int64):
    return get_random_state().negative_binomial(n, p, size, dtype)


def noncentral_chisquare(df, nonc, size=None, dtype=float):
    return get_random_state().noncentral_chisquare(df, nonc, size, dtype)


def noncentral_f(dfnum, dfden, nonc, size=None, dtype=float):
    return get_random_state().noncentral_f(dfnum, dfden, nonc, size, dtype)


def pareto(a, size=None, dtype=float):
    return get_random_state().pareto(a, size, dtype)


def power(a, size=None, dtype=float):
    return get_random_state().power(a, size, dtype)


def rayleigh(scale=1.0, size=None, dtype=float):
    return get_random_state().rayleigh(scale, size, dtype)


def standard_cauchy(size=None, dtype=float):
    return get_random_state().standard_cauchy(size, dtype)


def standard_exponential(size=None, dtype=float):
    return get_random_state().standard_exponential(size, dtype)


def standard_gamma(shape, size=None, dtype=float):
    return get_random_state().standard_gamma(shape, size, dtype)


def standard_t(df, size=None, dtype=float):
    return get_random_state().standard_t(df, size, dtype)


def triangular(left, mode, right, size=None, dtype=float):
    return get_random_state().triangular(left, mode, right, size, dtype)


def vonmises(mu, kappa, size=None, dtype=float):
    return get_random_state().vonmises(mu, kappa, size, dtype)


def wald(mean, scale, size=None, dtype=float):
    return get_random_state().wald(mean, scale, size, dtype)


def weibull(a, size=None, dtype=float):
    return get_random_state().weibull(a, size, dtype)


def zipf(a, size=None, dtype=numpy.int64):
    return get_random_state().zipf(a, size, dtype)


def bytes(length):
    """`length` random bytes from the current device's RandomState."""
    return get_random_state().bytes(length)
