"""NumPy's (and, for GPU-only matters, CuPy's) behaviour in the corners CuPy's own suite exercises: `order`
spelt in lower case, flat iterators, other libraries' arrays given to asnumpy, ufuncs and kernels, and the
error types of bad arguments. The tests at the top need no GPU."""

import operator
import warnings

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


# ---- errors of bad arguments, as NumPy's (and CuPy's where NumPy has no counterpart) --------------------


def test_angle_refuses_a_numpy_array_before_the_device():
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.angle(np.array([2, -3]))


@gpu
@pytest.mark.parametrize("shift", [2, -2, (2, 1), (2, 1, 3), 35])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 1), (0, 0)])
@testing.for_all_dtypes()
@testing.numpy_cuarray_array_equal(accept_error=ValueError)
def test_roll_device_shift(xp, dtype, shift, axis):
    x = xp.asarray(np.arange(10).astype(dtype).reshape(5, 2))
    return xp.roll(x, xp.asarray(np.array(shift)) if xp is cp else shift, axis=axis)


@gpu
@pytest.mark.parametrize(
    "shift, axis",
    [("0", 0), (1.5, 0), ("a", 0), (2, "0"), ((2, 2, 2), (0, 1)), (1, 2), (1, (1, -3)), ("a", 1)],
)
@testing.numpy_cuarray_array_equal(accept_error=(ValueError, TypeError))
def test_roll_shift_and_axis_errors(xp, shift, axis):
    return xp.roll(xp.asarray(np.arange(10).reshape(5, 2)), shift, axis=axis)


@gpu
def test_roll_of_an_empty_axis_still_reads_the_shift():
    for xp in (np, cp):
        with pytest.raises(ValueError):
            xp.roll(xp.zeros((0, 2)), "a", axis=0)


@gpu
@pytest.mark.parametrize("counts", [[1.0, 1.0, 1.0], [1, 2, 3]], ids=["float64", "uint64"])
def test_repeat_device_counts_must_cast_safely(counts):
    dtype = np.float64 if isinstance(counts[0], float) else np.uint64
    for xp in (np, cp):
        with pytest.raises(TypeError, match="according to the rule 'safe'"):
            xp.repeat(xp.arange(3), xp.asarray(np.array(counts, dtype)), 0)


@gpu
def test_repeat_refuses_numpy_counts_as_cupy():
    with pytest.raises(TypeError, match="numpy.ndarray"):
        cp.repeat(cp.arange(3), np.array([1, 2, 3]))
    testing.assert_array_equal(cp.repeat(cp.arange(3), np.int64(2)), np.repeat(np.arange(3), 2))
    testing.assert_array_equal(cp.repeat(cp.arange(3), [1.0, 2.0, 0.0]), np.repeat(np.arange(3), [1, 2, 0]))


@gpu
@pytest.mark.parametrize("out_dtype", [np.float32, np.int64, np.int16, np.int32, np.uint8])
@testing.numpy_cuarray_array_equal(accept_error=TypeError)
def test_take_out_must_cast_back_safely(xp, out_dtype):
    a = xp.arange(60, dtype=np.int32).reshape(3, 4, 5)
    out = xp.zeros((2, 3), out_dtype)
    xp.take(a, xp.asarray(np.arange(6).reshape(2, 3) % 3), out=out)
    return out


@gpu
@pytest.mark.parametrize(
    "source, destination",
    [([0, 1], [-1, 2]), ([0, 1], [1, 1]), ([0, 0], [1, 2]), ([0, 1], 1), ([1, -1], [1, 3])],
)
@testing.numpy_cuarray_raises(accept_error=ValueError)
def test_moveaxis_repeated_or_mismatched_axes(xp, source, destination):
    xp.moveaxis(xp.zeros((2, 3, 4)), source, destination)


@gpu
@pytest.mark.parametrize("copy", ["a", "never", ""])
@testing.numpy_cuarray_raises(accept_error=ValueError)
def test_reshape_copy_string_is_value_error(xp, copy):
    xp.zeros((2, 3, 4), np.int32).reshape((6, 4), copy=copy)


@gpu
@pytest.mark.parametrize("stop", [0, 1, 2, 3, 10])
@testing.numpy_cuarray_array_equal(accept_error=TypeError)
def test_arange_bool_at_most_two(xp, stop):
    return xp.arange(stop, dtype=xp.bool_)


@gpu
@pytest.mark.parametrize("order", ["C", "F", None])
def test_ravel_multi_index_dims_overflow(order):
    for xp in (np, cp):
        coords = tuple(xp.arange(4) for _ in range(2))
        with pytest.raises(ValueError, match="invalid dims"):
            xp.ravel_multi_index(coords, (np.iinfo(np.int64).max, 4), order=order)


# ---- assignment: copyto, fill, setitem ----------------------------------------------------------


@gpu
@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize("make_src", [np.float64, np.int8, np.complex64, np.bool_, np.float32], ids=str)
@testing.for_all_dtypes()
@testing.numpy_cuarray_array_equal(accept_error=(TypeError, np.exceptions.ComplexWarning))
def test_copyto_numpy_scalar_has_its_dtype(xp, dtype, make_src, casting):
    dst = xp.zeros((2, 3), dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        xp.copyto(dst, make_src(1), casting)
    return dst


@gpu
@pytest.mark.parametrize("where", [3.2, 0, -4, True, False, 1 + 1j, np.int64(3), [1, 0]])
@pytest.mark.parametrize("shape", [(3, 2), (0,)])
@testing.for_all_dtypes()
@testing.numpy_cuarray_array_equal()
def test_copyto_where_scalars_and_lists(xp, dtype, where, shape):
    dst = xp.zeros(shape, dtype)
    xp.copyto(dst, xp.ones(shape, dtype), where=where)
    return dst


@gpu
def test_copyto_where_int_array_is_type_error():
    for xp in (np, cp):
        with pytest.raises(TypeError, match="'safe'"):
            xp.copyto(xp.zeros(3), xp.ones(3), where=xp.asarray(np.array([1, 0, 1])))


@gpu
@pytest.mark.parametrize("with_where", [False, True])
@testing.for_all_dtypes()
@testing.numpy_cuarray_array_equal()
def test_copyto_source_with_leading_length_one_axes(xp, dtype, with_where):
    a = xp.zeros((2, 3, 4), dtype)
    b = xp.asarray(np.arange(8).reshape(1, 2, 1, 4).astype(dtype))
    xp.copyto(a, b, where=xp.asarray(np.arange(12).reshape(3, 4) % 2 == 0) if with_where else None)
    return a


@gpu
@pytest.mark.parametrize(
    "dst, src",
    [((2, 0, 5, 4), (2, 0, 3, 4)), ((6,), (2, 3)), ((2, 3), (6,)), ((0, 3), (2, 3)), ((3,), (2, 1, 3))],
)
@pytest.mark.parametrize("host", [False, True])
def test_assignment_shapes_are_checked_even_when_empty(dst, src, host):
    for xp in (np, cp):
        a = xp.zeros(dst, int)
        b = np.zeros(src, int) if host else xp.zeros(src, int)
        with pytest.raises(ValueError):
            xp.copyto(a, b)
        with pytest.raises(ValueError):
            a[...] = b


@gpu
@pytest.mark.parametrize("src_shape", [(1, 4), (1, 1, 3, 4), (1, 1, 1), (1, 0, 4)])
@pytest.mark.parametrize("host", [False, True])
@testing.numpy_cuarray_array_equal()
def test_setitem_drops_leading_length_one_axes(xp, src_shape, host):
    a = xp.zeros((3, 4) if 0 not in src_shape else (0, 4), np.float32)
    b = np.arange(np.prod(src_shape), dtype=np.float32).reshape(src_shape)
    a[:] = b if host or xp is np else xp.asarray(b)
    return a


@gpu
@pytest.mark.parametrize("value", ["1-d device", "1-d host", "list", "2-d device"])
def test_fill_refuses_sequences(value):
    for xp in (np, cp):
        a = xp.zeros((2, 3))
        v = {
            "1-d device": xp.ones((1,)),
            "1-d host": np.ones((1,)),
            "list": [1.0],
            "2-d device": xp.ones((2, 3)),
        }[value]
        with pytest.raises(ValueError, match="sequence"):
            a.fill(v)


@gpu
@pytest.mark.parametrize("dtype1", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("dtype2", ALL_DTYPES, ids=dtype_id)
@testing.numpy_cuarray_array_equal(accept_error=np.exceptions.ComplexWarning)
def test_fill_and_setitem_with_a_0d_array_warn_as_numpy(xp, dtype1, dtype2):
    a = xp.asarray(np.arange(6).astype(dtype1).reshape(2, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error", np.exceptions.ComplexWarning)
        a.fill(xp.ones((), dtype2))
        a[0] = xp.full((3,), 2, dtype2)
        a[1] = np.full((3,), 3, dtype2)
    return a


# ---- CuPy-like objects and other libraries' device arrays as operands ----------------------------------


class _CupyLike:
    """CuPy's protocol for objects that stand for a device array."""

    def __init__(self, a):
        self._a = a

    def __cupy_get_ndarray__(self):
        return self._a


class _Foreign:
    """Another library's device array: only its __cuda_array_interface__."""

    def __init__(self, a):
        self.__cuda_array_interface__ = a.__cuda_array_interface__


def test_cupy_get_ndarray_must_give_a_cuarray_array():
    from cuarray._interop import _device_operand

    with pytest.raises(TypeError, match="__cupy_get_ndarray__ returned list"):
        _device_operand(_CupyLike([1, 2]))
    assert (
        _device_operand([1, 2]) is None and _device_operand(np.ones(2)) is None and _device_operand(3) is None
    )


@gpu
@pytest.mark.parametrize("wrap", [_CupyLike, _Foreign])
@pytest.mark.parametrize("layout", ["c2d", "f2d", "negative", "0d", "empty"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_ufuncs_and_operators_read_device_objects(wrap, layout, dtype):
    x, e = make_pair(layout, dtype)
    w = wrap(x)
    testing.assert_array_equal(cp.add(w, dtype.type(3)), np.add(e, dtype.type(3)))
    testing.assert_array_equal(cp.multiply(x, w), np.multiply(e, e))
    testing.assert_array_equal(x + w, e + e)
    testing.assert_array_equal(w * x, e * e)
    testing.assert_array_equal(x == w, np.equal(e, e))
    assert isinstance(x + w, cp.ndarray) and isinstance(w * x, cp.ndarray)


@gpu
@pytest.mark.parametrize("wrap", [_CupyLike, _Foreign])
def test_user_kernels_read_device_objects(wrap):
    x, e = make_pair("f2d", np.float32)
    add = cp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add_wrapped")
    testing.assert_array_equal(add(wrap(x), np.float32(3)), e + np.float32(3))
    total = cp.ReductionKernel("T x", "T out", "x", "a + b", "out = a", "0", "sum_wrapped")
    testing.assert_allclose(total(wrap(x), axis=0), e.sum(axis=0), rtol=1e-6)


@gpu
@pytest.mark.parametrize("wrap", [_CupyLike, _Foreign])
@testing.numpy_cuarray_array_equal()
def test_fill_and_assign_read_device_objects(xp, wrap):
    a = xp.zeros((2, 3), np.float32)
    b = xp.zeros((2, 3), np.int64)
    v = xp.asarray(np.float32(2.5))
    a.fill(v if xp is np else wrap(v))
    b[...] = xp.asarray(np.arange(3)) if xp is np else wrap(cp.arange(3))
    return a, b


# ---- poly1d: NumPy's conversions and CuPy's host exchange -----------------------------------------


def _poly_input(xp, kind, dtype):
    if kind in ("poly1d", "ndarray"):
        c = xp.asarray(np.arange(1, 11).astype(dtype))
        return xp.poly1d(c) if kind == "poly1d" else c
    return dtype(5).item() if kind == "python" else dtype(5)


@gpu
@pytest.mark.parametrize("fname", ["add", "subtract", "multiply", "divide", "power"])
@pytest.mark.parametrize("left", ["poly1d", "ndarray", "python", "numpy"])
@pytest.mark.parametrize("right", ["poly1d", "ndarray", "python", "numpy"])
@testing.for_dtypes([np.int32, np.int64, np.uint8, np.float32, np.float64, np.complex128])
@testing.numpy_cuarray_allclose(rtol=1e-5)
def test_ufuncs_read_poly1d_as_its_coefficients(xp, fname, left, right, dtype):
    return getattr(xp, fname)(_poly_input(xp, left, dtype), _poly_input(xp, right, dtype))


@gpu
@pytest.mark.parametrize("op", ["add", "sub", "mul"])
@testing.for_dtypes([np.int64, np.float64, np.complex64])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_ndarray_operator_with_poly1d_is_elementwise(xp, op, dtype):
    c = xp.asarray(np.arange(1, 11).astype(dtype))
    out = getattr(operator, op)(c, xp.poly1d(c))
    assert isinstance(out, xp.ndarray)
    assert isinstance(getattr(operator, op)(xp.poly1d(c), c), xp.poly1d)  # the polynomial's own operator
    return out


@gpu
@pytest.mark.parametrize("variable", [None, "y"])
@testing.for_dtypes([np.int32, np.float32, np.float64, np.complex128])
def test_poly1d_from_host_arrays_and_numpy_poly1d(variable, dtype):
    host = np.arange(5, dtype=dtype)
    p = cp.poly1d(host, variable=variable)
    assert p.variable == (variable or "x")
    testing.assert_array_equal(p.coeffs, np.poly1d(host).coeffs)
    q = cp.poly1d(np.poly1d(host[1:], variable="z"), variable=variable)
    assert q.variable == (variable or "z")
    testing.assert_array_equal(q.coeffs, host[1:])


@gpu
@testing.for_dtypes([np.int32, np.float32, np.float64, np.complex128])
def test_poly1d_get_and_set(dtype):
    a = cp.asarray(np.arange(1, 11).astype(dtype))
    got = cp.poly1d(a, variable="z").get()
    assert isinstance(got, np.poly1d) and got == np.poly1d(np.arange(1, 11).astype(dtype), variable="z")
    assert got.variable == "z"
    p = cp.poly1d(a)
    p.set(np.poly1d(np.ones(4, dtype), variable="w"))
    assert p.variable == "w"
    testing.assert_array_equal(p.coeffs, np.ones(4, dtype))
    testing.assert_array_equal(a, np.arange(1, 11).astype(dtype))  # the array it was made from is untouched
    with pytest.raises(TypeError, match="numpy.poly1d"):
        p.set(np.ones(3))


# ---- creation: array's copy and blocking, empty_like's layouts, diag and tri ---------------------------


def test_array_copy_false_refuses_host_data_before_the_device():
    for xp in (np, cp):
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            xp.array([1, 2, 3], copy=False)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        cp.array(np.ones(3), copy=False)


def test_tri_indices_from_read_only_the_shape():
    for xp in (np, cp):
        for f in (xp.tril_indices_from, xp.triu_indices_from):
            with pytest.raises(AttributeError):
                f(4, k=1)
            with pytest.raises(ValueError, match="2-d"):
                f(np.ones(3))


@gpu
@pytest.mark.parametrize("order", ["C", "F", "A", "K", "c", "f"])
@pytest.mark.parametrize("layout", ["c2d", "f2d", "negative", "3d_permuted"])
@testing.numpy_cuarray_array_equal(accept_error=ValueError)
def test_array_copy_false_never_copies(xp, order, layout):
    a = xp.asarray(np_layout(layout, np.float32)[1])
    b = xp.array(a, copy=False, order=order)
    assert xp.shares_memory(a, b)
    return b


@gpu
@pytest.mark.parametrize("blocking", [False, True])
def test_array_and_asarray_take_blocking(blocking):
    host = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    for f in (cp.array, cp.asarray, cp.asanyarray):
        testing.assert_array_equal(f(host, blocking=blocking), host)
    pinned = cp.empty_pinned((1 << 20,), np.float32)
    pinned[...] = 1
    out = cp.asarray(pinned, blocking=True)
    pinned[...] = 2  # after a blocking copy the source may change
    assert float(out.sum()) == float(1 << 20)


@gpu
@pytest.mark.parametrize("wrap", [_CupyLike, _Foreign])
def test_array_reads_device_objects(wrap):
    a = cp.asarray(np.array([1, 2, 3]))
    if wrap is _CupyLike:
        assert cp.asarray(wrap(a)) is a
    else:
        assert cp.shares_memory(cp.asarray(wrap(a)), a)
    assert not cp.shares_memory(cp.array(wrap(a)), a)
    assert cp.shares_memory(cp.array(wrap(a), copy=False), a)
    testing.assert_array_equal(cp.asarray([wrap(a), wrap(a)]), np.array([[1, 2, 3], [1, 2, 3]]))
    testing.assert_array_equal(cp.array([wrap(a), [4, 5, 6]], dtype=np.float32), [[1, 2, 3], [4, 5, 6]])


@gpu
@pytest.mark.parametrize("order", ["C", "F", "A", "K", "k", None])
@pytest.mark.parametrize("shape", [(4, 2), (5, 4, 2, 3), (4, 2, 3), (2, 3, 4), 24, ()])
@pytest.mark.parametrize("layout", ["c", "f", "sliced and swapped", "reversed"])
def test_empty_like_with_a_new_shape_lays_out_as_numpy(order, shape, layout):
    def make(xp):
        a = xp.asarray(np.arange(24.0).reshape(2, 3, 4))
        return {
            "c": a,
            "f": xp.asfortranarray(a),
            "sliced and swapped": a[:, ::2, :].swapaxes(0, 1),
            "reversed": a[:, :, ::-1].transpose(1, 0, 2),
        }[layout]

    want = np.empty_like(make(np), order=order, shape=shape)
    got = cp.empty_like(make(cp), order=order, shape=shape)
    assert got.shape == want.shape and got.strides == want.strides
    for f in (cp.zeros_like, cp.ones_like):
        assert f(make(cp), order=order, shape=shape).strides == want.strides


@gpu
@pytest.mark.parametrize("v", [[1, 2, 3], (1, 2), [[1, 2], [3, 4]], ((1, 2, 3), (4, 5, 6)), 3])
@pytest.mark.parametrize("k", [0, 1, -1])
@testing.numpy_cuarray_array_equal(accept_error=ValueError)
def test_diag_of_sequences(xp, v, k):
    return xp.diag(v, k)


@gpu
@pytest.mark.parametrize("k", [0, 1, -1, 3, -3])
@testing.for_all_dtypes()
@testing.numpy_cuarray_array_equal()
def test_tril_and_triu_of_1d_give_2d(xp, dtype, k):
    a = xp.asarray(np.arange(1, 4).astype(dtype))
    return xp.tril(a, k), xp.triu(a, k), xp.tril(xp.asarray(np.ones((0,), dtype)), k)


@gpu
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_byte_bounds(layout):
    x, e = make_pair(layout, np.int16)
    lo, hi = cp.byte_bounds(x)
    if e.size == 0:
        assert lo == hi == x.data.ptr
        return
    elo, ehi = np.lib.array_utils.byte_bounds(e)
    first = e.__array_interface__["data"][0]
    assert (lo - x.data.ptr, hi - x.data.ptr) == (elo - first, ehi - first)


# ---- argmin/argmax dtype=, matmul axes=, sliding_window_view, comparisons, ufunc methods -------------


@gpu
@pytest.mark.parametrize("func", ["argmin", "argmax"])
@pytest.mark.parametrize("result_dtype", [np.int8, np.int16, np.int32, np.int64, np.uint16])
@pytest.mark.parametrize("axis", [None, 0, 1])
@testing.for_all_dtypes()
def test_argminmax_dtype_is_cupys(func, result_dtype, axis, dtype):
    e = np.asarray(np.arange(12) * 7 % 5).astype(dtype).reshape(3, 4)
    x = cp.asarray(e)
    want = getattr(np, func)(e, axis=axis).astype(result_dtype)
    for got in (
        getattr(cp, func)(x, axis=axis, dtype=result_dtype),
        getattr(x, func)(axis=axis, dtype=result_dtype),
    ):
        assert got.dtype == result_dtype and got.shape == want.shape
        testing.assert_array_equal(got, want)


@gpu
def test_argminmax_dtype_must_be_an_integer_type():
    with pytest.raises(TypeError, match="integer type"):
        cp.argmax(cp.arange(3.0), dtype=np.float32)


@gpu
@pytest.mark.parametrize(
    "shapes, axes",
    [
        (((2, 5, 3, 2, 3, 4), (3, 5, 1, 1, 1, 4), (5, 5, 2, 2, 3, 4)), [(1, 2), (0, 1), (0, 1)]),
        (((2, 5, 3, 2, 3, 4), (2, 5, 3, 1, 4, 1), (3, 1, 2, 5, 3, 2)), [(-2, -1), (-2, -1), (0, 1)]),
        (((3, 2, 4, 4), (4, 4, 3, 2), (4, 4, 3, 3)), [(0, 1), (-1, -2), (-2, -1)]),
        (((3, 2, 4, 4), (2, 3, 4, 4), (4, 3, 3, 4)), [(0, 1), (0, 1), (1, 2)]),
        (((3,), (2, 3, 4), (2, 4)), [0, (1, 0), 0]),
        (((4, 3), (4,), (3,)), [(1, 0), 0, 0]),
        (((4,), (4,), ()), [0, 0, ()]),
    ],
)
@pytest.mark.parametrize("with_out", [False, True])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_matmul_axes(xp, shapes, axes, with_out):
    x1 = xp.asarray(np.arange(np.prod(shapes[0]), dtype=np.float64).reshape(shapes[0]) % 7)
    x2 = xp.asarray(np.arange(np.prod(shapes[1]), dtype=np.float64).reshape(shapes[1]) % 5)
    if not with_out:
        return xp.matmul(x1, x2, axes=axes)
    out = xp.zeros(shapes[2])
    assert xp.matmul(x1, x2, axes=axes, out=out) is out
    return out


@gpu
@pytest.mark.parametrize(
    "kwargs",
    [
        {"axis": 0},
        {"axes": [(0, 1), (0, 1)]},
        {"axes": [(0, 1), (0, 1), (0, 1), (0, 1)]},
        {"axes": [0, 0]},
        {"axes": [0, (0, 1), (0, 1)]},
        {"axes": [(0, 1), (0, 0), (0, 1)]},
        {"axes": [(0, 5), (0, 1), (0, 1)]},
    ],
)
def test_matmul_axes_errors(kwargs):
    for xp in (np, cp):
        with pytest.raises((TypeError, ValueError)) as info:
            xp.matmul(xp.ones((2, 3)), xp.ones((3, 4)), **kwargs)
        if xp is np:
            want = info.type
    assert info.type is want


@gpu
def test_numpy_matmul_with_axes_dispatches_to_cuarray():
    x1, x2 = cp.arange(100.0).reshape(2, 10, 5), cp.arange(100.0).reshape(10, 2, 5)
    got = np.matmul(x1, x2, axes=[(0, 1), (0, 1), (0, 1)])
    assert isinstance(got, cp.ndarray)
    testing.assert_allclose(got, np.matmul(x1.get(), x2.get(), axes=[(0, 1), (0, 1), (0, 1)]))


@gpu
@pytest.mark.parametrize("x", [[0.0, 1.0, 2.0, 3.0, 4.0], (1, 2, 3)])
@testing.numpy_cuarray_array_equal(strides_check=True)
def test_sliding_window_view_of_a_sequence(xp, x):
    return xp.lib.stride_tricks.sliding_window_view(x, 2)


class _HasEq:
    def __eq__(self, other):
        return (other == 2) | (other == 4)


class _HasNe:
    def __ne__(self, other):
        return (other == 2) | (other == 4)


class _HasEqSub(_HasEq):
    pass


@gpu
@pytest.mark.parametrize("value", [_HasEq(), _HasNe(), _HasEqSub(), object(), None], ids=type)
@pytest.mark.parametrize("swap", [False, True])
@pytest.mark.parametrize("dtype", ["int32", "float64", "bool", "complex64"])
@testing.numpy_cuarray_array_equal(accept_error=ValueError)  # _HasEq() != a: Python's bool() of an array
def test_comparison_with_objects_that_compare_themselves(xp, value, swap, dtype):
    a = xp.asarray(np.array([[1, 2, 3], [4, 5, 6]], dtype=dtype))
    if swap:
        return value == a, value != a
    return a == value, a != value


@gpu
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "logical_and", "logical_or"])
@pytest.mark.parametrize("axis", [0, -1, None])
@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.bool_])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_ufunc_reduce(xp, name, axis, dtype):
    a = xp.asarray((np.arange(1, 13).reshape(3, 4) % 5).astype(dtype))
    f = getattr(xp, name)
    return (
        f.reduce(a, axis=axis),
        f.reduce(a, axis=axis, keepdims=True),
        getattr(np, name).reduce(a, axis=axis),
    )


@gpu
@pytest.mark.parametrize("name", ["add", "multiply"])
@pytest.mark.parametrize("axis", [0, -1])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_ufunc_accumulate(xp, name, axis):
    a = xp.asarray(np.arange(1.0, 13.0).reshape(3, 4))
    return getattr(xp, name).accumulate(a, axis=axis), getattr(np, name).accumulate(a, axis=axis)


@gpu
@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "greater", "maximum", "arctan2"])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_ufunc_outer(xp, name):
    a = xp.asarray(np.arange(12.0).reshape(3, 4))
    b = xp.asarray(np.arange(1.0, 7.0).reshape(2, 3))
    return getattr(xp, name).outer(a, b), getattr(np, name).outer(a, b)


@gpu
@pytest.mark.parametrize("indices", [[0, 3, 6, 7, 9], [0, 2, 1, 3], [5], [0], [11, 0]])
@pytest.mark.parametrize("name", ["add", "multiply", "maximum"])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_ufunc_reduceat(xp, indices, name):
    a = xp.asarray(np.arange(1.0, 25.0).reshape(2, 12))
    idx = xp.asarray(np.array(indices))
    return getattr(xp, name).reduceat(a, idx, axis=-1), getattr(np, name).reduceat(a, idx, axis=-1)


@gpu
def test_ufunc_methods_errors():
    a = cp.arange(5.0)
    with pytest.raises(IndexError, match="out-of-bounds"):
        cp.add.reduceat(a, [0, 5])
    with pytest.raises(NotImplementedError, match="subtract.reduce"):
        cp.subtract.reduce(a)
    with pytest.raises(ValueError, match="binary"):
        cp.sqrt.outer(a, a)


@gpu
@testing.numpy_cuarray_array_equal()
def test_numpy_add_at_dispatches_to_cuarray(xp):
    a = xp.asarray(np.arange(10.0))
    np.add.at(a, xp.asarray(np.array([0, 3, 6, 7, 9, 3])), xp.asarray(np.arange(6.0)))
    np.add.at(a, xp.asarray(np.array([1, 1])), 7)
    return a


# ---- take on 0-d arrays, bytes ---------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("indices", [0, -1, [0], [0, -1]])
@pytest.mark.parametrize("axis", [None, 0, -1])
@testing.for_all_dtypes()
@testing.numpy_cuarray_array_equal()
def test_take_of_0d_with_an_axis(xp, dtype, indices, axis):
    a = xp.asarray(np.array(3, dtype))
    r1 = a.take(indices, axis=axis)
    r2 = xp.zeros_like(r1)
    assert a.take(indices, axis=axis, out=r2) is r2
    return r1, r2


@gpu
@pytest.mark.parametrize("axis", [1, -2])
@testing.numpy_cuarray_raises(accept_error=np.exceptions.AxisError)
def test_take_of_0d_refuses_other_axes(xp, axis):
    xp.asarray(np.array(3.0)).take(0, axis=axis)


@gpu
def test_take_checks_out_before_the_indices():
    for xp in (np, cp):
        with pytest.raises(ValueError, match="output array does not match"):
            xp.take(xp.asarray(np.array(5.0)), xp.asarray(np.array(1)), out=xp.zeros((1,)))


@gpu
@pytest.mark.parametrize("shape", [(3, 4, 5), (0,), (3, 0, 4), (), (1,)])
@pytest.mark.parametrize("order", [None, "C", "F", "A"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_tobytes_and_bytes(shape, order, dtype):
    e = (np.arange(int(np.prod(shape))) % 7 + 1).astype(dtype).reshape(shape)
    x = cp.asarray(e)
    assert (x.tobytes() if order is None else x.tobytes(order)) == (
        e.tobytes() if order is None else e.tobytes(order)
    )
    assert bytes(x) == bytes(e)
    assert bytes(x.T) == bytes(e.T)
    for o in ("C", "F", "A", "K"):
        assert x.T.tobytes(o) == e.T.tobytes(o)


# ---- squeeze of 0-d, pickling and dump, ComplexWarning of ufunc casts, min_scalar_type ----------------


@gpu
@pytest.mark.parametrize("axis", [0, -1, (0,), 1, None])
@testing.numpy_cuarray_array_equal(accept_error=np.exceptions.AxisError)
def test_squeeze_0d_with_an_integer_axis(xp, axis):
    a = xp.asarray(np.array(3.0))
    return xp.squeeze(a, axis=axis), a.squeeze(axis)


@gpu
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_pickle_keeps_the_layout_and_dump_loads(order, dtype, tmp_path):
    import io
    import pickle

    e = np.asarray(np.arange(24).reshape(2, 3, 4) % 5, dtype=dtype, order=order)
    a = cp.asarray(e)
    b = pickle.loads(pickle.dumps(a))
    testing.assert_array_equal(b, e)
    assert (b.flags.c_contiguous, b.flags.f_contiguous) == (e.flags.c_contiguous, e.flags.f_contiguous)
    buf = io.BytesIO()
    a.dump(buf)
    testing.assert_array_equal(cp.load(io.BytesIO(buf.getvalue()), allow_pickle=True), e)
    with pytest.raises(ValueError):
        cp.load(io.BytesIO(buf.getvalue()), allow_pickle=False)
    a.dump(tmp_path / "a.pkl")
    testing.assert_array_equal(cp.load(tmp_path / "a.pkl", allow_pickle=True), e)


@gpu
@pytest.mark.parametrize("in_dtype", ["complex64", "complex128", "float64"])
@pytest.mark.parametrize("out_dtype", ["float32", "int8", "bool", "complex64"])
def test_ufunc_casts_warn_as_numpy(in_dtype, out_dtype):
    def count(xp, **kwargs):
        a = xp.ones((2, 3), in_dtype)
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter("always")
            try:
                xp.add(a, a, casting="unsafe", **kwargs)
            except TypeError:
                return "TypeError"
        return sorted(w.category.__name__ for w in ws)

    for kwargs in ({"out": None}, {"dtype": out_dtype}):
        if "out" in kwargs:
            np_kw, cp_kw = {"out": np.zeros((2, 3), out_dtype)}, {"out": cp.zeros((2, 3), out_dtype)}
        else:
            np_kw = cp_kw = kwargs
        assert count(cp, **cp_kw) == count(np, **np_kw)


@gpu
@pytest.mark.parametrize("func", ["concatenate", "stack", "vstack", "hstack"])
def test_joining_complex_into_real_warns_as_numpy(func):
    for xp in (np, cp):
        a = xp.ones((2, 3), np.complex64)
        with pytest.warns(np.exceptions.ComplexWarning):
            getattr(xp, func)([a, a], dtype=np.float32, casting="unsafe")


def test_min_scalar_type_of_host_values_is_numpys():
    for v in (-129, -128, 0, 1.2, np.inf, np.float32(1), [np.int8(1), np.int8(2)], np.array([[-1, 1]])):
        assert cp.min_scalar_type(v) is np.min_scalar_type(v)


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_min_scalar_type_of_device_arrays_is_their_dtype(dtype):
    for a in (cp.asarray(np.array(-1).astype(dtype)), cp.asarray(np.array([[-1, 1]]).astype(dtype))):
        for v in (a, [a, a], (a, a), _CupyLike(a), _Foreign(a)):
            assert cp.min_scalar_type(v) is a.dtype
        assert np.min_scalar_type(a) is a.dtype  # NumPy's function dispatches here


# ---- conj of real arrays, kernel names, device objects as indices --------------------------------------


def test_elementwise_kernel_name_is_checked_first():
    with pytest.raises(ValueError, match="Invalid kernel name"):
        cp.ElementwiseKernel("T x", "", "", "1")


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("method", ["conj", "conjugate"])
def test_conj_method_as_numpy(dtype, method):
    e = (np.arange(6).reshape(2, 3) % 4).astype(dtype)
    x = cp.asarray(e)
    got, want = getattr(x, method)(), getattr(e, method)()
    assert got.dtype == want.dtype and (got is x) == (want is e)
    testing.assert_array_equal(got, want)
    out, hout = cp.zeros_like(x), np.zeros_like(e)
    assert getattr(x, method)(out) is out
    testing.assert_array_equal(out, getattr(e, method)(hout))


@gpu
@pytest.mark.parametrize("wrap", [_CupyLike, _Foreign])
def test_device_objects_as_indices(wrap):
    a = cp.asarray(np.arange(10.0) * 2)
    i = cp.asarray(np.array([3, 1, 4, 1, 5]))
    want = np.arange(10.0)[[3, 1, 4, 1, 5]] * 2
    testing.assert_array_equal(a[wrap(i)], want)
    testing.assert_array_equal(a[wrap(i),], want)
    testing.assert_array_equal(a[[wrap(i)]], a[[i]])
    m = cp.asarray(np.arange(10) % 3 == 0)
    testing.assert_array_equal(a[wrap(m)], (np.arange(10.0) * 2)[np.arange(10) % 3 == 0])
    b = cp.zeros(10)
    b[wrap(i)] = 7.0
    testing.assert_array_equal(b, np.where(np.isin(np.arange(10), [1, 3, 4, 5]), 7.0, 0.0))


# ---- ravel in memory order, reshape of empty arrays, mT -------------------------------------------------


def _broadcast_layouts(xp):
    a = xp.asarray(np.arange(2.0).reshape(2, 1))
    b = xp.asarray(np.arange(6.0).reshape(2, 1, 3))
    f = xp.asfortranarray(b)
    p = xp.asarray(np.arange(24.0).reshape(2, 3, 4)).transpose(2, 0, 1)
    return [
        xp.broadcast_to(a, (3, 2, 4)),
        xp.broadcast_to(b, (2, 4, 3)),
        xp.broadcast_to(f, (2, 4, 3)),
        p,
        p[::-1, :, ::2],
        xp.broadcast_to(p[:, :1], (4, 5, 3)),
        xp.asarray(np.arange(5.0))[::-1],
    ]


@gpu
@pytest.mark.parametrize("case", range(7))
@pytest.mark.parametrize("order", ["C", "F", "A", "K", "k"])
@testing.numpy_cuarray_array_equal()
def test_ravel_of_broadcast_and_permuted_arrays(xp, case, order):
    out = _broadcast_layouts(xp)[case].ravel(order)
    assert out.flags.c_contiguous
    return out


@gpu
@pytest.mark.parametrize("order", ["C", "F", "A"])
@pytest.mark.parametrize("layout", ["C", "F"])
@testing.numpy_cuarray_array_equal(strides_check=True)
def test_reshape_of_an_empty_array_lays_out_as_numpy(xp, order, layout):
    a = xp.zeros((2, 0, 3), order=layout)
    b = a.reshape((5, 0, 4), order=order)
    assert b.base is a
    return b


@gpu
def test_mT_of_1d_is_numpys_error():
    for xp in (np, cp):
        with pytest.raises(ValueError, match="matrix transpose with ndim < 2 is undefined"):
            _ = xp.arange(3).mT


@gpu
@pytest.mark.parametrize("dtype_y", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("case", ["inf knots", "inf real part", "inf imaginary parts", "nan knot"])
@testing.numpy_cuarray_allclose(atol=1e-5)
def test_interp_non_finite_values_part_by_part(xp, dtype_y, case):
    # NumPy interpolates a complex fp's real and imaginary parts apart: an infinite part spoils no other.
    x = xp.asarray(np.array([0, 1, 2, 2.5, 4, 6, 8, 9, 10.0]))
    fx = xp.asarray(np.array([1, 3, 5, 7, 9.0]))
    fy = np.sin(np.array([1, 3, 5, 7, 9.0])).astype(dtype_y)
    if case == "inf knots":
        fy[0] = fy[2] = fy[-1] = np.inf
    elif case == "inf real part" and fy.dtype.kind == "c":
        fy[1] = complex(np.inf, 2)
    elif case == "inf imaginary parts" and fy.dtype.kind == "c":
        fy[1], fy[2] = complex(1, np.inf), complex(3, -np.inf)
    else:
        fy[3] = np.nan
    return xp.interp(x, fx, xp.asarray(fy))


@gpu
def test_iter_of_0d_raises_at_once():
    for xp in (np, cp):
        with pytest.raises(TypeError, match="iteration over a 0-d array"):
            iter(xp.asarray(np.array(1.0)))
    testing.assert_array_equal(list(cp.arange(6).reshape(2, 3))[1], [3, 4, 5])


@gpu
@pytest.mark.parametrize("dtype_range", [np.int8, np.uint16, np.float16, np.float32, np.float64])
@pytest.mark.parametrize("dtype_out", [None, np.float16, np.float32, np.float64, np.int64])
@pytest.mark.parametrize("base", [10.0, 2, "numpy scalar", "0-d", "array"])
@pytest.mark.parametrize("axis", [0, 1])
@testing.numpy_cuarray_allclose(rtol=1e-6, contiguous_check=False)
def test_logspace_types_as_numpy(xp, dtype_range, dtype_out, base, axis):
    start = xp.asarray(np.array([0, 2], dtype=dtype_range))
    stop = xp.asarray(np.array([2, 0], dtype=dtype_range))
    base = {
        "numpy scalar": np.float64(10),
        "0-d": xp.asarray(np.array(10.0)),
        "array": xp.asarray(np.array([10.0, 2.0])),
    }.get(base, base)
    return xp.logspace(start, stop, num=5, dtype=dtype_out, axis=axis, base=base)


@gpu
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_logspace_scalar_bounds_types_as_numpy(xp, dtype):
    return (
        xp.logspace(dtype(0), dtype(2), 5),
        xp.logspace(0, 2, 5, base=2),
        xp.logspace(dtype(1), 3, 4, base=dtype(3)),
    )


@gpu
@pytest.mark.parametrize("case", ["scalars", "arrays", "mixed"])
@testing.numpy_cuarray_array_equal()
def test_ogrid_broadcasts_array_bounds_as_numpy(xp, case):
    x, y = xp.zeros(10)[:, None], xp.ones(10)[:, None]
    if case == "scalars":
        return xp.ogrid[0:5, 0:3:4j, -1:1:0.5]
    if case == "arrays":
        return xp.ogrid[x:y:10j, x:y:10j]
    return xp.ogrid[0:4, x:y:3j]
