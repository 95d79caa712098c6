"""sinc, i0, unwrap, isposinf and isneginf against NumPy: dtypes, layouts, special values, NumPy's errors."""

import warnings

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, COMPLEX_DTYPES, FLOAT_DTYPES, assert_same, dtype_id, make_data, make_pair

pytestmark = pytest.mark.gpu

REAL_DTYPES = [d for d in ALL_DTYPES if d.kind != "c"]
_RTOL = {"e": 2e-3, "f": 2e-6, "d": 1e-13, "F": 2e-6, "D": 1e-13}
_ATOL = {"e": 1e-3, "f": 1e-6, "d": 1e-14, "F": 1e-6, "D": 1e-14}


def _tol(dtype):
    return _RTOL[np.dtype(dtype).char]


def _np(f, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*args, **kwargs)


# ------------------------------------------------------------------------------------------------ sinc


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", ["c2d", "negative", "3d_permuted", "0d", "empty"])
def test_sinc(dtype, layout):
    x, a = make_pair(layout, dtype)
    want = _np(np.sinc, a)
    assert_same(cp.sinc(x), want, rtol=_tol(want.dtype), atol=_ATOL[want.dtype.char])


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + COMPLEX_DTYPES, ids=dtype_id)
def test_sinc_at_zero_and_special_values(dtype):
    values = [0.0, -0.0, 1.0, 0.5, -2.5, 1e-30] + (
        [np.inf, -np.inf, np.nan] if np.dtype(dtype).kind == "f" else []
    )
    a = np.array(values, dtype=dtype)
    assert_same(cp.sinc(cp.asarray(a)), _np(np.sinc, a), rtol=_tol(dtype), atol=_ATOL[np.dtype(dtype).char])
    assert_same(cp.sinc(0), np.asarray(np.sinc(0)))
    assert_same(cp.sinc([0.25, 1]), np.sinc([0.25, 1]))


# ------------------------------------------------------------------------------------------------ i0


@pytest.mark.parametrize("dtype", REAL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", ["c2d", "f2d", "negative", "1d_negative", "0d", "empty_strided"])
def test_i0(dtype, layout):
    x, a = make_pair(layout, dtype)
    if np.dtype(dtype).kind == "f":  # values past float16's exp overflow stay where NumPy's are finite
        a = a / 4
        x = x / 4
    want = _np(np.i0, a)
    assert_same(cp.i0(x), want, rtol=5e-3 if want.dtype == np.float16 else _tol(want.dtype) * 5)


def test_i0_values_dtypes_and_special_values():
    a = np.array(
        [
            0.0,
            1e-300,
            0.5,
            -3.0,
            7.99,
            8.0,
            8.01,
            20.0,
            -150.0,
            700.0,
            709.0,
            709.9,
            1e4,
            np.inf,
            -np.inf,
            np.nan,
        ]
    )
    assert_same(cp.i0(cp.asarray(a)), _np(np.i0, a), rtol=1e-13)
    b = np.array([0.0, -2.5, 8.0, 30.0, 85.0, 89.0, np.inf, np.nan], np.float32)
    assert_same(cp.i0(cp.asarray(b)), _np(np.i0, b), rtol=1e-5)
    c = np.array([0.0, 1.0, 5.0, -10.0, 12.0, np.inf], np.float16)
    assert_same(cp.i0(cp.asarray(c)), _np(np.i0, c), rtol=3e-3)
    assert_same(cp.i0(3), np.asarray(np.i0(3)))
    assert_same(cp.i0([0, 1, 2]), np.i0([0, 1, 2]))
    assert_same(cp.i0(True), np.asarray(np.i0(True)))


@pytest.mark.parametrize("dtype", COMPLEX_DTYPES, ids=dtype_id)
def test_i0_complex_raises(dtype):
    with pytest.raises(TypeError, match="complex"):
        cp.i0(cp.ones(3, dtype))


# ------------------------------------------------------------------------------------------------ unwrap


def _phases(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    return np.cumsum(rng.uniform(-5, 5, size=shape), axis=-1).astype(dtype)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("axis", [-1, 0, 1])
@pytest.mark.parametrize("discont", [None, 1.0, 5.0])
def test_unwrap(dtype, axis, discont):
    a = _phases((5, 9), dtype)
    want = np.unwrap(a, discont=discont, axis=axis)
    assert_same(cp.unwrap(cp.asarray(a), discont=discont, axis=axis), want, rtol=_tol(dtype), atol=1e-5)


@pytest.mark.parametrize("period", [2 * np.pi, 360, 6.0, np.float32(7.5), 5])
def test_unwrap_periods_and_strides(period):
    base = _phases((6, 12), np.float64, seed=3) * 40
    a = base[::-2, 1::3]
    x = cp.asarray(base)[::-2, 1::3]
    assert_same(cp.unwrap(x, period=period, axis=0), np.unwrap(a, period=period, axis=0))
    f32 = base.astype(np.float32)[:, ::-1]
    assert_same(
        cp.unwrap(cp.asarray(f32), period=period), np.unwrap(f32, period=period), rtol=2e-6, atol=1e-4
    )


@pytest.mark.parametrize("dtype", ["int8", "int16", "int64", "uint8", "bool"])
@pytest.mark.parametrize("period", [None, 6, 7, 255, 2.5])
def test_unwrap_integers(dtype, period):
    a = make_data((4, 11), dtype, seed=2)
    kwargs = {} if period is None else {"period": period}
    try:
        want = _np(np.unwrap, a, **kwargs)
    except OverflowError:  # a Python int period (or its half) out of the dtype's range
        with pytest.raises(OverflowError):
            cp.unwrap(cp.asarray(a), **kwargs)
        return
    assert_same(cp.unwrap(cp.asarray(a), **kwargs), want)


def test_unwrap_boundaries_lists_and_errors():
    # Steps of exactly +-period/2 keep their sign.
    a = np.array([0.0, np.pi, 0.0, -np.pi, 0.0, 3 * np.pi, 0.5, 0.5 + 4 * np.pi])
    assert_same(cp.unwrap(cp.asarray(a)), np.unwrap(a))
    i = np.array([0, 3, 0, -3, 0, 9, 1], np.int64)
    assert_same(cp.unwrap(cp.asarray(i), period=6), np.unwrap(i, period=6))
    assert_same(cp.unwrap([0.0, 4.0, 8.0]), np.unwrap([0.0, 4.0, 8.0]))
    assert_same(cp.unwrap(cp.zeros((0, 3)), axis=0), np.unwrap(np.zeros((0, 3)), axis=0))
    with pytest.raises(ValueError, match="at least one dimensional"):
        cp.unwrap(cp.asarray(1.0))
    with pytest.raises(np.exceptions.AxisError):
        cp.unwrap(cp.zeros((2, 3)), axis=2)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.unwrap(np.zeros(3))


# ------------------------------------------------------------------------------------------------ isposinf


@pytest.mark.parametrize("name", ["isposinf", "isneginf"])
@pytest.mark.parametrize("dtype", REAL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", ["c2d", "negative", "0d", "empty"])
def test_isposinf_isneginf(name, dtype, layout):
    x, a = make_pair(layout, dtype)
    if np.dtype(dtype).kind == "f" and a.size:
        a = a.copy()
        a.flat[0], a.flat[-1] = np.inf, -np.inf
        if a.size > 2:
            a.flat[1] = np.nan
        x = cp.asarray(a)
    assert_same(getattr(cp, name)(x), getattr(np, name)(a))


@pytest.mark.parametrize("name", ["isposinf", "isneginf"])
def test_isposinf_isneginf_out_and_scalars(name):
    a = np.array([np.inf, -np.inf, 1.0, np.nan, -0.0])
    out = cp.zeros(5, np.int64)
    res = getattr(cp, name)(cp.asarray(a), out)
    assert res is out
    assert_same(out, getattr(np, name)(a, np.zeros(5, np.int64)))
    assert_same(getattr(cp, name)(-np.inf), np.asarray(getattr(np, name)(-np.inf)))
    assert_same(getattr(cp, name)([np.inf, -np.inf]), getattr(np, name)([np.inf, -np.inf]))


@pytest.mark.parametrize("name", ["isposinf", "isneginf"])
@pytest.mark.parametrize("dtype", COMPLEX_DTYPES, ids=dtype_id)
def test_isposinf_isneginf_complex_raise(name, dtype):
    with pytest.raises(TypeError) as want:
        getattr(np, name)(np.ones(2, dtype))
    with pytest.raises(TypeError) as got:
        getattr(cp, name)(cp.ones(2, dtype))
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("name", ["sinc", "i0", "isposinf", "isneginf"])
def test_numpy_input_raises(name):
    with pytest.raises(TypeError, match="numpy.ndarray"):
        getattr(cp, name)(np.ones(3))
