"""Views (reshape, ravel, transpose, ...), basic slicing get/set, and the module-level shape
functions. Every view is checked to share memory exactly where NumPy's does (assert_write_through)."""

import gc
import itertools

import cuarray as cp
import numpy as np
import pytest
from conftest import (
    ALL_DTYPES,
    LAYOUT_NAMES,
    NONEMPTY_LAYOUTS,
    SOME_DTYPES,
    assert_same,
    assert_strides_match,
    assert_write_through,
    dtype_id,
    make_data,
    make_pair,
    make_pair_with_base,
)

pytestmark = pytest.mark.gpu


# ---- reshape ------------------------------------------------------------------------------------


def reshape_targets(size):
    if size == 0:
        return [(0,), (3, 0), (-1,), (1, 0, 3), (-1, 3), (0, 1)]
    if size == 1:
        return [(), (1,), (1, 1), (-1,), (1, -1, 1)]
    out = [(size,), (-1,), (1, size), (size, 1), (1, -1, 1)]
    for d in range(2, size):
        if size % d == 0:
            out += [(d, size // d), (d, -1), (-1, d)]
            for e in range(2, size // d):
                if (size // d) % e == 0:
                    out.append((d, e, size // d // e))
                    break
    return out


def do_reshape(x, shape, order, style):
    if style == "tuple":
        return x.reshape(shape, order=order)
    if style == "varargs":
        return x.reshape(*shape, order=order) if shape else x.reshape(shape, order=order)
    return cp.reshape(x, shape, order=order)


@pytest.mark.parametrize("style", ["tuple", "varargs", "function"])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_reshape(layout, order, style):
    xb, ab, x, a = make_pair_with_base(layout, np.int32)
    for shape in reshape_targets(a.size):
        e = np.reshape(a, shape, order=order)
        r = do_reshape(x, shape, order, style)
        assert_same(r, e)
        if np.shares_memory(e, ab):
            assert_strides_match(r, e)
        assert_write_through(xb, ab, r, e)  # a view exactly when NumPy's reshape is a view
        # A copying reshape is, as in NumPy, a view of its copy: owndata False, a base that is not the input.
        assert r.flags.owndata == e.flags.owndata
        assert (r.base is None) == (e.base is None)
        if not np.shares_memory(e, ab) and e.base is not None and e.size:
            assert np.shares_memory(r, r.base) and not np.shares_memory(r.base, xb)


def test_reshape_int_shape():
    a = make_data((3, 4), np.float64)
    x = cp.asarray(a)
    assert_same(x.reshape(12), a.reshape(12))
    assert_same(cp.reshape(x, 12), np.reshape(a, 12))
    assert_same(x.reshape(-1), a.reshape(-1))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_reshape_dtypes(dtype):
    a = make_data((2, 3, 4), dtype)
    x = cp.asarray(a)
    assert_same(x.reshape(4, 6), a.reshape(4, 6))
    assert_same(x.transpose(1, 0, 2).reshape(-1), a.transpose(1, 0, 2).reshape(-1))
    assert_same(x[:, ::-1].reshape((3, 8), order="F"), a[:, ::-1].reshape((3, 8), order="F"))


@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_reshape_order_a_and_copy(layout):
    xb, ab, x, a = make_pair_with_base(layout, np.float32)
    shape = (a.size,)
    assert_same(x.reshape(shape, order="A"), a.reshape(shape, order="A"))
    for copy in (None, True, False):
        for call in (lambda: x.reshape(shape, copy=copy), lambda: cp.reshape(x, shape, copy=copy)):  # noqa: B023 - called in this iteration
            try:
                e = a.reshape(shape, copy=copy)
            except ValueError as err:
                assert str(err) == "Unable to avoid creating a copy while reshaping."
                with pytest.raises(ValueError, match="Unable to avoid creating a copy while reshaping"):
                    call()
                continue
            r = call()
            assert_same(r, e)
            assert_write_through(xb, ab, r, e)  # a copy exactly when NumPy's is


def test_reshape_bad_arguments_are_numpys_errors():
    x = cp.arange(6)
    with pytest.raises(TypeError, match=r"reshape\(\) takes exactly 1 argument \(0 given\)"):
        x.reshape()
    with pytest.raises(TypeError, match="'shape' is an invalid keyword argument"):
        x.reshape(shape=(2, 3))
    with pytest.raises(TypeError, match="'tuple' object cannot be interpreted as an integer"):
        x.reshape((2, 3), 1)
    with pytest.raises(TypeError, match="'float' object cannot be interpreted as an integer"):
        x.reshape(2.0, 3)
    with pytest.raises(ValueError, match="order 'K' is not permitted for reshaping"):
        x.reshape(2, 3, order="K")
    with pytest.raises(ValueError, match="cannot reshape array of size 6 into shape"):
        x.reshape(4, 2)
    assert x.reshape(np.int64(2), np.int32(3)).shape == (2, 3)


# ---- ravel / flatten ----------------------------------------------------------------------------


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_ravel(layout, order):
    xb, ab, x, a = make_pair_with_base(layout, np.float32)
    for r, e in (
        (x.ravel(order=order), a.ravel(order=order)),
        (cp.ravel(x, order=order), np.ravel(a, order=order)),
    ):
        assert_same(r, e)
        if np.shares_memory(e, ab):
            assert_write_through(xb, ab, r, e)  # NumPy made a view: so must cuarray


@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_ravel_default(layout):
    x, a = make_pair(layout, np.int8)
    assert_same(x.ravel(), a.ravel())
    assert_same(cp.ravel(x), np.ravel(a))


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_flatten_always_copies(layout, order):
    xb, ab, x, a = make_pair_with_base(layout, np.complex64)
    r, e = x.flatten(order=order), a.flatten(order=order)
    assert_same(r, e)
    assert r.flags.owndata and r.base is None
    assert_write_through(xb, ab, r, e)


def test_flatten_default_order():
    a = make_data((3, 4), np.int64).T
    x = cp.asarray(make_data((3, 4), np.int64)).T
    assert_same(x.flatten(), a.flatten())


# ---- transpose / swapaxes -----------------------------------------------------------------------


@pytest.mark.parametrize("layout", ["c2d", "f2d", "negative", "3d_permuted", "1d", "0d", "empty"])
def test_transpose(layout):
    xb, ab, x, a = make_pair_with_base(layout, np.float64)
    cases = [(x.transpose(), a.transpose()), (x.T, a.T), (cp.transpose(x), np.transpose(a))]
    for axes in itertools.permutations(range(a.ndim)):
        cases.append((x.transpose(axes), a.transpose(axes)))
        cases.append((cp.transpose(x, axes), np.transpose(a, axes)))
        if axes:
            cases.append((x.transpose(*axes), a.transpose(*axes)))
            neg = tuple(ax - a.ndim for ax in axes)
            cases.append((x.transpose(neg), a.transpose(neg)))
    for r, e in cases:
        assert_same(r, e)
        assert_strides_match(r, e)
        assert_write_through(xb, ab, r, e)


@pytest.mark.parametrize("a1, a2", [(0, 1), (1, 0), (0, 2), (0, -1), (-1, -2), (1, 1)])
def test_swapaxes(a1, a2):
    xb, ab, x, a = make_pair_with_base("3d_permuted", np.int16)
    r, e = x.swapaxes(a1, a2), a.swapaxes(a1, a2)
    assert_same(r, e)
    assert_strides_match(r, e)
    assert_write_through(xb, ab, r, e)


# ---- squeeze / expand_dims ----------------------------------------------------------------------

SQUEEZE_BASES = {
    "c": lambda a: a,
    "negative": lambda a: a[:, ::-1, :, ::-2],
}


@pytest.mark.parametrize("axis", [None, 0, 2, -2, -4, (0, 2), (2, 0), ()], ids=str)
@pytest.mark.parametrize("view", list(SQUEEZE_BASES))
def test_squeeze(view, axis):
    ab = make_data((1, 3, 1, 4), np.uint16)
    xb = cp.asarray(ab)
    a, x = SQUEEZE_BASES[view](ab), SQUEEZE_BASES[view](xb)
    for r, e in (
        (x.squeeze(axis=axis), a.squeeze(axis=axis)),
        (cp.squeeze(x, axis=axis), np.squeeze(a, axis=axis)),
        (cp.squeeze(x, axis), np.squeeze(a, axis)),
    ):
        assert_same(r, e)
        assert_write_through(xb, ab, r, e)


@pytest.mark.parametrize("shape", [(), (1,), (1, 1), (5,), (0, 1)], ids=str)
def test_squeeze_small_shapes(shape):
    a = make_data(shape, np.float32)
    x = cp.asarray(a)
    assert_same(x.squeeze(), a.squeeze())


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3, (0, 2), (0, -1), (1, 3), (0, 1, 2)], ids=str)
@pytest.mark.parametrize("layout", ["c2d", "negative", "0d", "empty"])
def test_expand_dims(layout, axis):
    xb, ab, x, a = make_pair_with_base(layout, np.bool_)
    try:
        e = np.expand_dims(a, axis)
    except np.exceptions.AxisError:
        pytest.skip("axis out of range for this layout (tested in test_errors.py)")
    r = cp.expand_dims(x, axis)
    assert_same(r, e)
    assert_write_through(xb, ab, r, e)


# ---- diagonal -----------------------------------------------------------------------------------

DIAGONAL_CASES = [
    ((4, 5), {}),
    ((4, 5), {"offset": 1}),
    ((4, 5), {"offset": -2}),
    ((4, 5), {"offset": 4}),
    ((4, 5), {"offset": 7}),
    ((4, 5), {"offset": -9}),
    ((5, 4), {"offset": 0}),
    ((3, 4, 5), {}),
    ((3, 4, 5), {"axis1": 1, "axis2": 2}),
    ((3, 4, 5), {"axis1": 0, "axis2": 2, "offset": 1}),
    ((3, 4, 5), {"axis1": 2, "axis2": 0, "offset": -1}),
    ((3, 4, 5), {"axis1": -1, "axis2": -2}),
    ((0, 3), {}),
    ((3, 3), {"offset": -1}),
]


@pytest.mark.parametrize("negative", [False, True], ids=["c", "negative"])
@pytest.mark.parametrize("shape, kw", DIAGONAL_CASES, ids=[f"{s}-{k}" for s, k in DIAGONAL_CASES])
def test_diagonal(shape, kw, negative):
    ab = make_data(shape, np.float32)
    xb = cp.asarray(ab)
    a, x = (ab[::-1], xb[::-1]) if negative else (ab, xb)
    r, e = x.diagonal(**kw), a.diagonal(**kw)
    assert_same(r, e)
    assert_strides_match(r, e)
    e.flags.writeable = True  # NumPy's diagonal is a read-only view; cuarray's is writable
    assert_write_through(xb, ab, r, e)


# ---- broadcast_to / broadcast_arrays ------------------------------------------------------------

BROADCAST_CASES = [
    ((3,), (2, 3)),
    ((3,), (4, 2, 3)),
    ((3, 1), (3, 4)),
    ((1, 1), (2, 5)),
    ((), (2, 2)),
    ((), ()),
    ((0,), (2, 0)),
    ((1,), (0,)),
    ((2, 1, 3), (2, 4, 3)),
    ((3,), 3),
    ((1,), 4),
]


@pytest.mark.parametrize("dtype", SOME_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("src, shape", BROADCAST_CASES, ids=[f"{s}->{t}" for s, t in BROADCAST_CASES])
def test_broadcast_to(src, shape, dtype):
    a = make_data(src, dtype)
    x = cp.asarray(a)
    r, e = cp.broadcast_to(x, shape), np.broadcast_to(a, shape)
    assert_same(r, e)
    assert_strides_match(r, e)
    if x.size:
        # A view: a change to the source shows through.
        new = np.logical_not(a) if a.dtype.kind == "b" else a + np.ones((), a.dtype)
        x[...] = cp.asarray(new)
        assert_same(r, np.broadcast_to(new, shape))


def test_broadcast_to_negative_strides():
    a = make_data((4, 3), np.int64)[::-1, ::-1]
    x = cp.asarray(make_data((4, 3), np.int64))[::-1, ::-1]
    r, e = cp.broadcast_to(x[:, :1], (4, 5)), np.broadcast_to(a[:, :1], (4, 5))
    assert_same(r, e)


@pytest.mark.parametrize(
    "shapes",
    [[(3, 1), (1, 4)], [(), (2, 3)], [(5,), (2, 1), (3, 2, 1)], [(2, 3)], [(0, 1), (1, 4)], [(1,), (1,)]],
    ids=str,
)
def test_broadcast_arrays(shapes):
    dtypes = [np.float32, np.int8, np.complex128]
    arrays = [make_data(s, dtypes[i % 3], seed=i) for i, s in enumerate(shapes)]
    got = cp.broadcast_arrays(*[cp.asarray(a) for a in arrays])
    expected = np.broadcast_arrays(*arrays)
    assert len(got) == len(expected)
    for r, e in zip(got, expected):
        assert_same(r, e)


# ---- basic indexing: get ------------------------------------------------------------------------

E = Ellipsis
GET_INDICES = [
    0,
    -1,
    3,
    -4,
    (1, 2),
    (-1, -2, -3),
    (1, 2, 3),
    (0, -5, 5),
    np.int64(2),
    (np.int32(-1), slice(None)),
    slice(None),
    slice(1, 3),
    slice(None, None, 2),
    slice(None, None, -1),
    slice(3, 0, -2),
    slice(-2, None),
    slice(10, 20),
    slice(-10, 10),
    slice(2, 2),
    slice(None, None, 3),
    (slice(None), 2),
    (E, 1),
    (1, E),
    (E,),
    (),
    None,
    (None,),
    (None, 1, None, slice(None, None, -2)),
    (E, None),
    (slice(1, None), None, E, -1),
    (slice(None, None, -1),) * 3,
    (0, slice(2, 2)),
    (slice(None, None, -2), E, slice(1, -1, 2)),
    (None, E, None),
    (1, slice(None), None, -1),
    (slice(4, None, -3), slice(-1, -6, -2)),
    (slice(None, 1, -1),),
]


def _np_view(a, idx):
    """a[idx] as a view even when it is a single element (cuarray returns a 0-d array there)."""
    t = idx if isinstance(idx, tuple) else (idx,)
    if not any(i is Ellipsis for i in t):
        t = t + (Ellipsis,)
    return a[t]


@pytest.mark.parametrize("dtype", [np.float64, np.int8, np.bool_, np.complex64, np.uint64], ids=dtype_id)
@pytest.mark.parametrize("idx", GET_INDICES, ids=repr)
def test_getitem(idx, dtype):
    ab = make_data((4, 5, 6), dtype)
    xb = cp.asarray(ab)
    r = xb[idx]
    assert_same(r, ab[idx])  # a single element is a 0-d cuarray array, as in CuPy
    assert_write_through(xb, ab, r, _np_view(ab, idx))


@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS)
def test_getitem_of_views(layout):
    xb, ab, x, a = make_pair_with_base(layout, np.float32)
    for idx in (0, -1, slice(None, None, -1), (E, slice(None, None, 2)), (None, E)):
        r = x[idx]
        assert_same(r, a[idx])
        assert_write_through(xb, ab, r, _np_view(a, idx))


def test_getitem_0d():
    a = np.array(4.5)
    x = cp.asarray(a)
    for idx in ((), E, None, (None, E, None)):
        assert_same(x[idx], a[idx])


def _random_index(rng, shape):
    n_int_or_slice = int(rng.integers(0, len(shape) + 1))
    parts = []
    for dim in shape[:n_int_or_slice]:
        if dim and rng.random() < 0.3:
            parts.append(int(rng.integers(-dim, dim)))
        else:
            bounds = [None if rng.random() < 0.3 else int(rng.integers(-dim - 2, dim + 3)) for _ in range(2)]
            step = None if rng.random() < 0.3 else int(rng.choice([-3, -2, -1, 1, 2, 3]))
            parts.append(slice(bounds[0], bounds[1], step))
    for _ in range(int(rng.integers(0, 3))):
        parts.insert(int(rng.integers(0, len(parts) + 1)), None)
    if rng.random() < 0.4:
        parts.insert(int(rng.integers(0, len(parts) + 1)), Ellipsis)
    return tuple(parts)


@pytest.mark.parametrize("seed", range(4))
def test_getitem_random_basic_indices(seed):
    rng = np.random.default_rng(seed)
    ab = make_data((5, 6, 7), np.int32, seed=seed)
    xb = cp.asarray(ab)
    for _ in range(60):
        idx = _random_index(rng, ab.shape)
        r, e = xb[idx], ab[idx]
        assert_same(r, e)
        if isinstance(e, np.ndarray):
            assert_strides_match(r, e)
        # ...and a second index on the view
        idx2 = _random_index(rng, np.shape(e))
        assert_same(r[idx2], np.asarray(e)[idx2])


# ---- basic indexing: set ------------------------------------------------------------------------

SET_INDICES = [
    0,
    -1,
    (1, 2, 3),
    (-1, -2, -3),
    slice(1, 3),
    (slice(None, None, -1), 2),
    (E, slice(None, None, -2)),
    (slice(None), slice(1, 4), slice(None, None, 3)),
    (None, 1),
    E,
    (),
    (slice(2, 2),),
]


def _python_scalar(dtype):
    return {"b": True, "i": 5, "u": 5, "f": 2.5, "c": 1.5 - 2j}[np.dtype(dtype).kind]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("idx", SET_INDICES, ids=repr)
def test_setitem_values(idx, dtype):
    base = make_data((4, 5, 6), dtype)
    tshape = base[idx].shape if isinstance(base[idx], np.ndarray) else ()
    values = {
        "python_scalar": lambda: (_python_scalar(dtype), _python_scalar(dtype)),
        "numpy_scalar": lambda: (make_data((), dtype, seed=7)[()],) * 2,
        "cuarray_same_shape": lambda: (cp.asarray(v := make_data(tshape, dtype, seed=8)), v),
        "cuarray_broadcast": lambda: (cp.asarray(v := make_data(tshape[1:], dtype, seed=9)), v),
        "cuarray_0d": lambda: (cp.asarray(v := make_data((), dtype, seed=10)), v),
        "numpy_array": lambda: ((v := make_data(tshape, dtype, seed=11)), v),
        "cuarray_other_dtype": lambda: (cp.asarray(v := make_data(tshape, np.uint8, seed=12)), v),
    }
    for kind, make in values.items():
        a = base.copy()
        x = cp.asarray(base)
        cp_value, np_value = make()
        a[idx] = np_value
        x[idx] = cp_value
        try:
            assert_same(x, a)
        except AssertionError as err:
            raise AssertionError(f"setting {kind}: {err}") from None


@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS)
def test_setitem_into_views(layout):
    xb, ab, x, a = make_pair_with_base(layout, np.int64)
    x[0] = 99
    a[0] = 99
    x[..., -1] = cp.asarray(np.array(-7))
    a[..., -1] = -7
    assert_same(x, a)
    assert_same(xb, ab)


@pytest.mark.parametrize("dtype", SOME_DTYPES, ids=dtype_id)
def test_setitem_0d(dtype):
    a = make_data((), dtype)
    x = cp.asarray(a)
    v = make_data((), dtype, seed=4)
    x[()] = v[()]
    a[()] = v[()]
    assert_same(x, a)
    x[...] = cp.asarray(make_data((), dtype, seed=5))
    a[...] = make_data((), dtype, seed=5)
    assert_same(x, a)


def test_setitem_from_non_contiguous_sources():
    a = make_data((6, 8), np.float64)
    x = cp.asarray(a)
    src = make_data((8, 6), np.float64, seed=2)
    x[:, :] = cp.asarray(src).T
    a[:, :] = src.T
    assert_same(x, a)
    x[::2, ::-1] = cp.asarray(src)[1:4, 5:6]
    a[::2, ::-1] = src[1:4, 5:6]
    assert_same(x, a)
    x[1] = cp.asarray(src)[::-1, 2][:8]
    a[1] = src[::-1, 2][:8]
    assert_same(x, a)


@pytest.mark.parametrize("case", ["shift_right", "shift_left", "reverse", "reverse_2d", "transpose"])
def test_setitem_overlapping_source(case):
    a = make_data((6, 6), np.int32)
    x = cp.asarray(a)
    if case == "shift_right":
        x[1:] = x[:-1]
        a[1:] = a[:-1]
    elif case == "shift_left":
        x[:-1] = x[1:]
        a[:-1] = a[1:]
    elif case == "reverse":
        x[:] = x[::-1]
        a[:] = a[::-1]
    elif case == "reverse_2d":
        x[:, :] = x[::-1, ::-1]
        a[:, :] = a[::-1, ::-1]
    else:
        x[...] = x.T
        a[...] = a.T
    assert_same(x, a)


# ---- views keep their memory alive --------------------------------------------------------------


def test_view_keeps_base_alive():
    a = make_data((64, 64), np.float32)
    x = cp.asarray(a)
    v = x[3:40:2, ::-3]
    w = x.T.reshape(-1)[5:9]  # a copy; must not matter
    del x
    gc.collect()
    cp.get_default_memory_pool().free_all_blocks()
    junk = [cp.full((64, 64), 9.0, dtype=np.float32) for _ in range(8)]
    assert_same(v, a[3:40:2, ::-3])
    assert_same(w, a.T.reshape(-1)[5:9])
    assert v.base is not None
    assert len(junk) == 8


def test_view_of_view_keeps_memory_alive():
    a = make_data((100,), np.complex128)
    v = cp.asarray(a)[10:90][::-3][2:]
    gc.collect()
    cp.get_default_memory_pool().free_all_blocks()
    junk = cp.zeros(1000, dtype=np.complex128)
    assert_same(v, a[10:90][::-3][2:])
    assert junk.size == 1000


# ---- ascontiguousarray / asfortranarray ---------------------------------------------------------


@pytest.mark.parametrize("fn", ["ascontiguousarray", "asfortranarray"])
@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS + ["empty"])
def test_ascontiguous_asfortran(layout, fn):
    xb, ab, x, a = make_pair_with_base(layout, np.float64)
    r, e = getattr(cp, fn)(x), getattr(np, fn)(a)
    assert_same(r, e)
    assert r.flags.c_contiguous == e.flags.c_contiguous
    assert r.flags.f_contiguous == e.flags.f_contiguous
    assert_write_through(xb, ab, r, e)  # no copy when the input is already in that order


@pytest.mark.parametrize("fn", ["ascontiguousarray", "asfortranarray"])
@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex128], ids=dtype_id)
def test_ascontiguous_asfortran_dtype(fn, dtype):
    x, a = make_pair("negative", np.float64)
    assert_same(getattr(cp, fn)(x, dtype=dtype), getattr(np, fn)(a, dtype=dtype))


# ---- copyto -------------------------------------------------------------------------------------


@pytest.mark.parametrize("dst", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("src", ALL_DTYPES, ids=dtype_id)
def test_copyto_same_kind(src, dst):
    a_src = make_data((4,), src, seed=1)
    a_dst = make_data((3, 4), dst, seed=2)
    x_src, x_dst = cp.asarray(a_src), cp.asarray(a_dst)
    try:
        np.copyto(a_dst, a_src)
    except TypeError:
        with pytest.raises(TypeError):
            cp.copyto(x_dst, x_src)
        assert_same(x_dst, make_data((3, 4), dst, seed=2))  # left untouched
        return
    assert cp.copyto(x_dst, x_src) is None
    assert_same(x_dst, a_dst)


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize(
    "src, dst",
    [
        (np.int32, np.int64),
        (np.int64, np.int32),
        (np.float64, np.int16),
        (np.float32, np.float32),
        (np.uint8, np.int8),
        (np.bool_, np.float16),
        (np.float32, np.complex64),
        (np.complex64, np.complex128),
    ],
    ids=lambda d: np.dtype(d).name,
)
def test_copyto_casting(src, dst, casting):
    a_src = make_data((2, 3), src)
    a_dst = make_data((2, 3), dst, seed=1)
    x_src, x_dst = cp.asarray(a_src), cp.asarray(a_dst)
    try:
        np.copyto(a_dst, a_src, casting=casting)
    except TypeError:
        with pytest.raises(TypeError):
            cp.copyto(x_dst, x_src, casting=casting)
        assert_same(x_dst, make_data((2, 3), dst, seed=1))
        return
    cp.copyto(x_dst, x_src, casting=casting)
    assert_same(x_dst, a_dst)


@pytest.mark.parametrize("value", [7, 2.5, True, 1j, np.float32(2.5), np.int64(-3), np.uint8(200)], ids=repr)
@pytest.mark.parametrize("dst", ALL_DTYPES, ids=dtype_id)
def test_copyto_scalar(dst, value):
    a = make_data((2, 3), dst)
    x = cp.asarray(a)
    try:
        np.copyto(a, value)
    except TypeError:
        with pytest.raises(TypeError):
            cp.copyto(x, value)
        assert_same(x, make_data((2, 3), dst))
        return
    cp.copyto(x, value)
    assert_same(x, a)


@pytest.mark.parametrize("src_shape", [(), (1,), (4,), (3, 1), (1, 1), (3, 4)], ids=str)
@pytest.mark.parametrize("layout", ["c2d", "f2d", "negative"])
def test_copyto_broadcasting_into_views(layout, src_shape):
    xb, ab, x, a = make_pair_with_base(layout, np.float32)
    if not all(s in (1, d) for s, d in zip(src_shape[::-1], a.shape[::-1])):
        pytest.skip("not broadcastable to this layout")
    s = make_data(src_shape, np.float32, seed=3)
    cp.copyto(x, cp.asarray(s))
    np.copyto(a, s)
    assert_same(x, a)
    assert_same(xb, ab)
