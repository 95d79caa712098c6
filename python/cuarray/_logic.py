"""Comparing whole arrays: isclose, allclose, array_equal, array_equiv, with NumPy's rules.

isclose is elementwise on the device; allclose and the array_equal family reduce its result on the device and, as
CuPy's, return a 0-d bool array. A NumPy array among the inputs is copied to the device: comparing a GPU result
with a CPU one (`np.allclose(gpu, cpu)`, lesson 004) is what these functions are for.
"""

import importlib
import operator
import warnings

import numpy

from cuarray import _reduction
from cuarray import _ufuncs as _u
from cuarray._core import ndarray
from cuarray._transfer import asarray, device_array

__all__ = ["allclose", "array_equal", "array_equiv", "isclose", "isnat"]


def _device(a, name):
    return asarray(a) if isinstance(a, numpy.ndarray) else a


def _is_python_number(x):
    return isinstance(x, (int, float, complex))


def _abs(x):
    return abs(x) if _is_python_number(x) else _u.absolute(x)


def _binary(ufunc, op, x, y):
    """ufunc(x, y), or op(x, y) in Python of two Python numbers: NumPy's code computes such sub-expressions
    with Python operators, so they stay weak scalars (NEP 50), where a ufunc's result is a strong 0-d array."""
    return op(x, y) if _is_python_number(x) and _is_python_number(y) else ufunc(x, y)


_HOST_TOLERANCE = (int, float, complex, numpy.generic, numpy.ndarray, list, tuple)


def _check_tolerances(atol, rtol):
    """NumPy 2.4's report of a NaN or infinite tolerance, by the 'invalid' error mode. Host tolerances are
    checked, as NumPy checks them; device ones are not read back (that would synchronize)."""
    if not (isinstance(atol, _HOST_TOLERANCE) and isinstance(rtol, _HOST_TOLERANCE)):
        return
    if numpy.all(numpy.isfinite(atol)) and numpy.all(numpy.isfinite(rtol)):
        return
    # Loaded by name, as cuarray's lazy names are: _cupyx reaches _ndarray, which imports this module.
    mode = importlib.import_module("cuarray._cupyx").geterr()["invalid"]
    # NumPy prints them as arrays, Python numbers aside.
    atol, rtol = (x if _is_python_number(x) else numpy.asarray(x) for x in (atol, rtol))
    message = f"One of rtol or atol is not valid, atol: {atol}, rtol: {rtol}"
    if mode == "warn":
        warnings.warn(message, RuntimeWarning, stacklevel=3)
    elif mode == "raise":
        raise FloatingPointError(message)
    elif mode == "print":
        print(message)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``|a - b| <= atol + rtol * |b|``, elementwise; infinities must match exactly (NumPy's definition)."""
    # Sequences become arrays, as in NumPy's; Python numbers stay weak.
    a, b = (x if _is_python_number(x) else asarray(_device(x, "isclose")) for x in (a, b))
    # NumPy compares in at least float (b of any integer or bool type, NumPy scalars included), so that an
    # unsigned a - b cannot wrap.
    if isinstance(b, (ndarray, numpy.generic)) and b.dtype.kind != "m":
        b = b.astype(numpy.result_type(b.dtype, 1.0), copy=False)
    elif isinstance(b, int):
        b = float(b)
    _check_tolerances(atol, rtol)
    # NumPy's asanyarray of array-like tolerances (ufuncs take no sequences); NumPy scalars stay as they are.
    atol, rtol = (
        x if isinstance(x, (int, float, complex, numpy.generic, ndarray)) else asarray(x)
        for x in (atol, rtol)
    )
    # With Python-number b, rtol and atol the tolerance is a Python float, and a float32 `a` is compared in
    # float32 (NumPy's weak scalar), not in float64.
    tolerance = _binary(_u.add, operator.add, atol, _binary(_u.multiply, operator.mul, rtol, _abs(b)))
    result = _u.bitwise_or(
        _u.bitwise_and(
            _u.less_equal(_abs(_binary(_u.subtract, operator.sub, a, b)), tolerance),
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


def _equal(a1, a2):
    """a1 == a2, elementwise. Datetimes and timedeltas of one type compare through their int64 counts (the
    device compares no datetimes), NaT equal to nothing, as NumPy's =="""
    if a1.dtype.kind in "mM" and a1.dtype == a2.dtype:
        x1, x2 = a1.view(numpy.int64), a2.view(numpy.int64)
        return _u.bitwise_and(_u.equal(x1, x2), _u.logical_not(isnat(a1)))
    return _u.equal(a1, a2)


def _isnan(a):
    return isnat(a) if a.dtype.kind in "mM" else _u.isnan(a)


def _arrays(a1, a2):
    """Both as device arrays; None where one is none (a ragged list, or data cuarray cannot hold)."""
    try:
        return asarray(a1), asarray(a2)
    except (TypeError, ValueError):
        return None


def array_equal(a1, a2, equal_nan=False):
    """True when both have the same shape and equal elements (NaNs, and NaTs, equal with equal_nan)."""
    arrays = _arrays(a1, a2)
    if arrays is None:
        # NumPy's answer for host objects that need an object or string array (array_equal(None, None) is
        # True); one side on the device against such an object, or a ragged list, equals nothing.
        host = not isinstance(a1, ndarray) and not isinstance(a2, ndarray)
        return asarray(host and numpy.array_equal(a1, a2, equal_nan=equal_nan))
    a1, a2 = arrays
    if equal_nan and a1 is a2:
        return asarray(True)  # NumPy's shortcut: an array equals itself, NaNs and all
    if a1.shape != a2.shape:
        return asarray(False)
    same = _equal(a1, a2)
    if equal_nan and a1.dtype.kind in "fcmM" and a2.dtype.kind in "fcmM":
        same = _u.bitwise_or(same, _u.bitwise_and(_isnan(a1), _isnan(a2)))
    return _all(same)


def array_equiv(a1, a2):
    """True when the two broadcast to each other and are equal elementwise."""
    arrays = _arrays(a1, a2)
    if arrays is None:  # as in array_equal
        host = not isinstance(a1, ndarray) and not isinstance(a2, ndarray)
        return asarray(host and numpy.array_equiv(a1, a2))
    a1, a2 = arrays
    try:
        numpy.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return asarray(False)
    return _all(_equal(a1, a2))


def isnat(x, /, out=None):
    """NumPy's isnat: whether each element of a datetime64 or timedelta64 array is NaT ("not a time", the
    smallest int64 under the elements' integer view); a device array like a ufunc's result."""
    x = device_array(x, "isnat")
    if x.dtype.kind not in "mM":
        raise TypeError("ufunc 'isnat' is only defined for np.datetime64 and np.timedelta64.")
    return _u.equal(x.view(numpy.int64), numpy.iinfo(numpy.int64).min, out=out)
