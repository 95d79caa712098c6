"""NumPy's elementwise functions that are not ufuncs, built on the ufunc table with NumPy's own algorithms:
fix, around/round, clip, where, real, imag, angle, nan_to_num (conj/conjugate are ufuncs, in _ufuncs).

The table rows named with a leading underscore (_where, _clip, _real, _imag, _complex) exist for these;
_ufuncs._resolve picks their loops.
"""

import operator

import numpy

from cuarray import _ufuncs as _u
from cuarray._creation import empty, zeros_like
from cuarray._indexing import nonzero
from cuarray._manipulation import copyto
from cuarray._ndarray import ndarray
from cuarray._transfer import array, asarray

__all__ = ["angle", "around", "clip", "fix", "imag", "nan_to_num", "real", "round", "where"]


def _as_array(a):
    return a if isinstance(a, ndarray) else asarray(a)


def fix(x, out=None):
    """Round toward zero, keeping the dtype (NumPy 2: trunc)."""
    return _u.trunc(_as_array(x), out=out)


def _power_of_ten(n):
    # NumPy's power_of_ten: exact up to 1e22, then repeated (rounded) products, not 10.0 ** n.
    if n < 9:
        return float(10**n)
    p = 1e9
    for _ in range(n - 9):
        p *= 10.0
    return p


def _round_real(a, decimals, out):
    """NumPy's PyArray_Round for a non-complex array."""
    integer = a.dtype.kind in "iu"
    if decimals >= 0:
        if integer:
            if out is None:
                return a.copy()
            copyto(out, a)
            return out
        if decimals == 0:
            return _u.rint(a, out=out)
        scale, unscale = _u.multiply, _u.divide
    else:
        scale, unscale = _u.divide, _u.multiply
        decimals = -decimals
    # Integers round in float64 and are cast back (wrapping as C casts do: int8 127 to -1 decimals is -126).
    ret = out if out is not None else empty(a.shape, numpy.float64 if integer else a.dtype)
    f = _power_of_ten(decimals)
    scale(a, f, out=ret)
    _u.rint(ret, out=ret)
    unscale(ret, f, out=ret)
    return ret.astype(a.dtype) if integer and out is None else ret


def around(a, decimals=0, out=None):
    """Round to `decimals` decimal places as NumPy does: x * 10**decimals, rint (half to even), divided back.
    Complex values round their real and imaginary parts apart."""
    a = _as_array(a)
    decimals = operator.index(decimals)
    if out is not None and out.size != a.size:
        raise ValueError("invalid output shape")
    if a.dtype.kind != "c":
        return _round_real(a, decimals, out)
    parts = [_round_real(part(a), decimals, None) for part in (real, imag)]
    return _u._complex(*parts, out=out)


round = around  # NumPy 2's name; around is its alias


def clip(a, a_min=numpy._NoValue, a_max=numpy._NoValue, out=None, *, min=numpy._NoValue, max=numpy._NoValue,
         **kwargs):
    """Limit the values of `a` to [a_min, a_max]; NaNs propagate, and a_min > a_max gives a_max everywhere."""
    if a_min is numpy._NoValue and a_max is numpy._NoValue:
        a_min = None if min is numpy._NoValue else min
        a_max = None if max is numpy._NoValue else max
    elif a_min is numpy._NoValue:
        raise TypeError("clip() missing 1 required positional argument: 'a_min'")
    elif a_max is numpy._NoValue:
        raise TypeError("clip() missing 1 required positional argument: 'a_max'")
    elif min is not numpy._NoValue or max is not numpy._NoValue:
        raise ValueError("Passing `min` or `max` keyword argument when `a_min` and `a_max` are provided is "
                         "forbidden.")
    a = _as_array(a)
    if a.dtype.kind in "iu":
        # Python ints beyond the dtype's range are no bound at all (NEP 50: no value-based promotion).
        info = numpy.iinfo(a.dtype)
        if type(a_min) is int and a_min <= info.min:
            a_min = None
        if type(a_max) is int and a_max >= info.max:
            a_max = None
    if a_min is None and a_max is None:
        return _u.positive(a, out=out, **kwargs)
    if a_min is None:
        return _u.minimum(a, a_max, out=out, **kwargs)
    if a_max is None:
        return _u.maximum(a, a_min, out=out, **kwargs)
    return _u._clip(a, a_min, a_max, out=out, **kwargs)


def where(condition, x=None, y=None):
    """Elements of `x` where `condition` holds, else of `y`, in numpy.result_type(x, y); with `condition`
    alone, nonzero(condition)."""
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    return _u._where(condition, x, y)


def real(val):
    """The real part: a copy for complex arrays (NumPy returns a view); other arrays are returned as they are."""
    val = _as_array(val)
    return _u._real(val) if val.dtype.kind == "c" else val


def imag(val):
    """The imaginary part: a copy for complex arrays (NumPy returns a view), zeros for others."""
    val = _as_array(val)
    return _u._imag(val) if val.dtype.kind == "c" else zeros_like(val)


def angle(z, deg=False):
    """The argument of complex values: arctan2(imag, real), in degrees if `deg`."""
    z = _as_array(z)
    if z.dtype.kind == "c":
        a = _u.arctan2(_u._imag(z), _u._real(z))
    else:
        a = _u.arctan2(0, z)
    if deg:
        _u.multiply(a, 180 / numpy.pi, out=a)
    return a


def _replace_non_finite(d, nan, posinf, neginf):
    # In place; the three masks are taken first, as NumPy does (nan=inf stays inf).
    masks = _u.isnan(d), _u.equal(d, numpy.inf), _u.equal(d, -numpy.inf)
    for mask, value in zip(masks, (nan, posinf, neginf)):
        _u._where(mask, value, d, out=d)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN to `nan`, +inf to `posinf` (default: the dtype's largest value), -inf to `neginf` (its most
    negative); the real and imaginary parts of complex values apart. Other arrays (bfloat16 too, as in NumPy)
    are returned unchanged."""
    x = array(x, copy=True) if copy or not isinstance(x, ndarray) else x
    if not issubclass(x.dtype.type, numpy.inexact):
        return x
    part = numpy.finfo(x.dtype).dtype  # float32 for complex64
    posinf = part.type(numpy.finfo(part).max) if posinf is None else posinf
    neginf = part.type(numpy.finfo(part).min) if neginf is None else neginf
    if x.dtype.kind != "c":
        _replace_non_finite(x, nan, posinf, neginf)
        return x
    parts = _u._real(x), _u._imag(x)
    for d in parts:
        _replace_non_finite(d, nan, posinf, neginf)
    return _u._complex(*parts, out=x)
