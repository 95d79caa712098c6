"""eig and eigvals of general matrices against NumPy: eigenvalues (compared sorted), the eigenvector equation
A v = v w with unit columns (eigenvector phases are not unique), NumPy's result dtypes (real for real input
whose whole spectrum is real, complex otherwise), stacks, layouts, empty matrices and NumPy's errors."""

import os
import sys

import cuarray as cp
import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cuarray.linalg import _decompositions
from linalghelpers import INEXACT, assert_rel, host, random, same_error, tol

pytestmark = pytest.mark.gpu

ids = [t.name for t in INEXACT]


def _sorted(w):
    return np.sort(np.asarray(w).astype(np.complex128), axis=-1)


def _check(a, got, want_w, want_v, scale=50):
    """got (cuarray's EigResult) against NumPy's eigenvalues and result dtypes for the NumPy array `a`."""
    __tracebackhide__ = True
    w, v = got
    assert isinstance(got, cp.linalg.EigResult)
    assert w.dtype == want_w.dtype and v.dtype == want_v.dtype, (w.dtype, v.dtype, want_w.dtype, want_v.dtype)
    assert w.shape == want_w.shape and v.shape == want_v.shape
    if not a.size:
        return
    hw, hv = host(w), host(v)
    norm = max(np.abs(a).max(), 1.0)
    np.testing.assert_allclose(_sorted(hw), _sorted(want_w), atol=tol(w.dtype, scale) * norm * a.shape[-1])
    x = a.astype(np.complex128)
    assert_rel(x @ hv, hv * hw[..., None, :], tol(w.dtype, scale) * norm)
    np.testing.assert_allclose(np.linalg.norm(hv.astype(np.complex128), axis=-2), 1.0, atol=tol(w.dtype, 10))


def _symmetric(shape, dtype, seed=0):
    a = random(shape, dtype, seed)
    return ((a + np.swapaxes(a, -1, -2)) / 2).astype(dtype)


def _real_spectrum(shape, dtype, seed=0):
    """A non-symmetric real matrix with real, well-separated eigenvalues: S diag(1..n) S^-1."""
    n = shape[-1]
    s = random(shape, np.float64, seed) + 3 * np.eye(n)
    return (s @ (np.arange(1, n + 1)[:, None] * np.linalg.inv(s))).astype(dtype)


MATRICES = {
    "random": random,  # real input: complex conjugate pairs
    "symmetric": _symmetric,
    "real_spectrum": _real_spectrum,
}


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize("kind", list(MATRICES))
@pytest.mark.parametrize("shape", [(6, 6), (3, 5, 5), (2, 2, 4, 4), (1, 1), (40, 40)], ids=str)
def test_eig(dtype, kind, shape):
    a = MATRICES[kind](shape, dtype)
    want = np.linalg.eig(a)
    given = cp.asarray(a)
    _check(a, cp.linalg.eig(given), *want)
    np.testing.assert_array_equal(host(given), a)  # the input is left as it was
    w = cp.linalg.eigvals(given)
    assert w.dtype == want[0].dtype and w.shape == want[0].shape
    np.testing.assert_allclose(
        _sorted(host(w)), _sorted(want[0]), atol=tol(dtype, 50) * max(np.abs(a).max(), 1.0) * shape[-1]
    )


def test_real_input_result_dtype():
    # NumPy < 2.5: real results where the spectrum is real, complex otherwise; NumPy 2.5: always complex.
    pairs = np.array([[0.0, -1.0], [1.0, 0.0]])
    got = cp.linalg.eig(cp.asarray(pairs))
    assert got[0].dtype == np.complex128
    np.testing.assert_allclose(_sorted(host(got[0])), [-1j, 1j], atol=1e-14)
    _check(pairs, got, *np.linalg.eig(pairs))
    real = np.array([[2.0, 1.0], [0.0, 3.0]], np.float32)
    want = np.linalg.eig(real)
    got = cp.linalg.eig(cp.asarray(real))
    _check(real, got, *want)
    np.testing.assert_allclose(np.sort(host(got[0]).real), [2.0, 3.0], rtol=1e-6)
    assert cp.linalg.eigvals(cp.asarray(real)).dtype == np.linalg.eigvals(real).dtype
    assert cp.linalg.eigvals(cp.asarray(pairs.astype(np.float32))).dtype == np.complex64


@pytest.mark.parametrize("real_when_possible", [False, True], ids=["numpy2.5", "numpy2.4"])
@pytest.mark.parametrize("case", ["symmetric", "random", "mixed_stack", "real_spectrum"])
def test_both_numpy_rules(monkeypatch, real_when_possible, case):
    # Whichever NumPy runs the tests, check both rules: real results for an all-real spectrum of real input
    # (NumPy < 2.5) and always complex ones (NumPy 2.5).
    monkeypatch.setattr(_decompositions, "_EIG_REAL_WHEN_POSSIBLE", real_when_possible)
    a = {
        "symmetric": _symmetric((5, 5), np.float32),
        "random": random((5, 5), np.float64, seed=4),
        "mixed_stack": np.stack([_symmetric((4, 4), np.float32), random((4, 4), np.float32, seed=3)]),
        "real_spectrum": _real_spectrum((2, 6, 6), np.float64),
    }[case]
    want_w, want_v = np.linalg.eig(a)
    real = real_when_possible and not np.any(want_w.imag)
    t = a.dtype if real else np.result_type(a.dtype, np.complex64)
    want_w, want_v = (want_w.real if real else want_w).astype(t), (want_v.real if real else want_v).astype(t)
    _check(a, cp.linalg.eig(cp.asarray(a)), want_w, want_v)
    assert cp.linalg.eigvals(cp.asarray(a)).dtype == t


def test_stack_of_real_and_complex_spectra_is_complex():
    # NumPy decides for the whole stack: one matrix with a complex pair makes every result complex.
    a = np.stack([_symmetric((4, 4), np.float64), random((4, 4), np.float64, seed=3)])
    want = np.linalg.eig(a)
    assert want[0].dtype == np.complex128
    got = cp.linalg.eig(cp.asarray(a))
    _check(a, got, *want)
    np.testing.assert_array_equal(host(got[1])[0].imag, 0)  # the symmetric matrix's vectors stay real
    np.testing.assert_array_equal(host(got[0])[0].imag, 0)


def test_conjugate_pairs_have_conjugate_eigenvectors():
    a = random((7, 7), np.float64, seed=5)
    w, v = (host(x) for x in cp.linalg.eig(cp.asarray(a)))
    pairs = np.flatnonzero(w.imag > 0)
    assert pairs.size
    np.testing.assert_array_equal(w[pairs + 1], np.conj(w[pairs]))
    np.testing.assert_array_equal(v[:, pairs + 1], np.conj(v[:, pairs]))


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "bool"])
def test_integer_and_bool_input_computes_in_float64(dtype):
    a = (np.arange(16).reshape(4, 4) % 3).astype(dtype)
    want = np.linalg.eig(a)
    _check(a, cp.linalg.eig(cp.asarray(a)), *want)
    assert cp.linalg.eigvals(cp.asarray(a)).dtype == np.linalg.eigvals(a).dtype


def test_python_sequences():
    w = cp.linalg.eigvals([[1, 2], [3, 4]])
    want = np.linalg.eigvals([[1, 2], [3, 4]])
    assert w.dtype == want.dtype
    np.testing.assert_allclose(np.sort(host(w)), np.sort(want), rtol=1e-14)


@pytest.mark.parametrize("layout", ["transposed", "reversed", "strided"])
def test_layouts(layout):
    base = random((2, 12, 12), np.complex128, seed=2)
    a = {
        "transposed": np.swapaxes(base, -1, -2),
        "reversed": base[:, ::-1, ::-1],
        "strided": base[:, ::2, ::2],
    }[layout]
    src = cp.asarray(base)
    given = {"transposed": src.swapaxes(-1, -2), "reversed": src[:, ::-1, ::-1], "strided": src[:, ::2, ::2]}[
        layout
    ]
    _check(a, cp.linalg.eig(given), *np.linalg.eig(a))


@pytest.mark.parametrize("dtype", INEXACT + [np.dtype("int64")], ids=str)
@pytest.mark.parametrize("shape", [(0, 0), (3, 0, 0), (0, 2, 2), (2, 0, 3, 3)], ids=str)
def test_empty(dtype, shape):
    a = np.zeros(shape, dtype)
    want = np.linalg.eig(a)
    _check(a, cp.linalg.eig(cp.asarray(a)), *want)
    w = cp.linalg.eigvals(cp.asarray(a))
    assert w.dtype == want[0].dtype and w.shape == want[0].shape


def test_defective_matrix():
    a = np.array([[1.0, 1.0], [0.0, 1.0]])
    want = np.linalg.eig(a)
    w, v = cp.linalg.eig(cp.asarray(a))
    assert w.dtype == want[0].dtype and v.dtype == want[1].dtype
    np.testing.assert_allclose(host(w), [1.0, 1.0])


@pytest.mark.parametrize("fn", ["eig", "eigvals"])
@pytest.mark.parametrize(
    "bad",
    [
        np.ones((2, 3)),
        np.ones(3),
        np.ones((2, 3, 4)),
        np.array([[np.nan, 0], [0, 1]]),
        np.array([[1, np.inf], [0, 1]], np.complex64),
        np.ones((2, 2), np.float16),
        np.array([[np.inf, 0], [0, 1]], np.float16),
    ],
    ids=str,
)
def test_errors_match_numpy(fn, bad):
    same_error(lambda xp: getattr(xp.linalg, fn)(xp.asarray(bad)))


def test_scalar_and_numpy_input():
    same_error(lambda xp: xp.linalg.eig(xp.asarray(3.0)))
    with pytest.raises(TypeError, match="move it to the GPU"):
        cp.linalg.eigvals(np.eye(2))
