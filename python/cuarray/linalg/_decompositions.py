"""Factorisations: qr, cholesky, eigh, eigvalsh, eig, eigvals, svd, svdvals (cuSOLVER through _core.linalg)."""

import warnings
from collections import namedtuple

import numpy

from cuarray import _core
from cuarray import _ufuncs as _u
from cuarray._creation import _in_layout_of, _laid_out_like, zeros
from cuarray._indexing import take_along_axis
from cuarray._joining import concatenate
from cuarray._sorting import argsort, sort
from cuarray.linalg import _checks as c

QRResult = namedtuple("QRResult", ["Q", "R"])
EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])

_L = _core.linalg

# NumPy before 2.5 gives real eig/eigvals results for real input whose eigenvalues are all real; 2.5 always
# gives complex ones. cuarray follows the NumPy it runs with (as for ufunc types): asked once, on a 1 x 1 matrix.
_EIG_REAL_WHEN_POSSIBLE = numpy.linalg.eigvals(numpy.ones((1, 1))).dtype.kind == "f"


def _prepared(a, name, square):
    """a on the device, checked as NumPy checks it, in the dtype linalg computes in."""
    a = c.as_array(a, name)
    c.check_stacked_2d(a.shape)
    if square:
        c.check_stacked_square(a.shape)
    return a.astype(c.result_dtype(a.dtype), copy=False)


def qr(a, mode="reduced"):
    """The QR factorisation of each matrix: QRResult(Q, R) for mode 'reduced' (Q m x k) and 'complete'
    (Q m x m), R alone for 'r', and LAPACK's (h, tau) for 'raw'. NumPy's deprecated modes, with its
    DeprecationWarning: 'full' and 'f' are 'reduced'; 'economic' and 'e' give h alone, as an m x n array (R above
    the diagonal, the reflectors below: raw's h transposed). Results are laid out as NumPy's: Q C-ordered, and R
    and h from the copy of `a` (order 'K') that LAPACK factors in place."""
    if mode not in ("reduced", "complete", "r", "raw"):
        if mode in ("f", "full"):
            msg = "The 'full' option is deprecated in favor of 'reduced'.\n"
            warnings.warn(
                msg + "For backward compatibility let mode default.", DeprecationWarning, stacklevel=2
            )
            mode = "reduced"
        elif mode in ("e", "economic"):
            warnings.warn("The 'economic' option is deprecated.", DeprecationWarning, stacklevel=2)
            a = _prepared(a, "qr", False)
            return _laid_out_like(_L.qr(a, "raw")[0].swapaxes(-1, -2), a)
        else:
            raise ValueError(f"Unrecognized mode '{mode}'")
    a = _prepared(a, "qr", False)
    out = list(_L.qr(a, mode))
    if mode == "raw":  # NumPy's h is its factored copy of `a` transposed
        out[0] = _laid_out_like(out[0].swapaxes(-1, -2), a).swapaxes(-1, -2)
    else:
        out[-1] = _r_layout(out[-1], a)
    if mode == "r":
        return out[0]
    return tuple(out) if mode == "raw" else QRResult(*out)


def _r_layout(r, a):
    """R laid out as NumPy's: triu() of the rows of a copy of `a` (order 'K') that LAPACK factored in place,
    so where(tri mask, 0, rows), in the layouts of those two operands (Q is C-ordered in both)."""
    if a.flags.c_contiguous or r.size == 0:
        return r
    rows = _core._empty_like(a, r.dtype)[..., : r.shape[-2], :]
    return _in_layout_of(
        r, _core._empty_like_all(r.shape, r.dtype, [_core.empty(r.shape[-2:], numpy.bool_), rows], True)
    )


def cholesky(a, /, *, upper=False):
    """L with A = L L^H (or with upper=True, U with A = U^H U); LinAlgError unless A is positive definite."""
    return _L.cholesky(_prepared(a, "cholesky", True), upper)


def _uplo(UPLO):
    UPLO = UPLO.upper()  # as NumPy's: a non-string is its AttributeError
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return UPLO


def eigh(a, UPLO="L"):
    """Eigenvalues (ascending) and eigenvectors (columns) of Hermitian matrices, from one triangle."""
    UPLO = _uplo(UPLO)
    return EighResult(*_L.eigh(_prepared(a, "eigh", True), UPLO, True))


def eigvalsh(a, UPLO="L"):
    """The eigenvalues of Hermitian matrices, in ascending order."""
    UPLO = _uplo(UPLO)
    return _L.eigh(_prepared(a, "eigvalsh", True), UPLO, False)[0]


def _general_eig(a, name, vectors):
    """NumPy's eig (with `vectors`) or eigvals: cuSOLVER's geev, then, for real input, complex results, or with
    NumPy < 2.5 real ones where every eigenvalue of the stack is real."""
    a = c.as_array(a, name)
    c.check_stacked_2d(a.shape)
    c.check_stacked_square(a.shape)
    # NumPy's order of checks: finiteness before the dtype. One small readback (integers are always finite).
    if a.dtype.kind not in "biu" and not bool(_u.isfinite(a).all()):
        raise c.LinAlgError("Array must not contain infs or NaNs")
    a = a.astype(c.result_dtype(a.dtype), copy=False)
    out = _L.eig(a, vectors)
    if a.dtype.kind == "c":
        return out
    w, wi = out[0], _u._imag(out[0])
    if _EIG_REAL_WHEN_POSSIBLE and bool(
        _u.equal(wi, 0).all()
    ):  # the dtype depends on the values: one readback
        return (_u._real(w),) + tuple(out[1:])  # geev's real eigenvectors are then NumPy's
    if not vectors:
        return (w,)
    # LAPACK's layout: for a pair w[j] (imaginary part > 0), w[j + 1] = conj(w[j]), the eigenvectors are
    # vr[:, j] + i vr[:, j + 1] and its conjugate. Column j's neighbours come from the stack shifted by one.
    vr = out[1]
    pad = zeros(vr.shape[:-1] + (1,), vr.dtype)
    following = concatenate([vr[..., 1:], pad], axis=-1)
    preceding = concatenate([pad, vr[..., :-1]], axis=-1)
    first, second = _u.greater(wi, 0)[..., None, :], _u.less(wi, 0)[..., None, :]
    real = _u._where(second, preceding, vr)
    imag = _u._where(first, following, _u._where(second, _u.negative(vr), 0))
    return w, _u._complex(real, imag)


def eig(a):
    """EigResult(eigenvalues, eigenvectors) of general square matrices: eigenvectors as columns of unit 2-norm,
    each with its largest component real (LAPACK's). Complex, or real as NumPy < 2.5 gives them (_general_eig)."""
    return EigResult(*_general_eig(a, "eig", True))


def eigvals(a):
    """The eigenvalues of general square matrices, in eig's dtype."""
    return _general_eig(a, "eigvals", False)[0]


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """SVDResult(U, S, Vh) with a = U @ diag(S) @ Vh and S descending, or S alone without compute_uv. With
    `hermitian`, NumPy's SVD from eigh of the square matrices, which reads only their lower triangles (Note
    [Hermitian SVD]); full_matrices then does not matter."""
    if hermitian:
        return _hermitian_svd(a, compute_uv)
    out = _L.svd(_prepared(a, "svd", False), full_matrices, compute_uv)
    return SVDResult(*out) if compute_uv else out[0]


def svd_as_numpy(a, full_matrices=True, compute_uv=True, hermitian=False):
    """svd(a) as NumPy computes it for the functions that cut singular values at a threshold (pinv, matrix_rank,
    cond, the -2 matrix norm): in double precision for single-precision input, rounded to that precision after
    (Note [Thresholded SVDs in double precision])."""
    a = _prepared(a, "svd", False)
    wide = numpy.result_type(a.dtype, numpy.float64)
    if wide == a.dtype:
        return svd(a, full_matrices, compute_uv, hermitian)
    r = svd(a.astype(wide), full_matrices, compute_uv, hermitian)
    real = numpy.finfo(a.dtype).dtype
    if not compute_uv:
        return r.astype(real)
    return SVDResult(r.U.astype(a.dtype), r.S.astype(real), r.Vh.astype(a.dtype))


# Note [Thresholded SVDs in double precision]
# NumPy's linalg computes in double precision whatever the input's precision and rounds the results. Most of
# cuarray's linalg computes single-precision input in single precision, as CuPy does: the values differ by
# rounding. Where singular values are compared with a threshold, they differ by more: float32's SVD leaves the
# zero singular values of a rank-deficient matrix at about 1e-7 * s.max() where float64's leave about 1e-16 *
# s.max(), so pinv's 1e-15 cutoff kept them (a rank-1 float32 matrix had a pseudo-inverse of 1e12, NumPy's of
# 1e-3), matrix_rank with a small tol counted them, and cond of a singular matrix was 1e7, not NumPy's 1e16 or
# inf. Those functions therefore take NumPy's SVD (svd_as_numpy), and lstsq computes in double precision
# throughout (Note [lstsq in double precision]).


# Note [Hermitian SVD]
# NumPy's svd(..., hermitian=True) takes eigh of the matrix (UPLO='L'), which reads only the lower triangle:
# the result is the SVD of the Hermitian matrix that triangle defines, whatever the upper one holds. So the
# general SVD of the whole matrix would differ from NumPy's wherever the input is not exactly Hermitian
# (pinv and matrix_rank with hermitian=True go through here too). The steps are NumPy's: the singular values
# are the eigenvalues' magnitudes in descending order (a stable argsort of the magnitudes, reversed: among
# equal magnitudes the later eigenvalue first, as NumPy's argsort gives it for fewer than 16 elements; its
# SIMD sorts of longer rows may order ties otherwise), U the eigenvectors in that order and Vh their conjugate
# transpose with each row times the sign of its eigenvalue (copysign: -0.0 counts as negative). The
# eigenvectors are cuSOLVER's: each may differ from LAPACK's by a sign (a phase for complex ones), as with
# eigh itself; S and U diag(S) Vh are NumPy's.


def _hermitian_svd(a, compute_uv):
    if not compute_uv:
        return sort(_u.absolute(eigvalsh(a)))[..., ::-1]
    s, u = eigh(a)
    sign = _u.copysign(1.0, s)
    s = _u.absolute(s)
    order = argsort(s)[..., ::-1]
    sign = take_along_axis(sign, order, -1)
    s = take_along_axis(s, order, -1)
    u = take_along_axis(u, order[..., None, :], -1)
    vh = _u.conjugate((u * sign[..., None, :]).swapaxes(-1, -2))
    return SVDResult(u, s, vh)


def svdvals(x, /):
    """The singular values of each matrix in the stack `x`, in descending order (svd without U and Vh)."""
    return svd(x, compute_uv=False)
