"""Axes of 0-d arrays. NumPy's ufunc reductions (sum, min, any, ..., and the NaN-ignoring forms built on them)
read a 0-d array as one element along axis 0 or -1, while mean/var/std/median raise AxisError; scans and
argsort ravel a 0-d array first; a tuple axis, or any other axis, is out of bounds everywhere. cuarray gives
the same results, dtypes, shapes and exception types."""

import cuarray as cp
import numpy as np
import pytest

REDUCTIONS = [
    "sum",
    "prod",
    "min",
    "max",
    "amin",
    "amax",
    "any",
    "all",
    "nansum",
    "nanprod",
    "nanmin",
    "nanmax",
    "count_nonzero",
    "ptp",
    "mean",
    "var",
    "std",
    "nanmean",
    "nanvar",
    "nanstd",
    "median",
    "nanmedian",
    "argmax",
    "argmin",
    "nanargmax",
    "nanargmin",
]
METHODS = [
    "sum",
    "prod",
    "min",
    "max",
    "any",
    "all",
    "mean",
    "var",
    "std",
    "argmax",
    "argmin",
    "cumsum",
    "cumprod",
]
OTHERS = ["cumsum", "cumprod", "nancumsum", "nancumprod", "argsort", "sort"]
AXES = [None, 0, -1, 1, -2, (0,), ()]


def _outcome(f):
    try:
        result = f()
    except Exception as e:  # noqa: BLE001 - the exception type is what is compared
        return "raises", type(e)
    return "ok", np.asarray(result)


def _compare(n_call, c_call):
    kind, want = _outcome(n_call)
    if kind == "raises":
        with pytest.raises(want):
            c_call()
        return
    got = c_call()
    got = cp.asnumpy(got) if isinstance(got, cp.ndarray) else np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.gpu
@pytest.mark.parametrize("name", REDUCTIONS + OTHERS)
@pytest.mark.parametrize("axis", AXES, ids=repr)
def test_functions_on_0d_arrays(name, axis):
    a = np.asarray(3.5)
    _compare(lambda: getattr(np, name)(a, axis=axis), lambda: getattr(cp, name)(cp.asarray(a), axis=axis))


@pytest.mark.gpu
@pytest.mark.parametrize("name", [n for n in REDUCTIONS if n not in ("count_nonzero", "median", "nanmedian")])
@pytest.mark.parametrize("axis", [0, -1], ids=repr)
def test_keepdims_on_0d_arrays(name, axis):
    a = np.asarray(2, dtype=np.int16)
    _compare(
        lambda: getattr(np, name)(a, axis=axis, keepdims=True),
        lambda: getattr(cp, name)(cp.asarray(a), axis=axis, keepdims=True),
    )


@pytest.mark.gpu
@pytest.mark.parametrize("name", METHODS)
@pytest.mark.parametrize("axis", AXES, ids=repr)
def test_methods_on_0d_arrays(name, axis):
    a = np.asarray(1.25, dtype=np.float32)
    _compare(lambda: getattr(a, name)(axis=axis), lambda: getattr(cp.asarray(a), name)(axis=axis))
