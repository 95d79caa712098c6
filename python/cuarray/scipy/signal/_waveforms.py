"""SciPy's waveforms on device arrays: chirp, sawtooth, square, gausspulse, sweep_poly, unit_impulse and
max_len_seq. Times (and sawtooth's width, square's duty) may be device arrays, host arrays, sequences or
scalars: CuPy's take them through cupy.asarray, and so do these; results are device arrays (0-d for a scalar
time, as CuPy's), except gausspulse('cutoff'), a host scalar as in SciPy and CuPy.

Note [Waveforms as SciPy's expressions]
The waveforms are SciPy's own expressions, evaluated term by term with cuarray's ufuncs, which promote as
NumPy's do (Python numbers weakly, NumPy scalars and 0-d arrays strongly). So the dtypes and the precision of
each term are SciPy's: a float32 time gives chirp a float32 phase that SciPy then adds to the float64 np.deg2rad
of phi, so float64 results computed as SciPy computes them. CuPy's kernels compute in the time's own type
instead, so they differ from SciPy for float32 times. sawtooth and square pick their pieces with `where` over
whole arrays where SciPy places each piece's elements: the values are the same, and device arithmetic raises no
floating-point warnings for the pieces not taken.

Note [Maximum length sequences]
The shift register is serial: one device thread steps it `length` times. For up to 64 bits the register is one
64-bit integer, its bit k the register's k-th element: each step emits bit 0, XORs it with the parity of the
tapped bits (a tap t reads element t % nbits, as SciPy's ring buffer does; taps that coincide cancel, so the tap
mask is their XOR) and shifts the result in at the top. Longer registers step SciPy's ring buffer itself in
device memory. The arguments are checked on the host, in SciPy's order, before anything touches the device.
"""

import numpy

import cuarray as cp
from cuarray._ndarray import ndarray
from cuarray.scipy.signal._iir_forms import device_input, host

__all__ = ["chirp", "gausspulse", "max_len_seq", "sawtooth", "square", "sweep_poly", "unit_impulse"]

_pi = numpy.pi


def _periodic(t, width):
    """(w, tmod, rising, invalid): SciPy's broadcast w, t modulo 2*pi, where the wave is in its first
    part (tmod < w * 2 * pi) and where w lies outside [0, 1]."""
    t = device_input(t)
    if t.dtype.kind == "b":
        t - t  # NumPy's TypeError for a boolean subtract, as SciPy's raises
    # Note [Waveform dtypes]: a Python number promotes weakly, anything else by its dtype.
    like = width if type(width) in (bool, int, float) else device_input(width).dtype
    dtype = numpy.result_type(t.dtype, like)
    if dtype.kind not in "fc":
        dtype = numpy.dtype(numpy.float64)
    t, w = t.astype(dtype, copy=False), device_input(width).astype(dtype, copy=False)
    w = w + (t - t)  # SciPy's broadcasting of the two
    t = t + (w - w)
    invalid = (w > 1) | (w < 0)
    tmod = cp.mod(t, 2 * _pi)
    rising = ~invalid & (tmod < w * 2 * _pi)
    return w, tmod, rising, invalid


# Note [Waveform dtypes]
# sawtooth and square compute in the type t and the width promote to (NumPy's rules, a Python number weakly), at
# least a floating one: a float32 or float16 time stays so, as in SciPy 1.18 and CuPy (SciPy 1.17 gave float64
# always); integer times with Python or integer widths give float64.
def sawtooth(t, width=1):
    """A sawtooth of period 2*pi rising from -1 to 1 over [0, width*2*pi) and falling back over the rest
    (width=0.5 a triangle), NaN where width is outside [0, 1] (Note [Waveform dtypes])."""
    w, tmod, rising, invalid = _periodic(t, width)
    up = tmod / (_pi * w) - 1
    down = (_pi * (w + 1) - tmod) / (_pi * (1 - w))
    return cp.where(invalid, numpy.nan, cp.where(rising, up, down)).astype(tmod.dtype, copy=False)


def square(t, duty=0.5):
    """A square wave of period 2*pi: 1 over [0, duty*2*pi), -1 over the rest, NaN where duty is outside [0, 1]
    (Note [Waveform dtypes])."""
    _, tmod, rising, invalid = _periodic(t, duty)
    return cp.where(invalid, numpy.nan, cp.where(rising, 1.0, -1.0)).astype(tmod.dtype, copy=False)


def gausspulse(t, fc=1000, bw=0.5, bwr=-6, tpr=-60, retquad=False, retenv=False):
    """The Gaussian-modulated sinusoid exp(-a t**2) cos(2 pi fc t) (with retquad its sine part, with retenv the
    envelope, in that order after it); for t='cutoff' the time (a host scalar) where the envelope falls to tpr
    dB."""
    if fc < 0:
        raise ValueError(f"Center frequency (fc={fc:.2f}) must be >=0.")
    if bw <= 0:
        raise ValueError(f"Fractional bandwidth (bw={bw:.2f}) must be > 0.")
    if bwr >= 0:
        raise ValueError(f"Reference level for bandwidth (bwr={bwr:.2f}) must be < 0 dB")
    # exp(-a t^2) has the spectrum sqrt(pi/a) exp(-pi^2 f^2 / a), which falls to `ref` at f = fc * bw / 2.
    ref = pow(10.0, bwr / 20.0)
    a = -((_pi * fc * bw) ** 2) / (4.0 * numpy.log(ref))  # a NumPy float64, as SciPy's (it promotes strongly)
    if isinstance(t, str):
        if t != "cutoff":
            raise ValueError("If `t` is a string, it must be 'cutoff'")
        if tpr >= 0:
            raise ValueError("Reference level for time cutoff must be < 0 dB")
        tref = pow(10.0, tpr / 20.0)
        return numpy.sqrt(-numpy.log(tref) / a)
    t = device_input(t)
    yenv = cp.exp(-a * t * t)
    yI = yenv * cp.cos(2 * _pi * fc * t)
    if not retquad:
        return (yI, yenv) if retenv else yI
    yQ = yenv * cp.sin(2 * _pi * fc * t)
    return (yI, yQ, yenv) if retenv else (yI, yQ)


def chirp(t, f0, t1, f1, method="linear", phi=0, vertex_zero=True, *, complex=False):
    """cos(phase + phi in radians) (exp(1j * ...) with complex=True), phase the integral of 2 pi f(t) for a
    frequency sweeping from f0 at t=0 to f1 at t1 as `method` says: 'linear', 'quadratic' (its vertex at 0, or
    at t1 where vertex_zero is false), 'logarithmic' or 'hyperbolic'."""
    phase = _chirp_phase(t, f0, t1, f1, method, vertex_zero)
    phase = phase + (cp.deg2rad(phi) if isinstance(phi, ndarray) else _on_host_radians(phi))
    return cp.exp(1j * phase) if complex else cp.cos(phase)


def _on_host_radians(phi):
    """NumPy's deg2rad of a host phi: a NumPy scalar (float64 for a Python number, as SciPy's); a host array of
    them copied to the device."""
    r = numpy.deg2rad(phi)
    return cp.asarray(r) if isinstance(r, numpy.ndarray) else r


def _chirp_phase(t, f0, t1, f1, method, vertex_zero):
    """SciPy's _chirp_phase; its checks come before t goes to the device."""
    f0, t1, f1 = float(f0), float(t1), float(f1)
    if method in ["linear", "lin", "li"]:
        beta = (f1 - f0) / t1
        t = device_input(t)
        return 2 * _pi * (f0 * t + 0.5 * beta * t * t)
    if method in ["quadratic", "quad", "q"]:
        beta = (f1 - f0) / (t1**2)
        t = device_input(t)
        if vertex_zero:
            return 2 * _pi * (f0 * t + beta * t**3 / 3)
        return 2 * _pi * (f1 * t + beta * ((t1 - t) ** 3 - t1**3) / 3)
    if method in ["logarithmic", "log", "lo"]:
        if f0 * f1 <= 0.0:
            raise ValueError("For a logarithmic chirp, f0 and f1 must be nonzero and have the same sign.")
        t = device_input(t)
        if f0 == f1:
            return 2 * _pi * f0 * t
        beta = t1 / numpy.log(f1 / f0)  # a NumPy float64, as SciPy's
        return 2 * _pi * beta * f0 * (pow(f1 / f0, t / t1) - 1.0)
    if method in ["hyperbolic", "hyp"]:
        if f0 == 0 or f1 == 0:
            raise ValueError("For a hyperbolic chirp, f0 and f1 must be nonzero.")
        t = device_input(t)
        if f0 == f1:
            return 2 * _pi * f0 * t
        sing = -f1 * t1 / (f0 - f1)  # where the instantaneous frequency blows up
        return 2 * _pi * (-sing * f0) * cp.log(cp.abs(1 - t / sing))
    raise ValueError(
        f"method must be 'linear', 'quadratic', 'logarithmic', or 'hyperbolic', but a value of {method!r} was "
        "given."
    )


def sweep_poly(t, poly, phi=0):
    """cos(phase + phi in radians), phase the integral from 0 to t of 2 pi poly(t); poly is a coefficient
    sequence (highest power first, device or host) or a poly1d (cuarray's or NumPy's)."""
    if isinstance(poly, cp.poly1d):
        poly = poly.coeffs
    # The antiderivative's few coefficients on the host (float64 or complex128, as NumPy's polyint gives them).
    intpoly = numpy.asarray(numpy.polyint(host(poly)))
    t = device_input(t)
    y = cp.zeros_like(t)  # NumPy's polyval, Horner's rule with NumPy scalar coefficients, so its dtypes
    for pv in intpoly:
        y = y * t + pv
    phi *= _pi / 180
    return cp.cos(2 * _pi * y + phi)


def unit_impulse(shape, idx=None, dtype=float):
    """Zeros of `shape` and `dtype` with a 1 at `idx` (an index per axis, one index for all axes, None for 0, or
    'mid' for shape // 2)."""
    out = cp.zeros(shape, dtype)
    shape = numpy.atleast_1d(shape)
    if idx is None:
        idx = (0,) * len(shape)
    elif idx == "mid":
        idx = tuple(shape // 2)
    elif not hasattr(idx, "__iter__"):
        idx = (idx,) * len(shape)
    out[idx] = 1
    return out


# SciPy's taps of each register length: the first option of each in SciPy's source's table.
_mls_taps = {
    2: [1], 3: [2], 4: [3], 5: [3], 6: [5], 7: [6], 8: [7, 6, 1], 9: [5], 10: [7], 11: [9], 12: [11, 10, 4],
    13: [12, 11, 8], 14: [13, 12, 2], 15: [14], 16: [15, 13, 4], 17: [14], 18: [11], 19: [18, 17, 14], 20: [17],
    21: [19], 22: [21], 23: [18], 24: [23, 22, 17], 25: [22], 26: [25, 24, 20], 27: [26, 25, 22], 28: [25],
    29: [27], 30: [29, 28, 7], 31: [28], 32: [31, 30, 10],
}  # fmt: skip

# Note [Maximum length sequences]: the register in one integer (up to 64 bits), or SciPy's ring buffer.
_MLS_BODY = """
unsigned long long s = state;
for (long long k = 0; k < length; ++k) {
    const unsigned long long out = s & 1ull;
    seq[k] = (signed char)out;
    s = (s >> 1) | ((out ^ (unsigned long long)(__popcll(s & mask) & 1)) << top);
}
state = s;
"""
_MLS_RING_BODY = """
int head = 0;
for (long long k = 0; k < length; ++k) {
    signed char feedback = state[head];
    seq[k] = feedback;
    for (int j = 0; j < ntaps; ++j) {
        const int at = taps[j] + head;
        feedback ^= state[at >= nbits ? at - nbits : at];
    }
    state[head] = feedback;
    head = head + 1 == nbits ? 0 : head + 1;
}
"""
_mls_kernels = {}


def _mls_kernel(ring):
    """The register kernel (ring=False) or the ring buffer's, made on first use."""
    k = _mls_kernels.get(ring)
    if k is None:
        from cuarray._kernel import ElementwiseKernel

        if ring:
            k = ElementwiseKernel(
                "raw int32 taps, int32 ntaps, int32 nbits, int64 length",
                "raw int8 seq, raw int8 state",
                _MLS_RING_BODY,
                "cuarray_max_len_seq_ring",
            )
        else:
            k = ElementwiseKernel(
                "uint64 mask, int32 top, int64 length",
                "raw int8 seq, uint64 state",
                _MLS_BODY,
                "cuarray_max_len_seq",
            )
        _mls_kernels[ring] = k
    return k


def max_len_seq(nbits, state=None, length=None, taps=None):
    """(seq, state): `length` (2**nbits - 1 by default) outputs of the nbits-bit linear feedback shift register
    with `taps` (SciPy's for nbits 2 to 32 by default) from `state` (all ones by default), and the register's
    final state; both int8 device arrays of 0s and 1s."""
    taps, state, length = _mls_arguments(nbits, state, length, taps)
    seq = cp.empty(length, dtype=numpy.int8)
    if nbits <= 64:
        bits = cp.asarray(numpy.array([_packed(state)], numpy.uint64))
        if length:
            top = numpy.int32(nbits - 1)
            _mls_kernel(False)(numpy.uint64(_tap_mask(taps, nbits)), top, numpy.int64(length), seq, bits)
        shifts = cp.arange(nbits, dtype=numpy.uint64)
        return seq, ((bits >> shifts) & numpy.uint64(1)).astype(numpy.int8)
    state = cp.asarray(state)
    if length:
        taps = cp.asarray(taps.astype(numpy.int32))
        _mls_kernel(True)(
            taps, numpy.int32(taps.size), numpy.int32(nbits), numpy.int64(length), seq, state, size=1
        )
    return seq, cp.roll(state, -(length % nbits))  # the ring's head back at element 0, as SciPy returns it


def _mls_arguments(nbits, state, length, taps):
    """SciPy's checks and conversions, in its order, on the host: (taps, state, length), taps an int64 array in
    descending order and state an int8 array of 0s and 1s."""
    if taps is None:
        if nbits not in _mls_taps:
            raise ValueError(f"nbits must be between {min(_mls_taps)} and {max(_mls_taps)} if taps is None")
        taps = numpy.array(_mls_taps[nbits], numpy.int64)
    else:
        taps = numpy.unique(numpy.array(host(taps), numpy.int64))[::-1]
        if numpy.any(taps < 0) or numpy.any(taps > nbits) or taps.size < 1:
            raise ValueError("taps must be non-empty with values between zero and nbits (inclusive)")
    if length is None:
        length = (2**nbits) - 1
    else:
        length = int(length)
        if length < 0:
            raise ValueError("length must be greater than or equal to 0")
    if state is None:
        state = numpy.ones(nbits, dtype=numpy.int8, order="c")
    else:
        state = numpy.array(host(state), dtype=bool, order="c").astype(numpy.int8)  # 0s and 1s, as SciPy's
    if state.ndim != 1 or state.size != nbits:
        raise ValueError("state must be a 1-D array of size nbits")
    if numpy.all(state == 0):
        raise ValueError("state must not be all zeros")
    return taps, state, length


def _tap_mask(taps, nbits):
    """The register kernel's tap mask: bit t % nbits for each tap, coinciding taps cancelling (their XOR)."""
    mask = 0
    for t in taps.tolist():
        mask ^= 1 << (t % nbits)
    return mask


def _packed(state):
    """A register of up to 64 bits as one integer, element k its bit k."""
    return sum(int(b) << k for k, b in enumerate(state.tolist()))
