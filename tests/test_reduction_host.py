"""Reductions given NumPy arrays (Note [Reductions of host arrays] in cuarray/_reduction.py): where CuPy's
function is the array's own method (sum, prod, amax, amin, mean, var, std, all, any, ptp), the result is
NumPy's, type, dtype, values and NaN positions alike; where CuPy's is a kernel of its own, a TypeError. A
cuarray array never reaches the host path. All but the last tests run without a GPU."""

import warnings

import cuarray as cp
import numpy as np
import pytest
from cuarray import _core, _reduction, testing

METHODS = ["sum", "prod", "amax", "amin", "max", "min", "mean", "var", "std", "all", "any", "ptp"]
WITH_DTYPE = ["sum", "prod", "mean", "var", "std"]
KERNELS = [
    "nansum",
    "nanprod",
    "nanmax",
    "nanmin",
    "count_nonzero",
    "argmax",
    "argmin",
    "nanargmax",
    "nanargmin",
]


def _host(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(-3, 10, size=shape)
    if np.dtype(dtype).kind == "b":
        a = a > 3
    a = np.asarray(a).astype(dtype)
    if np.dtype(dtype).kind in "fc" and a.size > 2:
        a.flat[1] = np.nan  # NaN positions must come out as NumPy's
    return a


def _layouts(dtype):
    base = _host((4, 5, 6), dtype)
    return {
        "0d": _host((), dtype),
        "empty": _host((2, 0, 3), dtype),
        "size1": _host((1, 5, 1), dtype),
        "c": base,
        "f": np.asfortranarray(base),
        "strided": base[::2, 1:, ::3],
        "negative": base[::-1, :, ::-2],
    }


def _same(got, expected):
    assert type(got) is type(expected)
    assert np.asarray(got).dtype == np.asarray(expected).dtype
    np.testing.assert_array_equal(got, expected, strict=True)


def _both(fn_cp, fn_np, *args, **kwargs):
    """(cuarray's result, NumPy's) with the warnings each raised; or both errors' types."""
    out = []
    for fn in (fn_cp, fn_np):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                r = fn(*args, **kwargs)
            except Exception as e:  # noqa: BLE001 - compared between the two
                r = e
        out.append((r, [(x.category, str(x.message)) for x in w]))
    return out


@pytest.mark.parametrize("layout", ["0d", "empty", "size1", "c", "f", "strided", "negative"])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2), ()], ids=repr)
@pytest.mark.parametrize("name", METHODS)
@testing.for_all_dtypes()
def test_method_reductions_of_host_arrays_are_numpys(name, axis, layout, dtype):
    a = _layouts(dtype)[layout]
    for keepdims in (False, True):
        (got, got_w), (expected, expected_w) = _both(
            getattr(cp, name), getattr(np, name), a, axis=axis, keepdims=keepdims
        )
        if isinstance(expected, Exception):
            assert type(got) is type(expected), got
            continue
        _same(got, expected)
        assert got_w == expected_w  # NumPy's warnings, once each


@pytest.mark.parametrize("name", WITH_DTYPE)
@testing.for_all_dtypes(name="dtype2", no_bool=True)
@testing.for_all_dtypes(name="dtype1")
def test_dtype_argument_reaches_numpy(name, dtype1, dtype2):
    a = _host((3, 4), dtype1)
    (got, _), (expected, _) = _both(getattr(cp, name), getattr(np, name), a, axis=1, dtype=dtype2)
    if isinstance(expected, Exception):
        assert type(got) is type(expected), got
    else:
        _same(got, expected)


@pytest.mark.parametrize("name", ["sum", "amax", "mean", "std", "any"])
def test_out_is_written_and_returned(name):
    a = _host((3, 4), np.float64)
    out_cp, out_np = np.full(4, -1.0), np.full(4, -1.0)
    assert getattr(cp, name)(a, axis=0, out=out_cp) is out_cp
    getattr(np, name)(a, axis=0, out=out_np)
    np.testing.assert_array_equal(out_cp, out_np, strict=True)


@pytest.mark.parametrize("name", ["var", "std"])
def test_ddof_and_correction_reach_numpy(name):
    a = _host((3, 4), np.float32)
    _same(getattr(cp, name)(a, axis=1, ddof=2), getattr(np, name)(a, axis=1, ddof=2))
    _same(getattr(cp, name)(a, correction=1), getattr(np, name)(a, correction=1))
    (got, got_w), (expected, expected_w) = _both(getattr(cp, name), getattr(np, name), a, axis=0, ddof=3)
    _same(got, expected)
    assert got_w == expected_w  # "Degrees of freedom <= 0" once, NumPy's


@pytest.mark.parametrize("name", ["sum", "prod", "amax", "mean", "var", "all", "ptp"])
def test_numpy_scalars_give_numpy_scalars(name):
    for x in (np.float32(2.5), np.int8(-3), np.bool_(True)):
        (got, _), (expected, _) = _both(getattr(cp, name), getattr(np, name), x)
        if isinstance(expected, Exception):  # ptp of a bool: NumPy's subtract refuses bools
            assert type(got) is type(expected)
        else:
            _same(got, expected)


@pytest.mark.parametrize("name", ["sum", "amin", "mean", "var", "all"])
@pytest.mark.parametrize("axis", [2, -3, (0, 0), (1, 2)], ids=repr)
def test_bad_axes_are_numpys_errors(name, axis):
    a = _host((3, 4), np.int64)
    (got, _), (expected, _) = _both(getattr(cp, name), getattr(np, name), a, axis=axis)
    assert isinstance(expected, Exception)
    assert type(got) is type(expected)
    assert str(got) == str(expected)


@pytest.mark.parametrize("name", KERNELS)
@testing.for_dtypes([np.bool_, np.int32, np.float64])
def test_kernel_reductions_refuse_host_arrays(name, dtype):
    # CuPy's are kernels of their own that take cupy.ndarray only: a NumPy array is a TypeError there too.
    with pytest.raises(
        TypeError, match=r"^Unsupported type <class 'numpy.ndarray'>: cuarray reductions take"
    ):
        getattr(cp, name)(_host((3, 4), dtype), axis=0)


@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd"])
def test_nan_statistics_of_host_arrays(name):
    # Of bool and integer arrays, CuPy's are mean, var and std, the methods; of others, kernels of their own.
    base = name[3:]
    for dtype in (np.bool_, np.int16, np.uint64):
        a = _host((3, 4), dtype)
        _same(getattr(cp, name)(a, axis=1), getattr(np, base)(a, axis=1))
    with pytest.raises(TypeError, match="^Unsupported type <class 'numpy.ndarray'>"):
        getattr(cp, name)(_host((3, 4), np.float32))


@pytest.mark.parametrize("value", [[1, 2, 3], (1.0, 2.0), 3, 2.5, None])
def test_other_objects_stay_type_errors(value):
    with pytest.raises(TypeError, match="^Unsupported type"):
        cp.sum(value)
    with pytest.raises(TypeError, match="^Unsupported type"):
        cp.all(value, axis=None)


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # numpy.matrix's
def test_numpy_subclasses_use_their_methods():
    m = np.ma.masked_array([1.0, 2.0, 4.0], mask=[False, True, False])
    _same(cp.sum(m), np.sum(m))
    assert cp.mean(m) == 2.5
    mat = np.matrix([[1, 2], [3, 4]])
    r = cp.sum(mat, axis=0)
    assert type(r) is np.matrix
    np.testing.assert_array_equal(r, np.sum(mat, axis=0))


def test_host_arrays_go_through_the_host_hook():
    calls = []

    def spy(*args):
        calls.append(args[0])
        return _reduction._host_reduction(*args)

    a = _host((3, 4), np.int64)
    _core._set_reduction_host_hook(spy)
    try:
        cp.sum(a, axis=0)
        cp.var(a, ddof=1)
        with pytest.raises(TypeError):
            cp.nansum(a)
    finally:
        _core._set_reduction_host_hook(_reduction._host_reduction)
    assert calls == ["sum", "var", "nansum"]


@pytest.mark.parametrize("axis", [None, 0, (0, 2), 5], ids=repr)
def test_fused_function_of_host_arrays_runs_as_written(axis):
    # As CuPy's fuse: without a cuarray array among the arguments the function runs as it is, on NumPy.
    a = _host((2, 3, 4), np.int64)
    f = cp.fuse(lambda x: cp.sum(x * 2, axis=axis) + cp.amax(x))
    (got, _), (expected, _) = _both(f, lambda x: np.sum(x * 2, axis=axis) + np.amax(x), a)
    if isinstance(expected, Exception):
        assert type(got) is type(expected)
    else:
        _same(got, expected)


@pytest.mark.gpu
@pytest.mark.parametrize("name", METHODS + KERNELS + ["nanmean", "nanvar", "nanstd"])
def test_cuarray_arrays_never_reach_the_host_hook(name):
    def spy(*args):
        raise AssertionError(f"host hook called for a cuarray array: {args[0]}")

    a_np = _host((3, 4), np.float32)
    a = cp.asarray(a_np)
    _core._set_reduction_host_hook(spy)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            got = getattr(cp, name)(a, axis=0)
            expected = getattr(np, name)(a_np, axis=0)
    finally:
        _core._set_reduction_host_hook(_reduction._host_reduction)
    assert isinstance(got, cp.ndarray)
    assert got.dtype == np.asarray(expected).dtype
    np.testing.assert_allclose(cp.asnumpy(got), expected, rtol=1e-6, equal_nan=True)


@pytest.mark.gpu
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_average_moves_host_arrays_to_the_device(xp):
    # CuPy's average starts with cupy.asarray(a) (and of the weights): the result is a device array.
    a, w = _host((4, 5), np.float64), np.arange(1.0, 6.0)
    avg, scale = xp.average(a, axis=1, weights=w, returned=True)
    if xp is cp:
        assert isinstance(avg, cp.ndarray) and isinstance(scale, cp.ndarray)
    return avg, scale, xp.average(a)


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "all", "any", "mean", "var", "std", "nanmean"])
def test_initial_and_where_of_host_arrays_are_numpys(name):
    # Note [Reduction options]: NumPy's method, given the options as they came.
    a = _host((3, 4), np.int16)
    mask = np.array([True, False, True, True])
    options = {"where": mask}
    if name in ("sum", "prod", "max", "min"):
        options["initial"] = 2
    want = getattr(np, name[3:] if name == "nanmean" else name)(a, axis=1, **options)
    _same(getattr(cp, name)(a, axis=1, **options), want)
    _same(getattr(cp, name)(a[0, 0], where=True), getattr(np, name)(a[0, 0], where=True))


def test_initial_and_where_of_other_objects_are_type_errors():
    for call in (
        lambda: cp.nansum(_host((3,), np.float32), initial=1),  # a kernel of CuPy's own, as without options
        lambda: cp.nanmax(_host((3,), np.float32), initial=1, where=np.ones(3, bool)),
        lambda: cp.sum([1, 2, 3], where=True),
        lambda: cp.max(2.5, initial=3),
    ):
        with pytest.raises(TypeError, match="^Unsupported type .*initial= or where= take cuarray arrays"):
            call()
