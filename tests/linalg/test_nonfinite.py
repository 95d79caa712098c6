"""linalg on matrices holding NaN or infinities, against NumPy (Note [Non-finite matrices] in ops/linalg.cpp):
inv, solve, det, slogdet and cholesky return NaN where NumPy does (an all-NaN matrix exactly as NumPy's; a
partly non-finite matrix all NaN, where NumPy's LAPACK leaves some entries finite), never raising; eigh, eig,
svd with vectors, pinv and lstsq raise NumPy's LinAlgError; svd without vectors of infinities is NaN. Stacks
where one matrix only is non-finite keep the others' values."""

import os
import sys
import warnings

import cuarray as cp
import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from linalghelpers import INEXACT, hermitian_pd, host, tol, well_conditioned

pytestmark = pytest.mark.gpu

ids = [t.name for t in INEXACT]
LinAlgError = np.linalg.LinAlgError


def _np(f, *args, **kw):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return f(*args, **kw)


def _stack(dtype, fill, n=4):
    """Four n x n matrices: finite, all `fill`, one `fill` off the diagonal, `fill` on the diagonal."""
    a = well_conditioned((4, n, n), dtype)
    a[1] = fill
    a[2, 0, n - 1] = fill
    a[3, 1, 1] = fill
    return a


def _assert_nan_where_numpy(got, want, nonfinite, compare=True):
    """Matrices `nonfinite` (indices into the stack) are all NaN, and with `compare` NumPy's hold a NaN too (for
    infinities LAPACK's may be finite); the others match NumPy's."""
    __tracebackhide__ = True
    got = host(got)
    want = np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype
    for i in range(got.shape[0]):
        if i in nonfinite:
            assert np.isnan(got[i]).all(), f"matrix {i}: {got[i]}"
            assert not compare or np.isnan(want[i]).any()
        else:
            np.testing.assert_allclose(got[i], want[i], rtol=tol(want.dtype, 100), atol=tol(want.dtype, 100))


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
def test_inv_solve_det_of_an_all_nan_matrix_are_numpys(dtype):
    """The reported case: inv of an all-NaN matrix raised 'Singular matrix' and det gave 0; NumPy: NaN."""
    a = np.full((3, 3), np.nan, dtype)
    x = cp.asarray(a)
    for got, want in (
        (cp.linalg.inv(x), _np(np.linalg.inv, a)),
        (cp.linalg.det(x), _np(np.linalg.det, a)),
        (cp.linalg.solve(x, cp.ones(3, dtype)), _np(np.linalg.solve, a, np.ones(3, dtype))),
        (cp.linalg.matrix_power(x, -1), _np(np.linalg.matrix_power, a, -1)),
    ):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(host(got), want)  # all NaN
    sign, logdet = cp.linalg.slogdet(x)
    nsign, nlogdet = _np(np.linalg.slogdet, a)
    assert np.isnan(host(logdet)) and np.isnan(nlogdet)
    if a.dtype.kind == "c":
        np.testing.assert_array_equal(host(sign), nsign)  # nan+nanj
    else:  # NumPy's 1 comes from LAPACK's pivots (none for all-NaN columns); cuSOLVER's may swap rows
        assert abs(host(sign)) == 1 and nsign == 1


@pytest.mark.parametrize("fill", [np.nan, np.inf, -np.inf], ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
def test_lu_family_on_stacks_with_non_finite_matrices(dtype, fill):
    a = _stack(dtype, fill)
    x = cp.asarray(a)
    bad, nan = (1, 2, 3), bool(np.isnan(fill))
    _assert_nan_where_numpy(cp.linalg.inv(x), _np(np.linalg.inv, a), bad, nan)
    b = np.ones((4, 4, 2), dtype)
    _assert_nan_where_numpy(cp.linalg.solve(x, cp.asarray(b)), _np(np.linalg.solve, a, b), bad, nan)
    det = host(cp.linalg.det(x))
    assert np.isnan(det[1:]).all()
    np.testing.assert_allclose(det[0], np.linalg.det(a[0]), rtol=tol(dtype, 100))
    sign, logdet = (host(r) for r in cp.linalg.slogdet(x))
    assert np.isnan(logdet[1:]).all()
    assert np.isnan(sign[1:]).all() if a.dtype.kind == "c" else (np.abs(sign[1:]) == 1).all()
    # transposed (non-contiguous) input, and a batch broadcast against b
    _assert_nan_where_numpy(cp.linalg.inv(x.swapaxes(1, 2)), _np(np.linalg.inv, a.swapaxes(1, 2)), bad, nan)
    got = cp.linalg.solve(x[1:2], cp.asarray(np.ones((3, 4, 1), dtype)))
    assert got.shape == (3, 4, 1) and np.isnan(host(got)).all()


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
def test_solve_with_nan_on_the_right_is_numpys(dtype):
    a = well_conditioned((5, 5), dtype)
    b = np.ones((5, 2), dtype)
    b[2, 0] = np.nan
    got = cp.linalg.solve(cp.asarray(a), cp.asarray(b))
    np.testing.assert_allclose(host(got), _np(np.linalg.solve, a, b), rtol=tol(dtype, 100), equal_nan=True)


def test_non_finite_inverse_on_a_stream_raises_nothing_later():
    """On a stream of the user's (deferred checks), the NaN result is decided on the device: nothing is
    raised at the next wait, and a singular finite matrix on the same stream still is."""
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        r = cp.linalg.inv(cp.full((3, 3), np.nan))
    s.synchronize()
    assert np.isnan(host(r)).all()
    with s:
        cp.linalg.inv(cp.ones((3, 3)))
    with pytest.raises(LinAlgError, match="Singular matrix"):
        s.synchronize()
    with pytest.raises(LinAlgError, match="Singular matrix"):
        cp.linalg.inv(cp.ones((3, 3)))  # the null stream: at the call


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
def test_cholesky_of_non_finite_matrices(dtype):
    a = np.full((3, 3), np.nan, dtype)
    for upper in (False, True):
        got = cp.linalg.cholesky(cp.asarray(a), upper=upper)
        np.testing.assert_array_equal(host(got), _np(np.linalg.cholesky, a, upper=upper))  # NaN and zeros
    p = hermitian_pd((2, 4, 4), dtype)
    p[1, 0, 3] = np.nan  # the upper triangle only: the lower factor never reads it, the upper one does
    x = cp.asarray(p)
    np.testing.assert_allclose(host(cp.linalg.cholesky(x)), np.linalg.cholesky(p), rtol=tol(dtype, 100))
    got = host(cp.linalg.cholesky(x, upper=True))
    np.testing.assert_allclose(got[0], np.linalg.cholesky(p[0], upper=True), rtol=tol(dtype, 100))
    assert np.isnan(got[1][np.triu_indices(4)]).all() and (np.tril(got[1], -1) == 0).all()
    assert np.isnan(_np(np.linalg.cholesky, p, upper=True)[1]).any()
    p[1, 0, 3] = p[1, 3, 0] = np.inf
    got = host(cp.linalg.cholesky(cp.asarray(p)))
    assert np.isnan(got[1][np.tril_indices(4)]).all() and (np.triu(got[1], 1) == 0).all()


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
def test_eigh_raises_where_numpy_does(dtype):
    p = hermitian_pd((2, 4, 4), dtype)
    p[1, 2, 1] = np.nan  # lower triangle
    for f in (np.linalg.eigh, np.linalg.eigvalsh):
        with pytest.raises(LinAlgError, match="Eigenvalues did not converge"):
            f(p)
        with pytest.raises(LinAlgError, match="Eigenvalues did not converge"):
            getattr(cp.linalg, f.__name__)(cp.asarray(p))
        # UPLO='U' never reads it: NumPy's values
        np.testing.assert_allclose(
            host(cp.linalg.eigvalsh(cp.asarray(p), UPLO="U")),
            np.linalg.eigvalsh(p, UPLO="U"),
            rtol=tol(dtype, 100),
            atol=tol(dtype, 100),
        )
    with pytest.raises(LinAlgError, match="Eigenvalues did not converge"):
        cp.linalg.eigvalsh(cp.full((3, 3), np.inf, dtype))
    for f in (cp.linalg.eig, cp.linalg.eigvals):
        with pytest.raises(LinAlgError, match="Array must not contain infs or NaNs"):
            f(cp.asarray(p))


def m_(m, a):
    """`a` for module `m`: as it is for NumPy, on the device for cuarray."""
    return cp.asarray(a) if m is cp else a


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
def test_svd_family_of_non_finite_matrices(dtype):
    """NumPy's gesdd: NaN raises 'SVD did not converge' with or without vectors (and so pinv, lstsq, norm 2,
    cond and matrix_rank); all infinities give NaN singular values without vectors, and raise with them."""
    a = np.full((2, 3, 3), np.nan, dtype)
    a[0] = well_conditioned((3, 3), dtype)
    calls = [
        lambda m: m.linalg.svd(m_(m, a)),
        lambda m: m.linalg.svd(m_(m, a), compute_uv=False),
        lambda m: m.linalg.pinv(m_(m, a)),
        lambda m: m.linalg.matrix_rank(m_(m, a)),
        lambda m: m.linalg.cond(m_(m, a)),
        lambda m: m.linalg.norm(m_(m, a), 2, axis=(-2, -1)),
        lambda m: m.linalg.lstsq(m_(m, a)[1], m.ones(3, dtype)),
    ]
    for call in calls:
        with pytest.raises(LinAlgError):
            _np(call, np)
        with pytest.raises(LinAlgError, match="SVD did not converge"):
            call(cp)
    inf = np.full((2, 3, 3), np.inf, dtype)
    inf[0] = a[0]
    y = cp.asarray(inf)
    with pytest.raises(LinAlgError):
        _np(np.linalg.svd, inf)
    with pytest.raises(LinAlgError, match="SVD did not converge"):
        cp.linalg.svd(y)
    got, want = cp.linalg.svd(y, compute_uv=False), _np(np.linalg.svd, inf, compute_uv=False)
    np.testing.assert_allclose(host(got), want, rtol=tol(dtype, 100), equal_nan=True)
    assert np.isnan(want[1]).all()
    assert host(cp.linalg.matrix_rank(y)).tolist() == _np(np.linalg.matrix_rank, inf).tolist()
    np.testing.assert_allclose(host(cp.linalg.cond(y)), _np(np.linalg.cond, inf), rtol=tol(dtype, 100))
    np.testing.assert_allclose(
        host(cp.linalg.norm(y, "nuc", axis=(-2, -1))),
        _np(np.linalg.norm, inf, "nuc", axis=(-2, -1)),
        rtol=tol(dtype, 100),
        equal_nan=True,
    )


@pytest.mark.parametrize("dtype", INEXACT, ids=ids)
def test_qr_of_an_all_nan_matrix_is_numpys(dtype):
    a = np.full((4, 3), np.nan, dtype)
    q, r = cp.linalg.qr(cp.asarray(a))
    nq, nr = _np(np.linalg.qr, a)
    np.testing.assert_array_equal(host(q), nq)
    np.testing.assert_array_equal(host(r), nr)
