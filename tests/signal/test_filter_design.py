"""iirdesign, band_stop_obj, findfreqs, gammatone and the elliptic designs (ellipap, ellip, ellipord) on the device
against SciPy: device arguments read back, host arguments taken as SciPy takes them, results device arrays of
SciPy's dtypes and shapes (a gain `k` the host float SciPy and CuPy document, band_stop_obj's order a 0-d array,
as CuPy's). The host maths alone is tested without a device in test_filter_design_nogpu.py."""

from functools import partial

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
from signal_asserts import EXACT, assert_device

pytestmark = pytest.mark.gpu

assert_close = partial(assert_device, default_tol=1e-12)


def assert_design(got, expected, output):
    """A design's output: device arrays of SciPy's values, zpk's gain a host float."""
    __tracebackhide__ = True
    if output != "zpk":
        assert_close(got, expected, 1e-9)
        return
    assert_close(got[:2], expected[:2], 1e-9)
    assert isinstance(got[2], float | np.floating) and np.isclose(got[2], expected[2], rtol=1e-12, atol=0)


@pytest.mark.parametrize("output", ["ba", "zpk", "sos"])
@pytest.mark.parametrize("ftype", ["butter", "cheby1", "cheby2", "ellip"])
@pytest.mark.parametrize(
    ("wp", "ws", "kwargs"),
    [
        (0.2, 0.3, {}),
        ([0.2, 0.5], [0.1, 0.6], {}),
        ([0.1, 0.6], [0.2, 0.5], {}),  # bandstop
        ([200, 400], [100, 500], {"fs": 2000}),
        (20.0, 30.0, {"analog": True}),
    ],
    ids=str,
)
def test_iirdesign_on_the_device(wp, ws, kwargs, ftype, output):
    expected = ss.iirdesign(wp, ws, 1, 40, ftype=ftype, output=output, **kwargs)
    assert_design(sig.iirdesign(wp, ws, 1, 40, ftype=ftype, output=output, **kwargs), expected, output)
    # device edges are read back, as CuPy takes them
    got = sig.iirdesign(cp.asarray(wp), cp.asarray(ws), 1, 40, ftype=ftype, output=output, **kwargs)
    assert_design(got, expected, output)


def test_iirdesign_designs_what_it_selects():
    """iirdesign is the order selection followed by the design, on the device as through SciPy."""
    N, wn = sig.cheb1ord([0.2, 0.5], [0.1, 0.6], 1, 40)
    expected = tuple(c.get() for c in sig.cheby1(N, 1, wn, "bandpass"))
    assert_close(sig.iirdesign([0.2, 0.5], [0.1, 0.6], 1, 40, ftype="cheby1"), expected)
    N, wn = sig.ellipord(cp.asarray(0.2), cp.asarray(0.3), 1, 40)  # the elliptic default
    expected = tuple(c.get() for c in sig.ellip(N, 1, 40, wn))
    assert_device(sig.iirdesign(cp.asarray(0.2), cp.asarray(0.3), 1, 40), expected, EXACT)
    assert_device(sig.iirdesign(0.2, 0.3, 1, 40), ss.iirdesign(0.2, 0.3, 1, 40), EXACT)


@pytest.mark.parametrize("kind", ["butter", "cheby", "ellip"])
def test_band_stop_obj_on_the_device(kind):
    passb, stopb = np.array([0.5, 4.0]), np.array([1.0, 3.0])
    for wp, ind in [(0.7, 0), (0.9, 0), (3.5, 1)]:
        expected = ss.band_stop_obj(wp, ind, passb, stopb, 3, 30, kind)
        got = sig.band_stop_obj(wp, ind, cp.asarray(passb), cp.asarray(stopb), 3, 30, kind)
        assert got.shape == () and got.dtype == np.float64  # CuPy's 0-d device array
        assert_close(got, np.asarray(expected), 1e-13)
        assert_close(sig.band_stop_obj(wp, ind, passb, stopb, 3, 30, kind), np.asarray(expected), 1e-13)


@pytest.mark.parametrize(
    ("num", "den", "kwargs"),
    [
        ([1, 0], [1, 8, 25], {"N": 9}),  # CuPy's TestFindFreqs
        ([1.0], [1.0], {"N": 8}),
        (np.float32([1, 2]), np.float32([1, 3, 5]), {"N": 5}),
        ([], [-1, -2 + 1j, -2 - 1j], {"N": 6, "kind": "zp"}),
    ],
    ids=str,
)
def test_findfreqs_on_the_device(num, den, kwargs):
    expected = ss.findfreqs(num, den, **kwargs)
    assert_device(sig.findfreqs(num, den, **kwargs), expected, EXACT)
    assert_device(sig.findfreqs(cp.asarray(num), cp.asarray(den), **kwargs), expected, EXACT)


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((1000, "fir"), {"fs": 16000}),  # CuPy's TestGammatone
        ((1000, "iir"), {"fs": 16000}),
        ((440, "iir"), {"fs": 24000}),
        ((15, "fir"), {"fs": 1000}),
        ((440, "fir"), {"numtaps": 16, "fs": 16000}),
        ((0.3, "fir"), {"order": 6}),
    ],
    ids=str,
)
def test_gammatone_on_the_device(args, kwargs):
    """SciPy's coefficients bit for bit, as float64 device arrays (the FIR filter's `a` too, as CuPy's)."""
    assert_device(sig.gammatone(*args, **kwargs), ss.gammatone(*args, **kwargs), EXACT)


def test_gammatone_filters_as_scipys():
    """The IIR gammatone filters a device signal as SciPy's filters the same signal."""
    b, a = sig.gammatone(440, "iir", fs=16000)
    x = np.random.default_rng(3).standard_normal(400)
    expected = ss.lfilter(*ss.gammatone(440, "iir", fs=16000), x)
    assert_close(sig.lfilter(b, a, cp.asarray(x)), expected, 1e-10)


# ---------------------------------------------------------------- elliptic designs


def assert_exact_design(got, expected, output):
    """An elliptic design: device arrays of SciPy's values to the bit (the host maths is SciPy's, Note
    [Elliptic functions on the host]), zpk's gain a host float equal to SciPy's."""
    __tracebackhide__ = True
    if output != "zpk":
        assert_device(got, expected, EXACT)
        return
    assert_device(got[:2], expected[:2], EXACT)
    assert isinstance(got[2], float | np.floating) and got[2] == expected[2]


@pytest.mark.parametrize("N", [0, 1, 2, 5, 12, 24])
def test_ellipap_on_the_device(N):
    """complex128 device zeros and poles (order 1's pole a 0-d array, as SciPy's), the gain a host float."""
    expected = ss.ellipap(N, 1, 40)
    got = sig.ellipap(N, 1, 40)
    assert_exact_design(got, expected, "zpk")
    assert type(got[2]) is type(expected[2])
    assert_exact_design(
        sig.ellipap(cp.asarray(N), cp.asarray(0.5), cp.asarray(80.0)), ss.ellipap(N, 0.5, 80.0), "zpk"
    )


@pytest.mark.parametrize("output", ["ba", "zpk", "sos"])
@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((5, 1, 40, 0.3), {}),
        ((24, 1, 80, 0.3, "high"), {}),  # CuPy's TestEllip designs
        ((7, 1, 40, [0.07, 0.2], "pass"), {}),
        ((8, 1, 65, [0.2, 0.4], "stop"), {}),
        ((5, 1, 75, [90.5, 110.5], "pass", True), {}),
        ((8, 1, 100, 17, "hp"), {"fs": 1000}),
        ((0, 3.0, 60, 0.2), {}),
        ((1, 1, 55, 0.3), {}),
    ],
    ids=str,
)
def test_ellip_on_the_device(args, kwargs, output):
    expected = ss.ellip(*args, output=output, **kwargs)
    assert_exact_design(sig.ellip(*args, output=output, **kwargs), expected, output)
    # device critical frequencies are read back, as CuPy takes them
    device_args = tuple(cp.asarray(a) if i == 3 else a for i, a in enumerate(args))
    assert_exact_design(sig.ellip(*device_args, output=output, **kwargs), expected, output)
    # iirfilter takes (N, Wn, rp, rs, btype, analog), its btype defaulting to 'band' where ellip's is 'low'
    N, rp, rs, wn = args[:4]
    btype = args[4] if len(args) > 4 else "low"
    analog = args[5] if len(args) > 5 else False
    got = sig.iirfilter(N, wn, rp, rs, btype, analog, ftype="cauer", output=output, **kwargs)
    assert_exact_design(got, expected, output)


@pytest.mark.parametrize(
    ("wp", "ws", "gpass", "gstop", "kwargs"),
    [
        (0.2, 0.3, 3, 60, {}),  # CuPy's TestEllipord
        (0.2, 0.3, 3, 1000, {}),
        (0.3, 0.2, 3, 70, {}),
        ([0.2, 0.5], [0.1, 0.6], 3, 80, {}),
        ([0.1, 0.6], [0.2, 0.5], 3, 90, {}),
        ([1000, 6000], [2000, 5000], 3, 90, {"analog": True}),
        ([400, 2400], [800, 2000], 3, 90, {"fs": 8000}),
    ],
    ids=str,
)
def test_ellipord_on_the_device(wp, ws, gpass, gstop, kwargs):
    """The order a Python int, the natural frequencies a device array (0-d for one, as CuPy's)."""
    expected = ss.ellipord(wp, ws, gpass, gstop, **kwargs)
    assert_device(sig.ellipord(wp, ws, gpass, gstop, **kwargs), expected, EXACT)
    assert_device(sig.ellipord(cp.asarray(wp), cp.asarray(ws), gpass, gstop, **kwargs), expected, EXACT)


@pytest.mark.parametrize(
    ("wp", "ws", "gpass", "gstop", "rp"), [(0.3, 0.1, 3, 60, 0.3), (0.3, 0.2, 0.5, 150, 0.5)]
)
def test_elliptic_design_filters_as_scipys(wp, ws, gpass, gstop, rp):
    """CuPy's test_sosfreqz_design_ellip: ellipord's order and edge (a device array) into ellip's sections, their
    response, and a device signal filtered by them, as SciPy's."""
    N, wn = sig.ellipord(wp, ws, gpass, gstop)
    sos = sig.ellip(N, rp, gstop, wn, "high", output="sos")
    N_s, wn_s = ss.ellipord(wp, ws, gpass, gstop)
    expected_sos = ss.ellip(N_s, rp, gstop, wn_s, "high", output="sos")
    assert_device(sos, expected_sos, EXACT)
    assert_close(sig.sosfreqz(sos), ss.freqz_sos(expected_sos))  # SciPy's newer name of sosfreqz
    x = np.random.default_rng(7).standard_normal(500)
    assert_close(sig.sosfilt(sos, cp.asarray(x)), ss.sosfilt(expected_sos, x), 1e-12)
