"""Numerical derivatives and integrals with NumPy's algorithms and dtypes: gradient (second-order central
differences, uneven spacing, first- or second-order edges) and trapezoid (the trapezoidal rule)."""

import numpy

from cuarray import _reduction
from cuarray import _ufuncs as _u
from cuarray._core import ndarray
from cuarray._creation import empty_like
from cuarray._math import diff
from cuarray._transfer import device_array as _device

__all__ = ["gradient", "trapezoid"]


def _ndim(a):
    return a.ndim if isinstance(a, ndarray) else numpy.ndim(a)


def _spacing(distances, size):
    """A spacing argument as gradient uses it: a scalar as given (Python scalars stay weakly typed), or the
    differences of 1-d coordinates (the first one alone where they are all equal, as NumPy does)."""
    if not isinstance(distances, numpy.ndarray) and _ndim(distances) == 0:
        return distances
    distances = _device(distances, "gradient")
    if distances.ndim == 0:
        return distances
    if distances.ndim != 1:
        raise ValueError("distances must be either scalars or 1d")
    if len(distances) != size:
        raise ValueError("when 1d, distances must match the length of the corresponding dimension")
    if distances.dtype.kind in "iu":  # float64, not modular arithmetic, for the differences
        distances = distances.astype(numpy.float64)
    diffx = diff(distances)
    # One readback: whether the spacing is even decides which of NumPy's formulas (values) applies.
    if bool(_reduction.all(_u.equal(diffx, diffx[0]))):
        return diffx[0]
    return diffx


def _combine(a, fa, b, fb, c, fc):
    return _u.add(_u.add(_u.multiply(a, fa), _u.multiply(b, fb)), _u.multiply(c, fc))


def _index(ndim, axis, item):
    key = [slice(None)] * ndim
    key[axis] = item
    return tuple(key)


def gradient(f, *varargs, axis=None, edge_order=1):
    """The gradient of `f` along each axis (or those of `axis`): second-order central differences inside, first-
    or second-order one-sided differences at the ends (`edge_order`). Spacings: one scalar for all axes, or one
    scalar or 1-d coordinate array per axis. One array for one axis, else a tuple; integer and bool input
    give float64."""
    f = _device(f, "gradient")
    N = f.ndim
    axes = tuple(range(N)) if axis is None else numpy.lib.array_utils.normalize_axis_tuple(axis, N)
    n = len(varargs)
    if n == 0:
        dx = [1.0] * len(axes)
    elif n == 1 and _ndim(varargs[0]) == 0:
        dx = [_spacing(varargs[0], None)] * len(axes)
    elif n == len(axes):
        dx = [_spacing(d, f.shape[ax]) for d, ax in zip(varargs, axes)]
    else:
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")

    otype = f.dtype
    if otype.kind not in "fc":
        if otype.kind in "iu":  # float64 values, not modular arithmetic, for the differences
            f = f.astype(numpy.float64)
        otype = numpy.dtype(numpy.float64)

    outvals = []
    for ax, ax_dx in zip(axes, dx):
        if f.shape[ax] < edge_order + 1:
            raise ValueError(
                "Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) "
                "elements are required."
            )
        outvals.append(_along(f, ax, ax_dx, edge_order, otype))
    return outvals[0] if len(axes) == 1 else tuple(outvals)


def _along(f, ax, ax_dx, edge_order, otype):
    """gradient's derivative along axis `ax`, in a new array of dtype `otype` (NumPy's steps)."""
    N = f.ndim
    out = empty_like(f, dtype=otype)

    def part(item):
        return f[_index(N, ax, item)]

    # Scalar spacings in Python arithmetic, as NumPy's: a Python float stays weak against f's dtype.
    uniform = _ndim(ax_dx) == 0
    if uniform:
        out[_index(N, ax, slice(1, -1))] = _u.divide(
            _u.subtract(part(slice(2, None)), part(slice(None, -2))), 2.0 * ax_dx
        )
    else:
        dx1, dx2 = ax_dx[0:-1], ax_dx[1:]
        a = _u.divide(_u.negative(dx2), _u.multiply(dx1, _u.add(dx1, dx2)))
        b = _u.divide(_u.subtract(dx2, dx1), _u.multiply(dx1, dx2))
        c = _u.divide(dx1, _u.multiply(dx2, _u.add(dx1, dx2)))
        shape = [1] * N
        shape[ax] = -1
        a, b, c = (v.reshape(tuple(shape)) for v in (a, b, c))
        out[_index(N, ax, slice(1, -1))] = _combine(
            a, part(slice(None, -2)), b, part(slice(1, -1)), c, part(slice(2, None))
        )

    if edge_order == 1:
        dx_0 = ax_dx if uniform else ax_dx[0]
        out[_index(N, ax, 0)] = _u.divide(_u.subtract(part(1), part(0)), dx_0)
        dx_n = ax_dx if uniform else ax_dx[-1]
        out[_index(N, ax, -1)] = _u.divide(_u.subtract(part(-1), part(-2)), dx_n)
        return out
    if uniform:
        a, b, c = -1.5 / ax_dx, 2.0 / ax_dx, -0.5 / ax_dx
    else:
        dx1, dx2 = ax_dx[0], ax_dx[1]
        a = _u.divide(_u.negative(_u.add(_u.multiply(2.0, dx1), dx2)), _u.multiply(dx1, _u.add(dx1, dx2)))
        b = _u.divide(_u.add(dx1, dx2), _u.multiply(dx1, dx2))
        c = _u.divide(_u.negative(dx1), _u.multiply(dx2, _u.add(dx1, dx2)))
    out[_index(N, ax, 0)] = _combine(a, part(0), b, part(1), c, part(2))
    if uniform:
        a, b, c = 0.5 / ax_dx, -2.0 / ax_dx, 1.5 / ax_dx
    else:
        dx1, dx2 = ax_dx[-2], ax_dx[-1]
        a = _u.divide(dx2, _u.multiply(dx1, _u.add(dx1, dx2)))
        b = _u.divide(_u.negative(_u.add(dx2, dx1)), _u.multiply(dx1, dx2))
        c = _u.divide(_u.add(_u.multiply(2.0, dx2), dx1), _u.multiply(dx2, _u.add(dx1, dx2)))
    out[_index(N, ax, -1)] = _combine(a, part(-3), b, part(-2), c, part(-1))
    return out


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of `y` along `axis` by the trapezoidal rule, at sample points `x` (1-d, or shaped like y)
    or spaced `dx` apart; a 0-d array for 1-d `y`."""
    y = _device(y, "trapezoid")
    if x is None:
        d = dx if not isinstance(dx, numpy.ndarray) and _ndim(dx) == 0 else _device(dx, "trapezoid")
    else:
        x = _device(x, "trapezoid")
        if x.ndim == 1:
            d = diff(x)
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = d.reshape(tuple(shape))
        else:
            d = diff(x, axis=axis)
    nd = y.ndim
    slice1 = [slice(None)] * nd
    slice2 = [slice(None)] * nd
    slice1[axis] = slice(1, None)
    slice2[axis] = slice(None, -1)
    total = _u.divide(_u.multiply(d, _u.add(y[tuple(slice1)], y[tuple(slice2)])), 2.0)
    return _reduction.sum(total, axis=axis)
