"""cupyx's host arrays in pinned memory: empty_pinned, empty_like_pinned, zeros_pinned, zeros_like_pinned.

Each is a numpy.ndarray whose memory comes from cuarray.cuda.alloc_pinned_memory (page-locked, so copies to and
from the device run at full speed and asynchronously), kept alive by the array's base.
"""

import math
import operator

import numpy

__all__ = ["empty_like_pinned", "empty_pinned", "zeros_like_pinned", "zeros_pinned"]


def _shape(shape):
    try:
        return (operator.index(shape),)
    except TypeError:
        return tuple(operator.index(n) for n in shape)


def _pinned_array(shape, dtype, order, strides=None):
    from cuarray.cuda import alloc_pinned_memory

    shape = _shape(shape)
    dtype = numpy.dtype(dtype)
    if any(n < 0 for n in shape):
        raise ValueError("negative dimensions are not allowed")
    if order not in ("C", "F", "c", "f"):
        raise ValueError(f"order must be one of 'C' or 'F', got {order!r}")
    memory = alloc_pinned_memory(math.prod(shape) * dtype.itemsize)
    return numpy.ndarray(shape, dtype, memory, 0, strides, order)


def _like_order(a, order):
    """The memory order of an array like `a`: NumPy's rule for 'K' and 'A' (Fortran for an F- and not
    C-contiguous `a`)."""
    if order in ("K", "k", "A", "a", None):
        return "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"
    return order


def empty_pinned(shape, dtype=float, order="C"):
    """An uninitialised numpy.ndarray in pinned host memory."""
    return _pinned_array(shape, dtype, order)


def empty_like_pinned(a, dtype=None, order="K", subok=None, shape=None):
    """empty_pinned with the shape and dtype of `a` (a NumPy or cuarray array) unless given."""
    if subok is not None:
        raise TypeError("subok is not supported yet")
    return _pinned_array(
        a.shape if shape is None else shape,
        a.dtype if dtype is None else dtype,
        "C" if shape is not None and order in ("K", "k", "A", "a") else _like_order(a, order),
    )


def zeros_pinned(shape, dtype=float, order="C"):
    """A numpy.ndarray of zeros in pinned host memory."""
    out = empty_pinned(shape, dtype, order)
    out.fill(0)
    return out


def zeros_like_pinned(a, dtype=None, order="K", subok=None, shape=None):
    """zeros_pinned with the shape and dtype of `a` unless given."""
    out = empty_like_pinned(a, dtype, order, subok, shape)
    out.fill(0)
    return out
