"""qr, cholesky, eigh, eigvalsh and svd: reconstruction errors, unitarity, triangularity and shapes against
NumPy, for every dtype, stacks, layouts and empty matrices; the SVD's polar path (large matrices) and its
fallback (rank-deficient ones); NumPy's errors."""

import os
import sys

import cuarray as cp
import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from linalghelpers import INEXACT, assert_rel, hermitian_pd, host, random, same_error, tol

pytestmark = pytest.mark.gpu

ids = [t.name for t in INEXACT]


def _h(x):
    """conj(x^T) over the last two axes, on the host."""
    return np.conj(np.swapaxes(x, -1, -2))


def _assert_unitary_columns(q, dtype, scale=1.0):
    __tracebackhide__ = True
    q = (host(q) if isinstance(q, cp.ndarray) else q).astype(np.complex128)
    k = q.shape[-1]
    assert_rel(_h(q) @ q, np.broadcast_to(np.eye(k), q.shape[:-2] + (k, k)), tol(dtype, 10 * scale))


QR_SHAPES = [(6, 4), (4, 6), (5, 5), (3, 6, 4), (2, 3, 4, 6), (1, 1), (0, 3), (3, 0)]


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize("shape", QR_SHAPES, ids=str)
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr(dtype, shape, mode):
    a = random(shape, dtype)
    q, r = cp.linalg.qr(cp.asarray(a), mode=mode)
    nq, nr = np.linalg.qr(a, mode=mode)
    assert q.dtype == nq.dtype == dtype and r.dtype == nr.dtype
    assert q.shape == nq.shape and r.shape == nr.shape
    hq, hr = host(q), host(r)
    if a.size:
        assert_rel(hq @ hr, a, tol(dtype, 10))
        np.testing.assert_allclose(np.abs(hr), np.abs(nr), atol=tol(dtype, 100) * np.abs(a).max())
    assert np.all(np.tril(hr, -1) == 0), "R has non-zeros below its diagonal"
    if q.shape[-1]:
        _assert_unitary_columns(q, dtype)


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (2, 5, 3)], ids=str)
def test_qr_r_and_raw(dtype, shape):
    a = random(shape, dtype)
    r = cp.linalg.qr(cp.asarray(a), mode="r")
    assert r.shape == np.linalg.qr(a, mode="r").shape
    _, r_reduced = cp.linalg.qr(cp.asarray(a))
    atol = tol(dtype, 10) * np.abs(a).max()
    np.testing.assert_allclose(host(r), host(r_reduced), atol=atol)
    h, tau = cp.linalg.qr(cp.asarray(a), mode="raw")
    nh, ntau = np.linalg.qr(a, mode="raw")
    assert h.shape == nh.shape and tau.shape == ntau.shape
    assert h.dtype == nh.dtype and tau.dtype == ntau.dtype
    k = min(shape[-2:])
    # h holds R (transposed, LAPACK's layout) above its diagonal.
    np.testing.assert_allclose(np.triu(np.swapaxes(host(h), -1, -2)[..., :k, :]), host(r), atol=atol)


def test_qr_of_views_leaves_the_input_unchanged():
    a = random((8, 10), "float64")
    d = cp.asarray(a)
    view = d[::2, ::-2]
    q, r = cp.linalg.qr(view)
    assert_rel(host(q) @ host(r), a[::2, ::-2], 1e-12)
    np.testing.assert_array_equal(host(d), a)


def test_qr_errors_match_numpy():
    same_error(lambda xp: xp.linalg.qr(xp.asarray(np.ones((3, 2))), mode="bad"))
    same_error(lambda xp: xp.linalg.qr(xp.asarray(np.ones(3))))


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize("shape", [(5, 5), (3, 4, 4), (1, 1), (0, 0), (2, 0, 0)], ids=str)
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky(dtype, shape, upper):
    a = hermitian_pd(shape, dtype) if shape[-1] else np.zeros(shape, dtype)
    # Only one triangle may be read: fill the other with junk.
    junk = random(shape, dtype, seed=5)
    n = shape[-1]
    keep = np.tril(np.ones((n, n), bool)) if not upper else np.triu(np.ones((n, n), bool))
    given = np.where(keep, a, junk)
    got = cp.linalg.cholesky(cp.asarray(given), upper=upper)
    want = np.linalg.cholesky(a, upper=upper)
    assert got.dtype == want.dtype and got.shape == want.shape
    g = host(got)
    if a.size:
        assert_rel(g, want, tol(dtype, 10))
        recon = _h(g) @ g if upper else g @ _h(g)
        assert_rel(recon, a, tol(dtype, 10))
    assert np.all((np.tril(g, -1) if upper else np.triu(g, 1)) == 0)


def test_cholesky_not_positive_definite():
    same_error(lambda xp: xp.linalg.cholesky(xp.asarray(-np.eye(3))))
    a = np.stack([np.eye(2), -np.eye(2)])
    same_error(lambda xp: xp.linalg.cholesky(xp.asarray(a)))
    same_error(lambda xp: xp.linalg.cholesky(xp.asarray(np.ones((2, 3)))))
    same_error(lambda xp: xp.linalg.cholesky(xp.asarray(np.ones(3))))
    same_error(lambda xp: xp.linalg.cholesky(xp.asarray(np.ones((2, 2), np.float16))))


def _hermitian(shape, dtype, seed=0):
    a = random(shape, dtype, seed)
    return ((a + _h(a)) / 2).astype(dtype)


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize("shape", [(6, 6), (3, 5, 5), (1, 1), (0, 0), (40, 40)], ids=str)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh(dtype, shape, uplo):
    a = _hermitian(shape, dtype)
    n = shape[-1]
    keep = np.tril(np.ones((n, n), bool)) if uplo == "L" else np.triu(np.ones((n, n), bool))
    given = np.where(keep, a, random(shape, dtype, seed=7))
    w, v = cp.linalg.eigh(cp.asarray(given), UPLO=uplo)
    nw, nv = np.linalg.eigh(a)
    assert w.dtype == nw.dtype and v.dtype == nv.dtype
    assert w.shape == nw.shape and v.shape == nv.shape
    if not a.size:
        return
    scale = np.abs(nw).max()
    np.testing.assert_allclose(host(w), nw, atol=tol(dtype, 10) * scale)
    hv = host(v)
    assert_rel(a @ hv, hv * host(w)[..., None, :], tol(dtype, 10) * max(1.0, scale))
    _assert_unitary_columns(v, dtype)
    w_only = cp.linalg.eigvalsh(cp.asarray(given), UPLO=uplo)
    np.testing.assert_allclose(host(w_only), nw, atol=tol(dtype, 10) * scale)
    assert w_only.dtype == np.linalg.eigvalsh(a).dtype


def test_eigh_errors_match_numpy():
    same_error(lambda xp: xp.linalg.eigh(xp.asarray(np.eye(2)), UPLO="X"))
    same_error(lambda xp: xp.linalg.eigvalsh(xp.asarray(np.eye(2)), UPLO="X"))
    same_error(lambda xp: xp.linalg.eigh(xp.asarray(np.ones((2, 3)))))
    same_error(lambda xp: xp.linalg.eigvalsh(xp.asarray(np.ones(3))))


def _check_svd(a, dtype, full_matrices, scale=1.0):
    __tracebackhide__ = True
    u, s, vh = cp.linalg.svd(cp.asarray(a), full_matrices=full_matrices)
    nu, ns, nvh = np.linalg.svd(a, full_matrices=full_matrices)
    assert (u.shape, s.shape, vh.shape) == (nu.shape, ns.shape, nvh.shape)
    assert (u.dtype, s.dtype, vh.dtype) == (nu.dtype, ns.dtype, nvh.dtype)
    if not a.size:
        np.testing.assert_array_equal(host(u), nu)
        np.testing.assert_array_equal(host(vh), nvh)
        return
    hu, hs, hvh = host(u), host(s), host(vh)
    s_max = np.abs(ns).max() if ns.size else 1.0
    np.testing.assert_allclose(hs, ns, atol=tol(dtype, 10 * scale) * max(s_max, 1e-300))
    k = hs.shape[-1]
    assert_rel((hu[..., :, :k] * hs[..., None, :]) @ hvh[..., :k, :], a, tol(dtype, 10 * scale))
    _assert_unitary_columns(u, dtype, scale)
    _assert_unitary_columns(np.conj(np.swapaxes(hvh, -1, -2)), dtype, scale)
    s_only = cp.linalg.svd(cp.asarray(a), compute_uv=False)
    assert s_only.dtype == ns.dtype and s_only.shape == ns.shape
    np.testing.assert_allclose(host(s_only), ns, atol=tol(dtype, 10 * scale) * max(s_max, 1e-300))


SVD_SHAPES = [(6, 4), (4, 6), (5, 5), (3, 6, 4), (2, 4, 7), (1, 1), (0, 3), (3, 0), (2, 0, 3)]


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize("shape", SVD_SHAPES, ids=str)
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_small(dtype, shape, full_matrices):
    _check_svd(random(shape, dtype), dtype, full_matrices)


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
@pytest.mark.parametrize("shape", [(300, 200), (200, 300), (256, 256), (2, 130, 129)], ids=str)
def test_svd_polar_path(dtype, shape):
    # min(m, n) >= 128: cuSOLVER's gesvdp (Note [SVD algorithm] in ops/linalg.cpp).
    _check_svd(random(shape, dtype), dtype, full_matrices=False, scale=10)
    if shape == (300, 200):
        _check_svd(random(shape, dtype), dtype, full_matrices=True, scale=10)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_svd_rank_deficient_keeps_float64_accuracy(dtype):
    # Singular values at zero make gesvdp perturb the matrix; those matrices must be redone with gesvd.
    left, right = random((256, 8), dtype, 1), random((8, 256), dtype, 2)
    a = left @ right
    s = host(cp.linalg.svd(cp.asarray(a), compute_uv=False))
    ns = np.linalg.svd(a, compute_uv=False)
    assert np.abs(s - ns).max() <= 1e-12 * ns[0]
    assert np.all(s[8:] <= 1e-12 * ns[0])
    _check_svd(a, dtype, full_matrices=False, scale=10)
    zero = np.zeros((200, 200), dtype)
    _check_svd(zero + 0, dtype, full_matrices=True)


def test_svd_of_non_contiguous_stack():
    a = random((3, 10, 8), "float64")
    d = cp.asarray(a)
    view = d.transpose(0, 2, 1)[::2]
    u, s, vh = cp.linalg.svd(view, full_matrices=False)
    assert_rel((host(u) * host(s)[..., None, :]) @ host(vh), a.transpose(0, 2, 1)[::2], 1e-12)
    np.testing.assert_array_equal(host(d), a)


def test_svd_hermitian_flag_gives_an_svd():
    a = _hermitian((5, 5), "float64")
    u, s, vh = cp.linalg.svd(cp.asarray(a), hermitian=True)
    np.testing.assert_allclose(host(s), np.linalg.svd(a, compute_uv=False), rtol=1e-12)
    assert_rel((host(u) * host(s)) @ host(vh), a, 1e-12)


def test_svd_errors_match_numpy():
    same_error(lambda xp: xp.linalg.svd(xp.asarray(np.ones(3))))
    same_error(lambda xp: xp.linalg.svd(xp.asarray(np.full((3, 3), np.nan))))
    same_error(lambda xp: xp.linalg.svd(xp.asarray(np.ones((2, 2), np.float16))))
