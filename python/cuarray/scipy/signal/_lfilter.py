"""SciPy's linear filtering on device arrays, its states in SciPy's form (the delays of the direct form II
transposed): lfilter_state, lfiltic_state, lfilter_zi_state, sosfilt_state and sosfilt_zi_state, and the
filtering kernels. filtfilt and sosfiltfilt (_filtfilt.py) run on them; the public lfilter, lfiltic,
lfilter_zi, sosfilt and sosfilt_zi (_lfilter_past.py) take and give CuPy's states, the filter's past inputs
and outputs, and turn them into these (Note [CuPy's initial conditions] there).
Signals (x, zi, and lfiltic's y and x) must be device arrays, as for the convolutions; coefficients (b, a, sos)
may be device arrays, host arrays or Python sequences: they are read on the host, where the steady states are
solved (Note [Filter design on the host] in _iir_forms.py)."""

import math
import operator

import numpy
from numpy.lib.array_utils import normalize_axis_index

from cuarray import _creation, _manipulation
from cuarray._products import tensordot
from cuarray._transfer import asarray as _to_device
from cuarray._transfer import ascontiguousarray
from cuarray.scipy.signal._convolve import convolve, require_device
from cuarray.scipy.signal._iir_forms import atleast_1d, host, validate_sos
from cuarray.scipy.signal._kernel_table import KernelTable

# Note [Serial filtering kernels]
# A recursive filter's output at time t needs its output at t - 1, so lfilter and sosfilt run SciPy's loops as
# they are: one thread per independent 1-D signal, stepping through time (lfilter's direct form II transposed,
# sosfilt's cascade of sections, sample by sample), its state in the (delay, signal) array that the call returns
# as zf. The signals are laid out time-major, (time, signal), so that the threads of a warp read and write
# neighbouring addresses at each step. Many signals fill the device; but one signal of n samples is n dependent
# steps of a single thread, each a round trip of its state through the cache: slower than SciPy's loop on one CPU
# core. A parallel linear-recurrence scan (CuPy's blocked method, after Maleki and Burtscher 2018) would spread one
# signal over the device, with its own rounding; it is not done. A pure FIR filter
# (len(a) == 1) has no recurrence and goes through cuarray.scipy.signal.convolve, whose sums agree with SciPy's
# (NumPy's convolve) only to rounding.
#
# Note [Filtering as SciPy rounds]
# lfilter's recursion (len(a) > 1) and sosfilt give SciPy 1.17's values bit for bit, in float32, float64,
# complex64 and complex128, for finite values. filtfilt ('pad') and sosfiltfilt over them add exact steps and
# single roundings, and start from a steady state solved by SciPy's own NumPy call on the host, which a BLAS may
# round differently in its last bit from one copy of the matrix to another: their values are SciPy's to a few
# units in the last place. For
# that, each line of the kernels is the line of SciPy's loop (_lfilter.cc's filt and cmplx_filt,
# _sosfilt.pyx's _sosfilt_float) with its operands in the same order, evaluated left to right as C does; and
# the kernels are compiled with -fmad=false, which makes NVRTC round each product on its own (mul.rn in the
# PTX, which ptxas does not fuse either) where it would fuse it with the sum that follows into one FMA: SciPy's
# loops round twice (its x86-64 wheels target a baseline without FMA instructions; a SciPy built to contract
# them would itself differ from these). The differences that fusing makes grow along a recursion: 2e-7
# relative in float64 after 2 10^5 samples of an order-12 band-pass filter. Division is IEEE's and subnormals
# are kept (NVRTC's defaults, -prec-div=true and -ftz=false), as on the CPU.
# The rest is as SciPy prepares it: the signal, zi and the coefficients cast to the result type (b and a
# padded with zeros to the same length; a[0] refused where its bytes are zero, so -0.0 passes, as SciPy's
# memcmp lets it); for real types b and a divided by a[0] once, in that type (filt's normalisation); for
# complex types cmplx_filt keeps b and a and divides each product by |a[0]|^2 instead, (c conj(a[0])) x /
# |a[0]|^2, with c conj(a[0]) and |a[0]|^2 computed on the host in the real type as cmplx_filt computes them
# (NumPy rounds each operation, as C does). Complex products are written out in real and imaginary parts,
# C99's (ac - bd) + (ad + bc)i, which is what SciPy's complex types compute for finite values (C99 recovers
# some infinities from NaN products; these kernels do not). sosfilt casts `sos` to the result type, so a
# complex signal multiplies by complex coefficients with zero imaginary parts, as SciPy's does. The tests
# compare with SciPy exactly (tests/signal/test_iir.py), and check the kernels' PTX for unfused, rounded
# operations (test_iir_nogpu.py).
_LFILTER = (
    "raw T x, raw T b, raw T a, int64 length, int64 signals, int64 order",
    "raw T y, raw T z",
    """
    for (long long t = 0; t < length; ++t) {
        const T xn = x[t * signals + i];
        const T yn = z[i] + b[0] * xn;
        for (long long k = 1; k < order; ++k) {
            z[(k - 1) * signals + i] = z[k * signals + i] + b[k] * xn - a[k] * yn;
        }
        z[(order - 1) * signals + i] = b[order] * xn - a[order] * yn;
        y[t * signals + i] = yn;
    }
    """,
)
# A complex signal as its (real, imaginary) pairs, T their real type; b and a hold c conj(a[0]) for every
# coefficient c, as pairs, and mag |a[0]|^2 (cmplx_filt's tmpr, tmpi and a0_mag).
_LFILTER_COMPLEX = (
    "raw T x, raw T b, raw T a, T mag, int64 length, int64 signals, int64 order",
    "raw T y, raw T z",
    """
    for (long long t = 0; t < length; ++t) {
        const long long at = 2 * (t * signals + i);
        const T xr = x[at], xi = x[at + 1];
        const T yr = z[2 * i] + (b[0] * xr - b[1] * xi) / mag;
        const T yi = z[2 * i + 1] + (b[1] * xr + b[0] * xi) / mag;
        for (long long k = 1; k <= order; ++k) {
            const long long d = 2 * ((k - 1) * signals + i);  // delay k - 1, which takes delay k's
            T zr = (b[2 * k] * xr - b[2 * k + 1] * xi) / mag;
            T zi = (b[2 * k + 1] * xr + b[2 * k] * xi) / mag;
            if (k < order) {
                zr = z[d + 2 * signals] + zr;
                zi = z[d + 2 * signals + 1] + zi;
            }
            z[d] = zr - (a[2 * k] * yr - a[2 * k + 1] * yi) / mag;
            z[d + 1] = zi - (a[2 * k + 1] * yr + a[2 * k] * yi) / mag;
        }
        y[at] = yr;
        y[at + 1] = yi;
    }
    """,
)
# The cascade of sections, sample by sample; /*AFTER_SECTION*/ is where sosfilt from a past keeps its values.
_SOSFILT_LOOP = """
    for (long long t = 0; t < length; ++t) {
        T cur = x[t * signals + i];
        for (long long s = 0; s < sections; ++s) {
            const long long z0 = 2 * s * signals + i, z1 = z0 + signals;
            const T next = sos[6 * s] * cur + z[z0];
            z[z0] = sos[6 * s + 1] * cur - sos[6 * s + 4] * next + z[z1];
            z[z1] = sos[6 * s + 2] * cur - sos[6 * s + 5] * next;
            /*AFTER_SECTION*/
            cur = next;
        }
        y[t * signals + i] = cur;
    }
"""
_SOSFILT = (
    "raw T x, raw T sos, int64 length, int64 signals, int64 sections",
    "raw T y, raw T z",
    _SOSFILT_LOOP,
)
# The same with complex signal, state and sections as (real, imaginary) pairs of type T.
_SOSFILT_COMPLEX_LOOP = """
    for (long long t = 0; t < length; ++t) {
        const long long at = 2 * (t * signals + i);
        T cr = x[at], ci = x[at + 1];
        for (long long s = 0; s < sections; ++s) {
            const long long z0 = 2 * (2 * s * signals + i), z1 = z0 + 2 * signals, c = 12 * s;
            const T nr = (sos[c] * cr - sos[c + 1] * ci) + z[z0];
            const T ni = (sos[c] * ci + sos[c + 1] * cr) + z[z0 + 1];
            z[z0] = (sos[c + 2] * cr - sos[c + 3] * ci) - (sos[c + 8] * nr - sos[c + 9] * ni) + z[z1];
            z[z0 + 1] = (sos[c + 2] * ci + sos[c + 3] * cr) - (sos[c + 8] * ni + sos[c + 9] * nr) + z[z1 + 1];
            z[z1] = (sos[c + 4] * cr - sos[c + 5] * ci) - (sos[c + 10] * nr - sos[c + 11] * ni);
            z[z1 + 1] = (sos[c + 4] * ci + sos[c + 5] * cr) - (sos[c + 10] * ni + sos[c + 11] * nr);
            /*AFTER_SECTION*/
            cr = nr;
            ci = ni;
        }
        y[at] = cr;
        y[at + 1] = ci;
    }
"""
_SOSFILT_COMPLEX = (_SOSFILT[0], _SOSFILT[1], _SOSFILT_COMPLEX_LOOP)
# sosfilt from CuPy's state, h: (section, 4, signal), each section's x[-2], x[-1], y[-2], y[-1]. Each section's
# delays are first made from them as SciPy's lfiltic makes them (its sums in its order), then the cascade runs
# as _SOSFILT's, and the last two steps shift each section's input and output into h, which ends as zf.
_SOSFILT_PAST = (
    _SOSFILT[0],
    "raw T y, raw T z, raw T h",
    """
    for (long long s = 0; s < sections; ++s) {
        const long long h0 = 4 * s * signals + i, z0 = 2 * s * signals + i;
        const T x2 = h[h0], x1 = h[h0 + signals], y2 = h[h0 + 2 * signals], y1 = h[h0 + 3 * signals];
        z[z0] = (sos[6 * s + 1] * x1 + sos[6 * s + 2] * x2) - (sos[6 * s + 4] * y1 + sos[6 * s + 5] * y2);
        z[z0 + signals] = sos[6 * s + 2] * x1 - sos[6 * s + 5] * y1;
    }
    """
    + _SOSFILT_LOOP.replace(
        "/*AFTER_SECTION*/",
        """if (t + 2 >= length) {
                const long long h0 = 4 * s * signals + i;
                h[h0] = h[h0 + signals];
                h[h0 + signals] = cur;
                h[h0 + 2 * signals] = h[h0 + 3 * signals];
                h[h0 + 3 * signals] = next;
            }""",
    ),
)
# The same with complex values as (real, imaginary) pairs of type T; MUL_RE and MUL_IM are C99's products.
_SOSFILT_PAST_COMPLEX = (
    _SOSFILT[0],
    _SOSFILT_PAST[1],
    """
    #define MUL_RE(c, vr, vi) (sos[c] * (vr) - sos[(c) + 1] * (vi))
    #define MUL_IM(c, vr, vi) (sos[c] * (vi) + sos[(c) + 1] * (vr))
    for (long long s = 0; s < sections; ++s) {
        const long long h0 = 2 * (4 * s * signals + i), z0 = 2 * (2 * s * signals + i), c = 12 * s;
        const long long k = 2 * signals;  // from one of a section's four values to the next
        const T x2r = h[h0], x2i = h[h0 + 1], x1r = h[h0 + k], x1i = h[h0 + k + 1];
        const T y2r = h[h0 + 2 * k], y2i = h[h0 + 2 * k + 1], y1r = h[h0 + 3 * k], y1i = h[h0 + 3 * k + 1];
        z[z0] = (MUL_RE(c + 2, x1r, x1i) + MUL_RE(c + 4, x2r, x2i))
                - (MUL_RE(c + 8, y1r, y1i) + MUL_RE(c + 10, y2r, y2i));
        z[z0 + 1] = (MUL_IM(c + 2, x1r, x1i) + MUL_IM(c + 4, x2r, x2i))
                    - (MUL_IM(c + 8, y1r, y1i) + MUL_IM(c + 10, y2r, y2i));
        z[z0 + k] = MUL_RE(c + 4, x1r, x1i) - MUL_RE(c + 10, y1r, y1i);
        z[z0 + k + 1] = MUL_IM(c + 4, x1r, x1i) - MUL_IM(c + 10, y1r, y1i);
    }
    #undef MUL_RE
    #undef MUL_IM
    """
    + _SOSFILT_COMPLEX_LOOP.replace(
        "/*AFTER_SECTION*/",
        """if (t + 2 >= length) {
                const long long h0 = 2 * (4 * s * signals + i), k = 2 * signals;
                for (int part = 0; part < 2; ++part) {
                    h[h0 + part] = h[h0 + k + part];
                    h[h0 + 2 * k + part] = h[h0 + 3 * k + part];
                }
                h[h0 + k] = cr;
                h[h0 + k + 1] = ci;
                h[h0 + 3 * k] = nr;
                h[h0 + 3 * k + 1] = ni;
            }""",
    ),
)
_SOURCES = {
    "cuarray_lfilter": _LFILTER,
    "cuarray_lfilter_complex": _LFILTER_COMPLEX,
    "cuarray_sosfilt": _SOSFILT,
    "cuarray_sosfilt_complex": _SOSFILT_COMPLEX,
    "cuarray_sosfilt_past": _SOSFILT_PAST,
    "cuarray_sosfilt_past_complex": _SOSFILT_PAST_COMPLEX,
}
_OPTIONS = ("-fmad=false",)  # Note [Filtering as SciPy rounds]
_kernel = KernelTable(_SOURCES, _OPTIONS)


def moved_copy(a, source, destination, dtype):
    """A C-contiguous copy of `a` in `dtype` with axis `source` moved to `destination` (a copy: the kernels write
    their states in place)."""
    moved = _manipulation.moveaxis(a, source, destination)
    out = _creation.empty(moved.shape, dtype)
    _manipulation.copyto(out, moved)
    return out


def run_kernel(name, x, axis, dtype, states, order, *coefficients):
    """Runs a filtering kernel over the signals of `x` along `axis` (Note [Serial filtering kernels]); `states`,
    C-contiguous arrays each with its delays first and the signals after them, are updated in place. `coefficients`: host
    arrays of `dtype` or (for a complex `dtype`, whose kernels take complex values as pairs of reals) of its
    real type, and scalars. Returns y."""
    n = x.shape[axis]
    signals = math.prod(x.shape) // n if n else 0
    x = ascontiguousarray(_manipulation.moveaxis(x, axis, 0), dtype)
    y = _creation.empty(x.shape, dtype)
    if n and signals:
        pairs = dtype.kind == "c"
        real = numpy.empty(0, dtype).real.dtype

        def flat(a):  # a contiguous array, complex ones as their (real, imaginary) pairs: views of its memory
            return a.reshape(-1).view(real) if pairs else a.reshape(-1)

        coefficients = [
            _to_device(_as_real(c, real)) if isinstance(c, numpy.ndarray) else c for c in coefficients
        ]
        args = [flat(x), *coefficients, n, signals, order, flat(y), *map(flat, states)]
        _kernel(name + "_complex" if pairs else name)(*args, size=signals)
    return ascontiguousarray(_manipulation.moveaxis(y, 0, axis))


def _as_real(c, real):
    """Host coefficients `c` flat in the type `real`, complex ones as their (real, imaginary) pairs."""
    c = numpy.ascontiguousarray(c).reshape(-1)
    return c.view(real) if c.dtype.kind == "c" else c.astype(real, copy=False)


def zi_mismatch(zi_shape, expected, axis):
    return any(z != e and (k == axis or z != 1) for k, (z, e) in enumerate(zip(zi_shape, expected)))


def coefficients(b, a):
    b, a = atleast_1d(host(b)), atleast_1d(host(a))
    if not (b.ndim == 1 and b.size > 0):
        raise ValueError(f"Parameter b is not a non-empty 1d array, since {b.shape=}!")
    if not (a.ndim == 1 and a.size > 0):
        raise ValueError(f"Parameter a is not a non-empty 1d array, since {a.shape=}!")
    return b, a


def lfilter_state(b, a, x, axis=-1, zi=None):
    """SciPy's lfilter: filters `x` along `axis` with the IIR or FIR filter b/a (divided by a[0]), from SciPy's
    state `zi` (max(len(a), len(b)) - 1 delays along `axis`); returns y, or (y, zf) where zi is given. The
    result type is that of b, a, x and zi together, which must be floating or complex (SciPy's
    NotImplementedError)."""
    require_device(x, *([] if zi is None else [zi]))
    b, a = coefficients(b, a)
    if len(a) == 1:
        return _fir(b, a, x, axis, zi)
    dtype = numpy.result_type(b, a, x.dtype, *([] if zi is None else [zi.dtype]))
    if dtype.char not in "fdFD":
        raise NotImplementedError(f"input type '{dtype}' not supported")
    axis = operator.index(axis)
    if not -x.ndim <= axis < x.ndim:
        raise ValueError("selected axis is out of range")
    axis %= x.ndim
    # SciPy's C loop: b and a cast to the result type and padded to order + 1; a[0] refused where its bytes are
    # zero there (so -0.0 is let through, as SciPy's memcmp does).
    order = max(len(a), len(b)) - 1
    coef = numpy.zeros((2, order + 1), dtype)
    coef[0, : len(b)], coef[1, : len(a)] = b, a
    if not coef[1, :1].view(numpy.uint8).any():
        raise ValueError("BUG: filter coefficient a[0] == 0 not supported yet")
    expected = x.shape[:axis] + (order,) + x.shape[axis + 1 :]
    if zi is not None:
        if zi.ndim != x.ndim:
            deep = "object too deep" if zi.ndim > x.ndim else "object of too small depth"
            raise ValueError(f"{deep} for desired array")
        if zi_mismatch(zi.shape, expected, axis):
            if x.ndim == 1:
                raise ValueError(f"Unexpected shape for zi: expected ({order},), found ({zi.shape[0]},).")
            shapes = (",".join(map(str, s)) for s in (expected, zi.shape))
            raise ValueError("Unexpected shape for zi:  expected ({}), found ({}).".format(*shapes))
    if zi is None:
        state = _creation.zeros((order,) + x.shape[:axis] + x.shape[axis + 1 :], dtype)
    else:
        state = moved_copy(_manipulation.broadcast_to(zi, expected), axis, 0, dtype)
    y = run_kernel("cuarray_lfilter", x, axis, dtype, (state,), order, *_normalised(coef))
    if zi is None:
        return y
    return y, ascontiguousarray(_manipulation.moveaxis(state, 0, axis))


def _normalised(coef):
    """The coefficients (b and a, padded) as the kernels take them (Note [Filtering as SciPy rounds]): for real
    types divided by a[0] (filt's normalisation); for complex types c conj(a[0]) for each coefficient c, as
    (real, imaginary) pairs, then |a[0]|^2 (cmplx_filt's tmpr, tmpi and a0_mag), each in the real type with
    NumPy's operations, which round as C's do."""
    if coef.dtype.kind != "c":
        return coef[0] / coef[1, 0], coef[1] / coef[1, 0]
    a0r, a0i = coef[1, 0].real, coef[1, 0].imag
    pairs = numpy.empty(coef.shape + (2,), coef.real.dtype)
    pairs[..., 0] = coef.real * a0r + coef.imag * a0i
    pairs[..., 1] = coef.imag * a0r - coef.real * a0i
    return pairs[0], pairs[1], a0r * a0r + a0i * a0i


def _fir(b, a, x, axis, zi):
    """lfilter with a single `a`: SciPy's convolution of each signal with b / a[0], its checks and messages."""
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    dtypes = [b.dtype, a.dtype, x.dtype]
    taps = len(b) - 1
    if zi is not None:  # SciPy checks zi before the types, and the axis only through zi before them
        axis = normalize_axis_index(operator.index(axis), x.ndim)
        expected = x.shape[:axis] + (taps,) + x.shape[axis + 1 :]
        if zi.ndim != x.ndim:
            raise ValueError(
                f"Dimensions of parameters x and zi must match, but x.ndim={x.ndim}, zi.ndim={zi.ndim}!"
            )
        if zi_mismatch(zi.shape, expected, axis):
            raise ValueError(f"Unexpected shape for parameter zi: expected {expected}, found {zi.shape}.")
        dtypes.append(zi.dtype)
    dtype = numpy.result_type(*dtypes)
    if dtype.char not in "fdFD":
        raise NotImplementedError(
            f"Parameter's dtypes produced result type '{dtype}', which is not supported!"
        )
    axis = normalize_axis_index(operator.index(axis), x.ndim)
    n, lead = x.shape[axis], x.shape[:axis] + x.shape[axis + 1 :]
    if 0 in lead:  # SciPy's errors for empty inputs (NumPy's apply_along_axis and convolve)
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    if n == 0:
        raise ValueError("v cannot be empty")
    signals = math.prod(lead)
    rows = ascontiguousarray(_manipulation.moveaxis(x, axis, -1), dtype).reshape(signals, n)
    kernel = b.astype(dtype) / a.astype(dtype)[0]
    full = convolve(rows, _to_device(kernel.reshape(1, -1)), mode="full")  # (signals, n + taps)
    if zi is not None:
        zrows = moved_copy(_manipulation.broadcast_to(zi, expected), axis, -1, dtype)
        full[:, :taps] += zrows.reshape(signals, taps)

    def back(part, length):
        return ascontiguousarray(_manipulation.moveaxis(part.reshape(lead + (length,)), -1, axis))

    y = back(full[:, :n], n)
    return y if zi is None else (y, back(full[:, n:], taps))


def lfilter_zi_state(b, a):
    """The state of lfilter at the steady state of its step response (SciPy's lfilter_zi), solved on the host."""
    b = atleast_1d(b)
    if b.ndim != 1:
        raise ValueError("Numerator b must be 1-D.")
    a = atleast_1d(a)
    if a.ndim != 1:
        raise ValueError("Denominator a must be 1-D.")
    while len(a) > 1 and a[0] == 0.0:
        a = a[1:]
    if a.size < 1:
        raise ValueError("There must be at least one nonzero `a` coefficient.")
    if a[0] != 1.0:
        b, a = b / a[0], a / a[0]
    n = max(len(a), len(b))
    a = numpy.concatenate((a, numpy.zeros(n - len(a), a.dtype)))
    b = numpy.concatenate((b, numpy.zeros(n - len(b), b.dtype)))
    if n < 2:  # SciPy's error, from scipy.linalg.companion
        raise ValueError("The length of `a` along the last axis must be at least 2.")
    first = -a[1:] / (1.0 * a[0])
    companion = numpy.zeros((n - 1, n - 1), first.dtype)
    companion[0] = first
    companion[numpy.arange(1, n - 1), numpy.arange(n - 2)] = 1
    i_minus_a = numpy.asarray(numpy.eye(n - 1) - companion.T, dtype=numpy.result_type(a, b))
    return numpy.linalg.solve(i_minus_a, b[1:] - a[1:] * b[0])  # zi = A zi + B


def sosfilt_zi_state(sos):
    """sosfilt's state at the steady state of its step response: each section's, scaled by the DC gain of the
    sections before it (SciPy's sosfilt_zi)."""
    sos = numpy.asarray(sos)
    if sos.ndim != 2 or sos.shape[1] != 6:
        raise ValueError("sos must be shape (n_sections, 6)")
    if sos.dtype.kind in "biu":
        sos = sos.astype(numpy.float64)
    zi = numpy.empty((sos.shape[0], 2), dtype=sos.dtype)
    scale = 1.0
    for s, section in enumerate(sos):
        zi[s] = scale * lfilter_zi_state(section[:3], section[3:])
        scale *= section[:3].sum() / section[3:].sum()
    return zi


def lfiltic_state(b, a, y, x=None, axis=-1):
    """lfilter's initial state that gives the past outputs `y` (y[0] the latest) from the past inputs `x` (zero
    where not given), SciPy's lfiltic; N-D y and x hold them along `axis` (CuPy's argument)."""
    require_device(y, *([] if x is None else [x]))
    a, b = atleast_1d(host(a)), atleast_1d(host(b))
    if a.ndim > 1:
        raise ValueError("Filter coefficients `a` must be 1-D.")
    if b.ndim > 1:
        raise ValueError("Filter coefficients `b` must be 1-D.")
    N, M = len(a) - 1, len(b) - 1
    if N < 0:
        raise ValueError("There must be at least one `a` coefficient.")
    if a[0] == 0:
        raise ValueError("First `a` filter coefficient must be non-zero.")
    dtype = numpy.result_type(b, a, y.dtype, *([] if x is None else [x.dtype]))
    if dtype.kind in "biu":
        dtype = numpy.dtype(numpy.float64)
    y = y.reshape(1) if y.ndim == 0 else y
    axis = normalize_axis_index(operator.index(axis), y.ndim)
    zi = _creation.zeros((max(M, N),) + y.shape[:axis] + y.shape[axis + 1 :], dtype)
    # zi[m] = sum_j b[m + 1 + j] x[j] - sum_j a[m + 1 + j] y[j]: small matrices of the coefficients, times the
    # conditions (those past the filter's order are not read; missing ones are zeros).
    for coef, order, values, sign in ((b, M, x, 1), (a, N, y, -1)):
        if values is None:
            continue
        values = _manipulation.moveaxis(values.reshape(1) if values.ndim == 0 else values, axis, 0)
        used = min(order, values.shape[0])
        if used:
            j = numpy.arange(used)
            m = numpy.arange(zi.shape[0])[:, None]
            coef = coef.astype(dtype)  # before the sign: unsigned coefficients would not take it
            matrix = numpy.where(m + 1 + j <= order, coef[numpy.minimum(m + 1 + j, order)], 0) * sign
            zi = zi + tensordot(_to_device(matrix.astype(dtype)), values[:used].astype(dtype), axes=1)
    if a[0] != 1:
        zi = zi / a[0].item()
    return ascontiguousarray(_manipulation.moveaxis(zi, 0, axis))


def sosfilt_state(sos, x, axis=-1, zi=None):
    """SciPy's sosfilt: filters `x` along `axis` through the cascade of second-order sections `sos`, from SciPy's
    state `zi` (shape (n_sections, ..., 2, ...), the 2 at `axis`); returns y, or (y, zf) where zi is given."""
    require_device(x, *([] if zi is None else [zi]))
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    sos, n_sections = validate_sos(host(sos))
    given_axis = axis
    axis = normalize_axis_index(operator.index(axis), x.ndim)
    zi_shape = (n_sections,) + x.shape[:axis] + (2,) + x.shape[axis + 1 :]
    dtype = numpy.result_type(sos, x.dtype, *([] if zi is None else [zi.dtype]))
    if dtype.char not in "fdFD":
        raise NotImplementedError(f"input type '{dtype}' not supported")
    if zi is not None and zi.shape != zi_shape:
        raise ValueError(
            f"Invalid zi shape. With axis={given_axis!r}, an input with shape {x.shape!r}, and an sos array with "
            f"{n_sections} sections, zi must have shape {zi_shape!r}, got {zi.shape!r}."
        )
    # The state as (section, delay, signal...): the delays of section s are rows 2 s and 2 s + 1.
    rest = x.shape[:axis] + x.shape[axis + 1 :]
    if zi is None:
        state = _creation.zeros((n_sections, 2) + rest, dtype)
    else:
        state = moved_copy(zi, axis + 1, 1, dtype)
    # SciPy casts sos to the result type: complex sections with zero imaginary parts for a complex signal.
    y = run_kernel("cuarray_sosfilt", x, axis, dtype, (state,), n_sections, sos.astype(dtype))
    if zi is None:
        return y
    return y, ascontiguousarray(_manipulation.moveaxis(state, 1, axis + 1))
