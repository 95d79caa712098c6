"""Comparisons, maximum/minimum/fmax/fmin, isnan/isinf/isfinite/signbit, logical and bitwise ufuncs, shifts and
the 3-argument where. Every NumPy type loop on one layout; NaN handling; exact 64-bit comparisons; NumPy 2's
comparisons with out-of-range Python integers; shifts by the bit width or more."""

import operator
import os
import sys

import cuarray as cp
import numpy as np
import pytest
from conftest import INT_DTYPES, SIGNED_DTYPES, dtype_id

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mathhelpers import (
    COMPARISON_LOGIC_BITWISE_UFUNCS,
    assert_close,
    assert_results,
    np_call,
    outcome,
    run_loops,
)

pytestmark = pytest.mark.gpu

COMPARISONS = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]
REAL_FLOATS = [np.dtype(n) for n in ("float16", "float32", "float64")]


@pytest.mark.parametrize("name", COMPARISON_LOGIC_BITWISE_UFUNCS)
def test_every_numpy_loop(name):
    """cp.<name> on inputs of each of NumPy's type loops gives NumPy's dtype and values."""
    run_loops(name)


def _check(name, *arrays, **kw):
    expected = np_call(getattr(np, name), *arrays)
    got = getattr(cp, name)(*[cp.asarray(a) for a in arrays])
    assert_results(got, expected, **kw)


# ---- comparisons ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", REAL_FLOATS + [np.dtype("complex64")], ids=dtype_id)
def test_comparisons_with_nan(dtype):
    a = np.array([np.nan, np.nan, 1.0, np.inf, -np.inf, -0.0, 0.0], dtype=dtype)
    b = np.array([np.nan, 1.0, np.nan, np.inf, np.inf, 0.0, -0.0], dtype=dtype)
    for name in COMPARISONS:
        _check(name, a, b)
    ne = cp.asnumpy(cp.not_equal(cp.asarray(a), cp.asarray(b)))
    assert ne.tolist() == [True, True, True, False, True, False, False]


def test_int64_uint64_comparisons_are_exact():
    """NumPy 2 compares int64 with uint64 exactly (loops 'qQ->?', 'Qq->?'), not through float64."""
    u = np.array([2**64 - 1, 2**63, 5, 0, 2**53 + 1], dtype=np.uint64)
    i = np.array([-1, 2**63 - 1, 5, -(2**63), 2**53], dtype=np.int64)
    for name in COMPARISONS:
        _check(name, u, i)
        _check(name, i, u)
    assert cp.asnumpy(cp.less(cp.asarray(i), cp.asarray(u))).tolist() == [True, True, False, True, True]


def test_large_64bit_values_compare_exactly():
    a = np.array([2**53 + 1, -(2**63), 2**62 + 1, 2**63 - 1], dtype=np.int64)
    b = np.array([2**53, -(2**63) + 1, 2**62, 2**63 - 2], dtype=np.int64)
    for name in COMPARISONS:
        _check(name, a, b)
    assert not cp.asnumpy(cp.equal(cp.asarray(a), cp.asarray(b))).any()
    ua = np.array([2**64 - 1, 2**63 + 1], dtype=np.uint64)
    ub = np.array([2**64 - 2, 2**63], dtype=np.uint64)
    for name in COMPARISONS:
        _check(name, ua, ub)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "uint64"])
def test_comparison_with_out_of_range_python_int(dtype):
    """NumPy 2: comparing an integer array with a Python int outside its range works (no OverflowError)."""
    a = np.array([0, 1, 100, np.iinfo(dtype).max, np.iinfo(dtype).min], dtype=dtype)
    x = cp.asarray(a)
    ops = (operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge)
    for value in (-1, 300, -300, 70000, 2**64, -(2**63) - 1):
        for name, op in zip(COMPARISONS, ops):
            kind, expected = outcome(getattr(np, name), a, value)
            assert kind == "ok", "NumPy changed: comparisons with out-of-range Python ints raise"
            assert_close(getattr(cp, name)(x, value), expected)
            assert_close(op(x, value), op(a, value))
        for name in ("less", "equal"):  # the int on the left
            assert_close(getattr(cp, name)(value, x), np_call(getattr(np, name), value, a))


def test_comparison_int_with_float_scalar():
    a = np.array([1, 2, 3], dtype=np.int8)
    x = cp.asarray(a)
    for name in COMPARISONS:
        assert_close(getattr(cp, name)(x, 1.5), np_call(getattr(np, name), a, 1.5))
        assert_close(getattr(cp, name)(x, np.float32(2)), np_call(getattr(np, name), a, np.float32(2)))


def test_complex_comparisons_are_lexicographic():
    a = np.array([1 + 2j, 1 + 2j, 1 + 2j, 2 + 0j, 0 + 5j, 3 - 1j], dtype=np.complex128)
    b = np.array([1 + 3j, 1 + 1j, 1 + 2j, 1 + 9j, 0.5 + 0j, 3 - 1j], dtype=np.complex128)
    for name in COMPARISONS:
        _check(name, a, b)
        _check(name, a.astype(np.complex64), b.astype(np.complex64))


# ---- maximum / minimum / fmax / fmin ------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", REAL_FLOATS, ids=dtype_id)
def test_maximum_minimum_nan_handling(dtype):
    a = np.array([np.nan, 1.0, np.nan, -np.inf, 2.0, np.inf], dtype=dtype)
    b = np.array([1.0, np.nan, np.nan, 3.0, -2.0, -np.inf], dtype=dtype)
    for name in ("maximum", "minimum", "fmax", "fmin"):
        _check(name, a, b, exact=True)
    assert np.isnan(cp.asnumpy(cp.maximum(cp.asarray(a), cp.asarray(b)))[:3]).all()
    assert cp.asnumpy(cp.fmax(cp.asarray(a), cp.asarray(b)))[:2].tolist() == [1.0, 1.0]


def test_complex_maximum_minimum():
    a = np.array([1 + 1j, 2 + 0j, complex(np.nan, 0), 1 + 1j], dtype=np.complex128)
    b = np.array([1 + 2j, 1 + 5j, 1 + 0j, complex(0, np.nan)], dtype=np.complex128)
    for name in ("maximum", "minimum", "fmax", "fmin"):
        _check(name, a, b)


def test_maximum_mixed_signedness():
    a = np.array([-1, 5, 127], dtype=np.int8)
    b = np.array([200, 3, 0], dtype=np.uint8)
    for name in ("maximum", "minimum"):
        _check(name, a, b)  # int16


# ---- isnan, isinf, isfinite, signbit ---------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", REAL_FLOATS, ids=dtype_id)
def test_classification_of_special_values(dtype):
    a = np.array(
        [
            np.nan,
            -np.nan,
            np.inf,
            -np.inf,
            0.0,
            -0.0,
            1.0,
            -1.0,
            np.finfo(dtype).max,
            np.finfo(dtype).smallest_subnormal,
        ],
        dtype=dtype,
    )
    for name in ("isnan", "isinf", "isfinite", "signbit"):
        _check(name, a)
    assert cp.asnumpy(cp.signbit(cp.asarray(a))).tolist() == [
        False,
        True,
        False,
        True,
        False,
        True,
        False,
        True,
        False,
        False,
    ]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_classification_of_complex(dtype):
    a = np.array(
        [
            complex(np.nan, 0),
            complex(0, np.nan),
            complex(np.inf, np.nan),
            complex(0, -np.inf),
            1 + 1j,
            complex(np.inf, 0),
        ],
        dtype=dtype,
    )
    for name in ("isnan", "isinf", "isfinite"):
        _check(name, a)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64"])
def test_classification_of_integers(dtype):
    a = np.array([0, 1, 1, 0], dtype=dtype)
    for name in ("isnan", "isinf", "isfinite", "signbit"):
        _check(name, a)


# ---- logical ---------------------------------------------------------------------------------------------------


def test_logical_truthiness():
    """NaN is true, -0.0 is false; a complex number is true when either part is nonzero."""
    f = np.array([np.nan, -0.0, 0.0, 0.5, -np.inf], dtype=np.float64)
    g = np.array([True, True, False, False, True])
    for name in ("logical_and", "logical_or", "logical_xor"):
        _check(name, f, g)
        _check(name, f.astype(np.float16), f.astype(np.float32))
    _check("logical_not", f)
    c = np.array([0j, 1j, complex(-0.0, 0.0), complex(np.nan, 0), 2 + 0j], dtype=np.complex64)
    _check("logical_not", c)
    _check("logical_and", c, c[::-1].copy())
    assert cp.asnumpy(cp.logical_not(cp.asarray(f))).tolist() == [False, True, True, False, False]


def test_logical_mixed_types():
    a = np.array([0, 3, -2, 0], dtype=np.int8)
    b = np.array([0.0, 0.0, 1.5, np.nan], dtype=np.float32)
    for name in ("logical_and", "logical_or", "logical_xor"):
        _check(name, a, b)
        assert_close(getattr(cp, name)(cp.asarray(a), 1), np_call(getattr(np, name), a, 1))
        assert_close(getattr(cp, name)(0.0, cp.asarray(b)), np_call(getattr(np, name), 0.0, b))


# ---- bitwise and shifts ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", INT_DTYPES + [np.dtype(bool)], ids=dtype_id)
def test_bitwise_extremes(dtype):
    if np.dtype(dtype).kind == "b":
        a, b = np.array([True, True, False, False]), np.array([True, False, True, False])
    else:
        info = np.iinfo(dtype)
        a = np.array(
            [info.max, info.min, -1 if info.min < 0 else info.max, 0, 0x55 % (info.max + 1)], dtype=dtype
        )
        b = np.array([info.min, info.max, 1, info.max, 0x0F], dtype=dtype)
    for name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
        _check(name, a, b)
    for name in ("invert", "bitwise_not"):
        _check(name, a)


def test_bitwise_mixed_signedness_promotes():
    a = np.array([-1, 5, 127], dtype=np.int8)
    b = np.array([255, 3, 128], dtype=np.uint8)
    for name in ("bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"):
        _check(name, a, b % 8 if "shift" in name else b)  # int16


def test_bool_bitwise_stays_bool():
    a = np.array([True, False, True])
    b = np.array([True, True, False])
    for name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
        r = getattr(cp, name)(cp.asarray(a), cp.asarray(b))
        assert r.dtype == np.bool_
        assert_close(r, getattr(np, name)(a, b))
    assert_close(cp.invert(cp.asarray(a)), np.invert(a))  # logical not for bools


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=dtype_id)
def test_shifts_by_bit_width_or_more(dtype):
    """NumPy: left_shift by >= the bit width gives 0; right_shift gives 0, or -1 for negative values."""
    bits = 8 * np.dtype(dtype).itemsize
    info = np.iinfo(dtype)
    vals = [1, 5, info.max, info.max, 1, 3, info.max, 7] + ([-1, -5, info.min, -100] if info.min < 0 else [])
    counts = [bits, bits + 1, bits, bits - 1, 0, 1, min(100, info.max), bits // 2] + (
        [bits, bits - 1, bits + 3, 2] if info.min < 0 else []
    )
    a, s = np.array(vals, dtype=dtype), np.array(counts, dtype=dtype)
    _check("left_shift", a, s)
    _check("right_shift", a, s)
    got = cp.asnumpy(cp.left_shift(cp.asarray(a[:3]), cp.asarray(s[:3])))
    assert got.tolist() == [0, 0, 0]
    if info.min < 0:
        got = cp.asnumpy(cp.right_shift(cp.asarray(a[8:]), cp.asarray(s[8:])))
        assert got[:3].tolist() == [-1, -1, -1]


@pytest.mark.parametrize("dtype", SIGNED_DTYPES, ids=dtype_id)
def test_shifts_by_negative_counts(dtype):
    """A negative count is a huge unsigned count in NumPy: 0 for left_shift, 0 or -1 for right_shift."""
    a = np.array([1, -5, 5, -1], dtype=dtype)
    s = np.array([-1, -1, -100, -3], dtype=dtype)
    _check("left_shift", a, s)
    _check("right_shift", a, s)


def test_shift_of_negative_values():
    a = np.array([-5, -1, -128, 64, -64], dtype=np.int8)
    s = np.array([1, 3, 1, 1, 2], dtype=np.int8)
    _check("left_shift", a, s)  # wraps: 64 << 1 == -128
    _check("right_shift", a, s)  # arithmetic: -5 >> 1 == -3
    assert cp.asnumpy(cp.right_shift(cp.asarray(a), cp.asarray(s))).tolist() == [-3, -1, -64, 32, -16]


def test_shift_with_python_int():
    a = np.array([1, 3, 255], dtype=np.uint8)
    x = cp.asarray(a)
    assert_close(cp.left_shift(x, 1), np.left_shift(a, 1))
    assert_close(cp.right_shift(x, 9), np.right_shift(a, 9))
    assert_close(cp.left_shift(1, x % 8), np.left_shift(1, a % 8))


# ---- where -------------------------------------------------------------------------------------------------


def test_where_basic_and_broadcast():
    c = np.array([[True, False, True], [False, False, True]])
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.array([-1.0, -2.0, -3.0], dtype=np.float32)
    assert_close(cp.where(cp.asarray(c), cp.asarray(a), cp.asarray(b)), np.where(c, a, b), exact=True)
    col = np.array([[True], [False]])
    assert_close(cp.where(cp.asarray(col), cp.asarray(a), cp.asarray(b)), np.where(col, a, b), exact=True)
    r = cp.where(cp.asarray(np.array(True)), cp.asarray(a), cp.asarray(b))
    assert_close(r, np.where(True, a, b), exact=True)


def test_where_non_bool_condition():
    c = np.array([0, 3, -1, 0], dtype=np.int32)
    f = np.array([0.0, np.nan, -0.0, 2.0])
    a = np.arange(4, dtype=np.int16)
    assert_close(cp.where(cp.asarray(c), cp.asarray(a), 100), np.where(c, a, 100))
    assert_close(cp.where(cp.asarray(f), cp.asarray(a), 100), np.where(f, a, 100))


def test_where_promotion_with_scalars():
    c = np.array([True, False, True])
    a = np.array([1, 2, 3], dtype=np.int8)
    b = np.array([4, 5, 6], dtype=np.uint8)
    x, cc = cp.asarray(a), cp.asarray(c)
    cases = [
        (cp.where(cc, x, 1), np.where(c, a, 1)),  # int8
        (cp.where(cc, x, 1.5), np.where(c, a, 1.5)),  # float64
        (cp.where(cc, x, cp.asarray(b)), np.where(c, a, b)),  # int16
        (cp.where(cc, 1, 2), np.where(c, 1, 2)),  # default int
        (cp.where(cc, 1, 2.5), np.where(c, 1, 2.5)),
        (cp.where(cc, np.float32(1), 2.5), np.where(c, np.float32(1), 2.5)),  # float32
        (cp.where(cc, x.astype(np.float32), 1j), np.where(c, a.astype(np.float32), 1j)),  # complex64
    ]
    for got, expected in cases:
        assert_close(got, expected)


def test_where_bool_and_complex_values():
    c = np.array([True, False])
    assert_close(
        cp.where(
            cp.asarray(c),
            cp.asarray(np.array([1 + 2j, 3j], np.complex64)),
            cp.asarray(np.array([True, False])),
        ),
        np.where(c, np.array([1 + 2j, 3j], np.complex64), np.array([True, False])),
    )
