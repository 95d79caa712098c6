"""NumPy 2 type promotion (NEP 50): arrays of every dtype pair, arrays with Python scalars (weak) and NumPy
scalars and 0-d arrays (strong), unary float functions on integers, mixed-kind binary ufuncs. The result
dtype (and the values) must be NumPy's; where NumPy raises (OverflowError for an out-of-range Python int,
TypeError when no loop fits), cuarray raises the same exception type."""

import os
import sys

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, SOME_DTYPES, dtype_id

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mathhelpers import (
    assert_close,
    base_values,
    compare_with_numpy,
    make_inputs,
    np_call,
    outcome,
    report,
)

pytestmark = pytest.mark.gpu


def _data(dtype, n=6, seed=0):
    a = base_values(dtype, n, seed)
    if np.dtype(dtype).kind in "iu":
        a = (a % 50).astype(dtype)  # small and non-negative: no overflow whatever the result type
    return a


# ---- the spec's examples, with the dtype written out -------------------------------------------------------

i8 = np.array([1, -2, 3], dtype=np.int8)
u8 = np.array([1, 2, 200], dtype=np.uint8)
i32 = np.array([1, -2, 3], dtype=np.int32)
i64 = np.array([1, -2, 3], dtype=np.int64)
u64 = np.array([1, 2, 3], dtype=np.uint64)
f16 = np.array([1.5, -2.0, 3.25], dtype=np.float16)
f32 = np.array([1.5, -2.0, 3.25], dtype=np.float32)
f64 = np.array([1.5, -2.0, 3.25], dtype=np.float64)
c64 = np.array([1.5, -2.0j, 3.25], dtype=np.complex64)
bo = np.array([True, False, True])

# (description, left, right, expected dtype or exception)
EXAMPLES = [
    ("int8 + 1 stays int8", i8, 1, np.int8),
    ("int8 + -128 stays int8", i8, -128, np.int8),
    ("int8 + 300 overflows", i8, 300, OverflowError),
    ("int8 + -129 overflows", i8, -129, OverflowError),
    ("uint8 + -1 overflows", u8, -1, OverflowError),
    ("uint8 + 255 stays uint8", u8, 255, np.uint8),
    ("float32 * 2.0 stays float32", f32, 2.0, np.float32),
    ("float16 + 1.5 stays float16", f16, 1.5, np.float16),
    ("int32 + 1.5 is float64", i32, 1.5, np.float64),
    ("int8 + 1.5 is float64", i8, 1.5, np.float64),
    ("float32 + np.float64(1) is float64", f32, np.float64(1), np.float64),
    ("float16 + np.float32(1) is float32", f16, np.float32(1), np.float32),
    ("uint8 + np.int8(1) is int16", u8, np.int8(1), np.int16),
    ("int8 + np.int64(1) is int64", i8, np.int64(1), np.int64),
    ("int64 + np.uint64(1) is float64", i64, np.uint64(1), np.float64),
    ("bool + 1 is default int", bo, 1, np.int64),
    ("bool + True stays bool", bo, True, np.bool_),
    ("bool + 1.5 is float64", bo, 1.5, np.float64),
    ("bool + 1j is complex128", bo, 1j, np.complex128),
    ("bool + np.float16(1) is float16", bo, np.float16(1), np.float16),
    ("float32 + 1j is complex64", f32, 1j, np.complex64),
    ("float16 + 1j is complex64", f16, 1j, np.complex64),
    ("int8 + 1j is complex128", i8, 1j, np.complex128),
    ("complex64 + 2.5 stays complex64", c64, 2.5, np.complex64),
    ("complex64 + np.float64(2) is complex128", c64, np.float64(2), np.complex128),
    ("uint64 + 2**63 stays uint64", u64, 2**63, np.uint64),
    ("int64 + 2**63 overflows", i64, 2**63, OverflowError),
    ("uint64 + 2**64 overflows", u64, 2**64, OverflowError),
    ("float16 + 70000 is float16 (inf)", f16, 70000, np.float16),
    ("float32 + 2**200 is float32 (inf)", f32, 2**200, np.float32),
    ("int8 array + uint8 array is int16", i8, u8, np.int16),
    ("int64 array + uint64 array is float64", i64, u64, np.float64),
    ("float16 array + int8 array is float16", f16, i8, np.float16),
    ("float16 array + int16 array is float32", f16, i8.astype(np.int16), np.float32),
    ("float16 array + int32 array is float64", f16, i32, np.float64),
    ("float32 array + int32 array is float64", f32, i32, np.float64),
    ("complex64 array + float64 array is complex128", c64, f64, np.complex128),
    ("complex64 array + int16 array is complex64", c64, i8.astype(np.int16), np.complex64),
    ("bool array + int8 array is int8", bo, i8, np.int8),
    ("float32 array + 0-d float64 array is float64", f32, np.array(1.0), np.float64),
    ("int8 array + 0-d int64 array is int64", i8, np.array(1), np.int64),
    ("0-d int8 + 1000.5 is float64", np.array(3, np.int8), 1000.5, np.float64),
]


def _as_cp(v):
    return cp.asarray(v) if isinstance(v, np.ndarray) else v


@pytest.mark.parametrize("desc,left,right,expected", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_spec_examples(desc, left, right, expected):
    kind, res = outcome(np.add, left, right)
    if isinstance(expected, type) and issubclass(expected, Exception):
        assert kind == "raise" and res is expected, f"NumPy changed: {desc}"
        for a, b in ((left, right), (right, left)):
            with pytest.raises(expected):
                cp.add(_as_cp(a), _as_cp(b))
        with pytest.raises(expected):
            _as_cp(left) + _as_cp(right)
        return
    assert kind == "ok" and np.asarray(res).dtype == np.dtype(expected), f"NumPy changed: {desc}"
    for a, b in ((left, right), (right, left)):
        got = cp.add(_as_cp(a), _as_cp(b))
        assert_close(got, np.asarray(np_call(np.add, a, b)))
    got = _as_cp(left) + _as_cp(right)
    assert got.dtype == np.dtype(expected)


# ---- arrays of every dtype pair ---------------------------------------------------------------------------------


@pytest.mark.parametrize("left", ALL_DTYPES, ids=dtype_id)
def test_add_every_dtype_pair(left):
    a = _data(left, seed=1)
    failures = []
    for right in ALL_DTYPES:
        b = _data(right, seed=2)
        m = compare_with_numpy(np.add, cp.add, (a, b), (cp.asarray(a), cp.asarray(b)), f"{left} + {right}")
        if m:
            failures.append(m)
    report(failures, len(ALL_DTYPES))


# ---- arrays and Python scalars (weak) ---------------------------------------------------------------------------

PY_SCALARS = [
    True,
    False,
    0,
    1,
    -1,
    127,
    128,
    255,
    256,
    -129,
    300,
    -40000,
    2**31,
    2**63 - 1,
    2**63,
    2**64,
    -(2**63),
    1.5,
    -0.0,
    1e300,
    1j,
    1.5 - 2j,
]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_array_with_python_scalars(dtype):
    a = _data(dtype)
    x = cp.asarray(a)
    failures, total = [], 0
    for s in PY_SCALARS:
        for name, orders in (("add", ("array first", "scalar first")), ("subtract", ("scalar first",))):
            f_np, f_cp = getattr(np, name), getattr(cp, name)
            for order in orders:
                args = (a, s) if order == "array first" else (s, a)
                cargs = (x, s) if order == "array first" else (s, x)
                total += 1
                m = compare_with_numpy(f_np, f_cp, args, cargs, f"{name}({dtype} array, {s!r}) [{order}]")
                if m:
                    failures.append(m)
    report(failures, total)


# ---- arrays and NumPy scalars (strong, like 0-d arrays) --------------------------------------------------------

NP_SCALARS = [
    np.bool_(True),
    np.int8(3),
    np.uint8(3),
    np.int16(-3),
    np.int64(3),
    np.uint64(3),
    np.float16(2),
    np.float32(2),
    np.float64(2),
    np.complex64(1 + 1j),
]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_array_with_numpy_scalars(dtype):
    a = _data(dtype)
    x = cp.asarray(a)
    failures = []
    for s in NP_SCALARS:
        m = compare_with_numpy(np.add, cp.add, (a, s), (x, s), f"{dtype} array + {s!r}")
        if m:
            failures.append(m)
    for s in NP_SCALARS[1:10:3]:
        m = compare_with_numpy(np.subtract, cp.subtract, (s, a), (s, x), f"{s!r} - {dtype} array")
        if m:
            failures.append(m)
    report(failures, len(NP_SCALARS) + 3)


@pytest.mark.parametrize("dtype", SOME_DTYPES, ids=dtype_id)
def test_zero_d_arrays_are_strong(dtype):
    """A 0-d array takes part in promotion like any array (NumPy 2)."""
    z = _data(dtype, n=1).reshape(())
    failures = []
    for other in ("int8", "float32"):
        a = _data(other)
        for args in ((z, a), (a, z)):
            m = compare_with_numpy(
                np.add, cp.add, args, tuple(cp.asarray(v) for v in args), f"{args[0].dtype}+{args[1].dtype}"
            )
            if m:
                failures.append(m)
    report(failures, 4)


def test_zero_d_results_stay_arrays():
    z = np.array(5, dtype=np.int8)
    r = cp.add(cp.asarray(z), 1)
    assert isinstance(r, cp.ndarray) and r.shape == () and r.dtype == np.int8
    assert_close(r, np.asarray(np.add(z, 1)))
    r = cp.add(cp.asarray(z), cp.asarray(np.array(2.5, dtype=np.float32)))
    assert isinstance(r, cp.ndarray) and r.shape == () and r.dtype == np.float32
    with pytest.raises(OverflowError):
        cp.add(cp.asarray(z), 300)


# ---- unary ufuncs on dtypes without a loop of their own ----------------------------------------------------------

UNARY = [
    "sqrt",
    "exp",
    "sin",
    "arccosh",
    "cbrt",
    "rint",
    "degrees",
    "signbit",
    "frexp",
    "modf",
    "negative",
    "positive",
    "sign",
    "square",
    "reciprocal",
    "absolute",
    "invert",
    "logical_not",
    "isnan",
    "conjugate",
    "floor",
]
UNARY_DTYPES = ["bool", "int8", "uint16", "int32", "uint64", "complex64"]


@pytest.mark.parametrize("name", UNARY)
def test_unary_resolution(name):
    """sqrt(int8) is float16, sqrt(int16) float32, sqrt(int32+) float64; negative(bool) raises; ..."""
    failures = []
    for dt in UNARY_DTYPES:
        a = _data(dt)
        if name in ("arccosh", "reciprocal") and a.dtype.kind in "iu":
            a = (a + 1).astype(dt)  # no integer 1/0
        if name == "reciprocal" and a.dtype.kind == "b":
            a = np.ones_like(a)
        m = compare_with_numpy(
            getattr(np, name), getattr(cp, name), (a,), (cp.asarray(a),), f"{name}({dt})", factor=2.0
        )
        if m:
            failures.append(m)
    report(failures, len(UNARY_DTYPES))


# ---- binary ufuncs with mixed kinds -----------------------------------------------------------------------------

MIXED = [
    ("arctan2", "int8", "int8"),
    ("arctan2", "int16", "uint8"),
    ("hypot", "int16", "int16"),
    ("hypot", "int32", "float32"),
    ("copysign", "int32", "float32"),
    ("copysign", "bool", "float16"),
    ("ldexp", "float32", "int8"),
    ("ldexp", "float32", "int64"),
    ("ldexp", "int8", "int8"),
    ("ldexp", "float32", "uint64"),
    ("ldexp", "float32", "float32"),
    ("ldexp", "float16", "int16"),
    ("left_shift", "int8", "uint8"),
    ("right_shift", "uint8", "int16"),
    ("left_shift", "int64", "uint64"),
    ("left_shift", "bool", "bool"),
    ("bitwise_and", "bool", "int8"),
    ("bitwise_or", "int8", "uint64"),
    ("bitwise_xor", "float32", "int8"),
    ("gcd", "int8", "uint8"),
    ("gcd", "int64", "uint64"),
    ("lcm", "bool", "int8"),
    ("logical_and", "int8", "float32"),
    ("logical_or", "complex64", "bool"),
    ("maximum", "int8", "uint8"),
    ("minimum", "uint64", "int64"),
    ("fmax", "float16", "int16"),
    ("heaviside", "int8", "int8"),
    ("power", "int8", "float32"),
    ("power", "bool", "bool"),
    ("power", "uint8", "int8"),
    ("floor_divide", "uint8", "int8"),
    ("floor_divide", "bool", "bool"),
    ("remainder", "int8", "float16"),
    ("fmod", "bool", "bool"),
    ("fmod", "uint16", "float32"),
    ("divide", "int8", "uint8"),
    ("divide", "int64", "int64"),
    ("divide", "bool", "bool"),
    ("true_divide", "int16", "float16"),
    ("float_power", "int8", "float32"),
    ("float_power", "complex64", "float32"),
    ("nextafter", "int8", "int8"),
    ("logaddexp", "int16", "int16"),
    ("divmod", "uint8", "int8"),
    ("divmod", "bool", "bool"),
    ("subtract", "bool", "bool"),
    ("subtract", "bool", "int8"),
    ("multiply", "bool", "complex64"),
    ("equal", "int64", "uint64"),
    ("less", "uint64", "float16"),
    ("greater", "bool", "complex128"),
    ("not_equal", "int8", "uint64"),
    ("arctan2", "complex64", "float32"),
    ("remainder", "complex64", "float32"),
    ("maximum", "bool", "bool"),
    ("add", "float16", "uint16"),
    ("multiply", "uint32", "int32"),
    ("subtract", "uint64", "int8"),
]


def test_mixed_binary_resolution():
    failures = []
    for name, d1, d2 in MIXED:
        a, b = _data(d1, seed=3), _data(d2, seed=4)
        if name in ("floor_divide", "remainder", "fmod", "divide", "true_divide", "divmod"):
            b = make_inputs("floor_divide", [d1, d2])[1][:6]
            b = np.where(b == 0, np.ones((), d2), b) if b.dtype.kind != "b" else np.ones(6, bool)
        if name in ("left_shift", "right_shift", "ldexp") and b.dtype.kind in "iu":
            b = (b % 5).astype(d2)
        m = compare_with_numpy(
            getattr(np, name),
            getattr(cp, name),
            (a, b),
            (cp.asarray(a), cp.asarray(b)),
            f"{name}({d1}, {d2})",
            factor=2.0,
        )
        if m:
            failures.append(m)
    report(failures, len(MIXED))


# ---- other ufuncs with Python and NumPy scalars ------------------------------------------------------------------

SCALAR_CASES = [
    ("power", "int8", 2),
    ("power", "float32", 2),
    ("power", "float32", 0.5),
    ("power", "int16", 2.0),
    ("divide", "int8", 2),
    ("divide", "float16", 2),
    ("floor_divide", "uint8", 3),
    ("remainder", "int8", 3.0),
    ("maximum", "float32", 1),
    ("maximum", "int8", 1.5),
    ("minimum", "uint8", np.int8(1)),
    ("left_shift", "uint8", 1),
    ("right_shift", "int16", 3),
    ("bitwise_and", "uint8", 0x0F),
    ("bitwise_or", "bool", True),
    ("bitwise_xor", "int8", -1),
    ("arctan2", "float16", 1.0),
    ("arctan2", "int8", 1),
    ("copysign", "float32", -1),
    ("ldexp", "float32", 2),
    ("hypot", "float32", 3),
    ("logaddexp", "float16", 0.5),
    ("heaviside", "float32", 0.5),
    ("nextafter", "float32", np.inf),
    ("fmax", "float64", np.float32(1)),
    ("logical_and", "int8", 0.0),
    ("equal", "int8", 1.5),
    ("less", "float16", 70000),
    ("greater", "uint8", -1),
    ("gcd", "int16", 6),
    ("lcm", "uint8", 4),
    ("fmod", "int32", -3),
    ("float_power", "float32", 2),
    ("true_divide", "bool", 2),
    ("subtract", "bool", 1),
    ("add", "float16", np.float16(1)),
    ("multiply", "int8", 300),
    ("maximum", "uint8", -1),
    ("copysign", "int8", -1.0),
    ("power", "uint8", 300),
]


def test_ufuncs_with_scalars():
    failures = []
    for name, dt, s in SCALAR_CASES:
        a = _data(dt, seed=5)
        if np.dtype(dt).kind in "iu":
            a = (a % 5 + 1).astype(dt)
        for args, cargs, order in (
            ((a, s), (cp.asarray(a), s), "array, scalar"),
            ((s, a), (s, cp.asarray(a)), "scalar, array"),
        ):
            m = compare_with_numpy(
                getattr(np, name), getattr(cp, name), args, cargs, f"{name}({order}) {dt} {s!r}", factor=2.0
            )
            if m:
                failures.append(m)
    report(failures, 2 * len(SCALAR_CASES))
