"""Complex numbers in ElementwiseKernel and ReductionKernel bodies: Thrust's complex<T>, as in CuPy (`z = x * 2.0
+ y`, `z += y`, `x.real()`, `conj(x)`, `complex<float>(0, 1)`, precisions mixed as Thrust mixes them). These bodies
did not compile: the variables were the kernels' ca::complex, which has NumPy's arithmetic and nothing more (Note
[Complex variables in user kernels] in python/cuarray/_kernel_types.py). The sources compile without a GPU; the
values are checked against NumPy on one."""

import cuarray as cp
import numpy as np
import pytest
from conftest import assert_same, dtype_id
from cuarray import _core
from test_kernel_sources import _compile_together

COMPLEX = [np.complex64, np.complex128]

# (body, NumPy's value of z for complex inputs x and y of one precision)
BODIES = [
    ("z = x; z += y", lambda x, y: x + y),
    ("z = x * 2.0 + y", lambda x, y: x * 2 + y),
    ("z = x; z *= 2.0; z -= y", lambda x, y: x * 2 - y),
    ("z = x; z += 1", lambda x, y: x + 1),
    ("z = T(2) * x - y / 4", lambda x, y: 2 * x - y / 4),
    ("z = conj(x) * y", lambda x, y: np.conj(x) * y),
    ("z = complex<float>(x.real(), -x.imag()) + thrust::complex<double>(0, 1)", None),
    ("if (real(x) > 0) { z = x; return; } z = y", lambda x, y: np.where(x.real > 0, x, y)),
    ("z = x; z /= y", lambda x, y: x / y),
    ("z = exp(x) * abs(y)", None),
]


def _elementwise_sources(body, dtype):
    k = cp.ElementwiseKernel("T x, T y", "T z", body, "complex_body")
    t = np.dtype(dtype)
    handle = k._definition((t, t), (t,), {"T": t})
    return [_core._elementwise_source(handle, [t, t], [t], c, nd) for c, nd in ((True, 1), (False, 2))]


@pytest.mark.parametrize("dtype", COMPLEX, ids=dtype_id)
@pytest.mark.parametrize("body", [b for b, _ in BODIES])
def test_complex_bodies_compile_in_ci(body, dtype):
    assert _compile_together(_elementwise_sources(body, dtype))[:4] == b"\x7fELF"


REDUCTIONS = [
    ("x * 2.0", "y = a", lambda s, n: s * 2),
    ("conj(x) * x", "y = a", None),
    ("x", "y = a * 0.5", lambda s, n: s * 0.5),
    ("x", "y = a; y /= _in_ind.size() / _out_ind.size()", lambda s, n: s / n),
]


@pytest.mark.parametrize("dtype", COMPLEX, ids=dtype_id)
@pytest.mark.parametrize("map_expr,post", [(m, p) for m, p, _ in REDUCTIONS])
def test_complex_reductions_compile_in_ci(map_expr, post, dtype):
    k = cp.ReductionKernel("T x", "T y", map_expr, "a + b", post, "0", "complex_reduction")
    t = np.dtype(dtype)
    handle = k._definition((t,), t, {"T": t})
    src = _core._reduction_source(handle, [str(t)], str(t), str(t), 0, 1, True)
    assert _compile_together([src])[:4] == b"\x7fELF"


def test_complex_parameters_are_thrusts_as_cupys():
    (x,) = cp.ElementwiseKernel("complex64 x", "complex128 z", "z = x", "ctype").in_params
    assert x.ctype == "complex<float>"


def _data(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    # Multiples of 1/8: sums, doublings and products by 2 are exact in either precision.
    return ((rng.integers(-40, 40, shape) + 1j * rng.integers(-40, 40, shape)) / 8).astype(dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", COMPLEX, ids=dtype_id)
@pytest.mark.parametrize("body,want", [(b, w) for b, w in BODIES if w is not None])
def test_complex_bodies_match_numpy(body, want, dtype):
    x, y = _data((5, 7), dtype, 0), _data((5, 7), dtype, 1)
    y[y == 0] = 1
    k = cp.ElementwiseKernel("T x, T y", "T z", body, "complex_body")
    got = k(cp.asarray(x), cp.asarray(y))
    assert got.dtype == dtype
    np.testing.assert_allclose(got.get(), want(x, y), rtol=1e-6)
    # Non-contiguous inputs and an out= array.
    out = cp.zeros((7, 5), dtype=dtype)
    k(cp.asarray(x).T, cp.asarray(y).T, out)
    np.testing.assert_allclose(out.get(), want(x.T, y.T), rtol=1e-6)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", COMPLEX, ids=dtype_id)
def test_mixed_precision_follows_thrust(dtype):
    # complex<float> * 0.1 is computed in double and rounded once, as Thrust computes it in CuPy's kernels.
    x = _data(64, dtype, 2)
    k = cp.ElementwiseKernel("T x", "T z", "z = x * 0.1", "times_tenth")
    want = (x.astype(np.complex128) * 0.1).astype(dtype)
    assert_same(k(cp.asarray(x)), want)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", COMPLEX, ids=dtype_id)
@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("map_expr,post,want", [r for r in REDUCTIONS if r[2] is not None])
def test_complex_reductions_match_numpy(map_expr, post, want, dtype, axis):
    x = _data((6, 9), dtype, 3)
    k = cp.ReductionKernel("T x", "T y", map_expr, "a + b", post, "0", "complex_reduction")
    got = k(cp.asarray(x), axis=axis)
    n = x.size // np.sum(x, axis=axis).size
    np.testing.assert_allclose(got.get(), want(x.sum(axis=axis), n), rtol=1e-6)
