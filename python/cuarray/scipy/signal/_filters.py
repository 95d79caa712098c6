"""SciPy's medfilt, medfilt2d, savgol_coeffs and savgol_filter on device arrays. As CuPy's, savgol_filter
takes its signal through cupy.asarray (a host array or list is copied to the device), and the median filters
take device arrays only (CuPy's rank filter refuses others).

Note [Median filters]
SciPy's medfilt (ndimage.rank_filter) and medfilt2d take the middle of each zero-padded window. Here every
window is gathered into a row and sorted on the device, a block of rows at a time to bound the memory, and the
middle element taken: the same value wherever the window holds no NaN. SciPy's two selection algorithms place
NaNs differently from each other; a sort puts them last, as numpy.sort does, so windows with NaNs may differ.

Note [Savitzky-Golay on the device]
The coefficients are a small least-squares problem on the host, in float64 (SciPy's too). The filter is
ndimage.convolve1d's: y[i] = sum_j c[j] * e[i + L // 2 - j], with e the signal extended by `mode` (mirror,
nearest, wrap as periodic, or cval), repeated as often as a window longer than the signal needs. It is L
multiply-adds of shifted views of the extended signal, in float64 as ndimage sums, then cast to the input's
type. mode='interp' replaces the L // 2 outputs at each end by the least-squares polynomial through the first
(last) L samples, evaluated there: a fixed linear map of those samples, built on the host and applied by
tensordot. SciPy fits float32 input in float32, so float32 edges agree to float32's rounding, not bit for bit.
"""

import math
import operator
import warnings

import numpy

from cuarray import _creation, _indexing, _manipulation, _products, _sorting
from cuarray._ndarray import ndarray
from cuarray._pad import pad
from cuarray._transfer import asarray
from cuarray.lib.stride_tricks import sliding_window_view
from cuarray.scipy.signal._convolve import require_device
from cuarray.scipy.signal._peak_finding import _as_double

__all__ = ["medfilt", "medfilt2d", "savgol_coeffs", "savgol_filter"]

# Elements of the gathered windows sorted at once (Note [Median filters]): 256 MiB of float64.
_BLOCK = 1 << 25


def _kernel_size(kernel_size, ndim):
    """SciPy's kernel_size: 3 per axis for None, a scalar for every axis; each element odd, one per axis,
    positive integers (ndimage's errors past medfilt's own checks)."""
    if kernel_size is None:
        kernel_size = [3] * ndim
    kernel_size = numpy.asarray(kernel_size)
    if kernel_size.shape == ():
        kernel_size = numpy.repeat(kernel_size, ndim)
    for k in range(ndim):
        if (kernel_size[k] % 2) != 1:
            raise ValueError("Each element of kernel_size should be odd.")
    return kernel_size


def _checked_sizes(kernel_size, ndim):
    if len(kernel_size) != ndim:
        raise RuntimeError("sequence argument must have length equal to input rank")
    sizes = tuple(operator.index(k) for k in kernel_size.tolist())
    if any(k < 1 for k in sizes):
        raise ValueError("negative dimensions are not allowed")
    return sizes


def _median(volume, sizes):
    """The middle of each zero-padded window of `sizes` (odd) around every element (Note [Median filters])."""
    out = _creation.empty(volume.shape, volume.dtype)
    if volume.size == 0:
        return out
    count = math.prod(sizes)
    padded = pad(volume, [(k // 2, k // 2) for k in sizes])
    windows = sliding_window_view(padded, sizes)  # volume.shape + sizes
    rows = max(1, _BLOCK // (count * (volume.size // volume.shape[0])))
    for start in range(0, volume.shape[0], rows):
        block = windows[start : start + rows]
        flat = block.reshape(block.shape[: volume.ndim] + (count,))
        out[start : start + rows] = _sorting.sort(flat, axis=-1)[..., count // 2]
    return out


def medfilt(volume, kernel_size=None):
    """Median filter of an N-D array over windows of `kernel_size` (odd, one per axis or one for all), the
    array zero-padded; integer, float32 and float64 inputs, the result in the input's type."""
    require_device(volume)
    if volume.ndim == 0:
        volume = volume.reshape(1)
    if not (volume.dtype.kind in "iu" or volume.dtype in (numpy.float32, numpy.float64)):
        raise ValueError(f"dtype={volume.dtype} is not supported by medfilt")
    kernel_size = _kernel_size(kernel_size, volume.ndim)
    if any(k > s for k, s in zip(kernel_size, volume.shape)):
        warnings.warn("kernel_size exceeds volume extent: the volume will be zero-padded.", stacklevel=2)
    return _median(volume, _checked_sizes(kernel_size, volume.ndim))


def medfilt2d(input, kernel_size=3):
    """Median filter of a 2-D array (SciPy's: uint8, float32 and float64 must be 2-D; other types go through
    medfilt, as in SciPy)."""
    require_device(input)
    if input.dtype not in (numpy.uint8, numpy.float32, numpy.float64):
        return medfilt(input, kernel_size)
    kernel_size = [3, 3] if kernel_size is None else kernel_size
    kernel_size = numpy.asarray(kernel_size)
    if kernel_size.shape == ():
        kernel_size = numpy.repeat(kernel_size.item(), 2)
    for size in kernel_size:
        if (size % 2) != 1:
            raise ValueError("Each element of kernel_size should be odd.")
    if input.ndim < 2:
        raise ValueError("object of too small depth for desired array")
    if input.ndim > 2:
        raise ValueError("object too deep for desired array")
    if len(kernel_size) < 2:
        raise ValueError("Size must be a length two sequence")
    return _median(input, _checked_sizes(kernel_size[:2], 2))  # SciPy's reads the first two


# --------------------------------------------------------------------------- Savitzky-Golay


def _float_factorial(n):
    return float(math.factorial(n)) if n < 171 else numpy.inf


def _coeffs(window_length, polyorder, deriv=0, delta=1.0, pos=None, use="conv"):
    """SciPy's savgol_coeffs on the host (float64), with its checks in its order."""
    if polyorder >= window_length:
        raise ValueError("polyorder must be less than window_length.")
    halflen, rem = divmod(window_length, 2)
    if pos is None:
        pos = halflen - 0.5 if rem == 0 else halflen
    if not (0 <= pos < window_length):
        raise ValueError("pos must be nonnegative and less than window_length.")
    if use not in ["conv", "dot"]:
        raise ValueError("`use` must be 'conv' or 'dot'")
    if deriv > polyorder:
        return numpy.zeros(window_length, dtype=numpy.float64)
    x = numpy.arange(-pos, window_length - pos, dtype=numpy.float64)
    if use == "conv":
        x = x[::-1]  # reversed, for use in a convolution
    A = x ** numpy.arange(polyorder + 1, dtype=numpy.float64).reshape(-1, 1)
    y = numpy.zeros(polyorder + 1, dtype=numpy.float64)
    y[deriv] = _float_factorial(deriv) / (delta**deriv)
    rcond = numpy.finfo(numpy.float64).eps * max(A.shape)
    return numpy.linalg.lstsq(A, y, rcond=rcond)[0]


def _host_delta(delta):
    """The sample spacing on the host: a device scalar (CuPy's tests pass t[1] - t[0]) read back, as CuPy's
    device arithmetic takes it."""
    return delta.get() if isinstance(delta, ndarray) else delta


def savgol_coeffs(window_length, polyorder, deriv=0, delta=1.0, pos=None, use="conv"):
    """The coefficients of a 1-D Savitzky-Golay FIR filter, a float64 device array (SciPy's values)."""
    return asarray(_coeffs(window_length, polyorder, deriv, _host_delta(delta), pos, use))


def _extended_index(n, length, mode):
    """Indices into a signal of n samples of its extension by `length` // 2 samples before and the rest after,
    as ndimage extends ('mirror', 'nearest', 'wrap'); None where mode is 'constant'."""
    k = numpy.arange(n + length - 1) - (length - 1) // 2
    if mode == "nearest":
        return numpy.clip(k, 0, n - 1)
    if mode == "wrap":
        return numpy.mod(k, n)
    if n == 1:  # mirror
        return numpy.zeros_like(k)
    m = numpy.mod(k, 2 * n - 2)
    return numpy.where(m < n, m, 2 * n - 2 - m)


def _edge_map(length, polyorder, deriv, delta, first, count):
    """The (count, length) matrix taking `length` samples to the derivative `deriv` of their least-squares
    polynomial (SciPy's polyfit, polyder, polyval) at positions first .. first + count - 1 of the window."""
    t = numpy.arange(length, dtype=numpy.float64)
    lhs = t[:, None] ** numpy.arange(polyorder, -1, -1, dtype=numpy.float64)[None, :]
    scale = numpy.sqrt((lhs * lhs).sum(axis=0))
    fit = numpy.linalg.lstsq(lhs / scale, numpy.eye(length), rcond=length * numpy.finfo(float).eps)[0]
    coef = fit / scale[:, None]  # (polyorder + 1, length), highest power first
    for _ in range(deriv):
        if coef.shape[0] <= 1:
            coef = numpy.zeros((1, length))
            break
        coef = coef[:-1] * numpy.arange(coef.shape[0] - 1, 0, -1, dtype=numpy.float64)[:, None]
    where = numpy.arange(first, first + count, dtype=numpy.float64)
    return (where[:, None] ** numpy.arange(coef.shape[0] - 1, -1, -1)[None, :]) @ coef / (delta**deriv)


def _along(axis, ndim, index):
    key = [slice(None)] * ndim
    key[axis] = index
    return tuple(key)


def savgol_filter(x, window_length, polyorder, deriv=0, delta=1.0, axis=-1, mode="interp", cval=0.0):
    """Savitzky-Golay filter of `x` along `axis` (Note [Savitzky-Golay on the device]); float32 input gives
    float32, anything else float64, as in SciPy."""
    if mode not in ["mirror", "constant", "nearest", "interp", "wrap"]:
        raise ValueError("mode must be 'mirror', 'constant', 'nearest' 'wrap' or 'interp'.")
    x = asarray(x)  # as CuPy's (cupy.asarray): a host array or list is copied to the device
    dtype = x.dtype if x.dtype in (numpy.float32, numpy.float64) else numpy.dtype(numpy.float64)
    delta = _host_delta(delta)
    coeffs = _coeffs(window_length, polyorder, deriv=deriv, delta=delta)
    length = coeffs.size
    if mode == "interp":
        if window_length > x.shape[axis]:
            raise ValueError(
                "If mode is 'interp', window_length must be less than or equal to the size of x."
            )
    else:
        cval = _as_double(cval)
    axis = numpy.lib.array_utils.normalize_axis_index(operator.index(axis), x.ndim)
    n = x.shape[axis]
    x64 = x.astype(numpy.float64, copy=False)
    if x.size == 0:
        return _creation.zeros(x.shape, dtype)
    index = _extended_index(n, length, "nearest" if mode in ("interp", "constant") else mode)
    ext = _indexing.take(x64, index, axis=axis)
    if mode in ("interp", "constant"):  # ndimage's constant extension (cval 0 under interp)
        before = (length - 1) // 2
        fill = 0.0 if mode == "interp" else cval
        ext[_along(axis, x.ndim, slice(0, before))] = fill
        ext[_along(axis, x.ndim, slice(before + n, None))] = fill
    y = None
    for j, c in enumerate(coeffs.tolist()):  # ndimage's sum, term by term, in float64
        start = length - 1 - j
        term = ext[_along(axis, x.ndim, slice(start, start + n))] * c
        if y is None:
            y = term
        else:
            y += term
    if mode == "interp":
        half = window_length // 2
        for right in (False, True):
            start = n - window_length if right else 0
            at = window_length - half if right else 0
            edge = _edge_map(window_length, polyorder, deriv, delta, at, half)
            window = x64[_along(axis, x.ndim, slice(start, start + window_length))]
            values = _products.tensordot(asarray(edge), window, ([1], [axis]))
            target = slice(n - half, n) if right else slice(0, half)
            y[_along(axis, x.ndim, target)] = _manipulation.moveaxis(values, 0, axis)
    return y.astype(dtype, copy=False)
