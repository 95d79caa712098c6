"""The core's operand builder through the ufunc and reduction calls (Note [Operand builder] in
cpp/cuarray/ops/operands.h): broadcasting, out= checks with NumPy's messages, the layout of new outputs,
scalar conversion to the loop type, partial overlap, and the reduction's output checks; each against NumPy."""

import cuarray as cp
import numpy as np
import pytest
from cuarray import testing

pytestmark = pytest.mark.gpu


def _message(f, xp):
    with pytest.raises(Exception) as info:
        f(xp)
    return type(info.value), str(info.value)


def _same_error(f):
    """NumPy's and cuarray's errors for `f` have one message, cuarray's type being NumPy's or its public base."""
    (nt, nm), (ct, cm) = _message(f, np), _message(f, cp)
    assert issubclass(nt, ct), (nt, ct)
    assert nm == cm


def test_out_shape_message_is_numpys():
    _same_error(lambda xp: xp.add(xp.ones((2, 3)), 1.0, out=xp.empty((3,))))
    _same_error(lambda xp: xp.add(xp.ones(3), xp.ones(3), out=xp.empty((2, 1))))


def test_out_cast_message_is_numpys():
    _same_error(lambda xp: xp.add(xp.ones(3), 1.5, out=xp.empty(3, "int64")))
    _same_error(lambda xp: xp.divmod(xp.ones(3), 2.0, out=(xp.empty(3), xp.empty(3, "int8"))))
    _same_error(lambda xp: xp.add(xp.ones(3, "int8"), 1, out=xp.empty(3, "int16"), casting="no"))


@testing.numpy_cuarray_raises(accept_error=ValueError)
def test_reduction_out_of_the_wrong_shape(xp):
    xp.sum(xp.ones((2, 3)), axis=0, out=xp.empty(2))


@testing.numpy_cuarray_raises(accept_error=ValueError)
def test_reduction_out_without_kept_axes(xp):
    xp.max(xp.ones((2, 3)), axis=1, out=xp.empty((2,)), keepdims=True)


@testing.numpy_cuarray_array_equal()
def test_out_broadcasts_the_iteration_up(xp):
    out = xp.zeros((2, 3), "float32")
    xp.add(xp.arange(3, dtype="float32"), 1, out=out)
    return out


@testing.for_all_dtypes()
@testing.numpy_cuarray_array_equal(strides_check=True)
def test_new_output_follows_input_layout(xp, dtype):
    a = xp.arange(24).reshape(2, 3, 4).astype(dtype).transpose(2, 0, 1)
    return xp.multiply(a, a)


@pytest.mark.parametrize("order", ["C", "F", "K"])
@testing.numpy_cuarray_array_equal(strides_check=True)
def test_order_argument(xp, order):
    a = xp.arange(12, dtype="float64").reshape(3, 4)[:, ::-1].T
    return xp.negative(a, order=order)


@testing.numpy_cuarray_array_equal(strides_check=True)
def test_zero_size_and_zero_d(xp):
    return (
        xp.add(xp.ones((0, 3)), xp.ones(3)),
        xp.add(xp.ones(()), 2),
        xp.add(xp.ones((1, 3)), xp.ones((4, 1))),
    )


@testing.for_all_dtypes()
@testing.numpy_cuarray_allclose(rtol=1e-3)
def test_python_scalars_convert_to_the_loop_type(xp, dtype):
    a = xp.arange(1, 5).astype(dtype)
    return a + 1, a * True, 2 - a, a * 0.5, a + 1j if xp.dtype(dtype).kind == "c" else a - 1.25


@testing.for_all_dtypes()
@testing.numpy_cuarray_array_equal()
def test_numpy_scalars_convert_to_the_loop_type(xp, dtype):
    a = xp.arange(1, 5).astype(dtype)
    return a + np.dtype(dtype).type(3), a * np.float32(2), xp.subtract(np.int8(7), a)


@pytest.mark.parametrize("value", [256, -1])
def test_out_of_range_python_int_raises_like_numpy(value):
    _same_error(lambda xp: xp.add(xp.ones(3, "uint8"), value))


@pytest.mark.parametrize("value", [2**63, 2**64, -(2**63) - 1])
@testing.numpy_cuarray_raises(accept_error=OverflowError)
def test_python_int_past_int64_raises_overflow(xp, value):
    xp.add(xp.ones(3, "uint8"), value)


@pytest.mark.parametrize("value", [256, -129, 2**70, -(2**70)])
@testing.numpy_cuarray_array_equal()
def test_comparisons_with_out_of_range_ints(xp, value):
    a = xp.arange(-3, 3, dtype="int8")
    return a < value, a >= value, a == value, a != value, value > a


@pytest.mark.parametrize("out_dtype", ["int8", "float32", "complex64", "uint64"])
@testing.numpy_cuarray_array_equal()
def test_comparisons_with_out_of_range_ints_into_out_of_another_dtype(xp, out_dtype):
    a = xp.arange(-3, 3, dtype="int8")
    lt, ne = xp.full(6, 7, out_dtype), xp.full(6, 7, out_dtype)
    assert xp.less(a, 300, out=lt) is lt and xp.not_equal(-300, a, out=ne) is ne
    return lt, ne


def test_comparisons_with_out_of_range_ints_check_out_casting():
    for xp in (np, cp):
        with pytest.raises(TypeError, match="Cannot cast ufunc 'less' output"):
            xp.less(xp.ones(2, "int8"), 300, out=xp.ones(2, "int8"), casting="no")


def test_huge_int_for_bool_loop_raises_overflow():
    with pytest.raises(OverflowError):
        cp.logical_or(cp.ones(3, bool), 2**64)


@testing.numpy_cuarray_array_equal()
def test_partial_overlap_goes_through_a_temporary(xp):
    a = xp.arange(10, dtype="int32")
    xp.add(a[1:], a[:-1], out=a[1:])
    b = xp.arange(12, dtype="float64").reshape(3, 4)
    xp.negative(b.T[:, ::-1], out=b.T)
    return a, b


@testing.for_all_dtypes(no_bool=True, no_complex=True)
@testing.numpy_cuarray_allclose(rtol=1e-3)
def test_reduction_keepdims_and_out(xp, dtype):
    a = xp.arange(24).reshape(2, 3, 4).astype(dtype)
    out = xp.zeros((2, 1, 4), dtype)
    xp.sum(a, axis=1, keepdims=True, out=out)
    return out, xp.max(a, axis=(0, 2), keepdims=True), a.sum(), xp.mean(a[:, ::-1], axis=-1)


@testing.numpy_cuarray_raises(accept_error=ValueError)
def test_power_negative_integer_exponent(xp):
    return xp.power(xp.arange(3), xp.array([1, -1, 2]))


def test_signature_cache_returns_numpys_loop_for_each_casting():
    a = cp.ones(3, "int8")
    for casting in ("same_kind", "unsafe", "safe"):
        assert cp.add(a, 1, casting=casting).dtype == np.add(np.ones(3, "int8"), 1, casting=casting).dtype
    with pytest.raises(ValueError, match="casting must be one of"):
        cp.add(a, 1, casting="sometimes")
