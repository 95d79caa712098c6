"""Bad input raises what NumPy raises: one table of calls, each run with numpy and with cuarray on the same
inputs. A row is (id, call taking `xp`, optional regex for cuarray's message); NumPy must raise on every row
(a row where it does not is a broken row and fails), and cuarray must raise the same type: NumPy's class or
a subclass of it, where NumPy's private subclasses (numpy._core's UFuncTypeError) count as their public base.

Rows that need no device (argument checks made before anything is allocated) run everywhere; the others are
marked `gpu`. CUARRAY_GPU_MEMORY_LIMIT's parsing, which NumPy has no counterpart of, is checked below the
table."""

import operator

import cuarray as cp
import numpy as np
import pytest
from conftest import describe, run_python
from cuarray import _core

C_LONG = "Python int too large to convert to C long"
NEGATIVE_POWER = "Integers to negative integer powers are not allowed"
SHAPE = "expected a sequence of integers or a single integer"
NOT_INT = "cannot be interpreted as an integer"


def A(xp, dtype=np.int64):
    return xp.arange(6, dtype=dtype).reshape(2, 3)


def F(xp):
    return xp.arange(6.0).reshape(2, 3)


def NAN_ROW(xp):
    return xp.asarray([[1.0, float("nan"), 2.0], [float("nan")] * 3])


# Raised before any device call.
HOST = [
    ("empty_bool_shape", lambda xp: xp.empty(True), SHAPE),
    ("zeros_float_shape", lambda xp: xp.zeros(2.0), SHAPE),
    ("zeros_numpy_bool_shape", lambda xp: xp.zeros(np.True_), SHAPE),
    ("full_float_shape", lambda xp: xp.full(2.5, 1), SHAPE),
    ("ones_bool_in_shape", lambda xp: xp.ones((2, True)), "an integer is required"),
    ("empty_numpy_bool_in_shape", lambda xp: xp.empty((np.True_, 2)), "an integer is required"),
    ("empty_order", lambda xp: xp.empty(2, order="X"), None),
    ("eye_float", lambda xp: xp.eye(2.0), None),
    ("eye_k_float", lambda xp: xp.eye(2, k=1.0), None),
    ("eye_bool", lambda xp: xp.eye(True), "an integer is required"),
    ("eye_m_bool", lambda xp: xp.eye(2, True), "an integer is required"),
    ("identity_bool", lambda xp: xp.identity(True), "an integer is required"),
    ("linspace_float_num", lambda xp: xp.linspace(0, 1, 2.0), None),
    ("array_bad_dtype", lambda xp: xp.array([1], dtype="float33"), None),
    ("zeros_order_int", lambda xp: xp.zeros(2, order=1), "order must be str, not int"),
    ("eye_2_64", lambda xp: xp.eye(2**64), "Maximum allowed dimension exceeded"),
    ("fftfreq_float", lambda xp: xp.fft.fftfreq(2.5), "n should be an integer"),
    ("rfftfreq_float", lambda xp: xp.fft.rfftfreq(2.5), "n should be an integer"),
    ("ufunc_order_bogus", lambda xp: xp.add(1, 2, order="X"), "order must be one of"),
    ("ufunc_order_int", lambda xp: xp.add(1, 2, order=1), "order must be str"),
    ("power_python_scalars", lambda xp: xp.power(2, -1), NEGATIVE_POWER),
    ("concatenate_nothing", lambda xp: xp.concatenate([]), None),
]

# Need a device (the inputs are device arrays).
DEVICE = [
    # nanargmax/nanargmin reduce their NaN mask over `axis` first (inexact, non-empty inputs), then argmax
    # rejects a tuple: a repeated axis is a ValueError, one out of range an AxisError, others a TypeError.
    (
        "nanargmax_repeated_axis",
        lambda xp: xp.nanargmax(F(xp), axis=(0, 0)),
        "duplicate value in 'axis'|repeated axis",
    ),
    ("nanargmin_axis_out_of_range", lambda xp: xp.nanargmin(F(xp), axis=(0, 5)), None),
    ("nanargmax_axis_tuple", lambda xp: xp.nanargmax(F(xp), axis=(0, 1)), NOT_INT),
    ("nanargmax_int_repeated_axis", lambda xp: xp.nanargmax(A(xp), axis=(0, 0)), NOT_INT),
    ("nanargmax_all_nan_slice_tuple_axis", lambda xp: xp.nanargmax(NAN_ROW(xp), axis=(1,)), "All-NaN slice"),
    ("nanargmin_nan_empty_tuple_axis", lambda xp: xp.nanargmin(NAN_ROW(xp), axis=()), "All-NaN slice"),
    # Integer power with a negative exponent: Python int, NumPy scalar, reflected, in place, array exponents.
    ("power_python_int", lambda xp: A(xp) ** -1, NEGATIVE_POWER),
    ("power_ufunc", lambda xp: xp.power(A(xp), -2), NEGATIVE_POWER),
    ("power_numpy_scalar", lambda xp: A(xp, np.int32) ** np.int32(-1), NEGATIVE_POWER),
    ("power_reflected", lambda xp: 2 ** xp.array([1, -1]), NEGATIVE_POWER),
    ("power_array_exponent", lambda xp: xp.power(A(xp), xp.array([1, -1, 2])), NEGATIVE_POWER),
    ("power_int8_arrays", lambda xp: xp.power(A(xp, np.int8), xp.array([1, -1, 2], np.int8)), NEGATIVE_POWER),
    ("power_broadcast_exponent", lambda xp: xp.power(A(xp), xp.array([[1], [-1]])), NEGATIVE_POWER),
    (
        "power_strided_exponent",
        lambda xp: xp.power(A(xp), xp.array([2, 9, 1, 9, -1, 9])[::2]),
        NEGATIVE_POWER,
    ),
    ("power_inplace", lambda xp: A(xp).__ipow__(-1), NEGATIVE_POWER),
    ("power_out_float", lambda xp: xp.power(A(xp), -1, out=xp.zeros((2, 3))), NEGATIVE_POWER),
    # astype's casting=.
    ("astype_safe", lambda xp: F(xp).astype(np.int32, casting="safe"), "according to the rule 'safe'"),
    ("astype_same_kind", lambda xp: F(xp).astype(np.int64, casting="same_kind"), "rule 'same_kind'"),
    ("astype_no", lambda xp: F(xp).astype(np.float32, casting="no"), "rule 'no'"),
    ("astype_bogus", lambda xp: F(xp).astype(np.int32, casting="bogus"), "casting must be one of"),
    ("astype_none", lambda xp: F(xp).astype(np.int32, casting=None), "casting must be str, not NoneType"),
    ("astype_int_casting", lambda xp: F(xp).astype(np.int32, casting=1), "casting must be str"),
    ("astype_bad_dtype", lambda xp: F(xp).astype("float33"), None),
    ("astype_bad_order", lambda xp: F(xp).astype(np.int32, order="Q"), None),
    # Reductions' axis: tuples or ints only, in range, once each.
    ("sum_axis_list", lambda xp: A(xp).sum(axis=[0]), NOT_INT),
    ("prod_axis_list", lambda xp: A(xp).prod(axis=[0]), NOT_INT),
    ("max_axis_list", lambda xp: xp.max(A(xp), axis=[0]), NOT_INT),
    ("mean_axis_list", lambda xp: xp.mean(A(xp), axis=[0]), NOT_INT),
    ("var_axis_list", lambda xp: xp.var(F(xp), axis=[0]), NOT_INT),
    ("any_axis_list", lambda xp: xp.any(A(xp), axis=[0]), NOT_INT),
    ("count_nonzero_axis_list", lambda xp: xp.count_nonzero(A(xp), axis=[0]), NOT_INT),
    ("nanmax_axis_list", lambda xp: xp.nanmax(F(xp), axis=[0]), NOT_INT),
    ("ptp_axis_list", lambda xp: xp.ptp(A(xp), axis=[0]), NOT_INT),
    ("argmax_axis_list", lambda xp: xp.argmax(A(xp), axis=[0]), NOT_INT),
    ("argmax_axis_tuple", lambda xp: xp.argmax(A(xp), axis=(0,)), NOT_INT),
    ("squeeze_axis_list", lambda xp: A(xp)[None].squeeze(axis=[0]), NOT_INT),
    ("sum_axis_bool", lambda xp: A(xp).sum(axis=True), "an integer is required"),
    ("sum_axis_float", lambda xp: A(xp).sum(axis=1.0), NOT_INT),
    ("sum_axis_out_of_range", lambda xp: A(xp).sum(axis=2), None),
    ("sum_axis_duplicate", lambda xp: A(xp).sum(axis=(0, 0)), None),
    ("sum_dtype_bogus", lambda xp: A(xp).sum(dtype="float33"), None),
    ("sum_out_shape", lambda xp: A(xp).sum(axis=0, out=xp.zeros(2, np.int64)), None),
    ("max_empty", lambda xp: xp.zeros((0, 3)).max(), None),
    # Integers past int64 as axes, indices and offsets: OverflowError, as NumPy's conversion to a C long.
    ("sum_axis_2_64", lambda xp: A(xp).sum(axis=2**64), C_LONG),
    ("sum_axis_2_63", lambda xp: A(xp).sum(axis=2**63), C_LONG),
    ("sum_axis_tuple_2_64", lambda xp: A(xp).sum(axis=(2**64,)), C_LONG),
    ("sum_axis_minus_2_64", lambda xp: A(xp).sum(axis=-(2**64)), C_LONG),
    ("swapaxes_2_64", lambda xp: A(xp).swapaxes(2**64, 0), C_LONG),
    ("swapaxes_function_2_64", lambda xp: xp.swapaxes(A(xp), 0, 2**64), C_LONG),
    ("moveaxis_2_64", lambda xp: xp.moveaxis(A(xp), 2**64, 0), C_LONG),
    ("expand_dims_2_64", lambda xp: xp.expand_dims(A(xp), 2**64), C_LONG),
    ("take_2_64", lambda xp: xp.take(A(xp), 2**64), C_LONG),
    ("take_list_2_63", lambda xp: xp.take(A(xp), [2**63]), C_LONG),
    ("take_axis_2_64", lambda xp: xp.take(A(xp), 0, axis=2**64), C_LONG),
    ("sort_axis_2_64", lambda xp: xp.sort(A(xp), axis=2**64), C_LONG),
    ("diagonal_2_64", lambda xp: A(xp).diagonal(2**64), C_LONG),
    ("diagonal_axis_2_64", lambda xp: A(xp).diagonal(0, 2**64), C_LONG),
    ("diagonal_past_c_int", lambda xp: A(xp).diagonal(2**62), "signed integer is greater than maximum"),
    ("diagonal_below_c_int", lambda xp: A(xp).diagonal(-(2**40)), "signed integer is less than minimum"),
    ("diag_2d_k_2_62", lambda xp: xp.diag(A(xp), k=2**62), "signed integer is greater than maximum"),
    ("diag_2d_k_2_64", lambda xp: xp.diag(A(xp), k=2**64), C_LONG),
    ("diag_1d_k_2_62", lambda xp: xp.diag(xp.arange(3), k=2**62), "array is too big"),
    ("diag_1d_k_2_64", lambda xp: xp.diag(xp.arange(3), k=2**64), "Maximum allowed dimension exceeded"),
    ("tri_k_2_64", lambda xp: xp.tri(2, k=2**64), None),
    ("triu_k_2_64", lambda xp: xp.triu(A(xp), k=2**64), None),
    ("repeat_2_64", lambda xp: xp.repeat(A(xp), 2**64), C_LONG),
    ("index_2_63", lambda xp: A(xp)[2**63], C_LONG),
    ("index_2_64_minus_1", lambda xp: A(xp)[2**64 - 1], C_LONG),
    ("index_in_tuple_2_63", lambda xp: A(xp)[0, 2**63], C_LONG),
    ("index_numpy_uint64", lambda xp: A(xp)[np.uint64(2**64 - 1)], C_LONG),
    ("setitem_2_63", lambda xp: A(xp).__setitem__(2**63, 1), C_LONG),
    # ... and beyond what a C unsigned long holds, NumPy gives up on the key: IndexError.
    ("index_2_64", lambda xp: A(xp)[2**64], "only integers, slices"),
    ("index_minus_2_64", lambda xp: A(xp)[-(2**64)], "only integers, slices"),
    ("index_below_int64", lambda xp: A(xp)[-(2**63) - 1], "only integers, slices"),
    # Shapes read as NumPy reads them (ValueError past int64; bools are no sizes).
    ("reshape_2_64", lambda xp: A(xp).reshape(2**64), "Maximum allowed dimension exceeded"),
    ("reshape_bool", lambda xp: A(xp).reshape(True), SHAPE),
    ("reshape_bool_in_shape", lambda xp: A(xp).reshape(6, True), "an integer is required"),
    ("transpose_2_64", lambda xp: A(xp).transpose(2**64, 0), "Maximum allowed dimension exceeded"),
    ("transpose_bool", lambda xp: A(xp).transpose(True, 0), "an integer is required"),
    ("transpose_repeated", lambda xp: A(xp).transpose(0, 0), None),
    ("transpose_too_few", lambda xp: A(xp).transpose(0), None),
    ("reshape_two_unknown", lambda xp: A(xp).reshape(-1, -1), None),
    ("reshape_wrong_size", lambda xp: A(xp).reshape(4), None),
    ("empty_like_float_shape", lambda xp: xp.empty_like(A(xp), shape=2.0), SHAPE),
    ("broadcast_to_negative", lambda xp: xp.broadcast_to(A(xp), (-1, 3)), None),
    ("broadcast_to_incompatible", lambda xp: xp.broadcast_to(A(xp), (3, 3)), None),
    ("expand_dims_repeated", lambda xp: xp.expand_dims(A(xp), (0, 0)), None),
    ("expand_dims_nested", lambda xp: xp.expand_dims(A(xp), ((0,),)), NOT_INT),
    ("squeeze_not_one", lambda xp: A(xp).squeeze(axis=0), None),
    ("diagonal_same_axes", lambda xp: A(xp).diagonal(0, 0, 0), None),
    ("swapaxes_out_of_range", lambda xp: A(xp).swapaxes(2, 0), None),
    ("swapaxes_float", lambda xp: A(xp).swapaxes(1.0, 0), NOT_INT),
    # Ufunc keywords and operands.
    ("ufunc_casting_none", lambda xp: xp.add(F(xp), 1, casting=None), "casting must be str, not NoneType"),
    ("ufunc_casting_bogus", lambda xp: xp.add(F(xp), 1, casting="bogus"), "casting must be one of"),
    ("ufunc_casting_safe", lambda xp: xp.add(F(xp), 1, dtype=np.int64, casting="safe"), None),
    ("ufunc_out_shape", lambda xp: xp.add(F(xp), 1, out=xp.zeros(3)), None),
    ("ufunc_out_dtype", lambda xp: xp.add(F(xp), 1, out=xp.zeros((2, 3), np.int64)), None),
    ("ufunc_out_list", lambda xp: xp.add(F(xp), 1, out=[1]), None),
    ("ufunc_out_tuple_length", lambda xp: xp.add(F(xp), 1, out=(None, None)), None),
    ("ufunc_dtype_bogus", lambda xp: xp.add(F(xp), 1, dtype="float33"), None),
    ("ufunc_unknown_keyword", lambda xp: xp.add(F(xp), 1, bogus=1), None),
    ("ufunc_too_many_arguments", lambda xp: xp.add(F(xp), 1, None, None), None),
    ("ufunc_too_few_arguments", lambda xp: xp.add(F(xp)), None),
    ("ufunc_not_broadcastable", lambda xp: xp.add(xp.zeros(2), xp.zeros(3)), None),
    # No loop for the types and shapes that do not broadcast: NumPy reports the types (a TypeError).
    (
        "ufunc_no_loop_before_broadcast",
        lambda xp: xp.right_shift(xp.zeros((1, 0)), xp.zeros((1, 2))),
        "right_shift",
    ),
    (
        "inplace_no_loop_before_broadcast",
        lambda xp: xp.zeros((1, 2)).__irshift__(xp.zeros((3, 2))),
        "right_shift",
    ),
    # An output that the loop type cannot be cast to: NumPy reports it before any broadcast error.
    (
        "ufunc_out_cast_before_broadcast",
        lambda xp: xp.divide(xp.ones((2, 3)), xp.ones((4,)), out=xp.zeros((2, 3), bool)),
        "Cannot cast ufunc 'divide' output",
    ),
    (
        "ufunc_out_cast_before_out_shape",
        lambda xp: xp.divide(xp.ones((2, 3)), xp.ones((3,)), out=xp.zeros((1, 3), bool)),
        "Cannot cast ufunc 'divide' output",
    ),
    (
        "inplace_out_cast_before_broadcast",
        lambda xp: xp.zeros((4, 5), bool)[1:-1, 1:3].__itruediv__(xp.ones((2, 5))),
        "Cannot cast ufunc 'divide' output",
    ),
    ("ufunc_no_loop", lambda xp: xp.bitwise_and(F(xp), 1), None),
    # Python ints past int64 as ufunc operands (NEP 50); a bool loop reads them as a C long first.
    ("logical_or_2_64", lambda xp: xp.logical_or(A(xp), 2**64), C_LONG),
    ("logical_xor_2_64", lambda xp: xp.logical_xor(A(xp), 2**64), C_LONG),
    ("logical_and_minus_2_64", lambda xp: xp.logical_and(A(xp), -(2**64)), C_LONG),
    ("logical_or_2_63", lambda xp: xp.logical_or(A(xp), 2**63), C_LONG),
    ("logical_or_float_array_2_64", lambda xp: xp.logical_or(F(xp), 2**64), C_LONG),
    ("logical_and_bool_array_2_64", lambda xp: xp.logical_and(xp.ones((2, 3), bool), 2**64), C_LONG),
    ("add_int8_300", lambda xp: xp.add(A(xp, np.int8), 300), "out of bounds for int8"),
    ("add_2_64", lambda xp: A(xp) + 2**64, None),
    ("add_float_2_1024", lambda xp: F(xp) + 2**1024, None),
    ("fill_2_64", lambda xp: A(xp).fill(2**64), None),
    ("setitem_value_2_64", lambda xp: A(xp).__setitem__(0, 2**64), None),
    ("full_int64_2_64", lambda xp: xp.full(3, 2**64, dtype=np.int64), None),
    # searchsorted's sorter.
    (
        "searchsorted_sorter_high",
        lambda xp: xp.searchsorted(xp.arange(3), xp.array([0, 1, 2]), sorter=xp.array([0, 1, 5])),
        "Sorter index out of range",
    ),
    (
        "searchsorted_sorter_negative",
        lambda xp: xp.searchsorted(xp.arange(3), xp.array([0, 1, 2]), sorter=xp.array([0, 1, -1])),
        "out of range",
    ),
    (
        "searchsorted_sorter_scalar",
        lambda xp: xp.searchsorted(xp.arange(3), 1, sorter=xp.array([5, 5, 5])),
        "out of range",
    ),
    (
        "searchsorted_sorter_float32",
        lambda xp: xp.searchsorted(xp.arange(3.0, dtype=np.float32), 1.5, sorter=xp.array([0, 1, 7])),
        "out of range",
    ),
    ("searchsorted_sorter_size", lambda xp: xp.searchsorted(xp.arange(3), 1, sorter=xp.array([0, 1])), None),
    (
        "searchsorted_sorter_float",
        lambda xp: xp.searchsorted(xp.arange(3), 1, sorter=xp.array([0.0, 1, 2])),
        "sorter must only contain integers",
    ),
    (
        "searchsorted_sorter_uint64",
        lambda xp: xp.searchsorted(xp.arange(3), 1, sorter=xp.array([0, 1, 2], np.uint64)),
        None,
    ),
    ("searchsorted_side", lambda xp: xp.searchsorted(xp.arange(3), 1, side="middle"), None),
    # Indexing, joining, sorting and conversions.
    ("index_float", lambda xp: A(xp)[1.0], None),
    ("index_too_many", lambda xp: A(xp)[0, 0, 0], None),
    ("index_out_of_bounds", lambda xp: A(xp)[5], None),
    ("index_two_ellipses", lambda xp: A(xp)[..., ...], None),
    ("setitem_shape", lambda xp: A(xp).__setitem__(0, xp.zeros(2)), None),
    ("sort_axis_out_of_range", lambda xp: xp.sort(A(xp), axis=2), None),
    ("sort_kind", lambda xp: xp.sort(A(xp), kind="bogus"), None),
    ("argsort_axis_out_of_range", lambda xp: xp.argsort(A(xp), axis=2), None),
    ("cumsum_axis_out_of_range", lambda xp: xp.cumsum(A(xp), axis=2), None),
    ("cumsum_axis_tuple", lambda xp: xp.cumsum(A(xp), axis=(0,)), None),
    ("concatenate_axis_out_of_range", lambda xp: xp.concatenate([A(xp), A(xp)], axis=2), None),
    ("concatenate_ndims", lambda xp: xp.concatenate([A(xp), xp.zeros(3)]), None),
    ("stack_shapes", lambda xp: xp.stack([A(xp), xp.zeros(3)]), None),
    ("flip_axis_out_of_range", lambda xp: xp.flip(A(xp), axis=2), None),
    ("roll_axis_out_of_range", lambda xp: xp.roll(A(xp), 1, axis=2), None),
    ("repeat_negative", lambda xp: xp.repeat(A(xp), -1), None),
    ("split_unequal", lambda xp: xp.split(xp.arange(5), 2), None),
    ("diag_3d", lambda xp: xp.diag(xp.zeros((2, 2, 2))), None),
    ("where_one_of_x_y", lambda xp: xp.where(A(xp) > 1, A(xp)), None),
    ("dot_shapes", lambda xp: xp.dot(A(xp), A(xp)), None),
    ("matmul_shapes", lambda xp: xp.matmul(A(xp), A(xp)), None),
    ("len_0d", lambda xp: len(xp.array(1)), None),
    ("int_of_2d", lambda xp: int(A(xp)), None),
    ("float_of_2d", lambda xp: float(A(xp)), None),
    ("bool_of_2d", lambda xp: bool(A(xp)), None),
    ("item_of_2d", lambda xp: A(xp).item(), None),
    ("int_of_1d", lambda xp: int(xp.array([5])), "only 0-dimensional arrays"),
    ("float_of_2d_size_1", lambda xp: float(xp.array([[5.0]])), "only 0-dimensional arrays"),
    ("complex_of_1d", lambda xp: complex(xp.array([5.0])), "only 0-dimensional arrays"),
    ("index_of_1d", lambda xp: operator.index(xp.array([1])), "only integer scalar arrays"),
    ("index_of_bool_0d", lambda xp: operator.index(xp.array(True)), "only integer scalar arrays"),
    ("nonzero_0d", lambda xp: xp.nonzero(xp.array(1)), None),
]

ROWS = [pytest.param(call, match, id=name) for name, call, match in HOST] + [
    pytest.param(call, match, id=name, marks=pytest.mark.gpu) for name, call, match in DEVICE
]


def _public(cls):
    """NumPy's exception class as users catch it: private subclasses (numpy._core._exceptions) count as
    their first public base."""
    for c in cls.__mro__:
        if not c.__module__.startswith("numpy._"):
            return c
    return cls


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("call, match", ROWS)
def test_raises_what_numpy_raises(call, match):
    try:
        call(np)
    except Exception as e:  # noqa: BLE001  (any type: the row's point is which)
        expected = _public(type(e))
    else:
        pytest.fail("NumPy does not raise here: the row is no bad input")
    with pytest.raises(expected, match=match):
        call(cp)


# ---- CUARRAY_GPU_MEMORY_LIMIT ------------------------------------------------------------------------------

LIMIT_FORMS = "a whole number of bytes .* or a percentage of the device's memory from 0 to 100"


@pytest.mark.parametrize(
    "value",
    [
        "-5",
        "%",
        "nan%",
        "inf%",
        "-1%",
        "150%",
        "100.5%",
        "abc",
        "10XB",
        "1e9",
        " 5",
        "5 ",
        "1.5",
        "1..5%",
        "0x10",
        "18446744073709551616",
        "50%%",
    ],
)
def test_memory_limit_rejects_malformed_values(value):
    with pytest.raises(ValueError, match="CUARRAY_GPU_MEMORY_LIMIT must be " + LIMIT_FORMS) as info:
        _core.cuda._parse_memory_limit(value, 1000)
    assert repr(value) in str(info.value)  # the value given is quoted back


@pytest.mark.parametrize(
    "value, limit",
    [
        ("0", 0),
        ("1024", 1024),
        ("18446744073709551615", 2**64 - 1),
        ("50%", 500),
        ("12.5%", 125),
        ("100%", 1000),
        ("0%", 0),
        (".5%", 5),
        ("5.%", 50),
    ],
)
def test_memory_limit_accepts_bytes_and_percentages(value, limit):
    assert _core.cuda._parse_memory_limit(value, 1000) == limit


MEMORY_LIMIT_PROBE = """
import cuarray as cp
try:
    cp.zeros(3)
except ValueError as e:
    print("ValueError:", e)
try:
    cp.zeros(3)  # still a clear error, the process still working
except ValueError as e:
    print("again")
"""


@pytest.mark.gpu
@pytest.mark.parametrize("value", ["-5", "nan%", "150%", "10XB"])
def test_malformed_memory_limit_raises_at_first_use(value):
    proc = run_python(code=MEMORY_LIMIT_PROBE, env={"CUARRAY_GPU_MEMORY_LIMIT": value}, timeout=120)
    assert proc.returncode == 0, describe(proc)
    lines = proc.stdout.strip().splitlines()
    assert lines[-2].startswith("ValueError: CUARRAY_GPU_MEMORY_LIMIT must be a whole number"), describe(proc)
    assert repr(value) in lines[-2] and lines[-1] == "again", describe(proc)


# ---- what is no error stays none ---------------------------------------------------------------------------


@pytest.mark.gpu
def test_integer_power_without_negative_exponents_still_computes():
    a = cp.arange(6).reshape(2, 3)
    np.testing.assert_array_equal((a ** cp.array([0, 1, 2])).get(), np.arange(6).reshape(2, 3) ** [0, 1, 2])
    np.testing.assert_array_equal((a ** np.uint8(2)).get(), np.arange(6).reshape(2, 3) ** np.uint8(2))
    np.testing.assert_array_equal((a**-1.0).get(), np.arange(6).reshape(2, 3) ** -1.0)  # a float loop
    np.testing.assert_array_equal(cp.power(a, cp.array([200], np.uint8)).dtype, np.int64)  # unsigned exponent
    # NumPy checks the elements its loop computes: nothing raises for an empty result.
    assert cp.power(cp.arange(0), -1).shape == (0,)
    assert cp.power(cp.zeros((0, 3), np.int64), cp.array([-1, 2, 3])).shape == (0, 3)


@pytest.mark.gpu
def test_negative_power_leaves_out_untouched():
    out = cp.full((2, 3), 7, dtype=np.int64)
    with pytest.raises(ValueError, match=NEGATIVE_POWER):
        cp.power(cp.arange(6).reshape(2, 3), cp.array([1, -1, 2]), out=out)
    np.testing.assert_array_equal(out.get(), np.full((2, 3), 7))


@pytest.mark.gpu
def test_searchsorted_sorter_in_range_still_searches():
    a = cp.array([30, 10, 20])
    sorter = cp.argsort(a)
    got = cp.searchsorted(a, cp.array([5, 15, 25, 35]), sorter=sorter)
    np.testing.assert_array_equal(got.get(), np.searchsorted(a.get(), [5, 15, 25, 35], sorter=sorter.get()))
    # A bad entry that no search reads raises in neither.
    v = cp.array([1])
    np.testing.assert_array_equal(
        cp.searchsorted(cp.arange(3), v, sorter=cp.array([0, 1, 5])).get(),
        np.searchsorted(np.arange(3), [1], sorter=[0, 1, 5]),
    )


@pytest.mark.gpu
def test_list_axes_where_numpy_takes_them():
    a = cp.arange(6).reshape(2, 3)
    assert cp.expand_dims(a, [0, 3]).shape == (1, 2, 3, 1)
    assert cp.expand_dims(a, [True]).shape == np.expand_dims(a.get(), [True]).shape  # a bool is an axis there
    assert a.transpose([1, 0]).shape == (3, 2)
    assert cp.flip(a, [0]).shape == (2, 3)
    assert a.astype(np.float32, casting="same_kind").dtype == np.float32


@pytest.mark.gpu
def test_keywords_numpy_accepts():
    a = cp.arange(6.0).reshape(2, 3)
    f = cp.add(a, 1, order="F")
    assert f.flags.f_contiguous and not f.flags.c_contiguous
    np.testing.assert_array_equal(f.get(), np.add(a.get(), 1))
    assert cp.add(a.T, 1, order="C").flags.c_contiguous
    np.testing.assert_array_equal(cp.add(a, 1, subok=False).get(), np.add(a.get(), 1))
    np.testing.assert_array_equal(cp.eye(2, k=2**64).get(), np.eye(2, k=2**64))  # past the matrix: zeros
    np.testing.assert_array_equal(cp.eye(3, k=-(2**70)).get(), np.eye(3, k=-(2**70)))
    np.testing.assert_array_equal(cp.fft.fftfreq(cp.array(4)).get(), np.fft.fftfreq(4))  # a 0-d device int


@pytest.mark.gpu
@pytest.mark.parametrize("sorter", [[[0, 1, 2, 3, 4]], 3, [0, 1, 2, 3], [0, 1, 2, 3, 4, 5]], ids=str)
def test_searchsorted_sorter_shape_errors_are_numpys(sorter):
    # A sorter that is not 1-D is NumPy's TypeError; one of another length its ValueError.
    with pytest.raises((TypeError, ValueError)) as want:
        np.searchsorted(np.arange(5), 2, sorter=np.array(sorter))
    with pytest.raises(type(want.value), match=f"^{want.value}$"):
        cp.searchsorted(cp.arange(5), 2, sorter=cp.array(sorter))
