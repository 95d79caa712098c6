"""cuarray.fft: NumPy's discrete Fourier transforms on device arrays, computed by cuFFT (loaded on first use).

Plans are cached per thread and device (cuarray.fft.config) and run on the current stream; `with plan:` (a
plan from cuarray.scipy.fftpack.get_fft_plan) makes the calling thread's transforms use that plan. float16,
float32 and complex64 inputs transform in single precision (as NumPy 2 and CuPy), everything else in double.
"""

import operator

import numpy

from cuarray import _joining, _transfer, _ufuncs
from cuarray.fft import _fft, config

__all__ = [
    "config",
    "fft",
    "fft2",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifft2",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfft2",
    "irfftn",
    "rfft",
    "rfft2",
    "rfftfreq",
    "rfftn",
]


def _same(m):
    return m


def _half_to_full(m):
    return _fft.half_to_full(m)


def fft(a, n=None, axis=-1, norm=None):
    """The 1-D discrete Fourier transform along `axis`, cropped or zero-padded to `n` points (cuFFT)."""
    axis, n = _fft.axis_and_points(a, n, axis, _same)
    return _fft.c2c(a, [n], [axis], norm, False, plan=_fft.pick_plan(None))


def ifft(a, n=None, axis=-1, norm=None):
    """The 1-D inverse discrete Fourier transform along `axis`, cropped or zero-padded to `n` points
    (cuFFT)."""
    axis, n = _fft.axis_and_points(a, n, axis, _same)
    return _fft.c2c(a, [n], [axis], norm, True, plan=_fft.pick_plan(None))


def rfft(a, n=None, axis=-1, norm=None):
    """The 1-D discrete Fourier transform of real input along `axis`: the n // 2 + 1 non-negative
    frequencies."""
    axis, n = _fft.axis_and_points(a, n, axis, _same)
    return _fft.r2c(a, [n], [axis], norm, plan=_fft.pick_plan(None))


def irfft(a, n=None, axis=-1, norm=None):
    """The inverse of `rfft`: a real signal of `n` points (default 2 * (m - 1)) from its non-negative
    frequencies."""
    axis, n = _fft.axis_and_points(a, n, axis, _half_to_full)
    return _fft.c2r(a, [n], [axis], norm, plan=_fft.pick_plan(None))


def hfft(a, n=None, axis=-1, norm=None):
    """The FFT of a signal with Hermitian symmetry, given by its first half: irfft of the conjugate."""
    _fft.check_array(a)
    return irfft(_ufuncs.conjugate(a) if a.dtype.kind == "c" else a, n, axis, _fft.swap_direction(norm))


def ihfft(a, n=None, axis=-1, norm=None):
    """The inverse of `hfft`: the non-negative frequencies of the inverse FFT of a real signal."""
    _fft.check_array(a)
    return _ufuncs.conjugate(rfft(a, n, axis, _fft.swap_direction(norm)))


def fftn(a, s=None, axes=None, norm=None):
    """The N-D discrete Fourier transform over `axes` (default all, or the last len(s)), of shape `s`."""
    return _fft.transform_nd(a, s, axes, norm, "C2C", False, _fft.pick_plan(None))


def ifftn(a, s=None, axes=None, norm=None):
    """The N-D inverse discrete Fourier transform over `axes` (default all, or the last len(s)), of shape
    `s`."""
    return _fft.transform_nd(a, s, axes, norm, "C2C", True, _fft.pick_plan(None))


def rfftn(a, s=None, axes=None, norm=None):
    """The N-D discrete Fourier transform of real input over `axes`, the last axis halved as in `rfft`."""
    return _fft.transform_nd(a, s, axes, norm, "R2C", False, _fft.pick_plan(None))


def irfftn(a, s=None, axes=None, norm=None):
    """The inverse of `rfftn`: a real array of shape `s` from the halved spectrum."""
    return _fft.transform_nd(a, s, axes, norm, "C2R", True, _fft.pick_plan(None))


def fft2(a, s=None, axes=(-2, -1), norm=None):
    """The 2-D discrete Fourier transform over `axes` (the last two): `fftn` over two axes."""
    return fftn(a, s, axes, norm)


def ifft2(a, s=None, axes=(-2, -1), norm=None):
    """The 2-D inverse discrete Fourier transform over `axes` (the last two): `ifftn` over two axes."""
    return ifftn(a, s, axes, norm)


def rfft2(a, s=None, axes=(-2, -1), norm=None):
    """The 2-D discrete Fourier transform of real input over `axes` (the last two): `rfftn` over two axes."""
    return rfftn(a, s, axes, norm)


def irfft2(a, s=None, axes=(-2, -1), norm=None):
    """The inverse of `rfft2`: `irfftn` over two axes."""
    return irfftn(a, s, axes, norm)


def _length(n):
    """n for NumPy's fftfreq, which checks it (ValueError for a float); a 0-d device integer as a Python int."""
    return operator.index(n) if isinstance(n, _transfer.ndarray) else n


def fftfreq(n, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of an n-point FFT: NumPy's values, as a device array of `dtype` (a real floating
    type; float64 by default) on `device` (the current one by default)."""
    return _transfer.asarray(numpy.fft.fftfreq(_length(n), d), dtype=_freq_dtype(dtype), device=device)


def rfftfreq(n, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of an n-point real FFT (see fftfreq)."""
    return _transfer.asarray(numpy.fft.rfftfreq(_length(n), d), dtype=_freq_dtype(dtype), device=device)


def _freq_dtype(dtype):
    if dtype is None:
        return numpy.float64
    if numpy.dtype(dtype).kind != "f":
        raise ValueError(f"dtype must be a real floating-point data type, got {numpy.dtype(dtype)}")
    return dtype


def _shift(x, axes, sign):
    _fft.check_array(x)
    if axes is None:
        axes = tuple(range(x.ndim))
    if numpy.ndim(axes) == 0:
        return _joining.roll(x, sign * (x.shape[axes] // 2), axes)
    return _joining.roll(x, [sign * (x.shape[ax] // 2) for ax in axes], axes)


def fftshift(x, axes=None):
    """Moves the zero frequency to the centre: a roll by n // 2 along `axes` (default all)."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None):
    """The inverse of fftshift: a roll by -(n // 2)."""
    return _shift(x, axes, -1)
