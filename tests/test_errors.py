"""Bad input raises NumPy's exception type (and, where the spec fixes it, NumPy's message), and a
failed operation leaves its target unchanged."""

import re

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, assert_same, dtype_id, make_data

gpu = pytest.mark.gpu

AxisError = np.exceptions.AxisError


def _set(x, idx, value):
    x[idx] = value


# Each case runs with xp=numpy (to confirm the expectation) and xp=cuarray.
# (name, function of xp, expected exception type, message regex fixed by the spec or None)
CASES = [
    (
        "reshape_size",
        lambda xp: xp.arange(6).reshape(4),
        ValueError,
        re.escape("cannot reshape array of size 6 into shape (4,)"),
    ),
    (
        "reshape_size_2d",
        lambda xp: xp.zeros((2, 3)).reshape((4, 2)),
        ValueError,
        "cannot reshape array of size 6 into shape",
    ),
    (
        "reshape_function",
        lambda xp: xp.reshape(xp.arange(6), (5,)),
        ValueError,
        re.escape("cannot reshape array of size 6 into shape (5,)"),
    ),
    ("reshape_two_unknown", lambda xp: xp.arange(6).reshape(-1, -1), ValueError, None),
    ("reshape_float_shape", lambda xp: xp.arange(6).reshape(2.5), TypeError, None),
    ("index_out_of_range", lambda xp: xp.arange(3)[5], IndexError, None),
    ("index_out_of_range_negative", lambda xp: xp.arange(3)[-4], IndexError, None),
    ("index_out_of_range_axis1", lambda xp: xp.zeros((2, 3))[:, 3], IndexError, None),
    ("index_out_of_range_0size", lambda xp: xp.zeros((0, 3))[0], IndexError, None),
    ("too_many_indices", lambda xp: xp.arange(3)[0, 0], IndexError, None),
    ("too_many_indices_2d", lambda xp: xp.zeros((2, 2))[0, 1, 0], IndexError, None),
    ("too_many_indices_0d", lambda xp: xp.asarray(5.0)[0], IndexError, None),
    ("float_index", lambda xp: xp.arange(3)[1.5], IndexError, None),
    ("two_ellipses", lambda xp: xp.zeros((2, 2))[..., ...], IndexError, None),
    ("setitem_out_of_range", lambda xp: _set(xp.arange(3), 3, 1), IndexError, None),
    ("setitem_too_many_indices", lambda xp: _set(xp.zeros((2, 2)), (0, 0, 0), 1), IndexError, None),
    ("unknown_dtype_zeros", lambda xp: xp.zeros(3, dtype="foo"), TypeError, None),
    ("unknown_dtype_empty", lambda xp: xp.empty(3, dtype="int33"), TypeError, None),
    ("unknown_dtype_array", lambda xp: xp.array([1, 2], dtype="not_a_type"), TypeError, None),
    ("unknown_dtype_astype", lambda xp: xp.arange(3).astype("foo"), TypeError, None),
    ("unknown_dtype_object", lambda xp: xp.ones(2, dtype=object()), TypeError, None),
    ("negative_dim_zeros", lambda xp: xp.zeros(-1), ValueError, "negative dimensions are not allowed"),
    ("negative_dim_empty", lambda xp: xp.empty((2, -3)), ValueError, "negative dimensions are not allowed"),
    ("negative_dim_ones", lambda xp: xp.ones((-2,)), ValueError, "negative dimensions are not allowed"),
    ("negative_dim_full", lambda xp: xp.full((3, -1), 7), ValueError, "negative dimensions are not allowed"),
    ("negative_dim_eye", lambda xp: xp.eye(-1), ValueError, "negative dimensions are not allowed"),
    ("negative_dim_identity", lambda xp: xp.identity(-2), ValueError, "negative dimensions are not allowed"),
    (
        "negative_dim_like",
        lambda xp: xp.zeros_like(xp.arange(3), shape=(-1, 2)),
        ValueError,
        "negative dimensions are not allowed",
    ),
    ("transpose_repeated_axis", lambda xp: xp.zeros((2, 3)).transpose(0, 0), ValueError, None),
    ("transpose_wrong_count", lambda xp: xp.zeros((2, 3)).transpose(0), ValueError, None),
    ("transpose_axis_out_of_range", lambda xp: xp.zeros((2, 3)).transpose(0, 2), AxisError, None),
    ("swapaxes_out_of_range", lambda xp: xp.zeros((2, 3)).swapaxes(0, 2), AxisError, None),
    ("squeeze_not_one", lambda xp: xp.zeros((1, 3)).squeeze(axis=1), ValueError, None),
    ("squeeze_out_of_range", lambda xp: xp.zeros((1, 3)).squeeze(axis=2), AxisError, None),
    ("expand_dims_out_of_range", lambda xp: xp.expand_dims(xp.zeros((2, 3)), 3), AxisError, None),
    ("expand_dims_repeated", lambda xp: xp.expand_dims(xp.zeros((2, 3)), (0, 0)), ValueError, None),
    ("diagonal_same_axes", lambda xp: xp.zeros((3, 3)).diagonal(axis1=1, axis2=1), ValueError, None),
    ("diagonal_1d", lambda xp: xp.zeros(3).diagonal(), ValueError, None),
    ("broadcast_to_incompatible", lambda xp: xp.broadcast_to(xp.zeros(3), (2, 4)), ValueError, None),
    ("broadcast_to_fewer_dims", lambda xp: xp.broadcast_to(xp.zeros((2, 3)), (3,)), ValueError, None),
    (
        "broadcast_arrays_incompatible",
        lambda xp: xp.broadcast_arrays(xp.zeros(3), xp.zeros(4)),
        ValueError,
        None,
    ),
    ("copyto_unsafe_cast", lambda xp: xp.copyto(xp.zeros(3, dtype=np.int64), xp.ones(3)), TypeError, None),
    (
        "copyto_complex_to_real",
        lambda xp: xp.copyto(xp.zeros(3), xp.ones(3, dtype=np.complex64)),
        TypeError,
        None,
    ),
    ("copyto_not_broadcastable", lambda xp: xp.copyto(xp.zeros((2, 3)), xp.ones((3, 2))), ValueError, None),
    (
        "setitem_not_broadcastable",
        lambda xp: _set(xp.zeros((3, 4)), Ellipsis, xp.ones((2, 4))),
        ValueError,
        None,
    ),
    ("len_0d", lambda xp: len(xp.asarray(3)), TypeError, re.escape("len() of unsized object")),
    ("float_of_size_2", lambda xp: float(xp.arange(2.0)), TypeError, "can be converted to Python scalars"),
    ("int_of_size_2", lambda xp: int(xp.arange(2)), TypeError, "can be converted to Python scalars"),
    (
        "bool_of_size_2",
        lambda xp: bool(xp.arange(2)),
        ValueError,
        "truth value of an array with more than one element is ambiguous",
    ),
    ("index_of_float", lambda xp: [0, 1, 2][xp.asarray(1.0)], TypeError, None),
    ("item_of_size_3", lambda xp: xp.arange(3).item(), ValueError, None),
    ("arange_step_zero", lambda xp: xp.arange(0, 10, 0), ZeroDivisionError, None),
    ("linspace_negative_num", lambda xp: xp.linspace(0, 1, -2), ValueError, None),
    ("ragged_list", lambda xp: xp.array([[1, 2], [3]]), ValueError, None),
]


@pytest.mark.parametrize("name, fn, exc, match", CASES, ids=[c[0] for c in CASES])
def test_numpy_agrees(name, fn, exc, match):
    # Guards the table itself: NumPy raises the type (and message) we expect from cuarray.
    with pytest.raises(exc, match=match):
        fn(np)


@gpu
@pytest.mark.parametrize("name, fn, exc, match", CASES, ids=[c[0] for c in CASES])
def test_cuarray_raises_like_numpy(name, fn, exc, match):
    with pytest.raises(exc, match=match):
        fn(cp)


@gpu
def test_axis_error_is_also_value_and_index_error():
    # NumPy's AxisError subclasses both; callers catching either must keep working.
    with pytest.raises(ValueError):
        cp.zeros((2, 3)).swapaxes(0, 5)
    with pytest.raises(IndexError):
        cp.zeros((2, 3)).swapaxes(0, 5)


# ---- nothing is left half-written ---------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_failed_setitem_leaves_target_unchanged(dtype):
    a = make_data((3, 4), dtype)
    x = cp.asarray(a)
    # (index, shape of the target, sources that do not broadcast to it)
    cases = [(Ellipsis, [(2, 4), (3, 5), (4, 3)]), (slice(1, None), [(3, 4), (2, 3)]), (0, [(3,), (2, 4)])]
    for idx, bad_shapes in cases:
        for i, shape in enumerate(bad_shapes):
            data = make_data(shape, dtype, seed=i + 1)
            for src in (cp.asarray(data), data, cp.asarray(data[..., ::-1].copy())[..., ::-1]):
                with pytest.raises(ValueError):
                    x[idx] = src
                assert_same(x, a)
    with pytest.raises(IndexError):
        x[3] = 1
    with pytest.raises(IndexError):
        x[0, 0, 0] = 1
    assert_same(x, a)


@gpu
def test_failed_setitem_into_view_leaves_base_unchanged():
    a = make_data((6, 8), np.float32)
    x = cp.asarray(a)
    v = x[::2, ::-3]
    with pytest.raises(ValueError):
        v[...] = cp.ones((3, 2), dtype=np.float32)
    assert_same(x, a)


@gpu
def test_failed_copyto_leaves_target_unchanged():
    a = make_data((3, 4), np.int32)
    x = cp.asarray(a)
    with pytest.raises(ValueError):
        cp.copyto(x, cp.ones((2, 4), dtype=np.int32))
    with pytest.raises(TypeError):
        cp.copyto(x, cp.ones((3, 4), dtype=np.float64))
    with pytest.raises(TypeError):
        cp.copyto(x, 2.5)
    assert_same(x, a)


@gpu
def test_failed_set_leaves_target_unchanged():
    a = make_data((3, 4), np.int16)
    x = cp.asarray(a)
    with pytest.raises(ValueError):
        x.set(np.zeros(12, dtype=np.int16))
    assert_same(x, a)


@gpu
def test_failed_astype_and_reshape_leave_array_unchanged():
    a = make_data((2, 3), np.float64)
    x = cp.asarray(a)
    with pytest.raises(TypeError):
        x.astype("foo")
    with pytest.raises(ValueError):
        x.reshape(4)
    assert x.shape == (2, 3)
    assert_same(x, a)


# ---- arrays on different devices ----------------------------------------------------------------


def _mentions_devices(msg, *ids):
    return all(re.search(rf"\b{i}\b", msg) for i in ids)


@gpu
@pytest.mark.multi_gpu
@pytest.mark.parametrize("op", ["add", "add_cast", "iadd", "out_elsewhere"])
def test_arrays_on_different_devices_raise(op):
    # Only copies move data between GPUs (Note [Copies between devices], tested in test_multi_gpu.py); any
    # other operation on an array of another device than the current one is a ValueError naming both.
    with cp.cuda.Device(0):
        a0 = make_data((3, 4), np.float64)
        x0 = cp.asarray(a0)
    with cp.cuda.Device(1):
        a1 = make_data((3, 4), np.float64, seed=1)
        x1 = cp.asarray(a1)
        x1i = cp.asarray(make_data((3, 4), np.int32, seed=2))
    with cp.cuda.Device(0):
        with pytest.raises(ValueError) as ei:
            if op == "add":
                x0 + x1
            elif op == "add_cast":
                x0 + x1i
            elif op == "iadd":
                x0 += x1
            else:
                cp.multiply(x0, 2, out=x1)
        assert _mentions_devices(str(ei.value), 0, 1), str(ei.value)
        assert_same(x0, a0)  # nothing written
    with cp.cuda.Device(1):
        assert_same(x1, a1)
