"""cuarray.fft: NumPy's discrete Fourier transforms on device arrays, computed by cuFFT (loaded on first use).

Plans are cached per thread and device (cuarray.fft.config) and run on the current stream; `with plan:` (a
plan from cuarray.scipy.fftpack.get_fft_plan) makes the calling thread's transforms use that plan. float16,
float32 and complex64 inputs transform in single precision (as NumPy 2 and CuPy), everything else in double.
"""

import operator
import warnings

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
# to that precision. NumPy's factor keeps the input's precision whatever the loop's: a double loop (an fft of
# a float32 or float16 input into complex128, say) multiplies by a float32 or float16 1/n, whose rounding
# (3e-8 relative in float32, 2e-4 in float16) shows in NumPy's values. So the cast input is transformed
# unscaled, then multiplied by the factor NumPy computes from the input's dtype (_transform); the result is
# then copied into `out` (_into). NumPy's other errors come in its order: ValueError for an `out` of another
# number of dimensions or length along the transformed axis (before the probe), TypeError for one that is not
# an array, ValueError for any other difference of shape. With `out`, the N-D transforms are NumPy's: 1-D
# transforms one axis after another, each into `out` (so an `s` that resizes any axis but the first one
# transformed is a ValueError, as in NumPy). hfft writes `out`, as NumPy 2.5's does (2.4's returned a new
# array).


def _for_out(a, out, func, axis, shape, norm, n):
    """`a` in the precision NumPy's `func` (fft, ifft, rfft or irfft) of `n` points transforms it in for
    `out`, which must take a result of `shape` transformed along `axis` (Note [FFT out=])."""
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


# The 1-D transforms by NumPy's name: (a, n, axis, norm) -> the transform of `a`.
_KERNELS = {
    "fft": lambda a, n, axis, norm: _fft.c2c(a, [n], [axis], norm, False, plan=_fft.pick_plan(None)),
    "ifft": lambda a, n, axis, norm: _fft.c2c(a, [n], [axis], norm, True, plan=_fft.pick_plan(None)),
    "rfft": lambda a, n, axis, norm: _fft.r2c(a, [n], [axis], norm, plan=_fft.pick_plan(None)),
    "irfft": lambda a, n, axis, norm: _fft.c2r(a, [n], [axis], norm, plan=_fft.pick_plan(None)),
}


def _transform(func, a, n, axis, norm, out, m):
    """NumPy's `func` (fft, ifft, rfft or irfft) of `a`, `n` points along `axis` giving `m`; into `out`, if
    given, in the precision NumPy's loop has there and scaled by NumPy's factor, of a's precision (Note [FFT
    out=])."""
    if out is None:
        return _KERNELS[func](a, n, axis, norm)
    inverse = func in ("ifft", "irfft")
    cast = _for_out(a, out, func, axis, _resized(a.shape, axis, m), norm, n)
    r = _KERNELS[func](cast, n, axis, "forward" if inverse else "backward")  # unscaled
    _fft.scale(r, [n], _fft.check_norm(norm), inverse, a.dtype)
    return _into(r, out)


def fft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-D discrete Fourier transform along `axis`, cropped or zero-padded to `n` points (cuFFT); into
    `out`, if given (Note [FFT out=])."""
    axis, n = _fft.axis_and_points(a, n, axis, _same)
    return _transform("fft", a, n, axis, norm, out, n)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-D inverse discrete Fourier transform along `axis`, cropped or zero-padded to `n` points
    (cuFFT); into `out`, if given."""
    axis, n = _fft.axis_and_points(a, n, axis, _same)
    return _transform("ifft", a, n, axis, norm, out, n)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-D discrete Fourier transform of real input along `axis`: the n // 2 + 1 non-negative
    frequencies; into `out`, if given."""
    axis, n = _fft.axis_and_points(a, n, axis, _same)
    return _transform("rfft", a, n, axis, norm, out, n // 2 + 1)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of `rfft`: a real signal of `n` points (default 2 * (m - 1)) from its non-negative
    frequencies; into `out`, if given."""
    axis, n = _fft.axis_and_points(a, n, axis, _half_to_full)
    return _transform("irfft", a, n, axis, norm, out, n)


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


# NumPy 2's DeprecationWarnings for `s` (its _cook_nd_args's words)
_S_WITHOUT_AXES = (
    "`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0). In a future version of "
    "NumPy, this will raise an error and `s[i]` will correspond to the size along the transformed axis "
    "specified by `axes[i]`. To retain current behaviour, pass a sequence [0, ..., k-1] to `axes` for an "
    "array of dimension k."
)
_NONE_IN_S = (
    "Passing an array containing `None` values to `s` is deprecated in NumPy 2.0 and will raise an error in "
    "a future version of NumPy. To use the default behaviour of the corresponding 1-D transform, pass the "
    "value matching the default for its `n` parameter. To use the default behaviour for every axis, the `s` "
    "argument can be omitted."
)


def _sequence(value, name):
    """`value` (fftn's `s` or `axes`) as a list: NumPy iterates over both, so an int is a TypeError."""
    try:
        return list(value)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of integers, not {type(value).__name__}") from None


def _s_and_axes(s, axes):
    """NumPy's `s` and `axes` of fftn and its kin (its _cook_nd_args), as lists (None where not given): both
    sequences; an `s` without `axes` names the last len(s) axes, and a None in `s` is its axis's default, each
    with NumPy 2's DeprecationWarning (pointing at the caller of fftn, fft2, ...)."""
    axes = None if axes is None else _sequence(axes, "axes")
    if s is None:
        return None, axes
    s = _sequence(s, "s")
    if axes is None:
        warnings.warn(_S_WITHOUT_AXES, DeprecationWarning, stacklevel=4)
        axes = list(range(-len(s), 0))
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if None in s:
        warnings.warn(_NONE_IN_S, DeprecationWarning, stacklevel=4)
    return s, axes


def _nd(a, s, axes, norm, value_type, inverse, out):
    """fftn, fft2 and their kin, each of which calls it directly (the stack level of _s_and_axes's warnings
    counts on it): one cuFFT plan where cuFFT can (Note [FFT layouts]); into `out`, if given."""
    _fft.check_array(a)
    s, axes = _s_and_axes(s, axes)
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
    return _nd(a, s, axes, norm, "C2C", False, out)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The 2-D inverse discrete Fourier transform over `axes` (the last two): `ifftn` over two axes."""
    return _nd(a, s, axes, norm, "C2C", True, out)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The 2-D discrete Fourier transform of real input over `axes` (the last two): `rfftn` over two axes."""
    return _nd(a, s, axes, norm, "R2C", False, out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The inverse of `rfft2`: `irfftn` over two axes."""
    return _nd(a, s, axes, norm, "C2R", True, out)


def _length(n):
    """n for NumPy's fftfreq, which checks it (ValueError for a float); a 0-d device integer as a Python int."""
    return operator.index(n) if isinstance(n, _transfer.ndarray) else n


def _spacing(d):
    """d for NumPy's fftfreq, which takes any number (1 / (n * d) scales its integers): a device array's
    values on the host, where NumPy's arithmetic can take them."""
    return d.get() if isinstance(d, _transfer.ndarray) else d


def fftfreq(n, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of an n-point FFT: NumPy's values, as a device array of `dtype` (a real floating
    type; by default float64, NumPy's, or complex128 for a complex `d`) on `device` (the current one by
    default)."""
    freqs = numpy.fft.fftfreq(_length(n), _spacing(d))
    return _transfer.asarray(freqs, dtype=_freq_dtype(dtype, freqs), device=device)


def rfftfreq(n, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of an n-point real FFT (see fftfreq)."""
    freqs = numpy.fft.rfftfreq(_length(n), _spacing(d))
    return _transfer.asarray(freqs, dtype=_freq_dtype(dtype, freqs), device=device)


def _freq_dtype(dtype, freqs):
    """The dtype of the frequencies `freqs` (NumPy's) on the device: `dtype`, which must be a real floating
    type (the array API's rule), or NumPy's, float64 or complex128 (float64 for a longdouble `d`, which the
    device lacks)."""
    if dtype is None:
        return numpy.complex128 if freqs.dtype.kind == "c" else numpy.float64
    if numpy.dtype(dtype).kind != "f":
        raise ValueError(f"dtype must be a real floating-point data type, got {numpy.dtype(dtype)}")
    return dtype


def _roll(shape, axes, sign):
    """(shift, axes) of the roll that is NumPy's fftshift (`sign` 1) or ifftshift (-1) of an array of `shape`:
    n // 2 along each of `axes` (an int, or a sequence; None: all), with NumPy's errors: IndexError for an
    axis out of range (NumPy's x.shape[axis]) and, for a 0-d array, ValueError (NumPy's roll of a 0-d array
    along any axes fails)."""
    if axes is None:
        axes = tuple(range(len(shape)))
    if isinstance(axes, (int, numpy.integer)):
        shift = sign * (shape[axes] // 2)
    else:
        shift = [sign * (shape[ax] // 2) for ax in axes]
    if not shape:
        name = "fftshift" if sign > 0 else "ifftshift"
        raise ValueError(f"{name} of a 0-d array: NumPy's roll cannot shift an array without axes")
    return shift, axes


def _shift(x, axes, sign):
    """fftshift (`sign` 1) or ifftshift (-1) of `x` along `axes`."""
    _fft.check_array(x)
    return _joining.roll(x, *_roll(x.shape, axes, sign))


def fftshift(x, axes=None):
    """Moves the zero frequency to the centre: a roll by n // 2 along `axes` (default all)."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None):
    """The inverse of fftshift: a roll by -(n // 2)."""
    return _shift(x, axes, -1)
