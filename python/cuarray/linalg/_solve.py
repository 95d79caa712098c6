"""Determinants, inverses and solutions: det, slogdet, inv, solve, lstsq, tensorsolve, tensorinv, and what
is built from them and the SVD: matrix_power, matrix_rank, pinv."""

import math
import operator
from collections import namedtuple

import numpy

from cuarray import _core
from cuarray import _ufuncs as _u
from cuarray._creation import empty, ones, zeros_like
from cuarray._manipulation import copyto
from cuarray._products import matmul
from cuarray._transfer import asarray
from cuarray.linalg import _checks as c
from cuarray.linalg._decompositions import _prepared, svd, svd_as_numpy

SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])

_L = _core.linalg


def det(a):
    """Determinants of the matrices of a stack."""
    return _L.det(_prepared(a, "det", True))


def slogdet(a):
    """SlogdetResult(sign, logabsdet) with det = sign * exp(logabsdet); sign is 0 for a singular matrix."""
    return SlogdetResult(*_L.slogdet(_prepared(a, "slogdet", True)))


def inv(a):
    """The inverses of the matrices of a stack; LinAlgError 'Singular matrix'."""
    return _L.inv(_prepared(a, "inv", True))


def solve(a, b):
    """x with a @ x = b: b is a vector when 1-D (broadcast over a's stack), else a stack of matrices."""
    a = c.as_array(a, "solve")
    c.check_stacked_2d(a.shape)
    c.check_stacked_square(a.shape)
    b = c.as_array(b, "solve")
    t = c.result_dtype(a.dtype, b.dtype)
    c.check_solve_shapes(a.shape, b.shape)
    a, b = a.astype(t, copy=False), b.astype(t, copy=False)
    if b.ndim == 1:
        return _L.solve(a, b._expand_dims(1))[..., 0]
    return _L.solve(a, b)


def lstsq(a, b, rcond=None):
    """Least-squares solution of a @ x = b through the SVD: (x, residuals, rank, s) as NumPy returns them,
    computed in double precision for every input, as NumPy does (Note [lstsq in double precision]). The default
    rcond is float64's eps * max(m, n); rcond <= 0 or >= 1 means 2**-53, as LAPACK's gelsd takes it."""
    a, b = c.as_array(a, "lstsq"), c.as_array(b, "lstsq")
    is_1d = b.ndim == 1
    if is_1d:
        b = b._expand_dims(1)
    c.check_2d(a.shape, b.shape)
    m, n = a.shape
    if b.shape[0] != m:
        raise c.LinAlgError("Incompatible dimensions")
    result_t = c.result_dtype(a.dtype, b.dtype)
    t = numpy.result_type(result_t, numpy.float64)  # float64 or complex128
    a, b = a.astype(t, copy=False), b.astype(t, copy=False)
    if rcond is None:
        rcond = numpy.finfo(t).eps * max(m, n)
    if rcond <= 0 or rcond >= 1:  # gelsd's RCOND out of (0, 1): its DLAMCH('E'), 2**-53 (NaN stays NaN)
        rcond = numpy.finfo(numpy.float64).epsneg
    u, s, vh = svd(a, full_matrices=False)
    s_host = s.get()  # the rank is a host scalar: one small copy
    cutoff = rcond * s_host.max() if s_host.size else 0.0
    # gelsd drops the singular values <= the cutoff (and keeps every one where the cutoff is NaN).
    rank = numpy.int32(numpy.logical_not(s_host <= cutoff).sum())  # NumPy's type for it
    s_inv = _u._where(_u.less_equal(s, cutoff), 0, _u.divide(1, s))
    x = matmul(
        _u.conjugate(vh).swapaxes(0, 1), s_inv._expand_dims(1) * matmul(_u.conjugate(u).swapaxes(0, 1), b)
    )
    if rank == n and m > n:
        magnitude = _u.absolute(b - matmul(a, x))
        residuals = matmul(ones(m, magnitude.dtype), magnitude * magnitude)  # column sums without a reduction
    else:
        residuals = empty((0,), c.real_dtype(t))
    real_t = c.real_dtype(result_t)
    x = x.astype(result_t, copy=False)
    residuals, s = residuals.astype(real_t, copy=False), s.astype(real_t, copy=False)
    return (x[:, 0] if is_1d else x), residuals, rank, s


# Note [lstsq in double precision]
# NumPy's lstsq computes in float64 (complex128) whatever the input's precision (_commonType) and rounds x,
# the residuals and s to float32 (complex64) at the end; its default rcond is float64's eps * max(m, n). With
# the SVD computed in single precision the rank would be another: float32's rounding leaves singular values
# of about 1e-7 * s.max() where float64's are about 1e-16 * s.max(), so a rank-deficient float32 matrix
# would count as full rank under float64's cutoff (and x would be huge), while float32's cutoff drops
# singular values NumPy keeps (diag([1, 1e-8]) has rank 2 in NumPy). So lstsq, unlike the other linalg
# functions, computes in double precision for single-precision input, as NumPy does.


def matrix_power(a, n):
    """a raised to the integer power n by repeated squaring (n < 0 inverts first; n == 0 gives identities)."""
    a = c.as_array(a, "matrix_power")
    c.check_stacked_2d(a.shape)
    c.check_stacked_square(a.shape)
    try:
        n = operator.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    if n == 0:
        out = zeros_like(a)  # laid out as `a`, as NumPy's
        copyto(out.diagonal(0, -2, -1), 1, casting="unsafe")  # True for bool, as NumPy's identity
        return out
    if n < 0:
        a, n = inv(a), -n
    if n == 1:
        return a
    result, power = None, a
    while n:
        if n & 1:
            result = power if result is None else matmul(result, power)
        n >>= 1
        if n:
            power = matmul(power, power)
    return result


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """The number of singular values above the tolerance (NumPy's defaults), per matrix of a stack."""
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    A = c.as_array(A, "matrix_rank")
    if A.ndim < 2:  # NumPy's int(not all(A == 0)), as the 0-d device array every other rank is (CuPy's)
        return A.any().astype(numpy.int64)
    S = svd_as_numpy(A, compute_uv=False, hermitian=hermitian)
    s_max = S[..., :1]  # S is descending
    if tol is None:
        rtol = max(A.shape[-2:]) * numpy.finfo(S.dtype).eps if rtol is None else asarray(rtol)[..., None]
        tol = s_max * rtol
    else:
        tol = asarray(tol)[..., None]
    above = _u.greater(S, tol).astype(numpy.int64)
    return matmul(above, ones(above.shape[-1], numpy.int64))


def pinv(a, rcond=None, hermitian=False, *, rtol=numpy._NoValue):
    """The Moore-Penrose pseudo-inverse through the SVD, singular values below rcond * max dropped."""
    a = c.as_array(a, "pinv")
    if rcond is None:
        if rtol is numpy._NoValue:
            rcond = 1e-15
        elif rtol is None:
            # the eps of a's own dtype, as NumPy's (whose finfo refuses integer and bool input)
            rcond = max(a.shape[-2:]) * numpy.finfo(a.dtype).eps
        else:
            rcond = rtol
    elif rtol is not numpy._NoValue:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    c.check_stacked_2d(a.shape)
    if a.size == 0:  # NumPy keeps the dtype of empty matrices; an empty stack of others goes through the SVD
        m, n = a.shape[-2:]
        return empty(a.shape[:-2] + (n, m), a.dtype if m * n == 0 else c.result_dtype(a.dtype))
    u, s, vh = svd_as_numpy(_u.conjugate(a), full_matrices=False, hermitian=hermitian)
    cutoff = asarray(rcond)[..., None] * s[..., :1]
    s_inv = _u._where(_u.greater(s, cutoff), _u.divide(1, s), 0)
    return matmul(vh.swapaxes(-1, -2), s_inv[..., None] * u.swapaxes(-1, -2))


def tensorsolve(a, b, axes=None):
    """x with tensordot(a, x, x.ndim) == b, through solve on a reshaped to a square matrix."""
    a, b = c.as_array(a, "tensorsolve"), c.as_array(b, "tensorsolve")
    an = a.ndim
    if axes is not None:
        order = list(range(an))
        for k in axes:
            order.remove(k)
            order.insert(an, k)
        a = a.transpose(order)
    old_shape = a.shape[-(an - b.ndim) :]
    prod = math.prod(old_shape)
    if a.size != prod**2:
        raise c.LinAlgError(
            "Input arrays must satisfy the requirement             "
            "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])"
        )
    return solve(a.reshape(prod, prod), b.ravel()).reshape(old_shape)


def tensorinv(a, ind=2):
    """The inverse of a with respect to tensordot over its first `ind` axes."""
    a = c.as_array(a, "tensorinv")
    old_shape = a.shape
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    inv_shape = old_shape[ind:] + old_shape[:ind]
    prod = math.prod(old_shape[ind:])
    return inv(a.reshape(prod, -1)).reshape(inv_shape)
