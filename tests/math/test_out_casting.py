"""out= (the result is written into it and returned), dtype=, casting rules ('same_kind' by default; 'no',
'equiv', 'safe', 'unsafe'), failed casts that leave the target unchanged, and out= arrays that overlap the
inputs (the result must be as if the inputs had been copied first, like NumPy)."""

import os
import sys

import cuarray as cp
import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mathhelpers import assert_close, np_call

pytestmark = pytest.mark.gpu


def _arr(vals, dtype):
    return np.array(vals, dtype=dtype)


# ---- out= --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,args",
    [
        ("add", ([1.5, 2.0, -3.0], [0.25, 1.0, 2.0])),
        ("multiply", ([1.5, 2.0, -3.0], [0.25, 1.0, 2.0])),
        ("sqrt", ([1.0, 4.0, 2.0],)),
        ("maximum", ([1.5, 2.0, -3.0], [0.25, 3.0, 2.0])),
        ("negative", ([1.5, 0.0, -3.0],)),
        ("arctan2", ([1.5, 2.0, -3.0], [0.25, 1.0, 2.0])),
    ],
)
def test_out_is_written_and_returned(name, args):
    np_args = [_arr(a, np.float32) for a in args]
    out = cp.full(3, 99.0, dtype=np.float32)
    r = getattr(cp, name)(*[cp.asarray(a) for a in np_args], out=out)
    assert r is out
    assert_close(out, np_call(getattr(np, name), *np_args), factor=2.0)


def test_out_for_comparison_and_bool_results():
    a, b = _arr([1, 5, 3], np.int32), _arr([2, 5, 1], np.int32)
    out = cp.zeros(3, dtype=np.bool_)
    assert cp.less(cp.asarray(a), cp.asarray(b), out=out) is out
    assert_close(out, a < b)
    out8 = cp.zeros(3, dtype=np.int8)  # bool -> int8 is a safe cast
    assert cp.equal(cp.asarray(a), cp.asarray(b), out=out8) is out8
    assert_close(out8, np.equal(a, b, out=np.zeros(3, np.int8)))


def test_two_output_ufuncs_with_out_tuple():
    a, b = _arr([7.5, -7.5, 3.0], np.float64), _arr([2.0, 2.0, -4.0], np.float64)
    q, r = cp.zeros(3), cp.zeros(3)
    res = cp.divmod(cp.asarray(a), cp.asarray(b), out=(q, r))
    assert isinstance(res, tuple) and res[0] is q and res[1] is r
    eq, er = np.divmod(a, b)
    assert_close(q, eq, exact=True)
    assert_close(r, er, exact=True)
    f, w = cp.zeros(3, dtype=np.float32), cp.zeros(3, dtype=np.float32)  # float64 -> float32: same kind
    res = cp.modf(cp.asarray(a), out=(f, w))
    assert res[0] is f and res[1] is w
    ef, ew = np.modf(a, out=(np.zeros(3, np.float32), np.zeros(3, np.float32)))
    assert_close(f, ef, exact=True)
    assert_close(w, ew, exact=True)
    m, e = cp.zeros(3), cp.zeros(3, dtype=np.int32)
    res = cp.frexp(cp.asarray(a), out=(m, e))
    assert res[0] is m and res[1] is e
    em, ee = np.frexp(a)
    assert_close(m, em, exact=True)
    assert_close(e, ee)


@pytest.mark.parametrize(
    "res_dtype,out_dtype",
    [
        ("float64", "float32"),  # downcast within a kind
        ("float64", "float16"),
        ("int64", "int8"),  # wraps
        ("int32", "float64"),
        ("int16", "int64"),
        ("uint8", "int16"),
        ("bool", "int32"),
        ("float32", "complex64"),
        ("complex128", "complex64"),
        ("uint64", "uint8"),
    ],
)
def test_out_same_kind_casts_allowed(res_dtype, out_dtype):
    if np.dtype(res_dtype).kind == "b":
        a, b = _arr([True, False, True], res_dtype), _arr([True, True, False], res_dtype)
    else:
        a = _arr([1, 100, 3], res_dtype)
        b = _arr([2, 200, 7], res_dtype)
    expected = np.zeros(3, dtype=out_dtype)
    with np.errstate(all="ignore"):
        np.add(a, b, out=expected)
    out = cp.zeros(3, dtype=out_dtype)
    r = cp.add(cp.asarray(a), cp.asarray(b), out=out)
    assert r is out
    assert_close(out, expected)


@pytest.mark.parametrize(
    "res_dtype,out_dtype",
    [
        ("float64", "int32"),
        ("float32", "int64"),
        ("complex64", "float32"),
        ("complex128", "float64"),
        ("int64", "bool"),
        ("int64", "uint8"),  # signed -> unsigned is not same_kind
        ("int8", "uint64"),
        ("float64", "bool"),
        ("float16", "uint16"),
    ],
)
def test_out_cast_errors_leave_out_unchanged(res_dtype, out_dtype):
    a = _arr([1, 2, 3], res_dtype)
    with pytest.raises(TypeError):
        np.add(a, a, out=np.zeros(3, dtype=out_dtype))
    init = _arr([7, 0, 1], out_dtype)
    out = cp.asarray(init)
    with pytest.raises(TypeError):
        cp.add(cp.asarray(a), cp.asarray(a), out=out)
    assert_close(out, init)


def test_unsafe_casting_allows_float_to_int():
    a = _arr([1.7, -1.7, 2.5, 100.25], np.float64)
    out = cp.zeros(4, dtype=np.int32)
    with pytest.raises(TypeError):
        cp.add(cp.asarray(a), cp.asarray(a), out=out)
    r = cp.add(cp.asarray(a), cp.asarray(a), out=out, casting="unsafe")
    assert r is out
    assert_close(out, np.add(a, a, out=np.zeros(4, np.int32), casting="unsafe"))
    c = _arr([1 + 2j, -3 + 0.5j], np.complex128)
    outf = cp.zeros(2, dtype=np.float64)
    with pytest.raises(TypeError):
        cp.negative(cp.asarray(c), out=outf)
    r = cp.negative(cp.asarray(c), out=outf, casting="unsafe")  # drops the imaginary part
    assert r is outf
    assert_close(outf, np_call(np.negative, c, out=np.zeros(2), casting="unsafe"), exact=True)


def test_casting_safe_and_no():
    i32 = _arr([1, 2, 3], np.int32)
    i16 = _arr([1, 2, 3], np.int16)
    with pytest.raises(TypeError):
        cp.add(cp.asarray(i32), cp.asarray(i32), out=cp.zeros(3, dtype=np.float32), casting="safe")
    out = cp.zeros(3, dtype=np.float32)
    cp.add(cp.asarray(i16), cp.asarray(i16), out=out, casting="safe")  # int16 -> float32 is safe
    assert_close(out, (i16 + i16).astype(np.float32))
    with pytest.raises(TypeError):
        cp.add(cp.asarray(i16), cp.asarray(i16), out=cp.zeros(3, dtype=np.float32), casting="no")
    out16 = cp.zeros(3, dtype=np.int16)
    cp.add(cp.asarray(i16), cp.asarray(i16), out=out16, casting="no")
    assert_close(out16, i16 + i16)
    cp.add(cp.asarray(i16), cp.asarray(i16), out=out16, casting="equiv")
    assert_close(out16, i16 + i16)
    with pytest.raises(TypeError):  # inputs: float64 -> float32 is not safe
        cp.add(
            cp.asarray(i32.astype(np.float64)),
            cp.asarray(i32.astype(np.float64)),
            dtype=np.float32,
            casting="safe",
        )


def test_bad_casting_value_raises_value_error():
    a = cp.asarray(np.ones(3))
    with pytest.raises(ValueError):
        cp.add(a, a, casting="bogus")


# ---- dtype= ------------------------------------------------------------------------------------------------


def test_dtype_argument():
    i8 = _arr([100, 100, -100], np.int8)
    x = cp.asarray(i8)
    for dt in (np.float32, "f4", np.dtype("float32"), "float32"):
        r = cp.add(x, x, dtype=dt)
        assert_close(r, np.add(i8, i8, dtype=dt))
    assert_close(cp.add(x, x, dtype=np.int16), np.add(i8, i8, dtype=np.int16))  # no wraparound
    i16 = _arr([30000, 2, -300], np.int16)
    assert_close(cp.multiply(cp.asarray(i16), cp.asarray(i16), dtype="i8"), np.multiply(i16, i16, dtype="i8"))
    f64 = _arr([1.0, 2.0, 3.0000001], np.float64)
    assert_close(
        cp.add(cp.asarray(f64), cp.asarray(f64), dtype=np.float32), np.add(f64, f64, dtype=np.float32)
    )
    assert_close(cp.sqrt(cp.asarray(f64), dtype=np.float32), np.sqrt(f64, dtype=np.float32))
    i64 = _arr([1, 4, 9], np.int64)
    assert_close(cp.sqrt(cp.asarray(i64), dtype=np.float32), np.sqrt(i64, dtype=np.float32))
    u8 = _arr([1, 200], np.uint8)
    assert_close(cp.negative(cp.asarray(u8), dtype=np.int16), np.negative(u8, dtype=np.int16))


def test_dtype_argument_casting():
    f = _arr([1.7, -1.7, 2.5], np.float64)
    x = cp.asarray(f)
    with pytest.raises(TypeError):
        cp.add(x, x, dtype=np.int32)
    # unsafe: the inputs are cast to int32 first (1.7 -> 1), then added
    r = cp.add(x, x, dtype=np.int32, casting="unsafe")
    assert_close(r, np.add(f, f, dtype=np.int32, casting="unsafe"))
    assert cp.asnumpy(r).tolist() == [2, -2, 4]


def test_dtype_and_out_together():
    a = _arr([1e8 + 1, 3.0], np.float64)
    b = _arr([1.0, 0.1], np.float64)
    out = cp.zeros(2, dtype=np.float64)
    r = cp.add(cp.asarray(a), cp.asarray(b), dtype=np.float32, out=out)
    assert r is out
    assert_close(out, np.add(a, b, dtype=np.float32, out=np.zeros(2)), exact=True)  # computed in float32


# ---- in-place casting ----------------------------------------------------------------------------------------


def test_inplace_cast_errors_leave_array_unchanged():
    cases = [
        ("int32", lambda x: x.__iadd__(1.5)),
        ("int32", lambda x: x.__iadd__(cp.asarray(np.array([0.5, 0.5, 0.5])))),
        ("int32", lambda x: x.__itruediv__(2)),
        ("float32", lambda x: x.__iadd__(1j)),
        ("bool", lambda x: x.__iadd__(1)),
        ("uint8", lambda x: x.__iadd__(cp.asarray(np.array([1, 1, 1], np.int8)))),
        ("int8", lambda x: x.__iadd__(300)),
    ]
    for dt, fn in cases:
        init = _arr([1, 2, 3], dt)
        x = cp.asarray(init)
        with pytest.raises((TypeError, OverflowError)):
            fn(x)
        assert_close(x, init)


def test_inplace_same_kind_downcast_allowed():
    a = _arr([100, 2, -3], np.int8)
    b = _arr([1000, 1, 1], np.int16)
    x = cp.asarray(a)
    x += cp.asarray(b)
    e = a.copy()
    e += b
    assert_close(x, e)
    f = cp.asarray(_arr([1.5, 2.5], np.float32))
    f += cp.asarray(_arr([1e-9, 1.0], np.float64))
    assert_close(f, _arr([1.5, 3.5], np.float32), exact=True)


# ---- shapes of out -----------------------------------------------------------------------------------------


def test_out_shape_mismatch_raises_value_error():
    a = cp.asarray(np.ones((3, 4)))
    with pytest.raises(ValueError):
        cp.add(a, 1, out=cp.zeros(3))
    with pytest.raises(ValueError):
        cp.add(a, 1, out=cp.zeros((4, 3)))
    with pytest.raises(ValueError):
        cp.sqrt(cp.asarray(np.ones(3)), out=cp.zeros(4))


def test_out_with_more_dims_broadcasts_inputs():
    a = np.array([1.0, 2.0, 3.0])
    out = cp.zeros((2, 3))
    r = cp.add(cp.asarray(a), 1, out=out)
    assert r is out
    assert_close(out, np.add(a, 1, out=np.zeros((2, 3))), exact=True)


def test_out_zero_d_and_empty():
    out = cp.zeros(())
    r = cp.add(cp.asarray(np.array(1.0)), 2, out=out)
    assert r is out and out.shape == ()
    assert float(out) == 3.0
    e = cp.zeros((0, 3))
    r = cp.add(cp.asarray(np.ones((0, 3))), 1, out=e)
    assert r is e and e.shape == (0, 3)


def test_out_non_contiguous_view_writes_only_its_elements():
    base_np = np.zeros((4, 6), dtype=np.float32)
    base = cp.asarray(base_np)
    a = np.arange(12, dtype=np.float32).reshape(4, 3)
    r = cp.multiply(cp.asarray(a), 2, out=base[:, ::2])
    base_np[:, ::2] = a * 2
    assert_close(base, base_np, exact=True)
    assert r.shape == (4, 3)
    rev = base[::-1, 1::2]
    cp.add(cp.asarray(a), 100, out=rev)
    base_np[::-1, 1::2] = a + 100
    assert_close(base, base_np, exact=True)
    t = cp.zeros((3, 4), dtype=np.float32)
    cp.negative(cp.asarray(a), out=t.T)
    assert_close(t, -a.T, exact=True)


# ---- overlap between inputs and out -------------------------------------------------------------------------

N = 1 << 20


def _big(dtype=np.int64):
    return (np.arange(N) % 1009 - 500).astype(dtype)


@pytest.mark.parametrize("shift", [1, 1000, 100_000])
def test_inplace_shifted_overlap(shift):
    """x[k:] += x[:-k] and x[:-k] += x[k:] give NumPy's result (as if the right side were copied first)."""
    a = _big()
    for sl_out, sl_in in (
        (slice(shift, None), slice(None, -shift)),
        (slice(None, -shift), slice(shift, None)),
    ):
        e = a.copy()
        e[sl_out] += e[sl_in]
        x = cp.asarray(a)
        x[sl_out] += x[sl_in]
        assert_close(x, e)


def test_ufunc_out_overlapping_inputs():
    a = _big(np.float64)
    x = cp.asarray(a)
    e = a.copy()
    np.add(e[1:], e[:-1], out=e[:-1])
    cp.add(x[1:], x[:-1], out=x[:-1])
    assert_close(x, e, exact=True)
    # reversed view as out
    a = _big(np.float32)
    x, e = cp.asarray(a), a.copy()
    np.negative(e, out=e[::-1])
    cp.negative(x, out=x[::-1])
    assert_close(x, e, exact=True)
    # out aliases an input exactly
    x, e = cp.asarray(a), a.copy()
    r = cp.multiply(x, x, out=x)
    np.multiply(e, e, out=e)
    assert r is x
    assert_close(x, e, exact=True)


def test_overlap_transpose_inplace():
    a = np.arange(512 * 512, dtype=np.float64).reshape(512, 512)
    x, e = cp.asarray(a), a.copy()
    x += x.T
    e += e.T
    assert_close(x, e, exact=True)
    x, e = cp.asarray(a), a.copy()
    cp.subtract(x, x.T, out=x.T)
    np.subtract(e, e.T, out=e.T)
    assert_close(x, e, exact=True)


def test_overlap_strided_views():
    a = _big(np.int32)
    x, e = cp.asarray(a), a.copy()
    x[::2] += x[1::2]
    e[::2] += e[1::2]
    assert_close(x, e)
    x, e = cp.asarray(a), a.copy()
    x[1:-1:3] = x[:-2:3] * 2 + x[2::3]
    e[1:-1:3] = e[:-2:3] * 2 + e[2::3]
    assert_close(x, e)
    x, e = cp.asarray(a), a.copy()
    cp.maximum(x[: N // 2], x[N // 4 : 3 * N // 4], out=x[N // 8 : N // 8 + N // 2])
    np.maximum(e[: N // 2], e[N // 4 : 3 * N // 4], out=e[N // 8 : N // 8 + N // 2])
    assert_close(x, e)


def test_overlap_output_and_input_of_two_output_ufunc():
    a = (np.arange(N) % 97 + 1).astype(np.int64)
    m = N // 2 - 2
    x, e = cp.asarray(a), a.copy()
    cp.divmod(x[:m], 7, out=(x[1 : m + 1], x[m + 1 : 2 * m + 1]))
    np.divmod(e[:m], 7, out=(e[1 : m + 1], e[m + 1 : 2 * m + 1]))
    assert_close(x, e)


def test_where_masks_a_negative_integer_exponent_and_takes_only_bool_masks():
    # NumPy computes only where the mask holds: power(a, e, out=o, where=e >= 0) is the way to skip the
    # negative exponents of an integer power; a mask array must be bool (NumPy's safe cast to bool).
    a, e = np.array([2, 3, 4, 5]), np.array([2, -1, 3, 0])
    want = np.power(a, e, out=np.zeros(4, np.int64), where=e >= 0)
    got = cp.power(cp.asarray(a), cp.asarray(e), out=cp.zeros(4, np.int64), where=cp.asarray(e >= 0))
    np.testing.assert_array_equal(cp.asnumpy(got), want)
    for mask in (np.array([1.0, 0.0, 1.0, 1.0]), np.array([1, 0, 1, 1]), np.array(1)):
        with pytest.raises(TypeError) as np_error:
            np.add(a, 1, out=np.zeros(4, np.int64), where=mask)
        with pytest.raises(TypeError) as cp_error:
            cp.add(cp.asarray(a), 1, out=cp.zeros(4, np.int64), where=cp.asarray(mask))
        assert str(cp_error.value) == str(np_error.value)
