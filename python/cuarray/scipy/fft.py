"""cuarray.scipy.fft: SciPy's scipy.fft transforms on cuFFT (CuPy's cupyx.scipy.fft), with cuFFT plans
(cuarray.scipy.fftpack.get_fft_plan) passed as `plan=` or made current with `with plan:`, and the uarray
backend that ``scipy.fft.set_backend(cuarray.scipy.fft)`` takes.

The transforms are cuarray.fft's with SciPy's differences from NumPy: float16 input transforms and returns
in single precision (NumPy's irfft and hfft give float16), axes must be unique, `s` and `axes` of one length,
and the Hermitian N-D transforms (hfft2, hfftn, ihfft2, ihfftn) are there. The cosine and sine transforms
(dct, dst, idct, idst and their n forms, types 1-4, with `orthogonalize`) run as complex FFTs
(_realtransforms.py). `overwrite_x` and `workers` are accepted and change nothing: the input is never
overwritten, and cuFFT is one device; `workers` is checked as SciPy checks it, though (_check_workers).
"""

import numbers
import operator
import os

import numpy

import cuarray
from cuarray import _ufuncs
from cuarray.fft import _fft, fftfreq, fftshift, ifftshift, rfftfreq  # SciPy's are NumPy's
from cuarray.scipy import _realtransforms
from cuarray.scipy.fftpack import get_fft_plan

__all__ = [
    "dct",
    "dctn",
    "dst",
    "dstn",
    "fft",
    "fft2",
    "fftfreq",
    "fftn",
    "fftshift",
    "get_fft_plan",
    "hfft",
    "hfft2",
    "hfftn",
    "idct",
    "idctn",
    "idst",
    "idstn",
    "ifft",
    "ifft2",
    "ifftn",
    "ifftshift",
    "ihfft",
    "ihfft2",
    "ihfftn",
    "irfft",
    "irfft2",
    "irfftn",
    "next_fast_len",
    "rfft",
    "rfft2",
    "rfftfreq",
    "rfftn",
]


def _single(x):
    """x, with float16 raised to float32: SciPy transforms float16 in single precision and returns it so."""
    _fft.check_array(x)
    return x.astype(numpy.float32) if x.dtype == numpy.float16 else x


def _same(m):
    return m


_CPUS = os.cpu_count()  # SciPy's count, which bounds negative `workers`


def _check_workers(workers):
    """SciPy's checks of `workers` (its number of threads; cuFFT has no use for it): None, or an integer that
    is not 0 and, negative (counting back from the number of CPUs), not below -os.cpu_count(). SciPy's
    ValueError for those, its TypeError for a value that does not compare with integers, and a TypeError for
    one that is no integer (SciPy's extension refuses it)."""
    if workers is None:
        return
    if workers < -_CPUS:
        raise ValueError(f"workers value out of range; got {workers}, must not be less than {-_CPUS}")
    if workers == 0:
        raise ValueError("workers must not be zero")
    try:
        operator.index(workers)
    except TypeError:
        raise TypeError(f"workers must be an integer, not {type(workers).__name__}") from None


def fft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.fft: the 1-D discrete Fourier transform along `axis`, cropped or zero-padded to `n`."""
    x = _single(x)
    _check_workers(workers)
    axis, n = _fft.axis_and_points(x, n, axis, _same)
    return _fft.c2c(x, [n], [axis], _fft.check_norm(norm), False, plan=_fft.pick_plan(plan))


def ifft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.ifft: the 1-D inverse discrete Fourier transform along `axis`."""
    x = _single(x)
    _check_workers(workers)
    axis, n = _fft.axis_and_points(x, n, axis, _same)
    return _fft.c2c(x, [n], [axis], _fft.check_norm(norm), True, plan=_fft.pick_plan(plan))


def rfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.rfft: the n // 2 + 1 non-negative frequencies of real `x` along `axis`."""
    x = _single(x)
    _check_workers(workers)
    axis, n = _fft.axis_and_points(x, n, axis, _same)
    if x.dtype.kind == "c":
        raise TypeError("x must be a real sequence")
    return _fft.r2c(x, [n], [axis], _fft.check_norm(norm), plan=_fft.pick_plan(plan))


def irfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.irfft: a real signal of `n` points (default 2 * (m - 1)) from its non-negative frequencies."""
    x = _single(x)
    _check_workers(workers)
    axis, n = _fft.axis_and_points(x, n, axis, _fft.half_to_full)
    return _fft.c2r(x, [n], [axis], _fft.check_norm(norm), plan=_fft.pick_plan(plan))


def hfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.hfft: the FFT of a signal with Hermitian symmetry given by its first half (irfft of the
    conjugate, with the normalisation's direction swapped)."""
    x = _single(x)
    return irfft(_conj(x), n, axis, _fft.swap_direction(norm), workers=workers, plan=plan)


def ihfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.ihfft: the inverse of hfft, the conjugate of rfft with the normalisation swapped."""
    return _ufuncs.conjugate(rfft(x, n, axis, _fft.swap_direction(norm), workers=workers, plan=plan))


def _conj(x):
    return _ufuncs.conjugate(x) if x.dtype.kind == "c" else x


def _iterable_of_int(value, name):
    """`value` (`s` or `axes`) as a list of ints, as SciPy reads them: a number is one; ValueError for what
    holds anything but integers (None included)."""
    if isinstance(value, numbers.Number):
        value = (value,)
    try:
        return [operator.index(v) for v in value]
    except TypeError:
        raise ValueError(f"{name} must be a scalar or iterable of integers") from None


def _checked_nd(shape, s, axes, real):
    """SciPy's `s` and `axes` of the N-D transforms of an input of `shape` (its _init_nd_shape_and_axes) as
    lists, `s` None where not given, after SciPy's checks, which NumPy does not make: integers, or one (a
    number); axes unique and within the input's dimensions; `s` as long as `axes` (where there are axes) or
    naming the last len(s) axes, -1 meaning the input's size, and every size at least 1; and an axis to
    transform for the real transforms (`real`)."""
    ndim = len(shape)
    if axes is not None:
        axes = [ax + ndim if ax < 0 else ax for ax in _iterable_of_int(axes, "axes")]
        if any(ax >= ndim or ax < 0 for ax in axes):
            raise ValueError("axes exceeds dimensionality of input")
        if len(set(axes)) != len(axes):
            raise ValueError("all axes must be unique")
    if s is not None:
        s = _iterable_of_int(s, "shape")
        if axes and len(axes) != len(s):
            raise ValueError("when given, axes and shape arguments have to be of the same length")
        if axes is None:
            if len(s) > ndim:
                raise ValueError("shape requires more axes than are present")
            axes = list(range(ndim - len(s), ndim))
        s = [shape[ax] if n == -1 else n for n, ax in zip(s, axes)]  # none for no axes, as SciPy's
    elif axes is None:
        axes = list(range(ndim))
    sizes = [shape[ax] for ax in axes] if s is None else s
    if any(n < 1 for n in sizes):
        raise ValueError(f"invalid number of data points ({sizes}) specified")
    if real and not axes:
        raise ValueError("at least 1 axis must be transformed")
    return s, axes


def _nd(x, s, axes, norm, value_type, inverse, plan, workers):
    s, axes = _checked_nd(_fft.check_array(x).shape, s, axes, value_type != "C2C")
    _check_workers(workers)
    if not axes:
        return x  # fftn and ifftn over no axes: the input itself, as SciPy's
    x = _single(x)
    return _fft.transform_nd(x, s, axes, _fft.check_norm(norm), value_type, inverse, _fft.pick_plan(plan))


def fftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.fftn: the N-D discrete Fourier transform over `axes` (default all), of shape `s`."""
    return _nd(x, s, axes, norm, "C2C", False, plan, workers)


def ifftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.ifftn: the N-D inverse discrete Fourier transform."""
    return _nd(x, s, axes, norm, "C2C", True, plan, workers)


def rfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.rfftn: the N-D transform of real input, the last axis halved as in rfft."""
    if _fft.check_array(x).dtype.kind == "c":
        raise TypeError("x must be a real sequence")
    return _nd(x, s, axes, norm, "R2C", False, plan, workers)


def irfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.irfftn: the inverse of rfftn, a real array of shape `s`."""
    return _nd(x, s, axes, norm, "C2R", True, plan, workers)


def hfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.hfftn: the N-D FFT of Hermitian-symmetric input given by its first half of the last axis:
    irfftn of the conjugate, with the normalisation's direction swapped."""
    _checked_nd(_fft.check_array(x).shape, s, axes, True)  # SciPy's errors before the conjugate
    return irfftn(_conj(_single(x)), s, axes, _fft.swap_direction(norm), workers=workers, plan=plan)


def ihfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.ihfftn: the inverse of hfftn, the conjugate of rfftn with the normalisation swapped."""
    return _ufuncs.conjugate(rfftn(x, s, axes, _fft.swap_direction(norm), workers=workers, plan=plan))


def fft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.fft2: fftn over two axes (the last two)."""
    return fftn(x, s, axes, norm, workers=workers, plan=plan)


def ifft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.ifft2: ifftn over two axes (the last two)."""
    return ifftn(x, s, axes, norm, workers=workers, plan=plan)


def rfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.rfft2: rfftn over two axes (the last two)."""
    return rfftn(x, s, axes, norm, workers=workers, plan=plan)


def irfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.irfft2: irfftn over two axes (the last two)."""
    return irfftn(x, s, axes, norm, workers=workers, plan=plan)


def hfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.hfft2: hfftn over two axes (the last two)."""
    return hfftn(x, s, axes, norm, workers=workers, plan=plan)


def ihfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """scipy.fft.ihfft2: ihfftn over two axes (the last two)."""
    return ihfftn(x, s, axes, norm, workers=workers, plan=plan)


def dct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """scipy.fft.dct: the discrete cosine transform of `type` (1-4) along `axis`, x cropped or padded to n."""
    _fft.check_array(x)
    _check_workers(workers)
    return _realtransforms.transform(cuarray, cuarray.fft, x, "dct", type, n, axis, norm, orthogonalize)


def idct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """scipy.fft.idct: the inverse of dct of `type`."""
    _fft.check_array(x)
    _check_workers(workers)
    return _realtransforms.inverse(cuarray, cuarray.fft, x, "dct", type, n, axis, norm, orthogonalize)


def dst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """scipy.fft.dst: the discrete sine transform of `type` (1-4) along `axis`, x cropped or padded to n."""
    _fft.check_array(x)
    _check_workers(workers)
    return _realtransforms.transform(cuarray, cuarray.fft, x, "dst", type, n, axis, norm, orthogonalize)


def idst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """scipy.fft.idst: the inverse of dst of `type`."""
    _fft.check_array(x)
    _check_workers(workers)
    return _realtransforms.inverse(cuarray, cuarray.fft, x, "dst", type, n, axis, norm, orthogonalize)


def _real_nd(one_d, x, type, s, axes, norm, orthogonalize, workers):
    """A 1-D cosine or sine transform along each of the axes (default all, or the last len(s))."""
    s, axes = _checked_nd(_fft.check_array(x).shape, s, axes, False)
    if not axes:
        return x  # no axes: the input itself, as SciPy's (which checks `workers` after)
    _check_workers(workers)
    s, axes = _fft.nd_args(x, s, axes)
    for size, axis in zip(s, axes):
        x = one_d(x, type, size, axis, norm, orthogonalize=orthogonalize)
    return x


def dctn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, orthogonalize=None):
    """scipy.fft.dctn: dct along each of `axes`."""
    return _real_nd(dct, x, type, s, axes, norm, orthogonalize, workers)


def idctn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """scipy.fft.idctn: idct along each of `axes`."""
    return _real_nd(idct, x, type, s, axes, norm, orthogonalize, workers)


def dstn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """scipy.fft.dstn: dst along each of `axes`."""
    return _real_nd(dst, x, type, s, axes, norm, orthogonalize, workers)


def idstn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """scipy.fft.idstn: idst along each of `axes`."""
    return _real_nd(idst, x, type, s, axes, norm, orthogonalize, workers)


def next_fast_len(target, real=False):
    """CuPy's next_fast_len: the smallest length of at least `target` whose only prime factors are 2, 3, 5
    and 7, the lengths cuFFT transforms fastest (SciPy's allows 11 for complex transforms). `real` is
    accepted for SciPy's signature and changes nothing."""
    target = operator.index(target)
    if target < 0:
        raise ValueError(f"Target length must be positive, got {target}")
    if target == 0:
        return 0  # SciPy's and CuPy's
    best = None
    p7 = 1
    while p7 < 2 * target:
        p5 = p7
        while p5 < 2 * target:
            p3 = p5
            while p3 < 2 * target:
                n = p3
                while n < target:
                    n *= 2
                best = n if best is None or n < best else best
                p3 *= 3
            p5 *= 5
        p7 *= 7
    return best


# ---- the uarray backend of scipy.fft.set_backend / scipy.fft.set_global_backend ----

__ua_domain__ = "numpy.scipy.fft"
# The functions scipy.fft dispatches to a backend: the transforms (fht and ifht are not here).
_NOT_DISPATCHED = ("fftfreq", "rfftfreq", "fftshift", "ifftshift", "get_fft_plan", "next_fast_len")
_IMPLEMENTED = {name: globals()[name] for name in __all__ if name not in _NOT_DISPATCHED}


def __ua_convert__(dispatchables, coerce):
    """Device arrays stay as they are; with `coerce`, host arrays are copied to the device."""
    from cuarray._core import ndarray
    from cuarray._transfer import asarray

    values = []
    for d in dispatchables:
        v = d.value
        if d.type is numpy.ndarray and not isinstance(v, ndarray):
            if not (coerce and d.coercible):
                return NotImplemented
            try:
                v = asarray(v)
            except TypeError:
                return NotImplemented
        values.append(v)
    return values


def __ua_function__(method, args, kwargs):
    """scipy.fft's `method` on device arrays, or NotImplemented for one this module lacks (fht, ifht)."""
    fn = _IMPLEMENTED.get(method.__name__)
    return NotImplemented if fn is None else fn(*args, **kwargs)
