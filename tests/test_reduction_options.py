"""NumPy's `initial=` and `where=` of the reductions, against NumPy: every reduction that takes them x dtype x
axis x keepdims x mask (full, broadcast, scalar, all false), NaN, empty and 0-d inputs, non-contiguous and
negative strides, out= and dtype=, the array's methods, ufunc.reduce, NumPy's conversions of `initial` and
its errors (Note [Reduction options])."""

import warnings

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, LAYOUTS, NONEMPTY_LAYOUTS, assert_same, dtype_id, make_data

gpu = pytest.mark.gpu

FOLDS = ["sum", "prod", "nansum", "nanprod", "all", "any"]
EXTREMA = ["max", "min", "nanmax", "nanmin"]
MOMENTS = ["mean", "var", "std", "nanmean", "nanvar", "nanstd"]
AXES = [None, 0, -1, (0, 2), ()]


def _tol(dtype, name):
    t = np.dtype(dtype)
    if name in EXTREMA + ["all", "any"] or (t.kind in "biu" and name not in MOMENTS):
        return {}
    if t == np.float16 or (name in MOMENTS and t.kind in "biu"):
        return {"rtol": 4e-3, "atol": 1e-2} if t == np.float16 else {"rtol": 1e-11, "atol": 1e-11}
    if t in (np.float32, np.complex64):
        return {"rtol": 2e-5, "atol": 1e-4}
    return {"rtol": 1e-11, "atol": 1e-11}


def _data(shape, dtype, name, seed=0):
    a = make_data(shape, dtype, seed)
    if "prod" in name and a.dtype.kind in "fc":
        a = (1 + a / 256).astype(a.dtype)  # products stay finite
    if (
        a.dtype.kind == "f" and a.size > 3
    ):  # (complex NaN: which one max keeps differs, docs/numerical-differences)
        a.flat[3] = np.nan  # a NaN kept by some masks and left out by others
    return a


def _masks(shape):
    rng = np.random.default_rng(7)
    full = rng.random(shape) < 0.6
    return {
        "full": full,
        "broadcast": full[0, 0],  # the last axis alone
        "column": rng.random(shape[:-1] + (1,)) < 0.5,
        "false": False,
        "none kept": np.zeros(shape, bool),
    }


def _compare(name, a, call, **tol):
    """call(np, a) against call(cp, device a): the same values, dtype and shape, or the same error type."""
    __tracebackhide__ = True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            want = call(np, a)
        except (ValueError, TypeError, OverflowError) as e:
            with pytest.raises(type(e)):
                call(cp, a)
            return
        got = call(cp, a)
    assert_same(got, np.asarray(want), **tol)


def _on(xp, a, mask):
    """a and mask on xp's side."""
    if xp is np:
        return a, mask
    return cp.asarray(a), mask if isinstance(mask, bool) else cp.asarray(mask)


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", FOLDS + EXTREMA + MOMENTS)
def test_where_over_every_axis_and_mask(name, dtype):
    if name in ("nanmean", "nanvar", "nanstd") and np.dtype(dtype).kind == "b":
        pytest.skip("NumPy's nan-statistics reject bool")
    a = _data((3, 4, 5), dtype, name)
    start = {"initial": a.flat[1]} if name in EXTREMA else {}
    for mask in _masks(a.shape).values():
        for axis in AXES:
            for keepdims in (False, True):

                def call(xp, a, mask=mask, axis=axis, keepdims=keepdims):
                    x, m = _on(xp, a, mask)
                    return getattr(xp, name)(x, axis=axis, keepdims=keepdims, where=m, **start)

                _compare(name, a, call, **_tol(dtype, name))


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", ["sum", "prod", "nansum", "nanprod"] + EXTREMA)
def test_initial_over_every_axis(name, dtype):
    a = _data((3, 4, 5), dtype, name)
    for initial in (5, a.flat[2], 2.5, np.int64(300), None):
        for axis in AXES:

            def call(xp, a, initial=initial, axis=axis):
                return getattr(xp, name)(xp.asarray(a), axis=axis, initial=initial)

            _compare(name, a, call, **_tol(dtype, name))


@gpu
@pytest.mark.parametrize(
    "initial",
    [300, -1, 2**64, 2.5, -2.5, 1j, np.int64(300), np.float64(1e6), np.nan, True, None, [3], np.array(4)],
    ids=repr,
)
@pytest.mark.parametrize("name", ["sum", "max", "nanmin", "prod"])
@pytest.mark.parametrize("dtype", ["uint8", "int8", "uint64", "float16", "float32", "bool", "complex64"])
def test_initial_is_converted_as_numpy_converts_it(name, dtype, initial):
    a = np.array([1, 0, 3], dtype)

    def call(xp, a):
        return getattr(xp, name)(xp.asarray(a), initial=initial)

    _compare(name, a, call, **_tol(dtype, name))


@gpu
@pytest.mark.parametrize(
    "name", ["sum", "prod", "max", "min", "nanmax", "all", "any", "mean", "var", "nanstd"]
)
@pytest.mark.parametrize(
    "shape, axis", [((0,), None), ((0, 3), 0), ((0, 3), 1), ((3, 0), 1), ((0, 0), 0), ((), None)]
)
def test_empty_and_zero_d_inputs(name, shape, axis):
    a = np.zeros(shape, np.float32)
    start = {"initial": -7.0} if name in EXTREMA else {}
    for mask in (True, False, np.ones(shape, bool)):

        def call(xp, a, mask=mask):
            x, m = _on(xp, a, mask)
            return getattr(xp, name)(x, axis=axis, where=m, **start)

        _compare(name, a, call)


@gpu
@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS)
@pytest.mark.parametrize("name", ["sum", "max", "mean", "var", "all", "nansum"])
def test_strided_inputs_and_masks(layout, name):
    shape, view = LAYOUTS[layout]
    base = _data(shape, np.float64, name)
    mask_base = np.random.default_rng(3).random(shape) < 0.5
    a, m = view(base), view(mask_base)
    x, d = view(cp.asarray(base)), view(cp.asarray(mask_base))
    start = {"initial": -100.0} if name == "max" else {}
    for axis in [None, 0, -1]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = getattr(np, name)(a, axis=axis, where=m, **start)
            got = getattr(cp, name)(x, axis=axis, where=d, **start)
        assert_same(got, np.asarray(want), **_tol(np.float64, name))
    np.testing.assert_array_equal(x.get(), a)  # the inputs are left as they were
    np.testing.assert_array_equal(d.get(), m)


@gpu
@pytest.mark.parametrize("name", ["sum", "mean", "max", "var"])
def test_out_and_dtype(name):
    a = _data((4, 5), np.float64, name)
    mask = np.random.default_rng(1).random(5) < 0.5
    start = {"initial": 0.5}
    if name in ("mean", "var"):
        start = {}
    if name == "sum":  # NumPy converts `initial` into out's type, then sums in the input's: 1.5 + 2 + 0 is 3
        got = cp.zeros((), np.int64)
        cp.sum(cp.asarray([1.5, 2.0]), out=got, initial=0.5)
        assert int(got) == np.sum(np.array([1.5, 2.0]), out=np.zeros((), np.int64), initial=0.5) == 3
    for out_dtype in (np.float64, np.float32, np.int64):
        want = np.full(4, 9, out_dtype)
        got = cp.asarray(want)
        np_r = getattr(np, name)(a, axis=1, out=want, where=mask, **start)
        cp_r = getattr(cp, name)(cp.asarray(a), axis=1, out=got, where=cp.asarray(mask), **start)
        assert np_r is want and cp_r is got
        assert_same(got, want, rtol=1e-6)
    if name != "max":
        for dtype in (np.float32, np.complex128):
            want = getattr(np, name)(a, axis=0, dtype=dtype, where=mask)
            assert_same(
                getattr(cp, name)(cp.asarray(a), axis=0, dtype=dtype, where=cp.asarray(mask)), want, rtol=1e-6
            )
    with pytest.raises(ValueError):
        getattr(cp, name)(cp.asarray(a), axis=1, out=cp.zeros(5), where=cp.asarray(mask), **start)


@gpu
def test_integer_dtype_moments_truncate_as_numpy():
    a = np.array([1, 2, 4, 7])
    mask = np.array([True, True, True, False])
    for name in ("mean", "var", "std"):
        want = getattr(np, name)(a, dtype=np.int32, where=mask)
        assert_same(getattr(cp, name)(cp.asarray(a), dtype=np.int32, where=cp.asarray(mask)), want)


@gpu
@pytest.mark.parametrize("name", ["mean", "nanmean", "var", "nanvar"])
def test_moments_warn_as_numpy(name):
    a = np.array([[1.0, np.nan], [2.0, 3.0]])
    mask = np.array([[False, False], [True, True]])  # row 0 keeps nothing
    with warnings.catch_warnings(record=True) as want:
        warnings.simplefilter("always")
        getattr(np, name)(a, axis=1, where=mask, ddof=1) if "var" in name else getattr(np, name)(
            a, axis=1, where=mask
        )
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        x, m = cp.asarray(a), cp.asarray(mask)
        getattr(cp, name)(x, axis=1, where=m, ddof=1) if "var" in name else getattr(cp, name)(
            x, axis=1, where=m
        )
    ours = {str(w.message) for w in got if issubclass(w.category, RuntimeWarning)}
    theirs = {str(w.message) for w in want if issubclass(w.category, RuntimeWarning)}
    # NumPy's divide may also warn of the 0/0 it computes; the slice's warning is what both say
    assert ours and ours <= theirs, (ours, theirs)


@gpu
@pytest.mark.parametrize("dtype", ["int16", "float32", "bool"])
def test_methods_take_initial_and_where(dtype):
    a = _data((3, 4), dtype, "sum")
    mask = np.random.default_rng(2).random((3, 4)) < 0.5
    x, m = cp.asarray(a), cp.asarray(mask)
    assert_same(x.sum(where=m), a.sum(where=mask), rtol=1e-6)
    assert_same(x.sum(1, None, None, True, 3), a.sum(1, None, None, True, 3), rtol=1e-6)  # positional initial
    assert_same(x.prod(axis=0, initial=2, where=m), a.prod(axis=0, initial=2, where=mask), rtol=1e-6)
    assert_same(x.max(axis=1, initial=a.flat[0], where=m), a.max(axis=1, initial=a.flat[0], where=mask))
    assert_same(x.min(initial=a.flat[0]), a.min(initial=a.flat[0]))
    assert_same(x.all(axis=0, where=m), a.all(axis=0, where=mask))
    assert_same(x.any(where=m), a.any(where=mask))
    assert_same(x.mean(axis=1, where=m), a.mean(axis=1, where=mask), rtol=1e-6)
    assert_same(x.std(where=m, ddof=1), a.std(where=mask, ddof=1), rtol=1e-6)
    assert_same(x.sum(where=True), a.sum(where=True), rtol=1e-6)
    with pytest.raises(TypeError, match="unexpected keyword argument 'initial'"):
        x.all(initial=True)
    with pytest.raises(ValueError, match="does not have an identity"):
        x.max(where=m)


@gpu
def test_ufunc_reduce_takes_initial_and_where():
    a = np.array([[1, 2, 3], [4, 5, 6]], np.uint8)
    mask = np.array([True, False, True])
    x, m = cp.asarray(a), cp.asarray(mask)
    assert_same(cp.add.reduce(x, initial=5), np.add.reduce(a, initial=5))
    assert_same(cp.add.reduce(x, axis=1, where=m), np.add.reduce(a, axis=1, where=mask))
    assert_same(cp.multiply.reduce(x, axis=None, initial=3), np.multiply.reduce(a, axis=None, initial=3))
    assert_same(
        cp.maximum.reduce(x, axis=1, initial=4, where=m), np.maximum.reduce(a, axis=1, initial=4, where=mask)
    )
    assert_same(
        cp.minimum.reduce(x, initial=2, dtype=np.int16), np.minimum.reduce(a, initial=2, dtype=np.int16)
    )
    b = np.array([True, True])
    assert_same(cp.logical_and.reduce(cp.asarray(b), initial=False), np.logical_and.reduce(b, initial=False))
    assert_same(cp.logical_or.reduce(cp.asarray(~b), initial=True), np.logical_or.reduce(~b, initial=True))
    with pytest.raises(ValueError, match="zero-size array to reduction operation add which has no identity"):
        cp.add.reduce(cp.zeros(0), initial=None)
    # subtract has no reduction row: a fold (cuarray/_fold.py), with the same options.
    assert_same(cp.subtract.reduce(x, initial=3), np.subtract.reduce(a, initial=3))
    assert_same(
        cp.subtract.reduce(x, axis=1, initial=3, where=m),
        np.subtract.reduce(a, axis=1, initial=3, where=mask),
    )


@gpu
def test_bad_masks_raise_numpys_errors():
    a = np.ones((2, 3))
    x = cp.asarray(a)
    for mask in (np.array([1, 0, 1]), np.array([1.0, 0.0, 1.0])):
        with pytest.raises(TypeError) as want:
            np.sum(a, where=mask)
        with pytest.raises(TypeError) as got:
            cp.sum(x, where=cp.asarray(mask))
        assert str(got.value) == str(want.value)
    for mask in (np.ones(2, bool), np.ones((3, 2, 3), bool)):  # does not broadcast to a's shape
        with pytest.raises(ValueError):
            np.sum(a, where=mask)
        with pytest.raises(ValueError, match="does not broadcast"):
            cp.sum(x, where=cp.asarray(mask))
    with pytest.raises(TypeError, match="cuarray.asarray"):  # host masks are refused, as host operands are
        cp.sum(x, where=np.ones(3, bool))
    with pytest.raises(TypeError, match="unexpected keyword argument 'initial'"):
        cp._reduction_options.reduce("mean", x, initial=1)
    with pytest.raises(ValueError, match="'maximum' does not have an identity"):
        cp.max(x, where=cp.ones(3, bool))
    with pytest.raises(ValueError, match="'fmin' does not have an identity"):
        cp.nanmin(x, where=cp.ones(3, bool), initial=None)


@gpu
def test_fused_function_with_options_runs_op_by_op():
    # One kernel cannot take them: the function runs as written, with the options honoured.
    a = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]])
    mask = np.array([True, False, True])
    f = cp.fuse(lambda x, m: cp.sum(x, axis=1, initial=1.5, where=m) + cp.max(x, initial=0.0, where=m))
    want = np.sum(a, axis=1, initial=1.5, where=mask) + np.max(a, initial=0.0, where=mask)
    assert_same(f(cp.asarray(a), cp.asarray(mask)), want)


@gpu
@pytest.mark.parametrize("dtype", ["int16", "float16", "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
def test_var_takes_its_mean(name, dtype):
    # NumPy 2's mean=: the mean over the same axes with keepdims, used in place of computing it
    a = _data((3, 4, 5), dtype, name)
    mask = _masks(a.shape)["full"]
    for axis in (None, 1, (0, 2)):
        for where in (True, mask):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                m = (
                    np.nanmean(a, axis=axis, keepdims=True, where=where)
                    if "nan" in name
                    else a.mean(axis, keepdims=True)
                )
                want = getattr(np, name)(a, axis=axis, mean=m, where=where, ddof=1)
                x, d = _on(cp, a, where)
                got = getattr(cp, name)(x, axis=axis, mean=cp.asarray(m), where=d, ddof=1)
            assert_same(got, np.asarray(want), **_tol(dtype, name))
    shifted = a.mean(axis=1, keepdims=True) + 1  # a mean that is not the mean: the deviations from it
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(np, name)(a, axis=1, mean=shifted)
        got = getattr(cp, name)(cp.asarray(a), axis=1, mean=cp.asarray(shifted))
    assert_same(got, np.asarray(want), **_tol(dtype, name))


@gpu
@pytest.mark.parametrize(
    "call",
    [
        lambda xp: xp.sum(xp.asarray([1.0, 3.0, 2.0]), where=xp.asarray([True, False, True]), initial=None),
        lambda xp: xp.max(xp.asarray([1.0, 3.0, 2.0]), where=xp.asarray([True, False, True]), initial=None),
        lambda xp: xp.add.reduce(xp.asarray([1.0, 3.0]), where=xp.asarray([True, False]), initial=None),
        lambda xp: xp.logical_and.reduce(xp.asarray([True, False]), dtype=np.int64),
        lambda xp: xp.logical_or.reduce(xp.asarray([True, False]), dtype=np.float64),
        lambda xp: xp.argmax(xp.asarray([1.0, 3.0, 2.0]), out=xp.zeros((), np.float64)),
        lambda xp: xp.argmin(xp.asarray([1.0, 3.0, 2.0]), out=xp.zeros((), np.uint64)),
        lambda xp: xp.argmax(xp.asarray([[1.0, 3.0], [2.0, 0.0]]), axis=0, out=xp.zeros(2, np.float64)),
        lambda xp: xp.argmax(xp.asarray([[1.0, 3.0], [2.0, 0.0]]), axis=0, out=xp.zeros(3, np.float64)),
    ],
)
def test_option_errors_are_numpys(call):
    # initial=None takes the identity away (a where mask then needs one); logical_and/or reduce in bool alone;
    # argmax's out must take int64 safely.
    with pytest.raises(Exception) as want:
        call(np)
    with pytest.raises(type(want.value)) as got:
        call(cp)
    assert str(got.value) == str(want.value)


@gpu
def test_argmax_into_outs_numpy_takes():
    for dt in (np.int32, np.int16, np.bool_, np.int64):
        o_np, o_cp = np.zeros((), dt), cp.zeros((), dt)
        np.argmax(np.array([1.0, 3.0, 2.0]), out=o_np)
        assert cp.argmax(cp.asarray([1.0, 3.0, 2.0]), out=o_cp) is o_cp
        assert o_cp.dtype == o_np.dtype and o_cp.item() == o_np.item()


# ---- out='s dtype takes part in the loop (Note [Reductions into out]) ---------------------------------------

# (reduction, data, out dtype): each row's value differs when the loop ignores out's dtype (float32 sums that
# cancel, int64 products past 2**63, float16 sums past float16's range)
_CANCELS = np.array([1e8, 1, -1e8, 3], np.float32)
_INTO_OUT = [
    ("sum", _CANCELS, np.float64),
    ("nansum", np.array([1e8, np.nan, 1, -1e8], np.float32), np.float64),
    ("mean", _CANCELS, np.float64),
    ("nanmean", np.array([1e8, np.nan, 1, -1e8], np.float32), np.float64),
    ("prod", np.array([2**40, 2**40, 3], np.int64), np.float64),
    ("nanprod", np.array([2**40, 2**40], np.int64), np.float64),
    ("sum", np.array([60000, 60000], np.float16), np.float32),
    ("sum", np.array([100, 100, 7], np.int8), np.int8),
    ("sum", np.array([True, True, False]), np.bool_),
    ("prod", np.array([True, False]), np.bool_),
    ("sum", np.array([2**62, 2**62, 2**62], np.int64), np.float64),
    ("sum", (_CANCELS + 1j * _CANCELS).astype(np.complex64), np.complex128),
    ("mean", np.array([7, 8], np.int16), np.int16),
]


@gpu
@pytest.mark.parametrize("name,data,out_dtype", _INTO_OUT, ids=lambda v: getattr(v, "__name__", None))
@pytest.mark.parametrize("how", ["function", "method", "initial", "where"])
def test_out_dtype_takes_part_in_the_loop_as_numpys(name, data, out_dtype, how):
    def call(xp, a, out):
        if how == "method" and hasattr(a, name):
            return getattr(a, name)(out=out)
        kw = {}
        if how == "initial" and "mean" not in name:
            kw["initial"] = 0.5 if np.dtype(out_dtype).kind in "fc" else 1
        if how == "where":
            kw["where"] = xp.asarray(np.arange(a.size) != 1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return getattr(xp, name)(a, out=out, **kw)

    want_out, got_out = np.zeros((), out_dtype), cp.zeros((), out_dtype)
    want = call(np, data, want_out)
    assert call(cp, cp.asarray(data), got_out) is got_out
    assert_same(got_out, np.asarray(want))


@gpu
def test_extrema_and_add_reduce_into_a_wider_out_as_numpys():
    # max's loop with out= is maximum(out, a): initial=1000 into int64 keeps 1000 where int8 could not hold it
    a = np.array([1, 2], np.int8)
    want = np.max(a, out=np.zeros((), np.int64), initial=1000)
    got = cp.zeros((), np.int64)
    cp.max(cp.asarray(a), out=got, initial=1000)
    assert_same(got, np.asarray(want))
    want = np.add.reduce(_CANCELS, out=np.zeros((), np.float64))
    got = cp.zeros((), np.float64)
    assert cp.add.reduce(cp.asarray(_CANCELS), out=got) is got
    assert_same(got, np.asarray(want))
    x = np.arange(12, dtype=np.float32).reshape(3, 4) * 1e7
    want = np.sum(x[:, ::-2], axis=0, out=np.zeros(2, np.float64))
    got = cp.zeros(2, np.float64)
    cp.sum(cp.asarray(x)[:, ::-2], axis=0, out=got)
    assert_same(got, want)


@gpu
@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd"])
def test_nan_moments_of_inexact_data_take_inexact_out_and_dtype(name):
    a = np.array([1.5, np.nan], np.float64)
    for kw_np, kw_cp in (
        ({"dtype": np.int64}, {"dtype": np.int64}),
        ({"out": np.zeros((), np.int64)}, {"out": cp.zeros((), np.int64)}),
    ):
        with pytest.raises(TypeError) as want:
            getattr(np, name)(a, **kw_np)
        with pytest.raises(TypeError) as got:
            getattr(cp, name)(cp.asarray(a), **kw_cp)
        assert str(got.value) == str(want.value)
    got = cp.zeros((), np.float32)  # an inexact out of another type is taken
    getattr(cp, name)(cp.asarray(a), out=got)
    assert_same(got, np.asarray(getattr(np, name)(a, out=np.zeros((), np.float32))))


@gpu
def test_float16_mean_into_a_float32_out_is_not_rounded_to_float16():
    a = np.array([1.0, 2.0, 2.0], np.float16)  # 5/3 rounds in float16
    for where in (None, np.array([True, True, True])):
        kw_np, kw_cp = ({}, {}) if where is None else ({"where": where}, {"where": cp.asarray(where)})
        want = np.mean(a, out=np.zeros((), np.float32), **kw_np)
        got = cp.zeros((), np.float32)
        cp.mean(cp.asarray(a), out=got, **kw_cp)
        assert_same(got, np.asarray(want), rtol=1e-6)


@gpu
@pytest.mark.parametrize("out_dtype", [np.int64, np.int8, np.bool_, np.uint16])
def test_std_into_an_integer_out_is_numpys_sqrt_error(out_dtype):
    # NumPy's std takes the square root in place, sqrt(out, out=out); var into the same out is fine.
    a = np.arange(5.0)
    with pytest.raises(TypeError) as want:
        np.std(a, out=np.zeros((), out_dtype))
    with pytest.raises(TypeError) as got:
        cp.std(cp.asarray(a), out=cp.zeros((), out_dtype))
    assert str(got.value) == str(want.value)
    got = cp.zeros((), out_dtype)
    cp.var(cp.asarray(a), out=got)
    assert_same(got, np.asarray(np.var(a, out=np.zeros((), out_dtype))))
