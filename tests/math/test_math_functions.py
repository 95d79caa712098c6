"""Math ufuncs and functions: exp/log/trig/hyperbolic, rounding, copysign/nextafter/heaviside, modf/frexp/ldexp,
around, fix, clip, real/imag/conj/angle, nan_to_num. Every NumPy type loop on one layout; special values
(nan, +-inf, -0.0) with exact NaN positions, infinities and signs of zero."""

import os
import sys

import cuarray as cp
import numpy as np
import pytest
from conftest import dtype_id

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mathhelpers import (
    EXACT_REAL,
    MATH_UFUNCS,
    assert_close,
    assert_results,
    np_call,
    run_loops,
    special_values,
)

pytestmark = pytest.mark.gpu

REAL_FLOATS = [np.dtype(n) for n in ("float16", "float32", "float64")]
COMPLEX = [np.dtype(n) for n in ("complex64", "complex128")]


@pytest.mark.parametrize("name", MATH_UFUNCS)
def test_every_numpy_loop(name):
    """cp.<name> on inputs of each of NumPy's type loops gives NumPy's dtype and values."""
    run_loops(name)


def _check(fn_name, *arrays, **kw):
    expected = np_call(getattr(np, fn_name), *arrays)
    got = getattr(cp, fn_name)(*[cp.asarray(a) for a in arrays])
    assert_results(got, expected, **kw)


UNARY_FLOAT = [
    "sqrt",
    "cbrt",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "sin",
    "cos",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "arcsinh",
    "arccosh",
    "arctanh",
    "degrees",
    "radians",
    "deg2rad",
    "rad2deg",
    "floor",
    "ceil",
    "trunc",
    "rint",
]
TRIG = {"sin", "cos", "tan"}


@pytest.mark.parametrize("dtype", REAL_FLOATS, ids=dtype_id)
@pytest.mark.parametrize("name", UNARY_FLOAT)
def test_unary_special_values(name, dtype):
    """nan, +-inf, +-0, +-1, +-0.5, 2, +-100 and (not for sin/cos/tan) a huge value: NaN positions, infinities
    and signs of zero exactly like NumPy, other values within a few ulp."""
    a = special_values(dtype)
    if name in TRIG:
        a = a[:-2]
    kw = {"exact": True} if name in EXACT_REAL else {"factor": 2.0}
    _check(name, a, zero_signs=True, **kw)


@pytest.mark.parametrize("dtype", REAL_FLOATS, ids=dtype_id)
@pytest.mark.parametrize(
    "name", ["arctan2", "hypot", "logaddexp", "logaddexp2", "copysign", "nextafter", "heaviside"]
)
def test_binary_special_values(name, dtype):
    s = special_values(dtype)
    a, b = (g.ravel() for g in np.meshgrid(s, s, indexing="ij"))
    kw = {"exact": True} if name in EXACT_REAL else {"factor": 2.0}
    _check(name, a, b, zero_signs=True, **kw)


def test_domain_errors_give_nan_and_poles_give_inf():
    a = np.array([-1.0, -0.0, 0.0, 2.0, -2.0, 1.0, -1.0, 0.5], dtype=np.float64)
    for dt in (np.float32, np.float64):
        x = a.astype(dt)
        for name in ("sqrt", "log", "log2", "log10", "log1p", "arcsin", "arccos", "arccosh", "arctanh"):
            _check(name, x, zero_signs=True, factor=2.0)
    got = cp.asnumpy(cp.log(cp.asarray(np.array([0.0, -0.0, -1.0]))))
    assert got[0] == -np.inf and got[1] == -np.inf and np.isnan(got[2])
    got = cp.asnumpy(cp.arctanh(cp.asarray(np.array([1.0, -1.0], np.float32))))
    assert got.tolist() == [np.inf, -np.inf]


def test_signed_zero_results():
    z = np.array([-0.0, 0.0], dtype=np.float64)
    for name in (
        "sqrt",
        "cbrt",
        "sin",
        "tan",
        "arcsin",
        "arctan",
        "sinh",
        "tanh",
        "arcsinh",
        "arctanh",
        "expm1",
        "log1p",
        "floor",
        "ceil",
        "trunc",
        "rint",
        "degrees",
        "radians",
    ):
        got = cp.asnumpy(getattr(cp, name)(cp.asarray(z)))
        assert np.signbit(got).tolist() == [True, False], name


# ---- complex -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", COMPLEX, ids=dtype_id)
def test_complex_branch_cuts_follow_signed_zero(dtype):
    a = np.array([complex(-4, 0.0), complex(-4, -0.0), complex(-1, 0.0), complex(-1, -0.0)], dtype=dtype)
    _check("sqrt", a, factor=4.0)
    _check("log", a, factor=4.0)
    got = cp.asnumpy(cp.sqrt(cp.asarray(a[:2])))
    assert got.imag.tolist() == [2.0, -2.0]


@pytest.mark.parametrize("dtype", COMPLEX, ids=dtype_id)
def test_complex_elementary_functions(dtype):
    a = np.array([1 + 1j, -2 + 0.5j, 0.25 - 3j, -0.5 - 0.5j, 3j, -2.0, 0.75], dtype=dtype)
    for name in (
        "exp",
        "log",
        "sqrt",
        "sin",
        "cos",
        "tan",
        "sinh",
        "cosh",
        "tanh",
        "arcsin",
        "arccos",
        "arctan",
        "arcsinh",
        "arccosh",
        "arctanh",
        "log10",
        "log2",
        "exp2",
        "expm1",
        "log1p",
        "square",
        "reciprocal",
        "conjugate",
        "rint",
    ):
        _check(name, a, factor=10.0)


def _complex_grid(dtype):
    """Every complex number with parts from +-0, +-finite (small and overflowing in exp), +-inf and nan."""
    v = [0.0, -0.0, 1.5, -1.5, 800.0, -800.0, np.inf, -np.inf, np.nan]
    return np.array([complex(a, b) for a in v for b in v], dtype=dtype)


@pytest.mark.parametrize("dtype", COMPLEX, ids=dtype_id)
def test_complex_expm1_special_values(dtype):
    """NumPy's complex expm1 is (expm1(x) cos(y) - 2 sin(y/2)**2) + i exp(x) sin(y) (npymath), not the array
    API's table: expm1(inf + 0j) is inf + nanj there. NaN positions, infinities and zero signs as NumPy's."""
    _check("expm1", _complex_grid(dtype), zero_signs=True, factor=10.0)


# ---- rounding ------------------------------------------------------------------------------------------------

HALVES = [
    0.5,
    1.5,
    2.5,
    -0.5,
    -1.5,
    -2.5,
    0.49,
    -0.51,
    3.7,
    -3.7,
    0.0,
    -0.0,
    np.inf,
    -np.inf,
    np.nan,
    1e15 + 0.5,
]


@pytest.mark.parametrize("dtype", REAL_FLOATS, ids=dtype_id)
def test_rounding_functions_on_halves(dtype):
    a = np.array(HALVES, dtype=np.float64).astype(dtype)
    for name in ("rint", "floor", "ceil", "trunc"):
        _check(name, a, exact=True, zero_signs=True)
    assert_close(cp.fix(cp.asarray(a)), np.fix(a), exact=True, zero_signs=True)
    assert_close(cp.around(cp.asarray(a)), np.around(a), exact=True, zero_signs=True)
    assert_close(cp.round(cp.asarray(a)), np.round(a), exact=True, zero_signs=True)
    # round half to even
    got = cp.asnumpy(cp.rint(cp.asarray(a[:6])))
    assert got.tolist() == [0.0, 2.0, 2.0, -0.0, -2.0, -2.0]


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64", "bool"])
def test_rounding_functions_on_integers_keep_dtype(dtype):
    a = np.array([1, 0, 5, 100, 7], dtype=dtype)
    if dtype != "bool":
        a = np.array([1, -2, 5, 100, -7], dtype=dtype) if dtype[0] == "i" else a
    for name in ("floor", "ceil", "trunc"):
        _check(name, a)
    assert_close(cp.fix(cp.asarray(a)), np.fix(a))


@pytest.mark.parametrize("decimals", [0, 1, 2, 3, -1, -2])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_around_decimals_floats(dtype, decimals):
    a = np.array(
        [
            1.25,
            2.675,
            -0.125,
            1234.5678,
            1250.0,
            1350.0,
            -1250.0,
            15.0,
            0.0,
            -0.001,
            np.nan,
            np.inf,
            0.5,
            5.5,
            45.0,
            55.0,
            -45.0,
        ],
        dtype=dtype,
    )
    for fn_name in ("around", "round"):
        assert_close(getattr(cp, fn_name)(cp.asarray(a), decimals), np.round(a, decimals))
        assert_close(getattr(cp, fn_name)(cp.asarray(a), decimals=decimals), np.round(a, decimals=decimals))


@pytest.mark.parametrize("decimals", [-1, -2, 0, 2])
@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint16"])
def test_around_decimals_integers(dtype, decimals):
    vals = [15, 25, 35, 14, 16, 0, 95, 50, 100, 120]
    if np.dtype(dtype).kind == "i":
        vals += [-15, -25, -14, -16, -50]
    a = np.array(vals, dtype=dtype)
    assert_close(cp.around(cp.asarray(a), decimals), np.around(a, decimals))
    if decimals == -1:
        assert cp.asnumpy(cp.around(cp.asarray(a), -1))[:3].tolist() == [20, 20, 40]


def test_around_complex_and_float16():
    c = np.array([1.25 + 2.35j, -0.5 - 1.5j, 2.5 + 0.5j], dtype=np.complex128)
    assert_close(cp.around(cp.asarray(c), 1), np.around(c, 1))
    assert_close(cp.around(cp.asarray(c)), np.around(c))
    h = np.array([0.5, 1.5, 2.5, -2.5, 3.25], dtype=np.float16)
    assert_close(cp.around(cp.asarray(h)), np.around(h))


# ---- copysign, nextafter, heaviside, modf, frexp, ldexp ------------------------------------------------------


@pytest.mark.parametrize("dtype", REAL_FLOATS, ids=dtype_id)
def test_copysign_and_signbit(dtype):
    a = np.array([1.0, -1.0, 0.0, -0.0, np.inf, np.nan, 2.5, 3.0], dtype=dtype)
    b = np.array([-0.0, 0.0, -1.0, -0.0, -2.0, -1.0, np.inf, -np.nan], dtype=dtype)
    _check("copysign", a, b, exact=True, zero_signs=True)
    got = cp.asnumpy(cp.copysign(cp.asarray(a), cp.asarray(b)))
    assert np.signbit(got).tolist() == np.signbit(b).tolist()


def test_nextafter_steps_one_ulp():
    for dt in REAL_FLOATS:
        a = np.array([0.0, 0.0, 1.0, 1.0, -1.0, np.inf, 0.0], dtype=dt)
        b = np.array([1.0, -1.0, 2.0, 0.0, -np.inf, 0.0, -0.0], dtype=dt)
        _check("nextafter", a, b, exact=True, zero_signs=True)
        got = cp.asnumpy(cp.nextafter(cp.asarray(a), cp.asarray(b)))
        assert got[0] == np.finfo(dt).smallest_subnormal
        assert got[2] == 1 + np.finfo(dt).eps


def test_heaviside():
    for dt in REAL_FLOATS:
        x = np.array([-1.5, -0.0, 0.0, 2.0, np.nan, -np.inf, np.inf, 0.0], dtype=dt)
        h = np.array([0.5, 0.5, 0.25, 0.5, 0.5, 0.5, 0.5, np.nan], dtype=dt)
        _check("heaviside", x, h, exact=True)


@pytest.mark.parametrize("dtype", REAL_FLOATS, ids=dtype_id)
def test_modf_and_frexp(dtype):
    a = np.array([np.inf, -np.inf, np.nan, -0.5, -2.0, 2.5, 0.0, -0.0, 1e4, -7.125, 1.0], dtype=dtype)
    _check("modf", a, exact=True, zero_signs=True)
    _check("frexp", a, exact=True, zero_signs=True)
    m, e = cp.frexp(cp.asarray(a))
    assert m.dtype == a.dtype and e.dtype == np.int32
    frac, whole = cp.modf(cp.asarray(a))
    assert frac.dtype == whole.dtype == a.dtype


@pytest.mark.parametrize("dtype", REAL_FLOATS, ids=dtype_id)
def test_ldexp(dtype):
    a = np.array([1.0, 1.5, -0.0, np.inf, np.nan, 3.0, -2.0, 1.0, 1.0], dtype=dtype)
    bits = {
        np.dtype("float16"): (20, -20),
        np.dtype("float32"): (200, -140),
        np.dtype("float64"): (2000, -1070),
    }
    big, small = bits[np.dtype(dtype)]
    for et in (np.int32, np.int64):
        e = np.array([3, -1, 5, 1, 2, 0, big, small, -2 * abs(small)], dtype=et)
        _check("ldexp", a, e, exact=True, zero_signs=True)
    x = cp.asarray(a)
    assert_close(cp.ldexp(x, 2), np.ldexp(a, 2), exact=True)
    # frexp then ldexp round-trips
    m, e = cp.frexp(x)
    assert_close(cp.ldexp(m, e), a, exact=True, zero_signs=True)


def test_degrees_radians():
    a = np.array([0.0, 90.0, 180.0, -45.0, 360.0, 1e3], dtype=np.float64)
    for dt in REAL_FLOATS:
        x = a.astype(dt)
        for name in ("radians", "deg2rad"):
            _check(name, x, factor=2.0)
        r = np.radians(x)
        for name in ("degrees", "rad2deg"):
            _check(name, r, factor=2.0)


# ---- clip, where-like functions, complex parts, nan_to_num ---------------------------------------------------


def test_clip_scalars_and_none():
    a = np.array([1, 5, 10, -3, 7], dtype=np.int8)
    x = cp.asarray(a)
    assert_close(cp.clip(x, 2, 8), np.clip(a, 2, 8))
    assert_close(cp.clip(x, None, 6), np.clip(a, None, 6))
    assert_close(cp.clip(x, 0, None), np.clip(a, 0, None))
    assert_close(cp.clip(x, 8, 2), np.clip(a, 8, 2))  # min > max: everything is max
    f = np.array([1.5, np.nan, -np.inf, np.inf, 3.0, -0.5], dtype=np.float32)
    assert_close(cp.clip(cp.asarray(f), -1.0, 2.0), np.clip(f, -1.0, 2.0))
    assert_close(cp.clip(cp.asarray(f), np.float32(0), None), np.clip(f, np.float32(0), None))


def test_clip_promotion():
    a = np.array([1, 5, 10], dtype=np.int8)
    x = cp.asarray(a)
    assert_close(cp.clip(x, 1.5, 8), np.clip(a, 1.5, 8))  # float64
    f = np.array([1.5, 3.0, -2.0], dtype=np.float32)
    assert_close(cp.clip(cp.asarray(f), 0, 2), np.clip(f, 0, 2))  # stays float32
    assert_close(cp.clip(cp.asarray(f), np.float64(0), 2), np.clip(f, np.float64(0), 2))  # float64


def test_clip_arrays_broadcast():
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    lo = np.array([1.0, 2.0, 3.0, 4.0])
    hi = np.array([[5.0], [6.0], [9.5]])
    assert_close(cp.clip(cp.asarray(a), cp.asarray(lo), cp.asarray(hi)), np.clip(a, lo, hi))
    assert_close(cp.clip(cp.asarray(a), cp.asarray(lo), 6.0), np.clip(a, lo, 6.0))


def test_clip_nan_bounds_propagate():
    f = np.array([1.0, 5.0, 10.0], dtype=np.float64)
    assert_close(cp.clip(cp.asarray(f), np.nan, 8.0), np.clip(f, np.nan, 8.0))
    lo = np.array([0.0, np.nan, 0.0])
    assert_close(cp.clip(cp.asarray(f), cp.asarray(lo), 8.0), np.clip(f, lo, 8.0))


def test_clip_out():
    a = np.array([1.0, 5.0, 10.0], dtype=np.float32)
    o = cp.zeros(3, dtype=np.float32)
    r = cp.clip(cp.asarray(a), 2.0, 8.0, out=o)
    assert r is o
    assert_close(o, np.clip(a, 2.0, 8.0))


@pytest.mark.parametrize("dtype", ["int8", "float32", "float64", "complex64", "complex128"])
def test_real_imag_conj(dtype):
    a = np.array([1 + 2j, -3.5 + 0j, 0.5 - 4j, -0.0 + 1j], dtype=np.complex128)
    a = a.astype(dtype) if np.dtype(dtype).kind == "c" else np.array([1, -3, 4, 0], dtype=dtype)
    x = cp.asarray(a)
    assert_close(cp.real(x), np.real(a), exact=True)
    assert_close(cp.imag(x), np.imag(a), exact=True)
    for name in ("conj", "conjugate"):
        assert_close(getattr(cp, name)(x), np.conjugate(a), exact=True)


@pytest.mark.parametrize("dtype", ["int8", "int64", "float32", "float64", "complex64", "complex128", "bool"])
def test_angle(dtype):
    if np.dtype(dtype).kind == "c":
        a = np.array([1 + 1j, -1 + 0j, -1 - 0j, 1j, -2j, 0j, -3 + 4j], dtype=dtype)
    elif np.dtype(dtype).kind == "f":
        a = np.array([1.0, -1.0, 0.0, -0.0, np.inf, -np.inf, np.nan], dtype=dtype)
    elif dtype == "bool":
        a = np.array([True, False])
    else:
        a = np.array([1, -1, 0, 5, -7], dtype=dtype)
    x = cp.asarray(a)
    assert_close(cp.angle(x), np.angle(a), factor=2.0, zero_signs=True)
    assert_close(cp.angle(x, deg=True), np.angle(a, deg=True), factor=2.0)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
def test_nan_to_num(dtype):
    if np.dtype(dtype).kind == "c":
        a = np.array(
            [complex(np.nan, np.inf), complex(-np.inf, 1), complex(1.5, np.nan), 2 - 1j], dtype=dtype
        )
    else:
        a = np.array([np.nan, np.inf, -np.inf, 1.5, -0.0], dtype=dtype)
    x = cp.asarray(a)
    assert_close(cp.nan_to_num(x), np.nan_to_num(a), exact=True)
    kw = {"nan": 7.0, "posinf": 100.0, "neginf": -200.0}
    assert_close(cp.nan_to_num(x, **kw), np.nan_to_num(a, **kw), exact=True)
    assert_close(cp.nan_to_num(x, nan=-1.0), np.nan_to_num(a, nan=-1.0), exact=True)
    assert_close(x, a, exact=True)  # the input is left alone


def test_nan_to_num_integers_unchanged():
    a = np.array([1, -2, 127], dtype=np.int8)
    assert_close(cp.nan_to_num(cp.asarray(a)), np.nan_to_num(a))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_hypot_abs_and_sign_next_to_the_largest_finite_value(dtype):
    # The hypotenuse of the largest finite value and a much smaller part is that value exactly (C's hypot);
    # rounded up it was infinite, so |z| was inf and sign(z) of (-DBL_MAX, -2.5) was (0, -1), not (-1, -tiny).
    big = np.finfo(dtype).max
    a = np.array([big, -big, big, -big, 1.0, 0.0, 3.0, big / 2], dtype)
    b = np.array([2.5, -2.5, big * 2**-30, -(big * 2**-28), 2**-30, 0.0, 4.0, big / 2], dtype)
    got = cp.hypot(cp.asarray(a), cp.asarray(b))
    assert_close(got, np.hypot(a, b))
    assert np.isfinite(got.get()).all()
    z = (a + 1j * b).astype(np.result_type(dtype, np.complex64))
    xz = cp.asarray(z)
    assert_close(cp.abs(xz), np.abs(z))
    with np.errstate(over="ignore", invalid="ignore"):
        assert_close(cp.sign(xz), np.sign(z))
