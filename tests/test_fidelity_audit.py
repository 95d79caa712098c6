"""More edge cases where cuarray differed from NumPy, against NumPy on the same inputs: sort's kind spellings,
tri/tril/triu of non-integer sizes and diagonals, roll of a list, argpartition of 0-d arrays, clip's two
spellings of its bounds, nan_to_num(copy=False) of a list, array_equal of what makes no array, average's
weights over several axes, cov's order of weight checks, and histogram's bin-width estimators."""

import re
import warnings

import cuarray as cp
import numpy as np
import pytest
from conftest import make_data
from cuarray import _sorting, testing

gpu = pytest.mark.gpu


# ---- sort's kind and stable: checked before any device call ----------------------------------------------------

KINDS = ["quick", "Q", "heap", "STABLE", "s", "m", "mergesort", "x", "", None, 1, b"q", b"x", bytearray(b"q")]


@pytest.mark.parametrize("stable", [None, True, False])
@pytest.mark.parametrize("kind", KINDS, ids=repr)
def test_sort_kind_and_stable_checks_as_numpy(kind, stable):
    try:
        np.sort(np.array([3, 1, 2]), kind=kind, stable=stable)
    except (TypeError, ValueError) as e:
        with pytest.raises(type(e)) as got:
            _sorting._check(kind, None, stable)
        assert str(got.value) == str(e)
    else:
        _sorting._check(kind, None, stable)


@pytest.mark.parametrize(
    "kth, axis, kind, order",
    [
        (1, None, "x", None),
        (1, 5, "introselect", "x"),
        (True, -1, "introselect", "x"),
        ([[0]], 5, "introselect", None),
        (1.5, 5, "introselect", None),
        (True, 5, "introselect", None),
        (-5, -1, "introselect", None),
        ([0, 7], -1, "introselect", None),
        (1, -1, 3, None),
        (-9, 0, "introselect", None),
        ([], -1, "introselect", None),
        ([2, -3], 1, "introselect", None),
        (1, -1, b"introselect", None),
        (1, -1, b"x", None),
        (np.uint64(2**64 - 1), -1, "introselect", None),
        (np.array([[0]]), -1, "introselect", None),
        ([[0], 1], -1, "introselect", None),
        (1, 1.0, "introselect", None),
        (1, np.float64(1), "introselect", None),
        (2**63, -1, "introselect", None),
    ],
)
def test_partition_argument_checks_in_numpys_order(kth, axis, kind, order):
    # The checks alone, on a host array (they read its shape and dtype): the first one NumPy's ndarray.partition
    # fails gives the error, with its message.
    a = np.arange(6.0).reshape(2, 3)
    try:
        a.copy().partition(kth, axis=axis, kind=kind, order=order)
    except (TypeError, ValueError) as e:
        with pytest.raises(type(e), match=re.escape(str(e))):
            _sorting._check_partition(a, kth, axis, kind, order)
    else:
        assert _sorting._check_partition(a, kth, axis, kind, order) == axis % a.ndim


@pytest.mark.parametrize("kind", ["introselect", "intro", None, 0, b"introselect", b"x"])
def test_partition_kind_checks_as_numpy(kind):
    try:
        np.partition(np.array([3, 1, 2]), 1, kind=kind)
    except (TypeError, ValueError) as e:
        with pytest.raises(type(e), match=re.escape(str(e))):
            _sorting._check_select_kind(kind)
    else:
        _sorting._check_select_kind(kind)


@gpu
@pytest.mark.parametrize("kind", ["quick", "H", "stable"])
@testing.numpy_cuarray_array_equal()
def test_sort_with_a_spelled_kind(xp, kind):
    a = xp.asarray(make_data(50, np.float32))
    return xp.sort(a, kind=kind), xp.argsort(a, kind=kind)


# ---- creation and manipulation ----------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize(
    "args",
    [(2.0,), (3, 4.0), (3, 3, 1.0), (2.5,), (3, 3, 0.5), (4, 5, -1.5), (-1.5,), (3, None, np.float32(2.0))],
)
@testing.numpy_cuarray_array_equal()
def test_tri_of_non_integer_sizes_and_diagonals(xp, args):
    return xp.tri(*args)


@gpu
@pytest.mark.parametrize("k", [1.0, 0.5, -0.5, 2.7])
@pytest.mark.parametrize("func", ["tril", "triu"])
@testing.numpy_cuarray_array_equal()
def test_tril_triu_of_non_integer_diagonals(xp, func, k):
    return getattr(xp, func)(xp.asarray(make_data((3, 4), np.int32)), k=k)


@gpu
@testing.numpy_cuarray_array_equal()
def test_roll_of_a_list(xp):
    return xp.roll([1, 2, 3], 1), xp.roll([[1, 2], [3, 4]], -1, axis=0)


@gpu
@pytest.mark.parametrize("axis", [-1, 0, None, 1])
@pytest.mark.parametrize("kth", [0, -1, [0], 1])
@testing.numpy_cuarray_array_equal(accept_error=(ValueError, np.exceptions.AxisError))
def test_argpartition_of_0d_ravels_it(xp, kth, axis):
    return xp.argpartition(xp.asarray(5), kth, axis=axis)


# ---- clip, nan_to_num, array_equal -----------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize(
    "args, kwargs",
    [
        ((1, 3), {}),
        ((None, 3), {}),
        ((), {"a_min": 1, "a_max": 3, "max": 2}),
        ((), {"min": 1, "max": 3}),
        ((None, None), {}),
    ],
)
@testing.numpy_cuarray_array_equal(accept_error=ValueError)
def test_clip_bounds_as_numpy(xp, args, kwargs):
    return xp.clip(xp.arange(6), *args, **kwargs)


@gpu
def test_clip_takes_the_array_apis_one_positional_bound():
    # NumPy asks for both positional bounds; the array API's clip(x, min) and clip(x, 1, max=3) work here,
    # as cuarray's positional parameters are the array API's min and max.
    x = cp.arange(6)
    np.testing.assert_array_equal(cp.clip(x, 2).get(), np.clip(np.arange(6), 2, None))
    np.testing.assert_array_equal(cp.clip(x, 1, max=3).get(), np.clip(np.arange(6), 1, 3))
    with pytest.raises(TypeError, match="multiple values for argument 'min'"):
        cp.clip(x, 1, min=0)


@gpu
def test_nan_to_num_copy_false_of_a_list_raises_as_numpy():
    for xp in (np, cp):
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            xp.nan_to_num([1.0, np.nan], copy=False)
    x = cp.asarray([1.0, np.nan])
    assert cp.nan_to_num(x, copy=False) is x
    assert x[1].item() == 0.0


@gpu
@pytest.mark.parametrize(
    "a1, a2", [([1, [2, 3]], [1, 2]), ([1, 2], [1, [2, 3]]), ([[1], [2, 3]], [[1], [2, 3]])]
)
def test_array_equal_of_what_makes_no_array_is_false(a1, a2):
    assert np.array_equal(a1, a2) is False
    got = cp.array_equal(a1, a2)
    assert isinstance(got, cp.ndarray) and not bool(got)


# ---- average and cov weights ------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize(
    "axis, wshape",
    [((2, 1), (4, 3)), ((1, 2), (3, 4)), ((1,), (3,)), (1, (3,)), ((0, 2), (2, 4)), (-1, (4,))],
)
@pytest.mark.parametrize("returned", [False, True])
@testing.numpy_cuarray_allclose()
def test_average_weights_over_several_axes(xp, axis, wshape, returned):
    a = xp.asarray(np.arange(24.0).reshape(2, 3, 4))
    w = xp.asarray(np.arange(1.0, 1.0 + np.prod(wshape)).reshape(wshape))
    return xp.average(a, axis=axis, weights=w, returned=returned)


@gpu
@pytest.mark.parametrize(
    "axis, wshape, error",
    [
        (None, (3,), TypeError),
        (1, (4,), ValueError),
        ((1, 2), (4, 3), ValueError),
        ((1, 2), (12,), ValueError),
    ],
)
def test_average_weight_shape_errors_as_numpy(axis, wshape, error):
    for xp in (np, cp):
        with pytest.raises(error):
            xp.average(xp.ones((2, 3, 4)), axis=axis, weights=xp.ones(wshape))


@gpu
@pytest.mark.parametrize(
    "fweights, error",
    [
        ([1, 2.5, 1, 1], TypeError),
        ([1.5, -1, 1], TypeError),  # not integer, checked before the length and sign
        ([[1, 1, 1, 1]], RuntimeError),
        ([1, 1, 1], RuntimeError),
        ([1, -1, 1, 1], ValueError),
    ],
)
def test_cov_fweights_checks_in_numpys_order(fweights, error):
    for xp in (np, cp):
        with pytest.raises(error):
            xp.cov(xp.arange(4.0), fweights=fweights)


# ---- histogram's bin-width estimators ---------------------------------------------------------------------------

ESTIMATORS = ["auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"]


@gpu
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "uint8", "int16"])
@pytest.mark.parametrize("bins", ESTIMATORS)
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_histogram_bin_estimators_as_numpy(xp, bins, dtype):
    a = make_data(500, dtype, seed=3)
    if dtype == "uint8":
        a = a.astype(np.uint8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # stone's "may be suboptimal"
        counts, edges = xp.histogram(xp.asarray(a), bins=bins)
        return counts, edges, xp.histogram_bin_edges(xp.asarray(a), bins=bins)


@gpu
@pytest.mark.parametrize("bins", ESTIMATORS)
@pytest.mark.parametrize(
    "data, range_",
    [
        (np.linspace(0, 1, 1000) ** 2, (0.2, 0.7)),  # the estimators see only the data within the range
        (np.zeros(10), None),  # zero width: one bin
        (np.array([]), None),
        (np.array([1.0, 2.0]), None),
        (np.array([-(2**62), 2**62, 0]), None),  # the extent does not overflow int64
    ],
)
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_histogram_bin_estimators_edge_cases(xp, bins, data, range_):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return xp.histogram(xp.asarray(data), bins=bins, range=range_)


@gpu
def test_histogram_bin_estimator_errors_as_numpy():
    for xp in (np, cp):
        a = xp.asarray(np.arange(10.0))
        with pytest.raises(ValueError, match="'nope' is not a valid estimator"):
            xp.histogram(a, bins="nope")
        with pytest.raises(TypeError, match="not supported for weighted data"):
            xp.histogram(a, bins="auto", weights=xp.ones(10))
        with pytest.raises(TypeError, match="must be an integer, a string, or an array"):
            xp.histogram(a, bins=2.5)
        with pytest.warns(RuntimeWarning, match="may be suboptimal"):
            xp.histogram(xp.asarray(np.arange(1000.0) ** 3), bins="stone")


# ---- quantile and percentile with weights -----------------------------------------------------------------------


@gpu
@pytest.mark.parametrize(
    "data, q, axis, weights",
    [
        (np.array([3.0, 1.0, 2.0, 2.0, 5.0]), [0.0, 0.2, 0.5, 0.9, 1.0], None, [1, 0, 2, 1, 3]),
        (np.array([3.0, 1.0, 2.0]), 0.0, None, [0, 1, 1]),  # a leading zero weight is never the answer
        (np.array([[1.0, 2, 3, 4], [5, 6, np.nan, 8]]), [0.25, 0.5], 1, [1, 0, 2, 1]),
        (np.arange(12).reshape(3, 4), 0.5, (0, 1), np.ones((3, 4))),
        (np.arange(24.0).reshape(2, 3, 4) % 7, [0.1, 0.7], (2, 0), np.arange(1.0, 9.0).reshape(4, 2)),
        (np.arange(12.0).reshape(3, 4)[:, ::-1], np.array([[0.3], [0.6]]), 0, [1.0, 2.5, 0.5]),
        (np.array([4, 1, 3], np.int16), 0.5, 0, [1, 1, 1]),
        (np.array([1.0, 2.0, 3.0], np.float32), np.float32(0.4), None, [0.2, 0.2, 0.6]),
    ],
)
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("func", ["quantile", "percentile"])
@testing.numpy_cuarray_array_equal()
def test_weighted_quantiles_as_numpy(xp, func, data, q, axis, weights, keepdims):
    if func == "percentile":
        q = np.multiply(q, 100)
    return getattr(xp, func)(
        xp.asarray(data),
        q,
        axis=axis,
        weights=xp.asarray(np.asarray(weights)),
        method="inverted_cdf",
        keepdims=keepdims,
    )


@gpu
@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"weights": [1, 1, 1]}, ValueError),  # the method is not inverted_cdf
        ({"weights": [1, -1, 1], "method": "inverted_cdf"}, ValueError),
        ({"weights": [0, 0, 0], "method": "inverted_cdf"}, ValueError),
        ({"weights": [1, np.inf, 1], "method": "inverted_cdf"}, ValueError),
        ({"weights": [1, 1], "method": "inverted_cdf", "axis": 0}, ValueError),
        ({"weights": [[1, 1, 1]], "method": "inverted_cdf"}, TypeError),
    ],
)
def test_weighted_quantile_errors_as_numpy(kwargs, error):
    kwargs = dict(kwargs)
    for xp in (np, cp):
        kw = dict(kwargs, weights=xp.asarray(np.asarray(kwargs["weights"], float)))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            with pytest.raises(error):
                xp.quantile(xp.asarray(np.array([3.0, 1.0, 2.0])), 0.5, **kw)


# ---- set membership, along-axis indexing, scans -------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("kind", [None, "sort"])  # NumPy's 'table' would span these ranges: MemoryError
@pytest.mark.parametrize("invert", [False, True])
@pytest.mark.parametrize(
    "element, test",
    [
        (np.array([2**53 + 1, 5], np.uint64), np.array([2**53, 5], np.int64)),
        (np.array([2**53, -1, 7], np.int64), np.array([2**53 + 1, 2**64 - 1, 7], np.uint64)),
        (np.array([2**63 + 3, 0], np.uint64), np.array([-3, 0, 2**62], np.int64)),
    ],
)
@testing.numpy_cuarray_array_equal(accept_error=RuntimeError)
def test_isin_of_uint64_and_signed_compares_exactly(xp, element, test, invert, kind):
    return xp.isin(xp.asarray(element), xp.asarray(test), invert=invert, kind=kind)


@gpu
def test_isin_table_range_error_as_numpy():
    for xp in (np, cp):
        with pytest.raises(RuntimeError, match="range of values"):
            xp.isin(
                xp.asarray(np.array([1, 2], np.int8)),
                xp.asarray(np.array([-100, 100], np.int8)),
                kind="table",
            )


@gpu
@pytest.mark.parametrize("func", ["take", "put"])
@pytest.mark.parametrize("indices", [np.ones(6, bool), np.zeros(6), np.array([[0]])])
@pytest.mark.parametrize("axis", [0, None])
def test_along_axis_index_checks_as_numpy(func, indices, axis):
    outcomes = []
    for xp in (np, cp):
        a = xp.asarray(np.arange(6.0))
        try:
            if func == "take":
                xp.take_along_axis(a, xp.asarray(indices), axis=axis)
            else:
                xp.put_along_axis(a, xp.asarray(indices), 9.0, axis=axis)
            outcomes.append(None)
        except (IndexError, ValueError) as e:
            outcomes.append(type(e))
    assert outcomes[0] is not None and outcomes[0] == outcomes[1]


@gpu
@pytest.mark.parametrize("view", ["T", "strided", "contiguous"])
def test_put_along_axis_none_writes_or_refuses_as_numpy(view):
    got = []
    for xp in (np, cp):
        m = xp.asarray(np.arange(12.0).reshape(3, 4))
        target = {"T": m.T, "strided": m[:, ::2], "contiguous": m}[view]
        try:
            xp.put_along_axis(target, xp.asarray(np.array([0, 5])), -1.0, axis=None)
        except ValueError as e:
            got.append(str(e))
            continue
        got.append(cp.asnumpy(m).tolist())
    assert got[0] == got[1]


@gpu
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("n", [1, 3, 5000])
def test_cumsum_keeps_a_negative_zero_as_numpy(dtype, n):
    a = np.full(n, -0.0, dtype)
    if a.dtype.kind == "c":
        a = a * 0 + complex(-0.0, -0.0)
    for func in ("cumsum", "nancumsum"):
        want = getattr(np, func)(a)
        got = cp.asnumpy(getattr(cp, func)(cp.asarray(a)))
        parts = (lambda x: (x.real, x.imag)) if a.dtype.kind == "c" else (lambda x: (x,))
        for w, g in zip(parts(want), parts(got)):
            np.testing.assert_array_equal(np.signbit(g), np.signbit(w), err_msg=func)
    b = np.array([np.nan, -0.0, 1.0], np.float64)  # a skipped NaN stands in as +0, as NumPy's nancumsum
    np.testing.assert_array_equal(np.signbit(cp.nancumsum(cp.asarray(b)).get()), np.signbit(np.nancumsum(b)))


# ---- isclose/array_equiv of sequences; ufunc methods' arguments --------------------------------------------------


@gpu
@pytest.mark.parametrize(
    "a, b, kwargs",
    [
        ([1.0, 2.0], [1.0, 2.0000001], {}),
        ([-1], [2**63 - 1], {}),
        (np.array([-2, 0]), (2**63 - 1, 0), {"atol": 1}),
        (np.array([np.iinfo(np.int64).min]), [0], {"atol": 1e19}),
        (np.array([1, 2, 250], np.uint8), [0, 1, 251], {"atol": 1}),
    ],
)
@testing.numpy_cuarray_array_equal()
def test_isclose_of_sequences_as_numpy(xp, a, b, kwargs):
    a = xp.asarray(a) if isinstance(a, np.ndarray) else a
    return xp.isclose(a, b, **kwargs), xp.asarray(xp.allclose(a, b, **kwargs))


@gpu
def test_array_equiv_of_ragged_input_is_false():
    for a1, a2 in (([1, [2, 3]], [1]), (np.arange(6.0), [[0, 1], [2]])):
        assert np.array_equiv(a1, a2) is False
        got = cp.array_equiv(cp.asarray(a1) if isinstance(a1, np.ndarray) else a1, a2)
        assert not bool(got)


@gpu
@pytest.mark.parametrize(
    "call",
    [
        lambda xp: xp.add.accumulate(xp.asarray(2.5)),
        lambda xp: xp.add.accumulate(xp.ones((2, 2)), axis=None),
        lambda xp: xp.add.accumulate(xp.ones((2, 2)), axis=(0, 1)),
        lambda xp: xp.add.accumulate(xp.ones((2, 2)), axis=(1,)),
        lambda xp: xp.add.accumulate(xp.arange(3), axis=None),
        lambda xp: xp.add.reduceat(xp.asarray(2.5), [0]),
        lambda xp: xp.add.reduceat(xp.arange(5.0), [1.5]),
        lambda xp: xp.add.reduceat(xp.arange(5.0), [0.0, 2.0]),
        lambda xp: xp.add.reduceat(xp.arange(6.0), []),
        lambda xp: xp.add.reduceat(xp.arange(5.0), [True]),
        lambda xp: xp.add.reduceat(xp.arange(5.0), xp.asarray(np.array([0, 2], np.uint64))),
        lambda xp: xp.add.reduceat(xp.arange(5.0), xp.asarray(np.array([1.0]))),
        lambda xp: xp.add.reduceat(xp.arange(5.0), xp.asarray(np.array([0, 2], np.uint32))),
        lambda xp: xp.add.reduceat(xp.arange(5.0), 2),
        lambda xp: xp.add.reduceat(xp.arange(5.0), xp.asarray(np.array([[0, 2]]))),
        lambda xp: xp.diff(xp.arange(6.0), n=0.0),
        lambda xp: xp.diff(xp.arange(6.0), n=-1.5),
    ],
)
def test_ufunc_method_arguments_as_numpy(call):
    outcomes = []
    for xp in (np, cp):
        try:
            r = call(xp)
            outcomes.append(
                ("value", np.asarray(cp.asnumpy(r)).tolist(), str(np.asarray(cp.asnumpy(r)).dtype))
            )
        except (TypeError, ValueError) as e:
            outcomes.append(("error", type(e)))
    assert outcomes[0] == outcomes[1]


# ---- where= in ufunc calls ----------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize(
    "call",
    [
        lambda xp, a: xp.add(a, 1.0, out=xp.zeros(4), where=xp.asarray(np.array([True, False, True, False]))),
        lambda xp, a: xp.sqrt(a, out=xp.full(4, 7.0), where=[True, False, True, False]),
        lambda xp, a: xp.add(a, 1.0, out=xp.zeros(4), where=False),
        lambda xp, a: xp.add(a, 1.0, out=xp.zeros(4), where=np.True_),
        lambda xp, a: xp.add(a, 1, where=[1, 0, 1, 0], out=xp.zeros(4)),
        lambda xp, a: xp.add(a, 1, where=xp.asarray(np.array([[True], [False]])), out=xp.zeros((2, 4))),
        lambda xp, a: xp.divmod(
            a, 3.0, out=(xp.zeros(4), xp.ones(4)), where=xp.asarray(np.array([1, 0, 1, 1]) > 0)
        ),
        lambda xp, a: xp.multiply(a, a, xp.zeros(4, np.float32), where=[True, True, False, False]),
        lambda xp, a: xp.add(a, a, out=a, where=[False, True, True, False]),  # out is an input
        lambda xp, a: xp.add(a, 1, out=xp.zeros(4, np.int64), where=[True] * 4),  # the output cast is refused
    ],
)
@testing.numpy_cuarray_allclose(accept_error=TypeError)
def test_ufunc_where_writes_only_where_the_mask_holds(xp, call):
    with np.errstate(invalid="ignore"):
        return call(xp, xp.asarray(np.array([1.0, -1.5, 4.0, 9.0])))


SIGNATURE_CALLS = [
    lambda xp, a, i: xp.add(a, 1, signature="dd->d"),
    lambda xp, a, i: xp.add(i, 1, signature=(None, None, "f4")),
    lambda xp, a, i: xp.add(a, 1, signature="ii->i", casting="unsafe"),
    lambda xp, a, i: xp.add(i, i, signature="dd->d"),
    lambda xp, a, i: xp.add(i.astype(np.int8), 300, signature=(None, None, "i2")),
    lambda xp, a, i: xp.add(i, 1.7, signature="ii->i", casting="unsafe"),
    lambda xp, a, i: xp.less(i, 2.5, signature="dd->?"),
    lambda xp, a, i: xp.divmod(a, 3, signature="dd->dd"),
    lambda xp, a, i: xp.negative(i, signature="l->l"),
    lambda xp, a, i: xp.multiply(a, a, signature="ff->f", casting="same_kind"),
    lambda xp, a, i: xp.add(
        a, 1, signature="dd->d", out=xp.zeros(4), where=xp.asarray(np.array([1, 0, 1, 0]) > 0)
    ),
    lambda xp, a, i: xp.add(i > 0, True, signature="??->?"),  # a Python bool is no weak scalar
    lambda xp, a, i: xp.add(i > 0, True, signature="bb->b"),
    lambda xp, a, i: xp.add(i.astype(np.int64), True, signature="ll->l"),
]
SIGNATURE_ERRORS = [
    (lambda xp, a, i: xp.add(a, 1, signature="ii->i"), TypeError),  # NumPy's UFuncTypeError: the input cast
    (lambda xp, a, i: xp.add(i, i, signature="ii->d"), TypeError),  # no such loop
    (lambda xp, a, i: xp.add(i.astype(np.int8), 300, signature="bb->b"), OverflowError),
    (lambda xp, a, i: xp.add(a, 1, signature="dd->d", dtype="f8"), TypeError),
    (lambda xp, a, i: xp.add(a, 1, signature=np.float64), TypeError),
    (lambda xp, a, i: xp.add(a, 1, signature="d"), TypeError),
    (lambda xp, a, i: xp.add(a, 1, signature=None), TypeError),
]


@gpu
@pytest.mark.parametrize("call", SIGNATURE_CALLS)
@testing.numpy_cuarray_array_equal()
def test_ufunc_signature_runs_numpys_loop(xp, call):
    return call(
        xp, xp.asarray(np.array([1.0, -1.5, 4.0, 9.0])), xp.asarray(np.array([1, -2, 3, 7], np.int32))
    )


@gpu
@pytest.mark.parametrize("call, error", SIGNATURE_ERRORS)
def test_ufunc_signature_errors_as_numpy(call, error):
    a, i = np.array([1.0, -1.5, 4.0, 9.0]), np.array([1, -2, 3, 7], np.int32)
    with pytest.raises(error) as want:
        call(np, a, i)
    with pytest.raises(error) as got:
        call(cp, cp.asarray(a), cp.asarray(i))
    assert str(got.value) == str(want.value)


@gpu
def test_ufunc_where_without_out_warns_as_numpy_and_keeps_the_shape():
    for xp in (np, cp):
        with pytest.warns(UserWarning, match="'where' used without 'out'"):
            r = xp.add(xp.arange(4.0), 1, where=xp.asarray(np.array([[True], [False]])))
        assert r.shape == (2, 4)
        np.testing.assert_array_equal(cp.asnumpy(r)[0], [1.0, 2.0, 3.0, 4.0])


def test_ufunc_identity_and_signature_as_numpy():
    names = [
        n
        for n in dir(cp)
        if isinstance(getattr(cp, n), cp.ufunc) and isinstance(getattr(np, n, None), np.ufunc)
    ]
    assert len(names) > 60
    for name in names:
        want, got = getattr(np, name).identity, getattr(cp, name).identity
        assert got == want and type(got) is type(want), name
        assert getattr(cp, name).signature is None


# ---- maximum.accumulate and minimum.accumulate ---------------------------------------------------------------------

RUNNING_DTYPES = ["bool", "int8", "int64", "uint8", "uint64", "float16", "float32", "float64", "complex64"]


@gpu
@pytest.mark.parametrize("func", ["maximum", "minimum"])
@pytest.mark.parametrize("dtype", RUNNING_DTYPES)
@pytest.mark.parametrize("shape, axis", [((7,), 0), ((5000,), 0), ((6, 700), 1), ((300, 5), 0), ((3, 4), -1)])
@testing.numpy_cuarray_array_equal()
def test_running_extremes_as_numpy(xp, func, dtype, shape, axis):
    a = make_data(shape, dtype, seed=5)
    if a.dtype.kind in "fc" and a.size > 10:
        a.flat[a.size // 3] = np.nan  # from here on the running value is NaN
    if a.dtype.kind == "u":
        a[...] = a + np.array(2**63 if dtype == "uint64" else 100, dtype)  # beyond the signed range
    return getattr(xp, func).accumulate(xp.asarray(a), axis=axis)


@gpu
@pytest.mark.parametrize("func", ["maximum", "minimum"])
@testing.numpy_cuarray_array_equal()
def test_running_extremes_of_views_and_into_out(xp, func):
    a = xp.asarray(make_data((8, 9), np.float32, seed=2))
    u = getattr(xp, func)
    out = xp.zeros((9, 8), np.float64)
    return (
        u.accumulate(a[::-2, ::3], axis=1),
        u.accumulate(a.T, out=out),
        out,
        u.accumulate(a, dtype=np.float64),
    )


@gpu
@pytest.mark.parametrize("func", ["maximum", "minimum"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_running_extremes_keep_numpys_zero_across_tiles(func, dtype):
    # Zeros of random signs over many scan tiles: every result is a tie, so the sign says which of the two the
    # kernel kept, in the tiles' look-back too (float32/float64 keep the later element, float16 the running value).
    rng = np.random.default_rng(4)
    a = np.where(rng.random(300_001) < 0.5, -0.0, 0.0).astype(dtype)
    want = np.signbit(getattr(np, func).accumulate(a))
    for _ in range(5):  # which predecessor tiles are finished when a tile looks back varies from run to run
        got = cp.asnumpy(getattr(cp, func).accumulate(cp.asarray(a)))
        np.testing.assert_array_equal(got, np.zeros_like(a))
        np.testing.assert_array_equal(np.signbit(got), want)


@gpu
def test_ufunc_where_none_selects_nothing_and_out_none_silences_the_warning():
    for xp in (np, cp):
        out = xp.zeros(4)
        assert xp.add(xp.arange(4.0), 1, out=out, where=None) is out
        np.testing.assert_array_equal(cp.asnumpy(out), np.zeros(4))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            r = xp.add(xp.arange(4.0), 1, out=None, where=xp.asarray(np.array([True, False, True, False])))
        np.testing.assert_array_equal(cp.asnumpy(r)[::2], [1.0, 3.0])


@gpu
def test_weighted_quantile_refuses_q_of_three_dimensions():
    for xp in (np, cp):
        with pytest.raises(ValueError, match="q must be a scalar or 1d"):
            xp.quantile(xp.arange(3.0), xp.zeros((1, 1, 1)), weights=xp.ones(3), method="inverted_cdf")


@pytest.mark.parametrize("uplo", ["L", "u", "x", 1, None, b"L"], ids=repr)
def test_eigh_uplo_checks_as_numpy(uplo):
    from cuarray.linalg import _decompositions

    try:
        np.linalg.eigh(np.eye(2), UPLO=uplo)
    except (AttributeError, ValueError) as e:
        with pytest.raises(type(e)):
            _decompositions._uplo(uplo)
    else:
        assert _decompositions._uplo(uplo) in ("L", "U")


# ---- reduce of the bitwise ufuncs and logical_xor ------------------------------------------------------------------

FOLDS = ["bitwise_and", "bitwise_or", "bitwise_xor", "logical_xor"]


@gpu
@pytest.mark.parametrize("name", FOLDS)
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int32", "uint64", "int64"])
@pytest.mark.parametrize(
    "shape, axis", [((5,), 0), ((3, 70), 1), ((300, 4), 0), ((3, 4), None), ((0, 3), 0), ((4, 0), 1)]
)
@testing.numpy_cuarray_array_equal()
def test_bitwise_and_logical_xor_reduce_as_numpy(xp, name, dtype, shape, axis):
    a = make_data(shape, dtype, seed=3)
    if dtype.startswith("u"):
        a = a | np.array(1 << (np.dtype(dtype).itemsize * 8 - 1), dtype)  # the top bit set
    return getattr(xp, name).reduce(xp.asarray(a), axis=axis)


@gpu
@pytest.mark.parametrize("name", FOLDS)
@testing.numpy_cuarray_array_equal()
def test_bitwise_reduce_options_as_numpy(xp, name):
    a = xp.asarray(np.array([[7, 3, 12], [5, 1, 255]], np.uint8))
    u = getattr(xp, name)
    mask = xp.asarray(np.array([[True, False, True], [True, True, False]]))
    out = xp.zeros(3, np.int64 if name != "logical_xor" else bool)
    return (
        u.reduce(a, axis=1, where=mask),
        u.reduce(a, axis=1, keepdims=True, initial=2),
        u.reduce(a, axis=0, out=out),
        out,
        u.reduce(a, axis=None, dtype=bool if name == "logical_xor" else np.int64),
        u.reduceat(a, [0, 2], axis=1),
    )


@gpu
@pytest.mark.parametrize("name", FOLDS)
@pytest.mark.parametrize(
    "dtype, cast", [("float64", None), ("int8", "float32"), ("complex64", None), ("int8", "int64")]
)
def test_fold_types_and_errors_as_numpy(name, dtype, cast):
    a = np.array([1, 0, 3], dtype)
    try:
        want = getattr(np, name).reduce(a, dtype=cast)
    except TypeError as e:
        with pytest.raises(TypeError) as got:
            getattr(cp, name).reduce(cp.asarray(a), dtype=cast)
        assert str(got.value) == str(e)
    else:
        got = getattr(cp, name).reduce(cp.asarray(a), dtype=cast)
        assert got.dtype == want.dtype and got.item() == want.item()


@gpu
@pytest.mark.parametrize("name", FOLDS)
@pytest.mark.parametrize(
    "dtype, out", [("uint8", "float64"), ("int8", "uint64"), ("uint8", "int64"), ("uint8", "bool")]
)
def test_fold_into_out_of_another_type_as_numpy(name, dtype, out):
    a = np.array([3, 5, 6], dtype)
    try:
        want = getattr(np, name).reduce(a, out=np.zeros((), out))
    except TypeError as e:
        with pytest.raises(TypeError) as got:
            getattr(cp, name).reduce(cp.asarray(a), out=cp.zeros((), out))
        assert str(got.value) == str(e)
    else:
        got = getattr(cp, name).reduce(cp.asarray(a), out=cp.zeros((), out))
        assert got.dtype == want.dtype and got.item() == want.item()
