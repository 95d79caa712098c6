"""The chirp z-transform (cupyx.scipy.signal's czt, zoom_fft, CZT, ZoomFFT and czt_points): the z-transform of a
signal sampled along a spiral z = a * w**-k, computed by Bluestein's algorithm as a convolution with a chirp, done
with cuFFT on the device. The chirps are SciPy's (Note [Chirps on the host])."""

import cmath
import numbers

import numpy

import cuarray as cp
from cuarray.fft import fft, ifft
from cuarray.scipy.fft import next_fast_len

__all__ = ["CZT", "ZoomFFT", "czt", "czt_points", "zoom_fft"]

# Note [Chirps on the host]
# The chirp sequences (w**(k**2/2), a**-k and ZoomFFT's exponentials) are computed on the host with NumPy, by
# SciPy's own expressions in SciPy's order, then copied to the device. So their values are SciPy's bit for bit
# and their dtypes follow NumPy's promotion as SciPy's do: complex128 as a rule, float64 for a real `w` and `a`,
# complex64 where ZoomFFT's frequencies are float32 scalars and the indices fit in int16. Only the FFTs of the
# convolution and the products with the signal run on the device, so a result differs from SciPy's by the
# rounding of cuFFT's transforms against pocketfft's.
#
# Note [Convolution length]
# The circular convolution is zero-padded to CuPy's next_fast_len(n + m - 1) (lengths of factors 2, 3, 5 and 7,
# cuFFT's fast ones) where SciPy's allows 11 too. Any length of at least n + m - 1 gives the same linear
# convolution, so the choice changes the result by rounding only.


def _validate_sizes(n, m):
    """m (n where None), after SciPy's checks of the input length n and the output length m, in its order."""
    if n < 1 or not isinstance(n, numbers.Integral):
        raise ValueError(
            f"Invalid number of CZT data points ({n}) specified. n must be positive and integer type."
        )
    if m is None:
        return n
    if m < 1 or not isinstance(m, numbers.Integral):
        raise ValueError(
            f"Invalid number of CZT output points ({m}) specified. m must be positive and integer type."
        )
    return m


def _host(value):
    """A parameter (w, a, fn) given as a device array, as a host array for the host maths; others as given."""
    return value.get() if isinstance(value, cp.ndarray) else value


def _host_signal(x):
    """A signal's array: device arrays as given, anything else as NumPy reads it (its shape checked on the host;
    the transform copies it to the device, as CuPy's asarray does)."""
    return x if isinstance(x, cp.ndarray) else numpy.asarray(x)


def _indices(n, m):
    """SciPy's k = 0 .. max(m, n) - 1 in the smallest signed type holding -max(m, n)**2: its dtype is part of the
    chirps' promotion (Note [Chirps on the host])."""
    length = max(m, n)
    return numpy.arange(length, dtype=numpy.min_scalar_type(-(length**2)))


def _czt_chirps(n, m, w, a):
    """(w, a, a**-k * w**(k**2/2) for the n inputs, w**(k**2/2) for all max(m, n) k): CZT's host chirps."""
    k = _indices(n, m)
    if w is None:  # the FFT's points; the exponent reduced modulo 2m keeps large k**2 exact
        w = cmath.exp(-2j * numpy.pi / m)
        wk2 = numpy.exp(-(1j * numpy.pi * ((k**2) % (2 * m))) / m)
    else:
        wk2 = w ** (k**2 / 2.0)
    a = 1.0 * a  # at least float: an integer a would raise to negative integer powers
    return w, a, a ** -k[:n] * wk2[:n], wk2


def _zoom_range(fn):
    """(f1, f2) of ZoomFFT's fn: a pair, or a scalar f2 with f1 = 0."""
    if numpy.size(fn) == 2:
        f1, f2 = fn
        return f1, f2
    if numpy.size(fn) == 1:
        return 0.0, fn
    raise ValueError("fn must be a scalar or 2-length sequence")


def _zoom_chirps(n, m, f1, f2, fs, endpoint):
    """(w, a, input chirp, output chirp) of ZoomFFT, as _czt_chirps gives CZT's: equally spaced points of the
    unit circle from f1 to f2 (f2 the last where `endpoint`), each exponential computed directly (no powers of
    a rounded w accumulate)."""
    k = _indices(n, m)
    scale = ((f2 - f1) * m) / (fs * (m - 1)) if endpoint else (f2 - f1) / fs
    wk2 = numpy.exp(-(1j * numpy.pi * scale * k**2) / m)
    ak = numpy.exp(-2j * numpy.pi * f1 / fs * k[:n])
    w = cmath.exp(-2j * numpy.pi / m * scale)
    a = cmath.exp(2j * numpy.pi * f1 / fs)
    return w, a, ak * wk2[:n], wk2


def _convolution_chirp(wk2, n, m):
    """The n + m - 1 points of 1 / w**(k**2/2) for k = -(n-1) .. m-1 that Bluestein's convolution filters with."""
    return 1 / numpy.hstack((wk2[n - 1 : 0 : -1], wk2[:m]))


def czt_points(m, w=None, a=1 + 0j):
    """scipy.signal.czt_points: the m points a * w**-k of the z-plane where CZT samples the z-transform (the
    unit circle's m equally spaced points by default), a device array; computed on the host as SciPy computes
    them (Note [Chirps on the host])."""
    return cp.asarray(_points(m, _host(w), _host(a)))


def _points(m, w, a):
    """czt_points' host array (SciPy's values and dtype: complex128, or float64 for a real `w` and `a`)."""
    m = _validate_sizes(1, m)
    k = numpy.arange(m)
    a = 1.0 * a  # at least float, as w: integers would raise to negative integer powers
    if w is None:
        return a * numpy.exp(2j * numpy.pi * k / m)
    return a * (1.0 * w) ** -k


class CZT:
    """scipy.signal.CZT: a callable ``f(x, axis=-1)`` giving the chirp z-transform of signals of n points at m
    points of the spiral z = a * w**-k (by default the FFT's: ``f(x)`` is ``fft(x)``). The chirps (host maths,
    Note [Chirps on the host]) and the FFT of the convolution chirp are made once and kept on the device."""

    def __init__(self, n, m=None, w=None, a=1 + 0j):
        m = _validate_sizes(n, m)
        w, a, awk2, wk2 = _czt_chirps(n, m, _host(w), _host(a))
        self.w, self.a = w, a
        self.m, self.n = m, n
        self._precompute(awk2, wk2)

    def _precompute(self, awk2, wk2):
        """The device arrays of the transform: the input chirp, the FFT of the convolution chirp (Note
        [Convolution length]) and the output chirp."""
        n, m = self.n, self.m
        self._nfft = next_fast_len(n + m - 1)
        self._Awk2 = cp.asarray(awk2)
        self._Fwk2 = fft(cp.asarray(_convolution_chirp(wk2, n, m)), self._nfft)
        self._wk2 = cp.asarray(wk2[:m])
        self._yidx = slice(n - 1, n + m - 1)

    def __call__(self, x, *, axis=-1):
        """The chirp z-transform of `x` along `axis` (of n points): `x`'s shape with m points there."""
        x = _host_signal(x)
        if x.shape[axis] != self.n:
            raise ValueError(f"CZT defined for length {self.n}, not {x.shape[axis]}")
        # swap `axis` with the last, where the FFTs run, and back after
        order = list(range(x.ndim))
        order[axis], order[-1] = order[-1], order[axis]
        x = cp.asarray(x).transpose(order)
        y = ifft(self._Fwk2 * fft(x * self._Awk2, self._nfft))
        return (y[..., self._yidx] * self._wk2).transpose(order)

    def points(self):
        """The points of the z-plane where this transform samples the z-transform (czt_points')."""
        return czt_points(self.m, self.w, self.a)


class ZoomFFT(CZT):
    """scipy.signal.ZoomFFT: a callable ``f(x, axis=-1)`` giving the DFT of signals of n points at m equally
    spaced frequencies from f1 to f2 (fn = [f1, f2], or a scalar f2 with f1 = 0), for sampling frequency fs;
    f2 is the last where `endpoint`, else one step past it."""

    def __init__(self, n, fn, m=None, *, fs=2, endpoint=False):
        m = _validate_sizes(n, m)
        f1, f2 = _zoom_range(_host(fn))
        self.f1, self.f2, self.fs = f1, f2, fs
        w, a, awk2, wk2 = _zoom_chirps(n, m, f1, f2, fs, endpoint)
        self.w, self.a = w, a
        self.m, self.n = m, n
        self._precompute(awk2, wk2)


def czt(x, m=None, w=None, a=1 + 0j, *, axis=-1):
    """scipy.signal.czt: the chirp z-transform of `x` along `axis` at the m points a * w**-k (CZT's; by default
    ``czt(x)`` is ``fft(x)``), a device array. Host inputs are copied to the device, as CuPy's asarray does."""
    x = _host_signal(x)
    return CZT(x.shape[axis], m=m, w=w, a=a)(x, axis=axis)


def zoom_fft(x, fn, m=None, *, fs=2, endpoint=False, axis=-1):
    """scipy.signal.zoom_fft: the DFT of `x` along `axis` at m frequencies of the range fn (ZoomFFT's), a
    device array. Host inputs are copied to the device, as CuPy's asarray does."""
    x = _host_signal(x)
    return ZoomFFT(x.shape[axis], fn, m=m, fs=fs, endpoint=endpoint)(x, axis=axis)
