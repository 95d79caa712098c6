"""SciPy's discrete cosine and sine transforms (types 1-4) as complex FFTs of the same or doubled length,
written over an array namespace `xp` and its `fft` module, so that the one definition runs on cuarray and,
in the tests, on NumPy against scipy.fft. Note [Real transforms through the FFT] says how each type is
computed."""

import math
import operator

import numpy
from numpy.lib.array_utils import normalize_axis_index

# Note [Real transforms through the FFT]
# Each transform is SciPy's unnormalised sum evaluated through a complex FFT along the last axis:
# - DCT-I: the real part of the FFT of the even extension [x0 .. x(N-1), x(N-2) .. x1] (2N - 2 points);
#   DST-I: minus the imaginary part of the FFT of the odd extension [0, x, 0, -reversed x] (2N + 2 points).
# - DCT-II and DST-II: the FFT of x zero-padded to 2N points, turned by exp(-i pi k / 2N) (k + 1 for the
#   DST), whose real part (minus the imaginary part) is half the sum.
# - DCT-III and DST-III: the sums' weights (1 for x0 or x(N-1), 2 for the rest) turn each x_n by
#   exp(i pi n / 2N) (n + 1 for the DST); the inverse FFT of that zero-padded to 2N points, times 2N, has
#   the sum as its real (imaginary) part.
# - DCT-IV and DST-IV: x turned by exp(-i pi n / 2N), zero-padded to 2N points, transformed and turned by
#   exp(-i pi (2k + 1) / 4N).
# The phases are computed in float64 on the host and rounded once to the input's precision. Complex input
# transforms its real and imaginary parts. The norms scale by SciPy's factors (2N, 2(N - 1) for DCT-I,
# 2(N + 1) for DST-I), and `orthogonalize` makes SciPy's changes to the first or last element that turn the
# 'ortho' matrices orthonormal. The inverse of each type is SciPy's: the transform of the inverse type
# (II and III swap) with the norm's direction swapped.

_INVERSE = {1: 1, 2: 3, 3: 2, 4: 4}


def _phase(xp, n, offset, scale, dtype, length):
    """exp(i * pi * (k + offset) * scale) for k < length, in complex `dtype`, from float64 on the host."""
    return xp.asarray(numpy.exp(1j * numpy.pi * (numpy.arange(length) + offset) * scale).astype(dtype))


def _weights(xp, values, n, dtype):
    """A length-n vector of ones with `values` ({index: value}) set, in `dtype`."""
    w = numpy.ones(n)
    for i, v in values.items():
        w[i] *= v
    return xp.asarray(w.astype(dtype))


def _unnormalised(xp, fft, x, kind, type):
    """SciPy's unnormalised `kind` ('dct' or 'dst') of `type` along the last axis of real x."""
    n = x.shape[-1]
    real = x.dtype
    cplx = numpy.result_type(real, numpy.complex64)
    if kind == "dct" and type == 1:
        if n < 2:
            raise RuntimeError("zero-length FFT requested")
        return xp.real(fft.fft(xp.concatenate([x, x[..., -2:0:-1]], axis=-1), axis=-1))[..., :n]
    if kind == "dst" and type == 1:
        zero = xp.zeros(x.shape[:-1] + (1,), dtype=real)
        v = xp.concatenate([zero, x, zero, -x[..., ::-1]], axis=-1)
        return -xp.imag(fft.fft(v, axis=-1))[..., 1 : n + 1]
    shift = 1 if kind == "dst" else 0
    if type == 2:
        y = fft.fft(x, 2 * n, axis=-1)[..., shift : n + shift] * _phase(xp, n, shift, -1 / (2 * n), cplx, n)
    elif type == 3:
        last = n - 1 if kind == "dst" else 0
        z = x * _weights(xp, {i: 2.0 for i in range(n) if i != last}, n, real)
        z = z * _phase(xp, n, shift, 1 / (2 * n), cplx, n)
        if kind == "dst":
            z = xp.concatenate([xp.zeros(z.shape[:-1] + (1,), dtype=cplx), z], axis=-1)
        y = fft.ifft(z, 2 * n, axis=-1)[..., :n] * (2 * n)
        return xp.imag(y) if kind == "dst" else xp.real(y)
    else:  # type 4
        y = fft.fft(x * _phase(xp, n, 0, -1 / (2 * n), cplx, n), 2 * n, axis=-1)[..., :n]
        y = y * _phase(xp, n, 0.5, -1 / (2 * n), cplx, n)
    return -2 * xp.imag(y) if kind == "dst" else 2 * xp.real(y)


def _factor(kind, type, n):
    """SciPy's normalisation length of the transform: 2(N - 1) for DCT-I, 2(N + 1) for DST-I, 2N otherwise."""
    if type == 1:
        return 2 * (n - 1) if kind == "dct" else 2 * (n + 1)
    return 2 * n


# orthogonalize's changes: {type: (input weights, output weights)} by index from the start (or -1: the end)
_ORTHOGONALIZE = {
    ("dct", 1): ({0: math.sqrt(2), -1: math.sqrt(2)}, {0: 1 / math.sqrt(2), -1: 1 / math.sqrt(2)}),
    ("dct", 2): ({}, {0: 1 / math.sqrt(2)}),
    ("dct", 3): ({0: math.sqrt(2)}, {}),
    ("dst", 2): ({}, {-1: 1 / math.sqrt(2)}),
    ("dst", 3): ({-1: math.sqrt(2)}, {}),
}


def transform(xp, fft, x, kind, type, n, axis, norm, orthogonalize):
    """SciPy's dct or dst (`kind`) of `type` along `axis`, x cropped or zero-padded to n points."""
    type = operator.index(type)  # SciPy's TypeError for 2.0, as its C++ signature refuses a float
    if type not in (1, 2, 3, 4):
        raise ValueError(f"invalid {kind.upper()} type")
    if norm not in (None, "backward", "ortho", "forward"):
        raise ValueError(f'Invalid norm value {norm!r}, should be "backward", "ortho" or "forward"')
    norm = norm or "backward"
    orthogonalize = norm == "ortho" if orthogonalize is None else orthogonalize
    axis = normalize_axis_index(axis, x.ndim)
    if x.dtype.kind == "c":  # SciPy's complex path orthogonalizes by the norm alone, whatever is asked
        parts = [transform(xp, fft, p, kind, type, n, axis, norm, None) for p in (xp.real(x), xp.imag(x))]
        return parts[0] + 1j * parts[1]
    if x.dtype.kind != "f" or x.dtype == numpy.float16:
        x = x.astype(numpy.float32 if x.dtype == numpy.float16 else numpy.float64)
    x = xp.moveaxis(x, axis, -1)
    if n is not None and not hasattr(n, "__index__"):  # SciPy slices x with n: its TypeError for 2.5
        raise TypeError("slice indices must be integers or None or have an __index__ method")
    size = x.shape[-1] if n is None else operator.index(n)
    if size < 1:
        raise ValueError(f"invalid number of data points ({size}) specified")
    if size < x.shape[-1]:
        x = x[..., :size]
    elif size > x.shape[-1]:
        x = xp.concatenate([x, xp.zeros(x.shape[:-1] + (size - x.shape[-1],), dtype=x.dtype)], axis=-1)
    before, after = _ORTHOGONALIZE.get((kind, type), ({}, {})) if orthogonalize else ({}, {})
    if before:
        x = x * _weights(xp, before, size, x.dtype)
    y = _unnormalised(xp, fft, x, kind, type)
    if after:
        y = y * _weights(xp, after, size, y.dtype)
    if norm != "backward":
        f = _factor(kind, type, size)
        y = y * (1 / f if norm == "forward" else 1 / math.sqrt(f))
    return xp.moveaxis(y, -1, axis)


def inverse(xp, fft, x, kind, type, n, axis, norm, orthogonalize):
    """SciPy's idct or idst: the transform of the inverse type with the norm's direction swapped (SciPy looks
    the type up in a dict, so 2.0 is 2 here)."""
    if type not in (1, 2, 3, 4):
        raise ValueError(f"invalid {kind.upper()} type")
    swapped = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}.get(
        norm, norm
    )
    if orthogonalize is None:
        orthogonalize = norm == "ortho"
    return transform(xp, fft, x, kind, _INVERSE[type], n, axis, swapped, orthogonalize)
