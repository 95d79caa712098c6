"""cuarray.scipy.signal's spectral analysis on the device against scipy.signal 1.17 on the same inputs:
periodogram, welch, csd, coherence, spectrogram (every mode), stft, istft, check_COLA and check_NOLA; every
dtype SciPy takes, odd and tiny lengths, axes, non-contiguous and negative-stride inputs, windows by name and as
host or device arrays, detrend strings and callables, averages, boundaries and padding; SciPy's warnings and
errors where they need a device array to reach."""

import warnings
from functools import partial

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
from conftest import make_data
from signal_asserts import assert_device

pytestmark = pytest.mark.gpu

DTYPES = ["float64", "float32", "complex128", "complex64", "int32", "int16", "uint8", "bool", "float16"]
SHAPES = [
    ((300,), -1),
    ((1,), -1),
    ((5,), 0),
    ((4, 200), -1),
    ((200, 3), 0),
    ((3, 2, 130), 1),
    ((3, 130, 2), -2),
]


def tolerance(dtype, expected):
    """SciPy transforms in float64 and casts; cuarray works in the result's precision (Note [Spectral
    precision]). SciPy detrends a float16 signal's segments in float16, hence its wider tolerance."""
    if dtype == "float16":
        return 5e-3
    return 2e-5 if np.asarray(expected).dtype.char in "fF" else 1e-10


def run(f):
    """f()'s result and the messages of the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = f()
    return result, [str(w.message) for w in caught]


def compare(ours, theirs, dtype, magnitude=None):
    """ours() (device arrays) gives SciPy's results, or SciPy's error, with SciPy's warnings (each a call with
    its arguments bound, functools.partial)."""
    __tracebackhide__ = True
    try:
        expected, expected_warnings = run(theirs)
    except Exception as e:  # noqa: BLE001  (any of SciPy's errors must be ours too)
        with pytest.raises(type(e)) as got:
            run(ours)
        assert str(got.value) == str(e)
        return
    got, got_warnings = run(ours)
    assert got_warnings == expected_warnings
    tol = tolerance(dtype, expected[-1])
    for i, (g, e) in enumerate(zip(got, expected, strict=True)):
        if magnitude is not None and i == len(expected) - 1 and np.size(e):
            # angles, compared modulo 2 pi where the magnitude (SciPy's) is not rounding noise
            assert_device(g, e, 10 * tol, angles=magnitude > 1e-4 * np.max(magnitude))
        else:
            assert_device(g, e, tol)


def host_window(kwargs):
    """The keyword arguments with a device window copied to the host, for SciPy."""
    window = kwargs.get("window")
    return dict(kwargs, window=cp.asnumpy(window)) if isinstance(window, cp.ndarray) else kwargs


def layouts(h):
    """The host array and its device copy, also reversed (a negative stride) and in Fortran order."""
    d = cp.asarray(h)
    yield h, d
    if h.ndim and h.shape[-1] > 1:
        yield h[..., ::-1], d[..., ::-1]
    if h.ndim > 1:
        yield np.asfortranarray(h), cp.asfortranarray(d)


# ---------------------------------------------------------------- welch, periodogram, csd, coherence

WELCH = [
    {},
    {"nperseg": 64},
    {"nperseg": 7, "noverlap": 3, "nfft": 12},
    {"nperseg": 50, "noverlap": 0},
    {"detrend": "linear", "nperseg": 33},
    {"detrend": False, "scaling": "spectrum"},
    {"average": "median", "nperseg": 16},
    {"return_onesided": False, "nperseg": 20},
    {"window": ("tukey", 0.3), "fs": 100.0, "nperseg": 40},
    {"nperseg": 1, "noverlap": 0},
    {"nperseg": 10, "noverlap": -3},
    {"window": "boxcar", "nfft": 301},
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("shape", "axis"), SHAPES, ids=str)
def test_welch(dtype, shape, axis):
    for h, d in layouts(make_data(shape, dtype)):
        for kwargs in WELCH:
            kwargs = dict(kwargs, axis=axis)
            compare(partial(sig.welch, d, **kwargs), partial(ss.welch, h, **kwargs), dtype)


PERIODOGRAM = [{}, {"nfft": 7}, {"nfft": 400}, {"window": "hann"}, {"scaling": "spectrum"},
               {"return_onesided": False}, {"detrend": "linear"}, {"window": None}]  # fmt: skip


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("shape", "axis"), SHAPES, ids=str)
def test_periodogram(dtype, shape, axis):
    for h, d in layouts(make_data(shape, dtype)):
        for kwargs in PERIODOGRAM:
            kwargs = dict(kwargs, axis=axis)
            compare(partial(sig.periodogram, d, **kwargs), partial(ss.periodogram, h, **kwargs), dtype)


CSD = [{}, {"nperseg": 32, "average": "median"}, {"return_onesided": False, "nperseg": 25},
       {"detrend": "linear", "nperseg": 40, "scaling": "spectrum"}]  # fmt: skip


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("shape", "axis"), SHAPES, ids=str)
def test_csd_and_coherence(dtype, shape, axis):
    hy = make_data(shape, dtype, seed=1)
    dy = cp.asarray(hy)
    for h, d in layouts(make_data(shape, dtype)):
        for kwargs in CSD:
            kwargs = dict(kwargs, axis=axis)
            compare(partial(sig.csd, d, dy, **kwargs), partial(ss.csd, h, hy, **kwargs), dtype)
            compare(partial(sig.csd, d, d, **kwargs), partial(ss.csd, h, h, **kwargs), dtype)  # real
            if dtype[0] != "c" and shape[axis] > 5:  # shorter: 0/0 where detrended segments vanish
                kw = {k: v for k, v in kwargs.items() if k in ("nperseg", "detrend", "axis")}
                compare(partial(sig.coherence, d, dy, **kw), partial(ss.coherence, h, hy, **kw), dtype)


def test_windows_as_arrays_and_detrend_callables():
    hx, hy = make_data((3, 257), "float64"), make_data((3, 200), "float64", seed=1)
    x, y = cp.asarray(hx), cp.asarray(hy)
    w = ss.get_window("hamming", 40)
    cases = [
        ({"window": w}, {"window": w}),  # a host window is taken, as CuPy's cupy.asarray takes it
        ({"window": cp.asarray(w)}, {"window": w}),
        (
            {"window": cp.asarray(w), "nperseg": 40, "noverlap": 30},
            {"window": w, "nperseg": 40, "noverlap": 30},
        ),
        ({"window": list(w)}, {"window": list(w)}),
        ({"window": np.ones(40, int)}, {"window": np.ones(40, int)}),
        # SciPy 1.17 calls a detrend function once per segment (Note [Detrending callables])
        (
            {"detrend": lambda s: s - s.mean(), "nperseg": 30},
            {"detrend": lambda s: s - s.mean(), "nperseg": 30},
        ),
        ({"detrend": None}, {"detrend": None}),
        ({"detrend": "l"}, {"detrend": "l"}),
        ({"nperseg": np.int64(30), "nfft": 64.2}, {"nperseg": np.int64(30), "nfft": 64.2}),
        ({"fs": 3, "noverlap": 10.5, "nperseg": 32}, {"fs": 3, "noverlap": 10.5, "nperseg": 32}),
    ]
    for ours, theirs in cases:
        for axis in (-1, 1):
            o, t = dict(ours, axis=axis), dict(theirs, axis=axis)
            compare(partial(sig.welch, x, **o), partial(ss.welch, hx, **t), "float64")
            compare(partial(sig.csd, x, y, **o), partial(ss.csd, hx, hy, **t), "float64")  # y zero-padded
            compare(partial(sig.csd, y, x, **o), partial(ss.csd, hy, hx, **t), "float64")
            if "window" not in theirs or np.asarray(theirs["window"]).dtype != int:  # a boxcar's DC is 0/0
                compare(partial(sig.coherence, x, y, **o), partial(ss.coherence, hx, hy, **t), "float64")


def test_median_average_bias():
    for nseg in range(1, 12):
        h = make_data(8 * (nseg + 1), "float64", seed=nseg)
        for average in ("mean", "median"):
            compare(
                partial(sig.welch, cp.asarray(h), nperseg=16, average=average),
                partial(ss.welch, h, nperseg=16, average=average),
                "float64",
            )


def test_csd_broadcasting_and_complex():
    for xs, ys in [((3, 100), (100,)), ((1, 100), (4, 100)), ((2, 1, 100), (3, 100))]:
        hx, hy = make_data(xs, "float64"), make_data(ys, "complex128", seed=1)
        x, y = cp.asarray(hx), cp.asarray(hy)
        compare(partial(sig.csd, x, y, nperseg=20, return_onesided=False),
                partial(ss.csd, hx, hy, nperseg=20, return_onesided=False), "float64")  # fmt: skip
        compare(partial(sig.csd, x, y.real, nperseg=20), partial(ss.csd, hx, hy.real, nperseg=20), "float64")
    hr, hc = make_data(300, "float64"), make_data(300, "complex128")
    r, c = cp.asarray(hr), cp.asarray(hc)
    cw = ss.get_window("hamming", 40) * np.exp(0.3j * np.arange(40))  # a complex window: two-sided only
    for kwargs in [{"window": cw, "return_onesided": False}, {"window": cw}, {}]:
        compare(partial(sig.welch, c, **kwargs), partial(ss.welch, hc, **kwargs), "complex128")
        compare(partial(sig.csd, r, c, **kwargs), partial(ss.csd, hr, hc, **kwargs), "complex128")
        compare(partial(sig.csd, c, r, **kwargs), partial(ss.csd, hc, hr, **kwargs), "complex128")


def test_empty_inputs():
    for xs, ys in [((0,), (0,)), ((3, 0), (3, 0)), ((0, 5), (0, 5)), ((3, 10), (0,)), ((3, 0), (1, 5))]:
        hx, hy = np.zeros(xs), np.zeros(ys)
        x, y = cp.asarray(hx), cp.asarray(hy)
        compare(partial(sig.csd, x, y), partial(ss.csd, hx, hy), "float64")
        compare(partial(sig.welch, x), partial(ss.welch, hx), "float64")
        compare(partial(sig.periodogram, x), partial(ss.periodogram, hx), "float64")
        compare(partial(sig.stft, x), partial(ss.stft, hx), "float64")
        compare(partial(sig.spectrogram, x), partial(ss.spectrogram, hx), "float64")


def test_host_signals_as_cupys_tests_pass_them():
    """As CuPy's (cupy.asarray), a host signal (a NumPy array or a list) is copied to the device; the results are
    SciPy's, on the device (CuPy's TestWelch::test_short_data and TestPeriodogram pass NumPy arrays). SciPy
    1.17's csd family takes no lists; it gets the list's array."""
    short = np.zeros(8)
    short[0] = 1
    ints = np.zeros(16, dtype=int)
    ints[0] = 1
    for h in (short, ints, np.arange(40.0).reshape(2, 20)):
        for x in (h, h.tolist()):
            compare(partial(sig.welch, x, window="hann"), partial(ss.welch, h, window="hann"), "float64")
            compare(partial(sig.welch, x, nperseg=8), partial(ss.welch, h, nperseg=8), "float64")
            for kwargs in ({}, {"scaling": "spectrum"}, {"return_onesided": False}):
                compare(
                    partial(sig.periodogram, x, **kwargs), partial(ss.periodogram, h, **kwargs), "float64"
                )
            compare(partial(sig.csd, x, x, nperseg=8), partial(ss.csd, h, h, nperseg=8), "float64")
            compare(
                partial(sig.csd, x, h.copy(), nperseg=8), partial(ss.csd, h, h.copy(), nperseg=8), "float64"
            )
            compare(partial(sig.spectrogram, x, nperseg=8), partial(ss.spectrogram, h, nperseg=8), "float64")
            compare(partial(sig.stft, x, nperseg=8), partial(ss.stft, h, nperseg=8), "float64")
    hx, hy = np.random.default_rng(3).standard_normal((2, 40))  # no 0/0 (SciPy's host warning) in Cxy
    for x, y in ((hx, hy), (hx.tolist(), hy.tolist()), (hx.tolist(), hx.tolist())):
        compare(
            partial(sig.coherence, x, y, nperseg=8),
            partial(ss.coherence, hx, np.asarray(y), nperseg=8),
            "float64",
        )
    Z = ss.stft(np.arange(32.0), nperseg=8)[2]
    for z in (Z, Z.tolist()):
        compare(partial(sig.istft, z, nperseg=8), partial(ss.istft, Z, nperseg=8), "float64")


WELCH_ERRORS = [
    {"nperseg": 0}, {"nperseg": 10, "nfft": 5}, {"nperseg": 10, "noverlap": 10}, {"scaling": "foo"},
    {"average": "foo"}, {"average": "foo", "nperseg": 50}, {"detrend": "foo"}, {"detrend": 0}, {"window": "foo"},
    {"window": np.ones(60)}, {"window": np.ones(101)}, {"window": np.ones(10), "nperseg": 11},
    {"window": np.ones((3, 4))}, {"window": np.full(10, np.nan)}, {"window": np.ones(10), "nperseg": 10.0},
    {"fs": 0}, {"axis": 2}, {"window": np.ones(10) + 1j}, {"window": ("kaiser",)},
    {"window": np.ones(70), "noverlap": 60}, {"nperseg": 500},
]  # fmt: skip


@pytest.mark.parametrize("kwargs", WELCH_ERRORS, ids=repr)
def test_welch_csd_errors_and_warnings(kwargs):
    h = make_data((2, 50), "float64")
    d = cp.asarray(h)
    compare(partial(sig.welch, d, **kwargs), partial(ss.welch, h, **kwargs), "float64")
    compare(partial(sig.welch, d[0], **kwargs), partial(ss.welch, h[0], **kwargs), "float64")
    compare(partial(sig.csd, d, d[:, :30], **kwargs), partial(ss.csd, h, h[:, :30], **kwargs), "float64")


def test_csd_argument_errors():
    x = cp.asarray(make_data((2, 50), "float64"))
    with pytest.raises(ValueError, match="x and y cannot be broadcast together"):
        sig.csd(x, cp.ones((3, 50)))
    with pytest.raises(
        ValueError, match="Complex-valued `x` not allowed"
    ):  # SciPy 1.17's: y complex, onesided
        sig.csd(x, x + 1j)
    with pytest.raises(ValueError, match="the size of the window must be the same size"):
        sig.periodogram(x, window=cp.ones(10))
    # host values are copied to the device, as CuPy's csd does (test_host_signals_as_cupys_tests_pass_them)
    hx = cp.asnumpy(x)
    compare(partial(sig.csd, x, list(range(50))), partial(ss.csd, hx, np.arange(50)), "float64")
    with pytest.raises(IndexError):
        sig.welch(cp.ones(()))


# ---------------------------------------------------------------- spectrogram, stft

SPECTROGRAM = [
    {},
    {"nperseg": 64},
    {"nperseg": 7, "noverlap": 3, "nfft": 12},
    {"detrend": "linear", "nperseg": 33},
    {"detrend": False, "scaling": "spectrum"},
    {"return_onesided": False, "nperseg": 20},
    {"window": "hann", "fs": 100.0, "nperseg": 40},
    {"nperseg": 1, "noverlap": 0},
    {"nperseg": 10, "noverlap": -3},
    {"detrend": lambda s: s - s.mean(axis=-1, keepdims=True), "nperseg": 16},  # all segments at once
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("shape", "axis"), SHAPES, ids=str)
def test_spectrogram(dtype, shape, axis):
    for h, d in layouts(make_data(shape, dtype)):
        for kwargs in SPECTROGRAM:
            for mode in ("psd", "complex", "magnitude"):
                kw = dict(kwargs, axis=axis, mode=mode)
                compare(partial(sig.spectrogram, d, **kw), partial(ss.spectrogram, h, **kw), dtype)
        for mode in ("angle", "phase"):  # angles modulo 2 pi, where the magnitude is not rounding noise
            kw = {"nperseg": 64, "axis": axis, "mode": mode}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                magnitude = ss.spectrogram(h, **dict(kw, mode="magnitude"))[2]
            compare(partial(sig.spectrogram, d, **kw), partial(ss.spectrogram, h, **kw), dtype, magnitude)


STFT = [
    {},
    {"nperseg": 64},
    {"nperseg": 7, "noverlap": 3, "nfft": 12},
    {"nperseg": 50, "noverlap": 0},
    {"boundary": None},
    {"padded": False},
    {"boundary": "even", "nperseg": 16},
    {"boundary": "odd", "nperseg": 15},
    {"boundary": "constant", "nperseg": 16, "padded": False},
    {"boundary": None, "padded": False, "nperseg": 30},
    {"scaling": "psd", "nperseg": 24},
    {"detrend": "constant", "nperseg": 20},
    {"return_onesided": False, "nperseg": 21},
    {"nperseg": 1, "noverlap": 0},
    {"nperseg": 10, "noverlap": -3},
    {"window": ("tukey", 0.5), "nperseg": 32, "fs": 8},
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("shape", "axis"), SHAPES, ids=str)
def test_stft(dtype, shape, axis):
    for h, d in layouts(make_data(shape, dtype)):
        for kwargs in STFT:
            if dtype == "uint8" and kwargs.get("boundary") == "odd":
                continue  # SciPy's odd extension wraps around in uint8 (2 x[0] - x[k]); cuarray's does not
            kw = dict(kwargs, axis=axis)
            compare(partial(sig.stft, d, **kw), partial(ss.stft, h, **kw), dtype)


def test_spectrogram_and_stft_windows_and_callables():
    h = make_data((2, 300), "float64")
    w = ss.get_window("hamming", 40)
    for kwargs in [{"window": w}, {"window": cp.asarray(w), "nperseg": 40}, {"window": list(w)},
                   {"window": w + 0.1j}, {"window": w + 0.1j, "return_onesided": False},
                   {"detrend": lambda s: s - s.mean()}, {"detrend": lambda s: s - s.mean(), "axis": 0},
                   {"nperseg": np.int64(30)}, {"fs": 3}]:  # fmt: skip
        theirs = host_window(kwargs)
        hx = h.T.copy() if kwargs.get("axis") == 0 else h
        x = cp.asarray(hx)
        compare(partial(sig.spectrogram, x, **kwargs), partial(ss.spectrogram, hx, **theirs), "float64")
        compare(partial(sig.stft, x, **kwargs), partial(ss.stft, hx, **theirs), "float64")


STFT_ERRORS = [
    {"nperseg": 0}, {"nperseg": 10, "nfft": 5}, {"nperseg": 10, "noverlap": 10}, {"scaling": "foo"},
    {"detrend": "foo"}, {"window": "foo"}, {"window": np.ones(60)}, {"window": np.ones(10), "nperseg": 11},
    {"window": np.ones((3, 4))}, {"axis": 2}, {"nperseg": 500}, {"boundary": "even", "nperseg": 50},
    {"boundary": "odd", "nperseg": 200}, {"scaling": "density"}, {"scaling": "psd"}, {"nperseg": 30.0},
    {"nfft": 8.5, "nperseg": 8},
]  # fmt: skip


@pytest.mark.parametrize("kwargs", STFT_ERRORS, ids=repr)
def test_spectrogram_stft_errors_and_warnings(kwargs):
    h = make_data((2, 50), "float64")
    d = cp.asarray(h)
    for x, hx in ((d, h), (d[0], h[0])):
        compare(partial(sig.stft, x, **kwargs), partial(ss.stft, hx, **kwargs), "float64")
        if "boundary" not in kwargs:
            compare(partial(sig.spectrogram, x, **kwargs), partial(ss.spectrogram, hx, **kwargs), "float64")


# ---------------------------------------------------------------- istft


ISTFT = [
    {"nperseg": 16},
    {"nperseg": 15},
    {"nperseg": 16, "noverlap": 12},
    {"nperseg": 16, "nfft": 20},
    {"nperseg": 9, "noverlap": 2},
    {"nperseg": 10, "noverlap": 0},
    {"nperseg": 16, "window": "boxcar", "noverlap": 8},
    {"nperseg": 16, "scaling": "psd"},
    {"nperseg": 12, "boundary": None},
    {"nperseg": 12, "padded": False},
    {"nperseg": 12, "window": ("tukey", 0.5), "fs": 20.0},
    {"nperseg": 1, "noverlap": 0},
    {"nperseg": 6, "noverlap": -2},
    {"nperseg": 16, "return_onesided": False},
]


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128", "complex64"])
@pytest.mark.parametrize(
    ("shape", "axis"), [((300,), -1), ((3, 200), -1), ((200, 3), 0), ((2, 3, 130), 2)], ids=str
)
def test_istft(dtype, shape, axis):
    h = make_data(shape, dtype)
    for kwargs in ISTFT:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            Z = ss.stft(h, **dict(kwargs, axis=axis))[2]  # SciPy's STFT, inverted by both
        ikw = {k: v for k, v in kwargs.items() if k not in ("padded", "return_onesided", "boundary")}
        ikw.update(input_onesided=dtype[0] != "c" and kwargs.get("return_onesided", True),
                   boundary=kwargs.get("boundary", "zeros") is not None)  # fmt: skip
        fa = axis - 1 if axis < 0 else axis
        Zd = cp.asarray(Z)
        for time_axis, freq_axis in [(-1, fa), (Z.ndim - 1, fa)]:
            kw = dict(ikw, time_axis=time_axis, freq_axis=freq_axis)
            compare(partial(sig.istft, Zd, **kw), partial(ss.istft, Z, **kw), dtype)
        Zt, Zdt = np.moveaxis(Z, -1, 0), cp.moveaxis(Zd, -1, 0)  # segments first, a non-contiguous view
        kw = dict(ikw, time_axis=0, freq_axis=fa + 1)
        compare(partial(sig.istft, Zdt, **kw), partial(ss.istft, Zt, **kw), dtype)


def test_istft_inputs_errors_and_warnings():
    Z = ss.stft(make_data(100, "float64"), nperseg=16)[2]
    Zd = cp.asarray(Z)
    for kwargs in [{"nperseg": 0}, {"nfft": 10}, {"noverlap": 16}, {"scaling": "foo"}, {"window": np.ones(5)},
                   {"window": np.ones((4, 4))}, {"time_axis": 1, "freq_axis": 1}, {"time_axis": -1, "freq_axis": 1},
                   {"window": ("tukey", 0.0)}, {"boundary": False}, {"window": np.ones(16) + 1j},
                   {"window": np.ones(16) + 1j, "input_onesided": False}, {"window": np.zeros(16), "boundary": False},
                   {"window": np.ones(16, int)}, {"window": cp.ones(16)}, {"nperseg": 16.0}, {"noverlap": 4.7},
                   {"nfft": 16.5}]:  # fmt: skip
        theirs = host_window(kwargs)
        compare(partial(sig.istft, Zd, **kwargs), partial(ss.istft, Z, **theirs), "float64")
    compare(partial(sig.istft, Zd[0]), partial(ss.istft, Z[0]), "float64")
    for h in (Z.real, Z.real.astype(np.float32), np.ones((9, 5), int), Z[:, :1], Z[:, :0]):
        compare(partial(sig.istft, cp.asarray(h)), partial(ss.istft, h), str(h.dtype))
    with pytest.warns(UserWarning, match="NOLA condition failed"):
        sig.istft(Zd, window=cp.zeros(16))


# ---------------------------------------------------------------- check_COLA, check_NOLA

COLA_WINDOWS = ["hann", "boxcar", "hamming", ("tukey", 0.5), "bartlett", "blackman", "triang", "flattop"]


@pytest.mark.parametrize("window", COLA_WINDOWS, ids=str)
def test_check_cola_nola(window):
    for nperseg in (1, 2, 3, 8, 15, 16, 64, 101):
        for noverlap in sorted(
            {0, 1, nperseg // 2, nperseg // 3, 2 * nperseg // 3, 3 * nperseg // 4, nperseg - 1}
        ):
            if noverlap >= nperseg:
                continue
            for name in ("check_COLA", "check_NOLA"):
                got = getattr(sig, name)(window, nperseg, noverlap)
                assert isinstance(got, cp.ndarray) and got.shape == () and got.dtype == np.bool_  # CuPy's
                assert bool(got) == bool(getattr(ss, name)(window, nperseg, noverlap)), (
                    name,
                    nperseg,
                    noverlap,
                )


def test_check_cola_nola_arrays_and_tolerance():
    for win, nperseg, noverlap in [(np.ones(8), 8, 4), ([1, 0, 0, 0], 4, 1), ([1, 0, 0, 0], 4, 2), (np.zeros(6), 6, 3),
                                   (np.array([1, 2, 3, 4]), 4, 2), (np.ones(8), 8.0, 4.0)]:  # fmt: skip
        for name in ("check_COLA", "check_NOLA"):
            expected = bool(getattr(ss, name)(win, nperseg, noverlap))
            assert bool(getattr(sig, name)(win, nperseg, noverlap)) == expected
            assert bool(getattr(sig, name)(cp.asarray(win), nperseg, noverlap)) == expected
    for tol in (1e-20, 1e-3, 2.0):
        for name in ("check_COLA", "check_NOLA"):
            assert bool(getattr(sig, name)("hamming", 16, 8, tol)) == bool(
                getattr(ss, name)("hamming", 16, 8, tol)
            )
    for win, nperseg, noverlap, message in [(np.ones((2, 4)), 4, 2, "window must be 1-D"),
                                            (np.ones(8), 7, 4, "window must have length of nperseg")]:  # fmt: skip
        for name in ("check_COLA", "check_NOLA"):
            with pytest.raises(ValueError, match=message):
                getattr(sig, name)(win, nperseg, noverlap)
    with pytest.raises(TypeError, match="not subscriptable"):  # SciPy's error for gaps between segments
        sig.check_COLA("hann", 8, -1)
