"""ReductionKernel in CuPy's syntax: against NumPy on several dtypes, axes and keepdims; CI compiles its kernels;
bad definitions and calls raise clear errors."""

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same, dtype_id, make_data
from cuarray import _core
from test_kernel_sources import _compile_together


def l2norm():
    return cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")


def mean_kernel():
    return cp.ReductionKernel(
        "T x",
        "float64 y",
        "x",
        "a + b",
        "y = a / (_in_ind.size() / _out_ind.size())",
        "0",
        "mean_k",
        reduce_type="float64",
    )


def weighted_sum():
    return cp.ReductionKernel("T x, T w", "T y", "x * w", "a + b", "y = a", "0", "wsum")


@pytest.mark.parametrize("make", [l2norm, mean_kernel, weighted_sum])
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=dtype_id)
def test_reduction_kernel_sources_compile_in_ci(make, dtype):
    k = make()
    t = np.dtype(dtype)
    out = np.dtype(np.float64) if make is mean_kernel else t
    handle = k._definition((t,) * k.nin, out, {"T": t})
    for layout, vec, partial in ((0, 4 if t.itemsize == 4 else 2, True), (1, 1, False), (2, 1, False)):
        src = _core._reduction_source(handle, [str(t)] * k.nin, str(out), str(out), layout, vec, partial)
        assert _compile_together([src])[:4] == b"\x7fELF"


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=dtype_id)
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_reduction_kernels_match_numpy(dtype, axis):
    a = make_data((37, 65), dtype)
    w = make_data((37, 65), dtype, seed=1)
    x, xw = cp.asarray(a), cp.asarray(w)
    tol = {"rtol": 1e-5} if np.dtype(dtype) == np.float32 else {}
    assert_same(l2norm()(x, axis=axis), np.sqrt((a * a).sum(axis=axis)), **tol)
    assert_same(mean_kernel()(x, axis=axis), a.astype(np.float64).mean(axis=axis), rtol=1e-6)
    assert_same(weighted_sum()(x, xw, axis=axis, keepdims=True), (a * w).sum(axis=axis, keepdims=True), **tol)


@pytest.mark.gpu
def test_reduction_kernel_out_and_scalar_inputs():
    a = make_data((8, 9), np.float32)
    out = cp.zeros(9, np.float32)
    r = weighted_sum()(cp.asarray(a), np.float32(2), axis=0, out=out)
    assert r is out
    assert_same(out, (a * 2).sum(axis=0), rtol=1e-6)


def test_bad_definitions_raise():
    with pytest.raises(ValueError, match="exactly one output"):
        cp.ReductionKernel("T x", "T y, T z", "x", "a + b", "y = a", "0", "k")
    with pytest.raises(ValueError, match="placeholder U"):
        cp.ReductionKernel("T x", "U y", "x", "a + b", "y = a", "0", "k")
    with pytest.raises(ValueError, match="identifier"):
        cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "bad name")


def test_bad_calls_raise():
    k = l2norm()
    with pytest.raises(TypeError, match="numpy.ndarray"):
        k(np.ones(3))
    with pytest.raises(TypeError, match="takes 1 or 2 arguments"):
        k()
