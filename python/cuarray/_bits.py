"""Packing truth values into the bits of uint8 and back (NumPy's packbits and unpackbits), from shifts,
reshapes and a sum on the device."""

import operator

import numpy

from cuarray import _reduction
from cuarray import _ufuncs as _u
from cuarray._creation import arange, zeros
from cuarray._transfer import device_array as _device

__all__ = ["packbits", "unpackbits"]


def _shifts(bitorder, trailing, numpy_function):
    """The shift of each bit of a byte, most significant first for 'big', shaped to broadcast over `trailing`
    axes after the bit axis. Which words name an order has changed between NumPy versions (2.5 takes any word
    starting with 'l' or 'b', 2.4 'little'/'big' and some longer words), so the running NumPy's packbits or
    unpackbits of one byte decides, with its errors."""
    little = numpy_function(numpy.ones(1, numpy.uint8), bitorder=bitorder)[0] == 1
    shifts = arange(8, dtype=numpy.uint8) if little else arange(7, -1, -1, dtype=numpy.uint8)
    return shifts.reshape((8,) + (1,) * trailing)


def _along(a, axis):
    """(a, axis): the flattened array for axis None; a 0-d array counts as 1-D, as in NumPy."""
    if axis is None:
        return a.reshape(-1), 0
    if a.ndim == 0:
        a = a.reshape(1)
    return a, numpy.lib.array_utils.normalize_axis_index(operator.index(axis), a.ndim)


def packbits(a, axis=None, bitorder="big"):
    """Each group of 8 elements along `axis` (of the flattened array for None), nonzero as 1, as the bits of
    one uint8; the last group is padded with zeros."""
    a = _device(a, "packbits")
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    a, axis = _along(a, axis)
    shifts = _shifts(bitorder, a.ndim - axis - 1, numpy.packbits)
    n = a.shape[axis]
    nbytes = -(-n // 8)
    bits = a.astype(numpy.bool_, copy=False).view(numpy.uint8)  # 0 or 1 per element
    if n % 8:
        padded = zeros(a.shape[:axis] + (nbytes * 8,) + a.shape[axis + 1 :], numpy.uint8)
        padded[(slice(None),) * axis + (slice(0, n),)] = bits
        bits = padded
    grouped = bits.reshape(a.shape[:axis] + (nbytes, 8) + a.shape[axis + 1 :])
    # Distinct bits: their sum is their OR, and stays within uint8.
    return _reduction.sum(_u.left_shift(grouped, shifts), axis=axis + 1, dtype=numpy.uint8)


def unpackbits(a, axis=None, count=None, bitorder="big"):
    """The 8 bits of each uint8 along `axis` (of the flattened array for None) as 0/1 uint8 elements; `count`
    keeps that many (padding with zeros past the end), or drops -count from the end."""
    a = _device(a, "unpackbits")
    if a.dtype != numpy.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    a, axis = _along(a, axis)
    shifts = _shifts(bitorder, a.ndim - axis - 1, numpy.unpackbits)
    n = a.shape[axis] * 8
    if count is not None:
        count = operator.index(count)
        if count < 0:
            if -count > n:
                raise ValueError("-count larger than number of elements")
            count += n
    bits = _u.bitwise_and(_u.right_shift(a._expand_dims(axis + 1), shifts), 1)
    bits = bits.reshape(a.shape[:axis] + (n,) + a.shape[axis + 1 :])
    if count is None or count == n:
        return bits
    head = (slice(None),) * axis
    if count < n:
        return bits[head + (slice(0, count),)]
    out = zeros(a.shape[:axis] + (count,) + a.shape[axis + 1 :], numpy.uint8)
    out[head + (slice(0, n),)] = bits
    return out
