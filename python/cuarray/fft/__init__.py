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
# NumPy 2's transforms are gufuncs that take `out`, `ufunc(a, fct, out=out)` with fct the normalisation
# factor (a Python 1, or a NumPy scalar of the input's real precision), and NumPy's loop resolution picks their
# precision from the input, fct and `out` together: a float32 input with a complex128 `out` transforms in
# double in fft and in ifft, a complex64 one in double in fft and in single in ifft. Rather than restate that
# resolution, _for_out asks NumPy: it transforms a 16-point host probe of the input's dtype into a host `out`
# of out's dtype, once per (function, input dtype, norm, out dtype). An error there is NumPy's error for the
# call (its _UFuncOutputCastingError for an FFT into a real array, its TypeError for a complex input to rfft),
# and is raised as it is; otherwise the probe's values tell single from double precision, and the input is cast
# to that precision. (Where NumPy's loop is double but its factor a float32 scalar, as in ifft of a float32
# input into complex128, NumPy's values carry that factor's rounding, about 3e-8 relative; cuarray's do not.)
# The result is then copied into `out` (_into). NumPy's other errors come in its order:
# ValueError for an `out` of another number of dimensions or length along the transformed axis (before the
# probe), TypeError for one that is not an array, ValueError for any other difference of shape. With `out`,
# the N-D transforms are NumPy's: 1-D transforms one axis after another, each into `out` (so an `s` that
# resizes any axis but the first one transformed is a ValueError, as in NumPy). hfft writes `out`, as NumPy
# 2.5's does (2.4's returned a new array).


def _for_out(a, out, func, axis, shape, norm, n):
    """`a` in the precision NumPy's `func` (fft, ifft, rfft or irfft) of `n` points transforms it in for
    `out`, which must take a result of `shape` transformed along `axis` (Note [FFT out=]); `a` itself without
    an `out`."""
    _fft.check_array(a)
    if out is None:
        return a
    if not isinstance(out, _transfer.ndarray):
        raise TypeError("return arrays must be of ArrayType")
    if out.ndim != len(shape) or out.shape[axis] != shape[axis]:
        raise ValueError("output array has wrong shape.")
    single = _loop_is_single(func, a.dtype, _fft.check_norm(norm), out.dtype, n % 2 == 1)
    if a.dtype.kind == "c":
        return a.astype(numpy.complex64 if single else numpy.complex128, copy=False)
    return a.astype(numpy.float32 if single else numpy.float64, copy=False)


_LOOPS = {}  # (func, input dtype, norm, out dtype) -> whether NumPy's loop is single precision


def _loop_is_single(func, dtype, norm, out_dtype, odd=False):
    """Whether NumPy's `func` of a `dtype` input into an `out_dtype` out runs in single precision; NumPy's
    error where it refuses that call (Note [FFT out=]). `odd`: the transform has an odd number of points,
    which only names NumPy's rfft ufunc in its errors (rfft_n_odd)."""
    key = (func, dtype, norm, out_dtype)
    single = _LOOPS.get(key)
    if single is None:
        transform = getattr(numpy.fft, func)
        probe = numpy.array([0, 1, 0, 1, 1], dtype=dtype)
        if odd and func == "rfft":  # NumPy's error, if any, names rfft_n_odd
            transform(probe, 17, norm=norm, out=numpy.empty(9, out_dtype))
        # 16 points: irrational values (cos(pi / 8)) where every norm's factor is exact in single precision
        # (1/16, 1/4), so that only the loop's precision shows
        got = transform(probe, 16, norm=norm, out=numpy.empty(9 if func == "rfft" else 16, out_dtype))
        exact = transform(
            probe.astype(numpy.complex128 if dtype.kind == "c" else numpy.float64), 16, norm=norm
        )
        single = bool(numpy.abs(got - exact).max() > 1e-12)
        _LOOPS[key] = single
    return single


def _into(r, out):
    """The transform `r`, or `out` holding it (Note [FFT out=])."""
    if out is None:
        return r
    if out.shape != r.shape:
        raise ValueError("output array has wrong shape.")
    _manipulation.copyto(out, r)
    return out


def _resized(shape, axis, n):
    return shape[:axis] + (n,) + shape[axis + 1 :]


def fft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-D discrete Fourier transform along `axis`, cropped or zero-padded to `n` points (cuFFT); into
    `out`, if given (Note [FFT out=])."""
    axis, n = _fft.axis_and_points(a, n, axis, _same)
    a = _for_out(a, out, "fft", axis, _resized(a.shape, axis, n), norm, n)
    return _into(_fft.c2c(a, [n], [axis], norm, False, plan=_fft.pick_plan(None)), out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-D inverse discrete Fourier transform along `axis`, cropped or zero-padded to `n` points
    (cuFFT); into `out`, if given."""
    axis, n = _fft.axis_and_points(a, n, axis, _same)
    a = _for_out(a, out, "ifft", axis, _resized(a.shape, axis, n), norm, n)
    return _into(_fft.c2c(a, [n], [axis], norm, True, plan=_fft.pick_plan(None)), out)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-D discrete Fourier transform of real input along `axis`: the n // 2 + 1 non-negative
    frequencies; into `out`, if given."""
    axis, n = _fft.axis_and_points(a, n, axis, _same)
    a = _for_out(a, out, "rfft", axis, _resized(a.shape, axis, n // 2 + 1), norm, n)
    return _into(_fft.r2c(a, [n], [axis], norm, plan=_fft.pick_plan(None)), out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of `rfft`: a real signal of `n` points (default 2 * (m - 1)) from its non-negative
    frequencies; into `out`, if given."""
    axis, n = _fft.axis_and_points(a, n, axis, _half_to_full)
    a = _for_out(a, out, "irfft", axis, _resized(a.shape, axis, n), norm, n)
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
