"""cuarray.scipy.signal's polyphase filtering, least-squares FIR design and Lomb-Scargle periodogram on the
device against scipy.signal on the same inputs: upfirdn (every mode, SciPy's values exactly:
Note [upfirdn as SciPy rounds] in _upfirdn.py), resample_poly (every padtype, windows by name and as
coefficients), decimate ('iir', 'fir', SciPy's dlti systems, zero_phase), firls and lombscargle;
dtypes, axes, non-contiguous and negative-stride inputs, host inputs (taken as CuPy takes them), and the errors
that need the device to reach. The host parts are tested without a device in test_upfirdn_nogpu.py."""

import itertools
import warnings
from functools import partial

import cuarray as cp
import cuarray.scipy.signal as sig
import numpy as np
import pytest
import scipy.signal as ss
from conftest import make_data
from signal_asserts import EXACT, assert_device

pytestmark = pytest.mark.gpu

# By result dtype: resample_poly's default filter is cuarray's firwin, computed on the device (its float64
# taps within rounding of SciPy's); decimate's IIR filters start from a steady state solved on the host
# (Note [Filtering as SciPy rounds] in _lfilter.py); the means and the FFTs sum in their own orders.
TOL = {"f": 2e-5, "F": 2e-5, "default": 1e-10}
# A device array of SciPy's dtype, shape and C-contiguity (tuples element by element), its values within TOL
# (or the tolerance given) of the largest finite expected value; EXACT: SciPy's values exactly.
assert_close = partial(assert_device, default_tol=TOL, contiguous=True, finite_scale=True)


def data(shape, dtype, seed=0):
    """make_data's values, scaled to unit size for the float types."""
    a = make_data(shape, dtype, seed)
    return (a / 30).astype(dtype) if a.dtype.kind in "fc" else a


MODES = ["constant", "wrap", "edge", "smooth", "symmetric", "reflect", "antisymmetric", "antireflect", "line"]
RATES = [(1, 1), (2, 1), (1, 3), (3, 2), (2, 3), (5, 7)]


# ---------------------------------------------------------------------------------------------------- upfirdn
@pytest.mark.parametrize("h_dtype", ["float32", "float64", "complex128", "int64"])
@pytest.mark.parametrize(
    "x_dtype", ["float32", "float64", "complex64", "complex128", "int16", "bool", "float16"]
)
def test_upfirdn_matches_scipy_exactly(x_dtype, h_dtype):
    for (up, down), n_h, n_x in itertools.product(RATES, [1, 2, 3, 8, 26], [1, 2, 7, 20]):
        x, h = data(n_x, x_dtype, n_x), data(n_h, h_dtype, n_h)
        assert_close(sig.upfirdn(h, cp.asarray(x), up, down), ss.upfirdn(h, x, up, down), EXACT)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("mode", MODES)
def test_upfirdn_modes_match_scipy_exactly(mode, dtype):
    for (up, down), n_h, n_x in itertools.product(RATES, [1, 2, 5, 26], [1, 2, 3, 8]):
        if mode in ("smooth", "reflect", "antireflect") and n_x < 2:
            continue  # SciPy's process dies there (Note [Extensions of short signals])
        x, h = data(n_x, dtype, n_x), np.arange(1.0, n_h + 1).astype(np.finfo(dtype).dtype)
        assert_close(
            sig.upfirdn(h, cp.asarray(x), up, down, mode=mode), ss.upfirdn(h, x, up, down, mode=mode), EXACT
        )


@pytest.mark.parametrize("cval", [1.5, -2, 1e-50])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_upfirdn_cval(dtype, cval):
    x, h = data(9, dtype), data(5, dtype, 1)
    for up, down in RATES:
        expected = ss.upfirdn(h, x, up, down, cval=cval)
        assert_close(sig.upfirdn(h, cp.asarray(x), up, down, cval=cval), expected, EXACT)
    if dtype.startswith("complex"):
        expected = ss.upfirdn(h, x, 2, 3, cval=cval - 1j)
        assert_close(sig.upfirdn(h, cp.asarray(x), 2, 3, cval=cval - 1j), expected, EXACT)


SHAPES = [
    ((3, 7), 0),
    ((3, 7), 1),
    ((3, 7), -1),
    ((2, 3, 9), 1),
    ((4, 5, 6), 0),
    ((2, 3, 4, 5), 2),
    ((2, 3, 4, 5), -1),
]


VIEWS = {  # the same view of a host and a device array
    "C": lambda a: a,
    "transposed": lambda a: a.T,
    "reversed": lambda a: a[..., ::-1],
    "strided": lambda a: a[:, ::2],
}


@pytest.mark.parametrize("dtype", ["float32", "complex64", "float64"])
@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("shape,axis", SHAPES)
def test_upfirdn_axes_and_layouts(shape, axis, view, dtype):
    x, h = data(shape, dtype), data(7, "float64", 1)
    v, d = VIEWS[view](x), VIEWS[view](cp.asarray(x))
    for (up, down), mode in itertools.product([(1, 1), (2, 3), (3, 2)], ["constant", "wrap", "line"]):
        assert_close(sig.upfirdn(h, d, up, down, axis, mode), ss.upfirdn(h, v, up, down, axis, mode), EXACT)


def test_upfirdn_filters_and_signals_as_given():
    x = data(20, "float64")
    # a device filter, a host one, a list; a host signal and a list, copied as CuPy's asarray copies them
    for h in ([0.5, 1.0, 0.5], np.array([0.5, 1.0, 0.5], np.float32), [1, 2j, 3]):
        expected = ss.upfirdn(h, x, 3, 2)
        assert_close(sig.upfirdn(cp.asarray(np.asarray(h)), cp.asarray(x), 3, 2), expected, EXACT)
        assert_close(sig.upfirdn(h, cp.asarray(x), 3, 2), expected, EXACT)
        assert_close(sig.upfirdn(h, x, 3, 2), expected, EXACT)
    assert_close(sig.upfirdn([1, 1], [1, 2, 3], 2), ss.upfirdn([1, 1], [1, 2, 3], 2), EXACT)


def test_upfirdn_edge_cases():
    # CuPy's test_singleton and test_length_factors, an empty signal (zeros, or cval's sums), a long signal
    for n_h, n_x in itertools.product(range(1, 6), range(1, 6)):
        h = np.zeros(n_h)
        h[n_h // 2] = 1.0
        assert_close(sig.upfirdn(cp.asarray(h), cp.ones(n_x)), ss.upfirdn(h, np.ones(n_x)), EXACT)
    for n_h, n_x, up, down in [(2, 2, 5, 2), (2, 3, 6, 3), (2, 4, 4, 3), (3, 2, 6, 2), (4, 11, 3, 5)]:
        h = np.zeros(n_h)
        h[0] = 1.0
        assert_close(
            sig.upfirdn(cp.asarray(h), cp.ones(n_x), up, down), ss.upfirdn(h, np.ones(n_x), up, down), EXACT
        )
    h = np.arange(1.0, 6.0)
    for kwargs in ({}, {"cval": 2.0}):
        assert_close(sig.upfirdn(h, cp.zeros(0), **kwargs), ss.upfirdn(h, np.zeros(0), **kwargs), EXACT)
    assert_close(sig.upfirdn(h, cp.zeros((0, 4))), ss.upfirdn(h, np.zeros((0, 4))), EXACT)
    assert_close(
        sig.upfirdn(h, cp.ones(1), mode="line"), ss.upfirdn(h, np.ones(1), mode="line"), EXACT
    )  # NaN
    assert_close(
        sig.upfirdn([2.0], cp.ones(1), 3, mode="reflect"), ss.upfirdn([2.0], np.ones(1), 3, mode="reflect")
    )
    x = data(10000, "float64")
    taps = ss.firwin(31, 1.0 / 11, window="hamming")
    assert_close(
        sig.upfirdn(taps, cp.asarray(x), 1, 11), ss.upfirdn(taps, x, 1, 11), EXACT
    )  # CuPy's test_vs_convolve
    assert_close(sig.upfirdn(taps, cp.asarray(x), 320, 441), ss.upfirdn(taps, x, 320, 441), EXACT)


def test_upfirdn_errors():
    x = cp.arange(3.0)
    with pytest.raises(ValueError, match="Unknown mode: foo"):
        sig.upfirdn([1, 2], x, mode="FOO")
    with pytest.raises(TypeError, match="must be real number, not complex"):
        sig.upfirdn([1, 2], x, cval=1j)
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        sig.upfirdn([1.0], cp.zeros(0), 2)
    with pytest.raises(IndexError, match="tuple index out of range"):
        sig.upfirdn([1.0], x, axis=1)
    for mode, n in [("reflect", 1), ("antireflect", 1), ("smooth", 1), ("wrap", 0), ("symmetric", 0)]:
        with pytest.raises(ValueError, match=f"mode '{mode}' cannot extend a signal of {n} samples"):
            sig.upfirdn([1.0, 2.0], cp.ones(n), mode=mode)


# ---------------------------------------------------------------------------------------------- resample_poly
PADTYPES = ["constant", "mean", "median", "minimum", "maximum"] + MODES[1:]
RESAMPLE_TOL = {"float16": 1e-3}


@pytest.mark.parametrize("padtype", PADTYPES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int64", "float16"])
def test_resample_poly_matches_scipy(dtype, padtype):
    for (up, down), n in itertools.product(
        [(1, 2), (2, 1), (3, 2), (2, 3), (1, 1), (4, 4), (10, 3), (1, 11)], [2, 5, 30]
    ):
        x = data(n, dtype, n)
        expected = ss.resample_poly(x, up, down, padtype=padtype)
        assert_close(
            sig.resample_poly(cp.asarray(x), up, down, padtype=padtype), expected, RESAMPLE_TOL.get(dtype)
        )


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("shape,axis", [((20, 3), 0), ((3, 20), 1), ((3, 20), -1), ((2, 15, 3), 1)])
def test_resample_poly_windows_and_axes(shape, axis, dtype):
    x = data(shape, dtype)
    # float32 signals: the results agree to float32 rounding (on an H200 host, SciPy 1.18 rounded its float32
    # stages a unit in the last place away from ours in some elements).
    tol = 2e-6 if dtype == "float32" else None
    windows = [
        ("kaiser", 5.0),
        "hamming",
        [0.25, 0.5, 0.25],
        np.array([1.0, 2.0, 3.0, 2.0], dtype),
        [1, 2, 1],
    ]
    for window, (up, down) in itertools.product(windows, [(1, 2), (3, 2), (2, 5)]):
        for padtype in ("constant", "mean", "line"):
            expected = ss.resample_poly(x, up, down, axis, window, padtype)
            device_window = cp.asarray(window) if isinstance(window, np.ndarray) else window
            assert_close(
                sig.resample_poly(cp.asarray(x), up, down, axis, device_window, padtype), expected, tol
            )
            if padtype == "constant":  # F order and negative strides
                xf = np.asfortranarray(x)[..., ::-1]
                got = sig.resample_poly(cp.asfortranarray(cp.asarray(x))[..., ::-1], up, down, axis, window)
                assert_close(got, ss.resample_poly(xf, up, down, axis, window), tol)


def test_resample_poly_cupy_cases():
    # CuPy's test_strides (explicit same-dtype windows) and test_correlate1d
    for dtype, order, (shape, axis) in itertools.product(
        ["float32", "float64", "complex64", "complex128"], "CF", [((64,), -1), ((20, 50), 0), ((20, 50), 1)]
    ):
        arr = np.linspace(0, 1, int(np.prod(shape)), dtype=dtype).reshape(shape, order=order)
        window = np.asarray([0.25, 0.5, 0.25], dtype=dtype)
        expected = ss.resample_poly(arr, 1, 2, axis=axis, window=window)
        got = sig.resample_poly(cp.asarray(arr, order=order), 1, 2, axis=axis, window=cp.asarray(window))
        assert_close(got, expected)
    rng = np.random.default_rng(1)
    for down, n_x, n_w in itertools.product([2, 4], range(1, 40, 3), (32, 33)):
        x, w = rng.random(n_x), rng.random(n_w)
        assert_close(
            sig.resample_poly(cp.asarray(x), 1, down, window=cp.asarray(w)),
            ss.resample_poly(x, 1, down, window=w),
        )


def test_resample_poly_same_rate_and_cval():
    x = np.arange(6).reshape(2, 3).T  # F-ordered int64: copied as it is, as SciPy's asarray(copy=True)
    got = sig.resample_poly(cp.asarray(x), 2, 2)
    assert_close(got, ss.resample_poly(x, 2, 2), EXACT)
    assert got.flags.f_contiguous
    x = data(9, "float64")
    assert_close(sig.resample_poly(cp.asarray(x), 2, 3, cval=2.5), ss.resample_poly(x, 2, 3, cval=2.5))
    window = cp.asarray([1.0, 2.0, 1.0])
    sig.resample_poly(cp.asarray(x), 5, 1, window=window, padtype="mean")
    assert_close(window, np.array([1.0, 2.0, 1.0]), EXACT)  # a window given is copied, not scaled in place


def test_resample_poly_errors():
    x = cp.arange(10.0)
    with pytest.raises(
        ValueError, match="padtype must be one of: maximum, mean, median, minimum, constant, wrap"
    ):
        sig.resample_poly(x, 2, 1, padtype="")
    with pytest.raises(ValueError, match="window must be 1-D"):
        sig.resample_poly(x, 2, 1, window=[[1.0, 2.0]])
    with pytest.raises(IndexError):
        sig.resample_poly(x, 2, 1, axis=2)
    sig.resample_poly(x, 1, 1, padtype="foo")  # SciPy returns the copy before it reads padtype


# --------------------------------------------------------------------------------------------------- decimate
@pytest.mark.parametrize("zero_phase", [True, False])
@pytest.mark.parametrize("ftype", ["iir", "fir"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "float16", "complex128", "complex64"])
def test_decimate_matches_scipy(dtype, ftype, zero_phase):
    x = data(200, dtype)
    for q, n in itertools.product([2, 3, 5, 10], [None, 1, 4]):
        expected = ss.decimate(x, q, n, ftype, zero_phase=zero_phase)
        tol = 1e-4 if expected.dtype.char in "fF" else 1e-9
        assert_close(sig.decimate(cp.asarray(x), q, n, ftype, zero_phase=zero_phase), expected, tol)


@pytest.mark.parametrize("shape,axis", [((60, 3), 0), ((3, 60), 1), ((2, 40, 3), 1), ((2, 40, 3), -2)])
def test_decimate_axes(shape, axis):
    x = data(shape, "float64")
    for ftype, zero_phase in itertools.product(["iir", "fir"], [True, False]):
        expected = ss.decimate(x, 3, ftype=ftype, axis=axis, zero_phase=zero_phase)
        assert_close(
            sig.decimate(cp.asarray(x), 3, ftype=ftype, axis=axis, zero_phase=zero_phase), expected, 1e-9
        )
        xf = np.asfortranarray(x)
        got = sig.decimate(cp.asfortranarray(cp.asarray(x)), 3, ftype=ftype, axis=axis, zero_phase=zero_phase)
        assert_close(got, ss.decimate(xf, 3, ftype=ftype, axis=axis, zero_phase=zero_phase), 1e-9)


def test_decimate_dlti_systems():
    # SciPy's dlti objects (Note [decimate's systems]): FIR, real IIR (as sections), complex IIR (as b, a)
    t = np.arange(1201) / 120.0
    d = np.cos(2 * np.pi * 4 * t) * ss.windows.tukey(t.size, 0.1)
    z, p, k = ss.butter(2, 2 * np.pi * 5 / 2, output="zpk", fs=1e3)
    rotation = np.exp(2j * np.pi * 50 / 1e3)
    complex_system = ss.dlti(z.astype(complex) * rotation, p.astype(complex) * rotation, k)
    u = np.exp(2j * np.pi * 50 * np.arange(200) / 1e3) + 0.5 * np.exp(-2j * np.pi * 50 * np.arange(200) / 1e3)
    cases = [
        (d, ss.dlti(ss.firwin(31, 1 / 4, window="hamming"), 1.0)),
        (d, ss.dlti(*ss.cheby1(8, 0.05, 0.2))),
        (u, complex_system),
    ]
    for signal, system in cases:
        for zero_phase in (True, False):
            expected = ss.decimate(signal, 4, ftype=system, zero_phase=zero_phase)
            assert_close(
                sig.decimate(cp.asarray(signal), 4, ftype=system, zero_phase=zero_phase), expected, 1e-9
            )


def test_decimate_cupy_cases():
    x = np.arange(12)
    for ftype in ("iir", "fir"):
        expected = ss.decimate(x, 2, n=1, ftype=ftype, zero_phase=False).round()
        assert_close(
            sig.decimate(cp.asarray(x), 2, n=1, ftype=ftype, zero_phase=False).round(), expected, 1e-12
        )
    z = np.zeros((30, 30))
    for axis in (0, 1):
        assert_close(
            sig.decimate(cp.asarray(z), 2, axis=axis, zero_phase=False),
            ss.decimate(z, 2, axis=axis, zero_phase=False),
        )
    t = np.arange(1000) / 100.0
    xa = np.sqrt(2.0 / 1000) * np.sin(2 * np.pi * (100 / 30.0) * t)
    assert_close(sig.decimate(cp.asarray(xa), 30, ftype="fir"), ss.decimate(xa, 30, ftype="fir"), 1e-9)
    ones = np.ones(10_000, np.float32)  # gh-15072: float32 stays stable
    assert_close(sig.decimate(cp.asarray(ones), 10), ss.decimate(ones, 10), 5e-5)
    ones = np.ones(100, np.float16)  # float16 upcast to float64
    assert_close(sig.decimate(cp.asarray(ones), 10), ss.decimate(ones, 10), 1e-9)
    assert_close(sig.decimate(list(xa), 3), ss.decimate(xa, 3), 1e-9)  # a list, as CuPy's asarray takes it


def test_decimate_errors():
    x = cp.arange(12.0)
    with pytest.raises(ValueError, match="invalid ftype"):
        sig.decimate(x, 2, ftype="foo")
    with pytest.raises(ValueError, match="invalid ftype"):
        sig.decimate(x, 2, ftype=ss.lti([1.0], [1.0, 1.0]))  # continuous: not a dlti
    with pytest.raises(IndexError):
        sig.decimate(x, 2, axis=3)


# ------------------------------------------------------------------------------------------------------ firls
def test_firls_on_the_device():
    cases = [
        ((11, [0, 0.1, 0.4, 0.5], [1, 1, 0, 0]), {"fs": 1.0}),
        ((9, cp.asarray([0, 0.5, 0.55, 1]), cp.asarray([1, 1, 0, 0])), {"weight": cp.asarray([1, 2])}),
        ((7, (0, 1, 2, 3, 4, 5), [1, 0, 0, 1, 1, 0]), {"fs": 20}),
    ]
    for args, kwargs in cases:
        host_args = [cp.asnumpy(a) if isinstance(a, cp.ndarray) else a for a in args]
        host_kwargs = {k: cp.asnumpy(v) if isinstance(v, cp.ndarray) else v for k, v in kwargs.items()}
        assert_close(sig.firls(*args, **kwargs), ss.firls(*host_args, **host_kwargs))
    # CuPy's test_rank_deficient_3, through cuarray's freqz
    w, h = sig.freqz(sig.firls(101, [0, 0.01, 0.99, 1], [1, 1, 0, 0]), fs=2.0)
    w, h = cp.asnumpy(w), cp.asnumpy(h)
    np.testing.assert_allclose(np.abs(h[w < 0.01]), 1.0, atol=1e-4)
    np.testing.assert_allclose(np.abs(h[w > 0.99]), 0.0, atol=1e-4)


# ------------------------------------------------------------------------------------------------ lombscargle
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
@pytest.mark.parametrize("n,nf", [(1, 5), (2, 1), (10, 300), (71, 5), (71, 300)])
def test_lombscargle_matches_scipy(n, nf, dtype):
    rng = np.random.default_rng(n)
    t = np.sort(rng.uniform(0, 30, n)).astype(dtype) if dtype != "int64" else np.arange(n) * 3
    y = 2 * np.sin(1.3 * t + 0.5) + 0.3
    f = np.linspace(0.01, 10, nf)
    weights = rng.uniform(0.1, 2, n)
    options = itertools.product(
        [False, True, "power", "normalize", "amplitude"], [False, True], [None, weights]
    )
    for normalize, floating_mean, w in options:
        expected = ss.lombscargle(t, y, f, normalize=normalize, floating_mean=floating_mean, weights=w)
        got = sig.lombscargle(
            cp.asarray(t),
            cp.asarray(y),
            cp.asarray(f),
            normalize=normalize,
            floating_mean=floating_mean,
            weights=None if w is None else cp.asarray(w),
        )
        assert_close(got, expected, 1e-8)


def test_lombscargle_cupy_calls():
    # CuPy's calls: frequencies as a host array, precenter and normalize by position; precenter given warns as
    # SciPy 1.17 warns (Note [lombscargle's signature])
    t = np.linspace(0.1, 30, 70)
    y = np.sin(t) + 0.15
    f = np.linspace(0.01, 10, 50)
    assert_close(sig.lombscargle(cp.asarray(t), cp.asarray(y), f), ss.lombscargle(t, y, f), 1e-8)
    for precenter in (True, False):
        with pytest.warns(DeprecationWarning, match="Use of parameter 'precenter' is deprecated"):
            got = sig.lombscargle(cp.asarray(t), cp.asarray(y), f, precenter, True)
        with pytest.warns(DeprecationWarning):
            expected = ss.lombscargle(t, y, f, precenter=precenter, normalize=True)
        assert_close(got, expected, 1e-8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sig.lombscargle(cp.asarray(t), cp.asarray(y), f, normalize=True)


def test_lombscargle_errors():
    t, y, f = cp.linspace(0.1, 30, 70), cp.ones(70), cp.linspace(0.01, 10, 50)
    cases = [
        ((t[:5], y, f), {}, "Parameters x, y, weights must be 1-D arrays of equal non-zero length!"),
        ((t[:0], y[:0], f), {}, "Parameters x, y, weights must be 1-D arrays of equal non-zero length!"),
        ((t.reshape(7, 10), y.reshape(7, 10), f), {}, "Parameters x, y, weights must be 1-D arrays"),
        ((t, y, f), {"weights": cp.ones(3)}, "Parameters x, y, weights must be 1-D arrays"),
        ((t, y, f[:0]), {}, "Parameter freqs must be a 1-D array of non-zero length!"),
        ((t, y, f), {"weights": -cp.ones(70)}, "Parameter weights must have only non-negative entries"),
        ((t, y, f), {"weights": cp.zeros(70)}, "Parameter weights must have only non-negative entries"),
        ((t, y, f), {"normalize": "foo"}, "Normalize must be: False"),
        ((t, y, f), {"normalize": np.True_}, "Normalize must be: False"),
    ]
    for args, kwargs, message in cases:
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
            sig.lombscargle(*args, **kwargs)
