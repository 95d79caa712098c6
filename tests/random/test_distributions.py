"""cuarray.random's distributions built from the core samplers (chisquare ... zipf, multinomial,
multivariate_normal, bytes): each against its law (Kolmogorov-Smirnov or chi-square tests and moments, on one
sample per test drawn with a fixed seed, so each test is deterministic), shapes, dtypes and broadcasting, special
parameter values, NumPy's parameter errors, and reproducibility."""

import math
import re
import warnings

import cuarray as cp
import numpy as np
import pytest
from scipy import stats
from test_random import chisquare_merged, ks

pytestmark = pytest.mark.gpu

N = 200_000
P_MIN = 1e-5  # a correct sampler fails one test with this probability (the seeds are fixed)


def host(x):
    assert isinstance(x, cp.ndarray)
    return cp.asnumpy(x)


def make(api, seed=7):
    return cp.random.RandomState(seed) if api == "RandomState" else cp.random.default_rng(seed)


def chi2_discrete(sample, dist, width=20_000):
    """Chi-square p-value of an integer sample against a scipy distribution: one bin per value from the sample's
    lowest to at most `width` values above, a bin for all below and one for all above; bins expecting fewer than
    5 merged into the next."""
    assert sample.min() >= dist.support()[0]
    lo = int(sample.min())
    hi = int(min(sample.max(), lo + width))
    observed = np.bincount(np.clip(sample, lo - 1, hi + 1) - (lo - 1), minlength=hi - lo + 3).astype(
        np.float64
    )
    expected = np.concatenate([[dist.cdf(lo - 1)], dist.pmf(np.arange(lo, hi + 1)), [dist.sf(hi)]]) * len(
        sample
    )
    return chisquare_merged(observed, expected)


def check_moments(x, dist, k=6.0):
    """Sample mean and variance within k standard errors of the law's, where its fourth moment is finite."""
    mean, var, kurt = (float(v) for v in dist.stats(moments="mvk"))
    if not all(map(math.isfinite, (mean, var, kurt))):
        return
    n = len(x)
    assert abs(x.mean() - mean) < k * math.sqrt(var / n), (x.mean(), mean)
    # (mu4 - var**2) / n with mu4 = (kurt + 3) var**2; the second term is the estimator's O(1/n) part, which
    # is all there is for a two-point law (kurt = -2).
    tol = k * math.sqrt(max(kurt + 2, 0.0) / n) * var + k * k * var / n
    assert abs(x.var() - var) < tol, (x.var(), var)


def wrapped(x):
    return (x + np.pi) % (2 * np.pi) - np.pi


# ---------------------------------------------------------------- continuous laws

CONTINUOUS = [
    ("chisquare", (0.5,), stats.chi2(0.5)),
    ("chisquare", (7.0,), stats.chi2(7)),
    ("f", (5.0, 12.0), stats.f(5, 12)),
    ("standard_t", (3.0,), stats.t(3)),
    ("standard_t", (0.7,), stats.t(0.7)),
    ("standard_t", (30.0,), stats.t(30)),
    ("noncentral_chisquare", (0.5, 2.0), stats.ncx2(0.5, 2.0)),
    ("noncentral_chisquare", (4.0, 10.0), stats.ncx2(4, 10)),
    ("noncentral_f", (3.0, 20.0, 3.0), stats.ncf(3, 20, 3)),
    ("gumbel", (1.0, 2.0), stats.gumbel_r(1, 2)),
    ("laplace", (-1.0, 0.5), stats.laplace(-1, 0.5)),
    ("logistic", (2.0, 3.0), stats.logistic(2, 3)),
    ("lognormal", (0.5, 0.75), stats.lognorm(0.75, scale=math.exp(0.5))),
    ("rayleigh", (2.0,), stats.rayleigh(scale=2)),
    ("weibull", (0.5,), stats.weibull_min(0.5)),
    ("weibull", (3.0,), stats.weibull_min(3)),
    ("pareto", (3.0,), stats.lomax(3)),
    ("pareto", (10.0,), stats.lomax(10)),
    ("power", (0.3,), stats.powerlaw(0.3)),
    ("power", (5.0,), stats.powerlaw(5)),
    ("standard_cauchy", (), stats.cauchy()),
    ("standard_exponential", (), stats.expon()),
    ("standard_gamma", (0.3,), stats.gamma(0.3)),
    ("standard_gamma", (4.0,), stats.gamma(4)),
    ("triangular", (-1.0, 0.5, 3.0), stats.triang(1.5 / 4, loc=-1, scale=4)),
    ("triangular", (0.0, 0.0, 2.0), stats.triang(0.0, loc=0, scale=2)),
    ("triangular", (0.0, 2.0, 2.0), stats.triang(1.0, loc=0, scale=2)),
    ("vonmises", (0.0, 0.5), stats.vonmises(0.5)),
    ("vonmises", (0.0, 8.0), stats.vonmises(8.0)),
    ("vonmises", (0.0, 1e-6), stats.vonmises(1e-6)),  # below 1e-5: s from the Taylor expansion
    ("vonmises", (0.0, 1e-9), stats.uniform(-np.pi, 2 * np.pi)),
    ("wald", (1.0, 3.0), stats.invgauss(1 / 3, scale=3)),
    ("wald", (2.0, 0.05), stats.invgauss(40, scale=0.05)),  # Y >> scale: the root without cancellation
]


def _id(case):
    return f"{case[0]}{case[1]}"


@pytest.mark.parametrize("api", ["RandomState", "Generator"])
@pytest.mark.parametrize("case", CONTINUOUS, ids=_id)
def test_continuous_law(case, api):
    name, args, dist = case
    x = host(getattr(make(api), name)(*args, size=N))
    assert x.shape == (N,) and x.dtype == np.float64
    assert np.isfinite(x).all()
    assert ks(x, dist.cdf) > P_MIN
    check_moments(x, dist)


@pytest.mark.parametrize("case", CONTINUOUS[::3], ids=_id)
def test_continuous_float32(case):
    name, args, dist = case
    x = host(getattr(cp.random.RandomState(3), name)(*args, size=N, dtype=np.float32))
    assert x.dtype == np.float32 and x.shape == (N,)
    assert ks(x, dist.cdf) > P_MIN


@pytest.mark.parametrize("mu", [2.5, -3.0, 10.0])
def test_vonmises_wraps_around_the_circle(mu):
    x = host(cp.random.RandomState(5).vonmises(mu, 3.0, size=N))
    assert x.min() >= -np.pi and x.max() <= np.pi
    assert ks(wrapped(x - mu), stats.vonmises(3.0).cdf) > P_MIN


def test_vonmises_large_kappa_is_a_wrapped_normal():
    x = host(cp.random.RandomState(5).vonmises(np.pi - 1e-4, 1e8, size=N))
    assert ks(wrapped(x - (np.pi - 1e-4)), stats.norm(0, 1e-4).cdf) > P_MIN
    assert x.min() >= -np.pi and x.max() <= np.pi


def test_dirichlet_law():
    alpha = [0.5, 2.0, 3.0]
    x = host(cp.random.RandomState(1).dirichlet(alpha, size=N))
    assert x.shape == (N, 3) and x.dtype == np.float64
    np.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-12)
    for i, a in enumerate(alpha):
        marginal = stats.beta(a, sum(alpha) - a)
        assert ks(x[:, i], marginal.cdf) > P_MIN
        check_moments(x[:, i], marginal)


@pytest.mark.parametrize("api", ["RandomState", "Generator"])
def test_dirichlet_small_alpha_keeps_its_proportions(api):
    # Gammas of shape 0.01 underflow to 0 most of the time; the proportions must not become 0/0.
    # (Not a KS test: much of Beta(0.01, 0.02)'s mass lies within 1e-16 of 1, where float64 rounds to 1.)
    alpha = [0.01, 0.02]
    x = host(make(api).dirichlet(alpha, size=N))
    assert np.isfinite(x).all()
    np.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-12)
    marginal = stats.beta(0.01, 0.02)
    check_moments(x[:, 0], marginal)
    assert stats.binomtest(int((x[:, 0] > 0.5).sum()), N, marginal.sf(0.5)).pvalue > P_MIN


@pytest.mark.parametrize("api", ["RandomState", "Generator"])
@pytest.mark.parametrize("a, on_device", [(2.5, False), (1, False), (2.5, True)])
def test_dirichlet_scalar_alpha_is_cupys(api, a, on_device):
    # CuPy's dirichlet takes a scalar alpha (NumPy's has no len() of it): the last axis of `size` holds the
    # categories, each of concentration alpha, so each marginal is Beta(alpha, (K - 1) alpha).
    alpha = cp.asarray(a) if on_device else a
    x = host(make(api).dirichlet(alpha, size=(N, 4)))
    assert x.shape == (N, 4) and x.dtype == np.float64
    np.testing.assert_allclose(x.sum(axis=-1), 1.0, rtol=1e-12)
    for i in range(4):
        assert ks(x[:, i], stats.beta(a, 3 * a).cdf) > P_MIN
    assert make(api).dirichlet(alpha, size=5).shape == (5,)  # an int size: one vector of 5 categories
    np.testing.assert_allclose(host(make(api).dirichlet(alpha, size=1)), [1.0])


def test_dirichlet_generator_zero_alpha_and_shapes():
    g = cp.random.default_rng(2)
    x = host(g.dirichlet([0.0, 1.0, 2.0], size=1000))
    assert (x[:, 0] == 0).all()
    np.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_array_equal(host(g.dirichlet([0.0, 0.0])), [0.0, 0.0])
    assert g.dirichlet([1.0, 2.0], size=(4, 5)).shape == (4, 5, 2)
    assert g.dirichlet(cp.asarray([1.0, 2.0])).shape == (2,)
    assert g.dirichlet([1.0, 2.0], size=0).shape == (0, 2)
    assert cp.random.RandomState(0).dirichlet([1.0, 2.0], size=3, dtype=np.float32).dtype == np.float32
    assert np.isnan(host(g.dirichlet([np.nan, 1.0]))).all()


@pytest.mark.parametrize("api", ["RandomState", "generator"])
def test_dirichlet_scalar_alpha_with_a_size(api):
    # CuPy's reading of a scalar alpha: the draws fill `size`, normalized along its last axis (size[-1]
    # categories of equal alpha); without a size (or size=()) it is NumPy's TypeError.
    for alpha in (5, 1.0, cp.asarray(5)):
        x = make(api).dirichlet(alpha, size=(3, 2))
        assert x.shape == (3, 2) and x.dtype == np.float64
        np.testing.assert_allclose(host(x).sum(axis=-1), 1.0, rtol=1e-12)
        assert make(api).dirichlet(alpha, size=5).shape == (5,)
        with pytest.raises(TypeError, match="has no len"):
            make(api).dirichlet(alpha)
        with pytest.raises(TypeError, match="has no len"):
            make(api).dirichlet(alpha, size=())
    a, b = (
        cp.random.RandomState(7).dirichlet(2.0, size=(4, 3)),
        cp.random.RandomState(7).dirichlet(2.0, size=(4, 3)),
    )
    np.testing.assert_array_equal(host(a), host(b))  # the seed fixes the draws


# ---------------------------------------------------------------- discrete laws

DISCRETE = [
    ("geometric", (0.3,), stats.geom(0.3)),
    ("geometric", (0.002,), stats.geom(0.002)),
    ("geometric", (0.9,), stats.geom(0.9)),
    ("negative_binomial", (3.5, 0.4), stats.nbinom(3.5, 0.4)),
    ("negative_binomial", (0.5, 0.9), stats.nbinom(0.5, 0.9)),
    ("negative_binomial", (200, 0.02), stats.nbinom(200, 0.02)),
    ("zipf", (2.5,), stats.zipf(2.5)),
    ("zipf", (1.3,), stats.zipf(1.3)),
    ("zipf", (8.0,), stats.zipf(8.0)),
    ("logseries", (0.5,), stats.logser(0.5)),
    ("logseries", (0.995,), stats.logser(0.995)),
    ("logseries", (1e-4,), stats.logser(1e-4)),
    ("hypergeometric", (5, 10, 3), stats.hypergeom(15, 5, 3)),
    ("hypergeometric", (100, 200, 150), stats.hypergeom(300, 100, 150)),
    ("hypergeometric", (1000, 2, 500), stats.hypergeom(1002, 1000, 500)),
    ("hypergeometric", (30, 30, 59), stats.hypergeom(60, 30, 59)),
    ("hypergeometric", (1, 1, 1), stats.hypergeom(2, 1, 1)),
    ("hypergeometric", (10**6, 3 * 10**6, 10**5), stats.hypergeom(4 * 10**6, 10**6, 10**5)),
]


@pytest.mark.parametrize("api", ["RandomState", "Generator"])
@pytest.mark.parametrize("case", DISCRETE, ids=_id)
def test_discrete_law(case, api):
    name, args, dist = case
    x = host(getattr(make(api), name)(*args, size=N))
    assert x.shape == (N,) and x.dtype == np.int64
    assert chi2_discrete(x, dist) > P_MIN
    check_moments(x.astype(np.float64), dist)


@pytest.mark.parametrize(
    "name, args",
    [
        ("geometric", (0.3,)),
        ("negative_binomial", (2, 0.5)),
        ("zipf", (2.0,)),
        ("logseries", (0.5,)),
        ("hypergeometric", (5, 5, 4)),
    ],
)
def test_discrete_dtype(name, args):
    x = getattr(cp.random.RandomState(0), name)(*args, size=10, dtype=np.int32)
    assert x.dtype == np.int32
    # As CuPy's kernels, the counts are stored into any numeric dtype asked for.
    y = getattr(cp.random.RandomState(0), name)(*args, size=10, dtype=np.float64)
    assert y.dtype == np.float64 and (host(y) == host(x)).all()
    with pytest.raises(TypeError):
        getattr(cp.random.RandomState(0), name)(*args, size=10, dtype="U3")


def test_multinomial_law():
    pvals = [0.2, 0.3, 0.1, 0.4]
    x = host(cp.random.RandomState(3).multinomial(20, pvals, size=N))
    assert x.shape == (N, 4) and x.dtype == np.int64
    assert (x.sum(axis=1) == 20).all()
    for i, p in enumerate(pvals):
        assert chi2_discrete(x[:, i], stats.binom(20, p)) > P_MIN
    cov = np.cov(x[:, 0], x[:, 1])[0, 1]
    assert abs(cov - (-20 * 0.2 * 0.3)) < 6 * math.sqrt(20 * 20 * 0.2 * 0.3 * 0.5 / N) + 0.02


def test_multinomial_last_pval_is_the_rest():
    # NumPy ignores pvals[-1]: the last count is what the others leave.
    x = host(cp.random.RandomState(3).multinomial(10, [0.5, 0.5, 0.3], size=1000))
    assert (x[:, 2] == 0).all() and (x.sum(axis=1) == 10).all()
    x = host(cp.random.RandomState(3).multinomial(10, [0.0, 1.0, 0.0], size=100))
    assert (x[:, 1] == 10).all()


def test_multinomial_generator_broadcasts():
    g = cp.random.default_rng(4)
    n = cp.asarray([[10], [1000]])
    pvals = [[0.2, 0.8], [0.5, 0.5], [0.9, 0.1]]
    x = g.multinomial(n, pvals)
    assert x.shape == (2, 3, 2) and x.dtype == np.int64
    assert g.multinomial(n, pvals, size=(4, 2, 3)).shape == (4, 2, 3, 2)
    big = host(g.multinomial([5, 50], [[0.25, 0.75]], size=(N, 2)))
    np.testing.assert_array_equal(big.sum(axis=-1), np.broadcast_to([5, 50], (N, 2)))
    assert chi2_discrete(big[:, 1, 0], stats.binom(50, 0.25)) > P_MIN
    with pytest.raises(ValueError, match="shape mismatch"):
        g.multinomial([1, 2], [0.2, 0.8], size=5)
    assert g.multinomial(3, [0.5, 0.5], size=0).shape == (0, 2)
    assert cp.random.RandomState(0).multinomial(3, [], size=2).shape == (2, 0)


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal_law(method):
    mean = [1.0, -2.0, 0.5]
    cov = np.array([[2.0, 0.8, 0.0], [0.8, 1.0, 0.3], [0.0, 0.3, 0.5]])
    g = cp.random.default_rng(8)
    x = host(g.multivariate_normal(mean, cp.asarray(cov), size=N, method=method))
    assert x.shape == (N, 3) and x.dtype == np.float64
    se = np.sqrt(np.diag(cov) / N)
    assert (np.abs(x.mean(axis=0) - mean) < 6 * se).all()
    np.testing.assert_allclose(np.cov(x.T), cov, atol=6 * 2 / math.sqrt(N))
    # Each projection is normal.
    assert ks((x - mean) @ [1.0, 1.0, 1.0], stats.norm(0, math.sqrt(cov.sum())).cdf) > P_MIN


def test_multivariate_normal_shapes_and_semidefinite():
    r = cp.random.RandomState(2)
    assert r.multivariate_normal([0, 0], np.eye(2), size=(3, 4)).shape == (3, 4, 2)
    assert r.multivariate_normal([0, 0], np.eye(2)).shape == (2,)
    assert r.multivariate_normal([0, 0], np.eye(2), size=0).shape == (0, 2)
    assert r.multivariate_normal([0, 0], np.eye(2), size=5, dtype=np.float32).dtype == np.float32
    # A singular covariance: the two coordinates are equal.
    x = host(r.multivariate_normal([0, 0], [[1.0, 1.0], [1.0, 1.0]], size=1000))
    np.testing.assert_allclose(x[:, 0], x[:, 1], atol=1e-6)


@pytest.mark.parametrize("method", ["svd", "eigh"])
def test_multivariate_normal_check_valid(method):
    g = cp.random.default_rng(0)
    bad = [[1.0, 2.0], [2.0, 1.0]]
    with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
        g.multivariate_normal([0, 0], bad, method=method)
    with pytest.raises(ValueError, match="positive-semidefinite"):
        g.multivariate_normal([0, 0], bad, check_valid="raise", method=method)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g.multivariate_normal([0, 0], bad, check_valid="ignore", method=method)
        # Within tol of positive semidefinite: no warning.
        g.multivariate_normal([0, 0], [[1.0, 1.0], [1.0, 1.0 - 1e-10]], method=method)
    with pytest.warns(RuntimeWarning):
        cp.random.multivariate_normal([0, 0], bad)


@pytest.mark.parametrize(
    "args, match",
    [
        (([[0, 0]], np.eye(2)), "mean must be 1 dimensional"),
        (([0, 0], [[1, 0], [0, 1], [1, 1]]), "cov must be 2 dimensional and square"),
        (([0, 0, 0], np.eye(2)), "mean and cov must have same length"),
    ],
)
def test_multivariate_normal_errors(args, match):
    for gen in (np.random.default_rng(0), cp.random.default_rng(0)):
        mean, cov = args
        with pytest.raises(ValueError, match=match):
            gen.multivariate_normal(mean, cov if isinstance(gen, np.random.Generator) else cp.asarray(cov))
    g = cp.random.default_rng(0)
    with pytest.raises(ValueError, match="check_valid must equal"):
        g.multivariate_normal([0], [[1]], check_valid="bogus")
    with pytest.raises(ValueError, match="method must be one of"):
        g.multivariate_normal([0], [[1]], method="bogus")
    with pytest.raises(np.linalg.LinAlgError):
        g.multivariate_normal([0, 0], [[1.0, 2.0], [2.0, 1.0]], method="cholesky")


def test_bytes():
    r = cp.random.RandomState(9)
    b = r.bytes(10)
    assert isinstance(b, bytes) and len(b) == 10
    assert cp.random.RandomState(9).bytes(10) == b
    assert r.bytes(10) != b
    assert r.bytes(0) == b""
    g = cp.random.default_rng(9)
    assert len(g.bytes(7)) == 7
    cp.random.seed(1)
    data = np.frombuffer(cp.random.bytes(N), dtype=np.uint8)
    counts = np.bincount(data, minlength=256)
    assert stats.chisquare(counts).pvalue > P_MIN
    with pytest.raises(ValueError):
        r.bytes(-1)


# ---------------------------------------------------------------- special parameter values


def test_degenerate_parameters():
    r, g = cp.random.RandomState(0), cp.random.default_rng(0)
    np.testing.assert_array_equal(host(r.geometric(1.0, size=100)), 1)
    np.testing.assert_array_equal(host(r.weibull(0.0, size=100)), 0.0)
    np.testing.assert_array_equal(host(r.rayleigh(0.0, size=100)), 0.0)
    np.testing.assert_array_equal(host(r.gumbel(3.0, 0.0, size=100)), 3.0)
    np.testing.assert_array_equal(host(r.logseries(0.0, size=100)), 1)
    np.testing.assert_array_equal(host(r.zipf(2000.0, size=100)), 1)
    np.testing.assert_array_equal(host(r.negative_binomial(3, 1.0, size=100)), 0)
    np.testing.assert_array_equal(host(r.hypergeometric(7, 0, 4, size=100)), 4)
    np.testing.assert_array_equal(host(r.hypergeometric(0, 7, 4, size=100)), 0)
    np.testing.assert_array_equal(host(r.hypergeometric(3, 4, 7, size=100)), 3)
    np.testing.assert_array_equal(host(g.hypergeometric(0, 0, 0, size=100)), 0)
    np.testing.assert_array_equal(host(g.hypergeometric(5, 5, 0, size=100)), 0)
    np.testing.assert_array_equal(host(r.standard_gamma(0.0, size=100)), 0.0)
    x = host(r.vonmises(1.0, np.inf, size=10))
    np.testing.assert_allclose(x, 1.0)


@pytest.mark.parametrize(
    "name, args",
    [
        ("chisquare", (np.nan,)),
        ("f", (np.nan, 1.0)),
        ("standard_t", (np.nan,)),
        ("noncentral_chisquare", (1.0, np.nan)),
        ("noncentral_chisquare", (np.nan, 1.0)),
        ("noncentral_f", (1.0, 1.0, np.nan)),
        ("gumbel", (0.0, np.nan)),
        ("laplace", (np.nan, 1.0)),
        ("lognormal", (0.0, np.nan)),
        ("pareto", (np.nan,)),
        ("power", (np.nan,)),
        ("rayleigh", (np.nan,)),
        ("weibull", (np.nan,)),
        ("vonmises", (0.0, np.nan)),
        ("vonmises", (np.nan, 1.0)),
        ("wald", (np.nan, 1.0)),
        ("triangular", (np.nan, 0.0, 1.0)),
        ("standard_gamma", (np.nan,)),
    ],
)
def test_nan_parameters_give_nan(name, args):
    # As NumPy's: NaN out, and no rejection loop that never ends.
    assert np.isnan(host(getattr(cp.random.RandomState(0), name)(*args, size=8))).all()


def test_legacy_negative_binomial_nan_n_is_zero():
    np.testing.assert_array_equal(host(cp.random.RandomState(0).negative_binomial(np.nan, 0.5, size=8)), 0)


# ---------------------------------------------------------------- shapes, broadcasting, reproducibility

ALL = [
    ("chisquare", (3.0,)),
    ("f", (3.0, 4.0)),
    ("standard_t", (3.0,)),
    ("noncentral_chisquare", (3.0, 1.0)),
    ("noncentral_f", (3.0, 4.0, 1.0)),
    ("gumbel", ()),
    ("laplace", ()),
    ("logistic", ()),
    ("lognormal", ()),
    ("rayleigh", ()),
    ("weibull", (2.0,)),
    ("pareto", (2.0,)),
    ("power", (2.0,)),
    ("standard_cauchy", ()),
    ("standard_exponential", ()),
    ("standard_gamma", (2.0,)),
    ("triangular", (0.0, 1.0, 2.0)),
    ("vonmises", (0.0, 1.0)),
    ("wald", (1.0, 1.0)),
    ("geometric", (0.5,)),
    ("negative_binomial", (2.0, 0.5)),
    ("zipf", (2.0,)),
    ("logseries", (0.5,)),
    ("hypergeometric", (5, 5, 3)),
]
INTEGER = {"geometric", "negative_binomial", "zipf", "logseries", "hypergeometric"}


@pytest.mark.parametrize("api", ["RandomState", "Generator"])
@pytest.mark.parametrize("name, args", ALL)
def test_shapes_dtypes_and_reproducibility(name, args, api):
    dtype = np.int64 if name in INTEGER else np.float64
    gen = make(api, 11)
    sample = getattr(gen, name)
    x = sample(*args)
    assert x.shape == () and x.dtype == dtype
    for size, shape in [(5, (5,)), ((2, 3), (2, 3)), (0, (0,)), ((4, 0), (4, 0))]:
        y = sample(*args, size=size)
        assert y.shape == shape and y.dtype == dtype
    a = host(getattr(make(api, 11), name)(*args, size=1000))
    b = host(getattr(make(api, 11), name)(*args, size=1000))
    np.testing.assert_array_equal(a, b)
    c = host(sample(*args, size=1000))
    assert not np.array_equal(a, c)  # the state moved on


@pytest.mark.parametrize("name, args", ALL)
def test_module_functions(name, args):
    cp.random.seed(5)
    a = host(getattr(cp.random, name)(*args, size=100))
    cp.random.seed(5)
    b = host(getattr(cp.random, name)(*args, size=100))
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a, host(getattr(cp.random.RandomState(5), name)(*args, size=100)))


def test_array_parameters_broadcast():
    r = cp.random.RandomState(12)
    loc = cp.asarray([0.0, 10.0, -10.0])
    x = host(r.gumbel(loc, 1.0, size=(N // 3, 3)))
    assert x.shape == (N // 3, 3)
    for j, m in enumerate([0.0, 10.0, -10.0]):
        assert ks(x[:, j], stats.gumbel_r(m, 1.0).cdf) > P_MIN
    assert r.gumbel(loc, [[1.0], [2.0]]).shape == (2, 3)
    with pytest.raises(ValueError, match="shape mismatch"):
        r.gumbel(loc, 1.0, size=(2, 2))
    assert r.chisquare([1.0, 2.0]).shape == (2,)


@pytest.mark.parametrize(
    "name, params, dists",
    [
        (
            "hypergeometric",
            ([5, 100], [10, 200], [3, 150]),
            [stats.hypergeom(15, 5, 3), stats.hypergeom(300, 100, 150)],
        ),
        ("zipf", ([1.5, 3.0],), [stats.zipf(1.5), stats.zipf(3.0)]),
        ("logseries", ([0.2, 0.9],), [stats.logser(0.2), stats.logser(0.9)]),
        ("geometric", ([0.1, 0.7],), [stats.geom(0.1), stats.geom(0.7)]),
        ("negative_binomial", ([1.0, 5.0], [0.3, 0.8]), [stats.nbinom(1, 0.3), stats.nbinom(5, 0.8)]),
    ],
)
def test_discrete_array_parameters(name, params, dists):
    x = host(getattr(cp.random.RandomState(13), name)(*(cp.asarray(p) for p in params), size=(N // 2, 2)))
    assert x.shape == (N // 2, 2) and x.dtype == np.int64
    for j, dist in enumerate(dists):
        assert chi2_discrete(x[:, j], dist) > P_MIN


def test_vonmises_array_parameters_mix_the_branches():
    # kappa below 1e-8 (uniform), ordinary, and above 1e6 (wrapped normal) in one call.
    kappa = cp.asarray([1e-9, 2.0, 1e7])
    x = host(cp.random.RandomState(14).vonmises(cp.asarray([0.0, 1.0, -1.0]), kappa, size=(N // 3, 3)))
    assert ks(x[:, 0], stats.uniform(-np.pi, 2 * np.pi).cdf) > P_MIN
    assert ks(wrapped(x[:, 1] - 1.0), stats.vonmises(2.0).cdf) > P_MIN
    assert ks(x[:, 2], stats.norm(-1.0, 1 / math.sqrt(1e7)).cdf) > P_MIN


def test_generator_dtype_and_out():
    g = cp.random.default_rng(0)
    assert g.standard_exponential(5, dtype=np.float32).dtype == np.float32
    assert g.standard_gamma(2.0, 5, dtype=np.float32).dtype == np.float32
    out = cp.empty((3, 4), dtype=np.float32)
    assert g.standard_gamma(2.0, out=out, dtype=np.float32) is out
    assert g.standard_exponential(out=out, dtype=np.float32) is out
    with pytest.raises(TypeError, match="wrong type"):  # out's dtype must be `dtype`, as NumPy's
        g.standard_exponential(out=out)
    assert (host(out) >= 0).all()
    with pytest.raises(TypeError, match="Unsupported dtype"):
        g.standard_exponential(dtype=np.int32)
    with pytest.raises(TypeError, match="Unsupported dtype"):
        g.standard_gamma(1.0, dtype=np.int32)


# ---------------------------------------------------------------- NumPy's parameter errors

ERRORS = [
    ("chisquare", (0,)),
    ("chisquare", (-1,)),
    ("f", (0, 1)),
    ("f", (1, 0)),
    ("standard_t", (0,)),
    ("noncentral_chisquare", (0, 1)),
    ("noncentral_chisquare", (1, -1)),
    ("noncentral_f", (0, 1, 1)),
    ("noncentral_f", (1, 0, 1)),
    ("noncentral_f", (1, 1, -1)),
    ("gumbel", (0, -1)),
    ("laplace", (0, -1)),
    ("logistic", (0, -1)),
    ("lognormal", (0, -1)),
    ("rayleigh", (-1,)),
    ("weibull", (-1,)),
    ("pareto", (0,)),
    ("power", (0,)),
    ("power", (-1,)),
    ("standard_gamma", (-1,)),
    ("triangular", (1, 0, 2)),
    ("triangular", (0, 3, 2)),
    ("triangular", (1, 1, 1)),
    ("vonmises", (0, -1)),
    ("wald", (0, 1)),
    ("wald", (1, 0)),
    ("geometric", (0,)),
    ("geometric", (1.1,)),
    ("geometric", (np.nan,)),
    ("zipf", (1,)),
    ("zipf", (np.nan,)),
    ("logseries", (1,)),
    ("logseries", (-0.1,)),
    ("logseries", (np.nan,)),
    ("negative_binomial", (0, 0.5)),
    ("negative_binomial", (1, 1.1)),
    ("negative_binomial", (1, np.nan)),
    ("negative_binomial", (1, 0)),
    ("negative_binomial", (np.nan, 0.5)),
    ("negative_binomial", (1e12, 1e-12)),
    ("hypergeometric", (-1, 5, 1)),
    ("hypergeometric", (5, -1, 1)),
    ("hypergeometric", (5, 5, -1)),
    ("hypergeometric", (5, 5, 0)),
    ("hypergeometric", (5, 5, 11)),
    ("hypergeometric", (np.nan, 5, 3)),
    ("hypergeometric", (2**40, 1, 1)),
    ("dirichlet", ([-1.0, 1.0],)),
    ("dirichlet", ([0.0, 1.0],)),
    ("dirichlet", ([[1.0, 2.0]],)),
    ("multinomial", (-1, [0.5, 0.5])),
    ("multinomial", (1, [0.6, 0.6, 0.1])),
    ("multinomial", (1, [-0.1, 1.1])),
    ("multinomial", (1, [np.nan, 1.0])),
    ("multinomial", (np.nan, [0.5, 0.5])),
    ("multinomial", (1, 0.5)),
    ("multinomial", (1, [[0.6, 0.6, 0.1], [0.1, 0.1, 0.8]])),
]


def _numpy_error(gen, name, args):
    try:
        getattr(gen, name)(*args)
    except Exception as e:  # noqa: BLE001 - whatever NumPy raises is the reference
        return e
    return None


@pytest.mark.parametrize("api", ["RandomState", "Generator"])
@pytest.mark.parametrize("name, args", ERRORS)
def test_parameter_errors_match_numpy(name, args, api):
    expected = _numpy_error(
        np.random.RandomState(0) if api == "RandomState" else np.random.default_rng(0), name, args
    )
    gen = make(api)
    if expected is None:  # NumPy takes these parameters (the two APIs differ): so does cuarray
        getattr(gen, name)(*args, size=3)
        return
    message = str(expected)
    if message.startswith("setting an array element"):  # NumPy's conversion message; ours names the cause
        message = "object too deep"
    with pytest.raises(type(expected), match=re.escape(message)):
        getattr(gen, name)(*args)
    # The same check on a device array parameter.
    device_args = tuple(
        cp.asarray(a) if isinstance(a, (int, float)) and not math.isnan(a) else a for a in args
    )
    with pytest.raises(type(expected)):
        getattr(gen, name)(*device_args)


def test_zero_size_draws_do_not_loop():
    r = cp.random.RandomState(0)
    for name, args in [
        ("vonmises", (0.0, 1.0)),
        ("zipf", (2.0,)),
        ("logseries", (0.5,)),
        ("hypergeometric", (5, 5, 3)),
    ]:
        assert getattr(r, name)(*args, size=(3, 0)).shape == (3, 0)


@pytest.mark.parametrize("shapes", [((), (), (3, 2)), ((3, 2), (), ()), ((), (3, 2), (3, 2)), ((), (), ())])
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_hypergeometric_of_0d_and_array_counts(shapes, dtype):
    # 0-d device counts next to arrays (CuPy's TestDistributionsHyperGeometric): each sample lies between
    # max(0, nsample - nbad) = 2 and min(nsample, ngood) = 4, whichever parameters are arrays.
    ngood, nbad, nsample = (cp.full(s, v, dtype) for s, v in zip(shapes, (4, 3, 5)))
    out = cp.random.RandomState(3).hypergeometric(ngood, nbad, nsample, size=(4, 3, 2), dtype=dtype)
    assert out.shape == (4, 3, 2) and out.dtype == dtype
    host = out.get()
    assert ((host >= 2) & (host <= 4)).all() and len(np.unique(host)) > 1
