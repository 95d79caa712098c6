"""cuarray.scipy.fftpack: SciPy's legacy scipy.fftpack transforms on cuFFT (CuPy's cupyx.scipy.fftpack), with
cuFFT plans (get_fft_plan) passed as `plan=` or made current with `with plan:`.

The transforms are cuarray.fft's (NumPy's dtypes, which scipy.fftpack shares); `overwrite_x` is accepted and
never needed: the input is left as it is. rfft and irfft use fftpack's real packed format
[y(0), Re(y(1)), Im(y(1)), ..., Re(y(n/2))] (and Im(y(n/2)) for odd n).
"""

import functools
import math
import numbers
import operator

from numpy.lib.array_utils import normalize_axis_index

from cuarray import _core, _creation, _ufuncs
from cuarray.fft import _fft, config

__all__ = ["fft", "fft2", "fftn", "get_fft_plan", "ifft", "ifft2", "ifftn", "irfft", "rfft"]

_TYPES = {  # (value_type, single precision) -> cuFFT type
    ("C2C", True): 0x29,
    ("C2C", False): 0x69,
    ("R2C", True): 0x2A,
    ("R2C", False): 0x6A,
    ("C2R", True): 0x2C,
    ("C2R", False): 0x6C,
}


def get_fft_plan(a, shape=None, axes=None, value_type="C2C"):
    """The cuFFT plan that transforming `a` over `axes` (up to three; default all, or the last len(shape)) to
    lengths `shape` (default a's) takes: a Plan1d for one axis, else a PlanNd. value_type: 'C2C', 'R2C' (a
    real input) or 'C2R' (`shape` gives the real output's lengths, the last by default 2 * (m - 1)). The
    cached plan when there is one, else a new one that is not cached. Use it as `plan=` or as `with plan:`."""
    _fft.check_array(a)
    if not (a.flags.c_contiguous or a.flags.f_contiguous):
        raise ValueError("Input array a must be contiguous")
    if value_type not in ("C2C", "R2C", "C2R"):
        raise ValueError(f"value_type must be 'C2C', 'R2C' or 'C2R', not {value_type!r}")
    shape = (shape,) if isinstance(shape, int) else shape
    axes = (axes,) if isinstance(axes, int) else axes
    if shape is not None and axes is not None and len(shape) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if axes is None:
        k = a.ndim if shape is None else len(shape)
        axes = tuple(range(-k, 0))
    if not 1 <= len(axes) <= 3:
        raise ValueError(f"Only 1 to 3 axes can be transformed by one cuFFT plan, not {len(axes)}")
    axes = [normalize_axis_index(ax, a.ndim) for ax in axes]
    sizes = [a.shape[ax] if shape is None or shape[i] is None else shape[i] for i, ax in enumerate(axes)]
    if value_type == "C2R" and (shape is None or shape[-1] is None):
        sizes[-1] = _fft.half_to_full(a.shape[axes[-1]])
    if value_type == "C2C":  # the layout the transform takes (Note [FFT layouts] in cuarray/fft/_fft.py)
        a, sizes, axes = _fft.c2c_layout(a, sizes, axes)[:3]
    batch = math.prod(a.shape[d] for d in range(a.ndim) if d not in axes)
    n = [s for s in sizes if s != 1] or [1]  # the transform's length-1 axes are no part of its plan
    key = (_TYPES[value_type, a.dtype in _fft._SINGLE], tuple(n), batch)
    devices = config._multi_gpus() if len(axes) == 1 else None  # CuPy's 1-D plans spread over them
    if devices is not None:
        key += (tuple(devices),)
    plan = config.get_plan_cache().get(key) if batch > 0 and min(n) > 0 else None
    return plan if plan is not None else _core.fft.make_plan(key[0], n, batch, devices)


# Note [fftpack arguments]
# The arguments are checked in SciPy's order and with its errors (scipy.fftpack over scipy.fft's pocketfft
# helpers), not with cuarray.fft's NumPy ones: the 1-D transforms index x.shape[axis] (IndexError 'tuple index
# out of range' for a 0-d x or an axis out of range) after checking that n >= 1; the n-D ones take `shape` and
# `axes` as a number or an iterable of integers (a 0-d array is neither: ValueError), a `shape` of one size
# per axis of x where `axes` is None, distinct axes, sizes >= 1, and return x itself when there are no axes.


def _axis_and_points(x, n, axis):
    """The axis (normalised) and number of points of a 1-D transform: Note [fftpack arguments]."""
    _fft.check_array(x)
    if n is not None and n < 1:
        raise ValueError(f"invalid number of data points ({n}) specified")
    if not -x.ndim <= operator.index(axis) < x.ndim:
        raise IndexError("tuple index out of range")
    axis = normalize_axis_index(axis, x.ndim)
    n = x.shape[axis] if n is None else n
    if n < 1:
        raise ValueError(f"invalid number of data points ({n}) specified")
    return axis, _fft.points(n)


def _ints(value, name):
    # SciPy's _iterable_of_int: a number is one value, else an iterable of integers.
    try:
        return [operator.index(v) for v in ((value,) if isinstance(value, numbers.Number) else value)]
    except TypeError as e:
        raise ValueError(f"{name} must be a scalar or iterable of integers") from e


def _shape_and_axes(x, shape, axes):
    """The sizes and axes (lists) of an n-D transform: Note [fftpack arguments]."""
    _fft.check_array(x)
    if axes is not None:  # given axes are checked before the shape; an empty tuple takes any shape
        axes = [ax + x.ndim if ax < 0 else ax for ax in _ints(axes, "axes")]
        if any(not 0 <= ax < x.ndim for ax in axes):
            raise ValueError("axes exceeds dimensionality of input")
        if len(set(axes)) != len(axes):
            raise ValueError("all axes must be unique")
    if shape is not None:
        shape = _ints(shape, "shape")
        if len(shape) != (x.ndim if axes is None else len(axes) or len(shape)):
            raise ValueError("when given, axes and shape arguments have to be of the same length")
    if axes is None:
        axes = list(range(x.ndim))
    if shape is None:
        shape = [x.shape[ax] for ax in axes]
    else:  # SciPy pairs them with zip: a shape beside axes=() is dropped
        shape, axes = [x.shape[ax] if n == -1 else n for n, ax in zip(shape, axes)], axes[: len(shape)]
    if any(n < 1 for n in shape):
        raise ValueError(f"invalid number of data points ({shape}) specified")
    return shape, axes


def fft(x, n=None, axis=-1, overwrite_x=False, plan=None):
    """scipy.fftpack.fft: the 1-D discrete Fourier transform along `axis`, cropped or zero-padded to `n`."""
    axis, n = _axis_and_points(x, n, axis)
    return _fft.c2c(x, [n], [axis], None, False, plan=_fft.pick_plan(plan))


def ifft(x, n=None, axis=-1, overwrite_x=False, plan=None):
    """scipy.fftpack.ifft: the 1-D inverse discrete Fourier transform along `axis`."""
    axis, n = _axis_and_points(x, n, axis)
    return _fft.c2c(x, [n], [axis], None, True, plan=_fft.pick_plan(plan))


def _nd(x, shape, axes, direction, plan):
    shape, axes = _shape_and_axes(x, shape, axes)
    if not axes:
        return x  # SciPy's: no axes, no transform (not even to complex)
    # As CuPy's: the transform's kind from _default_fft_func (Note [FFT layouts] in cuarray/fft/_fft.py).
    return _fft._default_fft_func(x, shape, axes, plan)(x, shape, axes, None, direction, plan=plan)


def fftn(x, shape=None, axes=None, overwrite_x=False, plan=None):
    """scipy.fftpack.fftn: the N-D discrete Fourier transform over `axes` (default all), of shape `shape`."""
    return _nd(x, shape, axes, -1, plan)


def ifftn(x, shape=None, axes=None, overwrite_x=False, plan=None):
    """scipy.fftpack.ifftn: the N-D inverse discrete Fourier transform."""
    return _nd(x, shape, axes, 1, plan)


def fft2(x, shape=None, axes=(-2, -1), overwrite_x=False, plan=None):
    """scipy.fftpack.fft2: fftn over two axes (the last two)."""
    return _nd(x, shape, axes, -1, plan)


def ifft2(x, shape=None, axes=(-2, -1), overwrite_x=False, plan=None):
    """scipy.fftpack.ifft2: ifftn over two axes (the last two)."""
    return _nd(x, shape, axes, 1, plan)


def _along(ndim, axis, index):
    return (slice(None),) * axis + (index,) + (slice(None),) * (ndim - axis - 1)


def _check_real(x):
    if x.dtype.kind == "c":
        raise TypeError("x must be a real sequence")


def rfft(x, n=None, axis=-1, overwrite_x=False, plan=None):
    """scipy.fftpack.rfft: the FFT of real `x` along `axis`, in fftpack's real packed format (n real
    numbers)."""
    _check_real(_fft.check_array(x))  # SciPy checks the dtype first
    axis, n = _axis_and_points(x, n, axis)
    f = _fft.r2c(x, [n], [axis], None, plan=_fft.pick_plan(plan))
    shape = x.shape[:axis] + (n,) + x.shape[axis + 1 :]
    z = _creation.empty(shape, _fft.real_type(x.dtype))
    at = functools.partial(_along, x.ndim, axis)
    z[at(slice(0, 1))] = _ufuncs._real(f[at(slice(0, 1))])
    odd, even = len(range(1, n, 2)), len(range(2, n, 2))
    z[at(slice(1, None, 2))] = _ufuncs._real(f[at(slice(1, 1 + odd))])
    z[at(slice(2, None, 2))] = _ufuncs._imag(f[at(slice(1, 1 + even))])
    return z


def irfft(x, n=None, axis=-1, overwrite_x=False):
    """scipy.fftpack.irfft: the inverse of rfft, from fftpack's real packed format to `n` real points."""
    _check_real(_fft.check_array(x))
    axis, n = _axis_and_points(x, n, axis)
    m = min(n, x.shape[axis])
    shape = x.shape[:axis] + (n // 2 + 1,) + x.shape[axis + 1 :]
    z = _creation.zeros(shape, _fft.complex_type(x.dtype))
    at = functools.partial(_along, x.ndim, axis)
    z[at(slice(0, 1))] = x[at(slice(0, 1))]
    z[at(slice(1, m // 2 + 1))] = x[at(slice(1, m, 2))]
    imag = z[at(slice(1, (m + 1) // 2))]
    _ufuncs.add(imag, _ufuncs.multiply(x[at(slice(2, m, 2))], 1j), out=imag)
    return _fft.c2r(z, [n], [axis], None)
