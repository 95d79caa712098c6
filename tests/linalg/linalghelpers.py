"""Shared helpers for the linear algebra tests in tests/linalg (imported by the modules next to it, which put
this directory on sys.path first). Not a test module."""

import cuarray as cp
import numpy as np
import pytest

INEXACT = [np.dtype(t) for t in ("float32", "float64", "complex64", "complex128")]
# Normwise relative error allowed for results computed in each precision (backward-stable algorithms on
# well-conditioned data of modest size).
TOL = {"f": 2e-5, "F": 2e-5, "d": 1e-12, "D": 1e-12}


def tol(dtype, scale=1.0):
    return TOL[np.dtype(dtype).char] * scale


def random(shape, dtype, seed=0):
    """Standard-normal data (real and imaginary parts for complex dtypes) as a NumPy array of `dtype`."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    x = rng.standard_normal(shape)
    if dtype.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def well_conditioned(shape, dtype, seed=0):
    """Random square matrices plus n on the diagonal: condition numbers of a few units."""
    a = random(shape, dtype, seed)
    n = shape[-1]
    return (a + n * np.eye(n, dtype=dtype)).astype(dtype)


def hermitian_pd(shape, dtype, seed=0):
    """Random Hermitian positive-definite matrices (A A^H + n I)."""
    a = random(shape, dtype, seed)
    n = shape[-1]
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n, dtype=dtype)).astype(dtype)


def rel_err(got, want):
    """||got - want|| / ||want|| (Frobenius over the whole array), computed in double precision on the host."""
    got = cp.asnumpy(got) if isinstance(got, cp.ndarray) else np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
    g, w = got.astype(np.complex128), want.astype(np.complex128)
    scale = np.linalg.norm(w)
    return np.linalg.norm(g - w) / (scale if scale else 1.0)


def assert_rel(got, want, tolerance):
    __tracebackhide__ = True
    err = rel_err(got, want)
    assert err <= tolerance, f"relative error {err:.3g} > {tolerance:.3g}"


def host(x):
    assert isinstance(x, cp.ndarray), f"expected a cuarray.ndarray, got {type(x)!r}"
    return cp.asnumpy(x)


def same_error(fn, exact=True):
    """fn(numpy) and fn(cuarray) raise the same exception type; with `exact`, the same message."""
    __tracebackhide__ = True
    with pytest.raises(Exception) as expected:
        fn(np)
    with pytest.raises(type(expected.value)) as got:
        fn(cp)
    if exact:
        assert str(got.value) == str(expected.value)
    return got.value
