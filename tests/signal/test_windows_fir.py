"""cuarray.scipy.signal's windows (cuarray.scipy.signal.windows and get_window), FIR design (firwin, firwin2)
and detrend, hilbert, hilbert2 on the device against scipy.signal on the same arguments: every window and
name, symmetric and periodic, odd, even and tiny lengths; every pass_zero form; dtypes, axes, breakpoints,
non-contiguous inputs; and the errors that need a device array to reach."""

import re
from functools import partial

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
import scipy.signal.windows as sw
from conftest import make_data
from signal_asserts import assert_device

pytestmark = pytest.mark.gpu

LENGTHS = [0, 1, 2, 3, 4, 7, 16, 51, 256, 1001]


# A device array of SciPy's dtype and shape, within 1e-12 (or the tolerance given) of the largest value.
assert_close = partial(assert_device, default_tol=1e-12)


# ---------------------------------------------------------------- windows

WINDOWS = [
    ("boxcar", ()),
    ("triang", ()),
    ("parzen", ()),
    ("bohman", ()),
    ("blackman", ()),
    ("nuttall", ()),
    ("blackmanharris", ()),
    ("flattop", ()),
    ("bartlett", ()),
    ("hann", ()),
    ("barthann", ()),
    ("hamming", ()),
    ("cosine", ()),
    ("tukey", ()),
    ("tukey", (0.0,)),
    ("tukey", (0.3,)),
    ("tukey", (1.0,)),
    ("general_hamming", (0.6,)),
    ("kaiser", (0.0,)),
    ("kaiser", (8.6,)),
    ("gaussian", (2.5,)),
    ("general_gaussian", (1.5, 7.0)),
    ("chebwin", (50,)),
    ("chebwin", (100,)),
    ("exponential", ()),
    ("exponential", (None, 3.0)),
    ("taylor", ()),
    ("taylor", (1,)),
    ("taylor", (20, 100, False)),
    ("general_cosine", ([1, 1.942604, 1.340318, 0.440811, 0.043097],)),
]


@pytest.mark.parametrize(("name", "args"), WINDOWS, ids=lambda v: str(v))
@pytest.mark.parametrize("sym", [True, False])
def test_window(name, args, sym):
    for M in LENGTHS:
        assert_close(getattr(sig.windows, name)(M, *args, sym=sym), getattr(sw, name)(M, *args, sym=sym))


@pytest.mark.parametrize("sym", [True, False])
def test_lanczos(sym):
    for M in LENGTHS:
        assert_close(sig.windows.lanczos(M, sym=sym), sw.lanczos(M, sym=sym))


def test_window_defaults_and_parameter_forms():
    assert_close(sig.windows.hann(9), sw.hann(9))  # sym=True by default
    assert_close(sig.windows.kaiser(np.int64(9), 4), sw.kaiser(np.int64(9), 4))
    assert_close(sig.windows.general_cosine(8, cp.asarray([0.5, 0.5])), sw.general_cosine(8, [0.5, 0.5]))
    assert_close(sig.windows.exponential(8, 2, 3.0, False), sw.exponential(8, 2, 3.0, False))
    with pytest.warns(UserWarning, match="45 dB"):
        assert_close(sig.windows.chebwin(9, 30), sw.chebwin(9, 30))


@pytest.mark.parametrize("beta", [0.5, 4.0, 12.0])
def test_kaiser_bessel_derived(beta):
    for M in [0, 2, 4, 10, 64]:
        assert_close(sig.windows.kaiser_bessel_derived(M, beta), sw.kaiser_bessel_derived(M, beta))


def test_windows_are_float64_device_arrays():
    for name in sig.windows.__all__:
        if name == "get_window":
            continue
        args = {"general_cosine": ([0.5, 0.5],), "general_hamming": (0.6,), "kaiser": (2.0,),
                "kaiser_bessel_derived": (2.0,), "gaussian": (1.0,), "general_gaussian": (1.5, 2.0),
                "chebwin": (60,)}.get(name, ())  # fmt: skip
        w = getattr(sig.windows, name)(6, *args)
        assert isinstance(w, cp.ndarray) and w.dtype == np.float64 and w.shape == (6,), name


# ---------------------------------------------------------------- get_window

NAMES = [
    "barthann", "brthan", "bth", "bartlett", "bart", "brt", "blackman", "black", "blk", "blackmanharris",
    "blackharr", "bkh", "bohman", "bman", "bmn", "boxcar", "box", "ones", "rect", "rectangular", "cosine",
    "halfcosine", "exponential", "poisson", "flattop", "flat", "flt", "hamming", "hamm", "ham", "hann", "han",
    "lanczos", "sinc", "nuttall", "nutl", "nut", "parzen", "parz", "par", "taylor", "taylorwin", "triangle",
    "triang", "tri", "tukey", "tuk",
]  # fmt: skip
TUPLES = [
    ("chebwin", 60), ("cheb", 80), ("exponential", None, 2.0), ("poisson", 1, 2.0), ("gaussian", 2.0),
    ("gss", 1.0), ("general cosine", [0.5, 0.3, 0.2]), ("general_cosine", [0.5, 0.5]),
    ("general gaussian", 1.5, 3.0), ("ggs", 2, 1.0), ("general hamming", 0.6), ("general_hamming", 0.7),
    ("kaiser", 5.0), ("ksr", 0.0), ("taylor", 5, 35), ("taylorwin", 3, 30, False), ("tukey", 0.3), ("tuk", 0.8),
]  # fmt: skip


@pytest.mark.parametrize("fftbins", [True, False])
@pytest.mark.parametrize("suffix", ["", "_periodic", "_symmetric"])
def test_get_window_names(fftbins, suffix):
    for Nx in (1, 2, 7, 16):
        for name in NAMES:
            assert_close(
                sig.get_window(name + suffix, Nx, fftbins), ss.get_window(name + suffix, Nx, fftbins)
            )
        for window in TUPLES:
            window = (window[0] + suffix,) + window[1:]
            if window[0].startswith("poisson") and not (fftbins and suffix != "_symmetric"):
                continue  # a center needs a periodic window
            assert_close(sig.get_window(window, Nx, fftbins), ss.get_window(window, Nx, fftbins))


def test_get_window_floats_kbd_and_the_hanning_alias():
    for beta in (0.0, 4.0, 8.6, 3):
        assert_close(sig.get_window(beta, 9), ss.get_window(beta, 9))
        assert_close(sig.get_window(beta, 9, False), ss.get_window(beta, 9, False))
    for name in ("kaiser bessel derived", "kaiser_bessel_derived", "kbd"):
        assert_close(sig.get_window((name, 3.0), 8, False), ss.get_window((name, 3.0), 8, False))
        assert_close(
            sig.get_window((name + "_symmetric", 3.0), 8), ss.get_window((name + "_symmetric", 3.0), 8)
        )
    assert_close(sig.get_window("hanning", 9), ss.get_window("hann", 9))  # CuPy's alias, which SciPy dropped
    assert sig.windows.get_window is sig.get_window


# ---------------------------------------------------------------- firwin, firwin2

CUTOFFS = [0.1, 0.5, 0.99, [0.2, 0.4], [0.1, 0.2, 0.3, 0.4], [0.05, 0.5, 0.7]]
PASS_ZERO = [True, False, "lowpass", "highpass", "bandpass", "bandstop"]


@pytest.mark.parametrize("cutoff", CUTOFFS, ids=str)
@pytest.mark.parametrize("pass_zero", PASS_ZERO, ids=str)
def test_firwin(cutoff, pass_zero):
    for numtaps in (1, 3, 4, 15, 16, 51, 128):
        for window in ("hamming", ("kaiser", 6.0), "boxcar", "blackman_periodic"):
            for scale in (True, False):
                kwargs = {"window": window, "pass_zero": pass_zero, "scale": scale}
                try:
                    expected = ss.firwin(numtaps, cutoff, **kwargs)
                except ValueError as e:
                    with pytest.raises(ValueError, match=re.escape(str(e))):
                        sig.firwin(numtaps, cutoff, **kwargs)
                    continue
                assert_close(sig.firwin(numtaps, cutoff, **kwargs), expected)


def test_firwin_width_fs_and_argument_forms():
    for numtaps in (11, 64, 101):
        for width in (0.05, 0.2, 3.0):
            for fs in (None, 2, 10.0, 100):
                c = [0.1 * (fs or 2), 0.3 * (fs or 2)]
                expected = ss.firwin(numtaps, c, width=width, fs=fs, pass_zero=False)
                assert_close(sig.firwin(numtaps, c, width=width, fs=fs, pass_zero=False), expected)
    expected = ss.firwin(21, 0.3, window="hann", pass_zero=False)
    assert_close(sig.firwin(21, 0.3, None, "hann", False), expected)  # CuPy's positional form
    assert_close(sig.firwin(21, cp.asarray([0.3])), ss.firwin(21, [0.3]))  # device band edges
    assert_close(sig.firwin(21, np.array(0.3)), ss.firwin(21, 0.3))


FIRWIN2 = [
    ([0, 0.5, 1], [1, 1, 0]),
    ([0.0, 0.5, 0.5, 1.0], [1.0, 1.0, 0.0, 0.0]),
    ([0, 0.2, 0.6, 1], [0, 1, 1, 0]),
    ([0, 0.3, 0.3, 0.7, 0.7, 1], [0, 0, 1, 1, 0, 0]),
    ([0, 1], [1, 1]),
    ([0, 0.5, 1], [0, 1, 1]),
]


@pytest.mark.parametrize(("freq", "gain"), FIRWIN2, ids=str)
@pytest.mark.parametrize("antisymmetric", [False, True])
def test_firwin2(freq, gain, antisymmetric):
    for numtaps in (1, 2, 5, 30, 31, 150):
        for window in ("hamming", None, ("kaiser", 4.0)):
            for nfreqs, fs in ((None, None), (513, 8.0)):
                fr = np.asarray(freq, dtype=float) * (fs or 2) / 2
                kwargs = {"nfreqs": nfreqs, "window": window, "antisymmetric": antisymmetric, "fs": fs}
                try:
                    expected = ss.firwin2(numtaps, fr, gain, **kwargs)
                except ValueError as e:
                    with pytest.raises(ValueError, match=re.escape(str(e))):
                        sig.firwin2(numtaps, fr, gain, **kwargs)
                    continue
                assert_close(sig.firwin2(numtaps, fr, gain, **kwargs), expected)
                assert_close(sig.firwin2(numtaps, cp.asarray(fr), cp.asarray(gain), **kwargs), expected)


# ---------------------------------------------------------------- detrend

DTYPES = ["float64", "float32", "complex128", "complex64", "int32", "uint8", "bool", "float16"]
TOL = {"f": 2e-5, "F": 2e-5, "e": 2e-2}


def _trend_data(shape, dtype, axis, seed=0):
    """Random values plus a ramp along `axis`, so that a linear trend is there to remove."""
    a = make_data(shape, dtype, seed)
    if dtype != "bool" and len(shape):
        ramp = np.arange(shape[axis]).reshape(
            [-1 if i == axis % len(shape) else 1 for i in range(len(shape))]
        )
        a = (a + 3 * ramp).astype(dtype) if dtype[0] != "u" else (a + ramp).astype(dtype)
    return a


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    ("shape", "axis"), [((17,), -1), ((1,), 0), ((5, 12), -1), ((5, 12), 0), ((4, 3, 9), 1)]
)
def test_detrend(dtype, shape, axis):
    x = _trend_data(shape, dtype, axis)
    d = cp.asarray(x)
    layouts = [(x, d), (x[..., ::-1], d[..., ::-1]), (np.asfortranarray(x), cp.asfortranarray(d))]
    for xh, xd in layouts:
        for bp in (0, [3], [2, 5, 5, 9], shape[axis], np.array([1, 4]), cp.asarray([2])):
            for type in ("linear", "l", "constant", "c"):
                kwargs = {"axis": axis, "type": type}
                try:
                    expected = ss.detrend(
                        xh, bp=cp.asnumpy(bp) if isinstance(bp, cp.ndarray) else bp, **kwargs
                    )
                except ValueError as e:  # a breakpoint past the end
                    with pytest.raises(ValueError, match=re.escape(str(e))):
                        sig.detrend(xd, bp=bp, **kwargs)
                    continue
                got = sig.detrend(xd, bp=bp, **kwargs)
                assert_close(got, expected, TOL.get(expected.dtype.char, 1e-10))
                np.testing.assert_array_equal(cp.asnumpy(xd), xh)  # the input is left as it was
    assert_close(sig.detrend(d), ss.detrend(x), TOL.get(ss.detrend(x).dtype.char, 1e-10))


def test_detrend_no_points_and_overwrite_data():
    for dtype in ("float64", "int16"):
        x = cp.zeros((3, 0), dtype=dtype)
        out = sig.detrend(x)
        assert out.shape == (3, 0) and out.dtype == (np.float64 if dtype == "int16" else dtype)
    h = make_data((6, 10), "float64")
    x = cp.asarray(h)
    out = sig.detrend(x, overwrite_data=True)
    assert out is x  # written in place, as SciPy's in-place detrend
    assert_close(x, ss.detrend(h))
    x = cp.asarray(h)
    sig.detrend(x)
    np.testing.assert_array_equal(cp.asnumpy(x), h)  # not overwritten by default
    xi = cp.asarray(make_data(8, "int32"))
    out = sig.detrend(xi, overwrite_data=True)
    assert out is not xi and out.dtype == np.float64  # an integer input cannot hold the result


def test_detrend_errors():
    x = cp.asarray(make_data(10, "float64"))
    with pytest.raises(ValueError, match="Breakpoints must be less than length"):
        sig.detrend(x, bp=[11])
    with pytest.raises(ValueError, match="Breakpoints must not be negative"):
        sig.detrend(x, bp=[-1])
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        sig.detrend(x, bp=[2.5])
    with pytest.raises(IndexError):  # SciPy's linear detrend reads data.shape[axis]
        sig.detrend(x, axis=1)
    with pytest.raises(np.exceptions.AxisError):
        sig.detrend(x, axis=1, type="constant")


def test_detrend_takes_host_data():
    """As CuPy's detrend (cupy.asarray), host data (a list, a NumPy array) is copied to the device: CuPy's
    TestDetrend::test_bp passes a list. The result is a device array, SciPy's values."""
    data = [0, 1, 2] + [5, 0, -5, -10]
    assert_close(sig.detrend(data, type="linear", bp=3), ss.detrend(data, type="linear", bp=3))
    assert float(cp.abs(sig.detrend(data, type="linear", bp=3)).max()) < 1e-14
    h = np.asarray(data, dtype=float)[None, :, None]
    assert_close(sig.detrend(h, type="linear", bp=3, axis=1), ss.detrend(h, type="linear", bp=3, axis=1))
    assert_close(sig.detrend(data, type="constant"), ss.detrend(data, type="constant"))
    out = sig.detrend(h, overwrite_data=True)  # the device copy is overwritten and returned, as in CuPy
    assert isinstance(out, cp.ndarray)
    assert_close(out, ss.detrend(h))
    with pytest.raises(ValueError, match="Breakpoints must be less than length"):
        sig.detrend(h, type="linear", bp=3)  # the last axis has one point


# ---------------------------------------------------------------- hilbert, hilbert2

HDTYPES = ["float64", "float32", "float16", "int16", "uint8", "bool"]


@pytest.mark.parametrize("dtype", HDTYPES)
@pytest.mark.parametrize(
    ("shape", "axis"), [((16,), -1), ((17,), 0), ((1,), -1), ((4, 9), 0), ((3, 4, 10), 1)]
)
def test_hilbert(dtype, shape, axis):
    x = make_data(shape, dtype)
    tol = 1e-5 if dtype in ("float32", "float16") else 1e-12
    for N in (None, 1, 2, 7, 8, 20):
        assert_close(sig.hilbert(cp.asarray(x), N, axis), ss.hilbert(x, N, axis), tol)
        assert_close(sig.hilbert(cp.asarray(x)[..., ::-1], N, axis), ss.hilbert(x[..., ::-1], N, axis), tol)


@pytest.mark.parametrize("dtype", HDTYPES)
@pytest.mark.parametrize("shape", [(8, 8), (7, 9), (1, 6), (6,), (2, 5, 6)], ids=str)
def test_hilbert2(dtype, shape):
    x = make_data(shape, dtype)
    tol = 1e-5 if dtype in ("float32", "float16") else 1e-12
    for N in (None, 4, 5, (3, 8), [6, 7]):
        for axes in ((-2, -1), (0, 1), (1, 0)):
            if len(shape) == 3 and axes == (1, 0):
                axes = (2, 0)
            assert_close(sig.hilbert2(cp.asarray(x), N, axes), ss.hilbert2(x, N, axes), tol)


@pytest.mark.parametrize("shape", [(4, 5), (5, 4), (4, 4), (5, 5)], ids=str)
def test_hilbert2_quadrant_values(shape):
    """CuPy's TestHilbert2::test_quadrant_values: the spectrum of hilbert2's result keeps the positive quadrant
    (doubled along each axis), SciPy 1.17's form. CuPy's test asks for atol 1e-15 on values up to 8, which FFT
    rounding alone can exceed (a float64 DFT computed another way differs from SciPy's by 1.4e-15 there); the
    values agree here to a few units in the last place."""
    x_f = np.ones(shape, dtype=np.complex128)
    x_f[0, 0] += 7
    h = np.real(np.fft.ifft2(x_f))
    got = cp.fft.fft2(sig.hilbert2(cp.asarray(h)))
    assert_close(got, np.fft.fft2(ss.hilbert2(h)), tol=1e-14)


def test_hilbert2_cupys_bad_args():
    """CuPy's TestHilbert2::test_bad_args, against SciPy (Note [hilbert2 as SciPy's]): complex input and bad N
    raise SciPy's ValueError; a 3-D input, which CuPy 14.2 refuses, is transformed over its last two axes, as
    SciPy 1.17 and 1.18 transform it."""
    bad = [
        (np.array([[1.0 + 0.0j]]), {}),
        (np.arange(16).reshape(4, 4), {"N": 0}),
        (np.arange(16).reshape(4, 4), {"N": (2, 0)}),
        (np.arange(16).reshape(4, 4), {"N": (2,)}),
    ]
    for x, kwargs in bad:
        with pytest.raises(ValueError) as expected:
            ss.hilbert2(x, **kwargs)
        with pytest.raises(ValueError, match=re.escape(str(expected.value))):
            sig.hilbert2(cp.asarray(x), **kwargs)
    x = np.arange(24).reshape(2, 3, 4)
    assert_close(sig.hilbert2(cp.asarray(x)), ss.hilbert2(x))


def test_hilbert_errors():
    x = cp.asarray(make_data(8, "float64"))
    for N in (0, -2):
        with pytest.raises(ValueError, match="N must be positive"):
            sig.hilbert(x, N)
    with pytest.raises(ValueError, match="x must be real"):
        sig.hilbert(x + 1j)
    with pytest.raises(IndexError):
        sig.hilbert(x, axis=3)
    x2 = cp.asarray(make_data((4, 4), "float64"))
    with pytest.raises(ValueError, match="N must be positive"):
        sig.hilbert2(x2, 0)
    for N in ((1, 2, 3), (0, 2)):
        with pytest.raises(ValueError, match="N must hold exactly two positive integers"):
            sig.hilbert2(x2, N)
    with pytest.raises(ValueError, match="axes must be a tuple of length 2"):
        sig.hilbert2(x2, axes=(0,))
    with pytest.raises(ValueError, match="axes must contain 2 distinct axes"):
        sig.hilbert2(x2, axes=(1, 1))
    with pytest.raises(ValueError, match="x must be real"):
        sig.hilbert2(x2 + 1j)
