"""Products of arrays with NumPy's semantics: matmul, dot, vdot, inner, outer, tensordot, kron, cross, trace
(vecdot, matvec and vecmat: _vector_products).

Matrix products run on cuBLAS (integers and bools on a generated kernel) through _core.matmul, whose shape
checks and messages are NumPy's. Dot products of two vectors (dot, vdot, inner) are one reduction kernel
(cpp/cuarray/ops/reductions.def), which reads both at full memory bandwidth; trace is a sum of the diagonal;
cross is elementwise products over broadcast stacks of vectors.
"""

import functools
import math
import operator
import warnings

import numpy

from cuarray import _core, _reduction
from cuarray import _ufuncs as _u
from cuarray._core import ndarray
from cuarray._manipulation import copyto, moveaxis
from cuarray._transfer import device_array as _array

__all__ = ["cross", "dot", "inner", "kron", "matmul", "outer", "tensordot", "trace", "vdot"]

matmul = _core.matmul

_SIGNATURE = "(n?,k),(k,m?)->(n?,m?)"


def _matmul_axes(a, b, out, dtype, casting, axes, axis):
    """matmul(a, b, axes=...) as NumPy's gufunc reads `axes`: one entry per operand naming its core axes (two for
    a matrix, one for a vector, none (an empty tuple) for the result of two vectors). Each operand's core
    axes are moved last, the product taken, and the result's core axes moved where its entry says: a new
    array laid out as NumPy's (the loop axes then the core ones in memory, the axes then moved), or `out`. The extension calls this for a call with axes= or axis= (Hook
    MatmulAxes)."""
    if axis is not None:
        raise TypeError(
            "matmul: axis can only be used with a single shared core dimension, not with the 3 distinct ones "
            f"implied by signature {_SIGNATURE}."
        )
    a, b = _array(a, "matmul"), _array(b, "matmul")
    cores = [min(a.ndim, 2), min(b.ndim, 2)]
    n_out = (cores[0] == 2) + (cores[1] == 2)
    axes = list(axes)
    if len(axes) != 3:  # matmul's output always has an entry: its core dimensions (n?,m?) are declared
        raise ValueError(
            "axes should be a list with an entry for all 3 inputs and outputs; entries for outputs can only "
            "be omitted if none of them has core axes."
        )
    a, b = (
        moveaxis(x, _core_axes(axes[i], c, x.ndim, i), list(range(-c, 0)))
        for i, (x, c) in enumerate(zip((a, b), cores))
    )
    r = _core.matmul(a, b, None, dtype=dtype, casting=casting)
    r = moveaxis(r, list(range(-n_out, 0)), _core_axes(axes[2], n_out, r.ndim, 2))
    if out is None:
        return r.copy(order="K")  # an array of its own, with r's (NumPy's) layout
    copyto(out, r, casting=casting)
    return out


def _core_axes(item, n, ndim, operand, name="matmul"):
    """The `n` core axes of an operand of `ndim` dimensions that its axes= entry names, NumPy's checks (the
    gufunc `name` in its errors)."""
    if numpy.ndim(item) == 0 and not isinstance(item, tuple):
        if n != 1:
            raise numpy.exceptions.AxisError(
                f"{name}: operand {operand} has {n} core dimensions, but the axes item is a single integer."
            )
        item = (item,)
    item = tuple(item)
    if len(item) != n:
        raise numpy.exceptions.AxisError(
            f"{name}: operand {operand} has {n} core dimensions, but {len(item)} dimensions are specified by "
            "axes tuple."
        )
    return list(numpy.lib.array_utils.normalize_axis_tuple(item, ndim))


def _common(a, b):
    """a and b in matmul's loop type for their dtypes (NumPy's choice)."""
    t = numpy.matmul.resolve_dtypes((a.dtype, b.dtype, None))[2]
    return a.astype(t, copy=False), b.astype(t, copy=False)


def _not_aligned(a_shape, b_shape, a_dim, b_dim):
    sa, sb = (str(s).replace(" ", "") for s in (a_shape, b_shape))
    return ValueError(
        f"shapes {sa} and {sb} not aligned: {a_shape[a_dim]} (dim {a_dim}) != {b_shape[b_dim]} (dim {b_dim})"
    )


def _check_dot_out(out, shape, dtype):
    """NumPy's checks of dot's `out`, in its order: exactly the result's dtype and number of dimensions, and
    C-contiguous; then the result's shape."""
    if not isinstance(out, ndarray):
        raise TypeError("output array must be a cuarray.ndarray")
    if out.ndim != len(shape) or out.dtype != dtype or not out.flags.c_contiguous:
        raise ValueError(
            "output array is not acceptable (must have the right datatype, number of dimensions, and "
            "be a C-Array)"
        )
    if out.shape != shape:
        raise ValueError("output array has wrong dimensions")


def _contract(a, b, a_axes, b_axes):
    """Sums a and b over the paired axes: transpose, reshape to one matrix product, reshape back."""
    a_free = [d for d in range(a.ndim) if d not in a_axes]
    b_free = [d for d in range(b.ndim) if d not in b_axes]
    m_shape = tuple(a.shape[d] for d in a_free)
    n_shape = tuple(b.shape[d] for d in b_free)
    k = math.prod(a.shape[d] for d in a_axes)
    at = a.transpose(a_free + list(a_axes)).reshape(
        math.prod(m_shape), k
    )  # a copy only where strides need one
    bt = b.transpose(list(b_axes) + b_free).reshape(k, math.prod(n_shape))
    return matmul(at, bt).reshape(m_shape + n_shape)


def dot(a, b, out=None):
    """NumPy's dot: a product of scalars, the inner product of vectors, matrix products, and for N-D arrays the
    sum over a's last axis and b's second-to-last."""
    a, b = _array(a, "dot"), _array(b, "dot")
    if a.ndim == 0 or b.ndim == 0:
        if out is not None:  # NumPy's dot takes no out that multiply would cast or broadcast into
            _check_dot_out(out, a.shape or b.shape, numpy.result_type(a.dtype, b.dtype))
        return _u.multiply(a, b, out=out)
    b_axis = 0 if b.ndim == 1 else b.ndim - 2
    if a.shape[-1] != b.shape[b_axis]:
        raise _not_aligned(a.shape, b.shape, a.ndim - 1, b_axis)
    a, b = _common(a, b)
    if a.ndim == 1 and b.ndim == 1:
        if out is not None:
            _check_dot_out(out, (), a.dtype)
        return _reduction._dot_1d(a, b, out)
    if a.ndim == 1 or b.ndim <= 2:  # where dot and matmul agree (both stack over a's leading axes)
        if out is not None:
            _check_dot_out(out, _core.linalg.matmul_shapes(a.shape, b.shape), a.dtype)
        return matmul(a, b, out=out) if out is not None else matmul(a, b)
    result = _contract(a, b, [a.ndim - 1], [b.ndim - 2])
    if out is None:
        return result
    _check_dot_out(out, result.shape, result.dtype)
    copyto(out, result)
    return out


def vdot(a, b):
    """The dot product of the flattened arrays, conjugating the first (the complex inner product)."""
    a, b = _array(a, "vdot").ravel(), _array(b, "vdot").ravel()
    if a.size != b.size:
        raise ValueError(f"cannot reshape array of size {b.size} into shape ({a.size},)")
    a, b = _common(a, b)
    return _core._reduce(_reduction._INDEX["vdot"], a, None, None, None, False, 0.0, b)


def inner(a, b):
    """The sum over the last axes of a and b (a product where either is a scalar)."""
    a, b = _array(a, "inner"), _array(b, "inner")
    if a.ndim == 0 or b.ndim == 0:
        return _u.multiply(a, b)
    if a.shape[-1] != b.shape[-1]:
        # NumPy reports b with its last axis moved to the second-to-last place, as its dot takes it
        b_shape = b.shape[:-2] + b.shape[-1:] + b.shape[-2:-1] if b.ndim >= 2 else b.shape
        raise _not_aligned(a.shape, b_shape, a.ndim - 1, max(b.ndim - 2, 0))
    a, b = _common(a, b)
    if a.ndim == 1 and b.ndim == 1:
        return _reduction._dot_1d(a, b)
    return _contract(a, b, [a.ndim - 1], [b.ndim - 1])


def outer(a, b, out=None):
    """a.ravel()[:, None] * b.ravel()[None, :]."""
    a, b = _array(a, "outer").ravel(), _array(b, "outer").ravel()
    return _u.multiply(a._expand_dims(1), b._expand_dims(0), out=out)


def _tensordot_axes(axes, a, b):
    """The axes of a and b that tensordot sums over, read as NumPy reads them, with its errors in its order:
    an int N is a's last N axes and b's first N (none for N <= 0: an outer product); a pair names them. The
    names index the shapes as given (IndexError past the end, TypeError for a float), and are then made
    non-negative."""
    try:
        iter(axes)
    except TypeError:
        n = operator.index(axes)
        a_axes, b_axes = list(range(-n, 0)), list(range(n))
    else:
        a_axes, b_axes = axes
    a_axes = list(a_axes) if _has_len(a_axes) else [a_axes]
    b_axes = list(b_axes) if _has_len(b_axes) else [b_axes]
    if len(set(a_axes)) != len(a_axes) or len(set(b_axes)) != len(b_axes):
        raise ValueError("duplicate axes are not allowed in tensordot")
    if len(a_axes) != len(b_axes):
        raise ValueError("shape-mismatch for sum")
    for k, (x, y) in enumerate(zip(a_axes, b_axes)):
        if a.shape[x] != b.shape[y]:
            raise ValueError("shape-mismatch for sum")
        a_axes[k], b_axes[k] = x + a.ndim if x < 0 else x, y + b.ndim if y < 0 else y
    return a_axes, b_axes


def _has_len(x):
    try:
        len(x)
    except TypeError:
        return False
    return True


def tensordot(a, b, axes=2):
    """Sums products over the given axes: an int N pairs a's last N axes with b's first N (N <= 0: the outer
    product); a pair of sequences names them."""
    a, b = _array(a, "tensordot"), _array(b, "tensordot")
    a_axes, b_axes = _tensordot_axes(axes, a, b)
    a, b = _common(a, b)
    return _contract(a, b, a_axes, b_axes)


def kron(a, b):
    """The Kronecker product: blocks a[i, j, ...] * b, through one broadcast multiply."""
    a, b = _array(a, "kron"), _array(b, "kron")
    nd = max(a.ndim, b.ndim)
    a = a.reshape((1,) * (nd - a.ndim) + a.shape)
    b = b.reshape((1,) * (nd - b.ndim) + b.shape)
    a_shape = sum(((s, 1) for s in a.shape), ())
    b_shape = sum(((1, s) for s in b.shape), ())
    product = _u.multiply(a.reshape(a_shape), b.reshape(b_shape))
    return product.reshape(tuple(x * y for x, y in zip(a.shape, b.shape)))


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """The sum along a diagonal, in NumPy's sum dtype (bool and small integers sum as int64/uint64)."""
    a = _array(a, "trace")
    return _reduction.sum(a.diagonal(offset, axis1, axis2), -1, dtype, out)


def _normalize(axis, ndim, name):
    return numpy.lib.array_utils.normalize_axis_index(operator.index(axis), ndim, name)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Cross products of 3-vectors (and NumPy's deprecated 2-vectors) along the given axes, broadcast over the
    others (NumPy's cross)."""
    a, b = _array(a, "cross"), _array(b, "cross")
    if a.ndim == 0 or b.ndim == 0:  # before the axes are checked, as NumPy
        raise ValueError("At least one array has zero dimension")
    if axis is not None:
        axisa = axisb = axisc = axis
    a = _move_last(a, axisa, "axisa")
    b = _move_last(b, axisb, "axisb")
    na, nb = a.shape[-1], b.shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if (na == 2 or nb == 2) and not _numpy_takes_2_vectors():
        raise ValueError(
            "Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
            f"{na} and {nb} dimensional instead."
        )
    if na == 2 or nb == 2:
        warnings.warn(
            "Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional vectors "
            "instead. (deprecated in NumPy 2.0)",
            DeprecationWarning,
            stacklevel=2,
        )
    a0, a1, b0, b1 = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    t = numpy.result_type(a.dtype, b.dtype)
    z = _u.subtract(_u.multiply(a0, b1, dtype=t), _u.multiply(a1, b0, dtype=t))  # the third component
    if na == 2 and nb == 2:
        return z
    a2 = a[..., 2] if na == 3 else None
    b2 = b[..., 2] if nb == 3 else None
    x = _cross_part(a1, b2, a2, b1, t)
    y = _cross_part(a2, b0, a0, b2, t)
    # NumPy computes into a new C-ordered array, whatever the inputs' layouts.
    out = _core.empty(numpy.broadcast_shapes(x.shape, y.shape, z.shape) + (3,), t)
    for i, part in enumerate((x, y, z)):
        copyto(out[..., i], part)
    return moveaxis(out, -1, _normalize(axisc, out.ndim, "axisc"))


@functools.cache
def _numpy_takes_2_vectors():
    """Whether the NumPy cuarray runs with still takes 2-vectors in cross (deprecated in 2.0, an error since
    2.5): cuarray follows it, as for ufunc types. Asked once, at the first cross of 2-vectors."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            numpy.cross([1.0, 0.0], [0.0, 1.0])
        except ValueError:
            return False
    return True


def _cross_part(p, q, r, s, t):
    """p*q - r*s, where a missing (None) third component counts as 0."""
    if p is None or q is None:
        return _u.negative(_u.multiply(r, s, dtype=t))
    if r is None or s is None:
        return _u.multiply(p, q, dtype=t)
    return _u.subtract(_u.multiply(p, q, dtype=t), _u.multiply(r, s, dtype=t))


def _move_last(x, axis, name):
    return moveaxis(x, _normalize(axis, x.ndim, name), -1)
