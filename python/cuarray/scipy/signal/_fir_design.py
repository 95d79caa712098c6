"""SciPy's FIR filter design: firwin and firwin2 (window method) and firls (least squares), their coefficients
as float64 device arrays; and the Kaiser-window formulas kaiser_beta, kaiser_atten and kaiserord (Python
numbers, as SciPy's). The checks and the few band edges or gain points are host values; firls solves its small
system on the host, the other taps are computed on the device."""

import math

import numpy

import cuarray as cp
from cuarray.scipy.fft import irfft
from cuarray.scipy.signal.windows._windows import _host, get_window

_F8 = numpy.float64


def kaiser_beta(a):
    """The Kaiser window's beta for an attenuation of `a` dB (Oppenheim and Schafer's formula)."""
    if a > 50:
        return 0.1102 * (a - 8.7)
    if a > 21:
        return 0.5842 * (a - 21) ** 0.4 + 0.07886 * (a - 21)
    return 0.0


def kaiser_atten(numtaps, width):
    """The attenuation in dB of a Kaiser FIR filter of `numtaps` taps and transition `width` (a fraction of
    the Nyquist frequency): 2.285 (numtaps - 1) pi width + 7.95."""
    return 2.285 * (numtaps - 1) * numpy.pi * width + 7.95


def kaiserord(ripple, width):
    """(numtaps, beta) of a Kaiser-window FIR filter with `ripple` dB of deviation and transition `width`."""
    A = abs(ripple)
    if A < 8:
        raise ValueError(f"Requested maximum ripple attenuation {A:f} is too small for the Kaiser formula.")
    beta = kaiser_beta(A)
    numtaps = (A - 7.95) / 2.285 / (numpy.pi * width) + 1
    return math.ceil(numtaps), beta


def _fs(fs):
    """SciPy's sampling frequency: 2 by default, else one scalar, as a float."""
    if fs is None:
        return 2.0
    if not numpy.isscalar(fs):
        raise ValueError("Sampling frequency fs must be a single scalar.")
    return float(fs)


# Note [pass_zero's errors]
# SciPy raises ValueError("Parameter pass_zero=... not in (True, False, ...)") for any other pass_zero; CuPy
# raises ValueError('pass_zero must be True, False, "bandpass", ...') for another string and, for a value that
# is no string (1.0), the TypeError its arithmetic on it meets. Programs and tests written for either look for
# their own: the message is SciPy's with CuPy's words after it, and a pass_zero that is no string raises
# PassZeroTypeError, a ValueError (SciPy's) and a TypeError (CuPy's) at once, as NumPy's AxisError is both a
# ValueError and an IndexError. Only True and False themselves are accepted, as in SciPy (CuPy takes 1 and 0).
class PassZeroTypeError(ValueError, TypeError):
    """firwin's error for a pass_zero that is neither a bool nor a string (Note [pass_zero's errors])."""


# pass_zero's strings: (the value they stand for, how many cutoffs they need)
_PASS_ZERO = {
    "lowpass": (True, "one"),
    "bandstop": (True, "two"),
    "highpass": (False, "one"),
    "bandpass": (False, "two"),
}


def _pass_zero(pass_zero, size, shape):
    """pass_zero as True or False, after SciPy's checks of its string forms against the number of cutoffs."""
    if isinstance(pass_zero, str) and pass_zero in _PASS_ZERO:
        value, count = _PASS_ZERO[pass_zero]
        if count == "one" and size != 1:
            raise ValueError(f'cutoff must have one element if pass_zero=="{pass_zero}", got {shape}')
        if count == "two" and size <= 1:
            raise ValueError(
                f'cutoff must have at least two elements if pass_zero=="{pass_zero}", got {shape}'
            )
        return value
    if pass_zero is True or pass_zero is False:
        return pass_zero
    # Note [pass_zero's errors]
    message = (
        f"Parameter {pass_zero=} not in (True, False, 'bandpass', 'lowpass', 'highpass', 'bandstop'): "
        "pass_zero must be one of them"
    )
    raise (ValueError if isinstance(pass_zero, str) else PassZeroTypeError)(message)


# Note [firwin's arguments]
# SciPy 1.17 makes firwin's arguments after `cutoff` keyword-only; CuPy's firwin takes them by position too, in
# the same order. cuarray takes both, so that programs written for either run.
def firwin(numtaps, cutoff, width=None, window="hamming", pass_zero=True, scale=True, fs=None):
    """The `numtaps` coefficients of a linear-phase FIR filter by the window method: passbands between the
    band edges `cutoff` (in the units of `fs`, default 2), starting with one at 0 if `pass_zero`; `width`
    chooses a Kaiser window for that transition width in place of `window` (Note [firwin's arguments])."""
    nyq = 0.5 * _fs(fs)
    cutoff = numpy.atleast_1d(numpy.asarray(_host(cutoff), dtype=_F8)) / float(nyq)
    if cutoff.ndim > 1:
        raise ValueError("The cutoff argument must be at most one-dimensional.")
    if cutoff.size == 0:
        raise ValueError("At least one cutoff frequency must be given.")
    if cutoff.min() <= 0 or cutoff.max() >= 1:
        raise ValueError("Invalid cutoff frequency: frequencies must be greater than 0 and less than fs/2.")
    if numpy.any(cutoff[1:] - cutoff[:-1] <= 0):
        raise ValueError("Invalid cutoff frequencies: the frequencies must be strictly increasing.")
    if width is not None:
        window = ("kaiser", kaiser_beta(kaiser_atten(numtaps, float(width) / nyq)))
    pass_zero = _pass_zero(pass_zero, cutoff.size, cutoff.shape)
    pass_nyquist = (cutoff.size % 2 == 0) == pass_zero
    if pass_nyquist and numtaps % 2 == 0:
        raise ValueError(
            "A filter with an even number of coefficients must have zero response at the Nyquist frequency."
        )
    # Pad the edges with 0 and/or 1 so that they pair up into passbands (left, right).
    bands = numpy.concatenate((numpy.zeros(int(pass_zero)), cutoff, numpy.ones(int(pass_nyquist))))
    bands = bands.reshape(-1, 2).tolist()
    win = get_window(window, numtaps, fftbins=False)
    # The ideal response is a sum of sinc pulses, one pair for each passband.
    m = cp.arange(numtaps, dtype=_F8) - 0.5 * (numtaps - 1)
    h = cp.zeros(m.shape, dtype=_F8)
    for left, right in bands:
        h += right * cp.sinc(right * m)
        h -= left * cp.sinc(left * m)
    h *= win
    if scale:  # unit gain at 0, at the Nyquist frequency, or in the middle of the first passband
        left, right = bands[0]
        frequency = 0.0 if left == 0 else 1.0 if right == 1 else 0.5 * (left + right)
        h /= cp.sum(h * cp.cos(numpy.pi * m * frequency))
    return h


def _firwin2_type(numtaps, antisymmetric, gain):
    """The filter's type (I to IV), after SciPy's checks of the gains it requires to be zero."""
    ftype = (3 if numtaps % 2 else 4) if antisymmetric else (1 if numtaps % 2 else 2)
    if ftype == 2 and gain[-1] != 0.0:
        raise ValueError("A Type II filter must have zero gain at the Nyquist frequency.")
    if ftype == 3 and (gain[0] != 0.0 or gain[-1] != 0.0):
        raise ValueError("A Type III filter must have zero gain at zero and Nyquist frequencies.")
    if ftype == 4 and gain[0] != 0.0:
        raise ValueError("A Type IV filter must have zero gain at zero frequency.")
    return ftype


def _firwin2_freq(freq, nyq):
    """freq after SciPy's checks, each repeated value (a step in the gain) pulled apart by eps * nyq."""
    if freq[0] != 0 or freq[-1] != nyq:
        raise ValueError("freq must start with 0 and end with fs/2.")
    d = freq[1:] - freq[:-1]
    if numpy.any(d < 0):
        raise ValueError("The values in freq must be nondecreasing.")
    if numpy.any(d[:-1] + d[1:] == 0):
        raise ValueError("A value in freq must not occur more than twice.")
    if freq[1] == 0:
        raise ValueError("Value 0 must not be repeated in freq")
    if freq[-2] == nyq:
        raise ValueError("Value fs/2 must not be repeated in freq")
    if numpy.any(d == 0):
        freq = freq.copy()  # in its own dtype, as SciPy's: an integer freq cannot be pulled apart
        eps = numpy.finfo(_F8).eps * nyq
        for k in range(freq.shape[0] - 1):
            if freq[k] == freq[k + 1]:
                freq[k] = freq[k] - eps
                freq[k + 1] = freq[k + 1] + eps
        if numpy.any(freq[1:] - freq[:-1] <= 0):
            raise ValueError(
                f"freq cannot contain numbers that are too close (within eps * (fs/2): {eps}) to a repeated value"
            )
    return freq


def firwin2(numtaps, freq, gain, *, nfreqs=None, window="hamming", antisymmetric=False, fs=None):
    """The `numtaps` coefficients of a linear-phase FIR filter whose gain is `gain` at the frequencies
    `freq` (0 to fs/2, linearly interpolated between them on `nfreqs` points), by the window method."""
    freq, gain = _host(freq), _host(gain)
    nyq = 0.5 * _fs(fs)
    if freq.shape[0] != gain.shape[0]:
        raise ValueError("freq and gain must be of same length.")
    if nfreqs is not None and numtaps >= nfreqs:
        raise ValueError(
            f"ntaps must be less than nfreqs, but firwin2 was called with ntaps={numtaps} and nfreqs={nfreqs}"
        )
    freq = _firwin2_freq(freq, nyq)
    ftype = _firwin2_type(numtaps, antisymmetric, gain)
    if nfreqs is None:
        nfreqs = 1 + 2 ** math.ceil(math.log(numtaps, 2))  # noqa: FURB163  (SciPy's; log2 differs at 2**29)
    wind = get_window(window, numtaps, fftbins=False) if window is not None else 1  # its errors come first
    # The desired response on a uniform mesh (host interpolation between the few given points), its phase
    # shifted so that the first numtaps points of its inverse FFT are the filter.
    fx = cp.asarray(numpy.interp(numpy.linspace(0.0, nyq, nfreqs), freq, gain))
    x = cp.linspace(0.0, nyq, nfreqs, dtype=_F8)
    shift = cp.exp(-(numtaps - 1) / 2.0 * 1j * numpy.pi * x / nyq)
    if ftype > 2:
        shift *= 1j
    out = irfft(fx * shift)[:numtaps] * wind
    if ftype == 3:
        out[out.shape[0] // 2] = 0.0
    return out


def _cholesky_solve(Q, b):
    """Q a = b for a positive definite Q, by Cholesky's factors and two substitutions (SciPy's solve with
    assume_a='pos'); LinAlgError where Q is not positive definite (numerically singular)."""
    L = numpy.linalg.cholesky(Q)
    n = len(b)
    z = numpy.empty(n)
    for i in range(n):
        z[i] = (b[i] - L[i, :i] @ z[:i]) / L[i, i]
    a = numpy.empty(n)
    for i in reversed(range(n)):
        a[i] = (z[i] - L[i + 1 :, i] @ a[i + 1 :]) / L[i, i]
    return a


# Note [firls' solve]
# SciPy 1.17 solves firls' normal equations with scipy.linalg.solve(assume_a='pos') and, where that finds the
# matrix singular (its Cholesky factorisation fails), by least squares with LAPACK's gelsy. Without SciPy, the
# first is NumPy's Cholesky factorisation and two substitutions (the values agree to rounding), the second
# NumPy's lstsq (gelsd) with gelsy's rcond, eps: for such rank-deficient systems both find a minimum-norm
# solution, but their ranks may differ, so the taps differ from SciPy's while their responses agree (SciPy's own
# tests of these cases compare responses). SciPy 1.17's check for an ill-conditioned matrix no longer matches the
# warning its solve gives, so such a matrix keeps the Cholesky solution, as here. firls' other arguments after
# `desired` are SciPy's keyword-only ones, also taken by position (weight, then fs) as CuPy's take them.
def firls(numtaps, bands, desired, weight=None, fs=None):
    """The `numtaps` (odd) coefficients of the linear-phase FIR filter whose response is closest, in weighted
    least squares, to the gains `desired` that change linearly across each band of `bands` (pairs of edges in
    the units of `fs`, default 2); `weight`: one weight a band (Note [firls' solve])."""
    return cp.asarray(_firls(numtaps, bands, desired, weight, fs))


def _firls(numtaps, bands, desired, weight=None, fs=None):
    """firls' coefficients as a host array."""
    bands, desired = _host(bands), _host(desired)
    nyq = 0.5 * _fs(fs)
    numtaps = int(numtaps)
    if numtaps % 2 == 0 or numtaps < 1:
        raise ValueError("numtaps must be odd and >= 1")
    M = (numtaps - 1) // 2
    if nyq <= 0:
        raise ValueError(f"nyq must be positive, got {nyq} <= 0.")
    bands = bands.flatten() / nyq  # 0 to 1, as (start, stop) rows
    if len(bands) % 2 != 0:
        raise ValueError("bands must contain frequency pairs.")
    if (bands < 0).any() or (bands > 1).any():
        raise ValueError("bands must be between 0 and 1 relative to Nyquist")
    bands = bands.reshape((-1, 2))
    desired = desired.flatten()
    if bands.size != desired.size:
        raise ValueError(
            f"desired must have one entry per frequency, got {desired.size} gains for {bands.size} frequencies."
        )
    desired = desired.reshape((-1, 2))
    if (numpy.diff(bands) <= 0).any() or (numpy.diff(bands[:, 0]) < 0).any():
        raise ValueError("bands must be monotonically nondecreasing and have width > 0.")
    if (bands[:-1, 1] > bands[1:, 0]).any():
        raise ValueError("bands must not overlap.")
    if (desired < 0).any():
        raise ValueError("desired must be non-negative.")
    weight = numpy.ones(len(desired)) if weight is None else _host(weight).flatten()
    if len(weight) != len(desired):
        raise ValueError(f"weight must be the same size as the number of band pairs ({len(bands)}).")
    if (weight < 0).any():
        raise ValueError("weight must be non-negative.")

    # The normal equations Q a = b (SciPy's derivation, 1/pi and 1/2 left out of both): Q is Toeplitz plus Hankel
    # in q(n), the weighted integral of cos(n pi f) over the bands; b(n) that of the desired gain times it.
    n = numpy.arange(numtaps)[:, numpy.newaxis, numpy.newaxis]
    q = numpy.dot(numpy.diff(numpy.sinc(bands * n) * bands, axis=2)[:, :, 0], weight)
    k = numpy.arange(M + 1)
    Q = q[numpy.abs(k[:, numpy.newaxis] - k)] + q[k[:, numpy.newaxis] + k]
    n = n[: M + 1]
    m = numpy.diff(desired, axis=1) / numpy.diff(bands, axis=1)  # each band's gain: m f + c
    c = desired[:, [0]] - bands[:, [0]] * m
    b = bands * (m * bands + c) * numpy.sinc(bands * n)
    b[0] -= m * bands * bands / 2.0  # L'Hospital's rule for cos(n pi f) / (pi n f)^2 at n = 0
    b[1:] += m * numpy.cos(n[1:] * numpy.pi * bands) / (numpy.pi * n[1:]) ** 2
    b = numpy.dot(numpy.diff(b, axis=2)[:, :, 0], weight)
    try:
        a = _cholesky_solve(Q, b)
    except numpy.linalg.LinAlgError:  # rank deficient
        a = numpy.linalg.lstsq(Q, b, rcond=numpy.finfo(_F8).eps)[0]
    return numpy.hstack((a[:0:-1], 2 * a[0], a[1:]))  # symmetric: linear phase
