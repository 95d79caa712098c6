"""where= of ufunc calls (the mask an operand as NumPy's: its shape checks, the layout of new outputs, power's
negative exponents outside it, its warning), signature= beside dtype=, and outputs that share memory
(divmod(a, b, out=(x, x))), against NumPy on the same inputs. The checks of the Python layer that need no device
run everywhere; the rest need a GPU."""

import contextlib
import os
import sys
import warnings

import cuarray as cp
import numpy as np
import pytest
from cuarray import _ufunc_keywords

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mathhelpers import BFLOAT16

gpu = pytest.mark.gpu

W4 = np.array([True, False, True, False])
M = np.arange(1.0, 7.0).reshape(2, 3)
MF = np.asfortranarray(M)


def _without_device():
    """A call that needs a device goes as far as it can without one (its Python checks run first)."""
    return contextlib.suppress(cp.cuda.CUDARuntimeError)


def _outcome(xp, call):
    """call(xp, A) as ('value', dtype, values) or ('raised', type, message); A moves NumPy inputs to xp's side."""

    def A(a):
        return np.array(a, copy=True) if xp is np else cp.asarray(a)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = call(xp, A)
    except Exception as e:  # noqa: BLE001 - the error is the outcome compared
        return "raised", type(e), str(e)
    h = np.asarray(r if xp is np else cp.asnumpy(r))
    return "value", h.dtype, h.tolist()


def _same_as_numpy(call):
    want, got = _outcome(np, call), _outcome(cp, call)
    if want[0] == "raised" and got[0] == "raised":
        assert issubclass(got[1], want[1]) or issubclass(want[1], got[1]), (want, got)
        assert got[2] == want[2]
    else:
        assert got == want


# ---- no device needed ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda xp: xp.add(1.0, 1, signature="dd->d", dtype=None),
        lambda xp: xp.divmod(1.0, 3, signature="dd->dd", dtype=None),
        lambda xp: xp.add(1.0, 1, signature=(None, None, "d"), dtype="f8"),
    ],
)
def test_signature_beside_any_dtype_is_refused(call):
    with pytest.raises(TypeError) as want:
        call(np)
    with pytest.raises(TypeError) as got:
        call(cp)
    assert str(got.value) == str(want.value) == "cannot specify both 'signature' and 'dtype'"


@pytest.mark.parametrize("where", [np.True_, np.False_, None, False, 0, 1], ids=repr)
def test_where_without_out_warns_unless_python_true(where):
    message = "'where' used without 'out', expect uni(ni)?tialized memory"  # NumPy 2.5 mended the spelling
    with pytest.warns(UserWarning, match=message):
        np.add(1.0, 1, where=where)
    with pytest.warns(UserWarning, match=message), _without_device():
        cp.add(1.0, 1, where=where)
    with warnings.catch_warnings():  # out=None says the caller knows; where=True masks nothing
        warnings.simplefilter("error")
        np.add(1.0, 1, where=where, out=None)
        np.add(1.0, 1, where=True)
        with _without_device():
            cp.add(1.0, 1, where=where, out=None)
        with _without_device():
            cp.add(1.0, 1, where=True)


def test_where_with_an_output_that_is_no_array():
    with pytest.raises(TypeError) as want:
        np.add(1.0, 1, out=[1, 2], where=False)
    with pytest.raises(TypeError) as got:
        cp.add(1.0, 1, out=[1, 2], where=False)
    assert str(got.value) == str(want.value)
    with pytest.raises(TypeError, match="move the NumPy array to the GPU"):
        cp.divmod(1.0, 1, out=(None, np.zeros(())), where=False)


# (ufunc name, inputs, outputs, mask): NumPy arrays standing in for device arrays, whose shapes are all that the
# check reads.
SHAPE_CASES = [
    ("add", (np.ones((1, 4)), 1), [np.zeros(4)], W4),
    ("negative", (np.ones((1, 1, 4)),), [np.zeros(4)], W4),
    ("add", (np.ones(4), 1), [np.zeros(4)], np.ones((1, 4), bool)),
    ("add", (np.ones(4), 1), [np.zeros(4)], np.ones((2, 4), bool)),
    ("add", (np.ones(4), 1), [np.zeros((2, 1))], W4),
    ("add", (np.ones(4), 1), [np.zeros((2, 4))], np.ones((1, 2, 1), bool)),
    ("add", (np.ones(3), 1), [np.zeros(4)], W4),
    ("add", (np.ones(4), 1), [np.zeros((2, 4))], np.ones((3, 1), bool)),
    ("add", (np.ones(3), 1), [np.zeros(4)], np.array(False)),
    ("divmod", (np.ones((1, 4)), 1.0), [np.zeros(4), None], W4),
    ("divmod", (np.ones(3), 1.0), [None, np.zeros(4)], W4),
    ("divmod", (np.ones(4), 1.0), [np.zeros(4), np.zeros((2, 4))], W4),
]


@pytest.mark.parametrize("name,inputs,outs,mask", SHAPE_CASES)
def test_where_shapes_are_checked_as_numpy_iterates(name, inputs, outs, mask):
    # Inputs, given outputs and the mask broadcast together, and each output must have that shape: NumPy's
    # ValueErrors, where copyto alone would drop a result's extra leading length-1 axes.
    with pytest.raises(ValueError) as want:
        getattr(np, name)(*inputs, out=tuple(outs) if len(outs) > 1 else outs[0], where=mask)
    with pytest.raises(ValueError) as got:
        _ufunc_keywords._iteration_shape(inputs, outs, mask)
    assert str(got.value) == str(want.value)


def test_where_shapes_that_fit():
    assert _ufunc_keywords._iteration_shape((np.ones(4), 1), [np.zeros((3, 4))], W4) == (3, 4)
    assert _ufunc_keywords._iteration_shape((np.ones(4), 1), [None], np.ones((2, 4), bool)) == (2, 4)


def _last_stored(name, a, args, out_dtype):
    """Which output NumPy leaves in memory that both outputs name (0 or 1)."""
    want = getattr(np, name)(a, *args)
    x = np.zeros(a.shape, out_dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        getattr(np, name)(a, *args, out=(x, x), casting="unsafe")
    held = [k for k in (0, 1) if np.array_equal(x, want[k].astype(out_dtype))]
    assert len(held) == 1, (name, a.dtype, out_dtype, held)
    return held[0], want


FLOATS = [np.float16, np.float32, np.float64] + ([BFLOAT16] if BFLOAT16 is not None else [])
INTS = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
ALIAS_CASES = (
    [("divmod", t, None) for t in FLOATS + INTS]
    + [("modf", t, None) for t in FLOATS]
    + [
        ("divmod", np.float64, np.float32),
        ("divmod", np.float32, np.float64),
        ("divmod", np.int64, np.float64),
    ]
    + [("modf", np.float64, np.float32), ("modf", np.float32, np.float16)]
)


def _alias_input(name, dtype):
    # Values whose two results differ everywhere, exact in every type.
    if np.dtype(dtype).kind in "iu":
        return np.array([7, 9, 100, 5], dtype), (np.array(2, dtype),)
    a = np.array([7.5, -3.25, 9.0, 100.5] if name == "divmod" else [2.5, -3.25, 9.75, 100.5], dtype)
    return a, ((np.array(2, dtype),) if name == "divmod" else ())


@pytest.mark.parametrize("name,dtype,out_dtype", ALIAS_CASES, ids=str)
def test_store_order_of_outputs_is_numpys(name, dtype, out_dtype):
    # The order the where= path copies its results in, beside what NumPy's loop leaves (Note [Outputs that share
    # memory] in elementwise.cpp, which the core follows).
    a, args = _alias_input(name, dtype)
    out_dtype = out_dtype or dtype
    last, results = _last_stored(name, a, args, out_dtype)
    outs = [np.zeros(4, out_dtype)] * 2
    assert list(_ufunc_keywords._write_order(getattr(cp, name), results, outs))[-1] == last


# ---- on a device -----------------------------------------------------------------------------------------

P4, E4, I4 = np.array([2, 3, 4, 5]), np.array([2, -1, 3, 0]), np.array([7, -7, 1, 3])
I8, U8 = np.array([1, -2, 100, -128], np.int8), np.array([0, 1, 250, 255], np.uint8)
Z64 = np.zeros(4, np.int64)

POWER_CASES = [
    lambda xp, A: xp.power(A(P4), A(E4), out=A(Z64), where=A(E4 >= 0)),
    lambda xp, A: xp.power(A(P4), A(E4), out=A(np.ones(4, np.int64)), where=[True, False, True, True]),
    lambda xp, A: xp.power(A(I4), -1, out=A(Z64), where=False),
    lambda xp, A: xp.power(A(I4), -1, out=A(Z64), where=A(np.zeros(4, bool))),
    lambda xp, A: xp.power(A(I4), np.int64(-1), out=A(Z64), where=False),
    lambda xp, A: xp.power(A(I8), -1, out=A(np.zeros(4, np.int8)), where=A(np.zeros(4, bool))),
    lambda xp, A: xp.power(A(I8), A(np.array(-1, np.int8)), out=A(np.zeros(4, np.int8)), where=False),
    lambda xp, A: xp.power(2, A(E4), out=A(Z64), where=A(E4 >= 0)),
    lambda xp, A: xp.power(2, -1, out=A(Z64), where=False),
    lambda xp, A: xp.power(
        A(P4), A(E4), out=A(np.zeros((2, 4), np.int64)), where=A(np.array([[True], [False]]))
    ),
    lambda xp, A: xp.power(A(I4), -1, out=A(np.zeros(4)), where=False, dtype=np.float64),
    lambda xp, A: xp.power(A(I4).astype(np.float64), -1, out=A(np.zeros(4)), where=A(W4)),
    # NumPy's errors stay: a masked-in negative exponent, a scalar its loop type cannot hold
    lambda xp, A: xp.power(A(I4), -1, out=A(Z64), where=A(W4)),
    lambda xp, A: xp.power(A(P4), A(E4), out=A(Z64), where=A(np.ones(4, bool))),
    lambda xp, A: xp.power(A(U8), -1, out=A(np.zeros(4, np.uint8)), where=False),
    lambda xp, A: xp.power(A(I8), -200, out=A(np.zeros(4, np.int8)), where=False),
]


@gpu
@pytest.mark.parametrize("call", POWER_CASES)
def test_where_skips_negative_integer_exponents_outside_the_mask(call):
    _same_as_numpy(call)


@gpu
@pytest.mark.parametrize("name,inputs,outs,mask", SHAPE_CASES)
def test_where_shape_errors_on_device(name, inputs, outs, mask):
    def call(xp, A):
        given = [None if o is None else A(o) for o in outs]
        args = [A(x) if isinstance(x, np.ndarray) else x for x in inputs]
        return getattr(xp, name)(*args, out=tuple(given) if len(given) > 1 else given[0], where=A(mask))

    _same_as_numpy(call)


def _lay(x):
    return x.shape, x.strides, x.dtype


LAYOUT_CASES = [
    lambda xp, A: xp.add(A(MF), 1, where=A(MF > 1), out=None),
    lambda xp, A: xp.add(A(M), 1, where=A(M > 1), out=None, order="F"),
    lambda xp, A: xp.add(A(MF), 1, where=A(MF > 1), out=None, order="C"),
    lambda xp, A: xp.sqrt(A(M).T, where=A(M.T > 1), out=None),
    lambda xp, A: xp.sqrt(A(M).T, where=A(np.ascontiguousarray(M.T) > 1), out=None),
    lambda xp, A: xp.add(A(MF), 1, where=A(M > 1), out=None),
    lambda xp, A: xp.add(A(M), 1, where=A(MF > 1), out=None),
    lambda xp, A: xp.add(A(MF), 1, where=A(MF > 1), out=None, order="A"),
    lambda xp, A: xp.add(A(MF), 1, where=A(M > 1), out=None, order="A"),
    lambda xp, A: xp.add(A(MF), 1, where=False, out=None, order="a"),
    lambda xp, A: xp.add(A(MF), 1, where=A(np.array([True, False, True])), out=None),
    lambda xp, A: xp.add(A(MF), 1, where=[[True, False, True], [True, True, False]], out=None),
    lambda xp, A: xp.add(1.0, 1, where=A(MF > 1), out=None),
    lambda xp, A: xp.add(A(np.ones(3)), 1, where=A(np.ones((2, 3), bool)), out=None),
    lambda xp, A: xp.add(A(np.ones(3)), 1, where=A(np.ones((2, 3), bool)), out=None, order="F"),
    lambda xp, A: xp.add(A(MF)[:, :1], 1, where=A(np.asfortranarray(np.ones((2, 3), bool))), out=None),
    lambda xp, A: xp.divmod(A(MF), 2.0, where=A(MF > 1), out=(None, None)),
    lambda xp, A: xp.divmod(A(MF), 2.0, where=A(MF > 1), out=(A(np.zeros((2, 3))), None)),
]


@gpu
@pytest.mark.parametrize("call", LAYOUT_CASES)
def test_where_new_outputs_are_laid_out_as_numpys(call):
    # The mask is one of the operands whose memory order 'K' and 'A' follow; values compared where it holds.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = call(np, lambda a: np.array(a, copy=True))
        got = call(cp, cp.asarray)
    want, got = (want, got) if isinstance(want, tuple) else ((want,), (got,))
    for w, g in zip(want, got):
        assert _lay(g) == _lay(w)


@gpu
def test_where_values_of_new_outputs_where_the_mask_holds():
    for mask in (MF > 2, M > 2, np.array([True, False, True])):
        want = np.add(MF, 1, where=mask, out=None)
        got = cp.asnumpy(cp.add(cp.asarray(MF), 1, where=cp.asarray(mask), out=None))
        sel = np.broadcast_to(mask, want.shape)
        np.testing.assert_array_equal(got[sel], want[sel])


@gpu
@pytest.mark.parametrize("out", [(Z64, Z64), (None, Z64), (Z64, None)], ids=["both", "out1", "out0"])
def test_where_output_cast_error_numbers_outputs_after_inputs(out):
    # NumPy numbers a ufunc's operands inputs first: divmod's outputs are 2 and 3.
    def call(xp, A):
        return xp.divmod(
            A(np.array([1.0, 2.0, 3.0, 4.0])),
            3,
            out=tuple(None if o is None else A(o) for o in out),
            where=A(W4),
        )

    _same_as_numpy(call)
    assert _outcome(cp, call)[2].startswith("Cannot cast ufunc 'divmod' output ")


@gpu
@pytest.mark.parametrize("where", [None, W4], ids=["no mask", "mask"])
@pytest.mark.parametrize("name,dtype,out_dtype", ALIAS_CASES, ids=str)
def test_outputs_that_share_memory_hold_numpys(name, dtype, out_dtype, where):
    a, args = _alias_input(name, dtype)
    out_dtype = out_dtype or dtype

    def call(xp, A):
        x = A(np.full(4, 3, out_dtype))
        keywords = {"casting": "unsafe"} | ({} if where is None else {"where": A(where)})
        getattr(xp, name)(A(a), *[A(v) for v in args], out=(x, x), **keywords)
        return x

    _same_as_numpy(call)


@gpu
def test_outputs_that_share_memory_in_larger_and_strided_arrays():
    a = np.arange(1, 100_001) * 1.25
    for view in (slice(None), slice(None, None, 2), slice(None, None, -1)):
        x, e = cp.zeros(200_000)[view][:100_000], np.zeros(200_000)[view][:100_000]
        cp.divmod(cp.asarray(a), 2.0, out=(x, x))
        np.divmod(a, 2.0, out=(e, e))
        np.testing.assert_array_equal(cp.asnumpy(x), e)
    i, e = cp.zeros(100_000, np.int64), np.zeros(100_000, np.int64)
    cp.divmod(cp.arange(100_000), 7, out=(i, i))
    np.divmod(np.arange(100_000), 7, out=(e, e))
    np.testing.assert_array_equal(cp.asnumpy(i), e)


@gpu
def test_outputs_that_share_memory_in_place_of_the_input():
    a = np.array([7.5, -3.25, 9.0, 100.5])
    x, e = cp.asarray(a), a.copy()
    cp.divmod(x, 2.0, out=(x, x))
    np.divmod(e, 2.0, out=(e, e))
    np.testing.assert_array_equal(cp.asnumpy(x), e)


@gpu
def test_frexp_outputs_on_the_same_bytes_hold_numpys():
    a = np.array([7.5, -3.25, 9.0, 100.5], np.float32)
    x, e = cp.zeros(4, np.float32), np.zeros(4, np.float32)
    cp.frexp(cp.asarray(a), out=(x, x.view(np.int32)))
    np.frexp(a, out=(e, e.view(np.int32)))
    np.testing.assert_array_equal(cp.asnumpy(x), e)


@gpu
def test_outputs_that_overlap_in_part_are_deterministic():
    # Documented (Note [Outputs that share memory]): the output stored last holds all of the overlap; divmod's
    # float loop stores the quotient last.
    a = np.arange(10.0) * 1.3
    x = cp.zeros(11)
    cp.divmod(cp.asarray(a), 2.0, out=(x[1:], x[:-1]))
    q, r = np.divmod(a, 2.0)
    np.testing.assert_array_equal(cp.asnumpy(x), np.concatenate([r[:1], q]))


@gpu
def test_user_kernel_outputs_that_share_memory_hold_the_last():
    k = cp.ElementwiseKernel("T x", "T y, T z", "y = x; z = x + 1", "two_outputs_alias")
    x = cp.zeros(1000)
    k(cp.arange(1000.0), x, x)
    np.testing.assert_array_equal(cp.asnumpy(x), np.arange(1000.0) + 1)
