"""Ufunc calls on Python numbers, against the running NumPy: Python scalars alone stay weak under casting= and
dtype= (Note [Python scalars alone] in cuarray/_ufuncs.py); a unary ufunc reads its Python number as
NumPy's asarray does, uint64 for an int in [2**63, 2**64) (Note [Unary ufuncs of Python numbers] in
python/src/ufunc.cpp); two Python ints compare by value past int64 (Note [Out-of-range comparisons] in
cpp/cuarray/ops/ufunc_call.cpp); a Python float or complex converts to an integer or real loop as NumPy casts
it (Note [Python floats into other kinds] in python/src/convert.cpp); and subok= is checked.

Loop choices and errors are decided on the host, before any device call: those tests run everywhere. The
values need a device (`gpu`); without one, the calls NumPy computes are checked to reach the device with
NumPy's warnings and no error of their own (`nogpu`)."""

import itertools
import warnings

import cuarray as cp
import numpy as np
import pytest
from cuarray._ufuncs import _resolve

ComplexWarning = np.exceptions.ComplexWarning


def _outcome(f, xp):
    """(value or exception, sorted warning categories) of f(xp), under NumPy's default error state."""
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="warn"):
        warnings.simplefilter("always")
        try:
            result = f(xp)
        except Exception as e:  # noqa: BLE001 - an error is the outcome compared
            result = e
    return result, sorted({w.category.__name__ for w in caught})


def _same_error(f):
    """NumPy and cuarray raise for `f` with one message, cuarray's type being NumPy's or its public base."""
    (expected, _), (got, _) = _outcome(f, np), _outcome(f, cp)
    assert isinstance(expected, Exception), f"NumPy computes {expected!r}: a broken row"
    assert isinstance(got, Exception), f"cuarray computes {got!r} where NumPy raises {expected!r}"
    assert issubclass(type(expected), type(got)), (type(expected), type(got))
    assert str(got) == str(expected)


# ---- loop choice for Python numbers alone (host) ---------------------------------------------------------

_PAIRS = list(itertools.product([int, float, complex], repeat=2))
_VALUES = {int: 3, float: 2.5, complex: 1 + 1j}
_DTYPES = [None, "bool", "int8", "int64", "uint8", "float16", "float32", "float64", "complex128"]
_CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]
_BINARY = sorted(
    name
    for name in dir(cp)
    if isinstance(u := getattr(cp, name), cp.ufunc)
    and u.nin == 2
    and name == u.__name__
    and isinstance(getattr(np, name, None), np.ufunc)
)


def _numpy_result_types(u, types, dtype, casting):
    """The result dtype chars of NumPy's call on Python numbers of `types`, 'raises' for a TypeError, or None
    where only the values fail (an integer's negative power, an overflow)."""
    try:
        r = u(*(_VALUES[t] for t in types), dtype=dtype, casting=casting)
    except TypeError:
        return "raises"
    except (ValueError, OverflowError, ZeroDivisionError):
        return None
    return tuple(np.asarray(x).dtype.char for x in (r if isinstance(r, tuple) else (r,)))


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", _BINARY)
def test_python_numbers_alone_take_numpys_loop_and_casting_check(name):
    u = getattr(np, name)
    for types, dtype, casting in itertools.product(_PAIRS, _DTYPES, _CASTINGS):
        expected = _numpy_result_types(u, types, dtype, casting)
        if expected is None:
            continue
        try:
            loop = _resolve(name, types, None if dtype is None else np.dtype(dtype), casting)
            got = tuple(np.dtype(t).char for t in loop[u.nin :])
        except TypeError:
            got = "raises"
        assert got == expected, (name, types, dtype, casting)


# ---- errors raised on the host ---------------------------------------------------------------------------

HOST_ERRORS = [
    ("add_int_float_equiv", lambda xp: xp.add(1, 2.5, casting="equiv")),
    ("add_into_bool_safe", lambda xp: xp.add(1, 2, dtype=np.bool_, casting="safe")),
    ("multiply_float_into_int8_safe", lambda xp: xp.multiply(2, 3.5, dtype=np.int8, casting="safe")),
    ("add_complex_into_float_same_kind", lambda xp: xp.add(1j, 2, dtype=np.float64, casting="same_kind")),
    ("multiply_300_into_int8", lambda xp: xp.multiply(2, 300, dtype=np.int8, casting="safe")),
    ("multiply_300_into_int8_unsafe", lambda xp: xp.multiply(2, 300, dtype=np.int8, casting="unsafe")),
    ("less_into_int64", lambda xp: xp.less(1, 2, dtype=np.int64)),
    ("sqrt_int_no", lambda xp: xp.sqrt(4, casting="no")),
    ("sqrt_float_equiv_into_float32", lambda xp: xp.sqrt(5.0, casting="equiv", dtype=np.float32)),
    ("sqrt_2_63_no", lambda xp: xp.sqrt(2**63, casting="no")),
    ("negative_2_63_into_int64_no", lambda xp: xp.negative(2**63, casting="no", dtype=np.int64)),
    # Ints past uint64: NumPy's object loop raises for these, and cuarray raises its error.
    ("sqrt_2_64", lambda xp: xp.sqrt(2**64)),
    ("exp_2_64", lambda xp: xp.exp(2**64)),
    ("isnan_2_64", lambda xp: xp.isnan(2**64)),
    ("modf_2_64", lambda xp: xp.modf(2**64)),
    ("negative_2_64_into_float64", lambda xp: xp.negative(2**64, dtype=np.float64)),
]


@pytest.mark.parametrize("call", [c for _, c in HOST_ERRORS], ids=[i for i, _ in HOST_ERRORS])
def test_errors_are_numpys(call):
    _same_error(call)


@pytest.mark.parametrize("value", [None, 1, 0, np.True_, "yes"], ids=repr)
def test_subok_must_be_a_boolean(value):
    _same_error(lambda xp: xp.add(1, 2, subok=value))


def test_two_ints_past_int64_in_arithmetic_overflow():
    for xp in (np, cp):
        with pytest.raises(OverflowError):
            xp.add(2**63, 1)


@pytest.mark.parametrize(
    "call",
    [
        lambda xp: xp.negative(2**64),
        lambda xp: xp.absolute(-(2**63) - 1),
        lambda xp: xp.invert(2**64),
        lambda xp: xp.square(2**70),
        lambda xp: xp.logical_not(2**64),
    ],
)
def test_int_past_uint64_that_numpy_computes_as_an_object_raises_overflow(call):
    # NumPy computes these with its object loop, a Python object; cuarray has no object dtype.
    assert not isinstance(call(np), (np.generic, np.ndarray))
    with pytest.raises(OverflowError, match="object dtype"):
        call(cp)


# ---- calls NumPy computes --------------------------------------------------------------------------------

I8 = np.array([1, -2, 100, -128], np.int8)
U8 = np.array([0, 1, 250, 255], np.uint8)
I4 = np.array([7, -7, 0, 3])
F4 = np.array([1.0, -1.5, 4.0, 9.0])
H4 = np.array([0.1, 1.0, 3.0, 2049.0], np.float16)
B4 = np.array([True, False, True, False])

# Python numbers alone: each gives a 0-d result on the device.
SCALAR_CALLS = [
    ("add_int_float_no", lambda xp: xp.add(1, 2.5, casting="no")),
    ("add_float_int_into_float32_safe", lambda xp: xp.add(1.0, 2, dtype=np.float32, casting="safe")),
    ("multiply_into_int8_safe", lambda xp: xp.multiply(2, 3, dtype=np.int8, casting="safe")),
    ("add_into_float16_no", lambda xp: xp.add(1, 2, dtype=np.float16, casting="no")),
    ("less_int_float_no", lambda xp: xp.less(1, 2.5, casting="no")),
    ("equal_ints_equiv", lambda xp: xp.equal(1, 1, casting="equiv")),
    ("multiply_float_wraps_into_int8", lambda xp: xp.multiply(2, 300.5, dtype=np.int8, casting="unsafe")),
    ("add_complex_into_float64_unsafe", lambda xp: xp.add(1j, 2, dtype=np.float64, casting="unsafe")),
    ("equal_2_63", lambda xp: xp.equal(2**63, 2**63)),
    ("not_equal_2_63", lambda xp: xp.not_equal(2**63, 2**63)),
    ("equal_2_64", lambda xp: xp.equal(2**64, 2**64)),
    ("equal_2_64_into_bool", lambda xp: xp.equal(2**64, 2**64, dtype=np.bool_)),
    ("less_2_63_2_64", lambda xp: xp.less(2**63, 2**64)),
    ("greater_equal_2_64_2_63", lambda xp: xp.greater_equal(2**64, 2**63)),
    ("less_equal_2_70_2_70", lambda xp: xp.less_equal(2**70, 2**70)),
    ("greater_below_int64", lambda xp: xp.greater(-(2**63) - 1, -(2**64))),
    ("less_5_2_63", lambda xp: xp.less(5, 2**63)),
    ("less_2_63_float", lambda xp: xp.less(2**63, 1e300)),
    ("negative_2_63", lambda xp: xp.negative(2**63)),
    ("invert_2_64_minus_1", lambda xp: xp.invert(2**64 - 1)),
    ("absolute_2_63", lambda xp: xp.absolute(2**63)),
    ("sqrt_2_63", lambda xp: xp.sqrt(2**63)),
    ("negative_2_63_into_int64", lambda xp: xp.negative(2**63, dtype=np.int64)),
    ("negative_2_64_into_float64_unsafe", lambda xp: xp.negative(2**64, dtype=np.float64, casting="unsafe")),
    ("negative_300_wraps_into_int8", lambda xp: xp.negative(300, dtype=np.int8, casting="unsafe")),
    ("negative_1e300_into_int64", lambda xp: xp.negative(1e300, dtype=np.int64, casting="unsafe")),
    ("negative_complex_into_float64", lambda xp: xp.negative(1 + 2j, dtype=np.float64, casting="unsafe")),
    ("sqrt_int_into_float32", lambda xp: xp.sqrt(2**62 + 2**38 + 1, dtype=np.float32)),
    ("add_subok_false", lambda xp: xp.add(1, 2, subok=False)),
]

# A Python float or complex beside an array, cast into an integer or real loop (dtype= with casting='unsafe').
ARRAY_CALLS = [
    ("float_wraps_into_int8", lambda xp: xp.add(xp.asarray(I8), 300.0, dtype=np.int8, casting="unsafe")),
    ("float_128_into_int8", lambda xp: xp.add(xp.asarray(I8), 128.0, dtype=np.int8, casting="unsafe")),
    ("nan_into_int64", lambda xp: xp.add(xp.asarray(I4), np.nan, dtype=np.int64, casting="unsafe")),
    ("1e300_into_int64", lambda xp: xp.add(xp.asarray(I4), 1e300, dtype=np.int64, casting="unsafe")),
    ("negative_float_into_uint8", lambda xp: xp.add(xp.asarray(U8), -1.5, dtype=np.uint8, casting="unsafe")),
    ("float_1_5_into_int8", lambda xp: xp.add(xp.asarray(I8), 1.5, dtype=np.int8, casting="unsafe")),
    ("complex_into_float64", lambda xp: xp.add(xp.asarray(F4), 1 + 2j, dtype=np.float64, casting="unsafe")),
    (
        "complex_into_float32",
        lambda xp: xp.multiply(xp.asarray(F4.astype(np.float32)), 1j, dtype=np.float32, casting="unsafe"),
    ),
    ("complex_into_float16", lambda xp: xp.add(xp.asarray(H4), 1j, dtype=np.float16, casting="unsafe")),
    ("complex_into_int8", lambda xp: xp.add(xp.asarray(I8), 3 + 1j, dtype=np.int8, casting="unsafe")),
    ("float_into_bool", lambda xp: xp.add(xp.asarray(B4), 2.5, dtype=np.bool_, casting="unsafe")),
    ("nan_into_bool", lambda xp: xp.add(xp.asarray(B4), np.nan, dtype=np.bool_, casting="unsafe")),
    ("int_still_overflows", lambda xp: xp.add(xp.asarray(I8), 300, dtype=np.int8, casting="unsafe")),
    # signature= naming the output alone casts the Python number as dtype= does; fixed inputs set it
    (
        "signature_output_float_wraps",
        lambda xp: xp.add(xp.asarray(I8), 300.0, signature=(None, None, "b"), casting="unsafe"),
    ),
    (
        "signature_output_complex",
        lambda xp: xp.add(xp.asarray(F4), 1 + 2j, signature=(None, None, "d"), casting="unsafe"),
    ),
    ("signature_fixed_float", lambda xp: xp.add(xp.asarray(I8), 300.0, signature="bb->b", casting="unsafe")),
    ("signature_fixed_1_5", lambda xp: xp.add(xp.asarray(I8), 1.5, signature="bb->b", casting="unsafe")),
]


def _check_same_outcome(call):
    (expected, expected_warnings), (got, got_warnings) = _outcome(call, np), _outcome(call, cp)
    if isinstance(expected, Exception):
        assert isinstance(got, next(c for c in type(expected).__mro__ if c.__module__ == "builtins")), got
        return
    assert not isinstance(got, Exception), got
    host = cp.asnumpy(got)
    assert host.dtype == np.asarray(expected).dtype
    np.testing.assert_array_equal(host, expected, strict=False)
    assert got_warnings == expected_warnings


@pytest.mark.gpu
@pytest.mark.parametrize(
    "call", [c for _, c in SCALAR_CALLS + ARRAY_CALLS], ids=[i for i, _ in SCALAR_CALLS + ARRAY_CALLS]
)
def test_values_and_warnings_are_numpys(call):
    _check_same_outcome(call)


@pytest.mark.nogpu
@pytest.mark.parametrize("call", [c for _, c in SCALAR_CALLS], ids=[i for i, _ in SCALAR_CALLS])
def test_calls_numpy_computes_reach_the_device_with_numpys_warnings(call):
    expected, expected_warnings = _outcome(call, np)
    assert not isinstance(expected, Exception), expected
    got, got_warnings = _outcome(call, cp)
    assert isinstance(got, cp.cuda.CUDARuntimeError), got  # no error of cuarray's own before the device
    assert got_warnings == expected_warnings
