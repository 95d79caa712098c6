"""nanquantile and nanpercentile against NumPy: every method, axes, keepdims, all-NaN and empty slices, q as a
scalar or an array, integer inputs, and NumPy's errors."""

import warnings

import cuarray as cp
import numpy as np
import pytest
from conftest import make_data
from cuarray import testing

gpu = pytest.mark.gpu
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


def _with_nans(dtype, shape=(3, 4, 5)):
    a = make_data(shape, dtype)
    if a.dtype.kind == "f":
        a[a > 12] = np.nan
        a[0, 1, :] = np.nan  # an all-NaN slice along the last axis
    return a


@gpu
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_nanquantile_methods(xp, method, axis):
    a = xp.asarray(_with_nans(np.float64))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return xp.nanquantile(a, [0.0, 0.3, 0.5, 1.0], axis=axis, method=method)


@gpu
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32", "uint8"])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("q", [50, 12.5, [5, 95], np.array([[10.0, 90.0]])])
@testing.numpy_cuarray_allclose(rtol={"float16": 1e-3, "default": 1e-6})
def test_nanpercentile(xp, dtype, keepdims, q):
    a = xp.asarray(_with_nans(dtype))[:, ::-1]  # not contiguous
    if isinstance(q, np.ndarray) and q.ndim == 2:
        q = q[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return xp.nanpercentile(a, q, axis=1, keepdims=keepdims)


@gpu
@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0), (1,), (1, 1)])
@testing.numpy_cuarray_allclose()
def test_nanquantile_empty_and_size_one(xp, shape):
    a = xp.asarray(np.full(shape, 2.5))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return xp.nanquantile(a, 0.25, axis=-1)


@gpu
def test_nanquantile_warns_for_all_nan_slices():
    a = cp.asarray([[np.nan, np.nan], [1.0, 3.0]])
    with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
        got = cp.nanquantile(a, 0.5, axis=1)
    np.testing.assert_array_equal(got.get(), [np.nan, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cp.nanquantile(cp.asarray([1.0, np.nan, 3.0]), 0.5)  # no all-NaN slice: no warning
    out = cp.empty(2)
    with pytest.warns(RuntimeWarning):
        assert cp.nanpercentile(a, 50, axis=1, out=out) is out
    np.testing.assert_array_equal(out.get(), [np.nan, 2.0])


@gpu
def test_nanquantile_errors():
    a = cp.asarray([1.0, 2.0])
    with pytest.raises(ValueError, match=r"Quantiles must be in the range \[0, 1\]"):
        cp.nanquantile(a, 1.5)
    with pytest.raises(ValueError, match=r"Percentiles must be in the range \[0, 100\]"):
        cp.nanpercentile(a, -1)
    with pytest.raises(TypeError, match="real numbers"):
        cp.nanquantile(cp.asarray([1j]), 0.5)
    with pytest.raises(ValueError, match="not a valid method"):
        cp.nanquantile(a, 0.5, method="fast")


def test_host_arrays_are_refused_before_the_device():
    with pytest.raises(TypeError):
        cp.nanquantile(np.ones(3), 0.5)
    with pytest.raises(TypeError):
        cp.nanpercentile(np.ones(3), 50)


# ---- weights (method inverted_cdf): NumPy drops each slice's NaNs with their weights ----

WEIGHTED = [
    (
        np.array([[1.0, np.nan, 3.0, 2.0], [np.nan] * 4, [5.0, 4.0, np.nan, np.nan]]),
        [[1, 2, 0, 1], [1, 1, 1, 1], [0, 3, 1, 1]],
        1,
    ),
    (np.array([[np.nan, 2.0, 1.0], [3.0, np.nan, -1.0]]), [[1, 1, 2], [2, 2, 0]], 0),
    (np.array([0.5, np.nan, -0.0, 7.0, np.nan], np.float32), [1, 5, 2, 0, 1], None),
]


@gpu
@pytest.mark.parametrize("case", range(len(WEIGHTED)))
@pytest.mark.parametrize("q", [0.0, 0.3, 0.5, 1.0, [0.0, 0.25, 1.0]], ids=repr)
@pytest.mark.parametrize("func, scale", [("nanquantile", 1), ("nanpercentile", 100)])
def test_weighted_nanquantile_as_numpy(case, q, func, scale):
    a, w, axis = WEIGHTED[case]
    w = np.asarray(w, np.float64)
    qq = np.multiply(q, scale)
    with warnings.catch_warnings(record=True) as want_warnings:
        warnings.simplefilter("always")
        want = getattr(np, func)(a, qq, axis=axis, weights=w, method="inverted_cdf")
    with warnings.catch_warnings(record=True) as got_warnings:
        warnings.simplefilter("always")
        got = getattr(cp, func)(cp.asarray(a), qq, axis=axis, weights=cp.asarray(w), method="inverted_cdf")
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.get(), want)
    assert [x.category for x in got_warnings] == [x.category for x in want_warnings]


@gpu
def test_weighted_nanquantile_errors_as_numpy():
    a = np.array([[1.0, np.nan], [2.0, 3.0]])
    for w, method in (([[1.0, 1.0], [-1.0, 1.0]], "inverted_cdf"), ([[1.0, 1.0], [1.0, 1.0]], "linear")):
        with pytest.raises(ValueError) as want:
            np.nanquantile(a, 0.5, axis=1, weights=np.array(w), method=method)
        with pytest.raises(ValueError) as got:
            cp.nanquantile(cp.asarray(a), 0.5, axis=1, weights=cp.asarray(np.array(w)), method=method)
        assert str(got.value) == str(want.value)
    # the numbers of a slice all weigh nothing
    with pytest.raises(ValueError, match="Weights included NaN, inf or were all zero"):
        np.nanquantile(a, 0.5, axis=1, weights=np.array([[0.0, 1.0], [1.0, 1.0]]), method="inverted_cdf")
    with pytest.raises(ValueError, match="Weights included NaN, inf or were all zero"):
        cp.nanquantile(
            cp.asarray(a),
            0.5,
            axis=1,
            weights=cp.asarray(np.array([[0.0, 1.0], [1.0, 1.0]])),
            method="inverted_cdf",
        )
