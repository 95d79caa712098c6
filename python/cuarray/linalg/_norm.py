"""linalg norms and condition numbers with NumPy's orders, built on the device reductions: norm, vector_norm,
matrix_norm, cond."""

import math
import operator

import numpy

from cuarray import _core
from cuarray import _ufuncs as _u
from cuarray._manipulation import moveaxis
from cuarray._reduction import _INDEX, any, count_nonzero, max, min, sum
from cuarray.linalg import _checks
from cuarray.linalg._checks import LinAlgError
from cuarray.linalg._decompositions import _prepared, svd, svd_as_numpy

_L2 = _INDEX["l2norm"]


def _inexact(x, name):
    """x as an array of a floating or complex type (other types as float64, as NumPy)."""
    if not isinstance(x, _core.ndarray):
        raise TypeError(f"Unsupported type {type(x)}: cuarray.linalg.{name} takes a cuarray array")
    return x if x.dtype.kind in "fc" else x.astype(numpy.float64)


def norm(x, ord=None, axis=None, keepdims=False):
    """Matrix or vector norm (NumPy's numpy.linalg.norm): ord None/'fro'/'nuc'/inf/-inf/0/1/-1/2/-2/p."""
    x = _inexact(x, "norm")
    nd = x.ndim
    if axis is None:
        if ord is None or (ord in ("f", "fro") and nd == 2) or (ord == 2 and nd == 1):
            return _core._reduce(_L2, x, None, None, None, keepdims, 0.0, None)
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        axis = (_int_axis(axis),)
    if len(axis) == 1:
        # NumPy reduces over the tuple (axis,), which a 0-d array does not have (the reductions take axis 0 there)
        numpy.lib.array_utils.normalize_axis_index(operator.index(axis[0]), nd)
        return _vector_norm(x, ord, axis[0], keepdims)
    if len(axis) == 2:
        return _matrix_norm(x, ord, axis, keepdims)
    raise ValueError("Improper number of dimensions to norm.")


def _int_axis(axis):
    """A single axis as NumPy's norm takes it: int(axis), so that 1.0, 1.7 and '1' are axis 1 (a list is not)."""
    try:
        return int(axis)
    except Exception as e:
        raise TypeError("'axis' must be None, an integer or a tuple of integers") from e


def _max_or_0(x, axis, keepdims=False):
    """max over `axis`, 0 where a slice is empty: NumPy's max(..., initial=0) in the norms. Of magnitudes (>= 0
    or NaN) that is plain max wherever no slice is empty, which needs no kernel for the initial value."""
    if x.size == 0:
        return max(x, axis, keepdims=keepdims, initial=0)
    return max(x, axis, keepdims=keepdims)


def _vector_norm(x, ord, axis, keepdims):
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")  # noqa: TRY004 - NumPy raises ValueError here
    if ord is None or ord == 2:
        return _core._reduce(_L2, x, axis, None, None, keepdims, 0.0, None)
    if ord == numpy.inf:
        return _max_or_0(_u.absolute(x), axis, keepdims)
    if ord == -numpy.inf:
        return min(_u.absolute(x), axis, keepdims=keepdims)
    real = x.real.dtype if x.dtype.kind == "c" else x.dtype
    if ord == 0:
        return count_nonzero(x, axis, keepdims=keepdims).astype(real)
    if ord == 1:
        return sum(_u.absolute(x), axis, keepdims=keepdims)
    p = float(ord)
    s = sum(_u.power(_u.absolute(x), real.type(p)), axis, keepdims=keepdims)
    return _u.power(s, real.type(1.0 / p))


def _matrix_norm(x, ord, axis, keepdims):
    nd = x.ndim
    row, col = (numpy.lib.array_utils.normalize_axis_index(a, nd) for a in axis)
    if row == col:
        raise ValueError("Duplicate axes given.")
    if ord in (None, "fro", "f"):
        r = _core._reduce(_L2, x, (row, col), None, None, False, 0.0, None)
    elif ord in (1, -1):  # the largest of empty matrices' norms is 0, the smallest an error (NumPy's)
        r = (_max_or_0 if ord == 1 else min)(sum(_u.absolute(x), row), col - (col > row))
    elif ord in (numpy.inf, -numpy.inf):
        r = (_max_or_0 if ord > 0 else min)(sum(_u.absolute(x), col), row - (row > col))
    elif ord in (2, -2, "nuc"):
        moved = moveaxis(x, (row, col), (-2, -1))  # the smallest singular value: NumPy's SVD
        s = svd_as_numpy(moved, compute_uv=False) if ord == -2 else svd(moved, compute_uv=False)
        r = sum(s, -1) if ord == "nuc" else (_max_or_0 if ord == 2 else min)(s, -1)
    else:
        raise ValueError("Invalid norm order for matrices.")
    if keepdims:
        shape = list(x.shape)
        shape[row] = shape[col] = 1
        r = r.reshape(shape)
    return r


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """The vector norm of order `ord` over `axis` (None: all elements, as one vector; a tuple: those axes as
    one vector)."""
    x = _inexact(x, "vector_norm")
    if isinstance(axis, tuple):
        axis = numpy.lib.array_utils.normalize_axis_tuple(axis, x.ndim)
    elif axis is not None:
        # NumPy hands any other axis to norm, which takes int(axis) (1.0 is axis 1, a list an error); its
        # keepdims then normalizes the axis as given, which refuses what is not an integer.
        given, axis = axis, _int_axis(axis)
        numpy.lib.array_utils.normalize_axis_index(axis, x.ndim)
        if keepdims:
            numpy.lib.array_utils.normalize_axis_tuple(given, x.ndim)
    return _vector_norm(x, ord, axis, keepdims)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """The matrix norm of order `ord` of each matrix in the stack `x` (its last two axes)."""
    return norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)


def cond(x, p=None):
    """The condition number of each matrix in the stack `x` in norm `p` (None: the 2-norm, from the singular
    values); singular matrices give inf (NaN where `x` holds NaN), as NumPy."""
    if not isinstance(x, _core.ndarray):
        raise TypeError(f"Unsupported type {type(x)}: cuarray.linalg.cond takes a cuarray array")
    if x.size == 0 and math.prod(x.shape[-2:]) == 0:
        raise _checks.LinAlgError("cond is not defined on empty arrays")
    x = x.astype(_checks.result_dtype(x.dtype), copy=False)
    if p is None or p == 2 or p == -2:  # NumPy's SVD (Note [Thresholded SVDs in double precision])
        s = svd_as_numpy(x, compute_uv=False)
        r = _u.divide(s[..., -1], s[..., 0]) if p == -2 else _u.divide(s[..., 0], s[..., -1])
    else:
        _checks.check_stacked_2d(x.shape)
        _checks.check_stacked_square(x.shape)
        # As NumPy: the norms and the inverse in double precision, the product rounded to x's precision.
        wide = x.astype(numpy.result_type(x.dtype, numpy.float64), copy=False)
        r = _u.multiply(norm(wide, p, axis=(-2, -1)), norm(_inverse_or_nan(wide), p, axis=(-2, -1)))
        r = r.astype(numpy.finfo(x.dtype).dtype, copy=False)
    # NaN from a singular matrix means an infinite condition number; NaN from NaN input stays.
    singular = _u.logical_and(_u.isnan(r), _u.logical_not(any(_u.isnan(x), axis=(-2, -1))))
    return _u._where(singular, numpy.inf, r)


def _inverse_or_nan(a):
    """The inverses of a stack of matrices, NaN where one is singular (NumPy's inv under errstate(all='ignore'),
    which cond uses)."""

    def inv(x):  # checked at the call on any stream (Note [Deferred checks] in cuda/deferred_checks.h)
        return _core.linalg.inv(_prepared(x, "cond", True), check_now=True)

    try:
        return inv(a)
    except LinAlgError:
        out = _core.empty(a.shape, a.dtype, "C")
        flat_in, flat_out = a.reshape((-1,) + a.shape[-2:]), out.reshape((-1,) + a.shape[-2:])
        for i in range(flat_in.shape[0]):  # only after a failure: find the singular ones one by one
            try:
                flat_out[i] = inv(flat_in[i])
            except LinAlgError:
                flat_out[i] = numpy.nan
        return out
