"""cuarray.fft: NumPy's discrete Fourier transforms on device arrays, computed by cuFFT (loaded on first use).

Plans are cached per thread and device (cuarray.fft.config) and run on the current stream; `with plan:` (a
plan from cuarray.scipy.fftpack.get_fft_plan) makes the calling thread's transforms use that plan. float16,
float32 and complex64 inputs transform in single precision (as NumPy 2 and CuPy), everything else in double.
"""

import operator

import numpy

from cuarray import _joining, _manipulation, _transfer, _ufuncs
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


# Note [FFT out=]
# NumPy 2's transforms are gufuncs that take `out`: `ufunc(a, fct, out=out)`, fct being the normalisation
# factor, a Python 1 where there is none (the forward transform with the default norm, the inverse with
# norm="forward") and otherwise a NumPy scalar of the input's real precision. NumPy's loop then has the
# precision of a single precision `out`; for a double one, the input's where fct is a NumPy scalar and
# double where it is the Python 1 (a float32 input with a complex128 `out` transforms in double in fft, in
# single in ifft). cuarray casts the input to that precision (_for_out), transforms as usual, and copies the
# result into `out` (_into), with NumPy's errors in NumPy's order: ValueError for an `out` of another number of
# dimensions or length along the transformed axis, then NumPy's own _UFuncOutputCastingError (a TypeError) for
# one the result cannot be cast into by the same_kind rule (an FFT into a real array), then ValueError for any
# other difference of shape; TypeError for an `out` that is not an array. With `out`, the N-D transforms are
# NumPy's: 1-D transforms one axis after another, each into `out` (so an `s` that resizes any axis but the
# first one transformed is a ValueError, as in NumPy). hfft writes `out` as NumPy 2.5's does (2.4's did not).


def _for_out(a, out, name, axis, shape, norm, inverse, real_result=False):
    """`a` in the precision NumPy's FFT loop `name` has for `out`, which must take a result of `shape`
    transformed along `axis` (Note [FFT out=]); `a` itself without an `out`."""
    _fft.check_array(a)
    if out is None:
        return a
    if not isinstance(out, _transfer.ndarray):
        raise TypeError("return arrays must be of ArrayType")
    if out.ndim != len(shape) or out.shape[axis] != shape[axis]:
        raise ValueError("output array has wrong shape.")
    scaled = _fft.check_norm(_fft.swap_direction(norm) if inverse else norm) != "backward"
    single = out.dtype in _SINGLE or (scaled and a.dtype in _SINGLE)
    real, complex_ = (numpy.float32, numpy.complex64) if single else (numpy.float64, numpy.complex128)
    result = numpy.dtype(real if real_result else complex_)
    if not numpy.can_cast(result, out.dtype, "same_kind"):
        _casting_error(name, result, out.dtype)
    return a.astype(complex_ if a.dtype.kind == "c" else real, copy=False)


_SINGLE = tuple(numpy.dtype(t) for t in (numpy.float16, numpy.float32, numpy.complex64))


def _casting_error(name, result, to):
    """NumPy's _UFuncOutputCastingError for its FFT ufunc `name`, as NumPy raises it; a TypeError with its
    message where this NumPy has no such class or ufunc."""
    message = f"Cannot cast ufunc '{name}' output from {result!r} to {to!r} with casting rule 'same_kind'"
    try:
        from numpy._core._exceptions import _UFuncOutputCastingError
        from numpy.fft import _pocketfft_umath

        error = _UFuncOutputCastingError(getattr(_pocketfft_umath, name), "same_kind", result, to, 0)
    except (ImportError, AttributeError, TypeError):
        raise TypeError(message) from None
    raise error


def _into(r, out):
    """The transform `r`, or `out` holding it (Note [FFT out=])."""
    if out is None:
        return r
    if out.shape != r.shape:
        raise ValueError("output array has wrong shape.")
    _manipulation.copyto(out, r)
    return out


def _rfft_name(n):
    return "rfft_n_even" if n % 2 == 0 else "rfft_n_odd"  # NumPy's ufuncs for rfft


def _resized(shape, axis, n):
    return shape[:axis] + (n,) + shape[axis + 1 :]


def fft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-D discrete Fourier transform along `axis`, cropped or zero-padded to `n` points (cuFFT); into
    `out`, if given (Note [FFT out=])."""
    axis, n = _fft.axis_and_points(a, n, axis, _same)
    a = _for_out(a, out, "fft", axis, _resized(a.shape, axis, n), norm, False)
    return _into(_fft.c2c(a, [n], [axis], norm, False, plan=_fft.pick_plan(None)), out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-D inverse discrete Fourier transform along `axis`, cropped or zero-padded to `n` points
    (cuFFT); into `out`, if given."""
    axis, n = _fft.axis_and_points(a, n, axis, _same)
    a = _for_out(a, out, "ifft", axis, _resized(a.shape, axis, n), norm, True)
    return _into(_fft.c2c(a, [n], [axis], norm, True, plan=_fft.pick_plan(None)), out)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-D discrete Fourier transform of real input along `axis`: the n // 2 + 1 non-negative
    frequencies; into `out`, if given."""
    axis, n = _fft.axis_and_points(a, n, axis, _same)
    a = _for_out(a, out, _rfft_name(n), axis, _resized(a.shape, axis, n // 2 + 1), norm, False)
    return _into(_fft.r2c(a, [n], [axis], norm, plan=_fft.pick_plan(None)), out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of `rfft`: a real signal of `n` points (default 2 * (m - 1)) from its non-negative
    frequencies; into `out`, if given."""
    axis, n = _fft.axis_and_points(a, n, axis, _half_to_full)
    a = _for_out(a, out, "irfft", axis, _resized(a.shape, axis, n), norm, True, real_result=True)
    return _into(_fft.c2r(a, [n], [axis], norm, plan=_fft.pick_plan(None)), out)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """The FFT of a signal with Hermitian symmetry, given by its first half: irfft of the conjugate; into
    `out`, if given."""
    _fft.check_array(a)
    return irfft(_ufuncs.conjugate(a) if a.dtype.kind == "c" else a, n, axis, _fft.swap_direction(norm), out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of `hfft`: the non-negative frequencies of the inverse FFT of a real signal; into `out`,
    if given."""
    _fft.check_array(a)
    r = rfft(a, n, axis, _fft.swap_direction(norm), out)
    return _ufuncs.conjugate(r, out=r)


def _nd_into(a, s, axes, norm, value_type, inverse, out):
    """fftn and its kin into `out`: NumPy's transforms one axis after another (Note [FFT out=])."""
    s, axes = _fft.nd_args(a, s, axes, _half_to_full if value_type == "C2R" else None)
    if value_type == "C2R":
        if not axes:
            raise IndexError("irfftn needs at least one axis")
        for n, axis in zip(s[:-1], axes[:-1]):
            a = ifft(a, n, axis, norm)
        return irfft(a, s[-1], axes[-1], norm, out)
    if value_type == "R2C":
        if not axes:
            raise IndexError("rfftn needs at least one axis")
        a = rfft(a, s[-1], axes[-1], norm, out)
        s, axes = s[:-1], axes[:-1]
    for n, axis in reversed(list(zip(s, axes))):  # none: NumPy returns `a`, and `out` is left as it was
        a = (ifft if inverse else fft)(a, n, axis, norm, out)
    return a


def _nd(a, s, axes, norm, value_type, inverse, out):
    """fftn and its kin: one cuFFT plan where cuFFT can (Note [FFT layouts]); into `out`, if given."""
    if out is not None:
        return _nd_into(a, s, axes, norm, value_type, inverse, out)
    return _fft.transform_nd(a, s, axes, norm, value_type, inverse, _fft.pick_plan(None))


def fftn(a, s=None, axes=None, norm=None, out=None):
    """The N-D discrete Fourier transform over `axes` (default all, or the last len(s)), of shape `s`; into
    `out`, if given."""
    return _nd(a, s, axes, norm, "C2C", False, out)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """The N-D inverse discrete Fourier transform over `axes` (default all, or the last len(s)), of shape
    `s`; into `out`, if given."""
    return _nd(a, s, axes, norm, "C2C", True, out)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """The N-D discrete Fourier transform of real input over `axes`, the last axis halved as in `rfft`; into
    `out`, if given."""
    return _nd(a, s, axes, norm, "R2C", False, out)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """The inverse of `rfftn`: a real array of shape `s` from the halved spectrum; into `out`, if given."""
    return _nd(a, s, axes, norm, "C2R", True, out)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The 2-D discrete Fourier transform over `axes` (the last two): `fftn` over two axes."""
    return fftn(a, s, axes, norm, out)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The 2-D inverse discrete Fourier transform over `axes` (the last two): `ifftn` over two axes."""
    return ifftn(a, s, axes, norm, out)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The 2-D discrete Fourier transform of real input over `axes` (the last two): `rfftn` over two axes."""
    return rfftn(a, s, axes, norm, out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The inverse of `rfft2`: `irfftn` over two axes."""
    return irfftn(a, s, axes, norm, out)


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
