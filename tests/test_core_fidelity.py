"""NumPy's (and, for GPU-only matters, CuPy's) behaviour in the corners CuPy's own suite exercises: `order`
spelt in lower case, flat iterators, other libraries' arrays given to asnumpy, ufuncs and kernels, and the
error types of bad arguments. The tests at the top need no GPU."""

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, LAYOUT_NAMES, dtype_id, make_pair, np_layout
from cuarray import testing

gpu = pytest.mark.gpu


# ---- no GPU needed ------------------------------------------------------------------------------


@pytest.mark.parametrize("order", ["A", "a", "K", "k"])
def test_unravel_index_refuses_orders_a_and_k(order):
    for xp in (np, cp):
        with pytest.raises(ValueError, match="only 'C' or 'F' order is permitted"):
            xp.unravel_index(3, (2, 2), order=order)


@pytest.mark.parametrize("order", ["V", "cf", ""])
def test_unravel_index_refuses_non_orders(order):
    for xp in (np, cp):
        with pytest.raises(ValueError, match="order must be one of"):
            xp.unravel_index(3, (2, 2), order=order)


@pytest.mark.parametrize("order", ["V", "x"])
def test_array_from_host_refuses_non_orders(order):
    for xp in (np, cp):
        with pytest.raises(ValueError, match="order must be one of"):
            xp.array([1, 2], order=order)


# ---- order in lower case ------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("order", ["c", "f", "a", "k", "C", "F", None])
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
@testing.numpy_cuarray_array_equal(strides_check=True)
def test_array_and_asarray_order_any_case(xp, order, layout):
    _, a = np_layout(layout, np.float32)
    a = a if xp is np else xp.asarray(a)
    host = np_layout(layout, np.int16)[1]
    return xp.array(a, order=order), xp.asarray(a, order=order), xp.array(host, order=order)


@gpu
@pytest.mark.parametrize("order", ["c", "f", "a", "k"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@testing.numpy_cuarray_array_equal(strides_check=True)
def test_creation_and_copy_order_lower_case(xp, order, dtype):
    a = xp.asarray(np_layout("f2d", dtype)[1])
    return (
        xp.zeros_like(a, order=order),
        xp.ones_like(a, order=order),
        xp.full_like(a, 1, order=order),
        a.copy(order=order),
        a.astype(np.float64, order=order),
        a.ravel(order),
        a.flatten(order),
        xp.ravel(a, order),
    )


@gpu
@pytest.mark.parametrize("order", ["c", "f"])
@testing.numpy_cuarray_array_equal(strides_check=True)
def test_new_arrays_order_lower_case(xp, order):
    return (
        xp.zeros((2, 3), order=order),
        xp.ones((2, 3), np.int8, order=order),
        xp.full((3, 2), 7.5, order=order),
        xp.eye(3, 2, order=order),
        xp.arange(6).reshape((2, 3), order=order),
    )


@gpu
@pytest.mark.parametrize("order", ["C", "F", "c", "f", None])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int32", "uint64", "int64"])
@testing.numpy_cuarray_array_equal(type_check=False)
def test_unravel_and_ravel_multi_index_orders_and_int_dtypes(xp, order, dtype):
    flat = xp.asarray(np.array([0, 1, 5, 23]).astype(dtype))
    coords = [xp.asarray(np.array([1, 0, 1]).astype(dtype))] * 2
    return (*xp.unravel_index(flat, (6, 4), order=order), xp.ravel_multi_index(coords, (8, 4), order=order))


@gpu
def test_unravel_index_float_indices_are_type_error():
    for xp in (np, cp):
        with pytest.raises(TypeError, match="only int indices permitted"):
            xp.unravel_index(xp.asarray(np.array([1.0, 2.0])), (6, 4))


# ---- flat iterators -----------------------------------------------------------------------------


@gpu
def test_flat_is_its_own_iterator():
    for xp in (np, cp):
        it = xp.zeros((2, 3)).flat
        assert iter(it) is it


@gpu
@pytest.mark.parametrize("layout", ["c2d", "f2d", "negative", "0d", "empty", "3d_permuted"])
def test_flat_next_walks_in_c_order_and_copy_ignores_it(layout):
    a, e = make_pair(layout, np.int32)
    it, eit = a.flat, e.flat
    assert it.index == eit.index == 0
    if e.size:
        first = next(it)
        assert first.ndim == 0 and int(first) == next(eit)
        assert it.index == eit.index == 1
    assert [int(v) for v in it] == [int(v) for v in eit]
    with pytest.raises(StopIteration):
        next(it)
    testing.assert_array_equal(it.copy(), eit.copy())  # the whole array, wherever the iterator is


@gpu
def test_flat_element_is_a_new_array():
    for xp in (np, cp):
        a = xp.arange(6).reshape(2, 3)
        v = a.flat[4]
        a[...] = 0
        assert int(v) == 4


@gpu
@pytest.mark.parametrize("key", [None, True, False, np.True_, 1.5, "x", (0, 1), ()])
def test_flat_bad_keys_raise_index_error(key):
    a = cp.arange(24).reshape(2, 3, 4)
    with pytest.raises(IndexError):
        a.flat[key]
    with pytest.raises(IndexError):
        a.flat[key] = cp.arange(1)


@gpu
@pytest.mark.parametrize("key", [(0,), (slice(2, None),), [0, 3], np.array([5, -1]), (Ellipsis,), [], "dev"])
@pytest.mark.parametrize("layout", ["c2d", "f2d", "negative"])
@testing.numpy_cuarray_array_equal()
def test_flat_numpy_keys(xp, key, layout):
    a = xp.asarray(np_layout(layout, np.float32)[1])
    if isinstance(key, str):
        key = xp.asarray(np.array([2, 0]))
    got = a.flat[key]
    b = a.copy()
    b.flat[key] = -1
    return got, b


@gpu
@pytest.mark.parametrize("index", [-25, 24, 100])
@testing.numpy_cuarray_raises(accept_error=IndexError)
def test_flat_int_out_of_bounds(xp, index):
    xp.arange(24).reshape(2, 3, 4).flat[index]
