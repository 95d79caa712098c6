"""Predicates and checked conversions (cuarray._predicates) against NumPy: isscalar, iterable, isfortran,
iscomplexobj, isrealobj, iscomplex, isreal, real_if_close, may_share_memory, shares_memory, common_type,
asanyarray, asarray_chkfinite, require."""

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, LAYOUT_NAMES, LAYOUTS, assert_same, dtype_id, make_data, make_pair
from cuarray import _predicates

gpu = pytest.mark.gpu

# ---- without a GPU ----------------------------------------------------------------------------------------

HOST_VALUES = [
    3,
    2.5,
    1j,
    True,
    np.float32(1),
    np.complex64(1j),
    "s",
    b"b",
    None,
    [1, 2],
    (1j,),
    [],
    np.zeros(3),
    np.zeros(3, np.complex64),
    np.zeros((), np.int8),
    range(3),
    {1: 2},
    np.complex128,  # scalar types: their .dtype is a descriptor, and NumPy falls back to asarray
    np.float64,
]


@pytest.mark.parametrize("value", HOST_VALUES, ids=repr)
@pytest.mark.parametrize("name", ["isscalar", "iterable", "iscomplexobj", "isrealobj"])
def test_host_values_like_numpy(name, value):
    assert getattr(cp, name)(value) == getattr(np, name)(value)


COMMON_TYPE_CASES = [
    (),
    ("int8",),
    ("float16",),
    ("int32", "float32"),
    ("float16", "complex64"),
    ("uint64", "complex64"),
    ("float32", "complex128"),
    ("longdouble", "float32"),
    ("m8[s]",),  # timedelta64 is an integer type to NumPy
    ("float32", "m8[D]"),
]


@pytest.mark.parametrize("dtypes", COMMON_TYPE_CASES)
def test_common_type_of_host_arrays(dtypes):
    arrays = [np.zeros(2, d) for d in dtypes]
    assert cp.common_type(*arrays) is np.common_type(*arrays)


@pytest.mark.parametrize("dtype", ["bool", "U1", "M8[s]"])
def test_common_type_non_numeric(dtype):
    for xp in (np, cp):
        with pytest.raises(TypeError, match="non-numeric"):
            xp.common_type(np.zeros(2, "float32"), np.zeros(2, dtype))


@pytest.mark.parametrize(
    "max_work, exc, match",
    [
        (1.5, ValueError, "must be an integer"),
        (np.int64(3), ValueError, "must be an integer"),
        (-3, ValueError, "Invalid value"),
    ],
)
@pytest.mark.parametrize("name", ["shares_memory", "may_share_memory"])
def test_bad_max_work(name, max_work, exc, match):
    with pytest.raises(exc, match=match):
        getattr(np, name)(np.zeros(3), np.zeros(3), max_work=max_work)
    with pytest.raises(exc, match=match):
        getattr(cp, name)([1], [2], max_work=max_work)


@pytest.mark.parametrize(
    "call",
    [
        lambda a: cp.shares_memory(a, a),
        lambda a: cp.may_share_memory(a, a),
        cp.isfortran,
        cp.iscomplex,
        cp.isreal,
        cp.real_if_close,
    ],
    ids=["shares_memory", "may_share_memory", "isfortran", "iscomplex", "isreal", "real_if_close"],
)
def test_numpy_arrays_refused(call):
    with pytest.raises(TypeError, match="numpy.ndarray"):
        call(np.zeros(3))


@pytest.mark.parametrize(
    "requirements, exc",
    [("Z", KeyError), (["C", "WRITE"], KeyError), ("CF", ValueError), (["F_CONTIGUOUS", "c"], ValueError)],
)
def test_require_bad_requirements(requirements, exc):
    for xp in (np, cp):
        with pytest.raises(exc):
            xp.require([1.0, 2.0], requirements=requirements)


class _HostView:
    """What the overlap helpers read of a cuarray array, taken from a NumPy array."""

    def __init__(self, a):
        self.size, self.shape, self.strides, self.itemsize = a.size, a.shape, a.strides, a.itemsize
        self._ptr = a.__array_interface__["data"][0]


def _random_view(rng, buf):
    ndim = int(rng.integers(1, 5))
    shape = tuple(int(n) for n in rng.integers(0, 7, ndim))
    strides = tuple(int(s) for s in rng.integers(-40, 41, ndim))
    itemsize = int(rng.choice([1, 2, 4, 8, 16]))
    lo = sum(min(0, s * (n - 1)) for n, s in zip(shape, strides) if n)
    hi = sum(max(0, s * (n - 1)) for n, s in zip(shape, strides) if n)
    if hi - lo + itemsize > buf.size:
        return None
    offset = int(rng.integers(-lo, buf.size - hi - itemsize + 1))
    return np.ndarray(shape, f"V{itemsize}", buffer=buf, offset=offset, strides=strides)


@pytest.mark.parametrize("seed", range(4))
def test_overlap_solver_like_numpy(seed):
    """The exact overlap search, on the addresses, shapes and strides of random views of one NumPy buffer
    (odd strides, zero strides, negative strides, itemsizes apart), against NumPy's shares_memory."""
    rng = np.random.default_rng(seed)
    buf = np.zeros(300, np.uint8)
    checked = 0
    while checked < 400:
        a, b = _random_view(rng, buf), _random_view(rng, buf)
        if a is None or b is None:
            continue
        checked += 1
        got = _predicates._overlap(_HostView(a), _HostView(b), -1)
        assert got == np.shares_memory(a, b), (a.shape, a.strides, b.shape, b.strides)
        bounds = _predicates._overlap(_HostView(a), _HostView(b), 0)
        assert (True if bounds is None else bounds) == np.may_share_memory(a, b)


def test_overlap_gives_up_past_max_work():
    # NumPy's example of a hard problem (its shares_memory docstring), on a fake address range.
    x = np.zeros(1, np.int8)
    a, b = _HostView(x), _HostView(x)
    a.shape, a.strides, a.size = (1049, 1049, 1049), (36674, 61119, 85569), 1049**3
    b.shape, b.strides, b.size, b._ptr = (1049, 1049, 1), (12223, 12224, 1), 1049**2, a._ptr + 64023025
    assert _predicates._overlap(a, b, 1000) is None
    x = np.zeros((5, 5))
    assert _predicates._overlap(_HostView(x[:, ::2]), _HostView(x[1:, 1::2]), 1) is False


# ---- on the device ----------------------------------------------------------------------------------------


@gpu
def test_device_arrays_are_not_scalars_and_iterable_unless_0d():
    assert not cp.isscalar(cp.zeros(()))
    assert not cp.isscalar(cp.zeros(3))
    assert not cp.iterable(cp.zeros(()))
    assert cp.iterable(cp.zeros(3)) and cp.iterable(cp.zeros(0))


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_type_predicates_of_device_arrays(dtype):
    x = cp.zeros(2, dtype)
    assert cp.iscomplexobj(x) == np.iscomplexobj(np.zeros(2, dtype))
    assert cp.isrealobj(x) == np.isrealobj(np.zeros(2, dtype))
    if dtype.kind != "b":
        want = np.common_type(np.zeros(2, dtype), np.zeros(1, "float32"))
        assert cp.common_type(x, cp.zeros(1, "float32")) is want


@gpu
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_isfortran(layout):
    x, a = make_pair(layout, "float32")
    assert cp.isfortran(x) == np.isfortran(a)
    assert cp.isfortran(cp.asarray(make_data((2, 3), "int8"), order="F"))


def _complex_data(shape, dtype, seed=0):
    a = make_data(shape, dtype, seed)
    if a.dtype.kind == "c" and a.size:
        a.flat[::3] = a.flat[::3].real  # some imaginary parts zero
        a.flat[1::5] = complex(np.nan, 0)
        a.flat[2::7] = complex(0, np.nan)
    return a


@gpu
@pytest.mark.parametrize("name", ["iscomplex", "isreal"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", ["c2d", "negative", "3d_permuted", "0d", "empty"])
def test_iscomplex_isreal(name, dtype, layout):
    shape, view = LAYOUTS[layout]
    a = view(_complex_data(shape, dtype))
    x = view(cp.asarray(_complex_data(shape, dtype)))
    assert_same(getattr(cp, name)(x), getattr(np, name)(a))


@gpu
@pytest.mark.parametrize("name", ["iscomplex", "isreal"])
@pytest.mark.parametrize("dtype", ["M8[D]", "m8[s]"])
def test_iscomplex_isreal_of_datetimes(name, dtype):
    # NumPy's isreal compares the zero imaginary parts with 0: datetimes at the epoch are never equal to it.
    a = np.array([1, "NaT", 0], dtype)
    assert_same(getattr(cp, name)(cp.asarray(a)), getattr(np, name)(a))


@gpu
@pytest.mark.parametrize("name", ["iscomplex", "isreal"])
def test_iscomplex_isreal_of_python_values(name):
    for value in ([1, 2j, 3 + 0j], 2j, 4.0):
        assert_same(getattr(cp, name)(value), getattr(np, name)(value))


@gpu
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize(
    "imag, tol",
    [(0.0, 100), (1e-7, 100), (1e-14, 100), (1e-3, 100), (1e-3, 0.01), (1e-3, 1e-4), (np.nan, 100)],
)
def test_real_if_close(dtype, imag, tol):
    a = (make_data((3, 4), "float64") + 1j * imag).astype(dtype)[:, ::-2]
    x = cp.asarray(a)
    assert_same(cp.real_if_close(x, tol=tol), np.real_if_close(a, tol=tol))


@gpu
@pytest.mark.parametrize("dtype", ["int8", "float32", "bool"])
def test_real_if_close_of_real_arrays_is_the_array(dtype):
    x = cp.asarray(make_data(5, dtype))
    assert cp.real_if_close(x) is x
    empty = cp.zeros((0, 2), "complex64")
    assert_same(cp.real_if_close(empty), np.real_if_close(np.zeros((0, 2), "complex64")))


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_asarray_chkfinite_passes_finite_values(dtype):
    a = make_data((3, 2), dtype)
    assert_same(cp.asarray_chkfinite(cp.asarray(a)[::-1]), np.asarray_chkfinite(a[::-1]))
    assert_same(cp.asarray_chkfinite(a.tolist(), dtype=dtype), np.asarray_chkfinite(a.tolist(), dtype=dtype))
    x = cp.asarray(a)
    assert cp.asarray_chkfinite(x) is x
    assert cp.asanyarray(x) is x


@gpu
@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan, complex(1, np.inf), complex(np.nan, 0)])
@pytest.mark.parametrize("dtype", ["float16", "float64", "complex64"])
def test_asarray_chkfinite_refuses_inf_and_nan(bad, dtype):
    if isinstance(bad, complex) and np.dtype(dtype).kind != "c":
        pytest.skip("a complex value in a real array")
    a = np.ones((2, 3), dtype)
    a[1, 2] = bad
    for xp in (np, cp):
        with pytest.raises(ValueError, match="must not contain infs or NaNs"):
            xp.asarray_chkfinite(a if xp is np else cp.asarray(a)[:, ::-1])
    with pytest.raises(ValueError, match="infs or NaNs"):
        cp.asarray_chkfinite(a.tolist(), dtype=dtype)


@gpu
def test_asarray_chkfinite_checks_only_inexact_dtypes():
    assert_same(cp.asarray_chkfinite(cp.arange(3)), np.asarray_chkfinite(np.arange(3)))
    assert_same(cp.asarray_chkfinite([True, False]), np.asarray_chkfinite([True, False]))
    assert_same(cp.asarray_chkfinite(cp.zeros((0, 2))), np.asarray_chkfinite(np.zeros((0, 2))))


REQUIREMENTS = [
    None,
    "",
    "C",
    "F",
    "A",
    "W",
    "O",
    "E",
    "CW",
    ["F", "A"],
    ["C_CONTIGUOUS", "OWNDATA"],
    "FO",
    ["aligned", "writeable", "ensurearray"],
    ("FORTRAN",),
    ("CONTIGUOUS", "O"),
]


@gpu
@pytest.mark.parametrize("requirements", REQUIREMENTS, ids=repr)
@pytest.mark.parametrize("layout", ["c2d", "f2d", "strided", "negative", "1d", "0d", "empty"])
@pytest.mark.parametrize("dtype", [None, "float32", "int16"])
def test_require_like_numpy(layout, requirements, dtype):
    shape, view = LAYOUTS[layout]
    base = make_data(shape, "float32")
    a = view(base)
    xbase = cp.asarray(base)
    x = view(xbase)
    r = cp.require(x, dtype=dtype, requirements=requirements)
    e = np.require(a, dtype=dtype, requirements=requirements)
    assert_same(r, e)
    assert (r.flags.c_contiguous, r.flags.f_contiguous) == (e.flags.c_contiguous, e.flags.f_contiguous)
    assert (r.base is None) == e.flags.owndata
    # The input itself exactly where NumPy returns its input.
    assert (r is x) == (e is a)


@gpu
def test_require_of_host_data():
    a = make_data((3, 4), "int32")
    for requirements in (None, "F", "CO"):
        r = cp.require(a.tolist(), "float64", requirements)
        e = np.require(a.tolist(), "float64", requirements)
        assert_same(r, e)
        assert r.flags.f_contiguous == e.flags.f_contiguous and r.flags.c_contiguous == e.flags.c_contiguous


# Views of one (6, 8) base, applied alike to a NumPy array and to its cuarray copy.
VIEWS = {
    "all": lambda a: a,
    "copy": lambda a: a.copy(),
    "row0": lambda a: a[0],
    "row1": lambda a: a[1],
    "col0": lambda a: a[:, 0],
    "col1": lambda a: a[:, 1],
    "even_cols": lambda a: a[:, ::2],
    "odd_cols": lambda a: a[:, 1::2],
    "odd_rows_from_1": lambda a: a[1:, 1::2],
    "T": lambda a: a.T,
    "reversed": lambda a: a[::-1, ::-1],
    "every_third_reversed": lambda a: a[::-1, ::-3],
    "flat_tail": lambda a: a.reshape(-1)[40:],
    "flat_head": lambda a: a.reshape(-1)[:40],
    "empty": lambda a: a[2:2],
    "element": lambda a: a[3, 5, ...],  # a 0-d view (NumPy's a[3, 5] is a copy)
    "block": lambda a: a[2:4, 3:6],
}


@gpu
@pytest.mark.parametrize("vb", list(VIEWS))
@pytest.mark.parametrize("va", list(VIEWS))
@pytest.mark.parametrize("dtype", ["int8", "float64", "complex128"])
def test_shares_memory_like_numpy(va, vb, dtype):
    a = make_data((6, 8), dtype)
    x = cp.asarray(a)
    pa, pb, qa, qb = VIEWS[va](a), VIEWS[vb](a), VIEWS[va](x), VIEWS[vb](x)
    assert cp.shares_memory(qa, qb) == np.shares_memory(pa, pb)
    assert cp.shares_memory(qa, qb, max_work=None) == np.shares_memory(pa, pb, max_work=None)
    assert cp.may_share_memory(qa, qb) == np.may_share_memory(pa, pb)
    assert cp.may_share_memory(qa, qb, max_work=-1) == np.may_share_memory(pa, pb, max_work=-1)


@gpu
def test_shares_memory_of_views_of_another_dtype_and_broadcasts():
    x = cp.zeros(8, "int32")
    halves = x.view("float32")
    assert cp.shares_memory(halves[3:4], x[3]) and not cp.shares_memory(halves[3:4], x[4:])
    row = cp.broadcast_to(x[2:5], (4, 3))
    assert cp.shares_memory(row, x[4]) and not cp.shares_memory(row, x[5:])
    assert not cp.shares_memory(x, [1, 2]) and not cp.shares_memory(x, 3)
    assert not cp.shares_memory(x, cp.zeros(8, "int32"))


@gpu
def test_max_work_zero_compares_bounds_only():
    x = cp.arange(10)
    a = np.arange(10)
    for xp, v in ((np, a), (cp, x)):
        with pytest.raises(np.exceptions.TooHardError, match="Exceeded max_work"):
            xp.shares_memory(v[::2], v[1::2], max_work=0)
        assert not xp.shares_memory(v[:5], v[5:], max_work=0)
        assert xp.may_share_memory(v[::2], v[1::2]) and not xp.may_share_memory(v[::2], v[1::2], max_work=1)
