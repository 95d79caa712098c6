"""gradient and trapezoid against NumPy: dtypes, layouts, spacings, edge orders, axes, NumPy's errors."""

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, assert_same, dtype_id, make_data, make_pair

pytestmark = pytest.mark.gpu

NUMERIC = [d for d in ALL_DTYPES if d.kind != "b"]
_RTOL = {"e": 2e-3, "f": 1e-5, "d": 1e-12, "F": 1e-5, "D": 1e-12}


def _check(got, want):
    __tracebackhide__ = True
    if isinstance(want, (tuple, list)):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _check(g, w)
        return
    want = np.asarray(want)
    assert_same(got, want, rtol=_RTOL.get(want.dtype.char), atol=1e-3 if want.dtype.char == "e" else 1e-12)


def _coords(n, seed=0):
    return np.cumsum(np.random.default_rng(seed).uniform(0.25, 2.0, n))


# ------------------------------------------------------------------------------------------------ gradient


@pytest.mark.parametrize("dtype", NUMERIC, ids=dtype_id)
@pytest.mark.parametrize("layout", ["c2d", "f2d", "strided", "negative", "1d", "1d_negative", "3d_permuted"])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_dtypes_and_layouts(dtype, layout, edge_order):
    x, a = make_pair(layout, dtype)
    if min(a.shape) <= edge_order:  # an axis too short: NumPy's error
        with pytest.raises(ValueError, match="too small"):
            cp.gradient(x, edge_order=edge_order)
        return
    _check(cp.gradient(x, edge_order=edge_order), np.gradient(a, edge_order=edge_order))


@pytest.mark.parametrize("spacing", [2.0, 3, np.float32(0.5), np.float64(0.25), -1.5])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int16", "complex64"])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_scalar_spacing(spacing, dtype, edge_order):
    a = make_data((5, 6), dtype, seed=1)
    _check(
        cp.gradient(cp.asarray(a), spacing, edge_order=edge_order),
        np.gradient(a, spacing, edge_order=edge_order),
    )
    _check(
        cp.gradient(cp.asarray(a), spacing, 1.0, edge_order=edge_order),
        np.gradient(a, spacing, 1.0, edge_order=edge_order),
    )


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int64", "uint8"])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_coordinates(dtype, edge_order):
    a = make_data((5, 6, 4), dtype, seed=2)
    x0, x1 = _coords(5), np.arange(6) * 0.5  # uneven, even
    x2 = np.array([0, 1, 3, 4])  # integer coordinates
    got = cp.gradient(cp.asarray(a), cp.asarray(x0), cp.asarray(x1), cp.asarray(x2), edge_order=edge_order)
    _check(got, np.gradient(a, x0, x1, x2, edge_order=edge_order))
    # Coordinates as lists, a scalar among them, and float32 coordinates.
    got = cp.gradient(cp.asarray(a), list(x0), 2.0, cp.asarray(x2.astype(np.float32)), edge_order=edge_order)
    _check(got, np.gradient(a, list(x0), 2.0, x2.astype(np.float32), edge_order=edge_order))


@pytest.mark.parametrize("axis", [0, -1, 1, (0, 2), (2, 0), (-1,)])
def test_gradient_axis(axis):
    a = make_data((4, 5, 6), np.float64, seed=3)
    x = cp.asarray(a)
    _check(cp.gradient(x, axis=axis), np.gradient(a, axis=axis))
    axes = (axis,) if isinstance(axis, int) else axis
    spacings = [_coords(a.shape[ax], seed=ax % 3) for ax in axes]
    _check(
        cp.gradient(x, *[cp.asarray(s) for s in spacings], axis=axis, edge_order=2),
        np.gradient(a, *spacings, axis=axis, edge_order=2),
    )


def test_gradient_device_scalar_spacing_and_bool():
    a = make_data((7,), np.float32, seed=4)
    _check(cp.gradient(cp.asarray(a), cp.asarray(np.float64(0.5))), np.gradient(a, np.array(0.5)))
    b = np.array([True, False, True, True])
    x = np.array([0.0, 1.0, 3.0, 4.0])
    _check(cp.gradient(cp.asarray(b), cp.asarray(x), edge_order=2), np.gradient(b, x, edge_order=2))
    with pytest.raises(TypeError, match="boolean subtract"):
        cp.gradient(cp.asarray(b))


def test_gradient_small_and_zero_size():
    _check(cp.gradient(cp.asarray([1.0, 4.0])), np.gradient([1.0, 4.0]))
    _check(cp.gradient(cp.asarray([1.0, 4.0, 2.0]), edge_order=2), np.gradient([1.0, 4.0, 2.0], edge_order=2))
    a = np.zeros((0, 3))
    _check(cp.gradient(cp.asarray(a), axis=1), np.gradient(a, axis=1))
    assert cp.gradient(cp.asarray(3.0)) == np.gradient(np.asarray(3.0)) == ()


def _same_error(call):
    __tracebackhide__ = True
    with pytest.raises(Exception) as want:
        call(np, lambda v: v)
    with pytest.raises(want.type) as got:
        call(cp, lambda v: cp.asarray(v) if isinstance(v, np.ndarray) else v)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda xp, d: xp.gradient(d(np.ones((3, 4))), 1.0, 2.0, 3.0),
        lambda xp, d: xp.gradient(d(np.ones((1, 4)))),
        lambda xp, d: xp.gradient(d(np.ones((2, 4))), edge_order=2),
        lambda xp, d: xp.gradient(d(np.ones((3, 4))), edge_order=3),
        lambda xp, d: xp.gradient(d(np.ones((3, 4))), d(np.ones((3, 2))), axis=0),
        lambda xp, d: xp.gradient(d(np.ones((3, 4))), d(np.ones(4)), axis=0),
        lambda xp, d: xp.gradient(d(np.ones((3, 4))), axis=2),
        lambda xp, d: xp.gradient(d(np.ones((3, 4))), axis=(0, 0)),
    ],
    ids=["arguments", "too_small", "too_small_2", "edge_order", "2d_distances", "length", "axis", "repeated"],
)
def test_gradient_errors(call):
    _same_error(call)


def test_gradient_numpy_input_raises():
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.gradient(np.ones(3))
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.gradient(cp.ones(3), np.arange(3.0))


# ------------------------------------------------------------------------------------------------ trapezoid


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", ["c2d", "f2d", "negative", "1d", "1d_negative", "3d_permuted", "empty"])
def test_trapezoid_dtypes_and_layouts(dtype, layout):
    x, a = make_pair(layout, dtype)
    _check(cp.trapezoid(x), np.trapezoid(a))
    _check(cp.trapezoid(x, axis=0), np.trapezoid(a, axis=0))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_trapezoid_sample_points(dtype, axis):
    a = make_data((5, 6, 4), dtype, seed=5)
    y = cp.asarray(a)
    pts = _coords(a.shape[axis])
    _check(cp.trapezoid(y, cp.asarray(pts), axis=axis), np.trapezoid(a, pts, axis=axis))
    _check(cp.trapezoid(y, list(pts), axis=axis), np.trapezoid(a, pts, axis=axis))
    full = make_data(a.shape, np.int64, seed=6)  # x shaped like y
    _check(cp.trapezoid(y, cp.asarray(full), axis=axis), np.trapezoid(a, full, axis=axis))
    for dx in (0.5, 2, np.float32(0.25)):
        _check(cp.trapezoid(y, dx=dx, axis=axis), np.trapezoid(a, dx=dx, axis=axis))


def test_trapezoid_values_and_errors():
    _check(cp.trapezoid([1, 2, 3]), np.trapezoid([1, 2, 3]))
    _check(
        cp.trapezoid(cp.asarray([1.0, 2.0, 3.0]), x=cp.asarray([4, 6, 8])),
        np.trapezoid([1.0, 2.0, 3.0], [4, 6, 8]),
    )
    a = make_data((3, 4), np.float64)
    dx = np.arange(1.0, 4.0)
    _check(cp.trapezoid(cp.asarray(a), dx=cp.asarray(dx)), np.trapezoid(a, dx=dx))
    with pytest.raises(IndexError):
        cp.trapezoid(cp.asarray(2.0))
    with pytest.raises(IndexError):
        cp.trapezoid(cp.asarray(a), axis=2)
    with pytest.raises(ValueError):
        cp.trapezoid(cp.asarray(a), x=cp.arange(5.0))
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.trapezoid(a)
