"""Reductions against NumPy: every reduction x dtype x axis (None, int, negative, tuple, ()), keepdims, layouts
(non-contiguous, negative strides, 0-d, empty), NaNs, large sizes that take the split and vectorised paths,
determinism, out= and dtype=, and the error cases."""

import warnings

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, FLOAT_DTYPES, LAYOUTS, NONEMPTY_LAYOUTS, assert_same, dtype_id, make_data

pytestmark = pytest.mark.gpu

AXES = [None, 0, -1, 1, (0, 2), (2, 0), (), (0, 1, 2)]
SUMS = ["sum", "prod", "mean", "nansum", "nanprod", "nanmean"]
EXTREMA = ["max", "min", "nanmax", "nanmin", "ptp"]
SPREADS = ["var", "std", "nanvar", "nanstd"]
LOGICAL = ["all", "any", "count_nonzero"]
ARGS = ["argmax", "argmin"]


def _tol(dtype, name):
    t = np.dtype(dtype)
    if name in EXTREMA + LOGICAL + ARGS or (
        t.kind in "biu" and name not in ("mean", "nanmean") + tuple(SPREADS)
    ):
        return {}
    if t == np.float16:
        return {"rtol": 4e-3, "atol": 1e-2}
    if t.kind in "fc" and t.itemsize <= 8 and t != np.complex128:
        return {"rtol": 2e-5, "atol": 1e-5}
    return {"rtol": 1e-11, "atol": 1e-11}


def _data(shape, dtype, name, seed=0):
    a = make_data(shape, dtype, seed)
    if "prod" in name and a.dtype.kind in "fc":
        a = (1 + a / 256).astype(a.dtype)  # products of many values stay finite
    return a


def _check(name, a_np, axis, keepdims=False, **kw):
    fn_np, fn_cp = getattr(np, name), getattr(cp, name)
    kwargs = dict(kw)
    if name != "count_nonzero" or keepdims:
        kwargs["keepdims"] = keepdims
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            expected = fn_np(a_np, axis=axis, **kwargs)
        except (ValueError, TypeError) as e:
            with pytest.raises(type(e)):
                fn_cp(cp.asarray(a_np), axis=axis, **kwargs)
            return
        got = fn_cp(cp.asarray(a_np), axis=axis, **kwargs)
    expected = np.asarray(expected)
    if name == "count_nonzero":
        expected = expected.astype(np.int64)
    assert_same(got, expected, **_tol(a_np.dtype, name))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", SUMS + EXTREMA + SPREADS + LOGICAL)
def test_reduction_over_every_axis_choice(name, dtype):
    if name.startswith("nan") and np.dtype(dtype).kind in "b" and name in ("nanvar", "nanstd", "nanmean"):
        pytest.skip("NumPy's nan-statistics reject bool")
    a = _data((3, 4, 5), dtype, name)
    for axis in AXES:
        for keepdims in (False, True):
            _check(name, a, axis, keepdims)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", ARGS)
def test_argmax_argmin_over_each_axis(name, dtype):
    a = _data((3, 4, 5), dtype, name)
    a.flat[7] = a.flat[30]  # ties: the first index wins
    for axis in (None, 0, 1, 2, -1):
        for keepdims in (False, True):
            _check(name, a, axis, keepdims)


@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS + ["0d"])
@pytest.mark.parametrize("name", ["sum", "max", "argmax", "mean", "var", "any", "prod"])
@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex128], ids=dtype_id)
def test_reductions_on_every_layout(name, layout, dtype):
    shape, view = LAYOUTS[layout]
    base = _data(shape, dtype, name)
    x, a = view(cp.asarray(base)), view(base)
    for axis in [None] + list(range(a.ndim)) + ([tuple(range(a.ndim))] if a.ndim > 1 else []):
        if name == "argmax" and isinstance(axis, tuple):
            continue
        expected = np.asarray(getattr(np, name)(a, axis=axis))
        assert_same(getattr(cp, name)(x, axis=axis), expected, **_tol(dtype, name))


@pytest.mark.parametrize("name", ["sum", "max", "mean", "var", "any", "all", "count_nonzero", "nansum"])
def test_empty_inputs_follow_numpy(name):
    for shape, axis in [((0,), None), ((0, 3), 0), ((0, 3), 1), ((3, 0), 1), ((2, 0, 4), (0, 2)), ((), None)]:
        a = np.zeros(shape, np.float32)
        _check(name, a, axis)


def test_empty_reduction_without_identity_is_numpys_value_error():
    with pytest.raises(
        ValueError, match="zero-size array to reduction operation maximum which has no identity"
    ):
        cp.max(cp.zeros((0, 3)), axis=0)
    with pytest.raises(ValueError, match="zero-size array to reduction operation minimum"):
        cp.zeros(0).min()
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        cp.argmax(cp.zeros(0))
    assert cp.max(cp.zeros((3, 0)), axis=0).shape == (0,)  # no output element: nothing to reduce
    # NumPy refuses these although the result is empty too: the reduced length is zero.
    for shape, axis in [((0, 0), 0), ((2, 0, 0), (1,)), ((0, 0), (0, 1))]:
        with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
            cp.max(cp.zeros(shape), axis=axis)
    with pytest.raises(ValueError, match="attempt to get argmin of an empty sequence"):
        cp.argmin(cp.zeros((0, 0)), axis=0)


def test_mean_of_empty_warns_and_is_nan():
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        r = cp.mean(cp.zeros(0))
    assert np.isnan(r.get())


def test_var_with_no_degrees_of_freedom_warns():
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        r = cp.var(cp.ones(2), ddof=2)
    assert np.isinf(r.get()) or np.isnan(r.get())


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + [np.dtype(np.complex64)], ids=dtype_id)
@pytest.mark.parametrize(
    "name",
    [
        "sum",
        "max",
        "min",
        "argmax",
        "argmin",
        "mean",
        "var",
        "nansum",
        "nanmax",
        "nanmin",
        "nanargmax",
        "nanargmin",
        "nanmean",
        "nanvar",
        "nanstd",
        "nanprod",
    ],
)
def test_nan_handling(name, dtype):
    a = _data((6, 7), dtype, name)
    a[1, 3] = np.nan
    a[4, :] = np.nan  # an all-NaN row
    a[2, 5] = np.nan
    for axis in (None, 0, 1):
        if name.startswith("nanarg") and axis == 1:
            with pytest.raises(ValueError, match="All-NaN slice encountered"):
                getattr(cp, name)(cp.asarray(a), axis=axis)
            continue
        _check(name, a, axis)
    if name.startswith("nanarg"):
        with pytest.raises(ValueError, match="All-NaN slice encountered"):
            getattr(cp, name)(cp.full(5, np.nan, dtype))


@pytest.mark.parametrize("n", [1, 3, 31, 1000, 4097, 1 << 20, (1 << 22) + 5])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.float16, np.int8], ids=dtype_id)
def test_full_reductions_of_many_sizes(n, dtype):
    a = make_data(n, dtype, seed=n)
    x = cp.asarray(a)
    # float16 accumulates in float32 (more accurately than NumPy's own float16 sum): compare with that.
    wide = a.astype(np.float32) if a.dtype == np.float16 else a
    narrow = (lambda r: np.asarray(r).astype(np.float16)) if a.dtype == np.float16 else (lambda r: r)
    assert_same(cp.sum(x), narrow(np.sum(wide)), **_tol(dtype, "sum"))
    assert_same(cp.max(x), np.max(a))
    assert_same(cp.argmin(x), np.argmin(a))
    assert_same(
        x[1:].sum(), narrow(wide[1:].sum()), **_tol(dtype, "sum")
    )  # misaligned start: the scalar path
    if np.dtype(dtype).kind == "f":
        assert_same(cp.var(x), narrow(np.var(wide)), **_tol(dtype, "var"))


@pytest.mark.parametrize(
    "shape", [(4097, 33), (33, 4097), (2, 1 << 19), (1 << 19, 2), (1000, 1000), (7, 3, 1 << 16)]
)
def test_row_and_column_reductions_of_many_shapes(shape):
    a = make_data(shape, np.float32, seed=len(shape))
    x = cp.asarray(a)
    for axis in range(len(shape)):
        assert_same(x.sum(axis=axis), a.sum(axis=axis), rtol=2e-5, atol=1e-3)
        assert_same(x.argmax(axis=axis), a.argmax(axis=axis))
    assert_same(x.T.sum(axis=0), a.T.sum(axis=0), rtol=2e-5, atol=1e-3)


def test_results_are_deterministic():
    rng = np.random.default_rng(1)
    a = cp.asarray(rng.standard_normal(10_000_019).astype(np.float32))
    b = cp.asarray(rng.standard_normal((4099, 2051)).astype(np.float32))
    for f in (
        lambda: a.sum(),
        lambda: a.var(),
        lambda: b.sum(axis=0),
        lambda: b.sum(axis=1),
        lambda: b.mean(),
    ):
        r1, r2 = f().get(), f().get()
        assert r1.tobytes() == r2.tobytes()


def test_int_sums_accumulate_in_int64_and_float16_in_float32():
    a = np.full(100_000, 100, np.int8)
    assert_same(cp.sum(cp.asarray(a)), np.sum(a))  # 10,000,000 does not fit int8
    h = np.full(20_000, 1, np.float16)
    r = cp.sum(cp.asarray(h))
    assert r.dtype == np.float16 and float(r.get()) == 20000.0  # float16 alone would stall at 2048
    assert cp.mean(cp.asarray(np.arange(5, dtype=np.int32))).dtype == np.float64


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "nansum"])
@pytest.mark.parametrize(
    "dtype", [np.float16, np.float32, np.float64, np.int64, np.bool_, np.complex64], ids=dtype_id
)
@pytest.mark.parametrize("cdtype", [np.complex64, np.complex128], ids=dtype_id)
def test_complex_reduced_in_a_real_dtype_warns_as_numpy(name, dtype, cdtype):
    # dtype= making a complex array's loop real drops the imaginary parts: NumPy's ComplexWarning (not for
    # bool or complex loops), and its values (the real parts').
    a = (make_data((4, 5), np.float32) + 1j * make_data((4, 5), np.float32, seed=1)).astype(cdtype)
    results = []
    for xp, x in ((np, a), (cp, cp.asarray(a))):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            results.append(getattr(xp, name)(x, axis=1, dtype=dtype))
        results.append([type(e.message) for e in w if issubclass(e.category, np.exceptions.ComplexWarning)])
    (want, want_warnings, got, got_warnings) = results
    assert got_warnings == want_warnings and len(got_warnings) <= 1
    assert got.dtype == want.dtype
    if (
        np.dtype(dtype).kind in "fc" and np.dtype(dtype) != np.float16
    ):  # float16 and int sums round their own way
        assert_same(got, want, rtol=1e-5)


def test_dtype_and_out_arguments():
    a = make_data((5, 6), np.int32)
    x = cp.asarray(a)
    assert_same(cp.sum(x, axis=0, dtype=np.float32), np.sum(a, axis=0, dtype=np.float32))
    assert_same(cp.mean(x, axis=1, dtype=np.float32), np.mean(a, axis=1, dtype=np.float32))
    out = cp.zeros(6, np.float64)
    r = cp.sum(x, axis=0, out=out)
    assert r is out
    assert_same(out, np.sum(a, axis=0).astype(np.float64))
    out2 = cp.zeros((1, 6), np.int64)
    cp.max(x, axis=0, keepdims=True, out=out2)
    assert_same(out2, np.max(a, axis=0, keepdims=True).astype(np.int64))
    with pytest.raises(ValueError, match="wrong shape"):
        cp.sum(x, axis=0, out=cp.zeros(5))


def test_out_overlapping_the_input_is_computed_first():
    a = make_data((4, 5), np.float64)
    x = cp.asarray(a)
    cp.sum(x, axis=0, out=x[0])
    a[0] = a.sum(axis=0)
    assert_same(x, a)


def test_methods_match_functions():
    a = make_data((4, 5), np.float32)
    x = cp.asarray(a)
    for name in ("sum", "prod", "max", "min", "mean", "var", "std", "argmax", "argmin", "all", "any"):
        expected = getattr(a, name)(axis=1)
        assert_same(getattr(x, name)(axis=1), expected, **_tol(np.float32, name))
    assert_same(x.ptp(axis=0), np.ptp(a, axis=0))
    assert_same(x.std(ddof=1), a.std(ddof=1), rtol=1e-5)


def test_methods_take_numpys_parameters_positionally_and_by_keyword():
    a = make_data((4, 5), np.int32)
    x = cp.asarray(a)
    assert_same(x.sum(1, np.float64, None, True), a.sum(1, np.float64, None, True))
    assert_same(x.prod(axis=0, dtype=np.int64), a.prod(axis=0, dtype=np.int64))
    assert_same(x.max(0, None, True), a.max(0, None, True))
    assert_same(x.any(keepdims=1, axis=1), a.any(keepdims=1, axis=1))
    out = cp.zeros(5, np.int32)
    assert x.min(0, out) is out
    assert_same(out, a.min(0))
    assert_same(x.sum(0, None, None, False, 7), a.sum(0, None, None, False, 7))  # initial, as NumPy's
    with pytest.raises(TypeError, match="unexpected keyword argument 'initial'"):
        x.all(initial=0)
    with pytest.raises(TypeError, match="multiple values for argument 'axis'"):
        x.max(0, axis=1)
    with pytest.raises(TypeError, match=r"at most 3 positional arguments \(4 given\)"):
        x.all(0, None, False, 1)


def test_var_std_ddof_and_complex():
    a = make_data((5, 8), np.complex64)
    for ddof in (0, 1, 3):
        assert_same(
            cp.var(cp.asarray(a), axis=1, ddof=ddof), np.var(a, axis=1, ddof=ddof), rtol=1e-5, atol=1e-4
        )
        assert_same(cp.std(cp.asarray(a), ddof=ddof), np.std(a, ddof=ddof), rtol=1e-5)


def test_average_with_and_without_weights():
    a = make_data((4, 5), np.float64)
    w = np.abs(make_data(5, np.float64, seed=3)) + 1
    x, xw = cp.asarray(a), cp.asarray(w)
    assert_same(cp.average(x), np.average(a))
    assert_same(cp.average(x, axis=1, weights=xw), np.average(a, axis=1, weights=w))
    avg, scale = cp.average(x, axis=1, weights=xw, returned=True)
    e_avg, e_scale = np.average(a, axis=1, weights=w, returned=True)
    assert_same(avg, e_avg)
    assert_same(scale, e_scale)
    assert_same(
        cp.average(cp.asarray(np.arange(6).reshape(2, 3)), axis=0),
        np.average(np.arange(6).reshape(2, 3), axis=0),
    )
    with pytest.raises(ZeroDivisionError):
        cp.average(x, axis=1, weights=cp.zeros(5))
    with pytest.raises(TypeError, match="Axis must be specified"):
        cp.average(x, weights=xw)


def test_vdot_and_1d_dot_as_reductions():
    from cuarray._reduction import _dot_1d

    a, b = make_data(1001, np.float32), make_data(1001, np.float32, seed=1)
    assert_same(_dot_1d(cp.asarray(a), cp.asarray(b)), np.dot(a, b), rtol=1e-5)
    c, d = make_data((3, 4), np.complex128), make_data((4, 3), np.complex128, seed=2)
    assert_same(cp.vdot(cp.asarray(c), cp.asarray(d)), np.vdot(c, d))
    assert_same(cp.dot(cp.asarray(a), cp.asarray(b)), np.dot(a, b), rtol=1e-5)
    assert_same(cp.inner(cp.asarray(a), cp.asarray(b)), np.inner(a, b), rtol=1e-5)
    with pytest.raises(ValueError, match="not aligned"):
        _dot_1d(cp.ones(3), cp.ones(4))


def test_sixty_four_dimensions_reduce_and_sixty_five_are_refused():
    # NumPy's most dimensions: the reduction's fixed-size dim lists are full; past it, NumPy's error.
    shape = (1,) * 30 + (3,) + (1,) * 30 + (2, 1, 5)
    h = make_data(shape, np.float32)
    x = cp.asarray(h)
    assert x.ndim == 64
    for axis in (None, 30, (30, 63), (61, 63, 0)):
        assert_same(x.sum(axis=axis), h.sum(axis=axis), rtol=1e-6)
    assert_same(x.max(axis=-1, keepdims=True), h.max(axis=-1, keepdims=True))
    assert_same(cp.argmax(x, axis=30), np.argmax(h, axis=30))
    with pytest.raises(
        ValueError, match="maximum supported dimension for an ndarray is currently 64, found 65"
    ):
        cp.ones((1,) * 65)
    with pytest.raises(
        ValueError, match="maximum supported dimension for an ndarray is currently 64, found 65"
    ):
        x.reshape((1,) + shape)
    with pytest.raises(IndexError, match=r"number of dimensions must be within \[0, 64\]"):
        x[None]


def test_bad_axes_are_numpys_errors():
    x = cp.ones((2, 3))
    with pytest.raises(np.exceptions.AxisError):
        cp.sum(x, axis=2)
    with pytest.raises(np.exceptions.AxisError):
        x.max(axis=-3)
    with pytest.raises(ValueError, match="duplicate value in 'axis'"):
        cp.sum(x, axis=(0, -2))
    with pytest.raises(TypeError):
        cp.argmax(x, axis=(0, 1))
    with pytest.raises(TypeError, match="Unsupported type"):
        cp.nansum(np.ones(3))  # sum's is NumPy's answer (tests/test_reduction_host.py)


# ---- var and std of data holding NaN or infinities -------------------------------------------------------------

INEXACT = ["float16", "float32", "float64", "complex64", "complex128"]


def _specials(dtype):
    """Specials of `dtype` to plant in the data: NaN, +-inf, and for complex, non-finite real or imaginary parts."""
    if np.dtype(dtype).kind == "c":
        return [
            complex(np.nan, 0),
            complex(np.inf, 0),
            complex(0, -np.inf),
            complex(np.inf, np.nan),
            complex(1, np.nan),
        ]
    return [np.nan, np.inf, -np.inf]


def _with_specials(shape, dtype, seed=0):
    """make_data with specials planted: one slice along every axis holds a NaN, another +inf, one both infinities,
    one an infinity twice; the rest stay finite."""
    a = make_data(shape, dtype, seed)
    s = _specials(dtype)
    flat = a.reshape(-1)
    for k, v in enumerate(s):
        flat[(7 * k + 3) % flat.size] = v
    flat[-1], flat[-2] = (s[1], s[2]) if len(s) > 2 else (s[1], s[1])
    return a


@pytest.mark.parametrize("dtype", INEXACT, ids=dtype_id)
@pytest.mark.parametrize("name", SPREADS)
def test_spread_of_non_finite_data_is_nan(name, dtype):
    """NumPy's var subtracts the mean: a NaN or an infinity in a slice makes its variance NaN (inf - inf), for
    every axis choice, keepdims, ddof and correction; slices without them keep their values."""
    a = _with_specials((3, 4, 5), dtype)
    for axis in AXES:
        for keepdims in (False, True):
            _check(name, a, axis, keepdims)
        _check(name, a, axis, ddof=1)
        _check(name, a, axis, correction=2)
    _check(name, a, 1, ddof=4)  # no degrees of freedom left: inf or nan, NaN where the slice has specials


@pytest.mark.parametrize("dtype", INEXACT, ids=dtype_id)
@pytest.mark.parametrize("name", SPREADS)
def test_spread_of_one_special_value(name, dtype):
    """A single NaN or infinity (Welford's update alone gives m2 = 0 for one element), 0-d and size-1 slices."""
    for v in _specials(dtype):
        a = np.array([v], dtype)
        _check(name, a, None)
        _check(name, a.reshape(1, 1, 1, 1), 1)
        _check(name, a.reshape(()), None)
        _check(name, np.array([v, v], dtype), None)
        _check(name, np.array([1, v, 2], dtype), 0, ddof=1)


def test_spread_of_the_reported_cases():
    r = cp.std(cp.sqrt(cp.asarray([-3.5], cp.float16)))
    assert r.dtype == np.float16 and np.isnan(r.get())
    r = cp.nanstd(cp.asarray([[[[np.inf]]]], cp.float16), axis=1)
    assert r.shape == (1, 1, 1) and np.isnan(r.get()).all()
    assert np.isnan(cp.var(cp.asarray([np.inf, 1.0])).get())  # Welford's mean is nan here, its m2 inf


def _check_half_in_float32(name, a, axis):
    """_check for float16 data against NumPy's float32 result: cuarray accumulates float16 in float32."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = getattr(np, name)(a.astype(np.float32), axis=axis).astype(np.float16)
    assert_same(getattr(cp, name)(cp.asarray(a), axis=axis), expected, **_tol(a.dtype, name))


@pytest.mark.parametrize("dtype", INEXACT, ids=dtype_id)
@pytest.mark.parametrize("name", SPREADS)
def test_spread_of_non_finite_data_on_the_long_paths(name, dtype):
    """Rows long enough for the vectorised fold and the split reduction, columns, and a NaN or an infinity in
    one row only, at an element that a thread's vector holds in its middle."""
    # float16: NumPy sums the squares in float16 itself (overflowing for these lengths at full scale, and
    # rounding at every step); cuarray accumulates in float32, so NumPy's float32 result is the reference.
    scale = 64 if np.dtype(dtype) == np.float16 else 1
    check = _check_half_in_float32 if np.dtype(dtype) == np.float16 else _check
    a = make_data((4, 5003), dtype) / np.asarray(scale, dtype)
    s = _specials(dtype)
    a[0, 4001], a[1, 17], a[2, 2] = s[0], s[1], s[2]
    for axis in (None, 1, 0, (0, 1)):
        check(name, a, axis)
    check(name, np.ascontiguousarray(a.T), 0)
    check(name, a[:, ::-3], 1)
    b = make_data((70001,), dtype) / np.asarray(scale, dtype)
    b[35000] = s[1]
    check(name, b, None)
    check(name, b[:35000], None)


@pytest.mark.parametrize("name", SPREADS)
def test_spread_without_degrees_of_freedom(name):
    """var divides by max(n - ddof, 0) (inf, or nan for no spread); NumPy's nanvar gives NaN there instead."""
    a = np.array([[1.0, 2.0, 4.0], [3.0, 3.0, 3.0], [1.0, np.nan, 2.0]])
    for ddof in (2, 3, 4):
        _check(name, a[:2], 1, ddof=ddof)
        _check(name, a, 1, ddof=ddof)
        _check(name, a[:2].astype(np.float32), None, ddof=6)


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["argmax", "argmin", "nanargmax", "nanargmin"])
@pytest.mark.parametrize("axis", [None, 0, -1, 1, -2])
@pytest.mark.parametrize("keepdims", [False, True])
def test_arg_reductions_of_0d_arrays(name, axis, keepdims):
    """NumPy reads a 0-d array as one element along axis 0 (or -1); other axes are out of bounds."""
    a = np.asarray(3.5)
    try:
        want = getattr(np, name)(a, axis=axis, keepdims=keepdims)
    except np.exceptions.AxisError:
        with pytest.raises(np.exceptions.AxisError):
            getattr(cp, name)(cp.asarray(a), axis=axis, keepdims=keepdims)
        return
    got = getattr(cp, name)(cp.asarray(a), axis=axis, keepdims=keepdims)
    assert got.shape == np.shape(want) and got.dtype == want.dtype and int(got) == int(want)
    assert int(getattr(cp.asarray(a), name.replace("nan", ""))(axis=axis)) == 0


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["nanvar", "nanstd"])
@pytest.mark.parametrize("dtype", [np.uint16, np.int8, np.bool_])
def test_nan_spreads_of_integers_are_var_and_std(name, dtype):
    """NumPy's nanvar and nanstd of data that cannot hold NaN are var and std: inf (or NaN for no spread)
    without degrees of freedom, where the NaN-ignoring kernels give NaN."""
    a = np.array([[25, 56, 5], [32, 21, 5]]).astype(dtype)
    for ddof in (0, 1, 2, 3):
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = getattr(np, name)(a, axis=-2, ddof=ddof)
            got = getattr(cp, name)(cp.asarray(a), axis=-2, ddof=ddof)
        assert_same(got, want)
