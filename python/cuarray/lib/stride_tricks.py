"""Views of a device array's memory with the shape and strides asked for: as_strided and sliding_window_view,
as NumPy's numpy.lib.stride_tricks. Unlike NumPy's, as_strided refuses a view that would reach memory outside
the array's own allocation (ValueError), so a wrong stride cannot read or write another array's data."""

import numpy

from cuarray._core import ndarray
from cuarray.cuda.memory import _ArrayPointer as MemoryPointer

__all__ = ["as_strided", "sliding_window_view"]


def _check(x, name):
    if not isinstance(x, ndarray):
        raise TypeError(f"cuarray.lib.stride_tricks.{name} takes a cuarray.ndarray, got {type(x).__name__}")
    return x


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """A view of x's memory with `shape` and `strides` (in bytes). Strides not given are x's own, or, where x is
    C-contiguous, C-contiguous ones for `shape`: NumPy's, whose array interface names no strides for such an
    array. Elements may overlap: writing through such a view is as undefined as in NumPy."""
    x = _check(x, "as_strided")
    shape = x.shape if shape is None else tuple(shape)
    if strides is None and x.flags.c_contiguous:
        strides = tuple(
            int(numpy.prod([max(n, 1) for n in shape[d + 1 :]])) * x.itemsize for d in range(len(shape))
        )
    strides = x.strides if strides is None else tuple(strides)
    # The address without cuarray.ndarray.data, which would hand it to other code (Note [Launch queue]).
    return ndarray(shape, x.dtype, MemoryPointer(x._ptr, x._device_id, x), strides)


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """Every window of `window_shape` along `axis` (all axes when None) as a view: the result's last axes run
    over a window, its first ones over the windows' positions. CuPy's arrays have no read-only flag, so the view
    is writeable whatever `writeable` says."""
    if isinstance(x, (list, tuple)):  # NumPy's array-likes (a NumPy array is refused, as everywhere)
        from cuarray._transfer import asarray

        x = asarray(x)
    x = _check(x, "sliding_window_view")
    window_shape = tuple(window_shape) if numpy.iterable(window_shape) else (window_shape,)
    if any(w < 0 for w in window_shape):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        axis = tuple(range(x.ndim))
        if len(window_shape) != len(axis):
            raise ValueError(
                f"Since axis is `None`, must provide window_shape for all dimensions of `x`; got "
                f"{len(window_shape)} window_shape elements and `x.ndim` is {x.ndim}."
            )
    else:
        axis = numpy.lib.array_utils.normalize_axis_tuple(axis, x.ndim, allow_duplicate=True)
        if len(window_shape) != len(axis):
            raise ValueError(
                f"Must provide matching length window_shape and axis; got {len(window_shape)} "
                f"window_shape elements and {len(axis)} axes elements."
            )
    trimmed = list(x.shape)
    for ax, w in zip(axis, window_shape):
        if trimmed[ax] < w:
            raise ValueError("window shape cannot be larger than input array shape")
        trimmed[ax] -= w - 1
    return as_strided(x, tuple(trimmed) + window_shape, x.strides + tuple(x.strides[ax] for ax in axis))
