"""NumPy functions beyond the array API, against NumPy: copy, logspace, tri, diagflat, digitize, unravel_index,
ravel_multi_index, select, extract, interp."""

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, assert_same, dtype_id, make_data, make_pair

gpu = pytest.mark.gpu


def _same_error(call, *args):
    __tracebackhide__ = True
    with pytest.raises(Exception) as want:
        call(np, *args)
    with pytest.raises(want.type) as got:
        call(cp, *(cp.asarray(a) if isinstance(a, np.ndarray) else a for a in args))
    assert str(got.value) == str(want.value)


@gpu
@pytest.mark.parametrize("layout", ["c2d", "f2d", "negative", "0d", "empty"])
def test_copy(layout):
    x, a = make_pair(layout, np.float32)
    y = cp.copy(x)
    assert_same(y, np.copy(a))
    assert y.base is None and (y.size == 0 or y.data.ptr != x.data.ptr)
    assert cp.copy(x, order="F").flags.f_contiguous or x.ndim < 2
    assert_same(cp.copy([1, 2, 3]), np.copy([1, 2, 3]))
    assert_same(np.copy(x), np.copy(a))


@gpu
@pytest.mark.parametrize(
    "args", [(0, 2, 5), (1, -1, 4), (0, 3, 4, False), (2, 3, 6, True, 2.0), (0, 1, 0)], ids=str
)
def test_logspace(args):
    np.testing.assert_allclose(cp.logspace(*args).get(), np.logspace(*args), rtol=1e-13)
    assert cp.logspace(*args).dtype == np.logspace(*args).dtype
    assert_same(cp.logspace(0, 2, 3, dtype=np.int32), np.logspace(0, 2, 3, dtype=np.int32))


@gpu
@pytest.mark.parametrize("N,M,k", [(3, None, 0), (3, 5, 1), (4, 2, -1), (0, 3, 0), (3, 3, -5)])
def test_tri(N, M, k):
    assert_same(cp.tri(N, M, k), np.tri(N, M, k))
    assert_same(cp.tri(N, M, k, dtype=np.int8), np.tri(N, M, k, dtype=np.int8))


@gpu
@pytest.mark.parametrize("k", [-2, 0, 1])
def test_diagflat(k):
    x, a = make_pair("f2d", np.int16)
    assert_same(cp.diagflat(x, k), np.diagflat(a, k))
    assert_same(cp.diagflat([1, 2], k), np.diagflat([1, 2], k))


@gpu
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("bins", [[-10, 0, 5, 20], [20, 5, 0, -10], [1, 1, 2], [3], [], [2, 2, 2]], ids=str)
def test_digitize(dtype, right, bins):
    a = make_data((4, 5), dtype)
    b = np.array(bins, dtype=dtype)
    assert_same(cp.digitize(cp.asarray(a), cp.asarray(b), right=right), np.digitize(a, b, right=right))


@gpu
def test_digitize_errors_are_numpys():
    a = np.arange(4.0)
    _same_error(lambda xp, x, b: xp.digitize(x, b), a, np.array([1.0, 3.0, 2.0]))
    _same_error(lambda xp, x, b: xp.digitize(x, b), a, np.array([[1.0, 2.0]]))
    _same_error(lambda xp, x, b: xp.digitize(x, b), a, np.array(1.0))
    _same_error(lambda xp, x, b: xp.digitize(x, b), a.astype(complex), np.array([1.0, 2.0]))


@gpu
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4), (7,), 12])
def test_unravel_index(order, shape):
    size = int(np.prod(shape))
    idx = np.array([[0, size - 1], [size // 2, 1]])
    for indices in (idx, cp.asarray(idx), cp.asarray(idx.astype(np.uint16)), 5, [1, 2], cp.asarray(3)):
        got = cp.unravel_index(indices, shape, order=order)
        want = np.unravel_index(
            indices.get() if isinstance(indices, cp.ndarray) else indices, shape, order=order
        )
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, np.asarray(w, dtype=np.int64))


@gpu
def test_unravel_index_errors_are_numpys():
    for bad in ([6], [-1], [2, 6, 1]):
        _same_error(lambda xp, i: xp.unravel_index(i, (2, 3)), np.array(bad))
    _same_error(lambda xp, i: xp.unravel_index(i, (2, 3)), np.array([1.0]))
    _same_error(lambda xp, i: xp.unravel_index(i, (2, 0)), np.array([0]))
    with pytest.raises(ValueError, match="order"):
        cp.unravel_index(cp.asarray([1]), (2, 3), order="K")


@gpu
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip", ("wrap", "clip", "raise")], ids=str)
def test_ravel_multi_index(order, mode):
    dims = (3, 4, 5)
    coords = [np.array([[0, 2], [1, 2]]), np.array([[3, 0], [1, 2]]), np.array([4, 0])]
    if mode != "raise":
        coords[0] = coords[0] + np.array([[3, -4], [0, 5]]) if mode == "wrap" else coords[0]
        coords[1] = coords[1] * (-2 if mode == "clip" else 1)
    want = np.ravel_multi_index(coords, dims, mode=mode, order=order)
    assert_same(cp.ravel_multi_index([cp.asarray(c) for c in coords], dims, mode=mode, order=order), want)
    assert_same(cp.ravel_multi_index(coords, dims, mode=mode, order=order), want)
    assert_same(
        cp.ravel_multi_index((cp.asarray(coords[0]), coords[1].tolist(), 2), dims, mode=mode, order=order),
        np.ravel_multi_index((coords[0], coords[1], 2), dims, mode=mode, order=order),
    )


@gpu
def test_ravel_multi_index_errors_are_numpys():
    _same_error(lambda xp, i, j: xp.ravel_multi_index((i, j), (2, 3)), np.array([1, 2]), np.array([0, 4]))
    _same_error(lambda xp, i, j: xp.ravel_multi_index((i, j), (2, 3)), np.array([-1]), np.array([0]))
    _same_error(
        lambda xp, i, j: xp.ravel_multi_index((i, j), (2, 3), mode="nope"), np.array([1]), np.array([0])
    )
    _same_error(lambda xp, i: xp.ravel_multi_index((i,), (2, 3)), np.array([1]))
    _same_error(lambda xp, i, j: xp.ravel_multi_index((i, j), (2, 3)), np.array([1.0]), np.array([0]))


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_select(dtype):
    a = make_data((3, 4), dtype)
    b = make_data((3, 4), dtype, seed=1)
    c1, c2 = make_data((3, 4), bool, seed=2), make_data((4,), bool, seed=3)
    x, y, d1, d2 = cp.asarray(a), cp.asarray(b), cp.asarray(c1), cp.asarray(c2)
    assert_same(cp.select([d1, d2], [x, y]), np.select([c1, c2], [a, b]))
    assert_same(
        cp.select([d1, d2], [x, y[::-1]], default=y[0]), np.select([c1, c2], [a, b[::-1]], default=b[0])
    )
    assert_same(cp.select([d2], [1.5], default=0), np.select([c2], [1.5], default=0))


@gpu
@pytest.mark.parametrize(
    "choice, default, dtype",
    [
        ("a", 300, np.uint8),  # the default wraps, as NumPy's np.full of its int64 array: 44
        ("a", -1, np.uint8),
        ("a", 2**63, np.uint8),
        ("a", 2.5, np.uint8),
        (2, "a", np.int8),
        (300, "a", np.int8),  # a choice casts same_kind: int64 to int8 wraps
        (2, "a", np.uint8),  # int64 to uint8 is not same_kind: NumPy's TypeError
        (300, "a", np.uint8),
        (2**63, "a", np.uint8),  # uint64 to uint8 is
        (2**70, "a", np.uint8),  # an object array: TypeError
        (1.5, "a", np.float16),
        (1e6, "a", np.float16),  # inf, as NumPy
        (1j, "a", np.float32),
        (float("nan"), "a", np.int32),
        (True, "a", np.uint8),
    ],
    ids=str,
)
def test_select_types_a_python_number_as_numpy(choice, default, dtype):
    a, c = np.array([1, 2, 3], dtype), np.array([True, False, True])

    def call(xp, a, c):
        return xp.select([c], [a if choice == "a" else choice], default=a if default == "a" else default)

    try:
        want = call(np, a, c)
    except (TypeError, OverflowError):
        _same_error(call, a, c)
        return
    assert_same(call(cp, cp.asarray(a), cp.asarray(c)), want)


@gpu
def test_select_errors_are_numpys():
    c = np.array([True, False])
    _same_error(lambda xp, c: xp.select([c], []), c)
    _same_error(lambda xp, c: xp.select([], []), c)
    _same_error(lambda xp, c: xp.select([c.astype(int)], [c]), c)


@gpu
@pytest.mark.parametrize("layout", ["c2d", "negative", "3d_permuted", "0d", "empty"])
def test_extract(layout):
    x, a = make_pair(layout, np.float64)
    c = a > 0
    assert_same(cp.extract(cp.asarray(c), x), np.extract(c, a))
    assert_same(cp.extract(cp.asarray(a.astype(np.int8)), x), np.extract(a.astype(np.int8), a))


@gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "complex128"])
def test_interp(dtype):
    xp = np.array([-3.0, -1.0, 0.5, 2.0, 2.0, 6.0])
    fp = make_data((6,), dtype)
    x = np.array([-5, -3, -2, -1, 0, 0.5, 1.5, 2, 3, 6, 7, np.nan, np.inf, -np.inf])
    dx, dxp, dfp = cp.asarray(x), cp.asarray(xp), cp.asarray(fp)
    assert_same(cp.interp(dx, dxp, dfp), np.interp(x, xp, fp), rtol=1e-6)
    assert_same(
        cp.interp(dx, dxp, dfp, left=-100, right=100), np.interp(x, xp, fp, left=-100, right=100), rtol=1e-6
    )
    assert_same(cp.interp(dx.reshape(2, 7), dxp, dfp), np.interp(x.reshape(2, 7), xp, fp), rtol=1e-6)
    assert_same(cp.interp(dx[3], dxp, dfp), np.asarray(np.interp(x[3], xp, fp)), rtol=1e-6)
    assert_same(cp.interp(dx, dxp[:1], dfp[:1]), np.interp(x, xp[:1], fp[:1]), rtol=1e-6)


@gpu
def test_interp_periodic():
    xp = np.array([190, -190, 350, -350], np.float64)
    fp = np.array([5, 10, 3, 4], np.float64)
    x = np.array([-180, -170, -185, 185, -10, -5, 0, 365])
    assert_same(
        cp.interp(cp.asarray(x), cp.asarray(xp), cp.asarray(fp), period=360),
        np.interp(x, xp, fp, period=360),
        rtol=1e-12,
    )


@gpu
def test_interp_errors_are_numpys():
    x = np.array([1.0])
    _same_error(lambda xp, x, a, b: xp.interp(x, a, b), x, np.array([]), np.array([]))
    _same_error(lambda xp, x, a, b: xp.interp(x, a, b), x, np.array([1.0, 2.0]), np.array([1.0]))
    _same_error(lambda xp, x, a, b: xp.interp(x, a, b), x, np.ones((2, 2)), np.ones((2, 2)))
    _same_error(
        lambda xp, x, a, b: xp.interp(x, a, b, period=0), x, np.array([1.0, 2.0]), np.array([1.0, 2.0])
    )
    _same_error(lambda xp, x, a, b: xp.interp(x, a, b, period=3), x, np.ones((2, 2)), np.array([1.0, 2.0]))


def test_host_index_errors_need_no_device():
    # Host indices and coordinates are checked and converted by NumPy before anything reaches the GPU.
    with pytest.raises(ValueError, match="index 6 is out of bounds for array with size 6"):
        cp.unravel_index(6, (2, 3))
    with pytest.raises(TypeError, match="only int indices permitted"):
        cp.unravel_index([1.0], (2, 3))
    with pytest.raises(ValueError, match="invalid entry in coordinates array"):
        cp.ravel_multi_index(([1, 2], [0, 4]), (2, 3))
    with pytest.raises(ValueError, match="parameter multi_index must be a sequence of length 2"):
        cp.ravel_multi_index(([1],), (2, 3))
    with pytest.raises(ValueError, match="ddof must be integer"):
        cp.cov([[1.0, 2.0]], ddof=1.5)
