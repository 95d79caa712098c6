"""Order selection, notch and comb designs, analog and zero-pole responses, group delay, state-space conversions,
partial fractions and qmf on the device against SciPy: device arguments read back, host arguments taken as SciPy
takes them, results device arrays of SciPy's dtypes and shapes (an order an int, one natural frequency a 0-d
array, as CuPy returns them), SciPy's errors and warnings. The host maths alone is tested without a device in
test_filter_extras_nogpu.py."""

import warnings
from functools import partial

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
from signal_asserts import assert_device

pytestmark = pytest.mark.gpu


assert_close = partial(assert_device, default_tol=1e-12)


def on_device(*arrays):
    return tuple(cp.asarray(a) for a in arrays)


@pytest.mark.parametrize("name", ["buttord", "cheb1ord", "cheb2ord"])
@pytest.mark.parametrize(
    "wp,ws,kwargs",
    [
        (0.2, 0.3, {}),
        (0.3, 0.2, {}),
        ([0.2, 0.5], [0.14, 0.6], {}),
        ([0.14, 0.6], [0.2, 0.5], {}),  # bandstop
        ([200, 500], [140, 600], {"fs": 2000}),
        (20.0, 30.0, {"analog": True}),
        (np.float32(0.2), np.float32(0.3), {}),  # SciPy's float32 frequency
    ],
    ids=str,
)
def test_order_selection_on_the_device(name, wp, ws, kwargs):
    expected = getattr(ss, name)(wp, ws, 3, 40, **kwargs)
    assert_close(getattr(sig, name)(wp, ws, 3, 40, **kwargs), expected, 1e-9)
    # device edges are read back, as CuPy takes them
    got = getattr(sig, name)(cp.asarray(wp), cp.asarray(ws), 3, 40, **kwargs)
    assert_close(got, expected, 1e-9)


def test_order_selection_then_design():
    """The order and frequency chosen design SciPy's filter."""
    N, wn = sig.buttord([0.2, 0.5], [0.14, 0.6], 3, 40)
    assert_close(
        sig.butter(N, wn, "bandpass"), ss.butter(*ss.buttord([0.2, 0.5], [0.14, 0.6], 3, 40), "bandpass")
    )
    N, wn = sig.cheb2ord(0.2, 0.3, 3, 60)
    N_expected, wn_expected = ss.cheb2ord(0.2, 0.3, 3, 60)
    assert_close(sig.cheby2(N, 60, wn), ss.cheby2(N_expected, 60, wn_expected))


def test_order_selection_errors():
    with pytest.raises(ValueError, match="gstop should be larger than 0.0"):
        sig.buttord(0.2, 0.3, 3, -1)
    with pytest.raises(ValueError, match="fs cannot be specified for an analog filter"):
        sig.cheb1ord(0.2, 0.3, 3, 40, analog=True, fs=10)


def test_notch_peak_and_comb_on_the_device():
    for w0, Q, fs in [(0.1, 30, 2.0), (60, 30, 1000), (0.5, 1, 2.0)]:
        assert_close(sig.iirnotch(w0, Q, fs), ss.iirnotch(w0, Q, fs))
        assert_close(sig.iirpeak(w0, Q, fs), ss.iirpeak(w0, Q, fs))
    for ftype in ("notch", "peak"):
        for pass_zero in (False, True):
            expected = ss.iircomb(20, 30, ftype, 1000, pass_zero=pass_zero)
            assert_close(sig.iircomb(20, 30, ftype, 1000, pass_zero=pass_zero), expected)
    with pytest.raises(ValueError, match="w0 should be such that 0 < w0 < 1"):
        sig.iirpeak(1.5, 10)
    with pytest.raises(ValueError, match="ftype must be either notch or peak"):
        sig.iircomb(0.1, 3, "band")


def test_notch_filters_a_signal_as_scipy():
    x = np.sin(np.linspace(0, 60, 400)) + np.sin(np.linspace(0, 600, 400))
    b, a = sig.iirnotch(0.3, 5)
    assert_close(sig.lfilter(b, a, cp.asarray(x)), ss.lfilter(*ss.iirnotch(0.3, 5), x), 1e-10)


def test_freqs_on_the_device():
    b, a = ss.butter(4, 100, analog=True)
    for worN in (200, 8, None, np.logspace(0, 3, 9)):
        assert_close(sig.freqs(b, a, worN), ss.freqs(b, a, worN))
    assert_close(sig.freqs(*on_device(b, a), cp.asarray([1.0, 10.0])), ss.freqs(b, a, [1.0, 10.0]))
    b32, a32 = np.asarray([1, 2], np.float32), np.asarray([1, 3, 2], np.float32)
    assert_close(sig.freqs(cp.asarray(b32), cp.asarray(a32), 16), ss.freqs(b32, a32, 16), 1e-5)
    seen = []
    sig.freqs(b, a, 16, plot=lambda w, h: seen.append((w, h)))
    assert len(seen) == 1 and all(isinstance(v, cp.ndarray) for v in seen[0])


def test_zero_pole_responses_on_the_device():
    z, p, k = ss.cheby1(4, 5, 100, analog=True, output="zpk")
    assert_close(sig.freqs_zpk(*on_device(z, p), k), ss.freqs_zpk(z, p, k))
    assert_close(sig.freqs_zpk(z, p, k, np.array([1, 2, 3])), ss.freqs_zpk(z, p, k, np.array([1, 2, 3])))
    assert_close(sig.freqs_zpk([], [], 1, worN=[1.0, 2.0]), ss.freqs_zpk([], [], 1, worN=[1.0, 2.0]))
    with pytest.raises(ValueError, match="k must be a single scalar gain"):
        sig.freqs_zpk(z, p, [1.0, 2.0])
    z, p, k = ss.cheby1(4, 5, 0.5, output="zpk")
    for args in [(512, False), (8, True), (None, False)]:
        assert_close(sig.freqz_zpk(*on_device(z, p), k, *args), ss.freqz_zpk(z, p, k, *args))
    w = np.array([0.1, 0.3], np.float32)
    assert_close(sig.freqz_zpk(z, p, k, cp.asarray(w), fs=1.0), ss.freqz_zpk(z, p, k, w, fs=1.0))
    z32, p32 = np.asarray([0.5], np.float32), np.asarray([0.5j, -0.5j], np.complex64)
    assert_close(sig.freqz_zpk(z32, p32, 2.0, 16), ss.freqz_zpk(z32, p32, 2.0, 16), 1e-5)  # float32 w
    assert_close(
        sig.freqz_zpk([1], [0], 2, 8), ss.freqz_zpk([1], [0], 2, 8), 1e-6
    )  # SciPy's float32 from ints


def test_group_delay_on_the_device():
    b, a = ss.cheby2(4, 40, 0.3)  # no zero on the unit circle at a sampled frequency: no warning
    assert_close(sig.group_delay(on_device(b, a)), ss.group_delay((b, a)), 1e-9)
    assert_close(sig.group_delay((b, a), 64, whole=True), ss.group_delay((b, a), 64, whole=True), 1e-9)
    w = np.array([100.0, 1000.0])
    assert_close(sig.group_delay((b, a), cp.asarray(w), fs=96000), ss.group_delay((b, a), w, fs=96000), 1e-9)
    assert_close(sig.group_delay(([1.0], [1, -0.5j]), 16), ss.group_delay(([1.0], [1, -0.5j]), 16), 1e-9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's 0/0, in SciPy's too
        singular = r"singular at frequencies \[0.000\], setting to 0"
        with pytest.warns(UserWarning, match=singular):
            expected = ss.group_delay(([1, -1], [1]), 4)
        with pytest.warns(UserWarning, match=singular):
            got = sig.group_delay(([1, -1], [1]), 4)
        assert_close(got, expected)


def test_state_space_on_the_device():
    z, p, k = [1, 2], [3, 4, 5], 2.0
    assert_close(sig.zpk2ss(z, p, k), ss.zpk2ss(z, p, k))
    zc, pc, kc = ss.cheby1(4, 5, 0.5, output="zpk")
    assert_close(sig.zpk2ss(*on_device(zc, pc), kc), ss.zpk2ss(zc, pc, kc), 1e-10)
    A, B, C, D = ss.zpk2ss(zc, pc, kc)
    got = sig.ss2zpk(*on_device(A, B, C, D))
    expected = ss.ss2zpk(A, B, C, D)
    assert_close(got[:2], expected[:2], 1e-8)
    assert isinstance(got[2], float | np.floating) and np.isclose(got[2], expected[2], rtol=1e-10)
    with pytest.raises(ValueError, match="System does not have the input specified"):
        sig.ss2zpk(A, B, C, D, input=1)
    assert_close(
        sig.abcd_normalize(cp.asarray([[1.0]]), [[1.0]], [[2]]), ss.abcd_normalize([[1.0]], [[1.0]], [[2]])
    )
    assert_close(
        sig.abcd_normalize(None, [[1.0], [2.0]], None, [[1.0]]),
        ss.abcd_normalize(None, [[1.0], [2.0]], None, [[1.0]]),
    )
    with pytest.raises(ValueError, match="Dimension n is undefined"):
        sig.abcd_normalize()
    with pytest.raises(ValueError, match=r"Parameter B has shape \(1, 2\) but should be \(2, 2\)!"):
        sig.abcd_normalize([[1, 2], [3, 4]], [1, 2], None, [[1.0]])


def test_unique_roots_on_the_device():
    p = np.array([-1.0, -1.0 + 0.05j, -0.95 + 0.15j, -0.90 + 0.15j, 0.0, 0.5 + 0.5j, 0.45 + 0.55j])
    for rtype in ("min", "max", "avg"):
        assert_close(sig.unique_roots(cp.asarray(p), 1e-1, rtype), ss.unique_roots(p, 1e-1, rtype))
    q = np.array([-1.0, -0.95, -0.89, -0.8, 0.5, 1.0, 1.05])
    assert_close(sig.unique_roots(q, tol=1e-1), ss.unique_roots(q, tol=1e-1))
    assert_close(sig.unique_roots(np.array([1, 2, 2, 3])), ss.unique_roots(np.array([1, 2, 2, 3])))
    with pytest.raises(ValueError, match="`rtype` must be one of"):
        sig.unique_roots(cp.asarray(p), rtype="median")


@pytest.mark.parametrize(
    "b,a",
    [
        ([1, 0, 1], [1, 0, -1]),
        ([1, 2, 3], [1, -3, 3, -1]),  # a triple pole
        ([1, 2, 3, 4, 5], [1, 2]),  # a direct polynomial
        ([2j, 1], [1, 0.5 + 0.5j, 1j]),
        ([1, 1, 0, 0], [1, -1.5, 0.5, 0.25]),
    ],
    ids=str,
)
def test_partial_fractions_on_the_device(b, a):
    expected = ss.residue(b, a)
    assert_close(sig.residue(*on_device(np.asarray(b), np.asarray(a))), expected, 1e-8)
    assert_close(sig.invres(*on_device(*expected)), ss.invres(*expected), 1e-8)
    expected = ss.residuez(b, a)
    assert_close(sig.residuez(b, a), expected, 1e-8)
    assert_close(sig.invresz(*on_device(*expected)), ss.invresz(*expected), 1e-8)


def test_partial_fraction_errors():
    with pytest.raises(ValueError, match="Denominator `a` is zero"):
        sig.residue(cp.asarray([1.0, 2.0]), cp.asarray([0.0, 0.0]))
    with pytest.raises(ValueError, match="First coefficient of determinant `a` must be non-zero"):
        sig.residuez([1], [0, 1])


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "complex128"])
def test_qmf(dtype):
    """CuPy's qmf (old SciPy's formula): hk reversed, every other value negated, in hk's dtype; CuPy's
    deprecation warning."""
    hk = np.asarray([1, 2, 3, 4, 5], dtype=dtype)
    with pytest.warns(
        np.exceptions.VisibleDeprecationWarning, match="wavelet functions have been deprecated"
    ):
        got = sig.qmf(cp.asarray(hk))
    assert_close(got, np.asarray([5, -4, 3, -2, 1], dtype=dtype), 0)
    with pytest.warns(np.exceptions.VisibleDeprecationWarning):
        assert_close(sig.qmf([0.5, 0.25]), np.asarray([0.25, -0.5]), 0)
