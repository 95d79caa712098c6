"""Convolution and correlation: NumPy's convolve and correlate, and the pieces cuarray.scipy.signal builds on.

Every direct method is one call of the core's correlation (cpp/cuarray/ops/convolve.cpp):
out[o] = sum over taps t of x[o + origin + t] * w[t]. A plan (a pure function of the shapes and the mode, so
it is tested against NumPy and SciPy without a device) says which input is x, how the taps are made from the
other (flipped for a convolution, conjugated for a correlation), the origin and the output's shape, and what
to do to the result (reverse it, conjugate it). The FFT method computes the full convolution and takes the
same window.

Note [Padding times taps]
NumPy's 1-D sums, and SciPy's direct sums when they are NumPy's (1-D, except 'same' with in2 the longer), run
over the overlap of data and taps alone. SciPy's other direct sums (_correlateND) pad in1 with zeros and
multiply every tap by data or a zero, so a NaN or infinite value of in2 reaches every output (0 * NaN is NaN).
A plan says which (`padded`): the 2-D and N-D kernels multiply the zeros (the 2-D one its fill value), the
1-D kernel does not, so a padded 1-D plan runs as a 2-D one of one row. The inputs' roles must be SciPy's
too: it never swaps them for 'same', and swaps them for 'full' when in2 has more elements.
"""

import functools
import math
import operator
from typing import NamedTuple

import numpy

from cuarray import _core
from cuarray._core import ndarray

__all__ = ["convolve", "correlate"]

MODES = ("valid", "same", "full")


def require_device(*arrays):
    """CuPy's error for arguments that are not device arrays (NumPy arrays included)."""
    for a in arrays:
        if not isinstance(a, ndarray):
            raise TypeError(f"Unsupported type {type(a)}")


class Plan(NamedTuple):
    swap: bool  # x is the second input and the taps come from the first
    flip: bool  # taps reversed on every axis (convolution)
    conj: bool  # taps conjugated (correlation)
    start: tuple  # first element of the full convolution (or correlation) that the output holds
    origin: tuple  # the core's origin: start - (taps' shape - 1)
    shape: tuple  # the output's shape
    reverse: bool = False  # reverse the result on every axis
    conj_out: bool = False  # conjugate the result
    padded: bool = False  # zeros outside x are multiplied by the taps (Note [Padding times taps])


def _plan(swap, flip, conj, start, shape, taps_shape, reverse=False, conj_out=False, padded=False):
    origin = tuple(s - (k - 1) for s, k in zip(start, taps_shape))
    return Plan(swap, flip, conj, tuple(start), origin, tuple(shape), reverse, conj_out, padded)


def _numpy_window(n, m, mode):
    """(start, length) of NumPy's mode in the full result of lengths n >= m."""
    if mode == "full":
        return 0, n + m - 1
    if mode == "same":
        return (m - 1) // 2, n
    return m - 1, n - m + 1


def plan_numpy(kind, n_a, n_v, mode):
    """NumPy's 1-D convolve(a, v) or correlate(a, v) (kind 'convolve'/'correlate'): the longer input is x.
    A correlation with v longer is the reversed conjugate of correlate(v, a)."""
    swap = n_v > n_a
    n, m = (n_v, n_a) if swap else (n_a, n_v)
    start, length = _numpy_window(n, m, mode)
    if kind == "convolve":
        return _plan(swap, True, False, (start,), (length,), (m,))
    return _plan(swap, False, True, (start,), (length,), (m,), reverse=swap, conj_out=swap)


def _scipy_window(s1, s2, mode, same_start):
    """(start, length) of SciPy's mode on one axis of the full result of in1 (length s1) and in2 (s2)."""
    if mode == "full":
        return 0, s1 + s2 - 1
    if mode == "same":
        return same_start(s2), s1
    return min(s1, s2) - 1, abs(s1 - s2) + 1


def check_valid_shapes(mode, shape1, shape2):
    """SciPy's rule for 'valid': one input at least as large as the other in every dimension. True when the
    second is the larger."""
    if mode != "valid":
        return False
    if all(a >= b for a, b in zip(shape1, shape2)):
        return False
    if all(b >= a for a, b in zip(shape1, shape2)):
        return True
    raise ValueError("For 'valid' mode, one must be at least as large as the other in every dimension")


def plan_scipy(shape1, shape2, mode):
    """scipy.signal.convolve(in1, in2): in2 gives the taps, except where SciPy swaps the inputs ('full' with in2
    the larger, 'valid' with in2 at least as large everywhere); its N-D sums multiply the padding (Note
    [Padding times taps])."""
    larger2 = check_valid_shapes(mode, shape1, shape2) or math.prod(shape2) > math.prod(shape1)
    start, shape = zip(*(_scipy_window(a, b, mode, lambda k: (k - 1) // 2) for a, b in zip(shape1, shape2)))
    swap = larger2 and mode != "same"
    padded = len(shape1) > 1 or (mode == "same" and shape2[0] > shape1[0])
    return _plan(swap, True, False, start, shape, shape1 if swap else shape2, padded=padded)


def plan_scipy_2d(kind, shape1, shape2, mode):
    """convolve2d / correlate2d: in1 is the image that the boundary extends (in 'valid' mode the larger input);
    a correlation's 'same' window starts at k // 2, and a swapped correlation is reversed."""
    swap = check_valid_shapes(mode, shape1, shape2)
    if swap:
        shape1, shape2 = shape2, shape1
    same_start = (lambda k: (k - 1) // 2) if kind == "convolve" else (lambda k: k // 2)
    start, shape = zip(*(_scipy_window(a, b, mode, same_start) for a, b in zip(shape1, shape2)))
    if kind == "convolve":
        return _plan(swap, True, False, start, shape, shape2, padded=True)
    return _plan(swap, False, True, start, shape, shape2, reverse=swap, padded=True)


def _reversed(a):
    return a[(slice(None, None, -1),) * a.ndim]


def run_direct(plan, in1, in2, dtype, boundary="fill", fillvalue=0):
    """The plan's result by direct summation, in `dtype`."""
    from cuarray import _creation, _transfer, _ufuncs

    x, w = (in2, in1) if plan.swap else (in1, in2)
    x = _transfer.ascontiguousarray(x.astype(dtype, copy=False))
    taps = w.astype(dtype, copy=False)
    if plan.flip:
        taps = _reversed(taps)
    if plan.conj and dtype.kind == "c":
        taps = _ufuncs.conjugate(taps)
    taps = _transfer.ascontiguousarray(taps)
    out = _creation.empty(plan.shape, dtype)
    if plan.padded and x.ndim == 1:  # the 1-D kernel sums the overlap alone: one row of the 2-D one
        _core.signal.correlate(out[None], x[None], taps[None], [0, *plan.origin], boundary, fillvalue)
    else:
        _core.signal.correlate(out, x, taps, list(plan.origin), boundary, fillvalue)
    return _finish(plan, out)


def _finish(plan, out):
    from cuarray import _transfer, _ufuncs

    if plan.reverse:
        out = _transfer.ascontiguousarray(_reversed(out))
    if plan.conj_out and out.dtype.kind == "c":
        out = _ufuncs.conjugate(out)
    return out


@functools.lru_cache(maxsize=256)
def next_fast_len(n):
    """The smallest 7-smooth size >= n (sizes cuFFT transforms fastest)."""
    best = 1 << max(0, (n - 1).bit_length())
    p7 = 1
    while p7 < best:
        p5 = p7
        while p5 < best:
            p3 = p5
            while p3 < best:
                p2 = p3
                while p2 < n:
                    p2 *= 2
                best = min(best, p2)
                p3 *= 3
            p5 *= 5
        p7 *= 7
    return best


def full_fft(in1, in2, axes):
    """The full convolution of in1 and in2 along `axes` by FFTs (other axes broadcast); real inputs use real
    transforms, so float32 stays float32."""
    from cuarray import _ufuncs, fft

    full = [s1 + s2 - 1 for s1, s2 in zip(in1.shape, in2.shape)]
    fshape = [next_fast_len(full[a]) for a in axes]
    if in1.dtype.kind == "c" or in2.dtype.kind == "c":
        ret = fft.ifftn(
            _ufuncs.multiply(fft.fftn(in1, fshape, axes), fft.fftn(in2, fshape, axes)), fshape, axes
        )
    else:
        ret = fft.irfftn(
            _ufuncs.multiply(fft.rfftn(in1, fshape, axes), fft.rfftn(in2, fshape, axes)), fshape, axes
        )
    keep = tuple(slice(0, full[a]) if a in axes else slice(None) for a in range(ret.ndim))
    return ret[keep]


def float_inputs(in1, in2):
    """Integer and bool inputs as float64, float16 as float32, for the FFT method."""

    def convert(a):
        if a.dtype.kind in "biu":
            return a.astype(numpy.float64)
        return a.astype(numpy.float32) if a.dtype == numpy.float16 else a

    return convert(in1), convert(in2)


def fft_cheaper(out_size, taps, full_shape):
    """Whether the FFT method should beat direct summation: direct costs one multiply-add per output and tap;
    three transforms and a product cost about a few hundred of those per element of the padded size (the
    full convolution's shape, `full_shape`, rounded up to 7-smooth sizes), plus a fixed overhead of about 1e8
    (launches). The padded size is at least the full one, which usually settles it without rounding up."""
    direct = out_size * taps
    if direct <= 300 * math.prod(full_shape) + 1e8:
        return False
    return direct > 300 * math.prod(next_fast_len(n) for n in full_shape) + 1e8


_INPUT_NAMES = {"convolve": ("a", "v"), "correlate": ("first array argument", "second array argument")}


def _numpy_args(kind, a, v, mode):
    """The 1-D inputs and the mode's name, checked as NumPy's `kind` ('convolve' or 'correlate') checks them."""
    require_device(a, v)
    if isinstance(mode, str):
        if mode not in MODES:
            if mode and any(
                m.startswith(mode.lower()) for m in MODES
            ):  # an abbreviation NumPy no longer takes
                raise ValueError("Use one of 'valid', 'same', or 'full' for convolve/correlate mode")
            raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
    else:
        try:
            if isinstance(mode, (bool, numpy.bool_)):
                raise TypeError
            index = operator.index(mode)
        except TypeError:
            raise TypeError("convolve/correlate mode not understood") from None
        if not 0 <= index <= 2:
            raise ValueError("integer convolve/correlate mode must be 0, 1, or 2")
        mode = MODES[index]
    if min(a.ndim, v.ndim) == 0 and kind == "correlate":  # NumPy's correlate2 takes no 0-d input
        raise ValueError("object of too small depth for desired array")
    a = a.reshape(1) if a.ndim == 0 else a  # convolve's array(a, ndmin=1)
    v = v.reshape(1) if v.ndim == 0 else v
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("object too deep for desired array")
    for x, name in zip((a, v), _INPUT_NAMES[kind]):
        if x.shape[0] == 0:
            raise ValueError(f"{name} cannot be empty")
    return a, v, mode


def _numpy_conv(kind, a, v, mode):
    dtype = numpy.result_type(a.dtype, v.dtype)
    plan = plan_numpy(kind, a.shape[0], v.shape[0], mode)
    n_taps = min(a.shape[0], v.shape[0])
    if (
        dtype.kind in "fc"
        and fft_cheaper(plan.shape[0], n_taps, (a.shape[0] + v.shape[0] - 1,))
        and _all_finite(a, v)
    ):
        x, w = (v, a) if plan.swap else (a, v)
        if kind == "correlate":
            from cuarray import _ufuncs

            w = _reversed(_ufuncs.conjugate(w) if dtype.kind == "c" else w)
        x, w = float_inputs(x, w)
        full = full_fft(x, w, (0,))
        out = full[plan.start[0] : plan.start[0] + plan.shape[0]].astype(dtype)
        return _finish(plan, out)
    return run_direct(plan, a, v, dtype)


# Note [NumPy's convolve through FFTs]
# NumPy's convolve and correlate sum directly, so a NaN or an infinity reaches only the outputs whose window
# covers it. Through FFTs it reaches every output. Long float inputs, where the direct sum would cost far more
# than the transforms, take FFTs only when both inputs are finite (one pass of isfinite over each, small beside
# the transforms); the results then agree with the direct sum to the transforms' rounding, relative to the
# largest output (docs/numerical-differences.md).
def _all_finite(a, v):
    from cuarray import _reduction, _ufuncs

    return all(bool(_reduction.all(_ufuncs.isfinite(x))) for x in (a, v))


def convolve(a, v, mode="full"):
    """NumPy's convolve: the discrete linear convolution of two 1-D device arrays (the shorter is the kernel)."""
    a, v, mode = _numpy_args("convolve", a, v, mode)
    return _numpy_conv("convolve", a, v, mode)


def correlate(a, v, mode="valid"):
    """NumPy's correlate: c[k] = sum over n of a[n + k] * conj(v[n]), for two 1-D device arrays."""
    a, v, mode = _numpy_args("correlate", a, v, mode)
    return _numpy_conv("correlate", a, v, mode)
