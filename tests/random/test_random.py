"""cuarray.random on the device: the Philox words themselves, reproducibility (in and across processes and
devices), shapes and dtypes, and every distribution against its law (moments, Kolmogorov-Smirnov or
chi-square tests with fixed seeds, so each test is deterministic)."""

import math
import os

import cuarray as cp
import numpy as np
import pytest
from conftest import describe, run_python
from scipy import stats
from test_random_nogpu import reference_words

pytestmark = pytest.mark.gpu

P_MIN = 1e-5  # tests are deterministic (fixed seeds); a correct sampler fails one with this probability


def host(x):
    assert isinstance(x, cp.ndarray)
    return cp.asnumpy(x)


# ---------------------------------------------------------------- the generator itself


@pytest.mark.parametrize("n", [1, 4, 7, 4097])
def test_raw_words_are_philox4x32_10(n):
    # Full-range uint32 integers are the Philox words themselves, in stream order (Note [Random streams]).
    seed = 0x0123456789ABCDEF
    r = cp.random.RandomState(seed)
    got = host(r.randint(0, 2**32, size=n, dtype=np.uint32))
    groups = (n + 3) // 4
    np.testing.assert_array_equal(got, reference_words(seed, 0, groups)[:n])
    # The next call starts where this one stopped.
    assert r._state.offset == groups
    got2 = host(r.randint(0, 2**32, size=8, dtype=np.uint32))
    np.testing.assert_array_equal(got2, reference_words(seed, groups, 2))


def test_every_group_of_a_call_longer_than_the_grid():
    # The fill kernel's grid stops at 16 blocks of 256 threads per SM, so each thread draws many groups in
    # turn: whole groups with vector stores, then the partial last one. Each must come from its own counter.
    sms = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["multiProcessorCount"]
    n = 3 * 16 * sms * 256 * 4 + 7
    got = host(cp.random.RandomState(5).randint(0, 2**32, size=n, dtype=np.uint32))
    np.testing.assert_array_equal(got, reference_words(5, 0, (n + 3) // 4)[:n])


def test_uniform_from_words():
    # float32 uniforms take the top 24 bits of each word; float64 ones 53 bits of two words, the work item's
    # four values from its draws 0 and 1.
    r = cp.random.RandomState(11)
    words = reference_words(11, 0, 3)
    np.testing.assert_array_equal(
        host(r.random_sample(12, dtype=np.float32)), (words >> 8).astype(np.float32) * 2.0**-24
    )
    r = cp.random.RandomState(11)
    w = np.concatenate([reference_words(11, 0, 1, draw=0), reference_words(11, 0, 1, draw=1)]).astype(
        np.uint64
    )
    expected = ((w[0::2] >> 5) * 67108864 + (w[1::2] >> 6)).astype(np.float64) * 2.0**-53
    np.testing.assert_array_equal(host(r.random_sample(4)), expected)


def test_same_seed_same_numbers_and_different_seeds_differ():
    a = host(cp.random.RandomState(42).randn(1000))
    b = host(cp.random.RandomState(42).randn(1000))
    c = host(cp.random.RandomState(43).randn(1000))
    np.testing.assert_array_equal(a, b)
    assert np.mean(a == c) < 0.01
    r = cp.random.RandomState(42)
    first, second = host(r.randn(1000)), host(r.randn(1000))
    np.testing.assert_array_equal(first, a)
    assert np.mean(first == second) < 0.01  # consecutive calls continue the stream
    r.seed(42)
    np.testing.assert_array_equal(host(r.randn(1000)), a)


def test_module_functions_follow_seed():
    cp.random.seed(1234)
    a = host(cp.random.rand(100))
    b = host(cp.random.uniform(-1, 1, size=10))
    cp.random.seed(1234)
    np.testing.assert_array_equal(host(cp.random.rand(100)), a)
    np.testing.assert_array_equal(host(cp.random.uniform(-1, 1, size=10)), b)
    np.testing.assert_array_equal(a, host(cp.random.RandomState(1234).rand(100)))


def test_generator_follows_seed():
    a = host(cp.random.default_rng(5).random(100))
    np.testing.assert_array_equal(a, host(cp.random.default_rng(5).random(100)))
    g = cp.random.default_rng(5)
    assert cp.random.default_rng(g) is g
    assert not np.array_equal(a, host(cp.random.default_rng(6).random(100)))


SEEDED_CHILD = "import cuarray as cp\nprint(cp.random.randn(5, dtype=cp.float32).tolist())\n"


def _child(env):
    proc = run_python(code=SEEDED_CHILD, env=env, timeout=300)
    assert proc.returncode == 0, describe(proc)
    return proc.stdout.strip().splitlines()[-1]


def test_environment_seed_across_processes():
    first = _child({"CUARRAY_SEED": "42", "CUPY_SEED": None})
    assert _child({"CUARRAY_SEED": "42", "CUPY_SEED": None}) == first
    assert _child({"CUARRAY_SEED": None, "CUPY_SEED": "42"}) == first  # CuPy's variable works too
    assert _child({"CUARRAY_SEED": "42", "CUPY_SEED": "7"}) == first  # ours wins
    assert _child({"CUARRAY_SEED": "43", "CUPY_SEED": None}) != first
    expected = host(cp.random.RandomState(42).randn(5, dtype=np.float32)).tolist()
    assert first == str(expected)


def test_unseeded_processes_differ():
    env = {"CUARRAY_SEED": None, "CUPY_SEED": None}
    assert _child(env) != _child(env)


@pytest.mark.multi_gpu
def test_same_numbers_on_every_device():
    with cp.cuda.Device(0):
        a = host(cp.random.RandomState(9).standard_normal(10000))
    with cp.cuda.Device(1):
        b = cp.random.RandomState(9).standard_normal(10000)
        assert b.device.id == 1
        np.testing.assert_array_equal(host(b), a)


def test_per_device_global_states():
    cp.random.seed(3)
    assert cp.random.get_random_state() is cp.random.get_random_state()
    mine = cp.random.RandomState(3)
    cp.random.set_random_state(mine)
    assert cp.random.get_random_state() is mine
    cp.random.reset_states()
    assert cp.random.get_random_state() is not mine


def test_results_do_not_depend_on_how_the_call_is_split():
    # Numbers depend on (seed, position) only: one call of 8 equals the first 8 of a call of 1000.
    a = host(cp.random.RandomState(8).standard_normal(1000))
    b = host(cp.random.RandomState(8).standard_normal(8))
    np.testing.assert_array_equal(a[:8], b)


# ---------------------------------------------------------------- shapes and dtypes

SHAPE_CASES = {
    "rand": (lambda r: r.rand(2, 3), (2, 3), np.float64),
    "rand_0d": (lambda r: r.rand(), (), np.float64),
    "rand_f32": (lambda r: r.rand(5, dtype=np.float32), (5,), np.float32),
    "randn_f32": (lambda r: r.randn(3, 4, dtype=np.float32), (3, 4), np.float32),
    "randn_f64": (lambda r: r.randn(7), (7,), np.float64),
    "random_sample_int": (lambda r: r.random_sample(6), (6,), np.float64),
    "random_sample_tuple": (lambda r: r.random_sample((2, 0, 3)), (2, 0, 3), np.float64),
    "uniform_none": (lambda r: r.uniform(), (), np.float64),
    "uniform_f32": (lambda r: r.uniform(1, 2, size=(4, 4), dtype=np.float32), (4, 4), np.float32),
    "normal_array_loc": (lambda r: r.normal(np.zeros((2, 1)), np.ones(3)), (2, 3), np.float64),
    "normal_device_loc": (lambda r: r.normal(cp.zeros(3), 2.0, size=(4, 3)), (4, 3), np.float64),
    "standard_normal": (lambda r: r.standard_normal((3,)), (3,), np.float64),
    "exponential": (lambda r: r.exponential(2.0, 9, dtype=np.float32), (9,), np.float32),
    "gamma": (lambda r: r.gamma(2.0, size=(3, 3)), (3, 3), np.float64),
    "beta": (lambda r: r.beta(2.0, 3.0, size=5), (5,), np.float64),
    "poisson": (lambda r: r.poisson(3.0, 10), (10,), np.int64),
    "poisson_int32": (lambda r: r.poisson(3.0, 10, dtype=np.int32), (10,), np.int32),
    "binomial": (lambda r: r.binomial(10, 0.5, 10), (10,), np.int64),
    "binomial_array": (lambda r: r.binomial([5, 10, 20], 0.5), (3,), np.int64),
    "randint": (lambda r: r.randint(10, size=(2, 2)), (2, 2), np.int64),
    "randint_0d": (lambda r: r.randint(10), (), np.int64),
    "randint_uint8": (lambda r: r.randint(0, 256, size=5, dtype=np.uint8), (5,), np.uint8),
    "randint_bool": (lambda r: r.randint(2, size=5, dtype=bool), (5,), np.bool_),
    "random_integers": (lambda r: r.random_integers(5, size=4), (4,), np.int64),
    "choice_int": (lambda r: r.choice(5, 3), (3,), np.int64),
    "choice_none": (lambda r: r.choice(5), (), np.int64),
    "choice_array": (lambda r: r.choice(cp.arange(5.0), (2, 2)), (2, 2), np.float64),
    "choice_list": (lambda r: r.choice([1, 2, 3], 4), (4,), np.int64),
    "choice_empty": (lambda r: r.choice(5, 0), (0,), np.int64),
    "permutation_int": (lambda r: r.permutation(6), (6,), np.int64),
    "permutation_zero": (lambda r: r.permutation(0), (0,), np.int64),
    "permutation_array": (lambda r: r.permutation(cp.ones((4, 3), np.float32)), (4, 3), np.float32),
}


@pytest.mark.parametrize("case", list(SHAPE_CASES))
def test_shapes_and_dtypes(case):
    make, shape, dtype = SHAPE_CASES[case]
    out = make(cp.random.RandomState(0))
    assert isinstance(out, cp.ndarray)
    assert out.shape == shape and out.dtype == np.dtype(dtype)
    assert np.all(np.isfinite(host(out).astype(np.float64)))


def test_zero_size_does_not_advance_the_state():
    r = cp.random.RandomState(0)
    assert r.randn(0, 5).shape == (0, 5)
    assert r._state.offset == 0


def test_generator_methods_and_out():
    g = cp.random.default_rng(1)
    assert g.random((2, 3)).shape == (2, 3)
    assert g.random(dtype=np.float32).dtype == np.float32
    assert g.integers(10, size=5).dtype == np.int64
    x = g.integers(3, 5, size=1000, endpoint=True)
    assert set(np.unique(host(x))) == {3, 4, 5}
    out = cp.empty((4, 5), np.float32)
    assert g.standard_normal(dtype=np.float32, out=out) is out
    assert np.all(np.isfinite(host(out))) and np.std(host(out)) > 0
    with pytest.raises(ValueError, match="size must match"):
        g.random(size=(3,), out=cp.empty(4))
    for method in ("normal", "uniform", "exponential", "poisson"):
        assert getattr(g, method)(size=3).shape == (3,)
    assert g.gamma(2.0, size=3).shape == (3,) and g.beta(1, 2, size=3).shape == (3,)
    assert g.binomial(4, 0.5, size=3).shape == (3,)


# ---------------------------------------------------------------- distributions

N = 1 << 20


def ks(sample, cdf):
    return stats.kstest(np.asarray(sample, dtype=np.float64), cdf).pvalue


def chi2_discrete(sample, pmf):
    """Chi-square p-value of integer `sample` against `pmf`, merging bins with fewer than 5 expected."""
    values, counts = np.unique(sample, return_counts=True)
    lo, hi = int(values.min()), int(values.max())
    ks_ = np.arange(lo, hi + 1)
    observed = np.zeros(len(ks_))
    observed[values - lo] = counts
    return chisquare_merged(observed, pmf(ks_) * len(sample))


def chisquare_merged(observed, expected):
    """Chi-square p-value of bin counts against expected counts, each bin expecting fewer than 5 merged into
    the next; the expected mass outside the bins goes to the kept bins in proportion."""
    obs, exp, o, e = [], [], 0.0, 0.0
    for oi, ei in zip(observed, expected):
        o, e = o + oi, e + ei
        if e >= 5:
            obs.append(o), exp.append(e)
            o = e = 0.0
    obs[-1] += o
    exp[-1] += e
    assert len(obs) > 1
    exp = np.array(exp) * (sum(obs) / sum(exp))
    return stats.chisquare(obs, exp).pvalue


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_uniform(dtype):
    r = cp.random.RandomState(1)
    x = host(r.uniform(-2.0, 3.0, size=N, dtype=dtype))
    assert x.min() >= -2.0 and x.max() <= 3.0
    assert abs(x.mean() - 0.5) < 5 * 5 / math.sqrt(12 * N)
    assert ks(x, stats.uniform(-2, 5).cdf) > P_MIN
    u = host(r.random_sample(N, dtype=dtype))
    assert u.min() >= 0.0 and u.max() < 1.0
    assert ks(u, stats.uniform().cdf) > P_MIN
    # 24 (float32) or 53 random bits, not fewer: 2^20 draws of 24 bits repeat about 1/32 of the time.
    assert len(np.unique(u)) > (0.96 if dtype == np.float32 else 0.99) * N


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_normal(dtype):
    r = cp.random.RandomState(2)
    z = host(r.randn(N, dtype=dtype)).astype(np.float64)
    assert abs(z.mean()) < 5 / math.sqrt(N)
    assert abs(z.var() - 1) < 5 * math.sqrt(2 / N)
    assert abs(stats.skew(z)) < 5 * math.sqrt(6 / N)
    assert abs(stats.kurtosis(z)) < 5 * math.sqrt(24 / N)
    assert ks(z, stats.norm.cdf) > P_MIN
    x = host(r.normal(3.0, 0.5, size=N, dtype=dtype))
    assert ks(x, stats.norm(3.0, 0.5).cdf) > P_MIN


def test_normal_tails():
    # Box-Muller's radius reaches beyond 6 sigma for the float32 path (32-bit uniforms).
    z = host(cp.random.RandomState(3).randn(1 << 26, dtype=np.float32))
    assert np.abs(z).max() > 5.0
    assert np.all(np.isfinite(z))
    frac = np.mean(np.abs(z) > 3)
    assert abs(frac - 2 * stats.norm.sf(3)) < 5 * math.sqrt(2 * stats.norm.sf(3) / z.size)


def test_normal_array_parameters():
    r = cp.random.RandomState(4)
    loc = cp.asarray([0.0, 10.0, -5.0])
    x = host(r.normal(loc, [1.0, 2.0, 0.5], size=(200000, 3)))
    np.testing.assert_allclose(x.mean(axis=0), [0.0, 10.0, -5.0], atol=0.05)
    np.testing.assert_allclose(x.std(axis=0), [1.0, 2.0, 0.5], rtol=0.02)
    lam = host(r.poisson(cp.asarray([1.0, 50.0]), size=(100000, 2))).mean(axis=0)
    np.testing.assert_allclose(lam, [1.0, 50.0], rtol=0.02)
    u = host(r.uniform(cp.asarray([0.0, 10.0]), 11.0, size=(100000, 2)))
    assert u[:, 0].min() >= 0 and u[:, 1].min() >= 10 and u.max() <= 11


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_exponential(dtype):
    x = host(cp.random.RandomState(5).exponential(2.0, size=N, dtype=dtype))
    assert x.min() >= 0
    assert abs(x.mean() - 2.0) < 5 * 2.0 / math.sqrt(N)
    assert ks(x, stats.expon(scale=2.0).cdf) > P_MIN


@pytest.mark.parametrize("shape", [0.05, 0.5, 1.0, 3.7, 50.0])
def test_gamma(shape):
    x = host(cp.random.RandomState(6).gamma(shape, 2.0, size=N // 4))
    assert x.min() >= 0
    assert ks(x, stats.gamma(shape, scale=2.0).cdf) > P_MIN


def test_gamma_zero_shape_is_zero():
    np.testing.assert_array_equal(host(cp.random.RandomState(6).gamma(0.0, size=10)), 0.0)


@pytest.mark.parametrize("a,b", [(0.3, 0.7), (0.5, 0.5), (2.0, 5.0), (0.5, 4.0), (20.0, 20.0)])
def test_beta(a, b):
    x = host(cp.random.RandomState(7).beta(a, b, size=N // 4))
    assert x.min() >= 0 and x.max() <= 1
    assert ks(x, stats.beta(a, b).cdf) > P_MIN


@pytest.mark.parametrize("lam", [0.0, 0.5, 4.0, 9.99, 10.0, 25.0, 1e4])
def test_poisson(lam):
    x = host(cp.random.RandomState(8).poisson(lam, size=N // 4))
    if lam == 0:
        assert np.all(x == 0)
        return
    assert abs(x.mean() - lam) < 5 * math.sqrt(lam / x.size)
    assert chi2_discrete(x, lambda k: stats.poisson.pmf(k, lam)) > P_MIN


@pytest.mark.parametrize(
    "n,p",
    [(10, 0.3), (100, 0.05), (100, 0.5), (1000, 0.7), (50, 0.95), (10**6, 0.3), (7, 0.0), (7, 1.0), (0, 0.5)],
)
def test_binomial(n, p):
    x = host(cp.random.RandomState(9).binomial(n, p, size=N // 4))
    assert x.min() >= 0 and x.max() <= n
    if p in (0.0, 1.0) or n == 0:
        assert np.all(x == n * p)
        return
    assert abs(x.mean() - n * p) < 5 * math.sqrt(n * p * (1 - p) / x.size)
    assert chi2_discrete(x, lambda k: stats.binom.pmf(k, n, p)) > P_MIN


@pytest.mark.parametrize(
    "low,high,dtype",
    [
        (0, 10, np.int64),
        (-128, 128, np.int8),
        (0, 256, np.uint8),
        (-5, 3, np.int16),
        (0, 2, np.bool_),
        (10, 11, np.int32),
        (0, 1000, np.uint16),
        (0, 3 * 2**32 + 7, np.int64),
    ],
)
def test_randint_is_uniform(low, high, dtype):
    x = host(cp.random.RandomState(10).randint(low, high, size=N // 4, dtype=dtype)).astype(np.int64)
    assert x.min() >= low and x.max() < high
    if high - low == 1:
        assert np.all(x == low)
    elif high - low <= 1024:
        assert x.min() == low and x.max() == high - 1
        assert chi2_discrete(x, lambda k: np.full(len(k), 1.0 / (high - low))) > P_MIN
    else:
        assert ks((x - low) / (high - low), stats.uniform().cdf) > P_MIN


def test_randint_extremes():
    r = cp.random.RandomState(12)
    full = host(r.randint(0, 2**64, size=100000, dtype=np.uint64))
    assert full.max() > 2**63  # the top bit is random
    signed = host(r.randint(-(2**63), 2**63, size=100000, dtype=np.int64))
    assert signed.min() < 0 < signed.max()
    ints = host(r.random_integers(1, 6, size=60000))
    assert set(np.unique(ints)) == set(range(1, 7))


def test_choice_with_probabilities():
    p = np.array([0.1, 0.0, 0.6, 0.3])
    x = host(cp.random.RandomState(13).choice(4, size=N // 4, p=p))
    counts = np.bincount(x, minlength=4)
    assert counts[1] == 0
    assert stats.chisquare(counts[[0, 2, 3]], p[[0, 2, 3]] * x.size).pvalue > P_MIN
    y = host(cp.random.RandomState(13).choice(cp.asarray([5.0, 6.0, 7.0, 8.0]), size=1000, p=cp.asarray(p)))
    assert set(np.unique(y)) <= {5.0, 7.0, 8.0}


def test_choice_without_replacement_is_distinct():
    r = cp.random.RandomState(14)
    x = host(r.choice(10000, size=5000, replace=False))
    assert len(np.unique(x)) == 5000 and x.min() >= 0 and x.max() < 10000
    values = cp.arange(100) * 3
    y = host(r.choice(values, size=(10, 10), replace=False))
    np.testing.assert_array_equal(np.sort(y.ravel()), np.arange(100) * 3)


@pytest.mark.parametrize("n", [1, 2, 5, 1000, 1024, 1025, 3000, 70000, 300000])
def test_permutation_is_a_permutation(n):
    x = host(cp.random.RandomState(15).permutation(n))
    assert x.dtype == np.int64
    np.testing.assert_array_equal(np.sort(x), np.arange(n))
    if n >= 1000:
        assert np.mean(x == np.arange(n)) < 0.01


def test_permutations_are_uniform():
    # Every ordering of 4 elements about equally often, and every position of each element for n = 50. Each
    # draw is a few kernels; under compute-sanitizer (tests/sanitize.py), a tenth of the draws.
    draws = 600 if os.environ.get("CUARRAY_SANITIZER") else 6000
    g = cp.random.default_rng(16)
    counts = {}
    for _ in range(draws):
        key = tuple(host(g.permutation(4)))
        counts[key] = counts.get(key, 0) + 1
    assert len(counts) == 24
    assert stats.chisquare(list(counts.values())).pvalue > P_MIN
    positions = np.zeros((50, 50))
    for _ in range(draws // 3):
        perm = host(g.permutation(50))
        positions[perm, np.arange(50)] += 1
    assert stats.chisquare(positions.ravel()).pvalue > P_MIN


def test_permutation_of_array_rows():
    a = np.arange(60, dtype=np.float32).reshape(20, 3)
    got = host(cp.random.RandomState(17).permutation(cp.asarray(a)))
    assert not np.array_equal(got, a)
    np.testing.assert_array_equal(got[np.argsort(got[:, 0])], a)


def test_generator_permutation_along_axis():
    a = np.arange(60).reshape(3, 20)
    got = host(cp.random.default_rng(18).permutation(cp.asarray(a), axis=1))
    np.testing.assert_array_equal(got[:, np.argsort(got[0])], a)


@pytest.mark.parametrize("dtype", [np.int8, np.float64, np.complex128])
def test_shuffle_in_place(dtype):
    base = cp.asarray(np.arange(40).reshape(10, 4).astype(dtype))
    x = base[::-1, ::2]  # a strided, negative-stride view: shuffled in place through the base
    before = host(x)
    cp.random.RandomState(19).shuffle(x)
    after = host(x)
    assert not np.array_equal(after, before)
    np.testing.assert_array_equal(after[np.argsort(after[:, 0].real)], before[np.argsort(before[:, 0].real)])
    np.testing.assert_array_equal(host(base)[::-1, ::2], after)
    np.testing.assert_array_equal(host(base)[:, 1::2], np.arange(40).reshape(10, 4)[:, 1::2].astype(dtype))


def test_shuffle_generator_axis_and_module():
    x = cp.asarray(np.arange(30).reshape(3, 10))
    cp.random.default_rng(20).shuffle(x, axis=1)
    got = host(x)
    np.testing.assert_array_equal(np.sort(got, axis=1), np.arange(30).reshape(3, 10))
    np.testing.assert_array_equal(got - got[:, :1], np.broadcast_to(got[0] - got[0, 0], (3, 10)))
    y = cp.arange(100)
    cp.random.shuffle(y)
    np.testing.assert_array_equal(np.sort(host(y)), np.arange(100))


def test_generator_choice_axis():
    a = cp.asarray(np.arange(12).reshape(3, 4))
    got = host(cp.random.default_rng(21).choice(a, size=5, axis=1))
    assert got.shape == (3, 5)
    assert np.all(np.isin(got[0], np.arange(4))) and np.array_equal(got[1] - got[0], np.full(5, 4))


def test_randint_with_array_bounds():
    rs = cp.random.RandomState(7)
    low, high = np.array([[[-1], [0]], [[-2], [1]], [[3], [4]]]), np.array([[10, 11, 12]])
    x = rs.randint(low, high)  # CuPy's test_randint_array: bounds broadcast to (3, 2, 3)
    assert x.shape == (3, 2, 3) and x.dtype == np.int64
    h = x.get()
    assert ((h >= low) & (h < high)).all()
    # Each column uniform over its own range.
    low, high = np.array([0, 10, -5]), np.array([3, 17, -4])
    h = rs.randint(cp.asarray(low), high, size=(30000, 3)).get()
    assert ((h >= low) & (h < high)).all()
    for j in range(3):
        counts = np.bincount(h[:, j] - low[j], minlength=high[j] - low[j])
        assert stats.chisquare(counts).pvalue > 1e-4 if len(counts) > 1 else (counts == 30000).all()
    # Whole 64-bit ranges, unsigned past 2**63, bool, and Generator.integers' closed interval.
    h = rs.randint(np.array([-(2**63), 0]), 2**63 - 1, size=(1000, 2)).get()
    assert (h[:, 1] >= 0).all() and (h[:, 0] < 0).any() and (h[:, 0] > 0).any()
    s = rs.randint(-3, np.array([0, 2]), size=(2000, 2)).get()  # a scalar low next to an array high
    assert s.shape == (2000, 2) and (s[:, 0] < 0).all() and (s[:, 0] == -3).any()
    assert (s >= -3).all() and (s[:, 1] < 2).all() and (s[:, 1] == 1).any()
    u = rs.randint(np.array([2**63], np.uint64), np.array([2**64 - 1], np.uint64), size=1000, dtype=np.uint64)
    assert u.dtype == np.uint64 and (u.get() >= 2**63).all()
    b = rs.randint(np.array([0, 0]), np.array([1, 2]), size=(500, 2), dtype=np.bool_).get()
    assert b.dtype == np.bool_ and not b[:, 0].any() and b[:, 1].any() and not b[:, 1].all()
    g = cp.random.default_rng(1).integers(np.array([0, 5]), np.array([0, 5]), endpoint=True, size=(4, 2))
    np.testing.assert_array_equal(g.get(), np.tile([0, 5], (4, 1)))


@pytest.mark.parametrize("pop_size, count", [(2**30, 1000), (2**25, 2**21)])
def test_choice_without_replacement_from_a_huge_population(pop_size, count):
    # The sample alone is drawn (a permutation of 2**30 values would need 8 GiB): distinct, in range, and for
    # the larger sample, spread evenly over the population.
    x = cp.random.RandomState(5).choice(pop_size, count, replace=False)
    assert x.shape == (count,) and x.dtype == np.int64
    h = x.get()
    assert ((h >= 0) & (h < pop_size)).all() and np.unique(h).size == count
    if count > 1000:
        counts = np.bincount(h // (pop_size // 32), minlength=32)
        assert stats.chisquare(counts).pvalue > 1e-4
        assert stats.kstest(h / pop_size, "uniform").pvalue > 1e-4
