"""numpy.polynomial.polynomial's power-series functions on device arrays (as cupy.polynomial.polynomial):
polyvander, polyval, polyvalfromroots, polycompanion. Each computes as NumPy's does, operation for operation
(Horner's rule, repeated products, one product of the differences), so that results round as NumPy's."""

from cuarray import _creation, _manipulation, _reduction, _transfer
from cuarray import _ufuncs as _u
from cuarray._core import ndarray as _ndarray
from cuarray.polynomial import polyutils as _pu

__all__ = ["polycompanion", "polyval", "polyvalfromroots", "polyvander"]


def polyvander(x, deg):
    """The Vandermonde matrix of `x` to degree `deg`: v[..., i] = x ** i, as repeated products."""
    ideg = _pu._as_int(deg, "deg")
    if ideg < 0:
        raise ValueError("deg must be non-negative")
    x = _u.add(_transfer.array(x, copy=None, ndmin=1), 0.0)
    v = _creation.empty((ideg + 1,) + x.shape, dtype=x.dtype)
    v[0] = _u.add(_u.multiply(x, 0), 1)
    if ideg > 0:
        v[1] = x
        for i in range(2, ideg + 1):
            v[i] = _u.multiply(v[i - 1], x)
    return _manipulation.moveaxis(v, 0, -1)


def polyval(x, c, tensor=True):
    """The series with coefficients `c` (lowest degree first) at `x`, by Horner's rule; with `tensor`, each
    column of a multidimensional `c` at every element of `x`."""
    c = _transfer.array(c, ndmin=1, copy=None)
    if c.dtype.char in _pu._INTEGER_CODES:
        c = _u.add(c, 0.0)
    if isinstance(x, (tuple, list)):
        x = _transfer.asarray(x)
    if isinstance(x, _ndarray) and tensor:
        c = c.reshape(c.shape + (1,) * x.ndim)
    # NumPy's c[-1] + x*0: of a Python x, x*0 is a Python number, weak, so c keeps its type (float32 stays).
    c0 = _u.add(c[-1], x * 0 if isinstance(x, (int, float, complex)) else _u.multiply(x, 0))
    for i in range(2, len(c) + 1):
        c0 = _u.add(c[-i], _u.multiply(c0, x))
    return c0


def polyvalfromroots(x, r, tensor=True):
    """The monic polynomial with roots `r` at `x`: the product of (x - r) over the roots; with `tensor`,
    each column of a multidimensional `r` at every element of `x`."""
    r = _transfer.array(r, ndmin=1, copy=None)
    if r.dtype.char in _pu._INTEGER_CODES:
        r = r.astype(float)
    if isinstance(x, (tuple, list)):
        x = _transfer.asarray(x)
    if isinstance(x, _ndarray):
        if tensor:
            r = r.reshape(r.shape + (1,) * x.ndim)
        elif x.ndim >= r.ndim:
            raise ValueError("x.ndim must be < r.ndim when tensor == False")
    return _reduction.prod(_u.subtract(x, r), axis=0)


def polycompanion(c):
    """The companion matrix of the series `c`, whose eigenvalues are its roots."""
    [c] = _pu.as_series([c])
    if len(c) < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if len(c) == 2:
        return _u.negative(_u.divide(c[0], c[1])).reshape(1, 1)
    n = len(c) - 1
    mat = _creation.zeros((n, n), dtype=c.dtype)
    bot = mat.reshape(-1)[n :: n + 1]
    bot[...] = 1
    mat[:, -1] -= _u.divide(c[:-1], c[-1])
    return mat
