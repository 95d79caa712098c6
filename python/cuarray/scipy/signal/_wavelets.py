"""CuPy's wavelets: ricker, morlet, morlet2 and the continuous wavelet transform cwt, which SciPy 1.12
deprecated and 1.15 removed and CuPy 14 keeps, deprecated (each call warns with CuPy's
VisibleDeprecationWarning; qmf, their sibling, is in _filter_extras.py). The wavelets are computed on the
device with cuarray's ufuncs, in float64 (ricker) and complex128 (morlet, morlet2), as CuPy's kernels compute
them; cwt convolves on the device.

Note [CuPy's wavelets]
SciPy's last versions of these (1.14) are the formulas; CuPy's kernels differ from them in two places, and
cuarray follows CuPy in one. cwt calls the wavelet with int(width), of 10 * int(width) points (at most the
data's length), as CuPy's does, where SciPy passed the width itself: the same for integer widths, a
truncated width for others. cwt takes no `dtype` or wavelet keywords (CuPy's signature); its result is
complex128 where wavelet(1, 1) is complex, float64 otherwise. morlet's points are those of
linspace(-2 pi s, 2 pi s, M) as SciPy's, so a one-point morlet is its value at -2 pi s, where CuPy's kernel
divides by M - 1 and gives NaN. The arguments are read as CuPy's kernels read them: points and M as
int(points) (morlet's M as an integer), a, w and s as float64.
"""

import math
import operator
import warnings

import numpy

import cuarray as cp
from cuarray.scipy.signal._convolve import convolve

__all__ = ["cwt", "morlet", "morlet2", "ricker"]

_DEPRECATION = (
    "Following the change in SciPy 1.12, all wavelet functions have been deprecated in CuPy v14 and are "
    "planned to be removed in the future. To request continued support of the features, please leave a "
    "comment at https://github.com/cupy/cupy/issues/8864."
)


def _warn():
    warnings.warn(_DEPRECATION, numpy.exceptions.VisibleDeprecationWarning, stacklevel=3)


# Note [Wavelet scalars]
# CuPy's kernels compute their scalar factors in device doubles, so a width of 0 (or a negative one, under a
# square root) gives infinities and NaN, not an error; the factors here are NumPy float64s with those warnings
# off, for the same values, and the vectors are device arithmetic, which raises no floating-point warnings.
def _centred(points):
    """The float64 device vector i - (points - 1) / 2, i = 0 .. points - 1: points centred on 0."""
    return cp.arange(points, dtype=numpy.float64) - (points - 1.0) * 0.5


def ricker(points, a):
    """The Ricker ("Mexican hat") wavelet A (1 - x^2/a^2) exp(-x^2 / (2 a^2)), A = 2 / (sqrt(3 a) pi^(1/4)), at
    int(points) points centred on 0 (float64)."""
    _warn()
    a = numpy.float64(float(a))
    with numpy.errstate(divide="ignore", invalid="ignore"):  # Note [Wavelet scalars]
        amplitude = float(2.0 / (numpy.sqrt(3.0 * a) * math.pi**0.25))
    wsq = float(a * a)
    xsq = _centred(int(points)) ** 2
    return amplitude * (1.0 - xsq / wsq) * cp.exp(-xsq / (2.0 * wsq))


def morlet(M, w=5.0, s=1.0, complete=True):
    """The complex Morlet wavelet pi^(-1/4) (exp(j w x) - [exp(-w^2 / 2) if complete]) exp(-x^2 / 2) at M points
    x from -2 pi s to 2 pi s (complex128; Note [CuPy's wavelets])."""
    _warn()
    w, s = float(w), float(s)
    x = cp.linspace(-s * 2.0 * math.pi, s * 2.0 * math.pi, operator.index(M), dtype=numpy.float64)
    wave = cp.exp(1j * w * x)
    if complete:
        wave = wave - math.exp(-0.5 * w * w)
    return wave * (cp.exp(-0.5 * x * x) * math.pi**-0.25)


def morlet2(M, s, w=5):
    """The complex Morlet wavelet for cwt, normalised by its width s: sqrt(1/s) pi^(-1/4) exp(j w x) exp(-x^2/2)
    at x = (i - (M - 1) / 2) / s, i = 0 .. int(M) - 1 (complex128)."""
    _warn()
    w, s = float(w), numpy.float64(float(s))
    with numpy.errstate(divide="ignore", invalid="ignore"):  # Note [Wavelet scalars]
        scale = float(numpy.sqrt(1.0 / s) * math.pi**-0.25)
    x = _centred(int(M)) / float(s)
    return (cp.exp(1j * w * x) * cp.exp(-0.5 * x * x)) * scale


def cwt(data, wavelet, widths):
    """The continuous wavelet transform of the 1-D device array `data`: row k is `data` convolved ('same'
    mode, on the device) with the reversed conjugate of wavelet(min(10 * int(w), len(data)), int(w)) for the
    k-th width w (Note [CuPy's wavelets])."""
    _warn()
    complex_wavelet = cp.asarray(wavelet(1, 1)).dtype.kind == "c"
    out = cp.empty((len(widths), len(data)), dtype=numpy.complex128 if complex_wavelet else numpy.float64)
    for row, width in enumerate(widths):
        width = int(width)
        points = min(10 * width, len(data))
        kernel = cp.conj(wavelet(points, width))[::-1]
        out[row, :] = convolve(data, kernel, mode="same")
    return out
