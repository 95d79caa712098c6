"""SciPy's correlation_lags, wiener, order_filter, deconvolve and vectorstrength on device arrays.

wiener's image and order_filter's array must be device arrays (host arrays raise CuPy's TypeError, as for the
convolutions); deconvolve and vectorstrength take anything CuPy's take, Python sequences and host arrays copied
to the device (CuPy's call cupy.asarray on them); correlation_lags takes two lengths.

Note [Order filter as a sort]
order_filter is ndimage.rank_filter with the footprint `domain`, zero padding and the window centred on each
element: here every element's zero-padded window is gathered into a row (sliding_window_view, blocks of rows at a
time to bound the memory, as medfilt does in _filters.py), the footprint's elements taken from it and sorted, and
the element of the given rank kept. The values are SciPy's wherever the windows hold no NaN (a sort puts NaNs
last). SciPy 1.17 differs in one case: for a 1-D input and a rank strictly between the smallest and the largest,
its fast 1-D filter ranks the whole window, the footprint's zeros included (the N-D filter, its minimum and maximum
filters and CuPy's rank_filter all honour the footprint); here the footprint is always honoured.
"""

import math
import operator

import numpy

import cuarray as cp
from cuarray.lib.stride_tricks import sliding_window_view
from cuarray.scipy.signal._convolve import convolve, correlate, require_device
from cuarray.scipy.signal._filters import _BLOCK
from cuarray.scipy.signal._iir_forms import device_input, host
from cuarray.scipy.signal._lfilter import lfilter_state as lfilter

__all__ = ["correlation_lags", "deconvolve", "order_filter", "vectorstrength", "wiener"]


def correlation_lags(in1_len, in2_len, mode="full"):
    """The lags (an int64 device array for integer lengths) of the 1-D cross-correlation of inputs of lengths
    in1_len and in2_len, in correlate's output order for `mode`."""
    if mode in ("full", "same"):
        lags = cp.arange(-in2_len + 1, in1_len)
        if mode == "same":  # in1_len lags centred on the full output's middle
            mid, half = lags.size // 2, in1_len // 2
            lags = lags[mid - half : mid + half + in1_len % 2]
    elif mode == "valid":  # only the lags where one input lies wholly inside the other
        bound = in1_len - in2_len
        lags = cp.arange(bound + 1) if bound >= 0 else cp.arange(bound, 1)
    else:
        raise ValueError(f"Mode {mode} is invalid")
    return lags


def wiener(im, mysize=None, noise=None):
    """Wiener filter of the N-D device array `im` over windows of `mysize` (one size per axis or one for all; 3
    by default), with noise power `noise` (by default the mean of the local variance): float64 or complex128,
    as SciPy's."""
    require_device(im)
    mysize = [3] * im.ndim if mysize is None else host(mysize)
    if numpy.shape(mysize) == ():
        mysize = [mysize] * im.ndim
    size = float(math.prod(mysize))
    ones = cp.ones(tuple(mysize))
    dtype = numpy.complex128 if im.dtype.kind == "c" else numpy.float64
    # SciPy correlates im and im ** 2 with a float64 window: the square is taken in im's own type (integers
    # wrap as in SciPy; NumPy's ** 2 is x * x), then cast, which gives SciPy's sums.
    squares = (im * im).astype(dtype, copy=False)
    im = im.astype(dtype, copy=False)
    mean = correlate(im, ones, "same") / size
    var = correlate(squares, ones, "same") / size - mean * mean
    if noise is None:
        noise = cp.mean(var.reshape(-1), axis=0)
    out = im - mean
    out *= 1 - noise / var
    out += mean
    return cp.where(var < noise, mean, out)


def order_filter(a, domain, rank):
    """The element of rank `rank` (0 the smallest; negative from the largest) among the neighbours that the mask
    `domain` (odd size along each axis, read on the host) selects around each element of the device array `a`,
    zero-padded at the edges (Note [Order filter as a sort]); integer, float32 and float64 arrays, in their
    type."""
    require_device(a)
    footprint = numpy.asarray(host(domain))
    for n in footprint.shape:
        if n % 2 != 1:
            raise ValueError("Each dimension of domain argument should have an odd number of elements.")
    if not (a.dtype.kind in "iu" or a.dtype in (numpy.float32, numpy.float64)):
        raise ValueError(f"dtype={a.dtype} is not supported by order_filter")
    rank = operator.index(rank)
    footprint = footprint.astype(bool)
    if footprint.ndim != a.ndim:
        raise RuntimeError(f"footprint.ndim ({footprint.ndim}) must match len(axes) ({a.ndim})")
    selected = numpy.flatnonzero(footprint)  # positions in a window's row, C order
    count = selected.size
    if rank < 0:
        rank += count
    if not 0 <= rank < count:
        raise RuntimeError("rank not within filter footprint size")
    if a.ndim == 0 or a.size == 0:  # one element, its own window; or none
        return a.copy()
    out = cp.empty(a.shape, a.dtype)
    padded = cp.pad(a, [(n // 2, n // 2) for n in footprint.shape])
    windows = sliding_window_view(padded, footprint.shape)  # a.shape + footprint.shape
    every = count == footprint.size
    selected = None if every else cp.asarray(selected)
    rows = max(1, _BLOCK // (footprint.size * (a.size // a.shape[0])))
    for start in range(0, a.shape[0], rows):
        block = windows[start : start + rows]
        flat = block.reshape(block.shape[: a.ndim] + (footprint.size,))
        if not every:
            flat = cp.take(flat, selected, axis=-1)
        out[start : start + rows] = cp.sort(flat, axis=-1)[..., rank]
    return out


def deconvolve(signal, divisor):
    """quotient, remainder with signal = convolve(divisor, quotient) + remainder, by inverse filtering: the
    quotient is lfilter(signal, divisor, impulse); SciPy's [] and the signal itself where the divisor is longer."""
    num, den = cp.atleast_1d(device_input(signal)), cp.atleast_1d(device_input(divisor))
    if not (num.ndim == 1 and num.size > 0):
        raise ValueError(f"Parameter signal must be non-empty 1d array, but its shape is {num.shape}!")
    if not (den.ndim == 1 and den.size > 0):
        raise ValueError(f"Parameter divisor must be non-empty 1d array, but its shape is {den.shape}!")
    n, d = num.shape[0], den.shape[0]
    if d > n:
        return [], num
    impulse = cp.zeros(n - d + 1, numpy.float64)
    impulse[0] = 1
    quot = lfilter(num, den, impulse)
    return quot, num - convolve(den, quot, mode="full")


def vectorstrength(events, period):
    """The vector strength and phase of the event times `events` (1-D) at each period of `period` (a scalar,
    giving 0-d device arrays, or 1-D): the modulus and angle of the mean of exp(2 pi i t / period). The periods'
    floating type (float64 for integers) sets the precision."""
    events, period = device_input(events), device_input(period)
    if period.dtype.kind in "iu":
        period = period.astype(numpy.float64)
    if events.ndim > 1:
        raise ValueError("events cannot have dimensions more than 1")
    if period.ndim > 1:
        raise ValueError("period cannot have dimensions more than 1")
    scalar = period.ndim == 0
    events, period = cp.atleast_2d(events), cp.atleast_2d(period)
    if bool(cp.any(period <= 0)):
        raise ValueError("periods must be positive")
    # SciPy's (pi / period.T) @ events has an inner dimension of one: each element is one product, which the
    # broadcast multiplication gives with the same rounding and without a matrix product.
    vectors = cp.exp(2j * ((numpy.pi / period.T) * events.astype(period.dtype)))
    mean = cp.mean(vectors, axis=1)
    strength, phase = cp.abs(mean), cp.angle(mean)
    if scalar:
        return strength[0], phase[0]
    return strength, phase
