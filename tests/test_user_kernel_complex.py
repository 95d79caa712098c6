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
from test_kernel_sources import _compile_together, compile_for_test

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
    # CuPy's and Thrust's functions beyond the arithmetic (they had compiled on ca::complex, through its own names).
    ("z = isnan(x) || isinf(y) || !isfinite(x) ? y : x", lambda x, y: x),
    (
        "z = log10(x) + expm1(y) - log1p(x) + log2(y)",
        lambda x, y: np.log10(x) + np.expm1(y) - np.log1p(x) + np.log2(y),
    ),
    ("z = pow(x, 2) + pow(x, y)", lambda x, y: np.power(x, 2) + np.power(x, y)),
    (
        "z = asin(x) + acos(y) + atanh(x) + asinh(y)",
        lambda x, y: np.arcsin(x) + np.arccos(y) + np.arctanh(x) + np.arcsinh(y),
    ),
    ("z = x == y || x != complex<double>(1, 0) || x == 2 ? proj(x) : rint(y)", lambda x, y: x),
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
    ("isnan(x) ? T(0) : x", "y = isinf(a) ? T(0) : a", lambda s, n: s),
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


def _complex_accumulator(spelling="complex128"):
    # Real inputs and output, a complex accumulator: post_map sees `a` as complex<double>.
    return cp.ReductionKernel(
        "float64 x", "float64 y", "x", "a + b", "y = abs(a)", "0", "k", reduce_type=spelling
    )


@pytest.mark.parametrize("spelling", ["complex128", "complex<double>", "thrust::complex<double>"])
def test_a_complex_accumulator_of_real_operands_compiles_in_ci(spelling):
    t = np.dtype(np.float64)
    handle = _complex_accumulator(spelling)._definition((t,), t, {})
    src = _core._reduction_source(handle, ["float64"], "float64", "float64", 0, 1, True)
    assert _compile_together([src])[:4] == b"\x7fELF"


@pytest.mark.gpu
def test_a_complex_accumulator_of_real_operands():
    x = np.arange(-5.0, 7.0).reshape(3, 4)
    assert_same(_complex_accumulator()(cp.asarray(x), axis=1), np.abs(x.sum(axis=1)))


RAW = r"""
#include <cupy/complex.cuh>
__constant__ float proj[16];  // the header's functions take no global names beyond Thrust's
extern "C" __global__ void raw_complex(const complex<float>* x, complex<float>* y, const bool* b) {
    int i = threadIdx.x;
    y[i] = thrust::pow(x[i], 2.0f) + pow(x[i], complex<double>(1, 1)) + pow(x[i], b[i]) + log10(x[i]) + proj[0];
}
"""


def test_raw_kernel_with_the_complex_header_alone_compiles_in_ci():
    # pow, log10, ... needed the kernels' math header besides; `proj` was taken at global scope.
    assert compile_for_test(RAW, "raw_complex")[:4] == b"\x7fELF"


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
    # The elementary functions are NumPy's to within a few ulps, which cancellation in a sum can magnify.
    single = np.dtype(dtype) == np.complex64
    tol = (
        {"rtol": 1e-6}
        if "(" not in body.split("=", 1)[1]
        else {"rtol": 1e-4 if single else 1e-12, "atol": 1e-5 if single else 1e-13}
    )
    np.testing.assert_allclose(got.get(), want(x, y), **tol)
    # Non-contiguous inputs and an out= array.
    out = cp.zeros((7, 5), dtype=dtype)
    k(cp.asarray(x).T, cp.asarray(y).T, out)
    np.testing.assert_allclose(out.get(), want(x.T, y.T), **tol)


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
