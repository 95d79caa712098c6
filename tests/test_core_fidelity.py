"""NumPy's behaviour in the corners CuPy's own suite exercises: `order` spelt in lower case, flat iterators,
the error types of bad arguments, assignment's shapes and casts, take, squeeze, ravel and reshape of odd
layouts, interp's non-finite values. The tests that need no GPU say so by having no gpu mark."""

import collections
import warnings

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, dtype_id, make_pair, np_layout
from cuarray import testing

gpu = pytest.mark.gpu


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
    if isinstance(key, tuple) and key == (Ellipsis,):  # read, but never written through (NumPy's 0-D index)
        with pytest.raises(IndexError, match="0-D index"):
            b.flat[key] = -1
    else:
        b.flat[key] = -1
    return got, b


@gpu
@pytest.mark.parametrize("index", [-25, 24, 100])
@testing.numpy_cuarray_raises(accept_error=IndexError)
def test_flat_int_out_of_bounds(xp, index):
    xp.arange(24).reshape(2, 3, 4).flat[index]


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
@testing.numpy_cuarray_array_equal(accept_error=ValueError)  # a mask of shape (2,) does not fit (0,)
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
    if with_where:
        xp.copyto(a, b, where=xp.asarray(np.arange(12).reshape(3, 4) % 2 == 0))
    else:  # no where= at all: NumPy reads where=None as False, CuPy as no mask
        xp.copyto(a, b)
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
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "float32", "complex64", "datetime64[s]"])
@pytest.mark.parametrize(
    "value",
    [
        (1, 2),
        (),
        [],
        [5],
        (0,),
        None,
        "7",
        "2020-01-02",
        b"3",
        range(2),
        bytearray(b"ab"),
        collections.deque([1]),
    ],
    ids=repr,
)
def test_fill_converts_other_objects_as_numpy(dtype, value):
    # Note [fill's value]: NumPy's scalar conversion of the one value, not an assignment of a sequence
    a, x = np.zeros(2, dtype), cp.zeros(2, dtype)
    try:
        a.fill(value)
    except Exception as e:  # noqa: BLE001 (NumPy's own error is the expectation)
        with pytest.raises(type(e)):
            x.fill(value)
        return
    x.fill(value)
    np.testing.assert_array_equal(x.get(), a)


@gpu
def test_fill_of_a_structured_array_takes_a_tuple():
    dt = np.dtype([("a", np.int32), ("b", np.float64)])
    a, x = np.zeros(3, dt), cp.zeros(3, dt)
    a.fill((1, 2.5))
    x.fill((1, 2.5))
    assert x.get().tolist() == a.tolist()


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


@gpu
@pytest.mark.parametrize("x", [[0.0, 1.0, 2.0, 3.0, 4.0], (1, 2, 3)])
@testing.numpy_cuarray_array_equal(strides_check=True)
def test_sliding_window_view_of_a_sequence(xp, x):
    return xp.lib.stride_tricks.sliding_window_view(x, 2)


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
@pytest.mark.parametrize("axis", [0, -1, (0,), 1, None])
@testing.numpy_cuarray_array_equal(accept_error=np.exceptions.AxisError)
def test_squeeze_0d_with_an_integer_axis(xp, axis):
    a = xp.asarray(np.array(3.0))
    return xp.squeeze(a, axis=axis), a.squeeze(axis)


@gpu
@pytest.mark.parametrize("func", ["concatenate", "stack", "vstack", "hstack"])
def test_joining_complex_into_real_warns_as_numpy(func):
    for xp in (np, cp):
        a = xp.ones((2, 3), np.complex64)
        with pytest.warns(np.exceptions.ComplexWarning):
            getattr(xp, func)([a, a], dtype=np.float32, casting="unsafe")


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
def test_flat_is_a_cuarray_flatiter():
    a = cp.arange(6).reshape(2, 3)
    it = a.flat
    assert isinstance(it, cp.flatiter) and it.base is a and it.index == 0
    np.testing.assert_array_equal(it.copy().get(), np.arange(6))


@gpu
@pytest.mark.parametrize(
    "key",
    [
        lambda xp, m: xp.asarray(np.array([True, False])),
        lambda xp, m: m > 5,
        lambda xp, m: [True, False, True],
        lambda xp, m: [True, 1],
        lambda xp, m: xp.asarray(np.ones(12, bool)),
    ],
    ids=["short mask", "2-d mask", "bool list", "mixed list", "full mask"],
)
def test_flat_assignment_checks_a_mask_as_numpy(key):
    results = []
    for xp in (np, cp):
        m = xp.arange(12.0).reshape(3, 4)
        try:
            m.flat[key(xp, m)] = 5
            results.append(cp.asnumpy(m) if xp is cp else m)
        except IndexError as e:
            results.append(str(e))
    assert type(results[0]) is type(results[1])
    if isinstance(results[0], str):
        assert results[0] == results[1]
    else:
        np.testing.assert_array_equal(results[1], results[0])


@gpu
@pytest.mark.parametrize(
    "key",
    [
        lambda xp, m: m > 100,
        lambda xp, m: xp.asarray(np.zeros(0, np.int64)),
        lambda xp, m: [],
        lambda xp, m: False,
    ],
    ids=["empty mask", "empty index array", "empty list", "False"],
)
def test_assigning_to_an_empty_selection_still_checks_the_values_shape(key):
    # NumPy's ValueError: two values do not broadcast to no element.
    for xp in (np, cp):
        m = xp.arange(12.0).reshape(3, 4)
        with pytest.raises(ValueError):
            m[key(xp, m)] = xp.asarray([1.0, 2.0]) if xp is cp else [1.0, 2.0]
        m[key(xp, m)] = 7.0  # one value broadcasts to nothing


@gpu
@pytest.mark.parametrize("on_device", [False, True])
def test_advanced_assignment_drops_the_values_leading_length_1_axes(on_device):
    for value in ([[7.0, 8.0]], [[[9.0]]], [[7.0], [8.0]]):
        a, x = np.arange(6.0), cp.arange(6.0)
        v = cp.asarray(value) if on_device else value
        try:
            a[[0, 1]] = value
        except ValueError:
            with pytest.raises(ValueError):
                x[cp.asarray([0, 1])] = v
            continue
        x[cp.asarray([0, 1])] = v
        np.testing.assert_array_equal(cp.asnumpy(x), a)


@gpu
def test_a_range_indexes_as_an_index_array():
    # probs[range(n), labels], common in NumPy code, reads a range as NumPy does: as an integer array.
    m, labels = np.arange(12.0).reshape(3, 4), np.array([3, 0, 2])
    x = cp.asarray(m)
    np.testing.assert_array_equal(cp.asnumpy(x[range(3), cp.asarray(labels)]), m[range(3), labels])
    np.testing.assert_array_equal(cp.asnumpy(x[range(1, 3)]), m[range(1, 3)])
    np.testing.assert_array_equal(cp.asnumpy(x.flat[range(2)]), m.flat[range(2)])
    x[range(2), 0] = -1.0
    m[range(2), 0] = -1.0
    np.testing.assert_array_equal(cp.asnumpy(x), m)
