"""Arithmetic ufuncs: every NumPy type loop on one contiguous layout, integer wraparound and division by zero,
float special values (nan, +-inf, -0.0), power with integral exponents, gcd/lcm."""

import os
import sys

import cuarray as cp
import numpy as np
import pytest
from conftest import INT_DTYPES, SIGNED_DTYPES, UNSIGNED_DTYPES, dtype_id
from cuarray import testing

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mathhelpers import (
    ARITHMETIC_UFUNCS,
    assert_close,
    assert_results,
    np_call,
    run_loops,
    special_values,
)

pytestmark = pytest.mark.gpu

REAL_FLOATS = [np.dtype(n) for n in ("float16", "float32", "float64")]


@pytest.mark.parametrize("name", ARITHMETIC_UFUNCS)
def test_every_numpy_loop(name):
    """cp.<name> on inputs of each of NumPy's type loops gives NumPy's dtype and values."""
    run_loops(name)


def _pair(a, b, dtype):
    return np.array(a, dtype=dtype), np.array(b, dtype=dtype)


def _check(name, *arrays, **kw):
    expected = np_call(getattr(np, name), *arrays)
    got = getattr(cp, name)(*[cp.asarray(a) for a in arrays])
    assert_results(got, expected, **kw)


# ---- integers ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=dtype_id)
def test_integer_overflow_wraps(dtype):
    info = np.iinfo(dtype)
    a = np.array([info.max, info.min, info.max, info.min, 1, info.max // 2 + 1], dtype=dtype)
    b = np.array([1, 1, info.max, info.max, info.max, 2], dtype=dtype)
    for name in ("add", "subtract", "multiply"):
        _check(name, a, b)
        _check(name, b, a)
    for name in ("negative", "absolute", "square", "positive", "sign"):
        _check(name, a)


@pytest.mark.parametrize("dtype", SIGNED_DTYPES, ids=dtype_id)
def test_signed_min_edge_cases(dtype):
    """MIN // -1 is MIN and MIN % -1 is 0 in NumPy; -MIN and abs(MIN) wrap to MIN."""
    info = np.iinfo(dtype)
    a = np.array([info.min, info.min, info.max, -7, 7, -7, info.min], dtype=dtype)
    b = np.array([-1, 1, -1, 2, -2, -2, info.min], dtype=dtype)
    for name in ("floor_divide", "remainder", "fmod", "divmod"):
        _check(name, a, b)
    _check("negative", a)
    _check("absolute", a)


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=dtype_id)
def test_integer_division_by_zero_gives_zero(dtype):
    info = np.iinfo(dtype)
    a = np.array([0, 1, 7, info.max, info.min, 3], dtype=dtype)
    b = np.zeros(6, dtype=dtype)
    b[5] = 2  # one ordinary element
    for name in ("floor_divide", "remainder", "fmod", "divmod"):
        _check(name, a, b)
    assert (cp.asnumpy(cp.floor_divide(cp.asarray(a), cp.asarray(b)))[:5] == 0).all()


def test_integer_division_sign_conventions():
    a = np.array([-7, 7, -7, 7, -8, 8, 0, -1], dtype=np.int32)
    b = np.array([2, -2, -2, 2, 3, -3, -5, 5], dtype=np.int32)
    for name in ("floor_divide", "remainder", "fmod", "divmod"):
        _check(name, a, b)
    # Python semantics: floor division, remainder has the divisor's sign; fmod has the dividend's.
    assert cp.asnumpy(cp.floor_divide(cp.asarray(a), cp.asarray(b))).tolist() == [-4, -4, 3, 3, -3, -3, 0, -1]
    assert cp.asnumpy(cp.remainder(cp.asarray(a), cp.asarray(b))).tolist() == [1, -1, -1, 1, 1, -1, 0, 4]
    assert cp.asnumpy(cp.fmod(cp.asarray(a), cp.asarray(b))).tolist() == [-1, 1, -1, 1, -2, 2, 0, -1]


def test_large_64bit_integers_are_exact():
    """64-bit integer arithmetic must not go through float64 (which has 53 bits)."""
    big = 2**62 + 12345
    a = np.array([big, 2**53 + 1, -(2**62) - 7, 2**63 - 1, -(2**63)], dtype=np.int64)
    b = np.array([3, 2**53, 2**31 + 11, 2, 3], dtype=np.int64)
    for name in ("add", "subtract", "multiply", "floor_divide", "remainder", "fmod", "maximum", "minimum"):
        _check(name, a, b)
    ua = np.array([2**64 - 1, 2**63 + 5, 2**53 + 1, 12345678901234567891], dtype=np.uint64)
    ub = np.array([3, 2**63 - 1, 2**53, 10**10 + 7], dtype=np.uint64)
    for name in ("add", "subtract", "multiply", "floor_divide", "remainder", "fmod", "maximum", "minimum"):
        _check(name, ua, ub)


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=dtype_id)
def test_integer_power(dtype):
    signed = np.dtype(dtype).kind == "i"
    base = [2, 3, 0, 0, 1, 5, 2, 3, 7]
    exp = [7, 5, 0, 3, 99, 0, 8 * np.dtype(dtype).itemsize, 40, 13]
    if signed:
        base += [-1, -1, -3, -2]
        exp += [101, 100, 3, 7]
    a, b = np.array(base, dtype=dtype), np.array(exp, dtype=dtype)
    _check("power", a, b)
    expected = np_call(np.power, a, b)
    assert expected[2] == 1  # 0 ** 0
    x = cp.asarray(a)
    for e in (0, 1, 2, 3, 7):
        assert_close(x**e, np_call(np.power, a, e))
        assert_close(cp.power(x, e), np_call(np.power, a, e))


def test_reciprocal_of_integers_is_integer_division():
    a = np.array([1, 2, -1, -3, 5, 100], dtype=np.int16)
    _check("reciprocal", a)
    assert cp.asnumpy(cp.reciprocal(cp.asarray(a))).tolist() == [1, 0, -1, 0, 0, 0]


@pytest.mark.parametrize("dtype", SIGNED_DTYPES + UNSIGNED_DTYPES, ids=dtype_id)
def test_gcd_lcm(dtype):
    signed = np.dtype(dtype).kind == "i"
    a = [0, 4, 12, 9, 1, 0, 35, 100]
    b = [0, 6, 18, 6, 1, 7, 21, 10]
    if signed:
        a += [-4, 12, -12, -9]
        b += [6, -18, -18, 0]
    a, b = np.array(a, dtype=dtype), np.array(b, dtype=dtype)
    _check("gcd", a, b)
    _check("lcm", a[a.astype(np.int64) < 100], b[a.astype(np.int64) < 100])


def test_gcd_lcm_large_int64():
    a = np.array([2**40 * 3, 2**61, 10**18, 600851475143], dtype=np.int64)
    b = np.array([2**35 * 9, 2**59 * 3, 10**12 * 7, 6857 * 71], dtype=np.int64)
    _check("gcd", a, b)
    _check("lcm", a[:1] // 2**20, b[:1] // 2**20)


# ---- floats: special values --------------------------------------------------------------------------------


def _grid(dtype):
    s = special_values(dtype)
    a, b = np.meshgrid(s, s, indexing="ij")
    return a.ravel(), b.ravel()


@pytest.mark.parametrize("dtype", REAL_FLOATS, ids=dtype_id)
@pytest.mark.parametrize(
    "name", ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod", "divmod", "power"]
)
def test_binary_special_values(name, dtype):
    """All pairs of nan, +-inf, +-0, +-1, +-0.5, 2, +-100, +-huge: NaN positions, infinities and signs of
    zero exactly like NumPy (C99 / Python semantics), finite values closely."""
    a, b = _grid(dtype)
    exact = name in ("add", "subtract", "multiply", "fmod")
    kw = {"exact": True} if exact else {"factor": 2.0}
    _check(name, a, b, zero_signs=True, **kw)


@pytest.mark.parametrize("dtype", REAL_FLOATS, ids=dtype_id)
def test_float_division_by_zero(dtype):
    a = np.array([1.0, -1.0, 0.0, -0.0, np.inf, np.nan, 2.5, -2.5], dtype=dtype)
    for zero in (0.0, -0.0):
        b = np.full(a.shape, zero, dtype=dtype)
        for name in ("divide", "floor_divide", "remainder", "fmod", "divmod"):
            _check(name, a, b, zero_signs=True)
    got = cp.asnumpy(cp.divide(cp.asarray(a[:3]), cp.asarray(np.zeros(3, dtype))))
    assert got[0] == np.inf and got[1] == -np.inf and np.isnan(got[2])


@pytest.mark.parametrize("dtype", REAL_FLOATS, ids=dtype_id)
@pytest.mark.parametrize("name", ["negative", "positive", "absolute", "fabs", "sign", "square", "reciprocal"])
def test_unary_special_values(name, dtype):
    a = special_values(dtype)
    _check(name, a, zero_signs=True, exact=name != "reciprocal")


def test_negative_of_zero_flips_sign():
    for dt in REAL_FLOATS:
        x = cp.asarray(np.array([0.0, -0.0], dtype=dt))
        got = cp.asnumpy(cp.negative(x))
        assert np.signbit(got).tolist() == [True, False]
        got = cp.asnumpy(cp.absolute(x))
        assert np.signbit(got).tolist() == [False, False]


@pytest.mark.parametrize("dtype", REAL_FLOATS + [np.dtype("complex64"), np.dtype("complex128")], ids=dtype_id)
def test_negative_flips_the_sign_of_nan(dtype):
    """NumPy negates by flipping the sign bit: -nan is a NaN with its sign set, and back."""
    nan = np.array([np.nan, -np.nan])
    a = nan.astype(dtype)
    if dtype.kind == "c":
        a.imag = nan[::-1]
    for x in (a, np.negative(a)):
        got, expected = cp.asnumpy(cp.negative(cp.asarray(x))), np.negative(x)
        for part in ((lambda v: v),) if a.dtype.kind != "c" else (np.real, np.imag):
            assert np.signbit(part(got)).tolist() == np.signbit(part(expected)).tolist()


def test_sign_of_special_values():
    a = np.array([-0.0, 0.0, np.nan, -np.inf, np.inf, -3.5], dtype=np.float64)
    _check("sign", a, zero_signs=True, exact=True)  # NumPy: sign(-0.0) is +0.0
    c = np.array([0j, complex(np.nan, 0), 3 + 4j, -2j, complex(0, -0.0)], dtype=np.complex128)
    _check("sign", c)


def test_absolute_of_complex_special_values():
    c = np.array(
        [complex(np.inf, np.nan), complex(np.nan, -np.inf), complex(np.nan, 1), complex(-0.0, 0.0), 3 - 4j],
        dtype=np.complex128,
    )
    for dt in (np.complex64, np.complex128):
        _check("absolute", c.astype(dt))


@pytest.mark.parametrize("dtype", REAL_FLOATS, ids=dtype_id)
def test_float_remainder_follows_python(dtype):
    a = np.array([7.5, -7.5, 7.5, -7.5, 1.0, -1.0, -0.0, 0.0, 5.0], dtype=dtype)
    b = np.array([2.0, 2.0, -2.0, -2.0, np.inf, np.inf, 3.0, -3.0, 2.5], dtype=dtype)
    for name in ("remainder", "floor_divide", "fmod", "divmod"):
        _check(name, a, b, zero_signs=True)
    r = cp.asnumpy(cp.remainder(cp.asarray(a), cp.asarray(b)))
    assert r[:4].tolist() == [1.5, 0.5, -0.5, -1.5]


@pytest.mark.parametrize("dtype", REAL_FLOATS, ids=dtype_id)
def test_float_power_with_integral_exponents(dtype):
    a = np.array([2.0, -2.0, -2.0, 0.0, -0.0, -0.0, 0.0, -1.0, -1.0, np.nan, 1.0, -np.inf, 3.0], dtype=dtype)
    b = np.array([3.0, 3.0, -3.0, -1.0, -1.0, 3.0, 0.0, np.inf, 101.0, 0.0, np.nan, 3.0, 0.5], dtype=dtype)
    _check("power", a, b, zero_signs=True, factor=2.0)
    x = cp.asarray(a)
    for e in (2, 3, -1, -2, 0, 2.0):
        with np.errstate(all="ignore"):
            expected = a**e
        assert_close(x**e, expected, zero_signs=True, factor=2.0)
        assert_close(cp.power(x, e), np_call(np.power, a, e), zero_signs=True, factor=2.0)
    pos = np.array([0.25, 2.0, 9.0, 100.0], dtype=dtype)
    assert_close(cp.asarray(pos) ** 0.5, pos**0.5, factor=2.0)
    # (-8) ** (1/3) is nan for floats
    got = cp.asnumpy(cp.power(cp.asarray(np.array([-8.0], dtype)), cp.asarray(np.array([1 / 3], dtype))))
    assert np.isnan(got[0])


def test_float_power_dtypes():
    for dt in ("int8", "uint16", "int64", "float16", "float32", "float64", "bool"):
        a = np.array([1, 2, 3, 0], dtype=dt)
        _check("float_power", a, a, factor=2.0)
    for dt in ("complex64", "complex128"):
        a = np.array([1 + 1j, 2 - 0.5j, 0.5j], dtype=dt)
        _check("float_power", a, a, factor=10.0)
    got = cp.float_power(cp.asarray(np.array([-8.0, 4.0])), cp.asarray(np.array([1 / 3, -0.5])))
    assert_close(got, np_call(np.float_power, np.array([-8.0, 4.0]), np.array([1 / 3, -0.5])))


def test_true_divide_of_integers_is_float64():
    a = np.array([7, -7, 1, 0], dtype=np.int8)
    b = np.array([2, 2, 3, 5], dtype=np.int8)
    for name in ("divide", "true_divide"):
        _check(name, a, b)
        _check(name, a.astype(np.uint16), b.astype(np.uint16))
        _check(name, a != 0, b != 0)
    assert cp.divide(cp.asarray(a), cp.asarray(b)).dtype == np.float64


def test_divmod_is_floor_divide_and_remainder():
    a = np.array([7.5, -7.5, 7, -7, 0.25, 100.0], dtype=np.float32)
    b = np.array([2.0, 2.0, -3, -3, 1.25, 7.0], dtype=np.float32)
    q, r = cp.divmod(cp.asarray(a), cp.asarray(b))
    assert_close(q, np.floor_divide(a, b), exact=True)
    assert_close(r, np.remainder(a, b), exact=True)
    ia, ib = a.astype(np.int16), b.astype(np.int16)
    q, r = cp.divmod(cp.asarray(ia), cp.asarray(ib))
    assert_close(q, ia // ib)
    assert_close(r, ia % ib)


def test_arithmetic_on_bool():
    a = np.array([True, True, False, False])
    b = np.array([True, False, True, False])
    for name in (
        "add",
        "multiply",
        "maximum",
        "minimum",
        "absolute",
        "divide",
        "floor_divide",
        "remainder",
        "power",
        "square",
        "fmod",
    ):
        ref = getattr(np, name)
        args = (a, b)[: ref.nin]
        if name in ("floor_divide", "remainder", "fmod", "divide"):
            args = (a, np.ones_like(b))[: ref.nin]
        _check(name, *args)
    for name in ("subtract", "negative", "positive"):
        with pytest.raises(TypeError):
            getattr(cp, name)(*[cp.asarray(x) for x in (a, b)[: getattr(np, name).nin]])


# ---- power with one exponent for every element (NumPy's fast paths) --------------------------------------------

POWER_EXPONENTS = [
    0.5,
    2.0,
    -1.0,
    1.0,
    0.0,
    -0.0,
    -0.5,
    1 / 3,
    3.0,
    -2.0,
    1.5,
    101.0,
    np.inf,
    -np.inf,
    np.nan,
]


def _complex_specials(dtype):
    v = [0.0, -0.0, 1.5, -1.5, np.inf, -np.inf, np.nan]
    return np.array([complex(a, b) for a in v for b in v], dtype)


@pytest.mark.parametrize("dtype", REAL_FLOATS, ids=dtype_id)
def test_power_with_a_uniform_exponent(dtype):
    """NumPy's float32/float64 power computes 1/x, 1, sqrt(x), x, x*x for a scalar exponent -1, 0, 0.5, 1, 2
    (sqrt(-inf) is nan where pow(-inf, 0.5) is inf, sqrt(-0) is -0), as for a 0-d, size-1 or broadcast
    exponent array, and pow for an exponent array of the operand's shape: each form against NumPy's own,
    at nan, +-inf, +-0, +-1, +-0.5, 2, +-100 and +-huge."""
    a = special_values(dtype)
    x = cp.asarray(a)
    for e in POWER_EXPONENTS:
        forms = [
            (e, e),
            (np.dtype(dtype).type(e), np.dtype(dtype).type(e)),
            (np.float64(e), np.float64(e)),
            (cp.asarray(np.array(e, dtype)), np.array(e, dtype)),
            (cp.asarray(np.array([e], dtype)), np.array([e], dtype)),
            (
                cp.broadcast_to(cp.asarray(np.array(e, dtype)), a.shape),
                np.broadcast_to(np.array(e, dtype), a.shape),
            ),
            (cp.asarray(np.full(a.shape, e, dtype)), np.full(a.shape, e, dtype)),
        ]
        for got_e, np_e in forms:
            expected = np_call(np.power, a, np_e)
            assert_close(cp.power(x, got_e), expected, zero_signs=True, factor=2.0)
        # a column of exponents against a matrix, and both operands of one element (NumPy: pow for these)
        col = np.full((a.size, 1), e, dtype)
        assert_close(
            cp.power(x.reshape(-1, 1) * cp.ones((1, 3), dtype), cp.asarray(col)),
            np_call(np.power, a.reshape(-1, 1) * np.ones((1, 3), dtype), col),
            zero_signs=True,
            factor=2.0,
        )
        for k in range(a.size):
            one, e1 = a[k : k + 1], np.array([e], dtype)
            for xs, es in (((1,), (1,)), ((), (1,)), ((1,), (1, 1)), ((1, 1), (1,)), ((), ())):
                xv, ev = one.reshape(xs), e1.reshape(es)
                assert_close(
                    cp.power(cp.asarray(xv), cp.asarray(ev)),
                    np_call(np.power, xv, ev),
                    zero_signs=True,
                    factor=2.0,
                )


@pytest.mark.parametrize("dtype", REAL_FLOATS + [np.dtype("complex64"), np.dtype("complex128")], ids=dtype_id)
def test_power_operator_fast_paths(dtype):
    """ndarray ** for a Python int -1 or 2 or a Python float 0.5 is NumPy's reciprocal, square or sqrt (which
    differ from power at -inf and -0, and for complex, from cpow), also in place; other exponents are power."""
    a = special_values(dtype) if dtype.kind == "f" else _complex_specials(dtype)
    x = cp.asarray(a)
    for e in (0.5, 2, -1, 2.0, -1.0, 1, 0, 3, 0.25, np.float64(0.5), np.int64(2)):
        with np.errstate(all="ignore"):
            expected = a**e
            assert_close(x**e, expected, zero_signs=True, factor=4.0)
            y, b = x.copy(), a.copy()
            y **= e
            b **= e
            assert_close(y, b, zero_signs=True, factor=4.0)
    i = np.array([4, 9, 2], np.int64)  # an integer array to 0.5: the float64 loop with a uniform exponent
    assert_close(cp.asarray(i) ** 0.5, i**0.5)
    assert_close(cp.asarray(i) ** 2, i**2)


@pytest.mark.parametrize("exponent", [2, 3, 1, 0, 2.0, 0.5, np.int64(2), True], ids=repr)
@testing.numpy_cuarray_array_equal()
def test_power_operator_of_bool_arrays(xp, exponent):
    """bool ** 2 is square's int8 (NumPy's fast path); other exponents are power's promotion."""
    return xp.asarray([True, False, True]) ** exponent


@testing.numpy_cuarray_raises()
def test_power_operator_of_bool_arrays_in_place(xp):
    x = xp.asarray([True, False])
    x **= 2  # square's int8 cannot be cast back to bool


def test_power_of_minus_inf_to_one_half():
    """The reported case: power(-inf, 0.5) is nan, as np.sqrt(-inf), for a scalar exponent."""
    for dt in ("float32", "float64"):
        got = cp.power(cp.asarray(np.array([-np.inf, -0.0, 4.0], dt)), 0.5).get()
        assert np.isnan(got[0]) and got[1] == 0 and np.signbit(got[1]) and got[2] == 2
        got = (cp.asarray(np.array([-np.inf], dt)) ** 0.5).get()
        assert np.isnan(got[0])
