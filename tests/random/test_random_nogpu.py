"""cuarray.random without a device: the Philox reference, every kernel compiling for sm_90, and the argument
errors NumPy and CuPy raise (all raised before anything touches the device)."""

import math
from decimal import Decimal
from fractions import Fraction

import cuarray as cp
import numpy as np
import pytest
from test_kernel_sources import S, _compile_together

M0, M1, W0, W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85


def philox4x32_10(counter, key):
    """Philox4x32-10 (Random123's definition) on Python ints, or elementwise on uint64 arrays of 32-bit words."""
    c, k = list(counter), list(key)
    for _ in range(10):
        p0, p1 = M0 * c[0], M1 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & 0xFFFFFFFF, (p0 >> 32) ^ c[3] ^ k[1], p0 & 0xFFFFFFFF]
        k = [(k[0] + W0) & 0xFFFFFFFF, (k[1] + W1) & 0xFFFFFFFF]
    return c


def reference_words(seed, offset, groups, draw=0):
    """Draw `draw` of each work item at positions offset .. offset + groups - 1 (Note [Random streams])."""
    pos = np.arange(offset, offset + groups, dtype=np.uint64)
    counter = [np.full(groups, draw, np.uint64), pos & 0xFFFFFFFF, pos >> 32, np.zeros(groups, np.uint64)]
    return (
        np.stack(philox4x32_10(counter, [seed & 0xFFFFFFFF, seed >> 32]), axis=1)
        .astype(np.uint32)
        .reshape(-1)
    )


def test_philox_reference_matches_random123_known_answers():
    assert philox4x32_10([0, 0, 0, 0], [0, 0]) == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
    assert philox4x32_10([0xFFFFFFFF] * 4, [0xFFFFFFFF] * 2) == [
        0x408F276D,
        0x41C83B0E,
        0xA20BC7C6,
        0x6D5451FD,
    ]
    assert philox4x32_10([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], [0xA4093822, 0x299F31D0]) == [
        0xD16CFE09,
        0x94FDCCEB,
        0x5001E420,
        0x24126EA1,
    ]


def test_reference_words_on_arrays_match_one_counter_at_a_time():
    seed, offset = 0x0123456789ABCDEF, 2**32 - 2  # positions that carry into the counter's third word
    words = reference_words(seed, offset, 4, draw=1)
    for g in range(4):
        pos = offset + g
        expected = philox4x32_10([1, pos & 0xFFFFFFFF, pos >> 32, 0], [seed & 0xFFFFFFFF, seed >> 32])
        assert words[4 * g : 4 * g + 4].tolist() == expected


FLOAT_DISTS = ["uniform", "normal", "exponential", "gamma", "beta"]
INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


def test_random_kernels_compile_for_sm90():
    # Every distribution and dtype once; the index width and the array-parameter form change the same lines
    # for every dtype, so they are compiled for one dtype of each kind (the whole product took minutes on a
    # loaded host).
    other_forms = [(True, True), (False, True), (True, False)]  # (wide, arrays)
    kernels = [S.random(d, t, False, False) for d in FLOAT_DISTS for t in ("float32", "float64")]
    kernels += [S.random(d, "float64", w, a) for d in FLOAT_DISTS for w, a in other_forms]
    kernels += [S.random(d, t, False, False) for d in ("poisson", "binomial") for t in INT_DTYPES]
    kernels += [
        S.random(d, t, w, a)
        for d in ("poisson", "binomial")
        for t in ("int64", "uint8")
        for w, a in other_forms
    ]
    kernels += [S.random_integers(t, w) for t in ["bool"] + INT_DTYPES for w in (False, True)]
    kernels += [S.random_choice(w) for w in (False, True)]
    kernels += [f(w) for f in (S.permutation_keys, S.bitonic_step, S.bitonic_block) for w in (False, True)]
    kernels += [S.gather_rows(b, w) for b in (1, 2, 4, 8, 16) for w in (False, True)]
    cubin = _compile_together(kernels)
    for _, name in kernels:
        assert name.encode() in cubin


def test_kernel_names():
    assert S.random("normal", np.float32, False, False)[1] == "random_normal_float32"
    assert S.random("normal", np.float32, False, True)[1] == "random_normal_arrays_float32"
    assert S.random_integers("uint8", True)[1] == "random_integers_uint8_w"


def test_bad_distribution_and_dtype_in_the_core():
    with pytest.raises(ValueError, match="unknown distribution"):
        S.random("cauchy", "float32", False)


def test_random_is_imported_lazily():
    from conftest import describe, run_python

    proc = run_python(
        code="import sys, cuarray\nprint('cuarray.random' in sys.modules)\n"
        "import cuarray as cp\ncp.random.RandomState(3)\nprint('ok')"
    )
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout.split() == ["False", "ok"]


rs = cp.random.RandomState(0)
gen = cp.random.default_rng(0)

ERRORS = {
    "rand_negative": (lambda: rs.rand(-1), ValueError, "negative dimensions are not allowed"),
    "randn_negative": (lambda: rs.randn(2, -1), ValueError, "negative dimensions are not allowed"),
    "uniform_negative_size": (lambda: rs.uniform(size=-1), ValueError, "negative dimensions"),
    "rand_float_size": (lambda: rs.rand(2.5), TypeError, "cannot be interpreted as an integer"),
    "randn_int_dtype": (lambda: rs.randn(3, dtype=np.int64), TypeError, "only supports float32 and float64"),
    "randn_float16": (lambda: rs.randn(3, dtype=np.float16), TypeError, "only supports float32 and float64"),
    "module_randn_int": (lambda: cp.random.randn(3, 3, dtype=int), TypeError, "float32 and float64"),
    "normal_complex": (lambda: rs.normal(size=3, dtype=np.complex64), TypeError, "float32 and float64"),
    "randint_equal": (lambda: rs.randint(5, 5), ValueError, "low >= high"),
    "randint_reversed": (lambda: rs.randint(5, 3, size=3), ValueError, "low >= high"),
    "randint_low_bound": (
        lambda: rs.randint(-1, 100, dtype=np.uint8),
        ValueError,
        "low is out of bounds for uint8",
    ),
    "randint_high_bound": (
        lambda: rs.randint(0, 300, dtype=np.uint8),
        ValueError,
        "high is out of bounds for uint8",
    ),
    "randint_float_dtype": (lambda: rs.randint(0, 3, dtype=np.float32), TypeError, "Unsupported dtype"),
    "randint_array_reversed": (
        lambda: rs.randint(np.array([5, 1]), np.array([3, 2])),
        ValueError,
        "low >= high",
    ),
    "randint_array_low_bound": (
        lambda: rs.randint(np.array([-1, 0]), 5, dtype=np.uint8),
        ValueError,
        "low is out of bounds for uint8",
    ),
    "randint_array_high_bound": (
        lambda: rs.randint(0, np.array([3, 300]), dtype=np.uint8),
        ValueError,
        "high is out of bounds for uint8",
    ),
    "randint_array_shapes": (lambda: rs.randint(np.arange(2), np.arange(3, 6)), ValueError, "broadcast"),
    "randint_array_size": (lambda: rs.randint([0, 1], [1, 2], size=(3,)), ValueError, "shape mismatch"),
    "integers_array_endpoint": (
        lambda: gen.integers(np.array([5, 0]), np.array([4, 0]), endpoint=True),
        ValueError,
        "low > high",
    ),
    "integers_equal": (lambda: gen.integers(5, 5), ValueError, "low >= high"),
    "integers_endpoint": (lambda: gen.integers(5, 4, endpoint=True), ValueError, "low > high"),
    "choice_zero": (lambda: rs.choice(0), ValueError, "a must be greater than 0 unless no samples are taken"),
    "choice_empty": (
        lambda: rs.choice([], size=2),
        ValueError,
        "'a' cannot be empty unless no samples are taken",
    ),
    "choice_2d": (lambda: rs.choice([[1, 2], [3, 4]], 2), ValueError, "a must be 1-dimensional"),
    "choice_float": (lambda: rs.choice(2.5, 2), ValueError, "a must be 1-dimensional or an integer"),
    "choice_too_many": (lambda: rs.choice(3, 5, replace=False), ValueError, "Cannot take a larger sample"),
    "choice_p_size": (lambda: rs.choice(3, 2, p=[0.5, 0.5]), ValueError, "'a' and 'p' must have same size"),
    "choice_p_negative": (lambda: rs.choice(3, 2, p=[0.5, 0.6, -0.1]), ValueError, "not non-negative"),
    "choice_p_sum": (lambda: rs.choice(3, 2, p=[0.5, 0.6, 0.1]), ValueError, "do not sum to 1"),
    "choice_p_2d": (lambda: rs.choice(3, 2, p=[[0.5, 0.4, 0.1]]), ValueError, "'p' must be 1-dimensional"),
    # NumPy's messages, RandomState's and Generator's: NaN is named before a negative entry and the sum.
    "choice_p_nan": (lambda: rs.choice(2, 2, p=[0.5, np.nan]), ValueError, "^probabilities contain NaN$"),
    "generator_choice_p_nan": (
        lambda: gen.choice(2, 2, p=[np.nan, 1]),
        ValueError,
        "^Probabilities contain NaN$",
    ),
    "generator_choice_p_negative": (
        lambda: gen.choice(3, 2, p=[0.5, 0.6, -0.1]),
        ValueError,
        "^Probabilities are not non-negative$",
    ),
    "generator_choice_p_sum": (
        lambda: gen.choice(3, 2, p=[0.5, 0.6, 0.1]),
        ValueError,
        "^Probabilities do not sum to 1. See Notes section of docstring for more information.$",
    ),
    "choice_p_inf_minus_inf": (
        lambda: rs.choice(2, 2, p=[np.inf, -np.inf]),
        ValueError,
        "^probabilities contain NaN$",
    ),
    "choice_p_overflow": (
        lambda: rs.choice(2, 2, p=[1e308, 1e308]),
        ValueError,
        "^probabilities do not sum to 1$",
    ),
    "generator_choice_p_2d": (
        lambda: gen.choice(2, 2, p=[[0.5, 0.5]]),
        ValueError,
        "^p must be 1-dimensional$",
    ),
    "generator_choice_p_size": (
        lambda: gen.choice(2, 2, p=[0.5, 0.25, 0.25]),
        ValueError,
        "^a and p must have same size$",
    ),
    "generator_permutation_float": (
        lambda: gen.permutation(5.0),
        np.exceptions.AxisError,
        "axis 0 is out of bounds for array of dimension 0",
    ),
    # A 0-d array is no integer for permutation: NumPy's IndexError (RandomState) and AxisError (Generator).
    "permutation_0d": (
        lambda: rs.permutation(np.array(5)),
        IndexError,
        "x must be an integer or at least 1-dimensional",
    ),
    "generator_permutation_0d": (
        lambda: gen.permutation(np.array(5)),
        np.exceptions.AxisError,
        "axis 0 is out of bounds for array of dimension 0",
    ),
    "generator_uniform_int": (
        lambda: gen.uniform(0, 1, 3, dtype=np.int32),
        TypeError,
        "Unsupported dtype dtype\\('int32'\\) for uniform",
    ),
    "choice_p_no_replace": (
        lambda: rs.choice(3, 2, replace=False, p=[0.5, 0.4, 0.1]),
        NotImplementedError,
        "without replacement",
    ),
    "permutation_float": (
        lambda: rs.permutation(2.5),
        IndexError,
        "x must be an integer or at least 1-dimensional",
    ),
    "shuffle_numpy": (lambda: rs.shuffle(np.zeros(3)), TypeError, "cuarray.ndarray"),
    "normal_scale": (lambda: rs.normal(0, -1), ValueError, "scale < 0"),
    "exponential_scale": (lambda: rs.exponential(-1), ValueError, "scale < 0"),
    "gamma_shape": (lambda: rs.gamma(-1), ValueError, "shape < 0"),
    "gamma_scale": (lambda: rs.gamma(1, -1), ValueError, "scale < 0"),
    "beta_a": (lambda: rs.beta(0, 1), ValueError, "a <= 0"),
    "beta_b": (lambda: rs.beta(1, -2), ValueError, "b <= 0"),
    "poisson_negative": (lambda: rs.poisson(-1), ValueError, "lam < 0 or lam is NaN"),
    "poisson_nan": (lambda: rs.poisson(np.nan), ValueError, "lam < 0 or lam is NaN"),
    "poisson_large": (lambda: rs.poisson(1e20), ValueError, "lam value too large"),
    "poisson_str_dtype": (lambda: rs.poisson(1, dtype="U3"), TypeError, "Unsupported dtype"),
    "binomial_n": (lambda: rs.binomial(-1, 0.5), ValueError, "n < 0"),
    "binomial_p": (lambda: rs.binomial(3, 1.5), ValueError, "p < 0, p > 1 or p is NaN"),
    "binomial_p_nan": (lambda: rs.binomial(3, np.nan), ValueError, "p < 0, p > 1 or p is NaN"),
    "binomial_p_array": (lambda: rs.binomial(3, [0.5, -0.1]), ValueError, "p < 0, p > 1 or p is NaN"),
    "uniform_range": (lambda: rs.uniform(-1e308, 1e308), OverflowError, "Range exceeds valid bounds"),
    "normal_broadcast": (lambda: rs.normal(np.zeros(3), 1, size=(2, 2)), ValueError, "shape mismatch"),
    "seed_negative": (lambda: rs.seed(-1), ValueError, "Seed must be between 0 and 2\\*\\*64 - 1"),
    "seed_large": (lambda: cp.random.RandomState(2**64), ValueError, "Seed must be between"),
    "seed_float": (lambda: cp.random.RandomState(1.5), TypeError, "seed must be an integer"),
    "default_rng_negative": (lambda: cp.random.default_rng(-1), ValueError, "expected non-negative integer"),
    "generator_random_int": (
        lambda: gen.random(3, dtype=np.int32),
        TypeError,
        "Unsupported dtype dtype\\('int32'\\) for random",
    ),
    "generator_standard_normal_f16": (
        lambda: gen.standard_normal(3, dtype=np.float16),
        TypeError,
        "Unsupported dtype dtype\\('float16'\\) for standard_normal",
    ),
    "generator_out_numpy": (lambda: gen.random(out=np.zeros(3)), TypeError, "out must be a cuarray.ndarray"),
    "set_random_state": (lambda: cp.random.set_random_state(3), TypeError, "RandomState"),
    # A parameter that is no number: NumPy's TypeError (CuPy's RandomState raises ValueError).
    "poisson_none": (lambda: rs.poisson(None), TypeError, "must be real number, not NoneType"),
    "standard_gamma_none": (lambda: rs.standard_gamma(None), TypeError, "must be real number, not NoneType"),
    "generator_poisson_none": (lambda: gen.poisson(None), TypeError, "must be real number, not NoneType"),
    "normal_none": (lambda: rs.normal(None), TypeError, "must be real number, not NoneType"),
    "poisson_fraction_checked": (lambda: rs.poisson(Fraction(-1, 2)), ValueError, "lam < 0"),
    "gamma_decimal_checked": (lambda: rs.gamma(Decimal("-1.5")), ValueError, "shape < 0"),
    # A scalar alpha is CuPy's: it needs a size whose last axis holds the categories.
    "dirichlet_scalar_no_size": (lambda: rs.dirichlet(5), TypeError, "object of type 'int' has no len"),
    "generator_dirichlet_scalar_no_size": (lambda: gen.dirichlet(1.5), TypeError, "'float' has no len"),
    "dirichlet_scalar_nonpositive": (lambda: rs.dirichlet(0.0, size=3), ValueError, "alpha <= 0"),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_argument_errors(case):
    call, exc, match = ERRORS[case]
    with pytest.raises(exc, match=match):
        call()


def test_choice_probabilities_within_their_dtypes_tolerance():
    # NumPy's tolerance of p's sum is sqrt(eps) of p's own floating dtype where wider than float64's: float32
    # probabilities normalised in float32 pass (the sum here is off by 3e-8 in float64).
    from cuarray.random._sampler import _cdf

    p = np.random.default_rng(0).random(1000).astype(np.float32)
    p /= p.sum()
    assert abs(math.fsum(p.astype(np.float64)) - 1) > np.sqrt(np.finfo(np.float64).eps)
    np.random.RandomState(0).choice(1000, 5, p=p)  # NumPy takes it
    for legacy in (True, False):
        cdf = _cdf(p, 1000, legacy)
        assert cdf[-1] == 1.0 and cdf.dtype == np.float64
        with pytest.raises(ValueError, match="do not sum to 1"):
            _cdf(p.astype(np.float64), 1000, legacy)  # the same values as float64: float64's tolerance


def test_default_rng_takes_seeds_of_any_size():
    # NumPy and CuPy take any non-negative integer (through SeedSequence); Philox4x3210 does the same.
    np.random.default_rng(2**70)
    assert cp.random.default_rng(2**70).bit_generator.seed == cp.random.Philox4x3210(2**70).seed
    assert cp.random.default_rng(2**64 - 1).bit_generator.seed == 2**64 - 1  # below: the integer is the key


def test_numpy_raises_the_same_types():
    # The error types above are NumPy's own for the same calls.
    r = np.random.RandomState(0)
    for call, exc in [
        (lambda: r.rand(-1), ValueError),
        (lambda: r.randint(5, 5), ValueError),
        (lambda: r.randint(0, 3, dtype=np.float32), TypeError),
        (lambda: r.choice(0), ValueError),
        (lambda: r.permutation(2.5), IndexError),
        (lambda: r.normal(0, -1), ValueError),
        (lambda: r.poisson(-1), ValueError),
        (lambda: r.uniform(-1e308, 1e308), OverflowError),
        (lambda: r.poisson(None), TypeError),
        (lambda: r.standard_gamma(None), TypeError),
    ]:
        with pytest.raises(exc):
            call()


def test_environment_seed_parsing(monkeypatch):
    from cuarray.random._sampler import environment_seed

    monkeypatch.delenv("CUARRAY_SEED", raising=False)
    monkeypatch.delenv("CUPY_SEED", raising=False)
    assert environment_seed() is None
    monkeypatch.setenv("CUPY_SEED", "42")
    assert environment_seed() == 42
    monkeypatch.setenv("CUARRAY_SEED", "7")
    assert environment_seed() == 7  # cuarray's own variable wins
    monkeypatch.setenv("CUARRAY_SEED", "seven")
    with pytest.raises(ValueError, match="CUARRAY_SEED must be an integer"):
        environment_seed()


def test_state_seed_and_offset():
    r = cp.random.RandomState(2**64 - 1)
    assert (r._state.seed, r._state.offset) == (2**64 - 1, 0)
    r.seed(5)
    assert (r._state.seed, r._state.offset) == (5, 0)
    assert cp.random.RandomState()._state.seed != cp.random.RandomState()._state.seed  # fresh entropy
