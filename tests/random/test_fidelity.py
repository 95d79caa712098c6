"""cuarray.random as CuPy's own tests use it: parameters of any numeric dtype, as device arrays, NumPy arrays or
lists, broadcast against `size` as NumPy does; `dtype=` as CuPy's RandomState takes it, method by method (Note
[RandomState output dtypes]); the bit generators XORWOW, MRG32k3a and Philox4x3210 and random_raw;
Generator(bit_generator); tomaxint and _interval; and CuPy's module layout. Argument errors raised before the
device are checked without one too."""

import math
from unittest import mock

import cuarray as cp
import cuarray.random
import numpy as np
import pytest
from cuarray import testing
from scipy import stats

gpu = pytest.mark.gpu

N = 200_000


def host(x):
    assert isinstance(x, cp.ndarray)
    return cp.asnumpy(x)


def within(sample, mean, var, k=6.0):
    """The sample's mean within k standard errors of `mean` (variance `var` of the law)."""
    assert abs(sample.mean() - mean) < k * math.sqrt(var / sample.size), (sample.mean(), mean)


# ---------------------------------------------------------------- module layout and internals (no device)


def test_modules_are_laid_out_as_cupys():
    from cuarray.random import (
        _bit_generator,
        _distributions,
        _generator,
        _generator_api,
        _permutations,
        _sample,
    )

    assert _generator.RandomState is cp.random.RandomState
    assert _generator_api.Generator is cp.random.Generator
    for name in ("BitGenerator", "XORWOW", "MRG32k3a", "Philox4x3210"):
        assert getattr(_bit_generator, name) is getattr(cp.random, name)
    for name in ("beta", "binomial", "gamma", "normal", "poisson", "vonmises", "zipf", "multivariate_normal"):
        assert getattr(_distributions, name) is getattr(cp.random, name)
    for name in ("rand", "randn", "randint", "random_integers", "random_sample", "choice", "multinomial"):
        assert getattr(_sample, name) is getattr(cp.random, name)
    assert _permutations.shuffle is cp.random.shuffle and _permutations.permutation is cp.random.permutation


def test_check_and_get_dtype():
    from cuarray.random import _generator

    for dt in (np.float32, np.float64, float, "f", "d"):
        assert _generator._check_and_get_dtype(dt) == np.dtype(dt)
    for dt in (np.float16, np.int64, np.int8, np.uint32, np.bool_, np.complex64):
        with pytest.raises(TypeError, match="only supports float32 and float64"):
            _generator._check_and_get_dtype(dt)


def test_random_states_is_the_module_global():
    from cuarray.random import _generator

    saved = _generator._random_states
    try:
        _generator._random_states = "dummy"
        _generator.reset_states()
        assert _generator._random_states == {}
        device = cp._core.cuda.current_device()
        _generator._random_states = {device: "expected", device + 1: "dummy"}
        assert _generator.get_random_state() == "expected"
        rs = cp.random.RandomState(1)
        cp.random.set_random_state(rs)
        assert cp.random.get_random_state() is rs and _generator._random_states[device] is rs
    finally:
        _generator._random_states = saved


def test_module_functions_call_as_cupys():
    # CuPy's tests patch these: random_integers is randint(low, high + 1), rand is random_sample(size=, dtype=),
    # randn is _distributions.normal(size=, dtype=), choice passes its arguments on positionally.
    with mock.patch("cuarray.random._sample.randint") as m:
        cp.random.random_integers(3)
    m.assert_called_with(1, 4, None)
    with mock.patch("cuarray.random._sample.randint") as m:
        cp.random.random_integers(3, 5, (1, 2, 3))
    m.assert_called_with(3, 6, (1, 2, 3))
    with mock.patch("cuarray.random._sample.random_sample") as m:
        cp.random.rand(1, 2, 3, dtype=np.float32)
    m.assert_called_once_with(size=(1, 2, 3), dtype=np.float32)
    with mock.patch("cuarray.random._distributions.normal") as m:
        cp.random.randn(1, 2)
    m.assert_called_once_with(size=(1, 2), dtype=float)
    with pytest.raises(TypeError):
        cp.random.rand(1, 2, unnecessary="argument")
    with pytest.raises(TypeError):
        cp.random.RandomState(0).randn(1, 2, unnecessary="argument")


def test_randomstate_takes_cupys_method():
    rs = cp.random.RandomState(5, method=100)
    assert rs.method == 100
    assert rs._state.seed == cp.random.RandomState(5)._state.seed  # the streams do not depend on it


# ---------------------------------------------------------------- bit generators (no device)


BIT_GENERATORS = [cp.random.XORWOW, cp.random.MRG32k3a, cp.random.Philox4x3210]


@pytest.mark.parametrize("bg", BIT_GENERATORS, ids=lambda c: c.__name__)
def test_bit_generator_seeding_is_deterministic(bg):
    assert bg(5).seed == bg(5).seed == bg(np.random.SeedSequence(5)).seed
    assert bg(5).seed != bg(6).seed
    assert bg(None).seed != bg(None).seed  # fresh entropy
    assert bg([1, 2, 3]).seed == bg(np.array([1, 2, 3])).seed != bg([1, 2, 4]).seed
    assert bg(7, size=1024).seed == bg(7).seed  # CuPy's cuRAND state count: taken, unused
    assert isinstance(bg(5), cp.random.BitGenerator)


@testing.for_int_dtypes(no_bool=True)
def test_bit_generator_takes_numpy_integer_seeds(dtype):
    for bg in BIT_GENERATORS:
        assert bg(dtype(3)).seed == bg(3).seed


@pytest.mark.parametrize(
    "seed", [np.float32(0), np.float64(0), 1.5, np.complex128(0), np.bool_(False)], ids=repr
)
def test_bit_generator_rejects_non_integer_seeds_as_numpy(seed):
    with pytest.raises(TypeError):
        np.random.Philox(seed)
    for bg in BIT_GENERATORS:
        with pytest.raises(TypeError):
            bg(seed)


def test_bit_generators_of_one_seed_give_independent_streams():
    seeds = {bg(11).seed for bg in BIT_GENERATORS}
    assert len(seeds) == 3
    # Philox4x3210 keeps its key (word 0 of the SeedSequence), so its streams are unchanged.
    assert cp.random.Philox4x3210(11).seed == int(np.random.SeedSequence(11).generate_state(1, np.uint64)[0])


def test_bit_generator_base_is_abstract():
    with pytest.raises(NotImplementedError, match="base class"):
        cp.random.BitGenerator(1)


def test_default_rng_seeds():
    bg = cp.random.XORWOW(3)
    g = cp.random.default_rng(bg)
    assert g.bit_generator is bg and isinstance(g, cp.random.Generator)
    assert cp.random.default_rng(g) is g
    # An integer seed keys Philox with itself: the streams default_rng gave before bit generators existed.
    assert cp.random.default_rng(9).bit_generator.seed == 9
    assert cp.random.default_rng(np.uint8(9)).bit_generator.seed == 9
    assert (
        cp.random.default_rng(np.random.SeedSequence(4)).bit_generator.seed == cp.random.Philox4x3210(4).seed
    )
    assert (
        cp.random.default_rng([1, 2]).bit_generator.seed == cp.random.default_rng([1, 2]).bit_generator.seed
    )
    for bad, exc in ((-1, ValueError), (np.int64(-1), ValueError), (1.5, TypeError)):
        with pytest.raises(exc):
            np.random.default_rng(bad)
        with pytest.raises(exc):
            cp.random.default_rng(bad)


def test_generator_draws_from_its_bit_generator_state():
    bg = cp.random.MRG32k3a(1)
    g1, g2 = cp.random.Generator(bg), cp.random.default_rng(bg)
    assert g1._state is bg._state is g2._state  # one stream, as NumPy's generators sharing a bit generator
    other = cp.random.Philox4x3210(2)
    g1.bit_generator = other
    assert g1._state is other._state
    assert cp.random.Generator(5)._state.seed == 5  # an integer seed, as before


def test_pickling_keeps_the_stream_position():
    import copy
    import pickle

    for bg in BIT_GENERATORS:
        b = bg(42)
        b._state.offset = 7
        c = pickle.loads(pickle.dumps(b))
        assert type(c) is bg and (c.seed, c._state.offset) == (b.seed, 7) and c._seed_seq.entropy == 42
        assert [x.seed for x in (type(c)(s) for s in c._seed_seq.spawn(2))] == [
            x.seed for x in (type(b)(s) for s in b._seed_seq.spawn(2))
        ]
    rs = cp.random.RandomState(3, method=101)
    rs._state.offset = 5
    for r in (pickle.loads(pickle.dumps(rs)), copy.deepcopy(rs)):
        assert (r._state.seed, r._state.offset, r.method) == (3, 5, 101) and r._state is not rs._state
    g = cp.random.default_rng(cp.random.MRG32k3a(4))
    h = pickle.loads(pickle.dumps(g))
    assert type(h.bit_generator) is cp.random.MRG32k3a and h._state.seed == g._state.seed


# ---------------------------------------------------------------- argument errors, as NumPy's

_ARRAY_PARAM_ERRORS = {
    "normal_scale_list": lambda rs: rs.normal([0, 1], [1, -1]),
    "normal_scale_int_array": lambda rs: rs.normal(0, np.array([2, -1], np.int64)),
    "exponential_int_array": lambda rs: rs.exponential(np.array([2, -1, 3], np.int32)),
    "gamma_shape_int": lambda rs: rs.gamma(np.array([1, -1], np.int16)),
    "gamma_scale_float16": lambda rs: rs.gamma(1.0, np.array([1, -1], np.float16)),
    "beta_a_uint8": lambda rs: rs.beta(np.array([0, 1], np.uint8), 1.0),
    "poisson_lam_int8": lambda rs: rs.poisson(np.array([-1, 2], np.int8)),
    "binomial_n_int16": lambda rs: rs.binomial(np.array([5, -1], np.int16), 0.5),
    "binomial_p_float32": lambda rs: rs.binomial(5, np.array([0.5, 1.5], np.float32)),
    "chisquare_df_uint8": lambda rs: rs.chisquare(np.array([0, 2], np.uint8)),
    "f_dfden_int": lambda rs: rs.f(1, np.array([1, 0], np.int32)),
    "noncentral_chisquare_nonc": lambda rs: rs.noncentral_chisquare(
        np.full((3, 2), 1.0), np.full((3, 2), -1.0)
    ),
    "noncentral_f_dfnum": lambda rs: rs.noncentral_f(np.full((3, 2), -1), 1, 1),
    "standard_t_df_int": lambda rs: rs.standard_t(np.array([1, 0], np.int64)),
    "rayleigh_scale": lambda rs: rs.rayleigh(np.full((3, 2), -0.5, np.float32)),
    "weibull_a": lambda rs: rs.weibull(np.full((3, 2), -0.5)),
    "power_a": lambda rs: rs.power(np.full((3, 2), -0.5, np.float32)),
    "pareto_a_int": lambda rs: rs.pareto(np.array([0, 1], np.int32)),
    "triangular_left_mode": lambda rs: rs.triangular(np.full((3, 2), 1), 0, 2),
    "triangular_mode_right": lambda rs: rs.triangular(-2, np.zeros((3, 2)), -1),
    "triangular_equal": lambda rs: rs.triangular(0, 0, np.zeros(2, np.int32)),
    "geometric_p": lambda rs: rs.geometric(np.array([0.5, 1.5])),
    "logseries_p_one": lambda rs: rs.logseries(np.ones(2, np.float32)),
    "zipf_a": lambda rs: rs.zipf(np.array([2, 1], np.int64)),
    "wald_scale": lambda rs: rs.wald(1.0, np.array([1, 0], np.int32)),
    "vonmises_kappa": lambda rs: rs.vonmises(0.0, np.array([1.0, -1.0])),
    "laplace_scale": lambda rs: rs.laplace(0.0, [1.0, -2.0]),
    "hypergeometric_ngood": lambda rs: rs.hypergeometric(np.array([-1, 2], np.int32), 2, 1),
    "hypergeometric_nsample": lambda rs: rs.hypergeometric(2, 2, np.array([5], np.int64)),
    "negative_binomial_p": lambda rs: rs.negative_binomial(5, np.array([0.5, 1.5], np.float32)),
    "uniform_nan": lambda rs: rs.uniform(np.array([np.nan]), 1.0),
    "uniform_broadcast": lambda rs: rs.uniform(np.zeros((2, 3)), 1.0, size=(3,)),
    "normal_broadcast": lambda rs: rs.normal(np.zeros(3), [1, 1, 1], size=(2, 2)),
    "gamma_broadcast": lambda rs: rs.gamma(np.ones((3, 2), np.int32), np.ones(2), size=(4, 3, 1)),
    "poisson_broadcast": lambda rs: rs.poisson(np.full((2, 3), 5, np.int64), size=(3, 2)),
    "binomial_broadcast": lambda rs: rs.binomial([5, 5], [0.5, 0.5, 0.5]),
}


@pytest.mark.parametrize("case", sorted(_ARRAY_PARAM_ERRORS))
def test_array_parameter_errors_without_a_device(case):
    # Raised before the device is touched: host arrays and lists of any dtype are checked as NumPy checks them.
    call = _ARRAY_PARAM_ERRORS[case]
    with pytest.raises(Exception) as expected:
        call(np.random.RandomState(0))
    with pytest.raises(type(expected.value)):
        call(cp.random.RandomState(0))


@gpu
@pytest.mark.parametrize("case", sorted(_ARRAY_PARAM_ERRORS))
@testing.numpy_cuarray_raises()
def test_array_parameter_errors(case, xp):
    call = _ARRAY_PARAM_ERRORS[case]
    call(xp.random.RandomState(0))


# CuPy's RandomState takes only float32 and float64 where it draws from cuRAND's float generators.
_FLOAT_ONLY = {
    "random_sample": lambda rs, dt: rs.random_sample(3, dt),
    "rand": lambda rs, dt: rs.rand(3, dtype=dt),
    "randn": lambda rs, dt: rs.randn(3, dtype=dt),
    "uniform": lambda rs, dt: rs.uniform(size=3, dtype=dt),
    "normal": lambda rs, dt: rs.normal(size=3, dtype=dt),
    "standard_normal": lambda rs, dt: rs.standard_normal(3, dt),
    "lognormal": lambda rs, dt: rs.lognormal(size=3, dtype=dt),
    "exponential": lambda rs, dt: rs.exponential(size=3, dtype=dt),
    "standard_exponential": lambda rs, dt: rs.standard_exponential(3, dt),
    "gumbel": lambda rs, dt: rs.gumbel(size=3, dtype=dt),
    "laplace": lambda rs, dt: rs.laplace(size=3, dtype=dt),
    "logistic": lambda rs, dt: rs.logistic(size=3, dtype=dt),
    "pareto": lambda rs, dt: rs.pareto(1.0, 3, dt),
    "power": lambda rs, dt: rs.power(1.0, 3, dt),
    "rayleigh": lambda rs, dt: rs.rayleigh(size=3, dtype=dt),
    "weibull": lambda rs, dt: rs.weibull(1.0, 3, dt),
    "standard_cauchy": lambda rs, dt: rs.standard_cauchy(3, dt),
    "triangular": lambda rs, dt: rs.triangular(0, 1, 2, 3, dt),
    "wald": lambda rs, dt: rs.wald(1.0, 1.0, 3, dt),
}


@pytest.mark.parametrize("name", sorted(_FLOAT_ONLY))
@pytest.mark.parametrize(
    "dtype", [np.float16, np.int64, np.int8, np.uint32, np.complex64], ids=lambda t: t.__name__
)
def test_float_only_methods_reject_other_dtypes(name, dtype):
    with pytest.raises(TypeError, match="only supports float32 and float64"):
        _FLOAT_ONLY[name](cp.random.RandomState(0), dtype)


def test_non_numeric_dtypes_are_type_errors():
    rs = cp.random.RandomState(0)
    for call in (
        lambda: rs.beta(1, 1, 3, "U3"),
        lambda: rs.poisson(1, 3, "M8[s]"),
        lambda: rs.gamma(1, 1, 3, "O"),
        lambda: cp.random.default_rng(0).beta(1, 1, 3, "U3"),
    ):
        with pytest.raises(TypeError, match="Unsupported dtype"):
            call()


# ---------------------------------------------------------------- any numeric dtype (GPU)

_ANY_DTYPE = {  # name: (call on a RandomState, kind)
    "beta": (lambda rs, dt, size: rs.beta(2.0, 3.0, size, dt), "f"),
    "gamma": (lambda rs, dt, size: rs.gamma(2.0, 1.5, size, dt), "f"),
    "standard_gamma": (lambda rs, dt, size: rs.standard_gamma(2.0, size, dt), "f"),
    "chisquare": (lambda rs, dt, size: rs.chisquare(5.0, size, dt), "f"),
    "f": (lambda rs, dt, size: rs.f(4.0, 6.0, size, dt), "f"),
    "noncentral_chisquare": (lambda rs, dt, size: rs.noncentral_chisquare(3.0, 2.0, size, dt), "f"),
    "noncentral_f": (lambda rs, dt, size: rs.noncentral_f(3.0, 5.0, 2.0, size, dt), "f"),
    "standard_t": (lambda rs, dt, size: rs.standard_t(5.0, size, dt), "f"),
    "vonmises": (lambda rs, dt, size: rs.vonmises(1.0, 2.0, size, dt), "f"),
    "dirichlet": (lambda rs, dt, size: rs.dirichlet([1.0, 2.0, 3.0], size, dt), "f"),
    "binomial": (lambda rs, dt, size: rs.binomial(10, 0.3, size, dt), "i"),
    "poisson": (lambda rs, dt, size: rs.poisson(4.0, size, dt), "i"),
    "geometric": (lambda rs, dt, size: rs.geometric(0.3, size, dt), "i"),
    "negative_binomial": (lambda rs, dt, size: rs.negative_binomial(5, 0.5, size, dt), "i"),
    "zipf": (lambda rs, dt, size: rs.zipf(3.0, size, dt), "i"),
    "logseries": (lambda rs, dt, size: rs.logseries(0.5, size, dt), "i"),
    "hypergeometric": (lambda rs, dt, size: rs.hypergeometric(10, 5, 4, size, dt), "i"),
}
_OTHER_DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int32, np.int64, np.uint8, np.uint64]


@gpu
@pytest.mark.parametrize("name", sorted(_ANY_DTYPE))
@testing.for_dtypes(_OTHER_DTYPES)
def test_any_dtype_is_the_natural_sample_cast(name, dtype):
    # A dtype the sampler does not make is drawn as float64 (int64 for counts) and cast, as CuPy's kernels store
    # into the asked dtype. The samplers that make float32 or a narrower integer compute in float64 (int64) and
    # convert at the end, so for every dtype the same seed gives the natural sample cast.
    call, kind = _ANY_DTYPE[name]
    natural = np.float64 if kind == "f" else np.int64
    got = call(cp.random.RandomState(3), dtype, (4, 3, 2))
    assert got.dtype == dtype and isinstance(got, cp.ndarray)
    assert got.shape == ((4, 3, 2, 3) if name == "dirichlet" else (4, 3, 2))
    values = host(call(cp.random.RandomState(3), natural, (4, 3, 2)))
    ok = np.ones(values.shape, bool)
    if np.dtype(dtype).kind in "iu":  # a value whose integer part the type cannot hold has no defined cast
        info = np.iinfo(dtype)
        ok = (np.trunc(values) >= info.min) & (np.trunc(values) <= info.max)
    assert ok.mean() >= 0.25
    np.testing.assert_array_equal(host(got)[ok], values[ok].astype(dtype))


@gpu
def test_counts_as_floats():
    x = host(cp.random.RandomState(1).poisson(4.0, N, np.float32))
    assert x.dtype == np.float32 and np.all(x == np.round(x)) and x.min() >= 0
    within(x, 4.0, 4.0)
    g = host(cp.random.RandomState(2).geometric(0.25, N, np.float64))
    within(g, 4.0, 0.75 / 0.0625)


@gpu
@testing.for_int_dtypes(name="n_dtype", no_bool=True)
def test_binomial_counts_of_any_integer_dtype(n_dtype):
    b = host(
        cp.random.RandomState(3).binomial(cp.asarray(np.full(10, 20, dtype=n_dtype)), 0.5, (N // 10, 10))
    )
    within(b.astype(np.float64), 10.0, 5.0)


# ---------------------------------------------------------------- parameters of any dtype and kind (GPU)

_PARAM_DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int32, np.int64, np.uint8, np.uint16]


@gpu
@testing.for_dtypes(_PARAM_DTYPES, name="param_dtype")
@pytest.mark.parametrize("kind", ["device", "numpy", "list"])
def test_parameters_of_any_dtype_and_kind(param_dtype, kind):
    # CuPy's tests pass parameters of every dtype as device arrays; NumPy's take lists and NumPy arrays.
    def param(value, shape=(3, 2)):
        a = np.full(shape, value, dtype=param_dtype)
        return cp.asarray(a) if kind == "device" else a if kind == "numpy" else a.tolist()

    rs = cp.random.RandomState(4)
    cases = [
        (rs.normal(param(2), param(3), size=(N // 6, 3, 2)), 2.0, 9.0),
        (rs.uniform(param(1), param(5), size=(N // 6, 3, 2)), 3.0, 16 / 12),
        (rs.gamma(param(3), param(2), size=(N // 6, 3, 2)), 6.0, 12.0),
        (rs.exponential(param(2), size=(N // 6, 3, 2)), 2.0, 4.0),
        (rs.chisquare(param(5), size=(N // 6, 3, 2)), 5.0, 10.0),
        (rs.poisson(param(5), size=(N // 6, 3, 2)), 5.0, 5.0),
        (rs.binomial(param(10), 0.5, size=(N // 6, 3, 2)), 5.0, 2.5),
        (rs.standard_gamma(param(3), size=(N // 6, 3, 2)), 3.0, 3.0),
        (rs.beta(param(2), param(2), size=(N // 6, 3, 2)), 0.5, 0.05),
        (rs.rayleigh(param(2), size=(N // 6, 3, 2)), 2 * math.sqrt(math.pi / 2), (4 - math.pi) / 2 * 4),
    ]
    for x, mean, var in cases:
        assert x.shape == (N // 6, 3, 2)
        within(host(x).astype(np.float64), mean, var)


@gpu
def test_size_none_gives_the_parameters_broadcast_shape():
    def shapes(xp):
        rs = xp.random.RandomState(0)
        return [
            rs.normal(xp.asarray(np.zeros((3, 1))), xp.asarray(np.ones(4))).shape,
            rs.gamma(xp.asarray(np.ones((2, 1, 3), np.int32)), 2.0).shape,
            rs.poisson(xp.asarray(np.full((5,), 3, np.uint8))).shape,
            rs.binomial([[5], [6]], xp.asarray(np.full(3, 0.5, np.float32))).shape,
            rs.exponential([1, 2, 3]).shape,
            rs.uniform(0, xp.asarray(np.ones((2, 2), np.int64))).shape,
            rs.noncentral_f(xp.asarray(np.ones((3, 2))), 2.0, xp.asarray(np.ones(2))).shape,
        ]

    assert shapes(cp) == shapes(np)


@gpu
@testing.for_float_dtypes(name="param_dtype")
def test_parameters_broadcast_against_size(param_dtype):
    rs = cp.random.RandomState(6)
    loc = cp.asarray(np.array([[0.0], [100.0], [200.0]], dtype=param_dtype))
    x = host(rs.normal(loc, 1.0, size=(2000, 3, 4)))
    assert x.shape == (2000, 3, 4)
    for i, m in enumerate((0.0, 100.0, 200.0)):
        within(x[:, i, :].ravel(), m, 1.0)
    lam = cp.asarray(np.array([1, 50], dtype=np.int32))
    p = host(rs.poisson(lam, size=(N // 2, 2)))
    within(p[:, 0], 1.0, 1.0)
    within(p[:, 1], 50.0, 50.0)


@gpu
def test_cupys_distribution_checks():
    # cupy_tests/random_tests/test_distributions.py's check: shape and dtype of _distributions.<name>(size=,
    # dtype=, **device params) against numpy.asarray(numpy.random.<name>(size=, **params), dtype).
    from cuarray.random import _distributions

    def check(name, params, dtype, shape=(4, 3, 2)):
        expected = np.asarray(getattr(np.random, name)(size=shape, **params), dtype)
        got = getattr(_distributions, name)(
            size=shape, dtype=dtype, **{k: cp.asarray(v) for k, v in params.items()}
        )
        assert got.shape == expected.shape and got.dtype == expected.dtype, name

    for dt in (np.float16, np.float32, np.float64):
        check("beta", {"a": np.full((3, 2), 3, dt), "b": np.full((), 3, dt)}, dt)
        check("dirichlet", {"alpha": np.ones(3, dt)}, dt, shape=(4, 3, 2, 3))
        check("gamma", {"shape": np.ones((3, 2), dt), "scale": np.ones((), dt)}, dt)
        check("vonmises", {"mu": np.ones((3, 2), dt), "kappa": np.ones((), dt)}, dt)
        check("chisquare", {"df": np.full((3, 2), 5, dt)}, dt)
        check("f", {"dfnum": np.ones((3, 2), dt), "dfden": np.ones((), dt)}, dt)
    for dt in (np.int8, np.uint8, np.int32, np.uint64):
        check("binomial", {"n": np.full((3, 2), 5, np.int16), "p": np.full((), 0.5, np.float16)}, dt)
        check("noncentral_chisquare", {"df": np.full((3, 2), 1.0), "nonc": np.full((), 1, np.float32)}, dt)
        check("noncentral_f", {"dfnum": np.ones((3, 2)), "dfden": np.ones(()), "nonc": np.ones((3, 2))}, dt)
        check("negative_binomial", {"n": np.full((3, 2), 5.5, np.float16), "p": np.full((), 0.5)}, dt)
        check("geometric", {"p": np.full((3, 2), 0.5, np.float32)}, dt)
        check("poisson", {"lam": np.full((3, 2), 5, np.float16)}, dt)
    for dt in (np.int32, np.int64):
        check(
            "hypergeometric",
            {
                "ngood": np.ones((3, 2), np.int32),
                "nbad": np.ones((), np.int64),
                "nsample": np.ones((3, 2), np.int32),
            },
            dt,
        )
        check("zipf", {"a": np.full((3, 2), 2, np.float16)}, dt)
        check("logseries", {"p": np.full((), 0.5, np.float32)}, dt)
    for dt in (np.float32, np.float64):
        check("normal", {"loc": np.ones((3, 2), np.float16), "scale": np.ones((), np.float16)}, dt)
        check("uniform", {"low": np.ones((3, 2), np.float16), "high": np.full((), 2, np.float32)}, dt)
        check("lognormal", {"mean": np.ones((3, 2), np.float16), "sigma": np.ones((3, 2))}, dt)
        check("exponential", {"scale": np.ones((3, 2), np.float16)}, dt)
        check("rayleigh", {"scale": np.zeros((3, 2), np.float16)}, dt)
        check("weibull", {"a": np.full((3, 2), np.inf, np.float16)}, dt)
        check("wald", {"mean": np.full((3, 2), 3, np.float16), "scale": np.full((), 3, np.float16)}, dt)
        check(
            "triangular", {"left": np.full((3, 2), -1), "mode": np.zeros(()), "right": np.full((3, 2), 2)}, dt
        )


# ---------------------------------------------------------------- Generator (GPU)


@gpu
@testing.for_dtypes([np.float16, np.float32, np.float64])
def test_generator_beta_dtype(dtype):
    x = cp.random.default_rng(1).beta(2.0, 5.0, size=N, dtype=dtype)
    assert x.dtype == dtype
    within(host(x).astype(np.float64), 2 / 7, 10 / (49 * 8), k=8.0)


@gpu
def test_generator_out_is_checked_as_numpy_checks_it():
    g = cp.random.default_rng(0)
    for method, kwargs in (
        ("random", {}),
        ("standard_normal", {}),
        ("standard_exponential", {}),
        ("standard_gamma", {"shape": 1.0}),
    ):
        f = getattr(g, method)
        with pytest.raises(TypeError, match="wrong type"):
            f(size=(3, 2), out=cp.zeros((3, 2), dtype=cp.float32), **kwargs)
        with pytest.raises(ValueError, match="not contiguous"):
            f(size=(3, 2), out=cp.zeros((4, 6))[0:3, 0:2], **kwargs)
        with pytest.raises(ValueError, match="size must match"):
            f(size=(3, 2), out=cp.zeros((3, 3)), **kwargs)
        out = cp.zeros((3, 2), dtype=cp.float32)
        assert f(out=out, dtype=np.float32, **kwargs) is out
        assert bool(cp.all(out != 0))
    fortran = cp.zeros((4, 6), order="F")
    assert g.random(out=fortran) is fortran  # NumPy takes F-contiguous out, except for standard_gamma
    with pytest.raises(ValueError, match="not contiguous"):
        g.standard_gamma(1.0, size=(4, 6), out=cp.zeros((4, 6), order="F"))
    empty = cp.empty((1, 0))
    assert g.standard_gamma(cp.empty((1, 0)), out=empty) is empty
    assert g.standard_gamma(cp.empty((1, 0))).shape == (1, 0)


@gpu
@pytest.mark.parametrize("bg", BIT_GENERATORS, ids=lambda c: c.__name__)
def test_generator_on_each_bit_generator(bg):
    g = cp.random.Generator(bg(21))
    u = host(g.random(N))
    assert stats.kstest(u, "uniform").pvalue > 1e-5
    np.testing.assert_array_equal(u, host(cp.random.Generator(bg(21)).random(N)))
    # Reassigning a fresh bit generator of the seed replays the stream (CuPy's tests reseed so).
    g.bit_generator = bg(21)
    np.testing.assert_array_equal(host(g.random(N)), u)
    z = host(cp.random.default_rng(bg(22)).standard_normal(N))
    assert stats.kstest(z, "norm").pvalue > 1e-5


@gpu
def test_bit_generators_of_one_seed_differ():
    draws = [host(cp.random.Generator(bg(5)).random(1000)) for bg in BIT_GENERATORS]
    for i in range(3):
        for j in range(i):
            assert np.mean(draws[i] == draws[j]) < 0.01


@gpu
@pytest.mark.parametrize("bg", BIT_GENERATORS, ids=lambda c: c.__name__)
def test_random_raw(bg):
    b = bg(7)
    x = b.random_raw(10)
    assert x.dtype == np.int32 and x.shape == (10,)
    np.testing.assert_array_equal(host(x), host(bg(7).random_raw(10)))
    assert not np.array_equal(host(x), host(bg(None).random_raw(10)))
    assert b.random_raw().shape == () and b.random_raw((2, 3)).shape == (2, 3)
    quiet, loud = bg(7), bg(7)
    quiet.random_raw(10), loud.random_raw(10)
    assert quiet.random_raw(5, output=False) is None
    loud.random_raw(5)
    np.testing.assert_array_equal(
        host(quiet.random_raw(4)), host(loud.random_raw(4))
    )  # output=False drew too
    words = host(bg(8).random_raw(N)).view(np.uint32).astype(np.float64)
    within(words, 2**31 - 0.5, (2.0**64 - 1) / 12)
    bits = np.unpackbits(host(bg(9).random_raw(N // 8)).view(np.uint8))
    within(bits.astype(np.float64), 0.5, 0.25)


# ---------------------------------------------------------------- RandomState extras (GPU)


@gpu
def test_tomaxint():
    rs = cp.random.RandomState(3)
    top = np.iinfo(np.int_).max
    for size, shape in ((None, ()), (3, (3,)), ((2, 3), (2, 3))):
        x = rs.tomaxint(size)
        assert x.shape == shape and x.dtype == np.int_
        assert bool(cp.all(x >= 0)) and bool(cp.all(x <= top))
    x = host(rs.tomaxint(N)).astype(np.float64)
    within(x / top, 0.5, 1 / 12)
    np.testing.assert_array_equal(
        host(cp.random.RandomState(3).tomaxint(5)), host(cp.random.RandomState(3).tomaxint(5))
    )


@gpu
def test_interval():
    rs = cp.random.RandomState(4)
    zero = rs._interval(0, (2, 3))
    assert zero.dtype == np.uint32 and zero.shape == (2, 3) and not bool(cp.any(zero))
    x = rs._interval(5, N)
    assert x.dtype == np.uint32
    counts = np.bincount(host(x).astype(np.int64), minlength=6)
    assert len(counts) == 6 and stats.chisquare(counts).pvalue > 1e-5
    assert rs._interval(10, None).shape == ()
    big = rs._interval(2**40, 1000)
    assert big.dtype == np.uint64 and int(big.max()) <= 2**40 and int(big.max()) > 2**38
    with pytest.raises(ValueError, match="non-negative"):
        rs._interval(-1, 3)


@gpu
def test_seed_takes_integers_of_any_dtype_and_arrays():
    rs = cp.random.RandomState(0)
    for seed in (np.int8(0), np.uint64(0), np.bool_(False), 0):
        rs.seed(seed)
        a = host(rs.uniform(size=100))
        rs.seed(0)
        np.testing.assert_array_equal(a, host(rs.uniform(size=100)))
    seed = np.random.randint(0, 2**31, size=40)
    rs.seed(seed)
    a = host(rs.uniform(size=100))
    rs.seed(seed)
    np.testing.assert_array_equal(a, host(rs.uniform(size=100)))
    for bad in (np.float32(0), np.complex128(0), 1.5):
        with pytest.raises(TypeError):
            rs.seed(bad)


@gpu
def test_choice_with_int_and_float16_probabilities():
    p = cp.asarray(np.array([0.5, 0.25, 0.125, 0.125], np.float16))
    x = host(cp.random.RandomState(2).choice(4, N, p=p))
    counts = np.bincount(x, minlength=4)
    assert stats.chisquare(counts, np.array([0.5, 0.25, 0.125, 0.125]) * N).pvalue > 1e-5
    m = host(
        cp.random.RandomState(3).multinomial(100000, cp.asarray(np.array([0.2, 0.3, 0.5], np.float32)), 4)
    )
    assert m.dtype == np.int64 and m.shape == (4, 3) and np.all(m.sum(axis=1) == 100000)


@gpu
def test_choice_takes_float32_probabilities_normalised_in_float32():
    # NumPy's tolerance of the sum follows p's dtype: a device p of float32 normalised in float32 is accepted.
    p = np.random.default_rng(0).random(1000).astype(np.float32)
    p /= p.sum()  # off by more than float64's tolerance (test_random_nogpu checks it)
    p = cp.asarray(p)
    for g in (cp.random.RandomState(1), cp.random.default_rng(1)):
        x = host(g.choice(1000, 50, p=p))
        assert x.shape == (50,) and x.dtype == np.int64 and ((0 <= x) & (x < 1000)).all()


@gpu
def test_generator_uniform_in_float32():
    g = cp.random.default_rng(3)
    x = g.uniform(-2.0, 3.0, (N,), dtype=cp.float32)
    assert x.dtype == np.float32 and x.shape == (N,)
    h = host(x)
    assert h.min() >= -2.0 and h.max() < 3.0
    assert stats.kstest(h.astype(np.float64), stats.uniform(-2.0, 5.0).cdf).pvalue > 1e-5
    assert cp.random.default_rng(3).uniform(0, 1, 4).dtype == np.float64
