"""linalg.norm: vector and matrix norms with NumPy's orders, built on the device reductions."""

import operator

import numpy

from cuarray import _core
from cuarray import _ufuncs as _u
from cuarray._reduction import _INDEX, count_nonzero, max, min, sum

_L2 = _INDEX["l2norm"]


def norm(x, ord=None, axis=None, keepdims=False):
    """Matrix or vector norm (NumPy's numpy.linalg.norm): ord None/'fro'/'nuc'/inf/-inf/0/1/-1/2/-2/p."""
    if not isinstance(x, _core.ndarray):
        raise TypeError(f"Unsupported type {type(x)}: cuarray.linalg.norm takes a cuarray array")
    if x.dtype.kind not in "fc":
        x = x.astype(numpy.float64)
    nd = x.ndim
    if axis is None:
        if ord is None or (ord in ("f", "fro") and nd == 2) or (ord == 2 and nd == 1):
            return _core._reduce(_L2, x, None, None, None, keepdims, 0.0, None)
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        try:
            axis = (operator.index(axis),)
        except TypeError:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from None
    if len(axis) == 1:
        return _vector_norm(x, ord, axis[0], keepdims)
    if len(axis) == 2:
        return _matrix_norm(x, ord, axis, keepdims)
    raise ValueError("Improper number of dimensions to norm.")


def _vector_norm(x, ord, axis, keepdims):
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    if ord is None or ord == 2:
        return _core._reduce(_L2, x, axis, None, None, keepdims, 0.0, None)
    if ord == numpy.inf:
        return max(_u.absolute(x), axis, keepdims=keepdims)
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
    elif ord in (1, -1):
        r = (max if ord == 1 else min)(sum(_u.absolute(x), row), col - (col > row))
    elif ord in (numpy.inf, -numpy.inf):
        r = (max if ord > 0 else min)(sum(_u.absolute(x), col), row - (row > col))
    elif ord in (2, -2, "nuc"):
        from cuarray.linalg import svd

        from cuarray._manipulation import moveaxis

        s = svd(moveaxis(x, (row, col), (-2, -1)), compute_uv=False)
        r = sum(s, -1) if ord == "nuc" else (max if ord == 2 else min)(s, -1)
    else:
        raise ValueError("Invalid norm order for matrices.")
    if keepdims:
        shape = list(x.shape)
        shape[row] = shape[col] = 1
        r = r.reshape(shape)
    return r
