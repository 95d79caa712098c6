"""SciPy's convolve, correlate, convolve2d, correlate2d, fftconvolve, oaconvolve and choose_conv_method on
device arrays (other arguments, host arrays included, raise CuPy's TypeError). Direct sums run on the core's correlation, the FFT method on
cuarray.fft; see cuarray/_convolution.py for the plans."""

import math
import operator
import warnings

import numpy

from cuarray import _creation, _math, _ufuncs
from cuarray._convolution import (
    MODES,
    check_valid_shapes,
    fft_cheaper,
    float_inputs,
    full_fft,
    plan_scipy,
    plan_scipy_2d,
    run_direct,
)
from cuarray._ndarray import ndarray
from cuarray._transfer import ascontiguousarray

_BOUNDARIES = {
    "fill": "fill",
    "pad": "fill",
    "wrap": "wrap",
    "circular": "wrap",
    "symm": "symm",
    "symmetric": "symm",
}


def require_device(*arrays):
    """CuPy's error for arguments that are not device arrays (NumPy arrays included): TypeError, as the
    convolution lesson shows cupyx.scipy.signal.convolve2d raising for NumPy arrays."""
    for a in arrays:
        if not isinstance(a, ndarray):
            raise TypeError(f"Unsupported type {type(a)}")


def _empty_result():
    return _creation.zeros(0, numpy.float64)  # SciPy's np.array([]) for an empty input


def _check_nd(in1, in2, mode, message, names="in1 and in2"):
    """SciPy's checks: equal ndim, then (past 0-d inputs, whose product SciPy returns first) the mode."""
    require_device(in1, in2)
    if in1.ndim != in2.ndim:
        raise ValueError(f"{names} should have the same dimensionality")
    if mode not in MODES and in1.ndim:
        raise ValueError(message)


def choose_conv_method(in1, in2, mode="full"):
    """'direct' or 'fft' for convolve(in1, in2, mode), by cupyx's rule for 1-D inputs: 'direct' for integer and
    bool inputs (exact), else 'fft'. Other dimensions raise NotImplementedError, as cupyx's does (convolve's
    method='auto' chooses for them by its cost estimate, Note [Automatic method])."""
    require_device(in1, in2)
    if in1.ndim != 1 or in2.ndim != 1:
        raise NotImplementedError(
            f"choose_conv_method: only 1-D inputs are supported (got {in1.ndim}-D and {in2.ndim}-D)"
        )
    if any(a.dtype.kind in "biu" for a in (in1, in2)):
        return "direct"
    return "fft"


# Note [Automatic method]
# convolve(method='auto') chooses by the cost estimate, not by choose_conv_method's cupyx rule ('fft' for every
# 1-D floating input): the direct sums are exact and, for the short inputs that are most common, faster, and the
# two methods agree to rounding. choose_conv_method answers as cupyx's does, for programs that branch on it
# (and, as cupyx's, raises NotImplementedError for inputs that are not both 1-D).
def _estimated_method(in1, in2, mode):
    """'direct' or 'fft', whichever the cost estimate (cuarray._convolution.fft_cheaper) says is faster."""
    if any(a.dtype.kind in "biu" for a in (in1, in2)):
        return "direct"
    if in1.ndim > 8:
        return "fft"
    if mode == "full":
        out = [a + b - 1 for a, b in zip(in1.shape, in2.shape)]
    elif mode == "same":
        out = list(in1.shape)
    else:
        out = [abs(a - b) + 1 for a, b in zip(in1.shape, in2.shape)]
    taps = min(in1.size, in2.size) * (
        1 if in1.ndim <= 2 else 4
    )  # the N-D kernel is slower than the tiled ones
    full = [a + b - 1 for a, b in zip(in1.shape, in2.shape)]
    return "fft" if fft_cheaper(math.prod(out), taps, full) else "direct"


def convolve(in1, in2, mode="full", method="auto"):
    """N-D convolution of two device arrays of equal ndim (SciPy's modes and methods)."""
    _check_nd(
        in1,
        in2,
        mode,
        f"Acceptable mode flags are 'valid', 'same', or 'full', not mode={mode}",
        "volume and kernel",
    )
    if in1.ndim == 0:
        return _ufuncs.multiply(in1, in2)
    if method not in ("auto", "direct", "fft"):
        raise ValueError("Acceptable method flags are 'auto', 'direct', or 'fft'.")
    _check_1d_not_empty(in1, in2, ("a", "v"))
    if in1.size == 0 or in2.size == 0:
        return _empty_result()
    check_valid_shapes(mode, in1.shape, in2.shape)
    if method == "auto":  # Note [Automatic method]
        method = _estimated_method(in1, in2, mode)
    dtype = numpy.result_type(in1.dtype, in2.dtype)
    if method == "fft":
        out = fftconvolve(in1, in2, mode)
        if dtype.kind in "ui":
            out = _math.around(out)
        return out.astype(dtype, copy=False)
    plan = plan_scipy(in1.shape, in2.shape, mode)
    if plan.padded and (dtype == numpy.bool_ or dtype == numpy.float16):
        # SciPy's N-D direct sums have no such loops ('Unsupported type'); cupyx raises ValueError too.
        raise ValueError(
            f"convolve/correlate: the direct method does not support {dtype} inputs of more than one "
            "dimension, or 1-D with mode='same' and in2 the longer (as SciPy); use method='fft' or convert "
            "the inputs"
        )
    return run_direct(plan, in1, in2, dtype)


def _check_1d_not_empty(in1, in2, names):
    """SciPy's 1-D sums go through NumPy's convolve or correlate, whose ValueError names an empty input."""
    if in1.ndim == 1:
        for x, name in zip((in1, in2), names):
            if x.size == 0:
                raise ValueError(f"{name} cannot be empty")


def correlate(in1, in2, mode="full", method="auto"):
    """N-D cross-correlation: convolve(in1, in2 reversed and conjugated)."""
    _check_nd(in1, in2, mode, "Acceptable mode flags are 'valid', 'same', or 'full'.")
    if in1.ndim == 0:
        return _ufuncs.multiply(in1, _ufuncs.conjugate(in2))
    if method == "direct":  # SciPy's direct 1-D correlation is NumPy's correlate (auto and fft: convolve's)
        _check_1d_not_empty(in1, in2, ("first array argument", "second array argument"))
    taps = in2[(slice(None, None, -1),) * in2.ndim]
    return convolve(in1, _ufuncs.conjugate(taps) if taps.dtype.kind == "c" else taps, mode, method)


def _fill_value(fillvalue, dtype):
    """The fill value in the output's type, checked as SciPy checks it: converted to complex first (its errors),
    then a scalar cast to the output's type as NumPy's array(fillvalue, dtype) casts (an int64 fill stays
    exact; 1.5 into an integer output is 1; NaN, a complex value or one out of range is SciPy's ValueError),
    and an array only where its type casts safely."""
    host = fillvalue.get() if hasattr(fillvalue, "get") else fillvalue
    error = ValueError(
        "could not cast `fillvalue` directly to the output type (it was first converted to complex)."
    )
    try:
        size = numpy.asarray(host, dtype=numpy.complex128).size
    except TypeError:
        raise error from None
    if size == 0:
        raise ValueError("`fillvalue` cannot be an empty array.")
    if size != 1:
        raise ValueError("`fillvalue` must be scalar or an array with one element.")
    if isinstance(host, numpy.ndarray) and not numpy.can_cast(host.dtype, dtype, "safe"):
        raise error  # an array's type must cast safely (a scalar's value is what counts)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
            return numpy.asarray(host, dtype=dtype).reshape(()).item()
    except (TypeError, ValueError, OverflowError):
        raise error from None


def _two_d(kind, in1, in2, mode, boundary, fillvalue):
    require_device(in1, in2)
    if not in1.ndim == in2.ndim == 2:
        raise ValueError(f"{kind}2d inputs must both be 2-D arrays")
    if mode not in MODES:
        raise ValueError("Acceptable mode flags are 'valid', 'same', or 'full'.")
    if boundary not in _BOUNDARIES:
        raise ValueError(
            "Acceptable boundary flags are 'fill', 'circular' (or 'wrap'), and 'symmetric' (or 'symm')."
        )
    dtype = numpy.result_type(in1.dtype, in2.dtype)
    if dtype.kind not in "iufc" or dtype == numpy.float16:
        raise ValueError(f"{kind}2d not available for this type.")
    fill = _fill_value(fillvalue, dtype) if _BOUNDARIES[boundary] == "fill" else 0  # read for "fill" alone
    plan = plan_scipy_2d(kind, in1.shape, in2.shape, mode)
    return run_direct(plan, in1, in2, dtype, _BOUNDARIES[boundary], fill)


def convolve2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """2-D convolution with SciPy's modes and boundary extensions of in1 (fill, wrap, symm)."""
    return _two_d("convolve", in1, in2, mode, boundary, fillvalue)


def correlate2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """2-D cross-correlation with SciPy's modes and boundary extensions of in1 (fill, wrap, symm)."""
    return _two_d("correlate", in1, in2, mode, boundary, fillvalue)


def _centered(a, shape):
    """The middle `shape` of `a`, C-contiguous as cupyx returns every FFT-method result."""
    start = [(n - m) // 2 for n, m in zip(a.shape, shape)]
    return ascontiguousarray(a[tuple(slice(s, s + m) for s, m in zip(start, shape))])


def _freq_axes(axes, ndim):
    """fftconvolve's `axes` checked as SciPy checks them, with its messages."""
    try:
        axes = [operator.index(a) for a in ([axes] if numpy.isscalar(axes) else axes)]
    except TypeError:
        raise ValueError("axes must be a scalar or iterable of integers") from None
    if not axes:
        raise ValueError("when provided, axes cannot be empty")
    axes = [a + ndim if a < 0 else a for a in axes]
    if any(a >= ndim or a < 0 for a in axes):
        raise ValueError("axes exceeds dimensionality of input")
    if len(set(axes)) != len(axes):
        raise ValueError("all axes must be unique")
    return axes


def fftconvolve(in1, in2, mode="full", axes=None):
    """N-D convolution by FFTs along `axes` (default all); the other axes must match or be 1 (broadcast)."""
    require_device(in1, in2)
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    if in1.ndim == 0:
        return _ufuncs.multiply(in1, in2)
    if in1.size == 0 or in2.size == 0:
        return _empty_result()
    if mode not in MODES:
        raise ValueError("acceptable mode flags are 'valid', 'same', or 'full'")
    axes = range(in1.ndim) if axes is None else _freq_axes(axes, in1.ndim)
    for a in range(in1.ndim):
        if a not in axes and in1.shape[a] != in2.shape[a] and 1 not in (in1.shape[a], in2.shape[a]):
            raise ValueError(f"incompatible shapes for in1 and in2: {in1.shape} and {in2.shape}")
    axes = tuple(a for a in axes if in1.shape[a] != 1 and in2.shape[a] != 1)
    s1, s2 = in1.shape, in2.shape
    if check_valid_shapes(mode, [s1[a] for a in axes], [s2[a] for a in axes]):
        in1, in2, s1, s2 = in2, in1, s2, s1
    # Without an axis to transform, SciPy multiplies, then still applies the mode.
    full = full_fft(*float_inputs(in1, in2), axes) if axes else _ufuncs.multiply(in1, in2)
    if mode == "full":
        return ascontiguousarray(full)
    if mode == "same":
        return _centered(full, s1)
    return _centered(full, [s1[a] - s2[a] + 1 if a in axes else full.shape[a] for a in range(full.ndim)])


def oaconvolve(in1, in2, mode="full", axes=None):
    """SciPy's overlap-add convolution: the same result, which cuarray computes with one FFT of the full size
    (fftconvolve) rather than block by block."""
    return fftconvolve(in1, in2, mode, axes)
