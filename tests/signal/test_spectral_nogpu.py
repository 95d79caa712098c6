"""cuarray.scipy.signal's spectral analysis without a device: SciPy 1.17's names and signatures, the host maths
(the median's bias, ShortTimeFFT's slice range for its error message), the argument errors raised before
any device work, and (without a device) host signals taken to the device as CuPy takes them."""

import inspect

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
from cuarray.scipy.signal import _spectral
from scipy.signal import ShortTimeFFT
from scipy.signal._spectral_py import _median_bias
from signal_asserts import same_error

NAMES = [
    "periodogram",
    "welch",
    "csd",
    "coherence",
    "spectrogram",
    "stft",
    "istft",
    "check_COLA",
    "check_NOLA",
]

# SciPy 1.17 names its default windows 'hann_periodic' and ('tukey_periodic', 0.25); CuPy's names, 'hann' and
# ('tukey', 0.25), give get_window the same periodic windows.
SAME_WINDOWS = {"hann_periodic": "hann", ("tukey_periodic", 0.25): ("tukey", 0.25)}


def test_names():
    for name in NAMES:
        assert name in sig.__all__ and name in ss.__all__, name
        assert getattr(sig, name).__module__ == "cuarray.scipy.signal._spectral"


@pytest.mark.parametrize("name", NAMES)
def test_signatures(name):
    ours = inspect.signature(getattr(sig, name)).parameters
    theirs = inspect.signature(getattr(ss, name)).parameters
    assert list(ours) == list(theirs)
    for p in theirs.values():
        expected = SAME_WINDOWS.get(p.default, p.default) if p.name == "window" else p.default
        assert ours[p.name].default == expected, (name, p.name)
        assert ours[p.name].kind == p.kind, (name, p.name)
    for theirs_window, ours_window in SAME_WINDOWS.items():
        np.testing.assert_array_equal(ss.get_window(theirs_window, 16), ss.get_window(ours_window, 16))


def test_median_bias():
    for n in range(1, 60):
        assert _spectral._median_bias(n) == pytest.approx(_median_bias(n), rel=1e-15, abs=0)


WINDOWS = [
    np.ones(8),
    ss.get_window("hann", 16),
    ss.get_window("hann", 15, fftbins=False),  # zeros at both ends
    np.r_[np.zeros(5), np.ones(6), np.zeros(3)],
    ss.get_window(("tukey", 0.5), 33),
    np.r_[1.0, np.zeros(9)],
]


@pytest.mark.parametrize("win", WINDOWS, ids=lambda w: f"{len(w)}")
def test_slice_range_is_short_time_ffts(win):
    # csd's error message for a window longer than the signal names ShortTimeFFT's p_min and p_max.
    for hop in range(1, len(win) + 3):
        sft = ShortTimeFFT(win, hop, 1.0)
        for n in range(len(win) - len(win) // 2, 3 * len(win)):
            assert _spectral._slice_range(win**2, hop, n) == (sft.p_min, sft.p_max(n)), (hop, n)


X = np.ones(64)  # host values: each error below comes before the signal is looked at


@pytest.mark.parametrize("mode", ["foo", "PSD", None])
def test_spectrogram_mode_error(mode):
    same_error(lambda: sig.spectrogram(X, mode=mode), lambda: ss.spectrogram(X, mode=mode))


@pytest.mark.parametrize("scaling", ["foo", "density", None])
def test_stft_scaling_error(scaling):
    same_error(lambda: sig.stft(X, scaling=scaling), lambda: ss.stft(X, scaling=scaling))


@pytest.mark.parametrize("boundary", ["foo", "reflect", 0])
def test_stft_boundary_error(boundary):
    same_error(lambda: sig.stft(X, boundary=boundary), lambda: ss.stft(X, boundary=boundary))


ARGUMENT_ERRORS = [(0, 0), (-4, 0), (0.5, 0), (8, 8), (8, 9), (8, 8.5), (8.9, 8)]


@pytest.mark.parametrize(
    ("name", "nperseg", "noverlap"),
    [("check_COLA", *case) for case in ARGUMENT_ERRORS]
    + [("check_NOLA", *case) for case in ARGUMENT_ERRORS + [(8, -1), (8, -8)]],
)
def test_cola_nola_argument_errors(name, nperseg, noverlap):
    # (check_COLA's negative noverlap is an error of its window sums: test_spectral.py, on a device)
    same_error(
        lambda: getattr(sig, name)("hann", nperseg, noverlap),
        lambda: getattr(ss, name)("hann", nperseg, noverlap),
    )


@pytest.mark.nogpu
@pytest.mark.parametrize("name", ["periodogram", "welch", "spectrogram", "stft", "istft"])
@pytest.mark.parametrize("signal", [np.ones((4, 64)), [[1.0] * 64] * 4], ids=["ndarray", "list"])
def test_host_signals_go_to_the_device(name, signal):
    """As CuPy's (cupy.asarray), a host signal is copied to the device: here, where there is none, that fails."""
    with pytest.raises(cp.cuda.CUDARuntimeError, match=r"(?i)no CUDA driver or device"):
        getattr(sig, name)(signal)


@pytest.mark.nogpu
@pytest.mark.parametrize("name", ["csd", "coherence"])
def test_host_signal_pairs_go_to_the_device(name):
    for x, y in (([1.0, 2.0], [1.0, 2.0]), (np.ones(8), np.ones(8))):
        with pytest.raises(cp.cuda.CUDARuntimeError, match=r"(?i)no CUDA driver or device"):
            getattr(sig, name)(x, y)
