"""Factorisations: qr, cholesky, eigh, eigvalsh, svd, svdvals (cuSOLVER through _core.linalg)."""

from collections import namedtuple

from cuarray import _core
from cuarray.linalg import _checks as c

QRResult = namedtuple("QRResult", ["Q", "R"])
EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])

_L = _core.linalg


def _prepared(a, name, square):
    """a on the device, checked as NumPy checks it, in the dtype linalg computes in."""
    a = c.as_array(a, name)
    c.check_stacked_2d(a.shape)
    if square:
        c.check_stacked_square(a.shape)
    return a.astype(c.result_dtype(a.dtype), copy=False)


def qr(a, mode="reduced"):
    """The QR factorisation of each matrix: QRResult(Q, R) for mode 'reduced' (Q m x k) and 'complete'
    (Q m x m), R alone for 'r', and LAPACK's (h, tau) for 'raw'."""
    if mode not in ("reduced", "complete", "r", "raw"):
        raise ValueError(f"Unrecognized mode '{mode}'")
    out = _L.qr(_prepared(a, "qr", False), mode)
    if mode == "r":
        return out[0]
    return tuple(out) if mode == "raw" else QRResult(*out)


def cholesky(a, /, *, upper=False):
    """L with A = L L^H (or with upper=True, U with A = U^H U); LinAlgError unless A is positive definite."""
    return _L.cholesky(_prepared(a, "cholesky", True), upper)


def _uplo(UPLO):
    UPLO = str(UPLO).upper()
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


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """SVDResult(U, S, Vh) with a = U @ diag(S) @ Vh and S descending, or S alone without compute_uv.
    `hermitian` is accepted for NumPy's signature; the general algorithm serves Hermitian input as well."""
    out = _L.svd(_prepared(a, "svd", False), full_matrices, compute_uv)
    return SVDResult(*out) if compute_uv else out[0]


def svdvals(x, /):
    """The singular values of each matrix in the stack `x`, in descending order (svd without U and Vh)."""
    return svd(x, compute_uv=False)
