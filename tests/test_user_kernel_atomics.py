"""CuPy's atomics.cuh in user kernels: atomicAdd on long long, atomicMax and atomicMin on float and double.
ElementwiseKernel bodies have them without an include, as CuPy's have (int64 atomicAdd did not compile); a
RawKernel includes <cupy/atomics.cuh>. The sources compile without a GPU; the values are checked on one."""

import cuarray as cp
import numpy as np
import pytest
from conftest import dtype_id
from cuarray import _core
from test_kernel_sources import _compile_together, compile_for_test

BODIES = [
    (np.int64, "atomicAdd(&z[0], x)"),
    (np.int32, "atomicAdd(&z[0], x)"),
    (np.float32, "atomicMax(&z[0], x); atomicMin(&z[1], x)"),
    (np.float64, "atomicMax(&z[0], x); atomicMin(&z[1], x)"),
]

RAW = r"""
#include <cupy/atomics.cuh>
extern "C" __global__ void raw_atomics(const long long* x, long long* sum, const double* y, double* extremes, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        atomicAdd(sum, x[i]);
        atomicMax(&extremes[0], y[i]);
        atomicMin(&extremes[1], y[i]);
    }
}
"""


def _kernel(body):
    return cp.ElementwiseKernel("T x", "raw T z", body, "atomics")


@pytest.mark.parametrize("dtype,body", BODIES, ids=lambda v: dtype_id(v) if isinstance(v, type) else None)
def test_atomic_bodies_compile_in_ci(dtype, body):
    t = np.dtype(dtype)
    handle = _kernel(body)._definition((t,), (t,), {"T": t})
    src = _core._elementwise_source(handle, [t.name, t.name], [], False, 1, kinds=[0, 2], raw_ndim=[1, 1])
    assert _compile_together([src])[:4] == b"\x7fELF"


def test_raw_kernel_atomics_compile_in_ci():
    assert compile_for_test(RAW, "raw_atomics")[:4] == b"\x7fELF"


def _values(dtype, n=10_000):
    rng = np.random.default_rng(0)
    if np.dtype(dtype).kind == "i":
        return rng.integers(-1000, 1000, n).astype(dtype)
    # Values that float32 cannot tell apart: a double maximum compared in float would pick the wrong one.
    return (1.0 + rng.integers(0, 1000, n) * 1e-12).astype(dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,body", BODIES, ids=lambda v: dtype_id(v) if isinstance(v, type) else None)
def test_atomic_bodies_match_numpy(dtype, body):
    x = _values(dtype)
    if np.dtype(dtype).kind == "i":
        z = cp.zeros(1, dtype=dtype)
        _kernel(body)(cp.asarray(x), z)
        assert int(z[0]) == int(x.sum())
    else:
        x[17] = np.nan  # fmax and fmin keep the number
        z = cp.asarray(np.array([-np.inf, np.inf], dtype=dtype))
        _kernel(body)(cp.asarray(x), z)
        assert z.get().tolist() == [np.nanmax(x), np.nanmin(x)]


@pytest.mark.gpu
def test_raw_kernel_includes_cupys_atomics():
    x = _values(np.int64)
    y = _values(np.float64)
    s = cp.zeros(1, dtype=np.int64)
    e = cp.asarray(np.array([-np.inf, np.inf]))
    cp.RawKernel(RAW, "raw_atomics")((64,), (256,), (cp.asarray(x), s, cp.asarray(y), e, np.int32(x.size)))
    assert int(s[0]) == int(x.sum())
    assert e.get().tolist() == [y.max(), y.min()]
