"""cuarray.scipy.signal's windows, FIR design, detrend and hilbert without a device: the names and signatures
are SciPy 1.17's, and bad arguments raise SciPy's exception with SciPy's message before any device work."""

import inspect
import re

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
import scipy.signal.windows as sw
from signal_asserts import same_error

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
