"""cupyx's scatter_add, scatter_max and scatter_min (top level and as array methods): NumPy's ufunc.at on the
same inputs, repeated indices counting once per occurrence, values cast to the array's dtype."""

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, dtype_id, make_data

gpu = pytest.mark.gpu

OPS = {"scatter_add": np.add, "scatter_max": np.maximum, "scatter_min": np.minimum}
KEYS = [
    lambda xp: xp.asarray([0, 2, 2, 5, 0, 2]),  # repeated positions
    lambda xp: (xp.asarray([1, 1, 3]), slice(None)),  # rows, repeated
    lambda xp: xp.asarray(np.array([True, False, True, False, False, True])),
    lambda xp: slice(None, None, -2),
    lambda xp: (Ellipsis, 1),
]


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("key", range(len(KEYS)))
@pytest.mark.parametrize("name", list(OPS))
@pytest.mark.parametrize("method", [False, True])
def test_scatter_as_numpy_ufunc_at(name, key, dtype, method):
    base = make_data((6, 4), dtype, 0)
    want = base.copy()
    k_np = KEYS[key](np)
    values = make_data(want[k_np].shape, dtype, 1)
    OPS[name].at(want, k_np, values)
    got = cp.asarray(base)
    args = (KEYS[key](cp), cp.asarray(values))
    assert (getattr(got, name)(*args) if method else getattr(cp, name)(got, *args)) is None
    np.testing.assert_array_equal(got.get(), want)


@gpu
@pytest.mark.parametrize("name", list(OPS))
def test_scatter_casts_values_to_the_array_dtype_and_broadcasts(name):
    a = cp.zeros(5, np.int32)
    getattr(cp, name)(a, cp.asarray([1, 1, 4]), 2.75)  # a float value into an int array: cast, as CuPy does
    want = np.zeros(5, np.int32)
    OPS[name].at(want, [1, 1, 4], 2)
    np.testing.assert_array_equal(a.get(), want)
    with pytest.raises(TypeError, match="must be cuarray.ndarray"):
        getattr(cp, name)(np.zeros(3), [0], 1)


@gpu
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "int32", "uint8"])
def test_rsqrt_is_the_reciprocal_square_root(dtype):
    a = np.abs(make_data((7,), dtype)) + np.array(1, dtype)
    with np.errstate(divide="ignore"):
        want = np.reciprocal(np.sqrt(a))
    got = cp.rsqrt(cp.asarray(a))
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, rtol=2e-3 if dtype == "float16" else 1e-6)


@gpu
def test_generalized_ufunc_and_runtime_info_are_cupyx_names(capsys):
    dot = cp.GeneralizedUFunc(lambda x, y: (x * y).sum(axis=-1), "(i),(i)->()", supports_batched=True)
    a = make_data((3, 4), np.float64)
    np.testing.assert_allclose(dot(cp.asarray(a), cp.asarray(a)).get(), (a * a).sum(-1))
    cp.show_config()
    printed = capsys.readouterr().out
    assert str(cp.get_runtime_info()) == printed.rstrip("\n")
    assert "Device" not in str(cp.get_runtime_info(full=False))
