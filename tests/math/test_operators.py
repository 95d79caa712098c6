"""Python operators on cuarray.ndarray: + - * / // % ** & | ^ << >> == != < <= > >=, divmod(), unary - + abs ~,
reflected (scalar on the left) and in-place, with arrays, Python scalars, NumPy scalars and 0-d arrays. The
result is a cuarray.ndarray with NumPy's dtype and values, or the same exception type as NumPy."""

import operator
import os
import sys

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, dtype_id

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mathhelpers import assert_close, compare_with_numpy, make_inputs, np_call, outcome, report

pytestmark = pytest.mark.gpu

# symbol -> (operator function, in-place function or None, ufunc name for the input domain)
BINARY = {
    "+": (operator.add, operator.iadd, "add"),
    "-": (operator.sub, operator.isub, "subtract"),
    "*": (operator.mul, operator.imul, "multiply"),
    "/": (operator.truediv, operator.itruediv, "divide"),
    "//": (operator.floordiv, operator.ifloordiv, "floor_divide"),
    "%": (operator.mod, operator.imod, "remainder"),
    "**": (operator.pow, operator.ipow, "power"),
    "&": (operator.and_, operator.iand, "bitwise_and"),
    "|": (operator.or_, operator.ior, "bitwise_or"),
    "^": (operator.xor, operator.ixor, "bitwise_xor"),
    "<<": (operator.lshift, operator.ilshift, "left_shift"),
    ">>": (operator.rshift, operator.irshift, "right_shift"),
    "==": (operator.eq, None, "equal"),
    "!=": (operator.ne, None, "not_equal"),
    "<": (operator.lt, None, "less"),
    "<=": (operator.le, None, "less_equal"),
    ">": (operator.gt, None, "greater"),
    ">=": (operator.ge, None, "greater_equal"),
    "divmod": (divmod, None, "divmod"),
}
OPS = list(BINARY)
INPLACE_OPS = [k for k, v in BINARY.items() if v[1] is not None]
OP_DTYPES = [np.dtype(n) for n in ("bool", "int8", "uint16", "int64", "float16", "float32", "complex128")]
# Kept small: each (operator, result dtype, scalar side) is a kernel to compile.
SCALAR_DTYPES = [np.dtype(n) for n in ("int16", "float32")]
INPLACE_DTYPES = [np.dtype(n) for n in ("bool", "int8", "float32", "complex128")]
PY_SCALARS = [True, 3, -2, 2.5, 1.5j]


def _operands(sym, dtype, n=12):
    """(left, right) NumPy arrays in the operator's domain (non-zero divisors, small shifts, small powers)."""
    a, b = make_inputs(BINARY[sym][2], [dtype, dtype], n=n)
    if sym == "**" and np.dtype(dtype).kind in "iu":
        a = np.where(a == 0, np.asarray(2, dtype), a)  # 0 ** complex is ill-conditioned: no zero bases
    return a, b


def _compare(fn, np_args, cp_args, what, **kw):
    return compare_with_numpy(fn, fn, np_args, cp_args, what, **kw)


def _kw(sym, dtype):
    if sym == "**":
        return {"factor": 10.0}
    return {"factor": 2.0} if sym == "/" or np.dtype(dtype).kind == "c" else {}


# ---- array op array ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("sym", OPS)
def test_array_op_array(sym):
    fn = BINARY[sym][0]
    failures = []
    for dt in OP_DTYPES:
        a, b = _operands(sym, dt)
        m = _compare(fn, (a, b), (cp.asarray(a), cp.asarray(b)), f"{dt} {sym} {dt}", **_kw(sym, dt))
        if m:
            failures.append(m)
    report(failures, len(OP_DTYPES))


@pytest.mark.parametrize("sym", ["+", "-", "*", "/", "//", "%", "**", "&", "<<", "<", "=="])
def test_array_op_array_mixed_dtypes(sym):
    fn = BINARY[sym][0]
    failures = []
    pairs = [("int8", "uint8"), ("int16", "float16"), ("bool", "int8"), ("uint64", "int64")]
    for d1, d2 in pairs:
        a = _operands(sym, d1)[0]
        b = _operands(sym, d2)[1]
        m = _compare(fn, (a, b), (cp.asarray(a), cp.asarray(b)), f"{d1} {sym} {d2}", factor=2.0)
        if m:
            failures.append(m)
    report(failures, len(pairs))


# ---- array op Python scalar, and reflected --------------------------------------------------------------------


@pytest.mark.parametrize("sym", OPS)
def test_array_op_python_scalar(sym):
    """Every operator with a bool, int, float and complex Python scalar, on either side."""
    fn = BINARY[sym][0]
    failures, total = [], 0
    for dt in SCALAR_DTYPES:
        a, b = _operands(sym, dt)
        for s in PY_SCALARS:
            if sym == "**" and s == -2 and dt.kind in "biu":
                continue  # NumPy: ValueError, integers to negative integer powers
            total += 2
            m = _compare(fn, (a, s), (cp.asarray(a), s), f"{dt} array {sym} {s!r}", **_kw(sym, dt))
            if m:
                failures.append(m)
            # reflected: the scalar on the left; b is in the domain of a right operand
            m = _compare(fn, (s, b), (s, cp.asarray(b)), f"{s!r} {sym} {dt} array", **_kw(sym, dt))
            if m:
                failures.append(m)
    report(failures, total)


NP_SCALARS = [
    np.float32(2),
    np.int8(3),
    np.uint8(3),
    np.int64(-2),
    np.float64(2.5),
    np.bool_(True),
    np.complex64(1 + 2j),
]


@pytest.mark.parametrize("sym", ["+", "-", "*", "/", "//", "**", "&", "<", "==", "divmod"])
def test_numpy_scalars_on_either_side(sym):
    """A NumPy scalar on the left must not swallow the device array: the result is a cuarray.ndarray."""
    fn = BINARY[sym][0]
    failures, total = [], 0
    for dt in ("uint8", "float32"):
        a, b = _operands(sym, dt)
        for s in NP_SCALARS:
            if sym == "**" and isinstance(s, np.integer) and s < 0 and np.dtype(dt).kind in "iu":
                continue  # NumPy: ValueError, integers to negative integer powers
            total += 2
            m = _compare(fn, (a, s), (cp.asarray(a), s), f"{dt} array {sym} {s!r}", **_kw(sym, "c"))
            if m:
                failures.append(m)
            m = _compare(fn, (s, b), (s, cp.asarray(b)), f"{s!r} {sym} {dt} array", **_kw(sym, "c"))
            if m:
                failures.append(m)
    report(failures, total)


def test_numpy_scalar_left_gives_device_array():
    x = cp.asarray(np.array([1, 2, 3], dtype=np.int8))
    for r in (np.float32(2) + x, np.int8(3) * x, np.float64(1) - x, np.bool_(True) & x, np.int64(5) < x):
        assert isinstance(r, cp.ndarray), type(r)
    assert (np.float32(2) + x).dtype == np.float32
    assert (np.int8(3) * cp.asarray(np.array([1], np.uint8))).dtype == np.int16


# ---- 0-d arrays ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("sym", ["+", "-", "/", "&", "<"])
def test_zero_d_operands(sym):
    fn = BINARY[sym][0]
    failures, total = [], 0
    for dt0, dt1 in [("int8", "int8"), ("float64", "float32"), ("bool", "uint8")]:
        a = _operands(sym, dt0)[0][:1].reshape(())
        b = _operands(sym, dt1)[1]
        for np_args in ((a, b), (b[:1].reshape(()), a), (a, 2), (3, b[1:2].reshape(()))):
            total += 1
            cp_args = tuple(cp.asarray(v) if isinstance(v, np.ndarray) else v for v in np_args)
            m = _compare(
                fn, np_args, cp_args, f"{[getattr(v, 'shape', v) for v in np_args]} {dt0}/{dt1}", factor=2.0
            )
            if m:
                failures.append(m)
    report(failures, total)


def test_zero_d_op_scalar_stays_zero_d():
    x = cp.asarray(np.array(5, dtype=np.int8))
    for r in (x + 1, 1 + x, x * 2.5, x < 3, -x, abs(x)):
        assert isinstance(r, cp.ndarray) and r.shape == ()
    assert (x + 1).dtype == np.int8
    assert (x * 2.5).dtype == np.float64
    assert int(x + 1) == 6


# ---- in-place ----------------------------------------------------------------------------------------------


def _inplace_compare(sym, a, rhs_np, rhs_cp, what):
    """x op= rhs on a copy of `a`: same values as NumPy, same object, or the same exception with x unchanged."""
    ifn = BINARY[sym][1]
    expected = a.copy()
    kind, res = outcome(ifn, expected, rhs_np)
    x = cp.asarray(a)
    try:
        if kind == "raise":
            try:
                ifn(x, rhs_cp)
            except res:
                assert_close(x, a, exact=True)  # left unchanged
                return None
            except Exception as e:  # noqa: BLE001
                return f"{what}: raised {type(e).__name__} ({e}), NumPy raises {res.__name__}"
            return f"{what}: no error, NumPy raises {res.__name__}"
        r = ifn(x, rhs_cp)
        if r is not x:
            return f"{what}: in-place operator returned a new object"
        assert_close(x, expected, factor=2.0)
    except Exception as e:  # noqa: BLE001
        return f"{what}: {type(e).__name__}: {str(e)[:300]}"
    return None


@pytest.mark.parametrize("sym", INPLACE_OPS)
def test_inplace_with_arrays(sym):
    failures, total = [], 0
    for dt in INPLACE_DTYPES:
        a, b = _operands(sym, dt)
        for rhs_dt in (dt, np.dtype("float64"), np.dtype("int16")):
            rb = b.astype(rhs_dt) if rhs_dt != dt else b
            if sym == "**" and rhs_dt.kind == "i":
                rb = np.abs(rb)
            total += 1
            m = _inplace_compare(sym, a, rb, cp.asarray(rb), f"{dt} array {sym}= {rhs_dt} array")
            if m:
                failures.append(m)
    report(failures, total)


@pytest.mark.parametrize("sym", INPLACE_OPS)
def test_inplace_with_scalars(sym):
    failures, total = [], 0
    for dt in INPLACE_DTYPES[:3]:
        a = _operands(sym, dt)[0]
        for s in PY_SCALARS + [300, np.float64(2), np.int8(2)]:
            if sym == "**" and (s == -2) and dt.kind in "biu":
                continue
            total += 1
            m = _inplace_compare(sym, a, s, s, f"{dt} array {sym}= {s!r}")
            if m:
                failures.append(m)
    report(failures, total)


def test_inplace_spec_examples():
    x = cp.asarray(np.array([1, 2, 3], dtype=np.int32))
    with pytest.raises(TypeError):
        x += 1.5
    assert_close(x, np.array([1, 2, 3], dtype=np.int32))
    with pytest.raises(TypeError):
        x /= 2
    assert_close(x, np.array([1, 2, 3], dtype=np.int32))
    y = cp.asarray(np.array([1, 2, 3], dtype=np.int8))
    with pytest.raises(OverflowError):
        y += 300
    assert_close(y, np.array([1, 2, 3], dtype=np.int8))
    y += 1
    assert_close(y, np.array([2, 3, 4], dtype=np.int8))
    z = cp.asarray(np.array([0, 1, 255], dtype=np.uint8))
    z -= 1  # wraps
    assert_close(z, np.array([255, 0, 254], dtype=np.uint8))
    f = cp.asarray(np.array([1.5, 2.0], dtype=np.float32))
    f *= 2.5
    assert_close(f, np.array([3.75, 5.0], dtype=np.float32), exact=True)
    f += np.float64(1)  # float64 result, cast back (same kind)
    assert f.dtype == np.float32
    b = cp.asarray(np.array([True, False]))
    with pytest.raises(TypeError):
        b += 1
    b |= True
    assert_close(b, np.array([True, True]))


def test_inplace_on_view_writes_through():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    base = cp.asarray(a)
    v = base[:, ::2]
    v += 10
    v *= np.float32(2)
    e = a.copy()
    ev = e[:, ::2]
    ev += 10
    ev *= np.float32(2)
    assert_close(base, e, exact=True)
    t = base.T
    t -= 1
    e.T[...] -= 1
    assert_close(base, e, exact=True)


# ---- unary ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_unary_operators(dtype):
    a = make_inputs("negative", [dtype])[0]
    x = cp.asarray(a)
    failures = []
    for name, fn in (("-", operator.neg), ("+", operator.pos), ("abs", abs), ("~", operator.invert)):
        m = _compare(fn, (a,), (x,), f"{name}({dtype})", exact=np.dtype(dtype).kind == "f")
        if m:
            failures.append(m)
    report(failures, 4)


def test_unary_operators_signed_zero():
    x = cp.asarray(np.array([0.0, -0.0, 1.0], dtype=np.float32))
    assert np.signbit(cp.asnumpy(-x)).tolist() == [True, False, True]
    assert np.signbit(cp.asnumpy(abs(x))).tolist() == [False, False, False]
    assert np.signbit(cp.asnumpy(+x)).tolist() == [False, True, False]


def test_unary_operator_errors():
    b = cp.asarray(np.array([True, False]))
    with pytest.raises(TypeError):
        _ = -b
    with pytest.raises(TypeError):
        _ = +b
    assert_close(~b, np.array([False, True]))
    assert_close(abs(b), np.array([True, False]))
    with pytest.raises(TypeError):
        ~cp.asarray(np.array([1.5]))
    with pytest.raises(TypeError):
        ~cp.asarray(np.array([1j]))


# ---- errors --------------------------------------------------------------------------------------------------


def test_unsupported_operands_raise_type_error():
    x = cp.asarray(np.array([1, 2, 3], dtype=np.int32))
    for fn in (
        lambda: x + object(),
        lambda: object() + x,
        lambda: x * "abc",
        lambda: x < object(),
        lambda: x & 1.5,
        lambda: 1.5 << x,
        lambda: x.astype(np.complex64) // 2,
    ):
        with pytest.raises(TypeError):
            fn()


def test_shape_mismatch_raises_value_error():
    a = cp.asarray(np.arange(3))
    b = cp.asarray(np.arange(4))
    for fn in (operator.add, operator.eq, operator.lt, operator.and_):
        with pytest.raises(ValueError):
            fn(a, b)
    with pytest.raises(ValueError):
        a += cp.asarray(np.arange(6).reshape(2, 3))  # the result would not fit into a


def test_bool_op_results():
    a = np.array([True, True, False, False])
    b = np.array([True, False, True, False])
    x, y = cp.asarray(a), cp.asarray(b)
    for fn in (
        operator.add,
        operator.mul,
        operator.and_,
        operator.or_,
        operator.xor,
        operator.eq,
        operator.lt,
    ):
        assert_close(fn(x, y), np_call(fn, a, b))
    with pytest.raises(TypeError):
        x - y
    assert_close(x / y, np_call(operator.truediv, a, b))
