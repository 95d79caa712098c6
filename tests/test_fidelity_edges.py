"""Edge cases where cuarray differed from NumPy, against NumPy on the same inputs: NaN standing in as an
infinity in nanargmax/nanargmin, nanvar with no degrees of freedom, cumsum's loop with out=, mean/var/std
with an integer dtype, isclose of unsigned integers, pad's constant values, interp's complex arguments,
repeated axes in flip, size over axes, concatenate's out and dtype together, repeat of 0-d arrays,
partition's argument checks, copyto of Python numbers under 'no'/'equiv', and nanquantile of empty or
all-NaN slices."""

import warnings

import cuarray as cp
import numpy as np
import pytest
from cuarray import testing

pytestmark = pytest.mark.gpu

INF, NAN = np.inf, np.nan


@pytest.mark.parametrize(
    "func, values",
    [
        ("nanargmax", [NAN, -INF]),
        ("nanargmax", [-INF, NAN, -INF]),
        ("nanargmin", [NAN, INF]),
        ("nanargmax", [NAN, complex(-INF, -5)]),
        ("nanargmax", [1.0, NAN, 3.0]),
    ],
)
@testing.numpy_cuarray_array_equal()
def test_nanarg_nan_stands_in_as_an_infinity(xp, func, values):
    return getattr(xp, func)(xp.asarray(np.array(values)))


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@testing.numpy_cuarray_raises(accept_error=(ValueError, TypeError))
def test_nanarg_all_nan_slice_raises(xp, axis):
    a = np.full((2, 2), NAN) if axis is None else np.array([[NAN, 1.0], [NAN, NAN]])
    return xp.nanargmax(xp.asarray(a if axis != 1 else a.T), axis=axis)


@testing.numpy_cuarray_array_equal()
def test_nanarg_rows(xp):
    a = np.array([[NAN, -INF, 2.0], [NAN, -INF, -INF], [1.0, NAN, 1.0]])
    return xp.nanargmax(xp.asarray(a), axis=1), xp.nanargmin(xp.asarray(-a), axis=1)


@pytest.mark.parametrize("func", ["nanvar", "nanstd", "var"])
@testing.numpy_cuarray_allclose()
def test_variance_without_degrees_of_freedom(xp, func):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = xp.asarray(np.array([1.0, 2.0, NAN]) if func != "var" else np.array([1.0, 2.0]))
        return getattr(xp, func)(a, ddof=2, where=xp.asarray(np.ones(a.shape, bool)))


@pytest.mark.parametrize(
    "data, out_dtype",
    [
        ([0.5, 0.5, 0.5], "int64"),
        ([1e8, 1, -1e8], "float64"),
        (np.array([1e8, 1, -1e8], np.float32), "float64"),
        ([1e8, 1, -1e8], "float32"),
        (np.array([100, 100, 100], np.int8), "float32"),
        (np.array([100, 100, 100], np.int8), "int8"),
        ([1.5, 1.5], "complex64"),
    ],
)
@pytest.mark.parametrize("func", ["cumsum", "cumprod"])
@testing.numpy_cuarray_allclose(rtol=0)
def test_scan_into_out_computes_in_the_joint_loop(xp, func, data, out_dtype):
    out = xp.zeros(len(data), out_dtype)
    r = getattr(xp, func)(xp.asarray(np.asarray(data)), out=out)
    assert r is out
    return out


@pytest.mark.parametrize("func", ["mean", "var", "std", "nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("axis", [None, 0])
@testing.numpy_cuarray_array_equal(accept_error=TypeError)  # std over an axis: NumPy's sqrt casting error
def test_moments_with_an_integer_dtype_truncate_as_numpy(xp, func, dtype, axis):
    a = np.array([[1, 2, 4, 8], [3, 5, 9, 17], [2, 2, 2, 100]], np.int32)
    return getattr(xp, func)(xp.asarray(a), axis=axis, dtype=dtype)


@testing.numpy_cuarray_array_equal()
def test_mean_with_int64_dtype_divides_in_float64(xp):
    return xp.mean(xp.asarray(np.array([2**53 + 1])), dtype=np.int64)


@pytest.mark.parametrize("b", [np.uint8(1), 1, True, np.int64(3)])
@testing.numpy_cuarray_array_equal()
def test_isclose_of_integers_compares_in_float(xp, b):
    return xp.isclose(xp.asarray(np.array([0, 2, 250], np.uint8)), b, atol=100)


@pytest.mark.parametrize("value", [NAN, INF, -1, 300, 2.5])
@testing.numpy_cuarray_array_equal(accept_error=(ValueError, OverflowError))
def test_pad_constant_values_cast_as_numpy(xp, value):
    return xp.pad(xp.asarray(np.arange(3, dtype=np.uint8)), 1, constant_values=value)


@pytest.mark.parametrize(
    "x, xp_, left",
    [(np.array([1 + 1j]), [0.0, 1.0], None), ([0.5], np.array([0, 1 + 0j]), None), ([-1.0], [0.0, 1.0], 1j)],
)
@testing.numpy_cuarray_raises(accept_error=TypeError)
def test_interp_refuses_complex_as_numpy(xp, x, xp_, left):
    return xp.interp(
        xp.asarray(np.asarray(x)), xp.asarray(np.asarray(xp_)), xp.asarray(np.array([0.0, 1.0])), left=left
    )


@pytest.mark.parametrize("axis", [(0, 0), (1, -1), 2, (0, 1), -1])
@testing.numpy_cuarray_array_equal(accept_error=ValueError)
def test_flip_axes_as_numpy(xp, axis):
    return xp.flip(xp.asarray(np.arange(12).reshape(3, 4)), axis)


@pytest.mark.parametrize("axis", [None, 1, -1, (0, 1), (1,), ()])
def test_size_over_axes(axis):
    a = np.ones((2, 3))
    assert cp.size(cp.asarray(a), axis) == np.size(a, axis)
    with pytest.raises(np.exceptions.AxisError):
        cp.size(cp.asarray(a), 5)
    with pytest.raises(ValueError, match="repeated axis"):
        cp.size(cp.asarray(a), (0, 0))


@pytest.mark.parametrize("func", ["concatenate", "stack"])
def test_out_and_dtype_together_are_type_error(func):
    x = cp.ones((2, 3))
    out = cp.empty((4, 3) if func == "concatenate" else (2, 2, 3))
    with pytest.raises(TypeError, match="only takes `out` or `dtype`"):
        getattr(cp, func)([x, x], out=out, dtype=float)


@pytest.mark.parametrize("repeats, axis", [(3, 0), (3, -1), ([3], 0), (2, None), (3, 1)])
@testing.numpy_cuarray_array_equal(accept_error=np.exceptions.AxisError)
def test_repeat_of_0d_as_1d(xp, repeats, axis):
    return xp.repeat(xp.asarray(np.array(5.0)), repeats, axis=axis)


@pytest.mark.parametrize(
    "func, kth, kwargs",
    [("partition", True, {}), ("argpartition", True, {}), ("partition", 1, {"order": "x"})],
)
@testing.numpy_cuarray_raises(accept_error=ValueError)
def test_partition_argument_errors_as_numpy(xp, func, kth, kwargs):
    return getattr(xp, func)(xp.asarray(np.arange(5.0)), kth, **kwargs)


@testing.numpy_cuarray_array_equal()
def test_partition_of_an_empty_axis_checks_no_kth(xp):
    return xp.partition(xp.asarray(np.zeros((0, 3))), 5, axis=0)


@testing.numpy_cuarray_array_equal()
def test_partition_of_an_empty_array_checks_no_kth(xp):
    # NumPy skips the bounds for an empty array, whatever the length of the axis.
    return xp.partition(xp.asarray(np.zeros((0, 5))), 10, axis=1)


_PARTITION_ERRORS = {
    "axis None, bad kind": lambda xp, a: a.partition(1, axis=None, kind="x"),
    "axis 5, an order": lambda xp, a: a.partition(1, axis=5, order="x"),
    "kth True, an order": lambda xp, a: a.partition(True, order="x"),
    "2-D kth, axis 5": lambda xp, a: a.partition([[0]], axis=5),
    "float kth, axis 5": lambda xp, a: a.partition(1.5, axis=5),
    "bool kth, axis 5": lambda xp, a: a.partition(True, axis=5),
    "kth -5 of 3": lambda xp, a: a.partition(-5),
    "kth 7 in a list": lambda xp, a: a.partition([0, 7]),
    "function, axis 5, bad kind": lambda xp, a: xp.partition(a, 1, axis=5, kind="x"),
    "function, kth -9 of 3": lambda xp, a: xp.partition(a, -9),
    "function, flattened, kth 7 of 6": lambda xp, a: xp.partition(a, 7, axis=None),
    "argpartition, kth -5 of 3": lambda xp, a: xp.argpartition(a, -5),
    "argpartition, 2-D kth": lambda xp, a: xp.argpartition(a, [[1]]),
    "argpartition, axis True": lambda xp, a: xp.argpartition(a, 0, axis=True, kind="x"),
    "argpartition, float axis": lambda xp, a: xp.argpartition(a, 1, axis=1.0),
    "float axis": lambda xp, a: a.partition(1, axis=1.0),
    "2-D ndarray kth": lambda xp, a: xp.partition(a, np.array([[0]])),
    "ragged kth": lambda xp, a: a.partition([[0], 1]),
}


@pytest.mark.parametrize("case", list(_PARTITION_ERRORS))
def test_partition_checks_its_arguments_in_numpys_order(case):
    # The first check NumPy's partition fails decides the error; a negative kth is shown counted from the end.
    call = _PARTITION_ERRORS[case]
    a = np.arange(6.0).reshape(2, 3)
    with pytest.raises(Exception) as want:
        call(np, a.copy())
    with pytest.raises(type(want.value)) as got:
        call(cp, cp.asarray(a))
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize(
    "dst, value, casting",
    [
        ("uint8", True, "no"),
        ("uint8", True, "equiv"),
        ("float64", True, "equiv"),
        ("bool", True, "no"),
        ("int8", 5, "equiv"),
        ("int64", 5, "equiv"),
        ("float64", 1, "equiv"),
        ("float32", 1.5, "equiv"),
        ("float64", 1.5, "equiv"),
        ("complex64", 1.5, "equiv"),
        ("int8", 5, "no"),
        ("float16", 1.5, "no"),
        ("int32", 1.5, "same_kind"),
    ],
)
@testing.numpy_cuarray_array_equal(accept_error=TypeError)
def test_copyto_python_numbers_under_strict_casting(xp, dst, value, casting):
    a = xp.zeros(3, dst)
    xp.copyto(a, value, casting=casting)
    return a


@pytest.mark.parametrize(
    "data, q, axis",
    [
        (np.zeros(0), [0.1, 0.5], None),
        (np.zeros(0, np.int64), 0.5, None),
        (np.zeros((0, 3)), [0.1, 0.5], 0),
        (np.full(4, NAN, np.float32), [0.5], None),
        (np.array([[NAN, NAN], [1.0, 2.0]], np.float32), [0.5], 1),
        (np.array([[1.0, 2.0], [NAN, NAN]], np.float32), [0.5], 1),
        (np.array([[NAN, NAN], [1.0, 2.0]], np.float32), 0.5, 1),
    ],
)
@testing.numpy_cuarray_allclose()
def test_nanquantile_of_empty_and_all_nan_slices(xp, data, q, axis):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return xp.nanquantile(xp.asarray(data), q, axis=axis)


def test_float16_cumsum_keeps_its_running_value_in_float32():
    # docs/numerical-differences.md: NumPy stalls at 2048, where adding 1 no longer changes a float16.
    assert np.cumsum(np.ones(3000, np.float16))[-1] == 2048
    assert cp.asnumpy(cp.cumsum(cp.ones(3000, np.float16)))[-1] == 3000
