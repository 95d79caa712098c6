"""Cumulative sums and products (cumsum, cumprod, nancumsum, nancumprod), with NumPy's dtypes.

The scans run on the device in one pass (Note [Single-pass scan] in cpp/cuarray/kernels/scan.cuh).
"""

import operator
import warnings

import numpy

from cuarray import _core
from cuarray._core import ndarray
from cuarray._creation import empty
from cuarray._transfer import device_array as _as_array

__all__ = ["cumprod", "cumsum", "cumulative_prod", "cumulative_sum", "nancumprod", "nancumsum"]


def _default_dtype(dt):
    """NumPy's accumulator: the platform integer for smaller integers and bool, else the input's dtype."""
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < 8):
        return numpy.dtype(numpy.int64)
    if dt.kind == "u" and dt.itemsize < 8:
        return numpy.dtype(numpy.uint64)
    return dt


def _scan(a, axis, dtype, out, product, skip_nan, name):
    """The scan of `a` along `axis`: a sum, or a product with `product` True; `product` may also name the
    operation ("max", "min": maximum/minimum.accumulate, in a's dtype)."""
    op = product if isinstance(product, str) else ("prod" if product else "sum")
    a = _as_array(a, name)
    if axis is None or a.ndim == 0:
        if a.ndim == 0 and axis not in (None, 0, -1):
            numpy.lib.array_utils.normalize_axis_index(axis, 0)  # NumPy's AxisError
        a, axis = a.reshape(-1), 0
    else:
        axis = numpy.lib.array_utils.normalize_axis_index(operator.index(axis), a.ndim)
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError(f"cuarray.{name}: out must be a cuarray.ndarray")
        if out.shape != a.shape:
            raise ValueError(f"{name}: out has shape {out.shape} but the result has shape {a.shape}")
    if dtype is None:
        dtype = _default_dtype(a.dtype) if op in ("sum", "prod") else a.dtype
        if out is not None and numpy.result_type(a.dtype, out.dtype).kind in "fc":
            # NumPy's accumulate takes add's (multiply's) loop for the input and `out` and casts into `out`:
            # float64 data into an int64 `out` sum in float64, float32 data into a float64 one in float64.
            # Integer and bool sums wrap alike in any integer width, so those keep the default.
            dtype = numpy.result_type(a.dtype, out.dtype)
    dtype = numpy.dtype(dtype)
    if a.dtype.kind == "c" and (dtype if out is None else out.dtype).kind not in "cb":
        warnings.warn(
            "Casting complex values to real discards the imaginary part",
            numpy.exceptions.ComplexWarning,
            stacklevel=3,
        )
    skip_nan = skip_nan and a.dtype.kind in "fc"
    if out is not None and out.dtype == dtype:
        _core._scan(a, axis, op, skip_nan, out)
        return out
    # Laid out as NumPy's: by its iterator's rule (a broadcast input's zero strides have no say), or for the NaN
    # forms of inexact input as the copy of order 'K' NumPy makes to replace the NaNs in.
    result = _core._empty_like(a, dtype) if skip_nan else _core._empty_like_all(a.shape, dtype, [a], True)
    _core._scan(a, axis, op, skip_nan, result)
    if out is None:
        return result
    _core._copyto(out, result)
    return out


def cumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum along `axis` (the flattened array for None)."""
    return _scan(a, axis, dtype, out, False, False, "cumsum")


def cumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product along `axis` (the flattened array for None)."""
    return _scan(a, axis, dtype, out, True, False, "cumprod")


def nancumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum treating NaNs as zero."""
    return _scan(a, axis, dtype, out, False, True, "nancumsum")


def nancumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product treating NaNs as one."""
    return _scan(a, axis, dtype, out, True, True, "nancumprod")


def _running_maximum(a, axis=0, dtype=None, out=None):
    """maximum.accumulate: the largest element so far along `axis` (NaN from the first NaN on)."""
    return _scan(a, axis, dtype, out, "max", False, "maximum.accumulate")


def _running_minimum(a, axis=0, dtype=None, out=None):
    """minimum.accumulate: the smallest element so far along `axis` (NaN from the first NaN on)."""
    return _scan(a, axis, dtype, out, "min", False, "minimum.accumulate")


def _cumulative(x, axis, dtype, out, include_initial, product, name):
    x = _as_array(x, name)
    if axis is None:
        if x.ndim > 1:
            raise ValueError("axis must be specified for multi-dimensional arrays")
        axis = 0
    if not include_initial:
        return _scan(x, axis, dtype, out, product, False, name)
    x = x.reshape(1) if x.ndim == 0 else x
    axis = numpy.lib.array_utils.normalize_axis_index(operator.index(axis), x.ndim)
    shape = list(x.shape)
    shape[axis] += 1
    res = empty(tuple(shape), _default_dtype(x.dtype) if dtype is None else dtype) if out is None else out
    head = (slice(None),) * axis
    res[head + (0,)] = 1 if product else 0
    _scan(x, axis, res.dtype, res[head + (slice(1, None),)], product, False, name)
    return res


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """The array API's cumulative sum: cumsum, optionally starting with 0."""
    return _cumulative(x, axis, dtype, out, include_initial, False, "cumulative_sum")


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """The array API's cumulative product: cumprod, optionally starting with 1."""
    return _cumulative(x, axis, dtype, out, include_initial, True, "cumulative_prod")
