"""cuarray.scipy.signal's iirdesign, band_stop_obj, findfreqs, gammatone and the elliptic designs (ellipap, ellip,
ellipord, and the special functions they compute on the host) without a device: the host maths (the private
`_name` functions the public ones run before moving their results to the device) matches SciPy's in value, dtype,
warnings and errors; the public functions raise SciPy's errors before any device work; names and signatures are
SciPy's. The device results are tested in test_filter_design.py."""

import itertools
import warnings

import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
from cuarray.scipy.signal import _elliptic as el
from cuarray.scipy.signal import _filter_extras as fx
from cuarray.scipy.signal import _gammatone as gt
from cuarray.scipy.signal import _iir_design as design
from scipy import special
from signal_asserts import assert_host, assert_scipy_signatures, same_error

pytestmark = pytest.mark.nogpu

NAMES = ["band_stop_obj", "ellip", "ellipap", "ellipord", "findfreqs", "gammatone", "iirdesign"]


def agree(ours, scipys, tol=1e-12):
    """ours() is scipys() (values within tol of the largest, SciPy's dtypes and shapes), with the same warnings,
    or raises as it does (type and message)."""
    __tracebackhide__ = True
    with warnings.catch_warnings(record=True) as theirs_w:
        warnings.simplefilter("always")
        try:
            expected = scipys()
        except Exception as e:  # noqa: BLE001 (SciPy refuses some specifications; ours must refuse them alike)
            with pytest.raises(type(e)) as got:
                ours()
            assert str(got.value) == str(e)
            return
    with warnings.catch_warnings(record=True) as ours_w:
        warnings.simplefilter("always")
        got = ours()
    assert [(w.category, str(w.message)) for w in ours_w] == [(w.category, str(w.message)) for w in theirs_w]
    assert_host(got, expected, tol)


def test_names_and_signatures():
    """SciPy's names, parameters and defaults (gammatone's xp and device keywords aside)."""
    assert_scipy_signatures(sig, ss, NAMES)


# ---------------------------------------------------------------- iirdesign

SPECS = [
    ((0.2, 0.3, 1, 40), {}),  # lowpass
    ((0.3, 0.2, 3, 60), {}),  # highpass
    (([0.2, 0.5], [0.1, 0.6], 1, 40), {}),  # bandpass
    (([0.1, 0.6], [0.2, 0.5], 2, 50), {}),  # bandstop: edges found by the bounded minimiser
    ((100, 500, 1, 40), {"fs": 2000}),
    (([200, 400], [100, 500], 1, 40), {"fs": 2000}),
    ((20.0, 30.0, 1, 40), {"analog": True}),
    (([10.0, 40.0], [5.0, 60.0], 0.5, 30), {"analog": True}),
    ((np.float32(0.2), np.float32(0.3), 1, 40), {}),  # SciPy's float32 edges
]


@pytest.mark.parametrize(
    "ftype",
    ["butter", "butterworth", "cheby1", "chebyshevi", "cheby2", "chebyshev2", "ellip", "elliptic", "cauer"],
)
@pytest.mark.parametrize("output", ["ba", "zpk", "sos"])
@pytest.mark.parametrize(("args", "kwargs"), SPECS, ids=str)
def test_iirdesign_matches_scipy(args, kwargs, ftype, output):
    kwargs = {**kwargs, "ftype": ftype, "output": output}
    agree(lambda: design._iirdesign(*args, **kwargs), lambda: ss.iirdesign(*args, **kwargs), 1e-9)


# CuPy's TestIIRDesign::test_exceptions, each with every type iirdesign designs (the elliptic default included),
# and SciPy's errors of the filter types.
BAD_SPECS = [
    (0.2, [0.1, 0.3], 1, 40),
    (np.array([[0.3, 0.6], [0.3, 0.6]]), np.array([[0.4, 0.5], [0.4, 0.5]]), 1, 40),
    (0, 0.5, 1, 40),
    (0.1, -0.5, 1, 40),
    ([0.1, 0], [0.1, 0.5], 1, 40),
    ([0.1, 0.3], [0.1, -0.5], 1, 40),
    (1, 0.5, 1, 40),
    (0.1, 1.5, 1, 40),
    ([0.1, 1.1], [0.1, 0.5], 1, 40),
    ([0.1, 0.4], [0.5, 0.6], 1, 40),  # passband not inside the stopband
    ([0.3, 0.6], [0.4, 0.7], 1, 40),
    (0.2, 0.3, 40, 1),  # gpass above gstop
    (0.2, 0.3, -1, 40),
    (0.2, 0.3, 1, 0),
]


@pytest.mark.parametrize("ftype", ["butter", "cheby1", "cheby2", "ellip"])
@pytest.mark.parametrize("spec", BAD_SPECS, ids=str)
def test_iirdesign_errors_are_scipys(spec, ftype):
    same_error(lambda: sig.iirdesign(*spec, ftype=ftype), lambda: ss.iirdesign(*spec, ftype=ftype))


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((-0.1, 0.5, 1, 40), {"analog": True}),
        (([0.1, 0.3], [-0.1, 0.5], 1, 40), {"analog": True}),
        ((1000, 400, 1, 40), {"fs": 2000}),
        (([200, 1100], [100, 500], 1, 40), {"fs": 2000}),
        ((0.2, 0.3, 1, 40), {"fs": [1, 2]}),
        ((0.2, 0.3, 1, 40), {"ftype": "bessel"}),  # SciPy's: no order selection
        ((0.2, 0.3, 1, 40), {"ftype": "bessel_mag"}),
        ((0.2, 0.3, 1, 40), {"ftype": "Butter"}),  # looked up as given, unlike iirfilter's lowercased name
        ((0.2, 0.3, 1, 40), {"ftype": "foo"}),
        ((0.2, 0.3, 1, 40), {"ftype": "butter", "output": "foo"}),
    ],
    ids=str,
)
def test_iirdesign_more_errors_are_scipys(args, kwargs):
    same_error(lambda: sig.iirdesign(*args, **kwargs), lambda: ss.iirdesign(*args, **kwargs))


def test_iirdesign_designs_elliptic_filters_by_default():
    """SciPy's default type, 'ellip': ellipord's order and edges, then ellip's design (CuPy's test_exceptions
    designs these four)."""
    for args, kwargs in [
        ((100, 500, 1, 40), {"fs": 2000}),
        ((500, 100, 1, 40), {"fs": 2000}),
        (([200, 400], [100, 500], 1, 40), {"fs": 2000}),
        (([100, 500], [200, 400], 1, 40), {"fs": 2000}),
    ]:
        agree(
            lambda args=args, kwargs=kwargs: design._iirdesign(*args, **kwargs),
            lambda args=args, kwargs=kwargs: ss.iirdesign(*args, **kwargs),
            0,
        )


# ---------------------------------------------------------------- band_stop_obj, findfreqs


@pytest.mark.parametrize("kind", ["butter", "cheby", "ellip"])
def test_band_stop_obj_matches_scipy(kind):
    rng = np.random.default_rng(5)
    for _ in range(200):
        passb = np.sort(rng.uniform(0.1, 10.0, 2))
        stopb = np.sort(rng.uniform(passb[0], passb[1], 2))
        wp, ind = rng.uniform(passb[0], stopb[0]), int(rng.integers(2))
        gpass = rng.uniform(0.1, 3.0)
        gstop = rng.uniform(gpass + 1.0, 80.0)
        with np.errstate(invalid="ignore"):  # SciPy's arccosh of a natural frequency below 1 warns
            got = fx._band_stop_obj(wp, ind, passb, stopb, gpass, gstop, kind)
            expected = ss.band_stop_obj(wp, ind, passb, stopb, gpass, gstop, kind)
        assert type(got) is type(expected)
        np.testing.assert_allclose(got, expected, rtol=1e-13)
    # SciPy's docstring example, integer edges
    assert fx._band_stop_obj(2, 1, np.array([1, 3]), np.array([0.5, 4]), 3, 30, "butter") == ss.band_stop_obj(
        2, 1, np.array([1, 3]), np.array([0.5, 4]), 3, 30, "butter"
    )


@pytest.mark.parametrize(
    "args",
    [
        (2.0, 1, np.array([1.0, 3.0]), np.array([0.5, 4.0]), 3, 30, "foo"),
        (2.0, 1, np.array([1.0, 3.0]), np.array([0.5, 4.0]), 30, 3, "butter"),
        (2.0, 1, np.array([1.0, 3.0]), np.array([0.5, 4.0]), 0, 3, "ellip"),
        (2.0, 1, np.array([1.0, 3.0]), np.array([0.5, 4.0]), 1, -3, "cheby"),
    ],
    ids=str,
)
def test_band_stop_obj_errors_are_scipys(args):
    same_error(lambda: sig.band_stop_obj(*args), lambda: ss.band_stop_obj(*args))


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (([1, 0], [1, 8, 25]), {"N": 9}),  # CuPy's tests
        (([1.0], [1.0]), {"N": 8}),
        ((np.float32([1, 2]), np.float32([1, 3, 5])), {"N": 5}),
        (([], [-1, -2 + 1j, -2 - 1j]), {"N": 6, "kind": "zp"}),
        (([1], [1, 2]), {"N": 4, "kind": "foo"}),
    ],
    ids=str,
)
def test_findfreqs_matches_scipy(args, kwargs):
    agree(lambda: fx._findfreqs(*args, **kwargs), lambda: ss.findfreqs(*args, **kwargs), 0)


# ---------------------------------------------------------------- gammatone


@pytest.mark.parametrize(
    "args",
    [
        (1000, "fir", None, None, 16000),
        (1000, "iir", None, None, 16000),
        (440, "IIR", None, None, 24000),
        (15, "fir", None, None, 1000),
        (440, "fir", 3, 16, 16000),
        (0.3, "iir", None, None, None),
        (0.3, "Fir", 24, 40, None),
        (100, "iir", 2, 3, 1000),  # SciPy's warnings: order and numtaps are not used
        (100, "iir", None, 3, 1000),
    ],
    ids=str,
)
def test_gammatone_is_scipys(args):
    """SciPy's terms in SciPy's order: the same coefficients, bit for bit."""
    agree(lambda: gt._gammatone(*args), lambda: ss.gammatone(*args), 0)


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((-16000, "iir"), {"fs": 16000}),  # CuPy's TestGammatone::test_invalid_input
        ((0, "fir"), {"fs": 16000}),
        ((8000, "iir"), {"fs": 16000}),
        ((440, "fie"), {"fs": 16000}),
        ((440, "fir", -50), {"fs": 16000}),
        ((220, "fir", 0), {"fs": 16000}),
        ((110, "fir", 25), {"fs": 16000}),
        ((440, "fir", 4.0), {"fs": 16000}),  # order must be an integer
        ((440, "fir"), {"numtaps": 3.5, "fs": 16000}),
        ((1.5, "fir"), {}),  # fs defaults to 2
        ((440, "fir"), {"fs": [1, 2]}),
    ],
    ids=str,
)
def test_gammatone_errors_are_scipys(args, kwargs):
    same_error(lambda: sig.gammatone(*args, **kwargs), lambda: ss.gammatone(*args, **kwargs))


# ---------------------------------------------------------------- elliptic designs: the special functions

_RNG = np.random.default_rng(11)
# Parameters over every branch of Cephes' ellpk and ellpj: m spread over [0, 1], near 0 (ellpj's series below
# 1e-9, ellpk's logarithm below 2^-53 in p), near 1 (ellpj's series from 1 - 1e-10), beyond [0, 1], and the
# special values.
_M = np.concatenate(
    [
        _RNG.uniform(0.0, 1.0, 3000),
        10.0 ** _RNG.uniform(-320, 0, 2000),
        1.0 - 10.0 ** _RNG.uniform(-17, 0, 2000),
        _RNG.uniform(-20.0, 20.0, 500),
        -(10.0 ** _RNG.uniform(0, 300, 200)),
        10.0 ** _RNG.uniform(0, 300, 200),
        [0.0, 1.0, 0.5, 1e-9, 1e-9 * (1 - 2**-52), 0.9999999999, 2.0**-53, 2.0**-52, 5e-324, 1 - 2**-53],
        [1 + 2**-52, -0.0, -5e-324, np.inf, -np.inf, np.nan],
    ]
)


@pytest.mark.parametrize(("ours", "theirs"), [(el._ellipk, special.ellipk), (el._ellipkm1, special.ellipkm1)])
def test_complete_elliptic_integrals_are_scipys(ours, theirs):
    """K(m) and K(1 - p), Cephes' ellpk step for step, are SciPy's to the bit (Note [Elliptic functions on the
    host]): NaN, inf and 0 where SciPy's are, with no warning (SciPy's ufuncs give none); a scalar gives a
    float64 scalar and an array of any shape an array of it."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got, expected = ours(_M), theirs(_M)
    np.testing.assert_array_equal(got, expected, strict=True)
    for m in (0.3, 1.0, 1e-300, -2.0, 3, True, np.float32(0.7), np.float16(0.2), np.int8(-3)):
        got, expected = ours(m), theirs(m)
        assert type(got) is type(expected)  # a float32 argument's float32, else float64, as SciPy's
        np.testing.assert_array_equal(got, expected, strict=True)
    for m in (_M[:24].reshape(2, 3, 4), [0.25, 0.5], _M[:30].astype(np.float32), np.arange(-3, 2), []):
        np.testing.assert_array_equal(ours(m), theirs(m), strict=True)


def test_complete_elliptic_integrals_near_their_singularity():
    """K(m) for m next to 1 and K(1 - p) for p next to 0, where K grows as -log(p) / 2: both SciPy's, and the
    second keeping the digits the first loses to rounding 1 - p."""
    p = 10.0 ** -np.arange(1.0, 320.0, 0.5)
    np.testing.assert_array_equal(el._ellipkm1(p), special.ellipkm1(p), strict=True)
    np.testing.assert_array_equal(el._ellipk(1 - p), special.ellipk(1 - p), strict=True)
    # the logarithm's term alone, log(4) - log(p) / 2, to within its O(p log p) remainder
    tiny = p[p < 1e-20]
    np.testing.assert_allclose(el._ellipkm1(tiny), np.log(4) - np.log(tiny) / 2, rtol=1e-15)


def test_jacobi_elliptic_functions_are_scipys():
    """sn, cn, dn and the amplitude, Cephes' ellpj step for step, are SciPy's to the bit for u from 0 to 1e6
    (negative too) over every m, NaN where SciPy's are (m outside [0, 1], u infinite), with no warning."""
    u = np.concatenate([_RNG.uniform(-20.0, 20.0, _M.size - 400), _RNG.uniform(-1e6, 1e6, 394)])
    u = np.concatenate([u, [0.0, np.inf, -np.inf, np.nan, 400.0, -1000.0]])
    m = _RNG.permutation(_M)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = el._ellipj(u, m)
    expected = special.ellipj(u, m)
    assert isinstance(got, tuple) and len(got) == 4
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, e, strict=True)
    # the series branches' edges, u and m broadcast together, and scalars
    m = np.array([[0.0], [1e-9], [0.9999999999], [1.0], [1.5]])
    u = np.linspace(-3.0, 3.0, 7)
    for g, e in zip(el._ellipj(u, m), special.ellipj(u, m)):
        np.testing.assert_array_equal(g, e, strict=True)
    for u, m in [
        (0.7, 0.3),
        (np.float32(0.7), np.float32(0.3)),
        (np.float32(0.7), 0.3),
        (np.arange(3), True),
    ]:
        got, expected = el._ellipj(u, m), special.ellipj(u, m)
        for g, e in zip(got, expected):  # float32 where both arguments are, as SciPy's
            assert type(g) is type(e)
            np.testing.assert_array_equal(g, e, strict=True)


# ---------------------------------------------------------------- elliptic designs: ellipap, ellip, iirfilter

# (rp, rs): moderate, sharp, shallow, tiny ripple, CuPy's 1000 dB, CuPy's degenerate ripple, rs barely above rp
ELLIP_RIPPLES = [(1, 40), (0.5, 80.0), (3, 20), (0.01, 120), (1, 1000), (10 * np.log10(2), 123.456), (5, 6)]


@pytest.mark.parametrize(("rp", "rs"), ELLIP_RIPPLES, ids=str)
def test_ellipap_is_scipys(rp, rs):
    """The prototype's zeros, poles and gain for orders 0 to 30, SciPy's to the bit (high orders put the
    selectivity within 1e-11 of 1, where an ulp of K would show: Note [Elliptic functions on the host]):
    complex128 zeros and poles (order 1's pole 0-d, as SciPy's), the gain a Python float."""
    for N in range(31):
        expected = ss.ellipap(N, rp, rs)
        agree(lambda N=N: design._ellipap(N, rp, rs), lambda N=N: ss.ellipap(N, rp, rs), 0)
        assert type(design._ellipap(N, rp, rs)[2]) is type(expected[2])


@pytest.mark.parametrize(
    "args",
    [(-1, 1, 40), (2.5, 1, 40), (2, 0, 40), (2, 1, np.inf), (1, 0, 40), (3, None, 40), (3, 1, None)],
    ids=str,
)
def test_ellipap_errors_are_scipys(args):
    """SciPy's errors, from the public function before any device work: a bad order, a ripple or attenuation
    that leaves nothing to design (SciPy's ValueError, or its ZeroDivisionError for order 1), None."""
    same_error(lambda: sig.ellipap(*args), lambda: ss.ellipap(*args))


ELLIP_WN = {
    "lowpass": [0.05, 0.3, 0.9],
    "highpass": [0.1, 0.45, 0.8],
    "bandpass": [[0.1, 0.3], [0.2, 0.8]],
    "bandstop": [[0.1, 0.3], [0.45, 0.55]],
}


@pytest.mark.parametrize("output", ["ba", "zpk", "sos"])
@pytest.mark.parametrize("btype", list(ELLIP_WN))
@pytest.mark.parametrize("analog", [False, True])
def test_ellip_designs_are_scipys(output, btype, analog):
    """Every zero, pole, section and coefficient of orders 0 to 12, SciPy's to the bit and in its order (or
    SciPy's error, where its pairing of an analog band filter's sections fails)."""
    for N, wn, (rp, rs) in itertools.product(range(13), ELLIP_WN[btype], [(1, 40), (0.5, 80.0), (3, 20)]):
        wn = np.asarray(wn) * (10 if analog else 1)
        args = (N, rp, rs, wn, btype, analog, output)
        agree(lambda args=args: design._ellip(*args), lambda args=args: ss.ellip(*args), 0)


# CuPy's TestEllip and TestIIRFilter::test_symmetry designs, and fs, spelling and integer-argument variants
CUPY_ELLIP = [
    *[((N, 1, 40, 0.01, "low", True, "zpk"), {}) for N in range(25)],
    *[((N, 1, 40, 0.01, "high", False, "zpk"), {}) for N in range(20)],
    ((0, 10 * np.log10(2), 123.456, 1, "low", True), {}),
    ((1, 10 * np.log10(2), 1, 1, "low", True), {}),
    ((1, 1, 55, 0.3), {"output": "zpk"}),
    ((5, 3, 26, 1, "low", True), {}),
    ((3, 1, 60, [0.4, 0.7], "stop"), {}),
    ((24, 1, 80, 0.3, "high"), {"output": "zpk"}),
    ((23, 1, 70, 0.5, "high"), {"output": "zpk"}),
    ((7, 1, 40, [0.07, 0.2], "pass"), {"output": "zpk"}),
    ((5, 1, 75, [90.5, 110.5], "pass", True), {"output": "zpk"}),
    ((8, 1, 65, [0.2, 0.4], "stop"), {"output": "zpk"}),
    ((5, 1, 40, [201, 240], "stop", True), {}),
    ((8, 1, 100, 17, "hp"), {"fs": 1000, "output": "sos"}),  # SciPy's docstring example
    ((4, 5, 40, 100, "low", True), {}),
    ((6, 0.087, 90, [100, 300], "bandpass"), {"fs": 8000, "output": "sos"}),
    ((15, 0.5, 60, (0.2, 0.4), "bandpass"), {"output": "sos"}),
    ((4, 1, 40, np.float32(0.3)), {}),
]


@pytest.mark.parametrize(("args", "kwargs"), CUPY_ELLIP, ids=str)
def test_ellip_matches_cupys_tests(args, kwargs):
    agree(lambda: design._ellip(*args, **kwargs), lambda: ss.ellip(*args, **kwargs), 0)


@pytest.mark.parametrize("output", ["zpk", "ba"])
@pytest.mark.parametrize("ftype", ["ellip", "elliptic", "cauer", "Elliptic"])
def test_iirfilter_designs_elliptic_filters(ftype, output):
    """iirfilter's elliptic names, lowercased as SciPy lowercases them (CuPy's test_symmetry's designs)."""
    for N in range(1, 25):
        args = (N, 1.1, 1, 20, "low", True, ftype, output)
        agree(lambda args=args: design._iirfilter(*args), lambda args=args: ss.iirfilter(*args), 0)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"N": 4, "Wn": 0.2, "ftype": "ellip"},  # neither rp nor rs
        {"N": 4, "Wn": 0.2, "rp": 1, "ftype": "ellip"},
        {"N": 4, "Wn": 0.2, "rs": 40, "ftype": "cauer"},
        {"N": 4, "Wn": 0.2, "rp": -1, "rs": 40, "ftype": "ellip"},
        {"N": 4, "Wn": 0.2, "rp": 1, "rs": -40, "ftype": "ellip"},
        {"N": -1, "Wn": 0.2, "rp": 1, "rs": 40, "ftype": "elliptic"},
        {"N": 4, "Wn": 1.2, "rp": 1, "rs": 40, "ftype": "ellip"},
        {"N": 4, "Wn": 0.2, "rp": 0, "rs": 40, "ftype": "ellip"},
    ],
    ids=str,
)
def test_iirfilter_elliptic_errors_are_scipys(kwargs):
    same_error(lambda: sig.iirfilter(**kwargs), lambda: ss.iirfilter(**kwargs))
    if "rp" in kwargs and "rs" in kwargs and "ftype" in kwargs:
        args = {k: v for k, v in kwargs.items() if k != "ftype"}
        same_error(lambda: sig.ellip(**args), lambda: ss.ellip(**args))


# ---------------------------------------------------------------- elliptic designs: ellipord

# CuPy's TestEllipord and its sosfreqz designs' specifications, and fs, analog, float32 and integer variants
ELLIPORD_SPECS = [
    ((0.2, 0.3, 3, 60), {}),
    ((0.2, 0.3, 3, 1000), {}),  # ellipkm1 keeps the order finite
    ((0.3, 0.2, 3, 70), {}),
    (([0.2, 0.5], [0.1, 0.6], 3, 80), {}),
    (([0.1, 0.6], [0.2, 0.5], 3, 90), {}),  # bandstop: the minimiser's edges
    (([1000, 6000], [2000, 5000], 3, 90), {"analog": True}),
    (([400, 2400], [800, 2000], 3, 90), {"fs": 8000}),
    (([0.1, 0.6], [0.2, 0.5], 3, 60), {}),
    ((0.3, 0.1, 3, 60), {}),
    ((0.3, 0.2, 3, 60), {}),
    ((0.3, 0.2, 0.5, 150), {}),
    ((np.float32(0.2), np.float32(0.3), 3, 60), {}),  # SciPy's float32 edges, and K of float32
    ((np.float32([0.1, 0.6]), np.float32([0.2, 0.5]), 3, 90), {}),
    (([1, 6], [2, 5], 3, 90), {"analog": True}),
    ((20.0, 30.0, 0.1, 100), {"analog": True}),
    ((100, 150, 1, 40), {"fs": 1000}),
]


@pytest.mark.parametrize(("args", "kwargs"), ELLIPORD_SPECS, ids=str)
def test_ellipord_is_scipys(args, kwargs):
    """The order (a Python int) and natural frequencies (SciPy's type and shape) to the bit."""
    agree(lambda: fx._ellipord(*args, **kwargs), lambda: ss.ellipord(*args, **kwargs), 0)


def test_ellipord_over_random_specifications():
    """Orders and natural frequencies of 800 specifications, 200 of each band type, spread over edges and
    gains: SciPy's (and its warnings), the bandstop ones through the bounded minimiser."""
    rng = np.random.default_rng(17)
    for _ in range(200):
        lo, hi = np.sort(rng.uniform(0.01, 0.99, 2))
        inner = np.sort(rng.uniform(lo, hi, 2))
        gpass = rng.uniform(0.05, 3.0)
        gstop = rng.uniform(gpass + 1.0, 150.0)
        for wp, ws in [(lo, hi), (hi, lo), ([lo, hi], inner), (inner, [lo, hi])]:
            args = (wp, ws, gpass, gstop)
            agree(lambda args=args: fx._ellipord(*args), lambda args=args: ss.ellipord(*args), 0)


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((0.2, 0.5, 3, 2), {}),  # CuPy's test_invalid_input
        ((0.2, 0.5, -1, 2), {}),
        ((0.2, 0.5, 1, -2), {}),
        ((0.2, 0.3, 3, 60), {"fs": 10, "analog": True}),
        ((0.2, 0.3, 3, 60), {"fs": [1, 2]}),
        (([1, 6], [2, 5], 3, 90), {}),  # a digital bandstop past Nyquist: SciPy's minimiser's bounds error
        (([0.1, np.inf], [0.2, 0.5], 3, 90), {}),
        (([0.1, 0.6], [0.2, 0.5, 0.7], 3, 90), {}),
    ],
    ids=str,
)
def test_ellipord_errors_are_scipys(args, kwargs):
    same_error(lambda: sig.ellipord(*args, **kwargs), lambda: ss.ellipord(*args, **kwargs))


@pytest.mark.parametrize("name", ["buttord", "cheb1ord", "cheb2ord", "ellipord"])
def test_float32_bandstop_order_selection_is_scipys(name):
    """float32 bandstop edges: the bounded minimiser steps in float64 from float32 bounds, as SciPy's (its
    constants are NumPy float64 scalars), so every order selection gives SciPy's edges to the bit."""
    rng = np.random.default_rng(23)
    for _ in range(50):
        lo, hi = np.sort(rng.uniform(0.01, 0.99, 2))
        inner = np.sort(rng.uniform(lo, hi, 2))
        args = (np.float32([lo, hi]), np.float32(inner), 1, rng.uniform(20.0, 100.0))
        agree(lambda args=args: getattr(fx, f"_{name}")(*args), lambda args=args: getattr(ss, name)(*args), 0)
