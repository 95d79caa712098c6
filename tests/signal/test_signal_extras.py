"""correlation_lags, wiener, order_filter, deconvolve, vectorstrength and the transfer-function transforms
(normalize, bilinear, lp2lp, lp2hp, lp2bp, lp2bs, tf2ss, ss2tf) on the device against scipy.signal: SciPy's
values, dtypes and shapes for every dtype SciPy takes, odd sizes, non-contiguous inputs, device arrays and host
sequences where CuPy takes them, and SciPy's errors. The host maths alone is tested without a device in
test_signal_extras_nogpu.py."""

import itertools
from functools import partial

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
import signal_asserts
from conftest import make_data
from signal_asserts import EXACT

pytestmark = pytest.mark.gpu

# Device arrays of SciPy's dtypes and shapes (tuples element by element), values within 1e-10 (or the tolerance
# given) of the largest expected value; EXACT: equal, NaN where SciPy's.
assert_device = partial(signal_asserts.assert_device, default_tol=1e-10)


# ---------------------------------------------------------------- correlation_lags


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize(
    "n1,n2", [(1, 1), (1, 4), (4, 1), (5, 3), (6, 3), (3, 6), (100, 110), (101, 91), (10001, 9001)]
)
def test_correlation_lags_match_scipy(mode, n1, n2):
    assert_device(sig.correlation_lags(n1, n2, mode), ss.correlation_lags(n1, n2, mode), EXACT)


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("behind", [True, False])
def test_correlation_lags_find_a_shift(mode, behind):
    """SciPy's use: the lag at the correlation's maximum is the shift between two signals (CuPy's test's inputs)."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(1001)
    y = np.concatenate([rng.standard_normal(100), x]) if behind else x[100:]
    corr = sig.correlate(cp.asarray(x), cp.asarray(y), mode)
    lags = sig.correlation_lags(x.size, y.size, mode)
    expected = ss.correlation_lags(x.size, y.size, mode)[np.argmax(ss.correlate(x, y, mode))]
    assert int(lags[int(cp.argmax(corr))]) == expected == (-100 if behind else 100)


# ---------------------------------------------------------------- wiener

WIENER_DTYPES = [
    "bool",
    "int8",
    "uint8",
    "int16",
    "int64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]


@pytest.mark.parametrize("dtype", WIENER_DTYPES)
@pytest.mark.parametrize("shape", [(10,), (5, 10), (10, 3), (3, 4, 10), (1,), (2, 1)])
@pytest.mark.parametrize("mysize", [None, 3, 4, 1, (3, 4, 5)])
@pytest.mark.parametrize("noise", [None, 0.5, "array"])
def test_wiener_matches_scipy(dtype, shape, mysize, noise):
    """float64 (complex128) whatever the input, as SciPy's; integers squared in their own type (int8 and uint8
    wrap as SciPy's do)."""
    im = make_data(shape, dtype)
    if isinstance(mysize, tuple):
        mysize = mysize[: im.ndim]
    if noise == "array":  # a positive noise power per element
        noise = np.abs(make_data(shape, "float64", 1)) + 0.5
        noise_d = cp.asarray(noise)
    else:
        noise_d = noise
    with np.errstate(
        divide="ignore", invalid="ignore"
    ):  # SciPy divides by a zero variance where a window is flat
        expected = ss.wiener(im, mysize, noise)
    assert_device(sig.wiener(cp.asarray(im), mysize, noise_d), expected, 1e-8)


def test_wiener_strided_and_sizes():
    im = make_data((13, 9), "float64")
    for view in [(slice(None, None, 2), slice(None, None, -1)), (slice(1, None, 3), slice(None))]:
        for mysize in [(3, 5), [1, 3], np.array([5, 3])]:
            assert_device(sig.wiener(cp.asarray(im)[view], mysize), ss.wiener(im[view], mysize), 1e-10)
    assert_device(sig.wiener(cp.asarray(im).T), ss.wiener(im.T), 1e-10)


def test_wiener_errors():
    with pytest.raises(ValueError, match="in1 and in2 should have the same dimensionality"):
        sig.wiener(cp.ones((4, 5)), (3, 3, 3))
    with pytest.raises(TypeError, match=r"numpy\.ndarray"):
        sig.wiener(np.ones((4, 5)))


# ---------------------------------------------------------------- order_filter

ORDER_DTYPES = ["int8", "uint8", "int16", "int32", "int64", "uint64", "float32", "float64"]


def _masks(shape, seed):
    """The full window, and one with about a quarter of it (never the centre's row alone) left out."""
    rng = np.random.default_rng(seed)
    mask = rng.random(shape) > 0.25
    mask.flat[mask.size // 2] = True
    return [np.ones(shape, bool), mask]


@pytest.mark.parametrize("dtype", ORDER_DTYPES)
@pytest.mark.parametrize("shape", [(10,), (5, 10), (10, 3), (3, 4, 10), (1,), (2, 1), (0, 4)])
@pytest.mark.parametrize("domain", [3, (3, 3, 5), 1, 7])
def test_order_filter_matches_scipy(dtype, shape, domain):
    """Every rank of full and partial footprints, exactly; the footprint as a host array, a device array or a
    list. For a 1-D signal, a partial footprint and a middle rank SciPy 1.17's fast 1-D filter ranks the whole
    window (Note [Order filter as a sort]): that case is compared with SciPy's N-D filter, on a 1 x n signal."""
    a = make_data(shape, dtype)
    dims = domain[: a.ndim] if isinstance(domain, tuple) else (domain,) * a.ndim
    for i, mask in enumerate(_masks(dims, 3)):
        size = int(mask.sum())
        for rank in sorted({0, 1, size // 2, size - 1, -1, -size}):
            if not -size <= rank < size:
                continue
            ours = sig.order_filter(cp.asarray(a), [mask, cp.asarray(mask), mask.tolist()][i % 3], rank)
            if a.ndim == 1 and not mask.all() and 0 < rank % size < size - 1:
                assert_device(ours[None], ss.order_filter(a[None], mask[None], rank), EXACT)
            else:
                assert_device(ours, ss.order_filter(a, mask, rank), EXACT)


def test_order_filter_strided_blocked_and_nan():
    a = make_data((9, 8), "float64")
    for view in [(slice(None, None, -2), slice(1, None, 2)), (slice(None), slice(None, None, -1))]:
        assert_device(
            sig.order_filter(cp.asarray(a)[view], np.ones((3, 3)), 4),
            ss.order_filter(a[view], np.ones((3, 3)), 4),
            EXACT,
        )
    big = make_data((2000, 700), "float32", 4)  # over 2^25 window elements: filtered in two blocks
    mask = _masks((5, 5), 5)[1]
    assert_device(sig.order_filter(cp.asarray(big), mask, 7), ss.order_filter(big, mask, 7), EXACT)
    assert_device(
        sig.order_filter(cp.asarray(np.array(2.5)), np.ones(()), 0),
        ss.order_filter(np.array(2.5), np.ones(()), 0),
        EXACT,
    )


@pytest.mark.parametrize(
    "a,domain,rank,exc,match",
    [
        (
            np.ones((5, 10)),
            np.ones((4, 3)),
            0,
            ValueError,
            "Each dimension of domain argument should have an odd number of elements.",
        ),
        (np.ones(5, np.float16), np.ones(3), 0, ValueError, "dtype=float16 is not supported by order_filter"),
        (np.ones(5, bool), np.ones(3), 0, ValueError, "dtype=bool is not supported by order_filter"),
        (
            np.ones(5, np.complex64),
            np.ones(3),
            0,
            ValueError,
            "dtype=complex64 is not supported by order_filter",
        ),
        (np.ones((5, 4)), np.ones(3), 0, RuntimeError, r"footprint.ndim \(1\) must match len\(axes\) \(2\)"),
        (np.ones(5), np.ones(3), 3, RuntimeError, "rank not within filter footprint size"),
        (np.ones(5), np.ones(3), -4, RuntimeError, "rank not within filter footprint size"),
        (np.ones(5), np.zeros(3), 0, RuntimeError, "rank not within filter footprint size"),
        (np.ones(5), np.ones(3), 1.0, TypeError, "'float' object cannot be interpreted as an integer"),
    ],
)
def test_order_filter_errors(a, domain, rank, exc, match):
    """SciPy's errors, in its order (the domain's shape, the dtype, the rank's type, the dimensions, the rank)."""
    with pytest.raises(exc, match=match):
        ss.order_filter(a, domain, rank)
    with pytest.raises(exc, match=match):
        sig.order_filter(cp.asarray(a), domain, rank)


# ---------------------------------------------------------------- deconvolve


@pytest.mark.parametrize("order", [1, 2, 3])
def test_deconvolve_recovers_the_signal(order):
    """CuPy's test: a random signal convolved with a short filter is recovered, the remainder near zero."""
    rng = np.random.default_rng(order)
    x, b = rng.random(20), rng.random(order) * 0.3 + 0.1
    o = ss.convolve(x, b)
    quot, rem = sig.deconvolve(cp.asarray(o), cp.asarray(b))
    assert_device((quot, rem), ss.deconvolve(o, b), 1e-6)
    np.testing.assert_allclose(cp.asnumpy(quot), x, atol=1e-6)


@pytest.mark.parametrize("n,d", [(1, 1), (5, 2), (20, 3), (7, 7), (6, 1)])
@pytest.mark.parametrize(
    "dtype1,dtype2",
    [
        ("float64", "float64"),
        ("float32", "float32"),
        ("int16", "float64"),
        ("complex128", "float32"),
        ("float64", "int16"),
    ],
)
def test_deconvolve_matches_scipy(n, d, dtype1, dtype2):
    """float64 (complex128) results, from device arrays or lists (which CuPy's takes too)."""
    x, b = make_data(n, dtype1, 1), make_data(d, dtype2, 2)
    b[0] = 4  # a well-conditioned inverse filter
    x = ss.convolve(x, b)[:n] if n >= d else x
    expected = ss.deconvolve(x, b)
    assert_device(sig.deconvolve(cp.asarray(x), cp.asarray(b)), expected, 1e-6)
    assert_device(sig.deconvolve(x.tolist(), b.tolist()), ss.deconvolve(x.tolist(), b.tolist()), 1e-6)
    assert_device(
        sig.deconvolve(cp.asarray(x)[::-1], cp.asarray(b)[::-1]), ss.deconvolve(x[::-1], b[::-1]), 1e-6
    )


def test_deconvolve_longer_divisor_and_errors():
    """A divisor longer than the signal: SciPy's empty list and the signal itself as the remainder."""
    quot, rem = sig.deconvolve(cp.asarray([1.0, 2.0]), cp.asarray([1.0, 2.0, 3.0]))
    assert quot == [] and ss.deconvolve([1.0, 2.0], [1.0, 2.0, 3.0])[0] == []
    assert_device(rem, np.array([1.0, 2.0]), EXACT)
    with pytest.raises(
        ValueError, match=r"Parameter signal must be non-empty 1d array, but its shape is \(0,\)!"
    ):
        sig.deconvolve(cp.zeros(0), cp.ones(2))
    with pytest.raises(
        ValueError, match=r"Parameter signal must be non-empty 1d array, but its shape is \(2, 3\)!"
    ):
        sig.deconvolve(cp.ones((2, 3)), cp.ones(2))
    with pytest.raises(
        ValueError, match=r"Parameter divisor must be non-empty 1d array, but its shape is \(2, 1\)!"
    ):
        sig.deconvolve(cp.ones(3), cp.ones((2, 1)))


# ---------------------------------------------------------------- vectorstrength

EVENTS = [
    [0.5],
    [0.25] * 6,
    [0.1, 1.1, 2.1, 4.1, 10.1],
    [0.25, 0.5, 0.75],
    [0, 0.25, 0.5, 0.75],
    list(range(7)),
]
PERIODS = [5.0, 2, 1, [1, 2, 5.0], [1, 0.5], [1.0] * 10, 0.7]


@pytest.mark.parametrize("events", EVENTS)
@pytest.mark.parametrize("period", PERIODS)
def test_vectorstrength_matches_scipy(events, period):
    """CuPy's tests' events and periods; a scalar period gives 0-d device arrays (CuPy's; SciPy's are scalars);
    host sequences are taken as CuPy takes them."""
    expected = ss.vectorstrength(events, period)
    expected = tuple(np.asarray(e) for e in expected)
    for ev, per in [
        (cp.asarray(events), period),
        (events, cp.asarray(period)),
        (cp.asarray(events), cp.asarray(period)),
    ]:
        strength, phase = sig.vectorstrength(ev, per)
        assert_device(strength, expected[0], 1e-7)
        # The phase of a mean vector that is rounding noise (events spread evenly over a period) is noise too:
        # compared only where the strength is not.
        real = np.asarray(expected[0]) > 1e-9
        assert_device(phase, expected[1], 1e-7, angles=real)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "int64"])
def test_vectorstrength_precisions(dtype):
    """The periods' floating type sets the precision: float32 periods give float32 results (complex64 vectors),
    integer ones float64."""
    events = np.array([0.1, 1.3, 2.2, 4.7, 10.1])
    periods = np.array([1, 2, 3], dtype)
    assert_device(
        sig.vectorstrength(cp.asarray(events), cp.asarray(periods)), ss.vectorstrength(events, periods), 1e-6
    )


@pytest.mark.parametrize(
    "events,period,match",
    [
        ([[1, 2]], 1.0, "events cannot have dimensions more than 1"),
        (1.0, [[1]], "period cannot have dimensions more than 1"),
        (1.0, 0, "periods must be positive"),
        (1.0, -1, "periods must be positive"),
        ([1.0, 2.0], [1.0, 0.0], "periods must be positive"),
    ],
)
def test_vectorstrength_errors(events, period, match):
    with pytest.raises(ValueError, match=match):
        ss.vectorstrength(events, period)
    for ev, per in [(events, period), (cp.asarray(events), cp.asarray(period))]:
        with pytest.raises(ValueError, match=match):
            sig.vectorstrength(ev, per)


# ---------------------------------------------------------------- transfer functions on the device


TRANSFORMS = [
    ("normalize", ([1.5, 3.0], [2.0, 4.0, 1.0]), ()),
    ("lp2lp", ([1], [1, float(np.sqrt(2)), 1]), (0.38574256627112119,)),
    (
        "lp2hp",
        ([0.25059432325190018], [1, 0.59724041654134863, 0.92834805757524175, 0.25059432325190018]),
        (2 * np.pi * 5000,),
    ),
    ("lp2bp", ([1], [1, 2, 2, 1]), (2 * np.pi * 4000, 2 * np.pi * 2000)),
    ("lp2bs", ([1], [1, 1]), (0.41722257286366754, 0.18460575326152251)),
    ("bilinear", ([0.14879732743343033], [1, 0.54552236880522209, 0.14879732743343033]), (0.5,)),
    ("bilinear", ([1, 0, 0.17407467530697837], [1, 0.18460575326152251, 0.17407467530697837]), (0.5,)),
    ("tf2ss", ([1.0, 3.0, 5.0], [1.0, 2.0, 3.0]), ()),
    ("tf2ss", ([[1, 2, 3], [1, 2, 3]], [1, 2, 3, 4]), ()),
]


@pytest.mark.parametrize("name,ba,args", TRANSFORMS)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "complex128"])
def test_transforms_on_the_device(name, ba, args, dtype):
    """CuPy's tests' filters: device arrays, host arrays or lists in, device arrays out, SciPy's values and
    dtypes."""
    b, a = (np.asarray(v) * (8 if dtype == "int64" else 1) for v in ba)  # integer filters of the same shapes
    b, a = np.round(b).astype(dtype) if dtype == "int64" else b.astype(dtype), a.astype(dtype)
    expected = getattr(ss, name)(b, a, *args)
    tol = 1e-5 if dtype == "float32" else 1e-9
    for bb, aa in [(cp.asarray(b), cp.asarray(a)), (b, a)]:
        assert_device(getattr(sig, name)(bb, aa, *args), expected, tol)
    assert_device(getattr(sig, name)(*ba, *args), getattr(ss, name)(*ba, *args), 1e-9)


def test_state_space_on_the_device():
    """CuPy's tests: ss2tf of integer matrices, of a 3-output system, and the round trips through tf2ss."""
    A = np.array([[0, 1, 0], [0, 0, 1], [-3, -4, -2]])
    B, C, D = np.array([[0], [0], [1]]), np.array([[5, 1, 0]]), np.array([[0]])
    dev = [cp.asarray(m) for m in (A, B, C, D)]
    assert_device(sig.ss2tf(*dev), ss.ss2tf(A, B, C, D), 1e-14)
    A = np.array([[-1.0, 0.0, 1.0, 0.0], [-1.0, 0.0, 2.0, 0.0], [-4.0, 0.0, 3.0, 0.0], [-8.0, 8.0, 0.0, 4.0]])
    B, C = (
        np.array([[0.3], [0.0], [7.0], [0.0]]),
        np.array([[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [8.0, 8.0, 0.0, 0.0]]),
    )
    D = np.array([[0.0], [0.0], [1.0]])
    assert_device(sig.ss2tf(*(cp.asarray(m) for m in (A, B, C, D))), ss.ss2tf(A, B, C, D), 1e-12)
    for tf in [(2, 1), ([[5], [2]], 1), ([[1, 2], [1, 1]], [1, 2]), ([[1, 0, 1], [1, 1, 1]], [1, 1, 1])]:
        assert_device(sig.tf2ss(*tf), ss.tf2ss(*tf), 1e-14)
        assert_device(sig.ss2tf(*sig.tf2ss(*(cp.asarray(v) for v in tf))), ss.ss2tf(*ss.tf2ss(*tf)), 1e-14)
    # No states: SciPy's denominator 1, and D's values as the numerator, float64 as SciPy 1.18 gives them (its
    # abcd_normalize promotes the four matrices to one floating dtype; 1.17 kept D's integers).
    no_states = (np.zeros((0, 0)), np.zeros((0, 1)), np.zeros((1, 0)), [[3]])
    num, den = sig.ss2tf(*no_states)
    expected_num, expected_den = signal_asserts.integers_as_float64(ss.ss2tf(*no_states))
    assert den == expected_den == 1
    assert_device(num, expected_num, EXACT)
    assert num.dtype == np.float64


def test_normalize_warns_and_keeps_precision():
    with pytest.warns(sig.BadCoefficients):
        num, den = sig.normalize(cp.asarray([0.0, 1.0, 2.0]), cp.asarray([2.0, 4.0]))
    assert_device((num, den), (np.array([0.5, 1.0]), np.array([1.0, 2.0])), EXACT)
    b, a = np.array([1, 2], np.float32), np.array([2, 1], np.float32)
    assert_device(sig.normalize(cp.asarray(b), cp.asarray(a)), ss.normalize(b, a), EXACT)


@pytest.mark.parametrize("seed", range(10))
def test_bilinear_then_filter(seed):
    """A designed analog filter made digital on the device filters a device signal as SciPy's does."""
    rng = np.random.default_rng(seed)
    b, a = ss.butter(int(rng.integers(1, 6)), float(rng.uniform(1, 20)), analog=True)
    x = rng.standard_normal(200)
    bz, az = sig.bilinear(b, a, 100.0)
    expected = ss.lfilter(*ss.bilinear(b, a, 100.0), x)
    assert_device(sig.lfilter(bz, az, cp.asarray(x)), expected, 1e-9)
    assert list(itertools.chain(bz.shape, az.shape)) == [len(a), len(a)]
