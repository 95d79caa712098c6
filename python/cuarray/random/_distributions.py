"""cuarray.random's distribution functions on the current device's RandomState (CuPy's
cupy.random._distributions)."""

import numpy

from cuarray.random._generator import get_random_state


def beta(a, b, size=None, dtype=float):
    return get_random_state().beta(a, b, size, dtype)


def binomial(n, p, size=None, dtype=numpy.int64):
    return get_random_state().binomial(n, p, size, dtype)


def chisquare(df, size=None, dtype=float):
    return get_random_state().chisquare(df, size, dtype)


def dirichlet(alpha, size=None, dtype=float):
    return get_random_state().dirichlet(alpha, size, dtype)


def exponential(scale=1.0, size=None, dtype=float):
    return get_random_state().exponential(scale, size, dtype)


def f(dfnum, dfden, size=None, dtype=float):
    return get_random_state().f(dfnum, dfden, size, dtype)


def gamma(shape, scale=1.0, size=None, dtype=float):
    return get_random_state().gamma(shape, scale, size, dtype)


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


def multivariate_normal(mean, cov, size=None, check_valid="warn", tol=1e-8, method="svd", dtype=float):
    return get_random_state().multivariate_normal(mean, cov, size, check_valid, tol, method, dtype)


def negative_binomial(n, p, size=None, dtype=numpy.int64):
    return get_random_state().negative_binomial(n, p, size, dtype)


def noncentral_chisquare(df, nonc, size=None, dtype=float):
    return get_random_state().noncentral_chisquare(df, nonc, size, dtype)


def noncentral_f(dfnum, dfden, nonc, size=None, dtype=float):
    return get_random_state().noncentral_f(dfnum, dfden, nonc, size, dtype)


def normal(loc=0.0, scale=1.0, size=None, dtype=float):
    return get_random_state().normal(loc, scale, size, dtype)


def pareto(a, size=None, dtype=float):
    return get_random_state().pareto(a, size, dtype)


def poisson(lam=1.0, size=None, dtype=numpy.int64):
    return get_random_state().poisson(lam, size, dtype)


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


def standard_normal(size=None, dtype=float):
    return get_random_state().standard_normal(size, dtype)


def standard_t(df, size=None, dtype=float):
    return get_random_state().standard_t(df, size, dtype)


def triangular(left, mode, right, size=None, dtype=float):
    return get_random_state().triangular(left, mode, right, size, dtype)


def uniform(low=0.0, high=1.0, size=None, dtype=float):
    return get_random_state().uniform(low, high, size, dtype)


def vonmises(mu, kappa, size=None, dtype=float):
    return get_random_state().vonmises(mu, kappa, size, dtype)


def wald(mean, scale, size=None, dtype=float):
    return get_random_state().wald(mean, scale, size, dtype)


def weibull(a, size=None, dtype=float):
    return get_random_state().weibull(a, size, dtype)


def zipf(a, size=None, dtype=numpy.int64):
    return get_random_state().zipf(a, size, dtype)
