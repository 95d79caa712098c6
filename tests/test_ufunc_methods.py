"""ufunc.reduce, accumulate, outer, reduceat and at through NumPy's __array_ufunc__, matmul's gufunc axes=,
argmin/argmax's dtype= (CuPy's), the ComplexWarning of ufunc casts, and user kernels' name check."""

import warnings

import cuarray as cp
import numpy as np
import pytest
from cuarray import testing

gpu = pytest.mark.gpu


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
        {"axes": [(0,), (0, 1), (0, 1)]},
        {"axes": [(0, 1, 2), (0, 1), (0, 1)]},
    ],
)
def test_matmul_axes_errors(kwargs):
    for xp in (np, cp):
        with pytest.raises((TypeError, ValueError)) as info:
            xp.matmul(xp.ones((2, 3)), xp.ones((3, 4)), **kwargs)
        if xp is np:
            want, message = info.type, str(info.value)
    assert info.type is want
    if want is np.exceptions.AxisError and "core dimensions" in message:
        assert str(info.value) == message


@gpu
def test_numpy_matmul_with_axes_dispatches_to_cuarray():
    x1, x2 = cp.arange(100.0).reshape(2, 10, 5), cp.arange(100.0).reshape(10, 2, 5)
    got = np.matmul(x1, x2, axes=[(0, 1), (0, 1), (0, 1)])
    assert isinstance(got, cp.ndarray)
    testing.assert_allclose(got, np.matmul(x1.get(), x2.get(), axes=[(0, 1), (0, 1), (0, 1)]))


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
    with pytest.raises(ValueError, match="reduce only supported for binary functions"):
        cp.sqrt.reduce(a)
    with pytest.raises(ValueError, match="binary"):
        cp.sqrt.outer(a, a)


@gpu
@testing.numpy_cuarray_array_equal()
def test_numpy_add_at_dispatches_to_cuarray(xp):
    a = xp.asarray(np.arange(10.0))
    np.add.at(a, xp.asarray(np.array([0, 3, 6, 7, 9, 3])), xp.asarray(np.arange(6.0)))
    np.add.at(a, xp.asarray(np.array([1, 1])), 7)
    return a


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


def test_elementwise_kernel_name_is_checked_first():
    with pytest.raises(ValueError, match="Invalid kernel name"):
        cp.ElementwiseKernel("T x", "", "", "1")
