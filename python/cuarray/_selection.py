"""Selecting elements by index arrays and masks, with NumPy's rules: choose, place, putmask, and the function
form of ndarray.diagonal."""

import math

import numpy

from cuarray import _reduction
from cuarray import _ufuncs as _u
from cuarray._core import ndarray
from cuarray._creation import arange, empty
from cuarray._indexing import _check_mode, _in_range, take
from cuarray._scan import cumsum
from cuarray._transfer import asarray
from cuarray._transfer import device_array as _device

__all__ = ["choose", "diagonal", "place", "putmask"]


def _values(values, dtype, name):
    """values as a flat device array of `dtype`, with NumPy's rules: arrays must cast safely, Python values are
    converted by NumPy (which raises for those out of range)."""
    if isinstance(values, numpy.ndarray):
        raise TypeError(f"cuarray.{name}: got a numpy.ndarray; move it to the GPU with cuarray.asarray(x)")
    if isinstance(values, ndarray):
        if not numpy.can_cast(values.dtype, dtype, "safe"):
            what = "scalar" if values.ndim == 0 else "array data"
            raise TypeError(
                f"Cannot cast {what} from {values.dtype!r} to {dtype!r} according to the rule 'safe'"
            )
        return values.astype(dtype, copy=False).reshape(-1)
    return asarray(numpy.asarray(values, dtype=dtype)).reshape(-1)


def _mask(mask, a, name):
    """mask as a bool device array of a's shape (NumPy takes any mask of a's size, in C order)."""
    mask = _device(mask, name)
    if mask.size != a.size:
        raise ValueError(f"{name}: mask and data must be the same size")
    mask = mask.astype(numpy.bool_, copy=False)
    return mask if mask.shape == a.shape else mask.reshape(-1).reshape(a.shape)


def _weak_or_dtype(c):
    """What numpy.result_type sees for one choice: Python scalars stay weak, as in NumPy's choose."""
    if isinstance(c, (bool, int, float, complex)):
        return c
    return _device(c, "choose").dtype if isinstance(c, (ndarray, numpy.ndarray)) else numpy.asarray(c).dtype


def _host_choice(c, dtype):
    """A choice that is not a device array, converted as NumPy's choose converts it: to its own array first
    (int64, uint64 from 2**63, float64, ...; OverflowError past 64 bits), then cast unsafely to the common
    dtype. A Python int is weak in that dtype but not range-checked: 300 among int8 choices wraps to 44, and a
    float cast that overflows warns, as in NumPy 2."""
    return numpy.asarray(c).astype(dtype, copy=False)


def choose(a, choices, out=None, mode="raise"):
    """choices[a[I]][I] for every index I of the broadcast shape of `a` and the choices; `a` outside
    [0, len(choices)) raises (checked on the device, one synchronization), wraps or is clipped per `mode`."""
    _check_mode(mode)
    a = _device(a, "choose")
    if not numpy.can_cast(a.dtype, numpy.intp, "safe"):
        raise TypeError(
            f"Cannot cast array data from {a.dtype!r} to dtype('int64') according to the rule 'safe'"
        )
    if isinstance(choices, numpy.ndarray):
        raise TypeError("cuarray.choose: got a numpy.ndarray; move it to the GPU with cuarray.asarray(x)")
    choices = list(choices)  # a device array: its views along the first axis
    if not choices:
        raise ValueError("0-length sequence.")
    dtype = numpy.result_type(*(_weak_or_dtype(c) for c in choices))
    choices = [
        c.astype(dtype, copy=False) if isinstance(c, ndarray) else asarray(_host_choice(c, dtype))
        for c in choices
    ]
    n = len(choices)
    shape = numpy.broadcast_shapes(*(c.shape for c in choices), a.shape)  # NumPy's order, for its message
    if out is not None and out.shape != shape:
        raise TypeError("choose: invalid shape for output array.")
    if math.prod(shape) == 0:  # NumPy reads no index of an empty result, so none is checked
        return empty(shape, dtype) if out is None else out
    index = _in_range(a.astype(numpy.int64, copy=False), n, mode, "invalid entry in choice array")
    # One pass per choice, each writing where the index picks it: no stacked copy of the choices.
    result = empty(shape, dtype)
    result[...] = choices[0]
    for i in range(1, n):
        _u._where(_u.equal(index, i), choices[i], result, out=result)
    if out is None:
        return result
    out[...] = result
    return out


def place(arr, mask, vals):
    """In place: the elements of `arr` where `mask` is true (in C order) take the values `vals` in turn,
    repeated as needed (NumPy's place; extract is its inverse)."""
    if not isinstance(arr, ndarray):
        raise TypeError(f"place() argument 1 must be cuarray.ndarray, not {type(arr).__name__}")
    mask = _mask(mask, arr, "place")
    vals = _values(vals, arr.dtype, "place")
    if vals.size == 0:
        if bool(_reduction.any(mask)):
            raise ValueError("Cannot insert from an empty array!")
        return
    # The k-th true element takes vals[k % len(vals)]; false elements read a wrapped index and are not written.
    k = _u.subtract(cumsum(mask.reshape(-1), dtype=numpy.int64), 1)
    picked = take(vals, k, mode="wrap").reshape(arr.shape)
    _u._where(mask, picked, arr, out=arr)


def putmask(a, mask, values):
    """In place: a.flat[i] = values.flat[i % values.size] wherever mask.flat[i] is true (values repeat over the
    whole of `a`, unlike a[mask] = values)."""
    if isinstance(a, numpy.ndarray):
        raise TypeError("cuarray.putmask: got a numpy.ndarray; move it to the GPU with cuarray.asarray(x)")
    if not isinstance(a, ndarray):
        raise TypeError("putmask: first argument must be an array")
    mask = _mask(mask, a, "putmask")
    aliased = isinstance(values, ndarray) and values.dtype == a.dtype
    values = _values(values, a.dtype, "putmask")
    if values.size == 0:
        return
    if values.size == a.size:
        if aliased:
            values = values.copy()  # it may be a view of `a`, which the pass below overwrites
    else:
        values = take(values, arange(a.size), mode="wrap")
    _u._where(mask, values.reshape(a.shape), a, out=a)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonal at `offset` of the 2-D slices over `axis1` and `axis2`, as the last axis (a view)."""
    return _device(a, "diagonal").diagonal(offset, axis1, axis2)
