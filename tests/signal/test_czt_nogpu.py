"""cuarray.scipy.signal's chirp z-transform (czt, zoom_fft, CZT, ZoomFFT, czt_points) without a device: SciPy's
names and signatures, SciPy's errors for bad sizes, ranges and axes (raised before any device work), the host
chirps against SciPy's own (the same values and dtypes exactly: Note [Chirps on the host] in _czt.py), czt_points'
host values, and Bluestein's convolution at CuPy's FFT length giving SciPy's transform (Note [Convolution
length]). The device transforms are tested in test_czt.py."""

import inspect

import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.fft as sfft
import scipy.signal as ss
from cuarray.scipy.fft import next_fast_len
from cuarray.scipy.signal import _czt
from signal_asserts import assert_scipy_signatures, same_error

pytestmark = pytest.mark.nogpu

NAMES = ["czt", "zoom_fft", "CZT", "ZoomFFT", "czt_points"]
H3 = [1.0, 2.0, 3.0]


def test_names_and_signatures():
    assert_scipy_signatures(sig, ss, NAMES)
    for method in ("__call__", "points"):
        ours, theirs = inspect.signature(getattr(sig.CZT, method)), inspect.signature(getattr(ss.CZT, method))
        assert [(p.name, p.default, p.kind) for p in ours.parameters.values()] == [
            (p.name, p.default, p.kind) for p in theirs.parameters.values()
        ]
    assert issubclass(sig.ZoomFFT, sig.CZT)


def _errors():
    cases = {}
    for size in [0, -5, 3.5, 4.0, np.int64(0), "3", 2j, None]:
        cases[f"CZT n={size!r}"] = ("CZT", (size, 3), {})
        cases[f"ZoomFFT n={size!r}"] = ("ZoomFFT", (size, 0.2, 3), {})
    for size in [0, -5, 3.5, 4.0, np.float64(2.0), "3", 2j]:
        cases[f"CZT m={size!r}"] = ("CZT", (3, size), {})
        cases[f"ZoomFFT m={size!r}"] = ("ZoomFFT", (3, 0.2, size), {})
        cases[f"czt m={size!r}"] = ("czt", (H3, size), {})
        cases[f"zoom_fft m={size!r}"] = ("zoom_fft", (H3, 0.2, size), {})
    for m in [0, -11, 5.5, 4.0, "4"]:
        cases[f"czt_points m={m!r}"] = ("czt_points", (m,), {})
    cases.update(
        {
            "ZoomFFT fn of 3": ("ZoomFFT", (100, [1, 2, 3]), {}),
            "ZoomFFT fn empty": ("ZoomFFT", (100, []), {}),
            "ZoomFFT fn 2-D": ("ZoomFFT", (100, [[0.1, 0.2], [0.3, 0.4]]), {}),
            "ZoomFFT fn a list of one": ("ZoomFFT", (100, [0.5]), {}),  # f2 - f1 of a list
            "ZoomFFT fn text": ("ZoomFFT", (100, "ab"), {}),
            "ZoomFFT endpoint m=1": ("ZoomFFT", (4, [0.1, 0.5], 1), {"endpoint": True}),
            "ZoomFFT fs=0": ("ZoomFFT", (4, [0.1, 0.5]), {"fs": 0}),
            "ZoomFFT positional fs": ("ZoomFFT", (4, [0.1, 0.5], 4, 2), {}),
            "CZT keyword fs": ("CZT", (4,), {"fs": 2}),
            "czt empty": ("czt", ([],), {}),
            "zoom_fft empty": ("zoom_fft", ([], 0.5), {}),
            "czt 0-d": ("czt", (5,), {}),
            "zoom_fft 0-d": ("zoom_fft", (5, 0.5), {}),
            "czt axis past the end": ("czt", (np.ones((2, 3)),), {"axis": 2}),
            "czt axis before the start": ("czt", (np.ones((2, 3)),), {"axis": -3}),
            "zoom_fft axis past the end": ("zoom_fft", (np.ones((2, 3)), 0.5), {"axis": 5}),
            "czt axis float": ("czt", (np.ones((2, 3)),), {"axis": 1.0}),
            "czt empty axis": ("czt", (np.ones((2, 0)),), {}),
            "zoom_fft empty axis 0": ("zoom_fft", (np.ones((0, 3)), 0.5), {"axis": 0}),
            "czt positional axis": ("czt", (H3, 3, None, 1, -1), {}),
        }
    )
    return cases


ERRORS = _errors()


@pytest.mark.parametrize("case", list(ERRORS))
def test_errors_before_the_device(case):
    name, args, kwargs = ERRORS[case]
    same_error(lambda: getattr(sig, name)(*args, **kwargs), lambda: getattr(ss, name)(*args, **kwargs))


# (n, m, w, a): the FFT's points (k**2 in int16, int32 past n = 181, and int64 past 46340), other lengths,
# spirals off the unit circle, real and integer w and a (real chirps), single-precision scalars
CZT_CASES = [
    (1, None, None, 1 + 0j),
    (5, None, None, 1 + 0j),
    (7, 100, None, 1 + 0j),
    (181, 3, None, 1 + 0j),
    (182, 200, None, 1 + 0j),
    (300, 47000, None, 1 + 0j),
    (12, 11, 2.0, 1),
    (3, 10, None, 2),
    (8, 5, 0.98534 + 0.17055j, 1.1),
    (8, 101, 0.98534 + 0.17055j, 0.5 - 0.2j),
    (20, 20, np.complex64(0.99 - 0.1j), np.float32(0.5)),
    (6, 4, np.float32(0.9), np.float32(1.5)),
    (4, 9, 1, 1),
]


@pytest.mark.parametrize("n, m, w, a", CZT_CASES)
def test_czt_chirps_are_scipys(n, m, w, a):
    theirs = ss.CZT(n, m, w, a)
    m = _czt._validate_sizes(n, m)
    got_w, got_a, awk2, wk2 = _czt._czt_chirps(n, m, w, a)
    assert (got_w, got_a) == (theirs.w, theirs.a)
    assert type(got_a) is type(theirs.a)
    np.testing.assert_array_equal(awk2, theirs._Awk2, strict=True)
    np.testing.assert_array_equal(wk2[:m], theirs._wk2, strict=True)
    _assert_convolution_chirp(wk2, n, m, theirs)


# (n, fn, m, fs, endpoint): ranges as pairs and scalars, endpoints, sampling frequencies, float32 ranges
# (complex64 chirps while the indices fit in int16, complex128 past them), integer ranges
ZOOM_CASES = [
    (10, 2, None, 2, False),
    (10, [0, 2 - 2.0 / 10], None, 2, True),
    (28, [0.3, 0.7], 91, 2, True),
    (28, [0.3, 0.7], 1, 2, False),
    (100, [5, 27], 100, 1021, False),
    (101, (-0.4, 0.4), 310, 2 * np.pi, True),
    (30, np.array([0.1, 0.5], np.float32), 40, 2, True),
    (200, np.array([0.1, 0.5], np.float32), 40, 2, False),
    (16, np.float32(0.25), None, 2, False),
    (16, np.array([1, 3]), 7, 8, True),
    (5, [0.2, 0.1], 3, 2, False),
]


@pytest.mark.parametrize("n, fn, m, fs, endpoint", ZOOM_CASES)
def test_zoom_chirps_are_scipys(n, fn, m, fs, endpoint):
    theirs = ss.ZoomFFT(n, fn, m, fs=fs, endpoint=endpoint)
    m = _czt._validate_sizes(n, m)
    f1, f2 = _czt._zoom_range(fn)
    assert (f1, f2) == (theirs.f1, theirs.f2) and type(f2) is type(theirs.f2)
    got_w, got_a, awk2, wk2 = _czt._zoom_chirps(n, m, f1, f2, fs, endpoint)
    assert (got_w, got_a) == (theirs.w, theirs.a)
    np.testing.assert_array_equal(awk2, theirs._Awk2, strict=True)
    np.testing.assert_array_equal(wk2[:m], theirs._wk2, strict=True)
    _assert_convolution_chirp(wk2, n, m, theirs)


def _assert_convolution_chirp(wk2, n, m, theirs):
    """The convolution chirp is the signal whose FFT is SciPy's _Fwk2 (zero-padded to SciPy's length)."""
    __tracebackhide__ = True
    chirp = _czt._convolution_chirp(wk2, n, m)
    assert (
        chirp.dtype == theirs._Fwk2.dtype or chirp.dtype.kind == "f"
    )  # SciPy transforms real ones to complex
    padded = sfft.ifft(theirs._Fwk2)
    tol = (1e-5 if padded.dtype == np.complex64 else 1e-13) * max(1.0, np.abs(chirp).max())
    np.testing.assert_allclose(padded[: n + m - 1], chirp, rtol=0, atol=tol)
    np.testing.assert_allclose(padded[n + m - 1 :], 0, rtol=0, atol=tol)


@pytest.mark.parametrize("n, m, w, a", CZT_CASES[:-3])
def test_convolution_at_cupys_length_is_scipys_transform(n, m, w, a):
    # Note [Convolution length]: the device's steps, done with SciPy's FFTs at CuPy's next_fast_len, give
    # SciPy's transform to rounding (the lengths differ for some sizes: 11 is among SciPy's factors)
    theirs = ss.CZT(n, m, w, a)
    m = _czt._validate_sizes(n, m)
    _, _, awk2, wk2 = _czt._czt_chirps(n, m, w, a)
    nfft = next_fast_len(n + m - 1)
    assert nfft >= n + m - 1
    x = np.random.default_rng(n).standard_normal((3, n))
    y = sfft.ifft(sfft.fft(_czt._convolution_chirp(wk2, n, m), nfft) * sfft.fft(x * awk2, nfft))
    y = y[..., n - 1 : n + m - 1] * wk2[:m]
    expected = theirs(x)
    assert y.dtype == expected.dtype
    np.testing.assert_allclose(y, expected, rtol=0, atol=1e-10 * max(1.0, np.abs(expected).max()))


def test_some_lengths_differ_from_scipys():
    # the cases above cover lengths where CuPy's next_fast_len and SciPy's disagree (11 * 2**k)
    lengths = [n + _czt._validate_sizes(n, m) - 1 for n, m, _, _ in CZT_CASES]
    assert any(next_fast_len(k) != sfft.next_fast_len(k) for k in lengths)


@pytest.mark.parametrize(
    "m, w, a",
    [
        (1, None, 1 + 0j),
        (2, None, 1 + 0j),
        (3, None, 1 + 0j),
        (8, None, 1 + 0j),
        (11, None, 1 + 0j),
        (10007, None, 1 + 0j),
        (7, 1, 1 + 0j),
        (11, 2, 1 + 0j),
        (11, 2, 1),  # real points
        (11, 2.0, 2),
        (None, None, 1 + 0j),  # m defaults to 1, as SciPy's
        (91, 0.995 * np.exp(-1j * np.pi * 0.05), 0.8 * np.exp(1j * np.pi / 6)),
        (9, np.complex64(0.9 + 0.1j), np.float32(2)),
        (5, None, 3),
    ],
)
def test_points_are_scipys(m, w, a):
    np.testing.assert_array_equal(_czt._points(m, w, a), ss.czt_points(m, w, a), strict=True)


def test_czt_points_keywords():
    np.testing.assert_array_equal(
        _czt._points(m=12, w=2.0, a=1), ss.CZT(12, m=12, w=2.0, a=1).points(), strict=True
    )
