"""Comparing whole arrays: isclose, allclose, array_equal, array_equiv, with NumPy's rules.

isclose is elementwise on the device; allclose and the array_equal family reduce its result on the device and, as
CuPy's, return a 0-d bool array. A NumPy array among the inputs is copied to the device: comparing a GPU result
with a CPU one (`np.allclose(gpu, cpu)`, lesson 004) is what these functions are for.
"""

import numpy

from cuarray import _reduction
from cuarray import _ufuncs as _u
from cuarray._core import ndarray
from cuarray._transfer import asarray, device_array

__all__ = ["allclose", "array_equal", "array_equiv", "isclose", "isnat"]


def _device(a, name):
    return asarray(a) if isinstance(a, numpy.ndarray) else a


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``|a - b| <= atol + rtol * |b|``, elementwise; infinities must match exactly (NumPy's definition)."""
    # Sequences become arrays, as in NumPy's; Python numbers stay weak.
    a, b = (x if isinstance(x, (int, float, complex)) else asarray(_device(x, "isclose")) for x in (a, b))
    # NumPy compares in at least float (b of any integer or bool type, NumPy scalars included), so that an
    # unsigned a - b cannot wrap.
    if isinstance(b, (ndarray, numpy.generic)) and b.dtype.kind != "m":
        b = b.astype(numpy.result_type(b.dtype, 1.0), copy=False)
    elif isinstance(b, int):
        b = float(b)
    result = _u.bitwise_or(
        _u.bitwise_and(
            _u.less_equal(_u.absolute(_u.subtract(a, b)), _u.add(atol, _u.multiply(rtol, _u.absolute(b)))),
            _u.isfinite(b),
        ),
        _u.equal(a, b),
    )
    if equal_nan:
        result = _u.bitwise_or(result, _u.bitwise_and(_u.isnan(a), _u.isnan(b)))
    return result


def _all(x):
    return _reduction.all(x) if isinstance(x, ndarray) else asarray(numpy.all(x))


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True when isclose holds for every element (after broadcasting)."""
    return _all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def array_equal(a1, a2, equal_nan=False):
    """True when both have the same shape and equal elements (NaNs equal with equal_nan)."""
    a1, a2 = _device(a1, "array_equal"), _device(a2, "array_equal")
    try:
        a1, a2 = asarray(a1), asarray(a2)
    except (TypeError, ValueError):
        return asarray(False)  # NumPy's: what makes no array (a ragged list) equals nothing
    if a1.shape != a2.shape:
        return asarray(False)
    same = _u.equal(a1, a2)
    if equal_nan and a1.dtype.kind in "fc" and a2.dtype.kind in "fc":
        same = _u.bitwise_or(same, _u.bitwise_and(_u.isnan(a1), _u.isnan(a2)))
    return _all(same)


def array_equiv(a1, a2):
    """True when the two broadcast to each other and are equal elementwise."""
    a1, a2 = _device(a1, "array_equiv"), _device(a2, "array_equiv")
    try:
        a1, a2 = asarray(a1), asarray(a2)
        numpy.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return asarray(False)
    return _all(_u.equal(a1, a2))


def isnat(x, /, out=None):
    """NumPy's isnat: whether each element of a datetime64 or timedelta64 array is NaT ("not a time", the
    smallest int64 under the elements' integer view); a device array like a ufunc's result."""
    x = device_array(x, "isnat")
    if x.dtype.kind not in "mM":
        raise TypeError("ufunc 'isnat' is only defined for np.datetime64 and np.timedelta64.")
    return _u.equal(x.view(numpy.int64), numpy.iinfo(numpy.int64).min, out=out)
