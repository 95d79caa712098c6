"""IIR design and linear filtering on the device against SciPy: lfilter (IIR and FIR paths), lfiltic, lfilter_zi,
sosfilt, sosfilt_zi, filtfilt (pad and gust), sosfiltfilt, and the design functions' device results (butter,
cheby1, cheby2, iirfilter, the prototypes, transforms, conversions and freqz); every dtype SciPy takes, axes,
initial and final states, non-contiguous inputs, and the errors. The host maths alone is tested without a device
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
# than NumPy's convolve; method 'gust' solves by cuarray.linalg.lstsq; the designs and lfiltic compute on the
# device in their own ways.
# Results through a steady state (lfilter_zi, sosfilt_zi, so filtfilt and sosfiltfilt): SciPy's and ours solve
# the same system with the same NumPy call on the host, yet on an H200 host the two solves differed in their
# last bit (the BLAS's kernels may round differently for two copies of one matrix), and the filters carry that
# through: a few units in the last place.
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
    zshape = list(shape)
    zshape[axis] = max(len(a), len(b)) - 1
    zi = data(zshape, "float64", 1)
    expected = ss.lfilter(b, a, x, axis=axis, zi=zi)
    assert_close(
        sig.lfilter(b, a, cp.asarray(x), axis=axis, zi=cp.asarray(zi)), expected, EXACT
    )  # host coefficients


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
    """A single `a`: the FIR path (a convolution, whose sums are not NumPy's convolve's: TOL), with SciPy's
    states."""
    x = data(shape, dtype)
    assert_close(sig.lfilter(b, a, cp.asarray(x), axis=axis), ss.lfilter(b, a, x, axis=axis))
    zshape = list(shape)
    zshape[axis] = len(b) - 1
    zi = data(zshape, "float32", 2)
    expected = ss.lfilter(b, a, x, axis=axis, zi=zi)
    assert_close(sig.lfilter(cp.asarray(b), a, cp.asarray(x), axis=axis, zi=cp.asarray(zi)), expected)


def test_lfilter_layouts_and_broadcast_states():
    b, a = FILTERS["butter4"]
    x = data((6, 80), "float64")
    d = cp.asarray(x)
    assert_close(sig.lfilter(b, a, d[:, ::-3]), ss.lfilter(b, a, x[:, ::-3]), EXACT)
    assert_close(sig.lfilter(b, a, d.T, axis=0), ss.lfilter(b, a, x.T, axis=0), EXACT)
    assert_close(sig.lfilter(b, a, d[::2, 5:60:2], axis=-1), ss.lfilter(b, a, x[::2, 5:60:2]), EXACT)
    zi = data((1, 4), "float64", 3)  # broadcast along the other axis, as SciPy's C loop does
    assert_close(sig.lfilter(b, a, d, zi=cp.asarray(zi)), ss.lfilter(b, a, x, zi=zi), EXACT)
    expected = ss.lfilter(b, a, x.T, axis=0, zi=zi.T)
    assert_close(sig.lfilter(b, a, d.T, axis=0, zi=cp.asarray(zi.T)), expected, EXACT)
    zi_dev = cp.ones((6, 4))
    sig.lfilter(b, a, d, zi=zi_dev)
    np.testing.assert_array_equal(cp.asnumpy(zi_dev), np.ones((6, 4)))  # the state given is not written
    y = sig.lfilter(b, a, d.T, axis=0)
    assert y.flags.c_contiguous


@pytest.mark.parametrize("name", ["butter4", "long_b_a0", "fir"])
def test_lfilter_in_chunks_equals_one_call(name):
    """zf carries the state from one block to the next, as SciPy's does: the same values as one call for the
    recursions, to rounding for the FIR filter (a convolution whose state is added)."""
    b, a = FILTERS[name] if name != "fir" else ([1.0, 0.5, -0.25, 2.0], [1.0])
    tol = None if name == "fir" else EXACT
    x = data((3, 90), "float64")
    zi = cp.asarray(ss.lfiltic(b, a, [0.5]) * np.ones((3, 1)))
    whole, zf = sig.lfilter(b, a, cp.asarray(x), zi=zi)
    parts, state = [], zi
    for start in range(0, 90, 25):
        y, state = sig.lfilter(b, a, cp.asarray(x[:, start : start + 25]), zi=state)
        parts.append(cp.asnumpy(y))
    for got, expected in [(np.concatenate(parts, axis=1), whole), (cp.asnumpy(state), zf)]:
        np.testing.assert_allclose(got, cp.asnumpy(expected), rtol=0, atol=1e-12 if tol is None else 0)
    assert_close((whole, zf), ss.lfilter(b, a, x, zi=cp.asnumpy(zi)), tol)


def test_lfilter_empty_signals():
    """Zero samples: an empty output, and the state given back (SciPy's zf is uninitialised memory there)."""
    b, a = FILTERS["butter4"]
    zi = data((3, 4), "float64")
    y, zf = sig.lfilter(b, a, cp.zeros((3, 0)), zi=cp.asarray(zi))
    assert y.shape == (3, 0) and y.dtype == np.float64
    np.testing.assert_array_equal(cp.asnumpy(zf), zi)
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
    (
        ([1.0, 2.0], [1.0, 2.0], (3, 4)),
        {"zi": (1,)},
        ValueError,
        "object of too small depth for desired array",
    ),
    (([1.0, 2.0], [1.0, 2.0], (3, 4)), {"zi": (3, 2)}, ValueError, r"expected \(3,1\), found \(3,2\)"),
    (([1.0, 2.0], [1.0, 2.0], (4,)), {"zi": (2,)}, ValueError, r"expected \(1,\), found \(2,\)"),
    (([1.0, 2.0], [1.0], (3, 4)), {"zi": (3, 2)}, ValueError, r"expected \(3, 1\), found \(3, 2\)"),
    (([1.0, 2.0], [1.0], (3, 4)), {"zi": (1,)}, ValueError, "x.ndim=2, zi.ndim=1"),
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
    kwargs = {k: cp.zeros(v) if k == "zi" else v for k, v in kwargs.items()}
    with pytest.raises(exc, match=match):
        sig.lfilter(b, a, x, **kwargs)
    with pytest.raises(exc, match=match):  # SciPy's own error on the same arguments
        ss.lfilter(b, a, cp.asnumpy(x), **{k: cp.asnumpy(v) if k == "zi" else v for k, v in kwargs.items()})


def test_steady_states():
    """lfilter_zi and sosfilt_zi: SciPy's host computations (the same NumPy operations and solver)."""
    for b, a in [FILTERS["butter4"], FILTERS["long_b_a0"], ([1.0, 2j], [1.0, 0.5])]:
        zi = sig.lfilter_zi(cp.asarray(b), cp.asarray(a))
        assert_close(zi, ss.lfilter_zi(b, a), STEADY)
        x = data(60, "float64")
        expected = ss.lfilter(b, a, x, zi=ss.lfilter_zi(b, a) * x[0])
        assert_close(sig.lfilter(b, a, cp.asarray(x), zi=zi * x[0]), expected, STEADY)
    sos = ss.cheby2(6, 40, [0.2, 0.4], "bandstop", output="sos")
    assert_close(sig.sosfilt_zi(cp.asarray(sos)), ss.sosfilt_zi(sos), STEADY)
    assert_close(sig.sosfilt_zi(sos.astype(np.float32)), ss.sosfilt_zi(sos.astype(np.float32)), STEADY)


@pytest.mark.parametrize(
    "b,a,y,x",
    [
        ([1.0, 2.0], [1.0, 0.5], [1.0], None),
        ([1, 2], [1, 0.5], [1], [2]),
        (np.float32([1, 2]), np.float32([1, 0.5]), np.float32([1]), np.float32([2])),
        ([1.0, 2, 3], [2, 0.5], [1.0, 2, 3, 4], [1.0, 2, 3]),
        ([1.0, 2, 3], [1.0], [1.0], [4.0, 5.0]),
        ([1.0, 2j], [1, 0.5, 0.25], [1.0 + 1j], [1.0, 2.0, 3.0]),
        (*ss.butter(5, 0.3), [1.0, -1, 2, 0.5, 3, 9, 9], [0.3, 0.2]),
    ],
)
def test_lfiltic_matches_scipy(b, a, y, x):
    y, x = np.asarray(y), None if x is None else np.asarray(x)
    got = sig.lfiltic(b, a, cp.asarray(y), None if x is None else cp.asarray(x))
    assert_close(got, ss.lfiltic(b, a, y, x))


def test_lfiltic_along_an_axis_and_errors():
    b, a = ss.butter(3, 0.3)
    y, x = data((4, 5), "float64"), data((2, 5), "float64", 1)
    expected = np.stack([ss.lfiltic(b, a, y[:, j], x[:, j]) for j in range(5)], axis=1)
    assert_close(sig.lfiltic(b, a, cp.asarray(y), cp.asarray(x), axis=0), expected)
    with pytest.raises(ValueError, match="First `a` filter coefficient must be non-zero."):
        sig.lfiltic([1.0], [0.0, 1.0], cp.ones(2))
    with pytest.raises(ValueError, match="There must be at least one `a` coefficient."):
        sig.lfiltic([1.0], [], cp.ones(2))
    with pytest.raises(ValueError, match="Filter coefficients `a` must be 1-D."):
        sig.lfiltic([1.0], [[1.0]], cp.ones(2))


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
    zshape = [len(sos), *shape]
    zshape[axis % len(shape) + 1] = 2
    zi = data(zshape, "float32", 1)
    expected = ss.sosfilt(sos, x, axis=axis, zi=zi)
    assert_close(sig.sosfilt(sos, cp.asarray(x), axis=axis, zi=cp.asarray(zi)), expected, EXACT)


def test_sosfilt_layouts_chunks_and_long_signal():
    sos = SOS["cheby2_stop"]
    x = data((5, 120), "float64")
    d = cp.asarray(x)
    assert_close(sig.sosfilt(sos, d[:, ::-2]), ss.sosfilt(sos, x[:, ::-2]), EXACT)
    assert_close(sig.sosfilt(sos, d.T, axis=0), ss.sosfilt(sos, x.T, axis=0), EXACT)
    zi = cp.asarray(ss.sosfilt_zi(sos)[:, None, :] * x[:, :1])
    whole, zf = sig.sosfilt(sos, d, zi=zi)
    first, state = sig.sosfilt(sos, d[:, :50], zi=zi)
    rest, state = sig.sosfilt(sos, d[:, 50:], zi=state)
    np.testing.assert_array_equal(cp.asnumpy(cp.concatenate((first, rest), axis=1)), cp.asnumpy(whole))
    np.testing.assert_array_equal(cp.asnumpy(state), cp.asnumpy(zf))
    assert_close((whole, zf), ss.sosfilt(sos, x, zi=cp.asnumpy(zi)), EXACT)
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
    with pytest.raises(ValueError, match=r"zi must have shape \(2, 3, 2\), got \(2, 3, 4\)"):
        sig.sosfilt(sos, x, zi=cp.zeros((2, 3, 4)))
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
