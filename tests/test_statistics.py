"""median, nanmedian, quantile, percentile, cov and corrcoef against NumPy: dtypes, axes, keepdims, NaNs, every
quantile method, weights, NumPy's errors."""

import warnings

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same, make_data
from cuarray import testing

pytestmark = pytest.mark.gpu

AXES = [None, 0, -1, (0, 2), (2, 0, 1)]
METHODS = [
    "inverted_cdf",
    "averaged_inverted_cdf",
    "closest_observation",
    "interpolated_inverted_cdf",
    "hazen",
    "weibull",
    "linear",
    "median_unbiased",
    "normal_unbiased",
    "lower",
    "higher",
    "midpoint",
    "nearest",
]


def _close(got, want, rtol=1e-12):
    __tracebackhide__ = True
    want = np.asarray(want)
    assert isinstance(got, cp.ndarray) and got.dtype == want.dtype and got.shape == want.shape, (
        f"{got.dtype}{got.shape} != {want.dtype}{want.shape}"
    )
    np.testing.assert_allclose(got.get(), want, rtol=rtol, atol=0, equal_nan=True)


@pytest.mark.parametrize("dtype", ["int16", "uint8", "float16", "float32", "float64"])
@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("shape", [(3, 4, 5), (2, 3, 4)])
def test_median(dtype, axis, keepdims, shape):
    a = make_data(shape, dtype)
    x = cp.asarray(a)[::-1]
    _close(
        cp.median(x, axis=axis, keepdims=keepdims),
        np.median(a[::-1], axis=axis, keepdims=keepdims),
        1e-3 if dtype == "float16" else 1e-6,
    )


def test_median_with_nans_zero_d_and_empty():
    a = make_data((4, 5), np.float64)
    a[1, 2] = np.nan
    x = cp.asarray(a)
    for axis in (None, 0, 1):
        _close(cp.median(x, axis=axis), np.median(a, axis=axis))
    _close(cp.median(cp.asarray(2.5)), np.median(2.5))
    e = np.zeros((0, 3))
    with pytest.warns(RuntimeWarning):
        got = cp.median(cp.asarray(e), axis=0)
    with pytest.warns(RuntimeWarning):
        want = np.median(e, axis=0)
    _close(got, want)
    out = cp.empty(5)
    assert cp.median(x, axis=0, out=out) is out
    _close(out, np.median(a, axis=0))
    assert_same(np.median(x, axis=1), np.median(a, axis=1))  # NumPy's function on a device array


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_nanmedian(dtype, axis, keepdims):
    a = make_data((3, 4, 5), dtype)
    a[a > 15] = np.nan
    a[0, 0, :] = np.nan  # all-NaN along the last axis
    x = cp.asarray(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN slices warn (checked below)
        want = np.nanmedian(a, axis=axis, keepdims=keepdims)
        got = cp.nanmedian(x, axis=axis, keepdims=keepdims)
    _close(got, want, 1e-6)


def test_nanmedian_warns_for_all_nan_slices_and_takes_integers():
    a = np.array([[np.nan, np.nan], [1.0, 2.0]])
    with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
        got = cp.nanmedian(cp.asarray(a), axis=1)
    _close(got, np.array([np.nan, 1.5]))
    b = make_data((3, 4), np.int32)
    _close(cp.nanmedian(cp.asarray(b), axis=0), np.nanmedian(b, axis=0))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(
    "q", [0.5, 0.0, 1.0, [0.1, 0.25, 0.9], np.float32(0.3), np.array([[0.2, 0.7]])], ids=str
)
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
def test_quantile_methods(method, q, dtype):
    a = make_data((4, 7), dtype)
    x = cp.asarray(a)
    for axis in (None, 1, 0):
        _close(cp.quantile(x, q, axis=axis, method=method), np.quantile(a, q, axis=axis, method=method), 1e-6)


@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_quantile_axes_and_keepdims(axis, keepdims):
    a = make_data((3, 4, 5), np.float64)
    q = [0.2, 0.5, 0.95]
    _close(
        cp.quantile(cp.asarray(a), q, axis=axis, keepdims=keepdims),
        np.quantile(a, q, axis=axis, keepdims=keepdims),
    )
    _close(
        cp.percentile(cp.asarray(a), 40, axis=axis, keepdims=keepdims),
        np.percentile(a, 40, axis=axis, keepdims=keepdims),
    )


def test_quantile_integer_q_keeps_the_dtype_and_nans_propagate():
    a = make_data((5, 6), np.int64)
    _close(cp.quantile(cp.asarray(a), 1, axis=0), np.quantile(a, 1, axis=0))
    _close(cp.quantile(cp.asarray(a), [0, 1]), np.quantile(a, [0, 1]))
    f = make_data((5, 6), np.float32)
    f[2, 3] = np.nan
    for method in ("linear", "lower", "nearest"):
        _close(
            cp.quantile(cp.asarray(f), 0.4, axis=0, method=method), np.quantile(f, 0.4, axis=0, method=method)
        )
    _close(cp.percentile(cp.asarray(f), [10, 90], axis=1), np.percentile(f, [10, 90], axis=1), 1e-6)
    _close(
        cp.percentile(cp.asarray(f), cp.asarray([10.0, 90.0])), np.percentile(f, np.array([10.0, 90.0])), 1e-6
    )


def test_quantile_out():
    a = make_data((5, 6), np.float64)
    out = cp.empty((2, 6))
    assert cp.quantile(cp.asarray(a), [0.1, 0.6], axis=0, out=out) is out
    _close(out, np.quantile(a, [0.1, 0.6], axis=0))


def _same_error(call):
    __tracebackhide__ = True
    with pytest.raises(Exception) as want:
        call(np, np.arange(6.0))
    with pytest.raises(want.type) as got:
        call(cp, cp.arange(6.0))
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda xp, a: xp.quantile(a, 1.5),
        lambda xp, a: xp.quantile(a, [-0.1, 0.5]),
        lambda xp, a: xp.percentile(a, 101),
        lambda xp, a: xp.quantile(a, 0.5, method="nope"),
        lambda xp, a: xp.quantile(a, [[[0.5]]]),
        lambda xp, a: xp.quantile(a[:0], 0.5),
        lambda xp, a: xp.quantile(a.astype(complex), 0.5),
        lambda xp, a: xp.median(a, axis=1),
    ],
)
def test_order_statistic_errors_are_numpys(call):
    _same_error(call)


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex128"])
@pytest.mark.parametrize("rowvar", [True, False])
@pytest.mark.parametrize("bias,ddof", [(False, None), (True, None), (False, 0), (False, 3)])
def test_cov(dtype, rowvar, bias, ddof):
    m = make_data((3, 8), dtype)
    y = make_data((2, 8), dtype, seed=1)
    if not rowvar:
        m, y = m.T.copy(), y.T.copy()
    x = cp.asarray(m)
    _close(
        cp.cov(x, rowvar=rowvar, bias=bias, ddof=ddof), np.cov(m, rowvar=rowvar, bias=bias, ddof=ddof), 1e-5
    )
    _close(
        cp.cov(x, cp.asarray(y), rowvar=rowvar, bias=bias, ddof=ddof),
        np.cov(m, y, rowvar=rowvar, bias=bias, ddof=ddof),
        1e-5,
    )
    _close(cp.corrcoef(x, rowvar=rowvar), np.corrcoef(m, rowvar=rowvar), 1e-5)


def test_cov_weights_and_shapes():
    m = make_data((3, 6), np.float64)
    f = np.array([1, 2, 0, 3, 1, 1])
    w = np.array([0.5, 1.0, 2.0, 0.25, 1.0, 3.0])
    x = cp.asarray(m)
    _close(cp.cov(x, fweights=cp.asarray(f)), np.cov(m, fweights=f))
    _close(cp.cov(x, aweights=w), np.cov(m, aweights=w))
    _close(cp.cov(x, fweights=f, aweights=cp.asarray(w), ddof=2), np.cov(m, fweights=f, aweights=w, ddof=2))
    v = m[0]
    _close(cp.cov(cp.asarray(v)), np.cov(v))  # one variable: a 0-d variance
    _close(cp.corrcoef(cp.asarray(v)), np.corrcoef(v))
    _close(cp.cov(cp.asarray(v), cp.asarray(m[1])), np.cov(v, m[1]))
    _close(cp.cov(x, dtype=np.float32), np.cov(m, dtype=np.float32), 1e-5)
    assert cp.cov(cp.zeros((0, 3))).shape == (0, 0)
    with pytest.warns(RuntimeWarning, match="Degrees of freedom <= 0"):
        got = cp.cov(cp.asarray(m[:, :1]))
    with pytest.warns(RuntimeWarning):
        want = np.cov(m[:, :1])
    _close(got, want)


@pytest.mark.parametrize(
    "call",
    [
        lambda xp, a: xp.cov(a, ddof=1.5),
        lambda xp, a: xp.cov(a.reshape(1, 2, 3)),
        lambda xp, a: xp.cov(a, a.reshape(1, 2, 3)),
        lambda xp, a: xp.cov(a, fweights=[1, 2]),
        lambda xp, a: xp.cov(a, fweights=[1.5, 1, 1, 1, 1, 1]),
        lambda xp, a: xp.cov(a, fweights=[-1, 1, 1, 1, 1, 1]),
        lambda xp, a: xp.cov(a, aweights=[[1, 1, 1, 1, 1, 1]]),
        lambda xp, a: xp.cov(a, aweights=[-1, 1, 1, 1, 1, 1]),
    ],
)
def test_cov_errors_are_numpys(call):
    _same_error(call)


# ---------------------------------------------------------------- layout of results, overwrite_input


@pytest.mark.parametrize("func", ["quantile", "percentile"])
@pytest.mark.parametrize(
    "shape, axis, keepdims",
    [
        ((4, 3, 10, 2, 8), -1, False),
        ((1, 6, 3, 2), (0, 1, 2), False),
        ((3, 4, 5), 1, True),
        ((3, 4), None, True),
    ],
    ids=str,
)
@pytest.mark.parametrize("method", ["linear", "lower", "nearest"])
@testing.for_dtypes([np.int32, np.float32, np.float64])
@testing.numpy_cuarray_allclose(rtol=1e-6)  # contiguous_check: NumPy's result is C-contiguous
def test_quantile_result_is_c_contiguous(xp, func, shape, axis, keepdims, method, dtype):
    a = xp.asarray(make_data(shape, dtype))
    q = [10.0, 50.0, 90.0] if func == "percentile" else [0.1, 0.5, 0.9]
    return getattr(xp, func)(a, q, axis=axis, method=method, keepdims=keepdims)


@pytest.mark.parametrize("func", ["quantile", "percentile", "median"])
@pytest.mark.parametrize("axis", [-1, (0, 1), None])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_overwrite_input_reorders_the_input(xp, func, axis):
    """NumPy partitions and CuPy sorts the input in place (Note [overwrite_input] in cuarray/_statistics.py):
    the input is modified, the result is the same as without overwrite_input."""
    a = xp.asarray(make_data((10, 2, 3, 2), np.float64, 7))
    before = a.copy()
    args = () if func == "median" else ([0.1, 0.5, 0.9] if func == "quantile" else [10.0, 50.0, 90.0],)
    res = getattr(xp, func)(a, *args, axis=axis, overwrite_input=True)
    assert not bool(xp.all(a == before))
    assert bool(xp.all(xp.sort(a.ravel()) == xp.sort(before.ravel())))  # the same values, reordered
    return res


def test_overwrite_input_false_keeps_the_input():
    a = cp.asarray(make_data((10, 2, 3, 2), np.float64, 7))
    before = a.get()
    cp.percentile(a, [10.0, 50.0], axis=-1)
    cp.median(a, axis=(0, 1))
    np.testing.assert_array_equal(a.get(), before)


def test_overwrite_input_leaves_broadcast_input():
    a = cp.broadcast_to(cp.asarray(make_data((1, 5), np.float64, 8)), (4, 5))
    r = cp.quantile(a, 0.5, axis=-1, overwrite_input=True)
    assert_same(r, np.quantile(np.broadcast_to(make_data((1, 5), np.float64, 8), (4, 5)), 0.5, axis=-1))


@pytest.mark.parametrize("func", ["cov", "corrcoef"])
@testing.for_dtypes([np.int8, np.uint8, np.int64, np.bool_])
@testing.numpy_cuarray_raises(accept_error=TypeError)
def test_cov_integer_dtype_cannot_hold_deviations(xp, func, dtype):
    """NumPy subtracts the means in place in dtype=: an integer or bool dtype raises its casting error."""
    a = xp.asarray(np.arange(6).reshape(2, 3).astype(dtype))
    return getattr(xp, func)(a, dtype=dtype)


@pytest.mark.parametrize("func", ["cov", "corrcoef"])
@testing.for_dtypes([np.float16, np.float32, np.complex64, np.float64])
@testing.numpy_cuarray_allclose(rtol={"float16": 1e-2, "default": 1e-5})
def test_cov_dtype_keeps_the_input(xp, func, dtype):
    a = xp.asarray(make_data((3, 5), dtype, 9))
    before = a.copy()
    r = getattr(xp, func)(a, dtype=dtype)
    assert bool(xp.all(a == before))  # the means were subtracted from a copy
    return r


# ---------------------------------------------------------------- digitize with NaN bins, empty bincount

NAN = float("nan")


@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize(
    "bins",
    [
        [NAN] * 4,
        [1.0, 2.0, NAN],
        [NAN, 2.0, 1.0],
        [2.0, NAN],
        [NAN],
        [1.0, NAN, NAN],
        [3.0, 1.0, NAN],
        [5.0, 3.0, 1.0],
    ],
    ids=str,
)
@testing.numpy_cuarray_array_equal()
def test_digitize_nan_bins(xp, right, bins):
    """NumPy's monotonicity rule: the first unequal neighbours give the direction, and a NaN is unequal to
    everything and less than nothing (all-NaN bins are decreasing)."""
    x = xp.asarray(np.arange(14, dtype=np.float32))
    x[5] = NAN
    return xp.digitize(x, xp.asarray(np.array(bins, np.float32)), right=right)


@pytest.mark.parametrize("bins", [[NAN, 1.0, 2.0], [1.0, NAN, 0.5, 2.0]], ids=str)
@testing.numpy_cuarray_raises(accept_error=ValueError)
def test_digitize_nan_bins_not_monotonic(xp, bins):
    return xp.digitize(xp.asarray([1.0, 2.0]), xp.asarray(bins))


@testing.for_dtypes([np.int32, np.float32, np.bool_, np.complex64])
@testing.numpy_cuarray_array_equal()
def test_bincount_empty_with_weights_is_int64(xp, dtype):
    """NumPy returns an empty x's counts (int64 zeros) before it looks at the weights."""
    return xp.bincount(
        xp.asarray(np.array([], np.int32)), weights=xp.asarray(np.array([], dtype)), minlength=2
    )


@testing.numpy_cuarray_array_equal()
def test_bincount_empty_ignores_the_weights_length(xp):
    return xp.bincount(xp.asarray(np.array([], np.int64)), weights=xp.asarray([1.0, 2.0]), minlength=3)


@testing.numpy_cuarray_raises()
def test_bincount_complex_weights_are_type_error(xp):
    return xp.bincount(xp.asarray([0, 2]), weights=xp.asarray([1.0, 2j]))


@pytest.mark.parametrize("bins", [2, [1.0, 2.0, 2.4, 3.0]], ids=str)
@pytest.mark.parametrize("density", [False, True])
@testing.for_complex_dtypes()
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_histogram_complex_weights(xp, bins, density, dtype):
    """NumPy bins complex weights, summing real and imaginary parts; counts keep the weights' dtype."""
    values = xp.asarray([1.3, 2.5, 2.3, 1.0])
    weights = (xp.asarray([1, -1, 2, 3]) + 1j * xp.asarray([2, 1, 2, -1])).astype(dtype)
    return xp.histogram(values, bins=bins, weights=weights, density=density)


@testing.numpy_cuarray_array_equal()
def test_bincount_weights_of_uint64_past_int64(xp):
    # NumPy converts the weights to float64 from their own type (through int64 they turned negative).
    return xp.bincount(xp.asarray([0, 0, 1]), weights=xp.asarray(np.array([2**63, 2**63 + 5, 7], np.uint64)))


@pytest.mark.parametrize(
    "call",
    [
        lambda xp: xp.bincount(xp.asarray([0, 1]), weights=xp.ones((1, 2))),
        lambda xp: xp.bincount(xp.asarray([0]), weights=xp.asarray(2.0)),
        lambda xp: xp.bincount(xp.asarray(3)),
        lambda xp: xp.histogramdd(xp.ones((3, 2)), weights=xp.ones((3, 1))),
    ],
)
def test_bincount_dimension_errors_are_numpys(call):
    with pytest.raises(ValueError) as want:
        call(np)
    with pytest.raises(ValueError) as got:
        call(cp)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("bins", [[2.0], []])
@pytest.mark.parametrize("kw", [{}, {"weights": True}, {"density": True}])
def test_histogram_with_fewer_than_two_edges_is_empty(bins, kw):
    a = np.array([1.0, 2.0, 3.0])
    if kw.get("weights"):
        kw = {"weights": np.array([1.0, 2.0, 3.0], np.float32)}
    counts, edges = np.histogram(a, bins=np.asarray(bins), **kw)
    got_counts, got_edges = cp.histogram(
        cp.asarray(a),
        bins=cp.asarray(bins),
        **{k: cp.asarray(v) if k == "weights" else v for k, v in kw.items()},
    )
    assert_same(got_counts, counts)
    assert_same(got_edges, edges)


@pytest.mark.parametrize("method", ["linear", "midpoint", "hazen", "lower", "nearest", "inverted_cdf"])
@pytest.mark.parametrize("out_dtype", [np.int64, np.bool_, np.float32])
def test_quantile_out_casting_is_numpys(method, out_dtype):
    # NumPy's quantile interpolates into out with add(out=out): float results into an integer or bool out are
    # its UFuncTypeError; the methods that pick an element, and nanquantile, assign them.
    for data in (np.array([1.0, 2.0, 3.0, 4.0]), np.arange(4)):
        for f in ("quantile", "percentile", "nanquantile"):
            q = 50 if f == "percentile" else 0.5
            out_np, out_cp = np.empty((), out_dtype), cp.empty((), out_dtype)
            try:
                getattr(np, f)(data, q, out=out_np, method=method)
            except Exception as e:  # noqa: BLE001 - its type and message are compared
                with pytest.raises(type(e)) as got:
                    getattr(cp, f)(cp.asarray(data), q, out=out_cp, method=method)
                assert str(got.value) == str(e)
                continue
            r = getattr(cp, f)(cp.asarray(data), q, out=out_cp, method=method)
            assert r is out_cp
            assert_same(out_cp, out_np)
