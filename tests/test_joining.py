"""Joining, splitting and rearranging against NumPy."""

import cuarray as cp
import numpy as np
import pytest
from conftest import (
    ALL_DTYPES,
    NONEMPTY_LAYOUTS,
    SOME_DTYPES,
    assert_same,
    different_values,
    dtype_id,
    make_data,
    make_pair,
)

pytestmark = pytest.mark.gpu


def _pair(shape, dtype="float32", seed=0):
    a = make_data(shape, dtype, seed=seed)
    return a, cp.asarray(a)


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_concatenate(axis):
    a, x = _pair((2, 3), seed=1)
    b, y = _pair((2, 3), "int16", seed=2)
    assert_same(cp.concatenate([x, y, x], axis=axis), np.concatenate([a, b, a], axis=axis))


def test_concatenate_errors_like_numpy():
    _, x = _pair((2, 3))
    _, y = _pair((2, 4))
    with pytest.raises(ValueError, match="along dimension 1"):
        cp.concatenate([x, y])
    with pytest.raises(ValueError, match="zero-dimensional"):
        cp.concatenate([cp.ones(()), cp.ones(())])
    with pytest.raises(np.exceptions.AxisError):
        cp.concatenate([x, x], axis=2)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.concatenate([x, np.ones((2, 3))])


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_stack(axis):
    a, x = _pair((2, 3), seed=1)
    b, y = _pair((2, 3), seed=2)
    assert_same(cp.stack([x, y], axis=axis), np.stack([a, b], axis=axis))


@pytest.mark.parametrize("name", ["vstack", "hstack", "dstack", "column_stack"])
@pytest.mark.parametrize("shape", [(3,), (2, 3)])
def test_stack_family(name, shape):
    a, x = _pair(shape, seed=1)
    b, y = _pair(shape, seed=2)
    assert_same(getattr(cp, name)((x, y)), getattr(np, name)((a, b)))


@pytest.mark.parametrize("name", ["atleast_1d", "atleast_2d", "atleast_3d"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_atleast(name, shape):
    a, x = _pair(shape)
    assert_same(getattr(cp, name)(x), getattr(np, name)(a))


@pytest.mark.parametrize("sections", [3, [1, 4]])
def test_split(sections):
    a, x = _pair((6, 2))
    for got, want in zip(cp.array_split(x, sections), np.array_split(a, sections)):
        assert_same(got, want)
    for got, want in zip(cp.split(x, sections), np.split(a, sections)):
        assert_same(got, want)
    with pytest.raises(ValueError):
        cp.split(x, 4)


def test_flips_and_rotations():
    a, x = _pair((3, 4, 2))
    assert_same(cp.flip(x), np.flip(a))
    assert_same(cp.flip(x, 1), np.flip(a, 1))
    assert_same(cp.fliplr(x), np.fliplr(a))
    assert_same(cp.flipud(x), np.flipud(a))
    for k in range(-1, 5):
        assert_same(cp.rot90(x, k), np.rot90(a, k))


@pytest.mark.parametrize("shift,axis", [(2, None), (-1, 0), (3, 1), ((1, 2), (0, 1))])
def test_roll(shift, axis):
    a, x = _pair((3, 4))
    assert_same(cp.roll(x, shift, axis), np.roll(a, shift, axis))


@pytest.mark.parametrize("reps", [2, (2, 3), (2, 1, 2)])
def test_tile(reps):
    a, x = _pair((2, 3))
    assert_same(cp.tile(x, reps), np.tile(a, reps))


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_repeat(axis):
    a, x = _pair((2, 3))
    assert_same(cp.repeat(x, 3, axis), np.repeat(a, 3, axis))


@pytest.mark.parametrize("k", [-1, 0, 2])
def test_diag_tril_triu(k):
    v, y = _pair((4,))
    assert_same(cp.diag(y, k), np.diag(v, k))
    a, x = _pair((2, 4, 5))
    assert_same(cp.diag(x[0], k), np.diag(a[0], k))
    assert_same(cp.tril(x, k), np.tril(a, k))
    assert_same(cp.triu(x, k), np.triu(a, k))


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
def test_meshgrid(indexing, sparse):
    a, x = _pair((3,))
    b, y = _pair((4,), seed=1)
    for got, want in zip(
        cp.meshgrid(x, y, indexing=indexing, sparse=sparse),
        np.meshgrid(a, b, indexing=indexing, sparse=sparse),
    ):
        assert_same(got, want)


@pytest.mark.parametrize("copy", [True, False])
@pytest.mark.parametrize("sparse", [False, True])
def test_meshgrid_container_is_numpys(copy, sparse):
    # NumPy 2 returns a tuple, except for sparse views (copy=False, sparse=True): the list it built.
    got = cp.meshgrid(cp.arange(3), cp.arange(2), copy=copy, sparse=sparse)
    want = np.meshgrid(np.arange(3), np.arange(2), copy=copy, sparse=sparse)
    assert type(got) is type(want)
    for g, w in zip(got, want):
        assert_same(g, w)


def test_indices():
    assert_same(cp.indices((2, 3)), np.indices((2, 3)))
    for got, want in zip(cp.indices((2, 3), sparse=True), np.indices((2, 3), sparse=True)):
        assert_same(got, want)


# ---- append, delete, insert, resize, hsplit/vsplit/dsplit, row_stack -----------------------------------------


@pytest.mark.parametrize("dtype", SOME_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_append(dtype, axis):
    a, x = _pair((2, 3), dtype, seed=1)
    b, y = _pair((2, 3), "int16", seed=2)
    assert_same(cp.append(x, y, axis=axis), np.append(a, b, axis=axis))


@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS + ["0d", "empty"])
def test_append_layouts_and_host_values(layout):
    x, a = make_pair(layout, "float32")
    assert_same(cp.append(x, [1, 2, 3]), np.append(a, [1, 2, 3]))
    assert_same(cp.append(x, 2.5), np.append(a, 2.5))


def test_append_errors_like_numpy():
    _, x = _pair((2, 3))
    with pytest.raises(ValueError, match="same number of dimensions"):
        cp.append(x, cp.ones(3, np.float32), axis=0)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.append(x, np.ones(3))


DELETE_OBJS = [
    0,
    -1,
    2,
    np.int64(1),
    slice(1, 3),
    slice(None, None, 2),
    slice(None, None, -2),
    slice(3, 1),
    [0, 2],
    [2, 0, 2],
    [],
    [[1, 2]],
    np.array([1, 3]),
    [True, False, True, False],
]


@pytest.mark.parametrize("obj", DELETE_OBJS, ids=range(len(DELETE_OBJS)))
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_delete(obj, axis):
    a, x = _pair((4, 4), "int32")
    try:
        want = np.delete(a, obj, axis=axis)
    except ValueError as e:  # the boolean mask's length must match the axis
        with pytest.raises(type(e)):
            cp.delete(x, obj, axis=axis)
        return
    assert_same(cp.delete(x, obj, axis=axis), want)


@pytest.mark.parametrize("obj", [[1], [0, 3], [-1, 0, -1], [[1, 2]], np.int64(2)])
def test_delete_device_indices(obj):
    a, x = _pair((4, 5), "float64")
    for axis in (None, 0, 1):
        assert_same(cp.delete(x, cp.asarray(obj), axis=axis), np.delete(a, np.asarray(obj), axis=axis))


def test_delete_device_mask():
    a, x = _pair((3, 5), "complex64")
    mask = np.array([True, False, False, True, True])
    assert_same(cp.delete(x, cp.asarray(mask), axis=1), np.delete(a, mask, axis=1))
    assert_same(cp.delete(x, cp.zeros(5, bool), axis=1), np.delete(a, np.zeros(5, bool), axis=1))


@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS + ["0d"])
@pytest.mark.parametrize("dtype", SOME_DTYPES, ids=dtype_id)
def test_delete_layouts(layout, dtype):
    x, a = make_pair(layout, dtype)
    assert_same(cp.delete(x, 0), np.delete(a, 0))
    assert_same(cp.delete(x, [0, -1]), np.delete(a, [0, -1]))
    if a.ndim:
        assert_same(cp.delete(x, cp.asarray([0]), axis=-1), np.delete(a, [0], axis=-1))


def test_delete_returns_a_copy():
    a, x = _pair((5,), "int64")
    r = cp.delete(x, slice(10, 20))
    r[...] = 0
    assert_same(x, a)


def test_delete_errors_like_numpy():
    _, x = _pair((3, 4))
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 1 with size 4"):
        cp.delete(x, 4, axis=1)
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 1 with size 4"):
        cp.delete(x, [4], axis=1)  # one index is taken as an int, as NumPy's
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 1 with size 4"):
        cp.delete(x, cp.asarray([4]), axis=1)  # a device array of one index too
    with pytest.raises(IndexError, match="out of bounds"):
        cp.delete(x, [0, 12])
    with pytest.raises(IndexError, match="out of bounds"):
        cp.delete(x, cp.asarray([0, 3]), axis=0)
    with pytest.raises(IndexError, match="integer"):
        cp.delete(x, cp.asarray([1.0]), axis=0)
    with pytest.raises(IndexError, match="integer"):
        cp.delete(x, [1.0], axis=0)
    with pytest.raises(ValueError, match="boolean array argument obj to delete"):
        cp.delete(x, cp.asarray([True, False]), axis=1)
    with pytest.raises(ValueError, match="boolean array argument obj to delete"):
        cp.delete(x, True)
    with pytest.raises(np.exceptions.AxisError):
        cp.delete(x, 0, axis=2)
    with pytest.raises(np.exceptions.AxisError):
        cp.delete(cp.ones(()), 0, axis=0)


INSERTS = [
    (1, 9, None),
    (-1, [7, 8], None),
    (3, [[7, 8, 9]], 0),
    ([1], [7, 8, 9], 1),
    (1, [7, 8, 9], 1),
    (1, [[7, 8, 9]], 1),
    ([1], [[7], [8], [9]], 1),
    ([2, 0, 2, 1], [10, 20, 30, 40], None),
    ([1, 1], 5.7, 0),
    ([0, -1, 3], [[1], [2], [3]], 0),
    (slice(0, 2), 0, 0),
    (slice(None, None, -1), list(range(9)), None),
    ([], 9, None),
    (np.array([True, False, True]), 9, 1),
    (np.array([True, False, False]), [[1, 2, 3]], 1),
    (np.int64(3), 1.5, 0),
    ([3, 0], 2, 0),
]


@pytest.mark.parametrize("obj,values,axis", INSERTS, ids=range(len(INSERTS)))
@pytest.mark.parametrize("dtype", ["int32", "float32", "bool"])
def test_insert(obj, values, axis, dtype):
    a, x = _pair((3, 3), dtype)
    assert_same(cp.insert(x, obj, values, axis=axis), np.insert(a, obj, values, axis=axis))


@pytest.mark.parametrize("obj", [[1], [0, 2], [2, 0, -1, 2], 1, -3])
def test_insert_device_indices_and_values(obj):
    a, x = _pair((3, 4), "float64")
    b, y = _pair((4,), "int8", seed=3)
    dev = cp.asarray(obj)
    assert_same(cp.insert(x, dev, y, axis=0), np.insert(a, np.asarray(obj), b, axis=0))
    assert_same(cp.insert(x, dev, 7), np.insert(a, np.asarray(obj), 7))


def test_insert_device_mask():
    a, x = _pair((2, 4), "uint16")
    mask = np.array([False, True, False, True])
    assert_same(cp.insert(x, cp.asarray(mask), 5, axis=1), np.insert(a, mask, 5, axis=1))
    assert_same(
        cp.insert(x, cp.asarray(mask), cp.asarray([[1, 2]]), axis=1), np.insert(a, mask, [[1, 2]], axis=1)
    )


@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS + ["0d", "empty"])
@pytest.mark.parametrize("dtype", SOME_DTYPES, ids=dtype_id)
def test_insert_layouts(layout, dtype):
    x, a = make_pair(layout, dtype)
    b = make_data((2,), dtype, seed=4)
    assert_same(cp.insert(x, 0, cp.asarray(b)), np.insert(a, 0, b))
    assert_same(cp.insert(x, [0, 0], cp.asarray(b)), np.insert(a, [0, 0], b))
    if a.ndim:
        n = a.shape[-1]
        assert_same(cp.insert(x, [n, 0], cp.asarray(b[0]), axis=-1), np.insert(a, [n, 0], b[0], axis=-1))


def test_insert_errors_like_numpy():
    _, x = _pair((3, 4))
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 1 with size 4"):
        cp.insert(x, 5, 0, axis=1)
    with pytest.raises(IndexError, match="out of bounds"):
        cp.insert(x, [1, 5], 0, axis=0)
    with pytest.raises(IndexError, match="out of bounds"):
        cp.insert(x, cp.asarray([1, 20]), 0)
    with pytest.raises(IndexError, match="integer"):
        cp.insert(x, [1.0, 2.0], 0)
    with pytest.raises(ValueError, match="one dimensional or scalar"):
        cp.insert(x, [[1, 2]], 0)
    with pytest.raises(ValueError, match="boolean array argument obj to insert"):
        cp.insert(x, cp.ones((2, 2), bool), 0)
    with pytest.raises(ValueError):
        cp.insert(x, 1, [1, 2, 3], axis=0)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.insert(x, 1, np.ones(4))
    with pytest.raises(np.exceptions.AxisError):
        cp.insert(cp.ones(()), 0, 1, axis=0)


RESIZE_SHAPES = [(2, 3), 7, (4, 5), (3,), (1, 2, 2), (0,), (2, 0), (), 24, (5, 6)]


@pytest.mark.parametrize("new_shape", RESIZE_SHAPES, ids=range(len(RESIZE_SHAPES)))
@pytest.mark.parametrize("layout", ["c2d", "f2d", "negative", "0d", "empty"])
def test_resize(new_shape, layout):
    x, a = make_pair(layout, "int16")
    assert_same(cp.resize(x, new_shape), np.resize(a, new_shape))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_resize_dtypes_and_copy(dtype):
    a, x = _pair((2, 3), dtype)
    for shape in ((2, 2), (3, 5)):
        r = cp.resize(x, shape)
        assert_same(r, np.resize(a, shape))
        r[...] = cp.asarray(different_values(np.resize(a, shape)))
        assert_same(x, a)  # a new array, never a view of the input


def test_resize_errors_like_numpy():
    _, x = _pair((2, 3))
    with pytest.raises(ValueError, match="non-negative"):
        cp.resize(x, (2, -1))
    with pytest.raises(TypeError):
        cp.resize(x, 2.5)


SPLITS = [
    ("hsplit", (4,), 2),
    ("hsplit", (3, 4), 2),
    ("hsplit", (2, 6, 2), [1, 4]),
    ("vsplit", (4, 3), 2),
    ("vsplit", (6, 2, 2), [2, 3, 9]),
    ("dsplit", (2, 2, 4), 2),
    ("dsplit", (1, 2, 6, 1), [0, 5]),
]


@pytest.mark.parametrize("name,shape,sections", SPLITS, ids=range(len(SPLITS)))
def test_hvdsplit(name, shape, sections):
    a, x = _pair(shape, "float16")
    got, want = getattr(cp, name)(x, sections), getattr(np, name)(a, sections)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w)


def test_hvdsplit_errors_like_numpy():
    with pytest.raises(ValueError, match="hsplit only works on arrays of 1 or more dimensions"):
        cp.hsplit(cp.ones(()), 1)
    with pytest.raises(ValueError, match="vsplit only works on arrays of 2 or more dimensions"):
        cp.vsplit(cp.ones(4), 2)
    with pytest.raises(ValueError, match="dsplit only works on arrays of 3 or more dimensions"):
        cp.dsplit(cp.ones((2, 4)), 2)
    with pytest.raises(ValueError, match="equal division"):
        cp.hsplit(cp.ones((2, 5)), 2)


def test_row_stack_warns_as_numpy_and_is_vstack():
    # NumPy 2.0 to 2.4 warn so (2.5 removed the alias).
    a, x = _pair((3,), seed=1)
    b, y = _pair((2, 3), seed=2)
    with pytest.warns(
        DeprecationWarning, match="^`row_stack` alias is deprecated. Use `np.vstack` directly.$"
    ):
        assert_same(cp.row_stack((x, y)), np.vstack((a, b)))
    with pytest.warns(DeprecationWarning):
        assert_same(cp.row_stack([x, x], dtype=np.float64), np.vstack([a, a], dtype=np.float64))


@pytest.mark.parametrize("obj", [[-8, 0], [-7, 0], [0, -8], [-8, -7], [-8, 3, 3], [5, -6, -8]], ids=str)
@pytest.mark.parametrize("on_device", [False, True])
def test_insert_indices_below_minus_n_as_numpy(obj, on_device):
    # NumPy adds n to negative indices once: one in [-n - count, -n) stays negative and counts from the end of
    # the new array, and the old elements fill the other places in order.
    a = np.arange(6) * 10
    values = np.arange(100, 100 + len(obj))
    call = lambda: cp.insert(cp.asarray(a), cp.asarray(obj) if on_device else obj, cp.asarray(values))
    try:
        want = np.insert(a, obj, values)
    except ValueError as e:  # two new elements on one place
        with pytest.raises(ValueError, match=f"^{e}$"):
            call()
        return
    assert_same(call(), want)
