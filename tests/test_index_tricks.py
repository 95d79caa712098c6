"""Index helpers (r_, c_, mgrid, ogrid, ix_, the *_indices functions, fill_diagonal), fromfunction and
broadcast against NumPy."""

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, assert_same, dtype_id, make_data, make_pair
from cuarray import testing

pytestmark = pytest.mark.gpu

A = np.array([[0, 1, 2], [3, 4, 5]])


def _same_tuple(got, want):
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w)


# Keys built by a function of the converter: np.asarray for NumPy, cp.asarray for cuarray.
R_KEYS = {
    "arrays_and_scalars": lambda d: (d(np.array([1, 2, 3])), 0, 0, d(np.array([4, 5, 6]))),
    "complex_step": lambda d: (np.s_[-1:1:6j], [0] * 3, 5, 6),
    "slice_steps": lambda d: (np.s_[0:5:2], np.s_[3:0:-1], np.s_[0:1:0.25]),
    "slice_open_start": lambda d: (np.s_[:4],),
    "last_axis": lambda d: ("-1", d(A), d(A)),
    "axis_ndmin": lambda d: ("0,2", [1, 2, 3], [4, 5, 6]),
    "trans1d_0": lambda d: ("0,2,0", [1, 2, 3], [4, 5, 6]),
    "axis1_trans1d_0": lambda d: ("1,2,0", [1, 2, 3], [4, 5, 6]),
    "ndmin3": lambda d: ("0,3,1", d(np.array([1, 2])), [[3], [4]]),
    "slice_ndmin": lambda d: ("0,2", np.s_[0:3], [7, 8, 9]),
    "weak_int_scalar": lambda d: (d(np.array([1, 2], np.int8)), 3),
    "weak_float_scalar": lambda d: (d(np.array([1, 2], np.float32)), 2.5),
    "strong_scalar": lambda d: (d(np.array([1, 2], np.int8)), np.int16(300)),
    "bool_scalars": lambda d: (True, d(np.array([False]))),
    "complex_scalar": lambda d: (1 + 2j, d(np.array([3.0], np.float32))),
    "zero_d_array": lambda d: (d(np.array(5, np.uint8)), d(np.array([1], np.uint8))),
    "empty_list": lambda d: ([], [1, 2]),
    "empty_array": lambda d: (d(np.zeros((0, 3), np.float32)), d(A)),
    "row": lambda d: ("r", [1, 2, 3], [4, 5, 6]),
    "column": lambda d: ("c", [1, 2, 3], [4, 5, 6]),
    "row_2d": lambda d: ("r", d(A), d(A)),
    "single_array": lambda d: d(np.array([1.5, 2.5])),
}


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # NumPy's matrix, for 'r', 'c'
@pytest.mark.parametrize("name", list(R_KEYS))
def test_r_(name):
    assert_same(cp.r_[R_KEYS[name](cp.asarray)], np.asarray(np.r_[R_KEYS[name](np.asarray)]))


C_KEYS = {
    "columns": lambda d: (d(np.array([1, 2, 3])), d(np.array([4, 5, 6]))),
    "rows_and_scalars": lambda d: (d(np.array([[1, 2, 3]])), 0, 0, d(np.array([[4, 5, 6]]))),
    "slice_and_list": lambda d: (np.s_[0:3], [1.5, 2, 3]),
    "matrix_and_column": lambda d: (d(A.T), [7, 8, 9]),
    "complex_step": lambda d: (np.s_[0:1:3j], d(np.array([1, 2, 3], np.int16))),
    "axis_directive": lambda d: ("0", [1, 2], [3]),
    "row": lambda d: ("r", [1, 2], [3, 4]),
}


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # NumPy's matrix, for 'r', 'c'
@pytest.mark.parametrize("name", list(C_KEYS))
def test_c_(name):
    assert_same(cp.c_[C_KEYS[name](cp.asarray)], np.asarray(np.c_[C_KEYS[name](np.asarray)]))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", ["strided", "negative", "f2d"])
def test_r_c_layouts_and_dtypes(dtype, layout):
    x, a = make_pair(layout, dtype)
    y, b = make_pair(layout, dtype, seed=1)
    assert_same(cp.r_[x, y], np.r_[a, b])
    assert_same(cp.r_["-1", x, y], np.r_["-1", a, b])
    assert_same(cp.c_[x, y], np.c_[a, b])
    assert_same(cp.r_[x[0], 1, y[:, 0]], np.r_[a[0], 1, b[:, 0]])


def test_r_c_errors():
    x = cp.arange(3)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.r_[x, np.arange(3)]
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.c_[np.arange(3)]
    with pytest.raises(ValueError, match="first entry"):
        cp.r_[x, "0"]
    with pytest.raises(ValueError, match="unknown special directive"):
        cp.r_["a", x]
    with pytest.raises(ValueError, match="unknown special directive '0,x'"):
        cp.r_["0,x", x]
    with pytest.raises(ValueError, match="too large to be a matrix"):
        cp.r_["r", cp.zeros((2, 2, 2))]
    with pytest.raises(ValueError, match="same number of dimensions"):
        cp.r_[x, cp.zeros((2, 2))]
    with pytest.raises(OverflowError):  # NumPy: Python integer out of bounds for the final dtype
        cp.r_[cp.zeros(2, np.uint8), 300]
    with pytest.raises(NotImplementedError, match="matrix"):
        cp.r_["1 2; 3 4"]
    assert len(cp.r_) == 0 and len(cp.c_) == 0


GRID_KEYS = [
    np.s_[0:5],
    np.s_[5:0:-2],
    np.s_[-1:1:5j],
    np.s_[1:2:1j],
    np.s_[0:1:0j],
    np.s_[0.5:3],
    np.s_[:4],
    np.s_[np.float32(0) : 1 : 0.25],
    np.s_[0:4, 0:5],
    np.s_[0:3,],
    np.s_[0:1:0.25, 2:4],
    np.s_[-1:1:3j, 0:5:2],
    np.s_[0:2:1j, 1:3],
    np.s_[:3, 1:8:3, 2:0:-1],
    np.s_[np.int8(0) : 3, 0:2],
    np.s_[1:3:2j, 0:1:0j],
    np.s_[1 + 1j : 3 : 3j],
]


@pytest.mark.parametrize("key", GRID_KEYS, ids=[str(k) for k in GRID_KEYS])
def test_mgrid(key):
    assert_same(cp.mgrid[key], np.mgrid[key])


@pytest.mark.parametrize("key", GRID_KEYS, ids=[str(k) for k in GRID_KEYS])
def test_ogrid(key):
    want = np.ogrid[key]
    if isinstance(want, tuple):
        _same_tuple(cp.ogrid[key], want)
    else:
        assert_same(cp.ogrid[key], want)


def test_grid_errors():
    with pytest.raises(ValueError, match="negative dimensions"):
        cp.mgrid[5:0, 0:3]
    with pytest.raises(AttributeError):
        cp.mgrid[1, 2]


@pytest.mark.parametrize("case", ["ints", "bools", "mixed", "lists", "empty_list", "uint8", "strided", "one"])
def test_ix_(case):
    a = make_data((6, 5, 4), "float32")
    x = cp.asarray(a)
    args = {
        "ints": (np.array([0, 5, 2]), np.array([4, -1])),
        "bools": (
            np.array([True, False, True, False, False, True]),
            np.array([False, True, True, False, True]),
        ),
        "mixed": (np.array([1, 3]), np.array([True, False, True, True, False]), np.array([3, 0])),
        "lists": ([0, 1], [True, False, False, False, True]),
        "empty_list": ([], [1, 2]),
        "uint8": (np.array([1, 2], np.uint8), np.array([0], np.int16)),
        "strided": (np.arange(6)[::-2], np.arange(5)[1::3]),
        "one": (np.array([3, 1]),),
    }[case]
    dev = [cp.asarray(v) if isinstance(v, np.ndarray) else v for v in args]
    got, want = cp.ix_(*dev), np.ix_(*args)
    _same_tuple(got, want)
    assert_same(x[got], a[want])


def test_ix_errors():
    with pytest.raises(ValueError, match="1 dimensional"):
        cp.ix_(cp.zeros((2, 2), np.int64))
    with pytest.raises(ValueError, match="1 dimensional"):
        cp.ix_(3)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.ix_(np.arange(3))
    assert cp.ix_() == ()


@pytest.mark.parametrize(
    "n,k,m",
    [
        (0, 0, None),
        (1, 0, None),
        (4, 0, None),
        (4, 1, None),
        (4, -2, None),
        (4, 10, None),
        (4, -10, None),
        (3, 0, 5),
        (5, 2, 3),
        (5, -1, 2),
        (3, 1, 0),
        (-2, 0, 3),
        (6, -3, 9),
        (np.int32(3), np.int64(1), np.uint8(4)),
    ],
)
def test_tril_triu_indices(n, k, m):
    _same_tuple(cp.tril_indices(n, k, m), np.tril_indices(n, k, m))
    _same_tuple(cp.triu_indices(n, k, m), np.triu_indices(n, k, m))


@pytest.mark.parametrize(
    "n,k,m",
    [
        (3.0, 0, None),
        (4.0, 1, None),
        (3, 0.5, None),
        (3, -0.5, None),
        (3, 0, 2.0),
        (3.5, 0, None),
        (3, 2.5, None),
    ],
)
def test_tril_triu_indices_of_floats(n, k, m):
    # NumPy's tri takes floats, through arange and its rounding; cuarray asks NumPy for these.
    _same_tuple(cp.tril_indices(n, k, m), np.tril_indices(n, k, m))
    _same_tuple(cp.triu_indices(n, k, m), np.triu_indices(n, k, m))


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 2), (0, 3)])
@pytest.mark.parametrize("k", [-1, 0, 2])
def test_tri_indices_from(shape, k):
    a = make_data(shape, "int16")
    x = cp.asarray(a)[:, ::-1]
    a = a[:, ::-1]
    _same_tuple(cp.tril_indices_from(x, k), np.tril_indices_from(a, k))
    _same_tuple(cp.triu_indices_from(x, k=k), np.triu_indices_from(a, k=k))
    if a.size:
        assert_same(x[cp.triu_indices_from(x, k)], a[np.triu_indices_from(a, k)])


def test_indices_errors():
    for f in (cp.tril_indices_from, cp.triu_indices_from):
        with pytest.raises(ValueError, match="must be 2-d"):
            f(cp.zeros((2, 2, 2)))
        # Only the shape is read (CuPy's and NumPy's): a host array gives the same device indices.
        _same_tuple(f(np.zeros((2, 3))), getattr(np, f.__name__)(np.zeros((2, 3))))
    with pytest.raises(ValueError, match="at least 2-d"):
        cp.diag_indices_from(cp.zeros(3))
    with pytest.raises(ValueError, match="equal length"):
        cp.diag_indices_from(cp.zeros((3, 4)))
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.diag_indices_from(np.zeros((3, 3)))


@pytest.mark.parametrize("n,ndim", [(4, 2), (3, 3), (0, 2), (2, 1)])
def test_diag_indices(n, ndim):
    _same_tuple(cp.diag_indices(n, ndim), np.diag_indices(n, ndim))
    if ndim >= 2:
        a = make_data((n,) * ndim, "float64")
        _same_tuple(cp.diag_indices_from(cp.asarray(a)), np.diag_indices_from(a))


@pytest.mark.parametrize("func", ["triu", "tril"])
@pytest.mark.parametrize("n,k", [(4, 0), (4, 1), (4, -2), (1, 0), (0, 0)])
def test_mask_indices(func, n, k):
    _same_tuple(cp.mask_indices(n, getattr(cp, func), k), np.mask_indices(n, getattr(np, func), k))


@pytest.mark.parametrize(
    "shape", [(3, 3), (5, 3), (7, 3), (8, 3), (9, 1), (3, 7), (1, 1), (0, 3), (7, 0), (2, 2, 2), (3, 3, 3, 3)]
)
@pytest.mark.parametrize("wrap", [False, True])
@pytest.mark.parametrize(
    "val",
    [4, [1, 2], list(range(1, 30)), [[1, 2], [3, 4]], []],
    ids=["scalar", "short", "long", "2d", "empty"],
)
def test_fill_diagonal(shape, wrap, val):
    a = np.zeros(shape, np.int32)
    x = cp.asarray(a)
    v = cp.asarray(val) if isinstance(val, list) and val else val
    assert cp.fill_diagonal(x, v, wrap=wrap) is None
    np.fill_diagonal(a, val, wrap=wrap)
    assert_same(x, a)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", ["f2d", "strided", "negative", "3d_permuted"])
@pytest.mark.parametrize("wrap", [False, True])
def test_fill_diagonal_layouts(dtype, layout, wrap):
    """Writes go through views of the caller's array, whatever its strides."""
    # Tall views: (11, 4), (8, 3), (9, 3), so that wrap=True fills several blocks and a remainder.
    base, view = {
        "f2d": ((4, 11), lambda b: b.T),
        "strided": ((16, 9), lambda b: b[::2, 1::3]),
        "negative": ((9, 6), lambda b: b[::-1, ::-2]),
        "3d_permuted": ((3, 3, 3), lambda b: b.transpose(2, 0, 1)[::-1]),
    }[layout]
    base = make_data(base, dtype)
    xbase = cp.asarray(base)
    val = make_data(5, dtype, seed=3)
    cp.fill_diagonal(view(xbase), cp.asarray(val), wrap=wrap)
    np.fill_diagonal(view(base), val, wrap=wrap)
    assert_same(xbase, base)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "float16", "float64", "complex64", "bool"])
def test_fill_diagonal_casts(dtype):
    a = np.zeros((4, 4), dtype)
    x = cp.asarray(a)
    cp.fill_diagonal(x, 1)
    np.fill_diagonal(a, 1)
    assert_same(x, a)
    cp.fill_diagonal(x, cp.asarray([3.0, 2.5]))  # a device array is cast like NumPy's unsafe flat assignment
    np.fill_diagonal(a, np.array([3.0, 2.5]))
    assert_same(x, a)


HOST_FILL_VALUES = [
    ("uint8", [300, 1]),
    ("uint8", [-1]),
    ("int64", [np.nan]),
    ("float64", [1 + 2j]),
    ("int64", np.float32(np.inf)),  # a NumPy scalar casts as an array: INT64_MIN, with NumPy's RuntimeWarning
    ("int64", np.float64(np.nan)),
    ("uint8", np.int64(-1)),
    ("uint8", np.int64(300)),
    ("int8", ["7", 3]),
    ("int8", "7"),
    ("float32", [1e300]),
    ("float64", np.complex128(1 + 2j)),
    ("int64", [np.float32(np.inf)]),
    ("M8[D]", ["2020-01-01", "NaT"]),
    ("m8[s]", np.timedelta64(3, "m")),
    ("bool", [2, 0]),
    ("float16", (0.1, 70000.0)),
]


@pytest.mark.filterwarnings("ignore::RuntimeWarning", "ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("dtype, val", HOST_FILL_VALUES, ids=[f"{d}-{v!r}" for d, v in HOST_FILL_VALUES])
@pytest.mark.parametrize("shape, wrap", [((3, 3), False), ((7, 2), True)])
@testing.numpy_cuarray_array_equal(accept_error=True)
def test_fill_diagonal_converts_host_values_as_numpy(xp, dtype, val, shape, wrap):
    # NumPy's a.flat[...] = val: np.asarray(val, dtype=a.dtype), with its errors (OverflowError, ValueError,
    # TypeError) for sequences and Python numbers, and an array's cast for NumPy scalars.
    a = xp.zeros(shape, dtype)
    xp.fill_diagonal(a, val, wrap=wrap)
    return a


def test_fill_diagonal_errors():
    with pytest.raises(ValueError, match="at least 2-d"):
        cp.fill_diagonal(cp.zeros(3), 1)
    with pytest.raises(ValueError, match="equal length"):
        cp.fill_diagonal(cp.zeros((2, 3, 2)), 1)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.fill_diagonal(np.zeros((2, 2)), 1)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.fill_diagonal(cp.zeros((2, 2)), np.ones(2))
    with pytest.raises(OverflowError):
        cp.fill_diagonal(cp.zeros((2, 2), np.uint8), -1)


@pytest.mark.parametrize("dtype", [float, int, np.float32, np.uint8])
def test_fromfunction(dtype):
    def f(i, j, scale=1):
        return (i * 10 + j) * scale

    assert_same(cp.fromfunction(f, (3, 4), dtype=dtype), np.fromfunction(f, (3, 4), dtype=dtype))
    assert_same(
        cp.fromfunction(f, (2, 3), dtype=dtype, scale=2), np.fromfunction(f, (2, 3), dtype=dtype, scale=2)
    )


def test_fromfunction_shapes():
    assert_same(cp.fromfunction(lambda i: i == 2, (5,)), np.fromfunction(lambda i: i == 2, (5,)))
    assert_same(
        cp.fromfunction(lambda i, j, k: i + j - k, (2, 0, 3), dtype=int),
        np.fromfunction(lambda i, j, k: i + j - k, (2, 0, 3), dtype=int),
    )
    got = cp.fromfunction(lambda i, j: (i, j), (2, 3), like=cp.empty(0))
    _same_tuple(got, np.fromfunction(lambda i, j: (i, j), (2, 3)))


@pytest.mark.parametrize(
    "shapes", [[(3,), (2, 1)], [(2, 3, 4), (4,), ()], [(5,)], [(0, 3), (1, 3)], []], ids=str
)
def test_broadcast(shapes):
    arrays = [make_data(s, "float32", seed=i) for i, s in enumerate(shapes)]
    b = cp.broadcast(*[cp.asarray(a) for a in arrays])
    want = np.broadcast(*arrays)
    assert b.shape == want.shape and b.size == want.size and b.numiter == want.numiter
    assert b.nd == b.ndim == want.ndim and b.index == want.index == 0
    assert len(b.values) == len(arrays)
    for got, w in zip(b.values, np.broadcast_arrays(*arrays)):
        assert_same(got, w)
    b.reset()
    assert b.index == 0


def test_broadcast_mixed_and_nested():
    x = cp.arange(3)
    b = cp.broadcast(x, 2.5, [[1], [2]])
    assert (b.shape, b.numiter) == (np.broadcast(np.arange(3), 2.5, [[1], [2]]).shape, 3)
    nested = cp.broadcast(b, cp.zeros((4, 1, 1)))
    want = np.broadcast(np.broadcast(np.arange(3), 2.5, [[1], [2]]), np.zeros((4, 1, 1)))
    assert (nested.shape, nested.numiter, nested.size) == (want.shape, want.numiter, want.size)
    assert_same(nested.values[0], np.broadcast_to(np.arange(3), want.shape))


def test_broadcast_errors():
    with pytest.raises(ValueError, match="shape mismatch"):
        cp.broadcast(cp.zeros(2), cp.zeros(3))
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.broadcast(cp.zeros(2), np.zeros(2))
    with pytest.raises(ValueError, match="at most 64"):
        cp.broadcast(*[cp.zeros(1)] * 65)
    b = cp.broadcast(cp.zeros(2))
    with pytest.raises(NotImplementedError, match="iterate"):
        _ = b.iters
    with pytest.raises(NotImplementedError, match="iterate"):
        iter(b)
    with pytest.raises(NotImplementedError, match="iterate"):
        next(b)
