"""SciPy's detrend, hilbert and hilbert2 on device arrays. detrend, as CuPy's (cupy.asarray), also takes host
arrays, lists and scalars, copied to the device; hilbert and hilbert2 raise CuPy's TypeError for anything but
a device array (CuPy's FFTs refuse host arrays). The analytic signals are cuarray.scipy.fft transforms, so
their dtypes are SciPy's (complex64 for float16 and float32 input, complex128 otherwise)."""

import itertools
import operator

import numpy

import cuarray as cp
from cuarray.scipy.fft import fft, fft2, ifft, ifft2
from cuarray.scipy.signal._convolve import require_device
from cuarray.scipy.signal.windows._windows import _host


def _along(axis, ndim, values):
    """`values` (1-D) shaped to broadcast along `axis` of an ndim-dimensional array."""
    shape = [1] * ndim
    shape[axis] = values.shape[0]
    return values.reshape(shape)


def _part(a, axis, start, stop):
    return a[(slice(None),) * axis + (slice(start, stop),)]


# Note [Linear detrend]
# SciPy fits each piece by least squares (lstsq of the piece against [t, 1]) in the data's precision. The fit of
# a line has a closed form, used here on the device: with the centred times c = t - mean(t) (t = 1/n, ..., n/n,
# so that sum(c^2) = (n^2 - 1) / (12 n)) and d = y - mean(y), the residual is d - c * sum(c d) / sum(c^2). It is
# computed in float64 (complex128 for complex data) and cast to SciPy's result type at the end, so float32 data
# is fitted more precisely than by SciPy's float32 lstsq; the results agree to float32 rounding.
def _detrend_linear(data, axis, bp, dtype):
    N = data.shape[axis]
    axis = axis % data.ndim
    bp = numpy.sort(numpy.unique(numpy.concatenate(numpy.atleast_1d(0, _host(bp), N))))
    if numpy.any(bp > N):
        raise ValueError("Breakpoints must be less than length of data along given axis.")
    if numpy.any(bp < 0):
        raise ValueError("Breakpoints must not be negative.")
    work = numpy.complex128 if data.dtype.kind == "c" else numpy.float64
    pieces = []
    for start, stop in itertools.pairwise(bp):
        start, stop = operator.index(start), operator.index(stop)
        n = stop - start
        piece = _part(data, axis, start, stop).astype(work)
        dev = piece - cp.mean(piece, axis=axis, keepdims=True)
        if n > 1:  # a piece of one point is its own mean
            t = _along(axis, data.ndim, cp.arange(1, n + 1, dtype=numpy.float64) / n - (n + 1) / (2.0 * n))
            slope = cp.sum(dev * t, axis=axis, keepdims=True) / ((n * n - 1) / (12.0 * n))
            dev = dev - slope * t
        pieces.append(dev)
    if not pieces:  # no points along the axis
        return data.astype(dtype)
    return cp.concatenate(pieces, axis=axis).astype(dtype, copy=False)


def detrend(data, axis=-1, type="linear", bp=0, overwrite_data=False):
    """`data` less its least-squares line along `axis` (type 'linear', one line for each piece between the
    breakpoints `bp`), or less its mean ('constant'). With overwrite_data, a linear detrend of float32, float64,
    complex64 or complex128 data is written into `data`, which is returned."""
    if type not in ("linear", "l", "constant", "c"):
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    data = cp.asarray(data)  # as CuPy's: a host array's copy (which overwrite_data then overwrites)
    if type in ("constant", "c"):
        return data - cp.mean(data, axis, keepdims=True)
    dtype = data.dtype if data.dtype.char in "dfDF" else numpy.dtype(numpy.float64)
    out = _detrend_linear(data, axis, bp, dtype)  # Note [Linear detrend]
    if overwrite_data and dtype == data.dtype:
        data[...] = out
        return data
    return out


def _scale_bins(Xf, axis, double, zero):
    """SciPy's in-place steps on the spectrum along `axis`: bins 1 .. double-1 doubled, bins zero .. set to 0."""
    if double > 1:
        part = _part(Xf, axis, 1, double)
        cp.multiply(part, 2.0, out=part)
    Xf[(slice(None),) * axis + (slice(zero, None),)] = 0.0


def hilbert(x, N=None, axis=-1):
    """The analytic signal of real `x` along `axis`: its FFT (of N points) with the negative frequencies
    zeroed and the positive ones doubled (DC, and an even N's Nyquist bin, kept), transformed back."""
    require_device(x)
    if x.dtype.kind == "c":
        raise ValueError("x must be real.")
    if N is None:
        N = x.shape[axis]
    if N <= 0:
        raise ValueError("N must be positive.")
    Xf = fft(x, N, axis=axis)
    if N % 2 == 0:
        _scale_bins(Xf, axis % Xf.ndim, N // 2, N // 2 + 1)
    else:
        _scale_bins(Xf, axis % Xf.ndim, (N + 1) // 2, (N + 1) // 2)
    return ifft(Xf, axis=axis)


# Note [hilbert2 as SciPy's]
# hilbert2 is SciPy 1.17's and 1.18's (1.18.1 included): `axes` picks the two axes of an N-D x, and an even
# length's Nyquist bin is dropped (scipy/scipy#25176; scipy/scipy#25267, not in 1.18.1, keeps it as hilbert and
# CuPy 14.2 do).
# CuPy 14.2's hilbert2 predates `axes`: it raises ValueError for a 3-D x, which SciPy transforms over its last
# two axes, and cuarray does as SciPy (so CuPy's TestHilbert2::test_bad_args, which expects that ValueError,
# fails by design). CuPy's test_quadrant_values compares the spectrum of the result with atol 1e-15 on values up
# to 8: the FFTs' rounding there is of that size, so an odd shape can miss it by a few units in the last place.
def hilbert2(x, N=None, axes=(-2, -1)):
    """SciPy's 2-D analytic signal of real `x` over `axes` (a 1-D x is taken as one row): its 2-D FFT (of
    shape N) kept in the orthant of positive frequencies of both axes (an even axis's Nyquist bin dropped),
    doubled along each axis, DC kept, transformed back (Note [hilbert2 as SciPy's])."""
    require_device(x)
    if x.ndim < 2:
        x = x.reshape((1,) * (2 - x.ndim) + x.shape)
    if x.dtype.kind == "c":
        raise ValueError("x must be real.")
    if len(axes) != 2:
        raise ValueError("axes must be a tuple of length 2")
    if axes[0] == axes[1]:
        raise ValueError("axes must contain 2 distinct axes")
    if N is None:
        N = (x.shape[axes[0]], x.shape[axes[1]])
    elif isinstance(N, int):
        if N <= 0:
            raise ValueError("N must be positive.")
        N = (N, N)
    elif len(N) != 2 or numpy.any(numpy.asarray(N) <= 0):
        raise ValueError("When given as a tuple, N must hold exactly two positive integers")
    Xf = fft2(x, N, axes=axes)
    for n, axis in zip(N, axes):
        _scale_bins(Xf, axis % Xf.ndim, (n + 1) // 2, (n + 1) // 2)
    return ifft2(Xf, axes=axes)
