"""Set operations (isin, intersect1d, union1d, setdiff1d, setxor1d), ediff1d, trim_zeros and unique with an
axis, against NumPy."""

import cuarray as cp
import numpy as np
import pytest
from conftest import (
    ALL_DTYPES,
    NONEMPTY_LAYOUTS,
    SOME_DTYPES,
    assert_same,
    assert_write_through,
    dtype_id,
    make_pair,
)

pytestmark = pytest.mark.gpu

NAN = np.nan
NUMERIC = [d for d in ALL_DTYPES if d.kind != "b"]


def _vals(shape, dtype, seed=0, k=4):
    """Values drawn from a few small ones (k of them; two for bool), so that repeats are common."""
    dtype = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(dtype)
    a = rng.integers(0, k, shape)
    if dtype.kind == "c":
        return (a + 1j * rng.integers(0, 2, shape)).astype(dtype)
    return a.astype(dtype)


def _same(got, expected):
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_same(g, e)
    else:
        assert_same(got, expected)


# ---- isin ----


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("invert", [False, True])
def test_isin(dtype, invert):
    a, b = _vals((5, 6), dtype, seed=1, k=6), _vals(7, dtype, seed=2, k=6)
    _same(cp.isin(cp.asarray(a), cp.asarray(b), invert=invert), np.isin(a, b, invert=invert))
    _same(cp.isin(cp.asarray(a), cp.asarray(b[:2]), invert=invert), np.isin(a, b[:2], invert=invert))


@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS + ["0d", "empty", "empty_strided"])
def test_isin_layouts(layout):
    x, a = make_pair(layout, np.int16, seed=3)
    b = np.arange(-60, 60, 3, dtype=np.int16)[::-2]
    y = cp.asarray(np.arange(-60, 60, 3, dtype=np.int16))[::-2]
    _same(cp.isin(x, y), np.isin(a, b))
    _same(cp.isin(x, y.reshape(4, 5)[:, ::2], invert=True), np.isin(a, b.reshape(4, 5)[:, ::2], invert=True))


def test_isin_large_and_mixed_dtypes():
    rng = np.random.default_rng(4)
    a, b = rng.integers(0, 20_000, 50_000), rng.integers(0, 20_000, 9_000).astype(np.int32)
    _same(cp.isin(cp.asarray(a), cp.asarray(b)), np.isin(a, b))
    f = np.array([0.5, 1.0, 2.0, 2.5, -1.0], np.float32)
    i = np.array([1, 2, -1, 7], np.int8)
    _same(cp.isin(cp.asarray(f), cp.asarray(i)), np.isin(f, i))
    _same(cp.isin(cp.asarray(i), cp.asarray(f)), np.isin(i, f))
    u = np.array([0, 200, 255], np.uint8)
    _same(cp.isin(cp.asarray(i), cp.asarray(u)), np.isin(i, u))
    _same(
        cp.isin(cp.asarray(u), cp.asarray(np.array([-56, 0], np.int8))),
        np.isin(u, np.array([-56, 0], np.int8)),
    )


def test_isin_nans_empty_scalars_and_kinds():
    a = np.array([NAN, 1.0, 2.0, -0.0, NAN])
    b = np.array([NAN, 1.0, 0.0])
    for invert in (False, True):
        _same(cp.isin(cp.asarray(a), cp.asarray(b), invert=invert), np.isin(a, b, invert=invert))
        _same(cp.isin(cp.asarray(a), cp.zeros(0), invert=invert), np.isin(a, np.zeros(0), invert=invert))
    c = np.array([complex(NAN, 1), 1 + 1j, 2j])
    _same(cp.isin(cp.asarray(c), cp.asarray(c[::-1])), np.isin(c, c[::-1]))
    _same(cp.isin(cp.asarray(np.int64(3)), [1, 3]), np.isin(np.int64(3), [1, 3]))
    _same(cp.isin([1, 2, 3], 2), np.isin([1, 2, 3], 2))
    x, i = cp.asarray(a), np.array([1, 5], np.int32)
    for kind in (None, "sort"):
        _same(cp.isin(x, cp.asarray(b), kind=kind), np.isin(a, b, kind=kind))
    _same(
        cp.isin(cp.asarray(i), cp.asarray(i[:1]), kind="table", assume_unique=True),
        np.isin(i, i[:1], kind="table", assume_unique=True),
    )
    with pytest.raises(ValueError, match="Invalid kind"):
        cp.isin(x, x, kind="hash")
    with pytest.raises(ValueError, match="only supported for boolean or integer"):
        cp.isin(x, x, kind="table")
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.isin(x, b)


# ---- intersect1d, union1d, setdiff1d, setxor1d ----


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_intersect1d(dtype):
    a, b = _vals((4, 5), dtype, seed=5, k=7), _vals(9, dtype, seed=6, k=7)[::-1]
    x, y = cp.asarray(a), cp.asarray(_vals(9, dtype, seed=6, k=7))[::-1]
    _same(cp.intersect1d(x, y), np.intersect1d(a, b))
    _same(cp.intersect1d(x, y, return_indices=True), np.intersect1d(a, b, return_indices=True))
    ua, ub = np.unique(a)[::-1].copy(), np.unique(b)
    for ri in (False, True):
        _same(
            cp.intersect1d(cp.asarray(ua), cp.asarray(ub), assume_unique=True, return_indices=ri),
            np.intersect1d(ua, ub, assume_unique=True, return_indices=ri),
        )


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", ["union1d", "setdiff1d", "setxor1d"])
def test_union_setdiff_setxor(name, dtype):
    a, b = _vals((3, 4), dtype, seed=7, k=6), _vals((2, 5), dtype, seed=8, k=6)
    x, y = cp.asarray(a), cp.asarray(b)
    _same(getattr(cp, name)(x, y), getattr(np, name)(a, b))
    _same(getattr(cp, name)(x.T, y[:, ::-2]), getattr(np, name)(a.T, b[:, ::-2]))
    if name != "union1d":
        ua, ub = np.unique(a)[::-1].copy(), np.unique(b)
        _same(
            getattr(cp, name)(cp.asarray(ua), cp.asarray(ub), assume_unique=True),
            getattr(np, name)(ua, ub, assume_unique=True),
        )


@pytest.mark.parametrize("name", ["intersect1d", "union1d", "setdiff1d", "setxor1d"])
def test_set_functions_edge_cases(name):
    f, np_f = getattr(cp, name), getattr(np, name)
    a = np.array([NAN, 1.0, 2.0, NAN, 3.0])
    b = np.array([NAN, 2.0, 5.0])
    _same(f(cp.asarray(a), cp.asarray(b)), np_f(a, b))
    c = np.array([complex(NAN, 1), 1 + 1j, 2j, 1 + 1j])
    _same(f(cp.asarray(c), cp.asarray(c[:2])), np_f(c, c[:2]))
    i8, u8 = np.array([1, -2, 3, 3], np.int8), np.array([3, 254, 1], np.uint8)  # promoted to int16
    _same(f(cp.asarray(i8), cp.asarray(u8)), np_f(i8, u8))
    _same(
        f(cp.asarray(i8), cp.asarray(np.array([1.5, 3.0], np.float32))),
        np_f(i8, np.array([1.5, 3.0], np.float32)),
    )
    empty = np.zeros(0, np.int8)
    _same(f(cp.asarray(empty), cp.asarray(empty)), np_f(empty, empty))
    _same(f(cp.asarray(empty), cp.asarray(i8)), np_f(empty, i8))
    _same(f(cp.asarray(i8), cp.asarray(np.zeros(0, np.float32))), np_f(i8, np.zeros(0, np.float32)))
    _same(f(cp.asarray(np.int16(3)), [3, 4]), np_f(np.int16(3), [3, 4]))
    _same(f([1, 2, 2], [2.0, 7.0]), np_f([1, 2, 2], [2.0, 7.0]))
    with pytest.raises(TypeError, match="numpy.ndarray"):
        f(cp.asarray(a), b)


def test_set_functions_large():
    rng = np.random.default_rng(9)
    a, b = rng.integers(0, 30_000, 40_000), rng.integers(10_000, 50_000, 30_000)
    x, y = cp.asarray(a), cp.asarray(b)
    _same(cp.intersect1d(x, y, return_indices=True), np.intersect1d(a, b, return_indices=True))
    for name in ("union1d", "setdiff1d", "setxor1d"):
        _same(getattr(cp, name)(x, y), getattr(np, name)(a, b))


# ---- ediff1d ----


@pytest.mark.parametrize("dtype", NUMERIC, ids=dtype_id)
def test_ediff1d(dtype):
    a = _vals((3, 4), dtype, seed=10, k=9)
    x = cp.asarray(a)
    _same(cp.ediff1d(x), np.ediff1d(a))
    _same(cp.ediff1d(x.T[::-1]), np.ediff1d(a.T[::-1]))
    b = np.array([5, 6], dtype)
    _same(cp.ediff1d(x, to_begin=cp.asarray(b)), np.ediff1d(a, to_begin=b))
    _same(
        cp.ediff1d(x, to_end=cp.asarray(b[:1]), to_begin=cp.asarray(b.reshape(2, 1))),
        np.ediff1d(a, to_end=b[:1], to_begin=b.reshape(2, 1)),
    )


def test_ediff1d_edges_and_errors():
    a = np.array([1, 2, 5, -3], np.int8)
    x = cp.asarray(a)
    _same(cp.ediff1d(x, to_begin=300, to_end=[1, 2]), np.ediff1d(a, to_begin=300, to_end=[1, 2]))  # 300 wraps
    _same(
        cp.ediff1d(x, to_end=cp.asarray(np.array([7], np.int64))),
        np.ediff1d(a, to_end=np.array([7], np.int64)),
    )
    _same(cp.ediff1d(cp.asarray(np.array([250, 3], np.uint8))), np.ediff1d(np.array([250, 3], np.uint8)))
    f = np.array([1.5, 0.25, 4.0], np.float16)
    _same(
        cp.ediff1d(cp.asarray(f), to_begin=2.5, to_end=cp.asarray(np.array([1.5]))),
        np.ediff1d(f, to_begin=2.5, to_end=np.array([1.5])),
    )
    _same(cp.ediff1d(cp.asarray(np.float64(2.0))), np.ediff1d(np.float64(2.0)))
    _same(cp.ediff1d(cp.zeros((0, 3)), to_end=1), np.ediff1d(np.zeros((0, 3)), to_end=1))
    _same(cp.ediff1d([1, 4, 9], to_begin=[-1]), np.ediff1d([1, 4, 9], to_begin=[-1]))
    with pytest.raises(TypeError, match="to_begin"):
        cp.ediff1d(x, to_begin=1.5)
    with pytest.raises(TypeError, match="to_begin"):
        cp.ediff1d([1, 4, 9], to_begin=[])  # float64, as NumPy makes an empty list
    with pytest.raises(TypeError, match="to_end"):
        cp.ediff1d(cp.asarray(np.array([1, 2], np.uint8)), to_end=5)
    with pytest.raises(TypeError):
        cp.ediff1d(cp.asarray(np.array([True, False])))
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.ediff1d(x, to_end=np.array([1]))


# ---- trim_zeros ----


def _with_zero_border(shape, dtype, seed):
    """Data whose nonzero part sits inside a border of zeros of different widths on each side."""
    a = np.zeros(shape, dtype)
    inner = tuple(slice(1 + i % 2, n - 1 - (i + 1) % 3) for i, n in enumerate(shape))
    a[inner] = _vals(a[inner].shape, dtype, seed, k=3)
    a[tuple(s.start for s in inner)] = 1  # the inner box keeps its extent
    a[tuple(s.stop - 1 for s in inner)] = 1
    return a


@pytest.mark.parametrize("dtype", SOME_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("trim", ["fb", "f", "b", "BF"])
@pytest.mark.parametrize(
    "shape,axis",
    [
        ((9,), None),
        ((9,), 0),
        ((6, 7), None),
        ((6, 7), 0),
        ((6, 7), -1),
        ((6, 7), (1, 0)),
        ((5, 6, 7), None),
        ((5, 6, 7), 1),
        ((5, 6, 7), (0, 2)),
    ],
)
def test_trim_zeros(dtype, trim, shape, axis):
    a = _with_zero_border(shape, dtype, seed=11)
    _same(cp.trim_zeros(cp.asarray(a), trim, axis=axis), np.trim_zeros(a, trim, axis=axis))


def test_trim_zeros_views_and_special_values():
    a = _with_zero_border((8, 9), np.float32, seed=12)
    xbase, base = cp.asarray(a), a.copy()
    for view in (lambda t: t, lambda t: t[::-1, 1:], lambda t: t.T[::-2]):
        got, want = cp.trim_zeros(view(xbase)), np.trim_zeros(view(base))
        _same(got, want)
        assert_write_through(xbase, base, got, want)  # a view, as NumPy's
    c = np.array([0, 0, 1j, 0, complex(0, -2), 0], np.complex64)
    _same(cp.trim_zeros(cp.asarray(c)), np.trim_zeros(c))
    f = np.array([0.0, -0.0, NAN, 0.0, 1.0, 0.0])
    _same(cp.trim_zeros(cp.asarray(f)), np.trim_zeros(f))
    _same(cp.trim_zeros([0, 1, 2, 0]), np.array(np.trim_zeros([0, 1, 2, 0])))
    x, v = make_pair("negative", np.int16, seed=13)
    _same(cp.trim_zeros(x, "b"), np.trim_zeros(v, "b"))


@pytest.mark.parametrize("shape", [(0,), (6,), (3, 4), (0, 3), (2, 0, 3), ()])
@pytest.mark.parametrize("trim", ["fb", "f"])
def test_trim_zeros_all_zero_and_empty(shape, trim):
    a = np.zeros(shape, np.int32)
    for axis in [None] + list(range(len(shape))):
        _same(cp.trim_zeros(cp.asarray(a), trim, axis=axis), np.trim_zeros(a, trim, axis=axis))


def test_trim_zeros_errors():
    x = cp.zeros((3, 3))
    with pytest.raises(ValueError, match="unexpected character"):
        cp.trim_zeros(x, "x")
    with pytest.raises(np.exceptions.AxisError):
        cp.trim_zeros(x, axis=2)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.trim_zeros(np.zeros(3))


# ---- unique with an axis ----

_FLAGS = {"return_index": True, "return_inverse": True, "return_counts": True}


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize(
    "shape,axis",
    [((7, 3), 0), ((3, 7), 1), ((3, 7), -1), ((6, 2, 3), 0), ((2, 6, 3), 1), ((2, 3, 6), 2), ((2, 3, 6), -3)],
)
def test_unique_axis(dtype, shape, axis):
    a = _vals(shape, dtype, seed=14, k=2)
    x = cp.asarray(a)
    _same(cp.unique(x, axis=axis), np.unique(a, axis=axis))
    _same(cp.unique(x, axis=axis, **_FLAGS), np.unique(a, axis=axis, **_FLAGS))
    _same(cp.unique(x, return_inverse=True, axis=axis), np.unique(a, return_inverse=True, axis=axis))
    _same(
        cp.unique(x, return_counts=True, axis=axis, equal_nan=False),
        np.unique(a, return_counts=True, axis=axis, equal_nan=False),
    )


@pytest.mark.parametrize("layout", ["c2d", "f2d", "strided", "negative", "3d_permuted"])
@pytest.mark.parametrize("axis", [0, -1])
def test_unique_axis_layouts(layout, axis):
    x, a = make_pair(layout, np.int8)
    x, a = x % 2, a % 2  # repeated sub-arrays
    _same(cp.unique(x, axis=axis, **_FLAGS), np.unique(a, axis=axis, **_FLAGS))


def test_unique_axis_many_rows():
    a = _vals((3000, 4), np.int16, seed=15, k=3)
    _same(cp.unique(cp.asarray(a), axis=0, **_FLAGS), np.unique(a, axis=0, **_FLAGS))
    b = _vals((5, 400), np.float32, seed=16, k=2)
    _same(cp.unique(cp.asarray(b), axis=1, **_FLAGS), np.unique(b, axis=1, **_FLAGS))


@pytest.mark.parametrize("equal_nan", [True, False])
def test_unique_axis_nans(equal_nan):
    # Sub-arrays compare with ==, so one holding a NaN is never equal to another; NaNs still sort last.
    a = np.array([[NAN, 1], [NAN, 0], [NAN, 1], [1, 2], [1, 2], [1, NAN], [-1, NAN]])
    for arr in (a, a.T.copy()):
        axis = 0 if arr is a else 1
        _same(
            cp.unique(cp.asarray(arr), axis=axis, equal_nan=equal_nan, **_FLAGS),
            np.unique(arr, axis=axis, equal_nan=equal_nan, **_FLAGS),
        )
    c = np.array(
        [
            [1 + 1j, NAN],
            [complex(NAN, 1), 2],
            [complex(NAN, 2), 2],
            [complex(NAN, 1), 2],
            [complex(1, NAN), 0],
            [1 + 1j, 3],
        ]
    )
    _same(
        cp.unique(cp.asarray(c), axis=0, equal_nan=equal_nan, **_FLAGS),
        np.unique(c, axis=0, equal_nan=equal_nan, **_FLAGS),
    )
    # A 1-D array with an axis takes the 1-D path, where equal_nan applies.
    f = np.array([NAN, 2.0, NAN, 1.0, 2.0])
    _same(
        cp.unique(cp.asarray(f), axis=0, equal_nan=equal_nan, **_FLAGS),
        np.unique(f, axis=0, equal_nan=equal_nan, **_FLAGS),
    )
    _same(cp.unique(cp.asarray(f), axis=-1, equal_nan=equal_nan), np.unique(f, axis=-1, equal_nan=equal_nan))


@pytest.mark.parametrize("shape", [(3, 0), (0, 3), (0, 0), (2, 0, 3), (1, 4), (4, 1)])
def test_unique_axis_zero_size_and_single(shape):
    a = _vals(shape, np.float64, seed=17, k=2)
    for axis in range(len(shape)):
        _same(cp.unique(cp.asarray(a), axis=axis, **_FLAGS), np.unique(a, axis=axis, **_FLAGS))
        _same(cp.unique(cp.asarray(a), axis=axis), np.unique(a, axis=axis))


def test_unique_axis_errors():
    with pytest.raises(np.exceptions.AxisError, match="out of bounds"):
        cp.unique(cp.zeros((2, 3, 4)), axis=3)
    with pytest.raises(np.exceptions.AxisError, match="out of bounds"):
        cp.unique(cp.zeros(3), axis=1)
    with pytest.raises(np.exceptions.AxisError, match="out of bounds"):
        cp.unique(cp.asarray(np.float32(1)), axis=0)
    with pytest.raises(TypeError):
        cp.unique(cp.zeros((2, 2)), axis=1.0)
