"""CuPy-like objects (__cupy_get_ndarray__) and other libraries' device arrays (__cuda_array_interface__) as
operands of ufuncs, operators, user kernels, assignment, indexing, array() and min_scalar_type; poly1d read as
its coefficients, as NumPy's is; == and != with objects that compare themselves."""

import operator

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, dtype_id, make_pair
from cuarray import testing

gpu = pytest.mark.gpu


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
