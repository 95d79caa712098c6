"""cuarray.scipy.signal's chirp z-transform on the device against scipy.signal on the same inputs: czt, zoom_fft,
the CZT and ZoomFFT transforms (called on several signals, along any axis) and czt_points; input dtypes, 1-D and
N-D signals, m, w and a, ZoomFFT's ranges, endpoints and sampling frequencies, host and non-contiguous inputs,
CuPy's test signals and identities, and the errors that need the device to reach. The host parts (argument
errors, chirps, czt_points' values) are tested without a device in test_czt_nogpu.py."""

import itertools
from functools import partial

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
from conftest import make_data
from signal_asserts import EXACT, assert_device, same_error

pytestmark = pytest.mark.gpu

# By result dtype, relative to the largest |expected|: the chirps are SciPy's exactly (Note [Chirps on the host]
# in _czt.py) but the three FFTs are cuFFT's, rounding differently from pocketfft's, at CuPy's length
# (Note [Convolution length]).
TOL = {"F": 1e-4, "default": 1e-12}
assert_close = partial(assert_device, default_tol=TOL, finite_scale=True)

DTYPES = ["float32", "float64", "complex64", "complex128"]


def data(shape, dtype, seed=0):
    """make_data's values, scaled to unit size for the float types."""
    a = make_data(shape, dtype, seed)
    return (a / 30).astype(dtype) if a.dtype.kind in "fc" else a


# (m, w, a): the FFT's points, other numbers of them, spirals off the unit circle, real and integer w and a
CZT_PARAMS = [
    (None, None, 1 + 0j),
    (1, None, 1 + 0j),
    (5, None, 1 + 0j),
    (100, None, 1 + 0j),
    (None, None, 2),
    (16, 0.98534 + 0.17055j, 1.1),
    (40, 0.995 * np.exp(-1j * np.pi * 0.05), 0.8 * np.exp(1j * np.pi / 6)),
    (9, 1.01, 1),
    (9, np.exp(-2j * np.pi / 9), np.float32(0.875)),  # a float32 a: float32 powers a**-k, as SciPy's
]


@pytest.mark.parametrize("dtype", [*DTYPES, "float16", "int16", "bool"])
@pytest.mark.parametrize("m, w, a", CZT_PARAMS)
def test_czt_matches_scipy(m, w, a, dtype):
    for n in [1, 2, 7, 37]:
        x = data(n, dtype, n)
        expected = ss.czt(x, m, w, a)
        assert_close(sig.czt(cp.asarray(x), m, w, a), expected)
        assert_close(sig.czt(cp.asarray(x), m=m, w=w, a=a, axis=0), expected)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2, -3])
def test_nd_along_each_axis(axis, dtype):
    x = data((4, 9, 6), dtype)
    for m, w, a in CZT_PARAMS[:4] + CZT_PARAMS[5:6]:
        assert_close(sig.czt(cp.asarray(x), m, w, a, axis=axis), ss.czt(x, m, w, a, axis=axis))
    for fn, m, endpoint in [(2, None, False), ([0.2, 0.7], 11, True), ([0.5, 0.1], 3, False)]:
        assert_close(
            sig.zoom_fft(cp.asarray(x), fn, m, endpoint=endpoint, axis=axis),
            ss.zoom_fft(x, fn, m, endpoint=endpoint, axis=axis),
        )


# (fn, m, fs, endpoint): pairs and scalars, endpoints, sampling frequencies, decreasing and negative ranges,
# float32 ranges (SciPy's complex64 chirps, so complex64 results for single-precision signals)
ZOOM_PARAMS = [
    (2, None, 2, False),
    (2 - 2.0 / 28, None, 2, True),
    ([0, 2], None, 2, False),
    ([0, 2 - 2.0 / 28], None, 2, True),
    ([0.3, 0.7], 91, 2, True),
    ([0.3, 0.7], 1, 2, False),
    ([5, 27], 50, 1021, False),
    ([5, 27], 50, 1021, True),
    ((-0.4, 0.4), 310, 2 * np.pi, True),
    ([0.5, 0.1], 7, 2, False),
    (np.array([0.1, 0.5], np.float32), 40, 2, True),
    (np.float32(0.25), None, 2, False),
    (np.array([1, 3]), 7, 8, True),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fn, m, fs, endpoint", ZOOM_PARAMS)
def test_zoom_fft_matches_scipy(fn, m, fs, endpoint, dtype):
    # a float32 range's chirps are complex64: single precision, whatever the result's dtype
    tol = 1e-4 if np.asarray(fn).dtype == np.float32 else None
    for n in [1, 5, 28]:
        if endpoint and (m or n) == 1:
            continue  # SciPy's division by m - 1 (test_czt_nogpu.py compares its error)
        x = data(n, dtype, n)
        expected = ss.zoom_fft(x, fn, m, fs=fs, endpoint=endpoint)
        assert_close(sig.zoom_fft(cp.asarray(x), fn, m, fs=fs, endpoint=endpoint), expected, tol)


def test_single_precision_ranges_give_complex64():
    # SciPy's float32 range makes complex64 chirps (while the indices fit in int16): the result is complex64
    x = data(30, "float32")
    fn = np.array([0.1, 0.5], np.float32)
    expected = ss.zoom_fft(x, fn, 40, endpoint=True)
    assert expected.dtype == np.complex64
    assert_close(sig.zoom_fft(cp.asarray(x), fn, 40, endpoint=True), expected)


@pytest.mark.parametrize("dtype", DTYPES)
def test_transforms_called_on_several_signals(dtype):
    cases = [
        (sig.CZT(9, 12, 0.98534 + 0.17055j, 1.1), ss.CZT(9, 12, 0.98534 + 0.17055j, 1.1)),
        (sig.CZT(9), ss.CZT(9)),
        (
            sig.ZoomFFT(9, [0.2, 0.6], 5, fs=3, endpoint=True),
            ss.ZoomFFT(9, [0.2, 0.6], 5, fs=3, endpoint=True),
        ),
        (sig.ZoomFFT(9, 1.5), ss.ZoomFFT(9, 1.5)),
    ]
    for (ours, theirs), seed in itertools.product(cases, range(2)):
        for shape, axis in [
            ((9,), -1),
            ((9,), 0),
            ((3, 9), -1),
            ((9, 4), 0),
            ((2, 9, 3), 1),
            ((2, 9, 3), -2),
        ]:
            x = data(shape, dtype, seed)
            assert_close(ours(cp.asarray(x), axis=axis), theirs(x, axis=axis))
        assert (ours.m, ours.n, ours.w, ours.a) == (theirs.m, theirs.n, theirs.w, theirs.a)
        assert_device(ours.points(), theirs.points(), EXACT)


def test_zoom_fft_attributes():
    ours, theirs = sig.ZoomFFT(9, [0.2, 0.6], 5, fs=3), ss.ZoomFFT(9, [0.2, 0.6], 5, fs=3)
    assert (ours.f1, ours.f2, ours.fs) == (theirs.f1, theirs.f2, theirs.fs)


def test_host_and_non_contiguous_inputs():
    x = data((6, 20), "complex128")
    for given in [
        x,
        x.tolist(),
        cp.asarray(x),
    ]:  # host inputs are copied to the device, as CuPy's asarray does
        assert_close(sig.czt(given, 7), ss.czt(x, 7))
        assert_close(sig.zoom_fft(given, [0.1, 0.3], 7), ss.zoom_fft(x, [0.1, 0.3], 7))
        assert_close(sig.CZT(6)(given, axis=0), ss.CZT(6)(x, axis=0))
    assert_close(sig.czt([1, 2, 3, 4], 5), ss.czt([1, 2, 3, 4], 5))  # integers
    strided = x[::2, ::-3]
    assert_close(sig.czt(cp.asarray(x)[::2, ::-3], 9, axis=0), ss.czt(strided, 9, axis=0))


def test_device_parameters():
    # w, a and fn given as device scalars and arrays take their host values
    x = data(10, "float64")
    w, a = np.complex128(0.98534 + 0.17055j), np.float64(1.1)
    assert_close(sig.czt(cp.asarray(x), 12, cp.asarray(w), cp.asarray(a)), ss.czt(x, 12, w, a))
    assert_device(sig.czt_points(12, cp.asarray(w), cp.asarray(a)), ss.czt_points(12, w, a), EXACT)
    assert_close(sig.zoom_fft(cp.asarray(x), cp.asarray([0.1, 0.4]), 8), ss.zoom_fft(x, [0.1, 0.4], 8))


@pytest.mark.parametrize(
    "m, w, a",
    [(1, None, 1 + 0j), (8, None, 1 + 0j), (101, None, 1 + 0j), (10007, None, 1 + 0j), (7, 1, 1 + 0j)]
    + [(11, 2, 1 + 0j), (11, 2, 1), (12, 2.0, 1), (91, 0.995 * np.exp(-1j * np.pi * 0.05), 0.8j)],
)
def test_czt_points_are_scipys_exactly(m, w, a):
    assert_device(sig.czt_points(m, w, a), ss.czt_points(m, w, a), EXACT)  # computed on the host, then copied


# ------------------------------------------------------------------------------------------- CuPy's tests
def _cupy_checks(x, s):
    """The transforms of CuPy's check functions (SciPy's test_czt), by `s` (scipy.signal or cuarray's)."""
    n = x.shape[-1]
    over = 10
    w = np.linspace(0, 2 - 2.0 / n, n)
    return (
        s.czt(x),
        s.czt(x, 100 * n),
        s.zoom_fft(x, [0, 2 - 2.0 / n], endpoint=True),
        s.zoom_fft(x, [0, 2]),
        s.zoom_fft(x, 2 - 2.0 / n, endpoint=True),
        s.zoom_fft(x, 2),
        s.zoom_fft(x, [0, 2 - 2.0 / (over * n)], m=over * n, endpoint=True),
        s.zoom_fft(x, [0, 2], m=over * n),
        s.zoom_fft(x, [w[3 % n], w[6 % n]], m=3 * over + 1, endpoint=True),
    )


def _cupy_signals():
    t = np.linspace(-2, 2, 128)
    u = np.linspace(0, 1, 128)
    sines = np.zeros(100, complex)
    sines[[1, 5, 21]] = 1
    return {
        **{f"range {n}": np.arange(n) for n in range(95, 100)},
        "gauss": np.exp(-(t**2) / 0.01),
        "linear": np.array([1, 2, 3, 4, 5, 6, 7]),
        "spikes": np.sin(2 * np.pi * u * 5) + np.sin(2 * np.pi * u * 13),
        "sines": sines,
        "sines plus": sines + 1j * np.linspace(0, 0.5, 100),
        "random": np.random.default_rng(1).random(101),
        "random 2-D": np.random.default_rng(2).random((200, 20)),
        "arange 3-D": np.arange(3 * 2 * 28).reshape(3, 2, 28),
    }


SIGNALS = _cupy_signals()


@pytest.mark.parametrize("name", list(SIGNALS))
def test_cupys_signals(name):
    x = SIGNALS[name]
    assert_close(_cupy_checks(cp.asarray(x), sig), _cupy_checks(x, ss))


@pytest.mark.parametrize("n", [101, 1009, 10007])
def test_large_prime_lengths(n):
    x = np.random.default_rng(n).random(n)
    assert_close(sig.czt(cp.asarray(x)), ss.czt(x))


def test_czt_is_the_fft():
    for n in [1, 2, 11, 97, 1000, 4099, 65537]:
        x = cp.asarray(np.random.default_rng(n).standard_normal(n))
        np.testing.assert_allclose(cp.asnumpy(sig.czt(x)), cp.asnumpy(cp.fft.fft(x)), rtol=1e-10, atol=1e-9)


@pytest.mark.parametrize("m", [1, 3, 5, 8, 101, 1021])
@pytest.mark.parametrize("a", [1, 2, 0.5, 1.1])
@pytest.mark.parametrize("w", [None, 0.98534 + 0.17055j])  # off the unit circle, not far enough to explode
def test_czt_of_impulses(m, w, a):
    # CuPy's (SciPy's) identities: the z-transform of an impulse is 1, of an impulse delayed by d samples z**-d
    points = cp.asnumpy(sig.czt_points(m, w, a))
    for impulse in ([0, 0, 1], [0, 0, 1, 0, 0], [0, 0, 1] + [0] * 100):
        impulse = cp.asarray(impulse)
        for delay in range(3):
            got = cp.asnumpy(sig.czt(impulse[2 - delay :], m, w, a))
            np.testing.assert_allclose(got, points**-delay, rtol=1e-10)


# ------------------------------------------------------------------------------------------------ errors
def test_errors_with_a_transform():
    x = data((3, 4), "float64")
    same_error(lambda: sig.CZT(5)(cp.asarray(x)), lambda: ss.CZT(5)(x))
    same_error(lambda: sig.CZT(3)(cp.asarray(x)), lambda: ss.CZT(3)(x))
    same_error(lambda: sig.ZoomFFT(4, 0.5)(cp.asarray(x), axis=0), lambda: ss.ZoomFFT(4, 0.5)(x, axis=0))
    same_error(lambda: sig.CZT(4)(cp.asarray(x), axis=2), lambda: ss.CZT(4)(x, axis=2))
    same_error(lambda: sig.CZT(4)(cp.asarray(x), -1), lambda: ss.CZT(4)(x, -1))  # axis is keyword-only
    same_error(lambda: sig.CZT(4)(cp.asarray(2.0)), lambda: ss.CZT(4)(np.asarray(2.0)))
    same_error(lambda: sig.czt(cp.asarray(2.0)), lambda: ss.czt(np.asarray(2.0)))
    same_error(lambda: sig.zoom_fft(cp.ones((2, 0)), 0.5), lambda: ss.zoom_fft(np.ones((2, 0)), 0.5))
