"""cuarray.random's distribution functions on the current device's RandomState (CuPy's
cupy.random._distributions)."""

import numpy

from cuarray.random._generator import get_random_state


def beta(a, b, size=None, dtype=float):
    """Samples of the beta distribution with parameters `a` and `b`, on the current device's RandomState,
    as its method of the same name (``get_random_state().beta``)."""
    return get_random_state().beta(a, b, size, dtype)


def binomial(n, p, size=None, dtype=numpy.int64):
    """Samples of the binomial distribution: successes in `n` trials of probability `p`, on the current
    device's RandomState, as its method of the same name (``get_random_state().binomial``)."""
    return get_random_state().binomial(n, p, size, dtype)


def chisquare(df, size=None, dtype=float):
    """Samples of the chi-square distribution with `df` degrees of freedom, on the current device's
    RandomState, as its method of the same name (``get_random_state().chisquare``)."""
    return get_random_state().chisquare(df, size, dtype)


def dirichlet(alpha, size=None, dtype=float):
    """Samples of the Dirichlet distribution with concentration `alpha` (the last axis sums to 1), on the
    current device's RandomState, as its method of the same name (``get_random_state().dirichlet``)."""
    return get_random_state().dirichlet(alpha, size, dtype)


def exponential(scale=1.0, size=None, dtype=float):
    """Samples of the exponential distribution with mean `scale`, on the current device's RandomState, as
    its method of the same name (``get_random_state().exponential``)."""
    return get_random_state().exponential(scale, size, dtype)


def f(dfnum, dfden, size=None, dtype=float):
    """Samples of the F distribution with `dfnum` and `dfden` degrees of freedom, on the current device's
    RandomState, as its method of the same name (``get_random_state().f``)."""
    return get_random_state().f(dfnum, dfden, size, dtype)


def gamma(shape, scale=1.0, size=None, dtype=float):
    """Samples of the gamma distribution with `shape` and `scale`, on the current device's RandomState, as
    its method of the same name (``get_random_state().gamma``)."""
    return get_random_state().gamma(shape, scale, size, dtype)


def geometric(p, size=None, dtype=numpy.int64):
    """Samples of the geometric distribution: trials up to the first success of probability `p`, on the
    current device's RandomState, as its method of the same name (``get_random_state().geometric``)."""
    return get_random_state().geometric(p, size, dtype)


def gumbel(loc=0.0, scale=1.0, size=None, dtype=float):
    """Samples of the Gumbel distribution with location `loc` and `scale`, on the current device's
    RandomState, as its method of the same name (``get_random_state().gumbel``)."""
    return get_random_state().gumbel(loc, scale, size, dtype)


def hypergeometric(ngood, nbad, nsample, size=None, dtype=numpy.int64):
    """Samples of the hypergeometric distribution: good items among `nsample` drawn from `ngood` and
    `nbad`, on the current device's RandomState, as its method of the same name
    (``get_random_state().hypergeometric``)."""
    return get_random_state().hypergeometric(ngood, nbad, nsample, size, dtype)


def laplace(loc=0.0, scale=1.0, size=None, dtype=float):
    """Samples of the Laplace distribution with location `loc` and `scale`, on the current device's
    RandomState, as its method of the same name (``get_random_state().laplace``)."""
    return get_random_state().laplace(loc, scale, size, dtype)


def logistic(loc=0.0, scale=1.0, size=None, dtype=float):
    """Samples of the logistic distribution with location `loc` and `scale`, on the current device's
    RandomState, as its method of the same name (``get_random_state().logistic``)."""
    return get_random_state().logistic(loc, scale, size, dtype)


def lognormal(mean=0.0, sigma=1.0, size=None, dtype=float):
    """Samples whose logarithm is normal with `mean` and standard deviation `sigma`, on the current
    device's RandomState, as its method of the same name (``get_random_state().lognormal``)."""
    return get_random_state().lognormal(mean, sigma, size, dtype)


def logseries(p, size=None, dtype=numpy.int64):
    """Samples of the logarithmic series distribution with parameter `p`, on the current device's
    RandomState, as its method of the same name (``get_random_state().logseries``)."""
    return get_random_state().logseries(p, size, dtype)


def multivariate_normal(mean, cov, size=None, check_valid="warn", tol=1e-8, method="svd", dtype=float):
    """Samples of the multivariate normal distribution with `mean` and covariance `cov`, on the current
    device's RandomState, as its method of the same name (``get_random_state().multivariate_normal``)."""
    return get_random_state().multivariate_normal(mean, cov, size, check_valid, tol, method, dtype)


def negative_binomial(n, p, size=None, dtype=numpy.int64):
    """Samples of the negative binomial distribution: failures before `n` successes of probability `p`, on
    the current device's RandomState, as its method of the same name
    (``get_random_state().negative_binomial``)."""
    return get_random_state().negative_binomial(n, p, size, dtype)


def noncentral_chisquare(df, nonc, size=None, dtype=float):
    """Samples of the noncentral chi-square distribution with `df` and noncentrality `nonc`, on the current
    device's RandomState, as its method of the same name (``get_random_state().noncentral_chisquare``)."""
    return get_random_state().noncentral_chisquare(df, nonc, size, dtype)


def noncentral_f(dfnum, dfden, nonc, size=None, dtype=float):
    """Samples of the noncentral F distribution with `dfnum`, `dfden` and noncentrality `nonc`, on the
    current device's RandomState, as its method of the same name (``get_random_state().noncentral_f``)."""
    return get_random_state().noncentral_f(dfnum, dfden, nonc, size, dtype)


def normal(loc=0.0, scale=1.0, size=None, dtype=float):
    """Samples of the normal distribution with mean `loc` and standard deviation `scale`, on the current
    device's RandomState, as its method of the same name (``get_random_state().normal``)."""
    return get_random_state().normal(loc, scale, size, dtype)


def pareto(a, size=None, dtype=float):
    """Samples of the Pareto II (Lomax) distribution with shape `a`, on the current device's RandomState,
    as its method of the same name (``get_random_state().pareto``)."""
    return get_random_state().pareto(a, size, dtype)


def poisson(lam=1.0, size=None, dtype=numpy.int64):
    """Samples of the Poisson distribution with mean `lam`, on the current device's RandomState, as its
    method of the same name (``get_random_state().poisson``)."""
    return get_random_state().poisson(lam, size, dtype)


def power(a, size=None, dtype=float):
    """Samples of the power distribution with exponent `a` - 1, in [0, 1], on the current device's
    RandomState, as its method of the same name (``get_random_state().power``)."""
    return get_random_state().power(a, size, dtype)


def rayleigh(scale=1.0, size=None, dtype=float):
    """Samples of the Rayleigh distribution with `scale`, on the current device's RandomState, as its
    method of the same name (``get_random_state().rayleigh``)."""
    return get_random_state().rayleigh(scale, size, dtype)


def standard_cauchy(size=None, dtype=float):
    """Samples of the standard Cauchy distribution, on the current device's RandomState, as its method of
    the same name (``get_random_state().standard_cauchy``)."""
    return get_random_state().standard_cauchy(size, dtype)


def standard_exponential(size=None, dtype=float):
    """Samples of the exponential distribution with mean 1, on the current device's RandomState, as its
    method of the same name (``get_random_state().standard_exponential``)."""
    return get_random_state().standard_exponential(size, dtype)


def standard_gamma(shape, size=None, dtype=float):
    """Samples of the gamma distribution with `shape` and scale 1, on the current device's RandomState, as
    its method of the same name (``get_random_state().standard_gamma``)."""
    return get_random_state().standard_gamma(shape, size, dtype)


def standard_normal(size=None, dtype=float):
    """Samples of the normal distribution with mean 0 and standard deviation 1, on the current device's
    RandomState, as its method of the same name (``get_random_state().standard_normal``)."""
    return get_random_state().standard_normal(size, dtype)


def standard_t(df, size=None, dtype=float):
    """Samples of Student's t distribution with `df` degrees of freedom, on the current device's
    RandomState, as its method of the same name (``get_random_state().standard_t``)."""
    return get_random_state().standard_t(df, size, dtype)


def triangular(left, mode, right, size=None, dtype=float):
    """Samples of the triangular distribution on [`left`, `right`] with peak `mode`, on the current
    device's RandomState, as its method of the same name (``get_random_state().triangular``)."""
    return get_random_state().triangular(left, mode, right, size, dtype)


def uniform(low=0.0, high=1.0, size=None, dtype=float):
    """Samples of the uniform distribution on [`low`, `high`), on the current device's RandomState, as its
    method of the same name (``get_random_state().uniform``)."""
    return get_random_state().uniform(low, high, size, dtype)


def vonmises(mu, kappa, size=None, dtype=float):
    """Samples of the von Mises distribution on [-pi, pi] with mode `mu` and concentration `kappa`, on the
    current device's RandomState, as its method of the same name (``get_random_state().vonmises``)."""
    return get_random_state().vonmises(mu, kappa, size, dtype)


def wald(mean, scale, size=None, dtype=float):
    """Samples of the Wald (inverse Gaussian) distribution with `mean` and `scale`, on the current device's
    RandomState, as its method of the same name (``get_random_state().wald``)."""
    return get_random_state().wald(mean, scale, size, dtype)


def weibull(a, size=None, dtype=float):
    """Samples of the Weibull distribution with shape `a`, on the current device's RandomState, as its
    method of the same name (``get_random_state().weibull``)."""
    return get_random_state().weibull(a, size, dtype)


def zipf(a, size=None, dtype=numpy.int64):
    """Samples of the Zipf distribution with exponent `a`, on the current device's RandomState, as its
    method of the same name (``get_random_state().zipf``)."""
    return get_random_state().zipf(a, size, dtype)
