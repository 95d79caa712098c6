"""IIR design and linear filtering on the device against SciPy: lfilter (IIR and FIR paths), sosfilt, filtfilt
(pad and gust), sosfiltfilt, and the design functions' device results (butter, cheby1, cheby2, iirfilter, the
prototypes, transforms, conversions and freqz); every dtype SciPy takes, axes, non-contiguous inputs, and the
errors. Initial and final states, in CuPy's form, are tested in test_filter_states.py. The host maths alone is tested without a device
in test_iir_nogpu.py."""

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

TOL = {"f": 1e-4, "F": 1e-4, "default": 1e-10}  # by result dtype: float32 recursions accumulate rounding
# lfilter's and sosfilt's recursions are SciPy's loops, operation for operation and each rounded as there (Note
# [Filtering as SciPy rounds] in _lfilter.py), so their values are SciPy's exactly, in every type; filtfilt's and
# sosfiltfilt's ('pad') too, but for the steady state they start from (STEADY below). Tolerances remain
# where an operation differs: a FIR filter (len(a) == 1) is cuarray's convolution, which sums in another order
# than NumPy's convolve; method 'gust' solves by cuarray.linalg.lstsq; the designs compute on the device in their
# own ways.
# Results through a steady state (filtfilt's and sosfiltfilt's, SciPy's lfilter_zi and sosfilt_zi): SciPy's and
# ours solve the same system with the same NumPy call on the host, yet on an H200 host the two solves differed in
# their last bit (the BLAS's kernels may round differently for two copies of one matrix), and the filters carry
# that through: a few units in the last place.
STEADY = {"e": 1e-2, "f": 1e-6, "F": 1e-6, "default": 1e-12}  # by result dtype
# Device arrays of SciPy's dtypes and shapes, values within TOL (or the tolerance given) of the largest value.
assert_close = partial(assert_device, default_tol=TOL)


def data(shape, dtype, seed=0):
    """make_data's values, scaled to unit size for the float types (filters of them stay well in range)."""
    a = make_data(shape, dtype, seed)
    return (a / 30).astype(dtype) if a.dtype.kind in "fc" else a


FILTERS = {
    "butter4": ss.butter(4, 0.2),
    "cheby1_band": ss.cheby1(3, 1, [0.2, 0.5], "bandpass"),
    "long_b_a0": (np.array([1.0, -0.5, 0.25, 0.125]), np.array([2.0, 0.3])),
    "long_a": (np.array([0.5]), np.array([1.0, -0.9, 0.2, 0.1])),
    "complex_a0": (np.array([1.0, 0.5j, -0.25]), np.array([2.0 - 1.0j, 0.3, 0.1j])),  # SciPy's cmplx_filt
}
SHAPES = [((50,), -1), ((1,), 0), ((3, 40), -1), ((40, 3), 0), ((2, 30, 3), 1), ((4, 5), -2)]


@pytest.mark.parametrize("name", list(FILTERS))
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int16", "bool"])
@pytest.mark.parametrize("shape,axis", SHAPES)
def test_lfilter_matches_scipy(name, dtype, shape, axis):
    b, a = FILTERS[name]
    x = data(shape, dtype)
    assert_close(
        sig.lfilter(cp.asarray(b), cp.asarray(a), cp.asarray(x), axis=axis),
        ss.lfilter(b, a, x, axis=axis),
        EXACT,
    )
    assert_close(
        sig.lfilter(b, a, cp.asarray(x), axis=axis), ss.lfilter(b, a, x, axis=axis), EXACT
    )  # host b, a


@pytest.mark.parametrize("coef", ["float32", "int64", "complex64"])
@pytest.mark.parametrize("dtype", ["float32", "int8", "float16", "complex64"])
def test_lfilter_result_types(coef, dtype):
    """SciPy's result type: that of b, a, x (and zi) together; integer coefficients as given."""
    b = np.array([1, 2, 1], coef)
    a = np.array([4, -1, 1], coef) if coef == "int64" else np.array([1, -0.5, 0.25], coef)
    x = data(20, dtype)
    try:
        expected = ss.lfilter(b, a, x)
    except NotImplementedError as e:
        with pytest.raises(NotImplementedError, match=str(e).strip()):
            sig.lfilter(cp.asarray(b), cp.asarray(a), cp.asarray(x))
        return
    assert_close(sig.lfilter(cp.asarray(b), cp.asarray(a), cp.asarray(x)), expected, EXACT)


@pytest.mark.parametrize("b", [[1.0, -2.0, 0.5], [3.0], list(np.arange(1.0, 9.0))])
@pytest.mark.parametrize("a", [[1.0], [2.0]])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int16"])
@pytest.mark.parametrize("shape,axis", SHAPES)
def test_lfilter_fir_matches_scipy(b, a, dtype, shape, axis):
    """A single `a`: the FIR path (a convolution, whose sums are not NumPy's convolve's: TOL)."""
    x = data(shape, dtype)
    assert_close(sig.lfilter(cp.asarray(b), a, cp.asarray(x), axis=axis), ss.lfilter(b, a, x, axis=axis))


def test_lfilter_layouts():
    b, a = FILTERS["butter4"]
    x = data((6, 80), "float64")
    d = cp.asarray(x)
    assert_close(sig.lfilter(b, a, d[:, ::-3]), ss.lfilter(b, a, x[:, ::-3]), EXACT)
    assert_close(sig.lfilter(b, a, d.T, axis=0), ss.lfilter(b, a, x.T, axis=0), EXACT)
    assert_close(sig.lfilter(b, a, d[::2, 5:60:2], axis=-1), ss.lfilter(b, a, x[::2, 5:60:2]), EXACT)
    y = sig.lfilter(b, a, d.T, axis=0)
    assert y.flags.c_contiguous


def test_lfilter_empty_signals():
    b, a = FILTERS["butter4"]
    assert_close(sig.lfilter(b, a, cp.zeros((0, 5))), ss.lfilter(b, a, np.zeros((0, 5))))


def test_lfilter_many_and_long_signals():
    """Many signals (one thread each) and one long signal (one thread for all of it), SciPy's values exactly
    however long the recursion (where a fused multiply-add would drift, 2e-7 relative here)."""
    b, a = ss.butter(6, [0.1, 0.3], "bandpass")
    x = data((600, 257), "float64", 4)
    assert_close(sig.lfilter(b, a, cp.asarray(x)), ss.lfilter(b, a, x), EXACT)
    long_x = data(200_000, "float64", 5)
    assert_close(sig.lfilter(b, a, cp.asarray(long_x)), ss.lfilter(b, a, long_x), EXACT)
    for dtype in ("float32", "complex64", "complex128"):  # coefficients of the signal's precision
        long_x = data(50_000, dtype, 6)
        b1, a1 = b.astype(dtype), a.astype(dtype)
        assert_close(sig.lfilter(b1, a1, cp.asarray(long_x)), ss.lfilter(b1, a1, long_x), EXACT)
        cdtype = np.result_type(dtype, np.complex64)  # complex coefficients, a[0] not 1: SciPy's cmplx_filt
        b2, a2 = (b * (1 + 0.5j)).astype(cdtype), (a * (2 - 1j)).astype(cdtype)
        assert_close(sig.lfilter(b2, a2, cp.asarray(long_x)), ss.lfilter(b2, a2, long_x), EXACT)


LFILTER_ERRORS = [
    (([], [1.0], (3, 4)), {}, ValueError, r"Parameter b is not a non-empty 1d array, since b\.shape=\(0,\)!"),
    (([1.0], [], (3, 4)), {}, ValueError, r"Parameter a is not a non-empty 1d array"),
    (([[1.0]], [1.0, 2.0], (3, 4)), {}, ValueError, r"Parameter b is not a non-empty 1d array"),
    (([1.0, 2.0], [1.0, 2.0], (3, 4)), {"axis": 2}, ValueError, "selected axis is out of range"),
    (([1.0, 2.0], [1.0, 2.0], ()), {}, ValueError, "selected axis is out of range"),
    (([1.0, 2.0], [0.0, 2.0], (3, 4)), {}, ValueError, r"a\[0\] == 0 not supported"),
    (([1, 2], [1, 2], (3, 4)), {}, NotImplementedError, "input type 'int64' not supported"),
    (([1.0, 2.0], [1.0], ()), {}, ValueError, "x must be at least 1-D"),
    (([1, 2], [1], (3, 4)), {}, NotImplementedError, "produced result type 'int64'"),
    (([1.0, 2.0], [1.0], (3, 4)), {"axis": 2}, IndexError, "axis 2 is out of bounds"),
    (([1.0, 2.0], [1.0], (2, 0)), {}, ValueError, "v cannot be empty"),
]


@pytest.mark.parametrize("args,kwargs,exc,match", LFILTER_ERRORS)
def test_lfilter_errors(args, kwargs, exc, match):
    b, a, shape = args
    ints = all(isinstance(v, int) for v in b + a)  # integer coefficients: an integer signal too
    x = cp.ones(shape, dtype=np.int64 if ints else np.float64)
    with pytest.raises(exc, match=match):
        sig.lfilter(b, a, x, **kwargs)
    with pytest.raises(exc, match=match):  # SciPy's own error on the same arguments
        ss.lfilter(b, a, cp.asnumpy(x), **kwargs)


SOS = {
    "butter4": ss.butter(4, 0.2, output="sos"),
    "cheby2_stop": ss.cheby2(5, 40, [0.2, 0.5], "bandstop", output="sos"),
    "first_order": ss.butter(3, 0.3, output="sos"),
}


@pytest.mark.parametrize("name", list(SOS))
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int16"])
@pytest.mark.parametrize("sos_dtype", ["float64", "float32"])
@pytest.mark.parametrize("shape,axis", SHAPES)
def test_sosfilt_matches_scipy(name, dtype, sos_dtype, shape, axis):
    sos = SOS[name].astype(sos_dtype)
    x = data(shape, dtype)
    expected = ss.sosfilt(sos, x, axis=axis)
    assert_close(sig.sosfilt(cp.asarray(sos), cp.asarray(x), axis=axis), expected, EXACT)
    assert_close(sig.sosfilt(sos, cp.asarray(x), axis=axis), expected, EXACT)


def test_sosfilt_layouts_and_long_signals():
    sos = SOS["cheby2_stop"]
    x = data((5, 120), "float64")
    d = cp.asarray(x)
    assert_close(sig.sosfilt(sos, d[:, ::-2]), ss.sosfilt(sos, x[:, ::-2]), EXACT)
    assert_close(sig.sosfilt(sos, d.T, axis=0), ss.sosfilt(sos, x.T, axis=0), EXACT)
    long_x = data(300_000, "float64", 2)
    assert_close(sig.sosfilt(sos, cp.asarray(long_x)), ss.sosfilt(sos, long_x), EXACT)
    long_x = data(50_000, "complex64", 3)  # complex: the sections cast to complex, as SciPy casts them
    assert_close(sig.sosfilt(sos, cp.asarray(long_x)), ss.sosfilt(sos, long_x), EXACT)


def test_sosfilt_errors():
    sos = SOS["butter4"]
    x = cp.ones((3, 4))
    with pytest.raises(ValueError, match="x must be at least 1-D"):
        sig.sosfilt(sos, cp.ones(()))
    with pytest.raises(ValueError, match=r"sos array must be shape \(n_sections, 6\)"):
        sig.sosfilt(np.zeros((2, 5)), x)
    with pytest.raises(ValueError, match="sos array must be 2D"):
        sig.sosfilt(np.zeros((2, 2, 6)), x)
    with pytest.raises(ValueError, match=r"sos\[:, 3\] should be all ones"):
        sig.sosfilt([[1.0, 2, 3, 2, 0, 0]], x)
    with pytest.raises(NotImplementedError, match="input type 'int64' not supported"):
        sig.sosfilt(np.int64([[1, 2, 3, 1, 0, 0]]), cp.ones(4, np.int64))
    with pytest.raises(IndexError):
        sig.sosfilt(sos, x, axis=2)


@pytest.mark.parametrize("name", ["butter4", "cheby1_band", "long_b_a0", "fir"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "complex128"])
@pytest.mark.parametrize("shape,axis", [((60,), -1), ((3, 50), -1), ((50, 3), 0), ((2, 40, 3), 1)])
@pytest.mark.parametrize("padtype,padlen", [("odd", None), ("even", 5), ("constant", 0), (None, None)])
def test_filtfilt_matches_scipy(name, dtype, shape, axis, padtype, padlen):
    b, a = FILTERS[name] if name != "fir" else (np.array([1.0, 2.0, 1.0]), np.array([4.0]))
    x = data(shape, dtype)
    kwargs = {"axis": axis, "padtype": padtype, "padlen": padlen}
    expected = ss.filtfilt(b, a, x, **kwargs)
    tol = STEADY if name != "fir" else (1e-9 if dtype != "float32" else 1e-4)  # the FIR filter: a convolution
    assert_close(sig.filtfilt(cp.asarray(b), cp.asarray(a), cp.asarray(x), **kwargs), expected, tol)


@pytest.mark.parametrize("irlen", [None, 5, 20])
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_filtfilt_gust(irlen, dtype):
    b, a = ss.butter(3, 0.2)
    x = data((2, 80), dtype)
    assert_close(
        sig.filtfilt(b, a, cp.asarray(x), method="gust", irlen=irlen),
        ss.filtfilt(b, a, x, method="gust", irlen=irlen),
        1e-9,
    )
    assert_close(
        sig.filtfilt(b, a, cp.asarray(x.T), axis=0, method="gust"),
        ss.filtfilt(b, a, x.T, axis=0, method="gust"),
        1e-9,
    )
    assert_close(
        sig.filtfilt([2.0], [4.0], cp.asarray(x), method="gust"),
        ss.filtfilt([2.0], [4.0], x, method="gust"),
        EXACT,
    )  # no state: x times (b[0] / a[0]) ** 2


def _complex_warnings(f):
    """f()'s result and the number of ComplexWarnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = f()
    return result, sum(issubclass(w.category, np.exceptions.ComplexWarning) for w in caught)


@pytest.mark.parametrize("irlen", [None, 5])
@pytest.mark.parametrize("coef", ["complex128", "complex64", "b complex", "a complex"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
def test_filtfilt_gust_complex_coefficients(irlen, coef, dtype):
    """SciPy's _filtfilt_gust assigns the zero-input response into a float64 matrix (and, with irlen, M and W
    too): complex coefficients lose their imaginary parts there, with NumPy's ComplexWarning. Ours does the same
    (Note [Gustafsson's real matrices]): SciPy's values and warnings; warnings as errors (CuPy's tests) raise it."""
    b, a = ss.butter(2, 0.2)
    if coef in ("complex128", "complex64", "b complex"):
        b = (b * (1 + 0.5j)).astype(coef if coef != "b complex" else "complex128")
    if coef in ("complex128", "complex64", "a complex"):
        a = (a + np.array([0, 0.05j, -0.02j])).astype(coef if coef != "a complex" else "complex128")
    x = data((2, 40), dtype)
    expected, scipy_warnings = _complex_warnings(lambda: ss.filtfilt(b, a, x, method="gust", irlen=irlen))
    got, our_warnings = _complex_warnings(
        lambda: sig.filtfilt(b, a, cp.asarray(x), method="gust", irlen=irlen)
    )
    assert our_warnings == scipy_warnings == (1 if irlen is None else 4)
    assert_close(got, expected, 1e-4 if expected.dtype.char in "fF" else 1e-9)
    with warnings.catch_warnings():
        warnings.simplefilter("error", np.exceptions.ComplexWarning)
        with pytest.raises(np.exceptions.ComplexWarning, match="^Casting complex values to real discards"):
            sig.filtfilt(cp.asarray(b), cp.asarray(a), cp.asarray(x), method="gust", irlen=irlen)


def test_gust_real_coefficients_give_no_complex_warning():
    b, a = ss.butter(3, 0.2)
    for x in (data((2, 40), "complex128"), data((2, 40), "float32")):
        for irlen in (None, 5):
            _, count = _complex_warnings(
                lambda x=x, irlen=irlen: sig.filtfilt(b, a, cp.asarray(x), method="gust", irlen=irlen)
            )
            assert count == 0


def test_forward_backward_filters_take_host_signals():
    """As CuPy's (cupy.asarray), filtfilt and sosfiltfilt copy a host signal (a NumPy array, a list) to the
    device; lfilter and sosfilt take device signals only (test_iir_nogpu.py)."""
    b, a = FILTERS["butter4"]
    sos = SOS["butter4"]
    h = data((3, 50), "float64")
    for x in (h, h.tolist()):
        assert_close(sig.filtfilt(b, a, x), ss.filtfilt(b, a, h), STEADY)
        assert_close(sig.filtfilt(b, a, x, method="gust"), ss.filtfilt(b, a, h, method="gust"), 1e-9)
        assert_close(sig.sosfiltfilt(sos, x), ss.sosfiltfilt(sos, h), STEADY)


@pytest.mark.parametrize("name", list(SOS))
@pytest.mark.parametrize("dtype", ["float64", "float32", "int32"])
@pytest.mark.parametrize("shape,axis", [((60,), -1), ((3, 50), -1), ((50, 3), 0), ((2, 40, 3), 1)])
@pytest.mark.parametrize("padtype,padlen", [("odd", None), ("even", 5), ("constant", 0), (None, None)])
def test_sosfiltfilt_matches_scipy(name, dtype, shape, axis, padtype, padlen):
    sos = SOS[name]
    x = data(shape, dtype)
    kwargs = {"axis": axis, "padtype": padtype, "padlen": padlen}
    expected = ss.sosfiltfilt(sos, x, **kwargs)
    assert_close(sig.sosfiltfilt(cp.asarray(sos), cp.asarray(x), **kwargs), expected, STEADY)


def test_forward_backward_errors():
    x = cp.ones((3, 10))
    with pytest.raises(ValueError, match="method must be 'pad' or 'gust'."):
        sig.filtfilt([1.0], [1.0, 0.5], x, method="foo")
    with pytest.raises(ValueError, match="Unknown value 'foo' given to padtype"):
        sig.filtfilt([1.0], [1.0, 0.5], x, padtype="foo")
    with pytest.raises(ValueError, match="must be greater than padlen, which is 10"):
        sig.filtfilt([1.0], [1.0, 0.5], x, padlen=10)
    with pytest.raises(ValueError, match="must be greater than padlen, which is 12"):
        sig.sosfiltfilt(SOS["first_order"], x)  # two sections, one of first order: 3 * 4 taps
    with pytest.raises(ValueError, match="must be greater than padlen, which is 15"):
        sig.sosfiltfilt(SOS["butter4"], x)  # two sections of second order: 3 * 5 taps
    with pytest.raises(ValueError, match="x must be at least 1-D"):
        sig.sosfiltfilt(SOS["butter4"], cp.ones(()))


# ---------------------------------------------------------------- design functions: device results


@pytest.mark.parametrize("output", ["ba", "zpk", "sos"])
@pytest.mark.parametrize(
    "btype,wn", [("low", 0.3), ("high", 0.45), ("bandpass", [0.2, 0.5]), ("bandstop", [0.1, 0.3])]
)
def test_designs_on_the_device(output, btype, wn):
    for ours, theirs, args in [
        (sig.butter, ss.butter, (5, wn)),
        (sig.cheby1, ss.cheby1, (4, 1.0, wn)),
        (sig.cheby2, ss.cheby2, (4, 40, wn)),
    ]:
        got, expected = ours(*args, btype, output=output), theirs(*args, btype, output=output)
        if output == "zpk":  # z and p on the device; k the host float SciPy and CuPy document
            assert_close(got[:2], expected[:2])
            assert isinstance(got[2], float | np.floating) and np.isclose(got[2], expected[2], rtol=1e-12)
        else:
            assert_close(got, expected)
    assert_close(
        sig.iirfilter(3, [100, 200], fs=1000, output="sos"),
        ss.iirfilter(3, [100, 200], fs=1000, output="sos"),
    )


def test_design_then_filter_equals_scipy():
    """A design on the device and a filtering of it give SciPy's output (pairing and gain included)."""
    x = data((4, 500), "float64")
    sos = sig.butter(8, [0.1, 0.25], "bandpass", output="sos")
    assert_close(
        sig.sosfilt(sos, cp.asarray(x)), ss.sosfilt(ss.butter(8, [0.1, 0.25], "bandpass", output="sos"), x)
    )
    b, a = sig.cheby1(4, 0.5, 0.3)
    assert_close(sig.filtfilt(b, a, cp.asarray(x)), ss.filtfilt(*ss.cheby1(4, 0.5, 0.3), x))


def test_prototypes_transforms_and_conversions_on_the_device():
    z, p, k = sig.buttap(5)
    assert_close((z, p), ss.buttap(5)[:2])
    assert k == 1.0
    assert_close(sig.cheb1ap(4, 1.0)[:2], ss.cheb1ap(4, 1.0)[:2])
    assert_close(sig.cheb2ap(5, 40)[:2], ss.cheb2ap(5, 40)[:2])
    z, p, k = ss.cheby2(6, 30, 0.3, output="zpk")
    zd, pd = cp.asarray(z), cp.asarray(p)  # device zeros and poles, as the designs return them
    assert_close(sig.zpk2sos(zd, pd, k), ss.zpk2sos(z, p, k))
    assert_close(sig.zpk2sos(zd, pd, k, pairing="keep_odd"), ss.zpk2sos(z, p, k, pairing="keep_odd"))
    assert_close(sig.zpk2tf(zd, pd, k), ss.zpk2tf(z, p, k))
    b, a = ss.zpk2tf(z, p, k)
    assert_close(sig.tf2zpk(cp.asarray(b), cp.asarray(a))[:2], ss.tf2zpk(b, a)[:2], 1e-8)
    assert_close(sig.tf2sos(cp.asarray(b), cp.asarray(a)), ss.tf2sos(b, a), 1e-6)
    sos = ss.zpk2sos(z, p, k)
    assert_close(sig.sos2tf(cp.asarray(sos)), ss.sos2tf(sos))
    assert_close(sig.sos2zpk(cp.asarray(sos))[:2], ss.sos2zpk(sos)[:2], 1e-8)
    za, pa, ka = ss.buttap(4)
    for ours, theirs, extra in [
        (sig.lp2lp_zpk, ss.lp2lp_zpk, (2.0,)),
        (sig.lp2hp_zpk, ss.lp2hp_zpk, (2.0,)),
        (sig.lp2bp_zpk, ss.lp2bp_zpk, (2.0, 0.5)),
        (sig.lp2bs_zpk, ss.lp2bs_zpk, (2.0, 0.5)),
        (sig.bilinear_zpk, ss.bilinear_zpk, (10.0,)),
    ]:
        got, expected = ours(cp.asarray(za), cp.asarray(pa), ka, *extra), theirs(za, pa, ka, *extra)
        assert_close(got[:2], expected[:2])
        assert np.isclose(float(got[2]), float(expected[2]), rtol=1e-12)


def test_freqz_on_the_device():
    b, a = ss.butter(4, 0.3)
    assert_close(sig.freqz(cp.asarray(b), cp.asarray(a)), ss.freqz(b, a))
    assert_close(sig.freqz(b, a, 100, whole=True, fs=1000), ss.freqz(b, a, 100, whole=True, fs=1000))
    w = np.linspace(0, 3, 7)
    assert_close(sig.freqz(b, a, cp.asarray(w)), ss.freqz(b, a, w))
    assert_close(sig.freqz(b.astype(np.float32), 1, 64), ss.freqz(b.astype(np.float32), 1, 64), 1e-6)
    seen = []
    sig.freqz(b, a, 16, plot=lambda w, h: seen.append((w, h)))
    assert len(seen) == 1 and all(isinstance(v, cp.ndarray) for v in seen[0])
    sos = ss.butter(4, 0.3, output="sos")
    for f in (sig.freqz_sos, sig.sosfreqz):
        assert_close(f(cp.asarray(sos), 256), ss.freqz_sos(sos, 256))


def test_every_combination_of_a_few_designs_filters():
    """butter / cheby1 / cheby2 in every band and form, filtered by the matching filter, on the device."""
    x = data((2, 300), "float64", 7)
    for (ours, theirs, args), btype in itertools.product(
        [(sig.butter, ss.butter, (3,)), (sig.cheby1, ss.cheby1, (3, 1.0)), (sig.cheby2, ss.cheby2, (3, 30))],
        ["low", "high", "bandpass", "bandstop"],
    ):
        wn = 0.3 if btype in ("low", "high") else [0.2, 0.4]
        sos = ours(*args, wn, btype, output="sos")
        assert_close(sig.sosfilt(sos, cp.asarray(x)), ss.sosfilt(theirs(*args, wn, btype, output="sos"), x))
        b, a = ours(*args, wn, btype)
        assert_close(sig.lfilter(b, a, cp.asarray(x)), ss.lfilter(*theirs(*args, wn, btype), x))
