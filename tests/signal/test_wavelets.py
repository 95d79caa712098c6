"""CuPy's wavelets (ricker, morlet, morlet2, cwt; SciPy 1.15 removed them) on the device against SciPy 1.14's
formulas, written out here in NumPy (no installed SciPy has them), with CuPy's integer widths in cwt (Note
[CuPy's wavelets] in _wavelets.py): values, dtypes (float64, complex128) and CuPy's deprecation warning on every
call. CuPy's TestWavelets cases. What needs no device is in test_wavelets_nogpu.py."""

from functools import partial

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
from signal_asserts import assert_device

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.filterwarnings("ignore::numpy.exceptions.VisibleDeprecationWarning"),
]

# device exp and cos against NumPy's: a few units in the last place of the largest value
assert_close = partial(assert_device, default_tol=1e-13)


def ricker_ref(points, a):
    """SciPy 1.14's ricker."""
    amplitude = 2 / (np.sqrt(3 * a) * (np.pi**0.25))
    vec = np.arange(0, points) - (points - 1.0) / 2
    return amplitude * (1 - vec**2 / a**2) * np.exp(-(vec**2) / (2 * a**2))


def morlet_ref(M, w=5.0, s=1.0, complete=True):
    """SciPy 1.14's morlet."""
    x = np.linspace(-s * 2 * np.pi, s * 2 * np.pi, M)
    output = np.exp(1j * w * x)
    if complete:
        output -= np.exp(-0.5 * (w**2))
    return output * np.exp(-0.5 * (x**2)) * np.pi ** (-0.25)


def morlet2_ref(M, s, w=5):
    """SciPy 1.14's morlet2."""
    x = (np.arange(0, M) - (M - 1.0) / 2) / s
    return np.sqrt(1 / s) * np.exp(1j * w * x) * np.exp(-0.5 * x**2) * np.pi ** (-0.25)


def cwt_ref(data, wavelet, widths):
    """SciPy 1.14's cwt as CuPy's computes it: each width taken as int(width)."""
    dtype = np.complex128 if np.asarray(wavelet(1, 1)).dtype.kind == "c" else np.float64
    out = np.empty((len(widths), len(data)), dtype=dtype)
    for row, width in enumerate(widths):
        points = min(10 * int(width), len(data))
        out[row] = ss.convolve(data, np.conj(wavelet(points, int(width)))[::-1], mode="same")
    return out


def test_every_call_warns_as_cupys():
    for call in (
        lambda: sig.ricker(10, 2.0),
        lambda: sig.morlet(10),
        lambda: sig.morlet2(10, 2.0),
        lambda: sig.cwt(cp.ones(20), sig.ricker, [1, 2]),
    ):
        with pytest.warns(np.exceptions.VisibleDeprecationWarning, match="deprecated in CuPy v14"):
            call()


@pytest.mark.parametrize(
    ("points", "a"), [(1.0, 1), (5, 1.0), (11, 1.0), (51, 1.0), (100, 2.0), (99, 5), (99, 30), (0, 1.0)]
)
def test_ricker(points, a):
    assert_close(sig.ricker(points, a), ricker_ref(int(points), a))


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((50, 4.1), {"complete": True}),  # CuPy's TestWavelets::test_morlet
        ((50, 4.1), {"complete": False}),
        ((10, 50), {"complete": False}),
        ((10, 50), {"complete": True}),
        ((3,), {"w": 2, "complete": True}),
        ((3,), {"w": 2, "complete": False}),
        ((10000,), {"s": 4, "complete": True}),
        ((10000,), {"s": 5, "w": 3, "complete": False}),
        ((1,), {"s": 2.0}),  # linspace's one point, -2 pi s (CuPy's kernel divides by M - 1 there)
        ((0,), {}),
    ],
    ids=str,
)
def test_morlet(args, kwargs):
    assert_close(sig.morlet(*args, **kwargs), morlet_ref(*args, **kwargs))


@pytest.mark.parametrize(
    ("M", "s", "w"), [(1.0, 0.5, 5), (5, 1.0, 5), (51, 1.0, 5), (100, 2.0, 5), (3, 1 / (2 * np.pi), 2)]
)
def test_morlet2(M, s, w):
    assert_close(sig.morlet2(M, s, w), morlet2_ref(int(M), s, w))


def test_cwt_delta():
    """CuPy's test_cwt_delta: a one-point wavelet gives the data back, as float64."""
    data = np.sin(np.pi * np.arange(100) / 10.0)
    got = sig.cwt(cp.asarray(data), lambda points, width: cp.array([1]), [1.0])
    assert_close(got, data[None, :].astype(np.float64), 1e-15)


@pytest.mark.parametrize(
    ("wavelet", "reference", "widths"),
    [
        (sig.ricker, ricker_ref, [1, 3, 4, 5, 10]),  # CuPy's test_cwt_ricker
        # truncated to 1, 2 and 30; the 300 points of the last cut to the data's 100
        (sig.ricker, ricker_ref, [1.5, 2.7, 30]),
        (sig.morlet2, morlet2_ref, [1, 2, 7]),
    ],
    ids=["ricker", "ricker float widths", "morlet2"],
)
def test_cwt(wavelet, reference, widths):
    data = np.sin(np.pi * np.arange(100) / 10.0) + np.random.default_rng(2).standard_normal(100) * 0.1
    expected = cwt_ref(data, reference, widths)
    assert_close(sig.cwt(cp.asarray(data), wavelet, widths), expected)
    assert_close(sig.cwt(cp.asarray(data), wavelet, cp.asarray(widths)), expected)  # device widths


def test_cwt_float32_data_gives_float64():
    data = np.linspace(-1, 1, 64, dtype=np.float32)
    expected = cwt_ref(data.astype(np.float64), ricker_ref, [2, 4])
    assert_close(sig.cwt(cp.asarray(data), sig.ricker, [2, 4]), expected, 1e-6)
