"""lfilter, lfiltic, lfilter_zi, sosfilt and sosfilt_zi as CuPy has them: the filter's state given (`zi`) and
returned (`zf`) as its past inputs and outputs, run on SciPy's filtering in _lfilter.py.

Note [CuPy's initial conditions]
CuPy's lfilter takes and returns the state of the filter b/a as its past: along `axis`, the last len(b) - 1
inputs and then the last len(a) - 1 outputs, oldest first; CuPy's sosfilt, for each section, its x[-2], x[-1],
y[-2], y[-1] (shape (n_sections, ..., 4, ...)); lfiltic, lfilter_zi and sosfilt_zi return that form. SciPy's
hold the delays of the direct form II transposed instead: max(len(a), len(b)) - 1 of them. Where a or b has
a single coefficient the two forms have the same length, so a library that took one form where a program passes
the other would give other values without an error: cuarray takes CuPy's, as CuPy programs pass it, and gives
zf in it, so that blocks of a signal chain from one call to the next as in CuPy.
Inside, the past becomes SciPy's delays (lfiltic_state for lfilter, computed as SciPy's lfiltic computes them;
sosfilt's kernel makes them per section from the same sums, in the same order), and SciPy's recursion runs
(Note [Filtering as SciPy rounds] in _lfilter.py): the values are those of SciPy's lfilter or sosfilt started
from lfiltic's state of the same past, to the rounding of that state. zf holds the last inputs and outputs
(for sosfilt those of each section, which its kernel keeps over the last two steps); where the signal is shorter
than the past, the older values come from zi. lfilter_zi and sosfilt_zi give the past of the step response at
its steady state: inputs of one, outputs of the DC gain sum(b) / sum(a) (the product of the sections' gains
before each section's input, for sosfilt_zi), which is what CuPy's least-squares solves compute, in float64 (or
complex128) as CuPy's are. filtfilt and sosfiltfilt, whose states never leave them, keep SciPy's form and its
steady-state solve, which is what makes their values SciPy's.
"""

import operator

import numpy
from numpy.lib.array_utils import normalize_axis_index

from cuarray import _creation, _joining, _manipulation
from cuarray._transfer import ascontiguousarray
from cuarray.scipy.signal._convolve import require_device
from cuarray.scipy.signal._iir_forms import atleast_1d, host, on_host, validate_sos
from cuarray.scipy.signal._lfilter import (
    coefficients,
    lfilter_state,
    lfiltic_state,
    moved_copy,
    run_kernel,
    sosfilt_state,
    zi_mismatch,
)


def _along(a, axis, start, stop, step=None):
    index = [slice(None)] * a.ndim
    index[axis] = slice(start, stop, step)
    return a[tuple(index)]


def _latest(past, new, k, axis):
    """The last `k` values along `axis` of `past` (k of them) followed by `new`."""
    n = new.shape[axis]
    if n >= k:
        return _along(new, axis, n - k, n)
    return _joining.concatenate((_along(past, axis, n, k), new), axis=axis)


def _result_type(coefficients, x, zi):
    """CuPy's result type for a filter from a past: the coefficients' and x's; zi is cast to it (lfiltic's and
    lfilter_zi's float64 would otherwise make every result float64), and joins it only where a complex zi meets
    a real type or the type is not floating (integer coefficients and signal: SciPy's promotion with zi, or its
    NotImplementedError)."""
    dtype = numpy.result_type(*coefficients, x.dtype)
    if dtype.char not in "fdFD" or (zi.dtype.kind == "c" and dtype.kind != "c"):
        dtype = numpy.result_type(dtype, zi.dtype)
    return dtype


def lfilter(b, a, x, axis=-1, zi=None):
    """Filters `x` along `axis` with the IIR or FIR filter b/a (divided by a[0]); returns y, or (y, zf) where
    `zi` is given. zi and zf are CuPy's: along `axis`, the last len(b) - 1 inputs then the last len(a) - 1
    outputs, oldest first (Note [CuPy's initial conditions]). The result type is that of b, a and x, which must
    be floating or complex (_result_type)."""
    if zi is None:
        return lfilter_state(b, a, x, axis)
    require_device(x, zi)
    b, a = coefficients(b, a)
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    axis = normalize_axis_index(operator.index(axis), x.ndim)
    m, n = len(b) - 1, len(a) - 1
    expected = x.shape[:axis] + (m + n,) + x.shape[axis + 1 :]
    if zi.ndim < x.ndim:  # CuPy's takes a scalar or a vector for one signal's state
        zi = zi.reshape((1,) * (x.ndim - zi.ndim) + zi.shape)
    if zi.ndim != x.ndim or zi_mismatch(zi.shape, expected, axis):
        raise ValueError(
            f"Unexpected shape for zi: expected {expected}, found {zi.shape}. zi holds the last len(b) - 1 = {m} "
            f"inputs and then the last len(a) - 1 = {n} outputs along axis {axis} (CuPy's form)."
        )
    zi = _manipulation.broadcast_to(zi, expected)
    inputs, outputs = _along(zi, axis, 0, m), _along(zi, axis, m, m + n)
    delays = lfiltic_state(
        b, a, _along(outputs, axis, None, None, -1), _along(inputs, axis, None, None, -1), axis
    )
    y, _ = lfilter_state(b, a, x, axis, zi=delays.astype(_result_type((b, a), x, zi), copy=False))
    parts = (_latest(inputs, x, m, axis), _latest(outputs, y, n, axis))
    zf = _joining.concatenate([p.astype(y.dtype, copy=False) for p in parts], axis=axis)
    return y, ascontiguousarray(zf)


def lfiltic(b, a, y, x=None, axis=-1):
    """CuPy's lfiltic: lfilter's zi (Note [CuPy's initial conditions]) for the past outputs `y` and inputs `x`
    given latest first (y[0] is y[-1]), as SciPy's lfiltic takes them, along `axis`; missing values are zeros,
    values past the filter's order are not read. float64 at least, as CuPy's."""
    require_device(*[v for v in (y, x) if v is not None])
    a, b = atleast_1d(host(a)), atleast_1d(host(b))
    if a.ndim > 1:
        raise ValueError("Filter coefficients `a` must be 1-D.")
    if b.ndim > 1:
        raise ValueError("Filter coefficients `b` must be 1-D.")
    if len(a) < 1:
        raise ValueError("There must be at least one `a` coefficient.")
    if a[0] == 0:
        raise ValueError("First `a` filter coefficient must be non-zero.")
    if len(b) < 1:
        raise ValueError("There must be at least one `b` coefficient.")
    given = [v.reshape(1) if v.ndim == 0 else v for v in (x, y) if v is not None]
    if not given:
        return None
    dtype = numpy.result_type(numpy.float64, *(v.dtype for v in given))
    axis = normalize_axis_index(operator.index(axis), given[-1].ndim)
    rest = [v.shape[:axis] + v.shape[axis + 1 :] for v in given]
    if len(rest) == 2 and rest[0] != rest[1]:
        raise ValueError(
            f"y and x must have the same shape but along axis {axis}, got {y.shape} and {x.shape}"
        )
    parts = []
    for order, values in ((len(b) - 1, x), (len(a) - 1, y)):
        shape = rest[-1][:axis] + (order,) + rest[-1][axis:]
        part = _creation.zeros(shape, dtype)
        if values is not None:
            values = values.reshape(1) if values.ndim == 0 else values
            used = min(order, values.shape[axis])  # the latest `used` values, oldest first
            if used:
                _manipulation.copyto(
                    _along(part, axis, order - used, order), _along(values, axis, used - 1, None, -1)
                )
        parts.append(part)
    return _joining.concatenate(parts, axis=axis)


def _dc_gain(b, a):
    total = a.sum()
    if total == 0:
        raise numpy.linalg.LinAlgError(
            "Singular matrix"
        )  # SciPy's solve's: a pole at z = 1 has no steady state
    return b.sum() / total


def past_lfilter_zi(b, a):
    """CuPy's lfilter_zi: the past of the step response at its steady state (Note [CuPy's initial conditions]):
    len(b) - 1 inputs of one, then len(a) - 1 outputs of the DC gain, in float64 or complex128."""
    b, a = atleast_1d(b), atleast_1d(a)
    if b.ndim != 1:
        raise ValueError("Numerator b must be 1-D.")
    if a.ndim != 1:
        raise ValueError("Denominator a must be 1-D.")
    if a.size < 1 or not a.any():
        raise ValueError("There must be at least one nonzero `a` coefficient.")
    dtype = numpy.result_type(numpy.float64, b, a)
    zi = numpy.ones(len(b) + len(a) - 2, dtype)
    zi[len(b) - 1 :] = _dc_gain(b.astype(dtype), a.astype(dtype))
    return zi


def past_sosfilt_zi(sos):
    """CuPy's sosfilt_zi: for each section, the past of the step response at its steady state, x[-2], x[-1],
    y[-2], y[-1] (Note [CuPy's initial conditions]): its input the product of the DC gains of the sections
    before it, its output that times its own gain; in sos's floating type (float64 for integers)."""
    sos = numpy.asarray(sos)
    if sos.ndim != 2 or sos.shape[1] != 6:
        raise ValueError("sos must be shape (n_sections, 6)")
    if sos.dtype.kind in "biu":
        sos = sos.astype(numpy.float64)
    zi = numpy.empty((sos.shape[0], 4), sos.dtype)
    level = sos.dtype.type(1)
    for s, section in enumerate(sos):
        zi[s, :2] = level
        level = level * _dc_gain(section[:3], section[3:])
        zi[s, 2:] = level
    return zi


lfilter_zi = on_host(past_lfilter_zi, "lfilter_zi")
sosfilt_zi = on_host(past_sosfilt_zi, "sosfilt_zi")


def sosfilt(sos, x, axis=-1, zi=None):
    """Filters `x` along `axis` through the cascade of second-order sections `sos`; returns y, or (y, zf) where
    `zi` is given, CuPy's: shape (n_sections, ..., 4, ...), each section's x[-2], x[-1], y[-2], y[-1] at `axis`
    (Note [CuPy's initial conditions]). The result type is that of sos and x (_result_type)."""
    if zi is None:
        return sosfilt_state(sos, x, axis)
    require_device(x, zi)
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    sos, n_sections = validate_sos(host(sos))
    given_axis = axis
    axis = normalize_axis_index(operator.index(axis), x.ndim)
    zi_shape = (n_sections,) + x.shape[:axis] + (4,) + x.shape[axis + 1 :]
    dtype = _result_type((sos,), x, zi)
    if dtype.char not in "fdFD":
        raise NotImplementedError(f"input type '{dtype}' not supported")
    if zi.shape != zi_shape:
        raise ValueError(
            f"Invalid zi shape. With axis={given_axis!r}, an input with shape {x.shape!r}, and an sos array with "
            f"{n_sections} sections, zi must have shape {zi_shape!r}, got {zi.shape!r}: each section's x[-2], "
            "x[-1], y[-2], y[-1] at the axis (CuPy's form)."
        )
    rest = x.shape[:axis] + x.shape[axis + 1 :]
    past = moved_copy(zi, axis + 1, 1, dtype)  # (section, 4, signals...), updated to zf by the kernel
    delays = _creation.empty((n_sections, 2) + rest, dtype)
    y = run_kernel("cuarray_sosfilt_past", x, axis, dtype, (delays, past), n_sections, sos.astype(dtype))
    return y, ascontiguousarray(_manipulation.moveaxis(past, 1, axis + 1))
