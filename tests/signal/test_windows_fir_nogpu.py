"""cuarray.scipy.signal's windows, FIR design, detrend and hilbert without a device: the names and signatures
are SciPy 1.17's, and bad arguments raise SciPy's exception with SciPy's message before any device work;
minimum_phase's steps run on the host (NumPy and scipy.fft standing in for the device) give SciPy 1.18's values
bit for bit, against SciPy 1.18 or a reference written from its formulas (which test_windows_fir.py uses too)."""

import inspect
import math
import re
import warnings

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.fft
import scipy.signal as ss
import scipy.signal.windows as sw
from signal_asserts import SCIPY_1_18, same_error

MINE = [
    "get_window",
    "firwin",
    "firwin2",
    "kaiser_beta",
    "kaiser_atten",
    "kaiserord",
    "detrend",
    "hilbert",
    "hilbert2",
]


def test_names():
    assert set(sig.windows.__all__) == set(sw.__all__) - {"dpss"}  # dpss is not implemented
    for name in sig.windows.__all__:
        assert callable(getattr(sig.windows, name)), name
    for name in MINE:
        assert name in sig.__all__ and name in ss.__all__, name
    assert "windows" in sig.__all__
    assert sig.get_window is sig.windows.get_window


def _parameters(f, drop=("xp", "device")):
    return [(p.name, p.default) for p in inspect.signature(f).parameters.values() if p.name not in drop]


@pytest.mark.parametrize("name", sorted(set(sw.__all__) - {"dpss"}))
def test_window_signatures(name):
    ours, theirs = inspect.signature(getattr(sig.windows, name)), inspect.signature(getattr(sw, name))
    assert _parameters(getattr(sig.windows, name)) == _parameters(getattr(sw, name))
    for p in ours.parameters.values():  # keyword-only where SciPy's are (lanczos's and kbd's sym)
        assert p.kind == theirs.parameters[p.name].kind, (name, p.name)


@pytest.mark.parametrize("name", ["firwin", "firwin2", "detrend", "hilbert", "hilbert2"])
def test_signatures(name):
    # firwin's are also positional, as CuPy's (Note [firwin's arguments]); the names and defaults are SciPy's.
    assert _parameters(getattr(sig, name)) == _parameters(getattr(ss, name))


WINDOW_ARGS = {
    "general_cosine": ([0.5, 0.5],),
    "general_hamming": (0.6,),
    "kaiser": (3.0,),
    "gaussian": (1.0,),
    "general_gaussian": (1.5, 2.0),
    "chebwin": (60,),
}
PLAIN = sorted(set(sw.__all__) - {"dpss", "get_window", "kaiser_bessel_derived"})


@pytest.mark.parametrize("name", PLAIN)
@pytest.mark.parametrize("M", [-1, 2.5, -3.0, 7.25])
def test_window_length_errors(name, M):
    args = WINDOW_ARGS.get(name, ())
    same_error(lambda: getattr(sig.windows, name)(M, *args), lambda: getattr(sw, name)(M, *args))


@pytest.mark.parametrize("name", PLAIN)
def test_a_float_length_is_type_error(name):
    # Note [Window lengths]: SciPy's windows disagree about 5.0 (most raise TypeError); cuarray's all raise it.
    with pytest.raises(TypeError, match="'float' object cannot be interpreted as an integer"):
        getattr(sig.windows, name)(5.0, *WINDOW_ARGS.get(name, ()))


def test_window_parameter_errors():
    same_error(lambda: sig.windows.exponential(5, 2), lambda: sw.exponential(5, 2))
    for M in (3, 5, 7.0):
        same_error(
            lambda M=M: sig.windows.kaiser_bessel_derived(M, 2.0),
            lambda M=M: sw.kaiser_bessel_derived(M, 2.0),
        )
    same_error(
        lambda: sig.windows.kaiser_bessel_derived(4, 2.0, sym=False),
        lambda: sw.kaiser_bessel_derived(4, 2.0, sym=False),
    )
    with (
        pytest.warns(UserWarning, match="about 45 dB"),
        pytest.raises(ValueError, match="non-negative integer"),
    ):
        sig.windows.chebwin(-1, 30)  # SciPy's warning comes before its length check


GET_WINDOW_ERRORS = [
    ("hann", 0, True),
    ("hann", -1, True),
    ("hann", 2.0, True),
    ("hann", 5, 1),
    ("hann", 5, np.True_),
    ([1, 2], 5, True),
    (object(), 5, True),
    ("foo", 5, True),
    ("hann_periodicx", 5, True),
    ("4.0", 9, True),
    (("foo", 1), 5, True),
    ((1, 2), 5, True),
    (("hann", 2), 5, True),
    ("kaiser", 5, True),
    (("kaiser",), 5, True),
    ("gaussian", 5, True),
    ("general_cosine", 5, True),
    (("exponential", 2, 1.0), 5, False),
    (("exponential_symmetric", 2, 1.0), 5, True),
    (("kbd", 3.0), 4, True),
    (("kbd", 3.0), 5, False),
]


def _error_id(value):
    """A case's id: repr, but a plain object's (whose address differs between pytest-xdist workers) by its type."""
    return type(value).__name__ if type(value) is object else repr(value)


@pytest.mark.parametrize(("window", "Nx", "fftbins"), GET_WINDOW_ERRORS, ids=_error_id)
def test_get_window_errors(window, Nx, fftbins):
    same_error(lambda: sig.get_window(window, Nx, fftbins), lambda: ss.get_window(window, Nx, fftbins))


def test_dpss_is_not_implemented():
    with pytest.raises(NotImplementedError, match="dpss"):
        sig.get_window(("dpss", 3.0), 16)


FIRWIN_ERRORS = [
    {"cutoff": [[0.1, 0.2]]},
    {"cutoff": []},
    {"cutoff": 0.0},
    {"cutoff": 1.0},
    {"cutoff": -0.2},
    {"cutoff": [0.3, 0.2]},
    {"cutoff": [0.2, 0.2]},
    {"cutoff": 0.2, "fs": 0.3},
    {"cutoff": 0.2, "fs": [1, 2]},
    {"cutoff": [0.2, 0.3], "pass_zero": "lowpass"},
    {"cutoff": [0.2, 0.3], "pass_zero": "highpass"},
    {"cutoff": 0.2, "pass_zero": "bandpass"},
    {"cutoff": 0.2, "pass_zero": "bandstop"},
    {"cutoff": 0.2, "pass_zero": False},  # an even filter would pass the Nyquist frequency
    {"cutoff": [0.2, 0.4]},
    {"cutoff": 0.2, "window": "foo"},
    {"cutoff": 0.2, "window": ("kaiser",)},
]


@pytest.mark.parametrize("kwargs", FIRWIN_ERRORS, ids=repr)
def test_firwin_errors(kwargs):
    same_error(lambda: sig.firwin(10, **kwargs), lambda: ss.firwin(10, **kwargs))


@pytest.mark.parametrize("pass_zero", ["foo", "", 1, 1.0, 0, np.True_, None], ids=repr)
def test_firwin_bad_pass_zero(pass_zero):
    """Note [pass_zero's errors]: SciPy's message with CuPy's words after it, so that SciPy's test_bad_pass_zero
    ('^Parameter pass_zero=... not in ') and CuPy's ('pass_zero must be') both match; a pass_zero that is no
    string raises an error that is both SciPy's ValueError and CuPy's TypeError."""
    with pytest.raises(ValueError) as theirs:
        ss.firwin(41, 0.5, pass_zero=pass_zero)
    with pytest.raises(ValueError) as ours:
        sig.firwin(41, 0.5, pass_zero=pass_zero)
    message = str(ours.value)
    assert message.startswith(str(theirs.value)) and re.match(
        f"^Parameter pass_zero={pass_zero!r} not in ", message
    )
    assert re.search("pass_zero must be", message)
    assert isinstance(ours.value, TypeError) is not isinstance(pass_zero, str)


def test_firwin_numtaps_errors():
    for numtaps in (0, 5.0, -3):
        same_error(
            lambda n=numtaps: sig.firwin(n, 0.3, pass_zero=False),
            lambda n=numtaps: ss.firwin(n, 0.3, pass_zero=False),
        )


FIRWIN2_ERRORS = [
    ([0, 1], [1], {}),
    ([0, 0.5, 1], [1, 1, 0], {"nfreqs": 3}),
    ([0, 0.5, 1], [1, 1, 0], {"nfreqs": 31}),
    ([0.1, 1], [1, 0], {}),
    ([0, 0.9], [1, 0], {}),
    ([0, 0.5, 0.4, 1], [1, 1, 0, 0], {}),
    ([0, 0.5, 0.5, 0.5, 1], [1] * 5, {}),
    ([0, 0, 1], [1, 1, 0], {}),
    ([0, 1, 1], [1, 1, 0], {}),
    ([0, 1, 1, 2], [1, 1, 0, 0], {"fs": 4}),  # integer freq: the repeated value cannot be pulled apart
    ([0, 0.5, 1], [1, 1, 0], {"fs": [2]}),
    ([0, 0.5, 1], [1, 1, 1], {"antisymmetric": True}),
    ([0, 0.5, 1], [1, 1, 0], {"window": "foo"}),
]


@pytest.mark.parametrize(("freq", "gain", "kwargs"), FIRWIN2_ERRORS, ids=repr)
def test_firwin2_errors(freq, gain, kwargs):
    same_error(lambda: sig.firwin2(31, freq, gain, **kwargs), lambda: ss.firwin2(31, freq, gain, **kwargs))


def test_firwin2_type_errors():
    same_error(
        lambda: sig.firwin2(30, [0, 0.5, 1], [1, 1, 1]), lambda: ss.firwin2(30, [0, 0.5, 1], [1, 1, 1])
    )
    same_error(
        lambda: sig.firwin2(30, [0, 0.5, 1], [1, 1, 0], antisymmetric=True),
        lambda: ss.firwin2(30, [0, 0.5, 1], [1, 1, 0], antisymmetric=True),
    )


def test_kaiser_formulas():
    for a in (0, 8, 21, 21.5, 40, 50, 60, 120):
        assert sig.kaiser_beta(a) == ss.kaiser_beta(a)
        for width in (0.01, 0.1, 0.37):
            assert sig.kaiser_atten(31, width) == ss.kaiser_atten(31, width)
            if a >= 8:
                assert sig.kaiserord(a, width) == ss.kaiserord(a, width)
                assert sig.kaiserord(-a, width) == ss.kaiserord(-a, width)
    for ripple in (7.9, -7.0, 0):
        same_error(lambda r=ripple: sig.kaiserord(r, 0.1), lambda r=ripple: ss.kaiserord(r, 0.1))
    numtaps, beta = sig.kaiserord(65, 0.05)
    assert type(numtaps) is int and type(beta) is float


def test_detrend_and_hilbert_argument_errors():
    host = np.arange(6.0)
    same_error(lambda: sig.detrend(host, type="foo"), lambda: ss.detrend(host, type="foo"))  # checked first
    for f in (sig.hilbert, sig.hilbert2):  # CuPy's FFTs refuse host arrays
        with pytest.raises(TypeError, match="Unsupported type <class 'numpy.ndarray'>"):
            f(host)
        with pytest.raises(TypeError, match="Unsupported type <class 'list'>"):
            f([1.0, 2.0])


@pytest.mark.nogpu
def test_detrend_takes_host_data_to_the_device():
    """As CuPy's detrend (cupy.asarray), host data is copied to the device: here, where there is none, that fails."""
    for data in (np.arange(6.0), [0, 1, 2, 5, 0, -5, -10], 3.0):
        with pytest.raises(cp.cuda.CUDARuntimeError, match=r"(?i)no CUDA driver or device"):
            sig.detrend(data, bp=3)


# ---------------------------------------------------------------- minimum_phase
# SciPy 1.18 changed the homomorphic method's cepstral window (Note [minimum_phase as SciPy 1.18] in
# _fir_design.py), and cuarray follows 1.18. Against SciPy 1.17 the tests expect SciPy 1.18's values, which
# scipy_1_18_minimum_phase computes from 1.18's formulas; test_minimum_phase_reference_is_scipys checks that
# reference against the installed SciPy, whichever it is (with 1.17's window against 1.17).


def _window_1_18(n_fft, dtype):
    """SciPy 1.18's cepstral window: 1, 2 up to n_fft // 2 (excluded), there 1 + n_fft % 2, then 0."""
    win = np.zeros(n_fft, dtype=dtype)
    win[0] = 1
    stop = n_fft // 2
    win[1:stop] = 2
    win[stop] = 1 + n_fft % 2
    return win


def _window_1_17(n_fft, dtype):
    """SciPy 1.17's: 1, 2 up to n_fft // 2 (excluded), there 1 for an odd n_fft and 0 for an even one, then 0."""
    win = np.zeros(n_fft, dtype=dtype)
    win[0] = 1
    stop = n_fft // 2
    win[1:stop] = 2
    if n_fft % 2:
        win[stop] = 1
    return win


def _complex_fft(x, n=None):
    """scipy.fft.fft of x cast to complex: a complex-to-complex transform (cuFFT's way with a real input), which
    rounds otherwise than SciPy's real-input one."""
    x = np.asarray(x)
    return scipy.fft.fft(x.astype(np.result_type(x.dtype, np.complex64)), n)


def _conjugate_ifft(x):
    """The inverse FFT as conj(fft(conj(x))) / n: other roundings than scipy.fft.ifft's."""
    x = np.asarray(x)
    x = x.astype(np.result_type(x.dtype, np.complex64))
    return np.conj(scipy.fft.fft(np.conj(x))) / x.shape[0]


def scipy_1_18_minimum_phase(
    h, method="homomorphic", n_fft=None, half=True, *, window=_window_1_18, transforms=None
):
    """SciPy 1.18.1's minimum_phase (scipy/signal/_fir_filter_design.py) for valid arguments, written out from its
    formulas with NumPy and scipy.fft, step for step as SciPy computes; `window=_window_1_17` gives SciPy 1.17's
    values instead, `transforms` (fft, ifft) computes it with other transforms (other rounding)."""
    fft, ifft = transforms or (scipy.fft.fft, scipy.fft.ifft)
    h = np.asarray(h)
    n_half = h.shape[0] // 2
    if n_fft is None:
        n_fft = 2 ** math.ceil(math.log2(2 * (h.shape[0] - 1) / 0.01))
    n_fft = int(n_fft)
    if method == "hilbert":
        w = np.arange(n_fft, dtype=np.float64) * (2 * np.pi / n_fft * n_half)
        H = np.real(fft(h, n_fft) * np.exp(1j * w))
        dp = max(H) - 1
        ds = 0 - min(H)
        S = 4.0 / (np.sqrt(1 + dp + ds) + np.sqrt(1 - dp + ds)) ** 2
        H += ds
        H *= S
        H = np.sqrt(H)
        H += 1e-10
        sign = np.zeros(n_fft)  # SciPy's _dhtm
        sign[1 : n_fft // 2] = 1
        sign[n_fft // 2 + 1 :] = -1
        h_minimum = np.real(ifft(H * np.exp(fft(sign * ifft(np.log(H))))))
    else:
        h_temp = np.abs(fft(h, n_fft))
        h_temp += 1e-7 * np.min(h_temp[h_temp > 0])
        h_temp = np.log(h_temp)
        if half:
            h_temp *= 0.5
        h_temp = np.real(ifft(h_temp))
        h_temp *= window(n_fft, h_temp.dtype)
        h_minimum = np.real(ifft(np.exp(fft(h_temp))))
    n_out = (n_half + h.shape[0] % 2) if half else h.shape[0]
    return h_minimum[:n_out]


def expected_minimum_phase(h, method="homomorphic", n_fft=None, half=True):
    """SciPy 1.18's minimum_phase: the installed SciPy's from 1.18 on and for the Hilbert method (which 1.18 left
    as it was), else the reference (1.17's homomorphic window differs)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the NaN of a Hilbert method's square root of a negative number
        if SCIPY_1_18 or method == "hilbert":
            return ss.minimum_phase(h, method, n_fft, half=half)
        return scipy_1_18_minimum_phase(h, method, n_fft, half)


_OTHER_TRANSFORMS = (
    (_complex_fft, scipy.fft.ifft),
    (scipy.fft.fft, _conjugate_ifft),
    (_complex_fft, _conjugate_ifft),
)


def passband_magnitude(taps, expected):
    """|rfft(taps)| on the taps' own grid (len(taps) points) where the response of `expected` (SciPy's taps) is
    at least 0.9 of its largest: the passband, where the magnitude is well conditioned even when the taps are
    not (Note [minimum_phase's conditioning] in _fir_design.py)."""
    response = np.abs(np.fft.rfft(expected))
    return np.abs(np.fft.rfft(taps))[response >= 0.9 * response.max()]


def minimum_phase_tolerances(h, method="homomorphic", n_fft=None, half=True):
    """(taps, passband): how far another FFT's rounding may move SciPy 1.18's taps, and their passband_magnitude
    (Note [minimum_phase's conditioning]): 20 times the most that other host transforms (complex-to-complex, a
    conjugated inverse) move them, and at least 64 units in the last place of the largest value. The passband's
    is None where the taps are NaN."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the NaN of a Hilbert method's square root of a negative number
        expected = scipy_1_18_minimum_phase(h, method, n_fft, half)
        others = [scipy_1_18_minimum_phase(h, method, n_fft, half, transforms=t) for t in _OTHER_TRANSFORMS]
    ulps = 64 * float(np.finfo(expected.dtype).eps)
    finite = np.abs(expected[np.isfinite(expected)])
    taps_spread = max(float(np.nanmax(np.abs(other - expected), initial=0.0)) for other in others)
    taps = max(20 * taps_spread, ulps * float(finite.max(initial=1.0)))
    if finite.size < expected.size:
        return taps, None
    magnitude = passband_magnitude(expected, expected)
    passband_spread = max(
        float(np.abs(passband_magnitude(other, expected) - magnitude).max()) for other in others
    )
    return taps, max(20 * passband_spread, ulps * float(magnitude.max()))


def nyquist_filter(N, dtype):
    """CuPy's and SciPy's test_nyquist filter: a Hann-window lowpass of N taps, 10 Hz of 100."""
    return ss.firwin(N, 10, window="hann", pass_zero="lowpass", scale=False, fs=100).astype(dtype)


def passband_error(h, h_minimum):
    """The largest difference of the magnitude responses (N points) of a nyquist_filter and of its minimum-phase
    version in its passband (up to 8 Hz of 100): half=False keeps the magnitude (SciPy's test_nyquist)."""
    N = h.shape[0]
    band = np.fft.rfftfreq(N, 1 / 100) < 8
    return np.abs(np.abs(np.fft.rfft(h_minimum, N)) - np.abs(np.fft.rfft(h, N)))[band].max()


def _symmetric_random(n):
    """CuPy's test_homomorphic_2 filter: h convolved with its reverse (NumPy's RandomState(0) for CuPy's)."""
    h = np.random.RandomState(0).randn(n)
    return np.convolve(h, h[::-1])


def _remez_lowpass(dtype="float64"):
    """The optimal lowpass of SciPy's minimum_phase docstring (CuPy's test_hilbert)."""
    return ss.remez(151, [0, 0.2, 0.3, 1.0], [1, 0], fs=2).astype(dtype)


# name: (h, method, n_fft, half); CuPy's TestMinimumPhase cases first, then SciPy's test_hilbert's, and more
MINIMUM_PHASE_CASES = {
    "cupy homomorphic": (lambda: np.convolve([1, -1], [-1, 1]), "homomorphic", None, True),
    "cupy homomorphic half=False": (lambda: np.convolve([1, -1], [-1, 1]), "homomorphic", None, False),
    **{
        f"cupy homomorphic_2 n={n}": (lambda n=n: _symmetric_random(n), "homomorphic", None, True)
        for n in (2, 3, 10, 11, 15, 16, 17, 20, 21, 100, 101)
    },
    "cupy hilbert": (_remez_lowpass, "hilbert", None, True),
    **{
        f"cupy nyquist {N} {dtype}": (
            lambda N=N, dtype=dtype: nyquist_filter(N, dtype),
            "homomorphic",
            N,
            False,
        )
        for N in (963, 964)
        for dtype in ("float32", "float64")
    },
    "scipy hilbert 12": (lambda: ss.remez(12, [0, 0.3, 0.5, 1], [1, 0], fs=2.0), "hilbert", None, True),
    "scipy hilbert 21": (lambda: ss.remez(21, [0, 0.8, 0.9, 1], [0, 1], fs=2.0), "hilbert", 2**19, True),
    "random half=False": (lambda: _symmetric_random(21), "homomorphic", None, False),
    "random hilbert (NaN)": (lambda: _symmetric_random(10), "hilbert", None, True),
    "remez homomorphic": (_remez_lowpass, "homomorphic", None, True),
    "remez half=False": (_remez_lowpass, "homomorphic", None, False),
    "remez odd n_fft": (_remez_lowpass, "homomorphic", 1001, False),
    "remez float32": (lambda: _remez_lowpass("float32"), "homomorphic", None, True),
    "remez float32 hilbert": (lambda: _remez_lowpass("float32"), "hilbert", None, True),
    "float16": (lambda: ss.firwin(31, 0.3).astype("float16"), "homomorphic", None, True),
    "int64, a float n_fft": (lambda: np.array([1, 3, 5, 3, 1]), "homomorphic", 64.5, False),
    "n_fft = len(h)": (lambda: ss.firwin(7, 0.4), "homomorphic", 7, False),
}


def test_minimum_phase_signature():
    # `half` also by position, as CuPy's (SciPy's is keyword-only); the names and defaults are SciPy's
    assert "minimum_phase" in sig.__all__
    assert _parameters(sig.minimum_phase) == _parameters(ss.minimum_phase)
    assert (
        inspect.signature(sig.minimum_phase).parameters["half"].kind
        == inspect.Parameter.POSITIONAL_OR_KEYWORD
    )


MINIMUM_PHASE_ERRORS = [
    # CuPy's test_bad_args, on host values
    ((np.array([1.0]),), {}),
    ((np.array([1.0, 1.0]),), {}),
    ((np.full(10, 1j),), {}),
    (("foo",), {}),
    ((np.ones(10),), {"n_fft": 8}),
    ((np.ones(10),), {"method": "foo"}),
    # SciPy's, and their order
    (([1.0, 2.0],), {}),
    ((np.ones((3, 3)),), {}),
    ((np.full((3, 3), 1j),), {}),
    ((np.ones(2),), {"method": "foo"}),
    ((np.ones(10),), {"method": 3}),
    ((np.ones(10),), {"method": "foo", "n_fft": 8}),
    ((np.ones(3),), {"method": "hilbert", "half": False}),
    ((np.ones(3),), {"method": "hilbert", "half": 0}),
    ((np.ones(10),), {"n_fft": "x"}),
    ((np.ones(10),), {"n_fft": 9.9}),
    ((np.ones(5, dtype=bool),), {}),  # NumPy's TypeError for a boolean subtraction, in the symmetry test
]


@pytest.mark.parametrize(("args", "kwargs"), MINIMUM_PHASE_ERRORS, ids=_error_id)
def test_minimum_phase_errors(args, kwargs):
    """Host values are checked before they go to the device, so SciPy's errors come without one."""
    same_error(lambda: sig.minimum_phase(*args, **kwargs), lambda: ss.minimum_phase(*args, **kwargs))


def test_minimum_phase_positional_half():
    same_error(
        lambda: sig.minimum_phase(np.ones(3), "hilbert", None, False),  # CuPy's positional half
        lambda: ss.minimum_phase(np.ones(3), "hilbert", None, half=False),
    )


def _asymmetry_warnings(minimum_phase, h):
    """The warnings minimum_phase(h, method='foo') gives before its ValueError, as (category, message)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="method must be"):
            minimum_phase(h, method="foo")
    return [(w.category, str(w.message)) for w in caught]


ASYMMETRIC = [np.arange(3.0), [1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 2.0, 1.0], [1, 2, 3, 5, 1], [3.0, 0.0, 1.0]]


@pytest.mark.parametrize("h", [*ASYMMETRIC, np.float32([1, 2, 1 + 1e-7])], ids=str)
def test_minimum_phase_asymmetry_warning(h):
    """SciPy's test, not CuPy's allclose: no warning while any mirrored pair is close, the difference signed."""
    expected = _asymmetry_warnings(ss.minimum_phase, h)
    assert _asymmetry_warnings(sig.minimum_phase, h) == expected
    assert expected in ([], [(RuntimeWarning, "h does not appear to by symmetric, conversion may fail")])


@pytest.fixture
def numpy_minimum_phase(monkeypatch):
    """NumPy in cuarray's place in _fir_design.py, and scipy.fft's transforms in cuarray.fft's: minimum_phase runs
    its device code on host arrays, rounded as SciPy rounds them."""
    from cuarray.scipy.signal import _fir_design

    monkeypatch.setattr(_fir_design, "cp", np)
    monkeypatch.setattr(_fir_design, "fft", scipy.fft.fft)
    monkeypatch.setattr(_fir_design, "ifft", scipy.fft.ifft)
    return _fir_design


def test_minimum_phase_cepstral_window(numpy_minimum_phase):
    """SciPy 1.18's window, which sums to n_fft (lmin[n] = 2u[n] - d[n]); SciPy 1.17's differs at n_fft // 2."""
    for n_fft in [*range(3, 20), 963, 964, 4096]:
        for dtype in (np.float64, np.float32):
            window = numpy_minimum_phase._cepstral_window(n_fft, dtype)
            np.testing.assert_array_equal(window, _window_1_18(n_fft, dtype), strict=True)
            assert window.sum() == n_fft
            assert np.flatnonzero(window != _window_1_17(n_fft, dtype)).tolist() == [n_fft // 2]
        assert list(window[: (n_fft + 1) // 2]) == [1] + [2] * ((n_fft - 1) // 2)  # the positive quefrencies
        assert not window[n_fft // 2 + 1 :].any()  # the negative ones


@pytest.mark.parametrize("name", list(MINIMUM_PHASE_CASES))
def test_minimum_phase_reference_is_scipys(name):
    """The reference, with the installed SciPy's window, is that SciPy's minimum_phase bit for bit."""
    make_h, method, n_fft, half = MINIMUM_PHASE_CASES[name]
    h = make_h()
    window = _window_1_18 if SCIPY_1_18 else _window_1_17
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = ss.minimum_phase(h, method, n_fft, half=half)
        got = scipy_1_18_minimum_phase(h, method, n_fft, half, window=window)
    np.testing.assert_array_equal(got, expected, strict=True)


def test_minimum_phase_1_17_and_1_18_differ():
    """What the SciPy 1.18 branch is for: the windows give other taps for CuPy's test_homomorphic filter (a
    double zero at DC, so the cepstrum still matters at n_fft // 2) and for test_nyquist's, where 1.17's leaves
    a ripple in the passband that test_windows_fir.py's comparisons of passbands see."""
    h = np.convolve([1, -1], [-1, 1])
    for half in (True, False):
        new = scipy_1_18_minimum_phase(h, half=half)
        old = scipy_1_18_minimum_phase(h, half=half, window=_window_1_17)
        assert np.abs(new - old).max() > 1e-4
    for N in (963, 964):
        for dtype, bound in (("float64", 1e-10), ("float32", 1e-4)):
            h = nyquist_filter(N, dtype)
            new = scipy_1_18_minimum_phase(h, n_fft=N, half=False)
            old = scipy_1_18_minimum_phase(h, n_fft=N, half=False, window=_window_1_17)
            assert passband_error(h, new) < bound < passband_error(h, old)
            _, passband = minimum_phase_tolerances(h, "homomorphic", N, False)
            assert np.abs(passband_magnitude(old, new) - passband_magnitude(new, new)).max() > 100 * passband


@pytest.mark.parametrize("name", list(MINIMUM_PHASE_CASES))
def test_minimum_phase_host_maths(numpy_minimum_phase, name):
    """minimum_phase's steps, run on the host with SciPy's transforms, are SciPy 1.18's bit for bit: the checks,
    n_fft, the window, the dtypes, the taps kept."""
    make_h, method, n_fft, half = MINIMUM_PHASE_CASES[name]
    h = make_h()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = sig.minimum_phase(h, method, n_fft, half)
    np.testing.assert_array_equal(got, expected_minimum_phase(h, method, n_fft, half), strict=True)
    assert got.flags.c_contiguous


@pytest.mark.parametrize("h", ASYMMETRIC, ids=str)
def test_minimum_phase_warns_as_scipy_on_the_host(numpy_minimum_phase, h):
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        ss.minimum_phase(h)
    with warnings.catch_warnings(record=True) as ours:
        warnings.simplefilter("always")
        sig.minimum_phase(h)
    assert [(w.category, str(w.message)) for w in ours] == [(w.category, str(w.message)) for w in theirs]


@pytest.mark.nogpu
def test_minimum_phase_takes_host_values_to_the_device():
    """Host values (a list, a NumPy array) pass SciPy's checks, then go to the device: here, where there is none,
    that fails."""
    for h in ([1.0, 2.0, 1.0], np.hanning(9)):
        with pytest.raises(cp.cuda.CUDARuntimeError, match=r"(?i)no CUDA driver or device"):
            sig.minimum_phase(h)
