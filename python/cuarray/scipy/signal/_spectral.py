"""SciPy 1.17's spectral analysis on device arrays: periodogram, welch, csd, coherence (SciPy's ShortTimeFFT
form), spectrogram, stft (SciPy's legacy helper), istft, check_COLA and check_NOLA, with SciPy's defaults,
dtypes, errors and warnings. Signals (and istft's STFT) are taken through cupy.asarray, as CuPy's are: a host
array or list is copied to the device. Windows may be names, tuples, or host or device arrays. The arguments
are checked before any transform; two checks read one value back from the device: csd's that its window is
finite (SciPy's ShortTimeFFT's check) and istft's NOLA test (for SciPy's warning).

Note [Spectral precision]
SciPy computes the segments' FFTs in float64 whatever the input and casts the result to
result_type(x, complex64) at the end. Here the work is done in that result's precision: float16, float32, bool,
int8, int16 and uint8 signals (a complex64 result) are transformed in single precision, others in double, so a
float32 result agrees with SciPy's to float32 rounding (relative to the largest value).

Note [Detrending callables]
SciPy 1.17's csd (and welch, periodogram, coherence) calls a detrend function once for each segment, with the
segment's samples on the last axis; its spectrogram and stft call it once with all segments stacked (segments
on the second-last axis, samples on `axis`). Both are kept: a callable such as `lambda s: s - s.mean()` gives
SciPy's result in each. String detrends run on all segments at once through cuarray.scipy.signal.detrend.
"""

import warnings

import numpy

import cuarray as cp
from cuarray.lib.stride_tricks import sliding_window_view
from cuarray.scipy.fft import fft, fftfreq, ifft, irfft, rfft, rfftfreq
from cuarray.scipy.signal._filtfilt import _extend
from cuarray.scipy.signal._signaltools import detrend as _detrend
from cuarray.scipy.signal.windows._windows import get_window

__all__ = [
    "check_COLA",
    "check_NOLA",
    "coherence",
    "csd",
    "istft",
    "periodogram",
    "spectrogram",
    "stft",
    "welch",
]


def _median_bias(n):
    """The median of n chi-squared(2) periodograms over their mean: SciPy's bias correction (host maths)."""
    ii_2 = 2 * numpy.arange(1.0, (n - 1) // 2 + 1)
    return float(1 + numpy.sum(1.0 / (ii_2 + 1) - 1.0 / ii_2))


def _work_types(out_dtype, x):
    """The real dtype of the work (Note [Spectral precision]) and the dtype `x` is cast to."""
    real = numpy.finfo(out_dtype).dtype
    return real, (out_dtype if x.dtype.kind == "c" else real)


def _segments(x, nperseg, step):
    """The segments of `x` (samples on its last axis) that start every `step` samples: a strided view, segments
    on the second-last axis."""
    return sliding_window_view(x, nperseg, axis=-1)[..., ::step, :]


def _bin_weights(nfreq, nfft, onesided, dtype):
    """2 for the one-sided bins that stand for two frequencies (not DC, nor an even nfft's Nyquist bin)."""
    w = numpy.ones(nfreq)
    if onesided:
        w[1 : -1 if nfft % 2 == 0 else None] = 2
    return cp.asarray(w.astype(dtype))


def _frequencies(nfft, fs, onesided):
    return rfftfreq(nfft, 1 / fs) if onesided else fftfreq(nfft, 1 / fs)


# ---------------------------------------------------------------- csd, welch, periodogram, coherence


def _slice_range(w2, hop, n):
    """ShortTimeFFT's p_min and p_max for a window of squared magnitudes w2 (host), for its error message."""
    m, mid = len(w2), len(w2) // 2
    p_min = 0
    for p, k in enumerate(range(-mid, -mid - m - 1, -hop)):
        if k - hop + m <= 0 or numpy.all(w2[k - hop :] == 0):
            p_min = -p
            break
    q1 = n // hop
    for q, k in enumerate(range(q1 * hop - mid, n + m, hop), start=q1):
        if k + hop >= n or numpy.all(w2[: n - k - hop] == 0):
            return p_min, q + 1
    return p_min, q1 + 1


def _check_sft(win, hop, fs, onesided, y, n, nperseg, noverlap, axis, detr):
    """The checks of SciPy 1.17's ShortTimeFFT and of its stft_detrend, in their order (csd's segments)."""
    if not (win.ndim == 1 and win.size > 0):
        raise ValueError(f"Parameter win must be 1d, but {win.shape=}!")
    if not bool(cp.all(cp.isfinite(win))):
        raise ValueError("Parameter win must have finite entries!")
    if not (hop >= 1 and isinstance(hop, (int, numpy.integer))):
        raise ValueError(f"Parameter {hop=} is not an integer >= 1!")
    if not (fs > 0):
        raise ValueError(f"Sampling frequency fs={fs} must be positive!")
    if onesided and win.dtype.kind == "c":
        raise ValueError(
            "One-sided spectra, i.e., fft_mode='onesided', are not allowed for complex-valued windows!"
        )
    if onesided and y.dtype.kind == "c":
        raise ValueError(
            "Complex-valued `x` not allowed for self.fft_mode='onesided''! "
            "Set property `fft_mode` to 'twosided' or 'centered'."
        )
    if not (detr is None or isinstance(detr, str) or callable(detr)):
        raise ValueError(f"Parameter {detr=} is not a str, function or None!")
    if n < nperseg - nperseg // 2:
        shape = list(y.shape)
        shape[axis] = n
        where = f"len(x)={n}" if y.ndim == 1 else f"of axis={axis} of {tuple(shape)}"
        raise ValueError(f"{where} must be >= ceil(m_num/2) = {nperseg - nperseg // 2}!")
    p1 = (n - noverlap) // hop
    if p1 <= 0:
        w = cp.asnumpy(win)
        p_min, p_max = _slice_range(w.real**2 + w.imag**2, hop, n)
        raise ValueError(
            f"Invalid Parameter p0=0, p1={p1}, i.e., self.p_min={p_min} <= p0 < p1 <= p_max={p_max} "
            f"does not hold for signal length n={n}!"
        )
    return p1


def _csd_spectra(x, axis, n, nperseg, hop, nfft, detr, win, onesided, work):
    """The FFT of each detrended, windowed segment of `x` (zero-padded to n samples along `axis`):
    (outer..., segment, frequency)."""
    x = cp.moveaxis(x, axis, -1).astype(work, order="C")  # samples contiguous, for the strided segments
    if x.shape[-1] < n:  # the shorter signal is zero-padded, as SciPy does
        x = cp.concatenate((x, cp.zeros(x.shape[:-1] + (n - x.shape[-1],), work)), axis=-1)
    segs = _segments(x, nperseg, hop)
    if isinstance(detr, str):
        segs = _detrend(segs, type=detr)
    elif detr is not None:  # Note [Detrending callables]
        segs = cp.stack([detr(segs[..., p, :]) for p in range(segs.shape[-2])], axis=-2)
    segs = segs * win
    return rfft(segs.real, n=nfft) if onesided else fft(segs, n=nfft)


def csd(
    x,
    y,
    fs=1.0,
    window="hann",
    nperseg=None,
    noverlap=None,
    nfft=None,
    detrend="constant",
    return_onesided=True,
    scaling="density",
    axis=-1,
    average="mean",
):
    """The cross power spectral density of `x` and `y` by Welch's method: conj(FFT(x)) FFT(y) of the windowed,
    detrended segments, averaged ('mean', or 'median' corrected for its bias). Returns (frequencies, Pxy);
    csd(x, x) is real. A shorter signal is zero-padded; the axes other than `axis` broadcast."""
    same = y is x  # before the copies of host signals
    axis = int(axis)
    x = cp.asarray(x)
    y = x if same else cp.asarray(y)
    if same:
        if x.size == 0:
            return cp.empty(x.shape), cp.empty(x.shape)
        out_dtype = numpy.result_type(x.dtype, numpy.complex64)
        n = x.shape[axis]
    else:
        x_outer, y_outer = list(x.shape), list(y.shape)
        x_outer.pop(axis)
        y_outer.pop(axis)
        try:
            outer = numpy.broadcast_shapes(tuple(x_outer), tuple(y_outer))
        except ValueError as e:
            raise ValueError("x and y cannot be broadcast together.") from e
        if x.size == 0 or y.size == 0:
            empty = cp.moveaxis(cp.empty(outer + (min(x.shape[axis], y.shape[axis]),)), -1, axis)
            return empty, empty
        out_dtype = numpy.result_type(x.dtype, y.dtype, numpy.complex64)
        n = max(x.shape[axis], y.shape[axis])
    if isinstance(window, (str, tuple)):
        nperseg = int(nperseg) if nperseg is not None else 256
        if nperseg < 1:
            raise ValueError(f"Parameter {nperseg=} is not a positive integer!")
        if n < nperseg:
            warnings.warn(
                f"{nperseg=} is greater than signal length max(len(x), len(y)) = {n}, using nperseg = {n}",
                stacklevel=3,
            )
            nperseg = n
        win = get_window(window, nperseg)
    else:
        win = cp.asarray(window)
        if nperseg is None:
            nperseg = len(win)
    if nperseg != len(win):
        raise ValueError(f"{nperseg=} does not equal {len(win)=}")
    nfft = int(nfft) if nfft is not None else nperseg
    if nfft < nperseg:
        raise ValueError(f"{nfft=} must be greater than or equal to {nperseg=}!")
    noverlap = int(noverlap) if noverlap is not None else nperseg // 2
    if noverlap >= nperseg:
        raise ValueError(f"{noverlap=} must be less than {nperseg=}!")
    onesided = bool(return_onesided) and x.dtype.kind != "c"
    scales = {"spectrum": "magnitude", "density": "psd"}
    if scaling not in scales:
        raise ValueError(f"Parameter {scaling=} not in {scales}!")
    hop = nperseg - noverlap
    detr = None if detrend is False else detrend
    nseg = _check_sft(win, hop, fs, onesided, y, n, nperseg, noverlap, axis, detr)
    if nseg > 1 and average not in ("median", "mean"):
        raise ValueError(f"Parameter {average=} must be 'median' or 'mean'!")

    real, work = _work_types(out_dtype, y if y.dtype.kind == "c" else x)
    w = win.astype(work if win.dtype.kind != "c" else out_dtype)
    X = _csd_spectra(x, axis, n, nperseg, hop, nfft, detr, cp.conj(w), onesided, work)
    if same:
        P = X.real**2 + X.imag**2
    else:
        P = cp.conj(X) * _csd_spectra(y, axis, n, nperseg, hop, nfft, detr, cp.conj(w), onesided, work)
    # SciPy scales the window before the FFTs; the same factor (and the one-sided doubling) is applied here
    # to the averaged spectrum, which is smaller.
    power = win.real**2 + win.imag**2 if win.dtype.kind == "c" else win * win
    scale = 1.0 / (fs * cp.sum(power)) if scaling == "density" else 1.0 / cp.abs(cp.sum(win)) ** 2
    if nseg > 1 and average == "median":
        if P.dtype.kind == "c":
            P = cp.median(P.real, axis=-2) + cp.median(P.imag, axis=-2) * 1j
        else:
            P = cp.median(P, axis=-2)
        scale = scale / _median_bias(nseg)
    elif nseg > 1:
        P = P.mean(axis=-2)
    else:
        P = P[..., 0, :]
    P = P * (_bin_weights(P.shape[-1], nfft, onesided, real) * scale.astype(real))
    P = cp.moveaxis(P.astype(real if same else out_dtype), -1, axis)
    return _frequencies(nfft, fs, onesided), P


def welch(
    x,
    fs=1.0,
    window="hann",
    nperseg=None,
    noverlap=None,
    nfft=None,
    detrend="constant",
    return_onesided=True,
    scaling="density",
    axis=-1,
    average="mean",
):
    """The power spectral density of `x` by Welch's method (csd(x, x)): (frequencies, Pxx)."""
    freqs, Pxx = csd(
        x, x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, average
    )
    return freqs, Pxx.real


def periodogram(
    x,
    fs=1.0,
    window="boxcar",
    nfft=None,
    detrend="constant",
    return_onesided=True,
    scaling="density",
    axis=-1,
):
    """The power spectral density of `x` from one segment of all its samples (the first nfft where nfft is
    shorter, zero-padded to nfft where longer): (frequencies, Pxx)."""
    x = cp.asarray(x)
    if x.size == 0:
        return cp.empty(x.shape), cp.empty(x.shape)
    if window is None:
        window = "boxcar"
    n = x.shape[axis]
    if nfft is None:
        nperseg = n
    elif nfft == n:
        nperseg = nfft
    elif nfft > n:
        nperseg = n
    elif nfft < n:
        index = [slice(None)] * x.ndim
        index[axis] = slice(None, nfft)
        x = x[tuple(index)]
        nperseg, nfft = nfft, None
    if hasattr(window, "size") and window.size != nperseg:
        raise ValueError("the size of the window must be the same size of the input on the specified axis")
    return welch(x, fs, window, nperseg, 0, nfft, detrend, return_onesided, scaling, axis)


def coherence(
    x, y, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None, detrend="constant", axis=-1
):
    """The magnitude-squared coherence |Pxy|^2 / (Pxx Pyy) of `x` and `y` by Welch's method:
    (frequencies, Cxy)."""
    same = y is x
    x = cp.asarray(x)  # once, not in each of the three spectra
    y = x if same else cp.asarray(y)
    args = (fs, window, nperseg, noverlap, nfft, detrend)
    freqs, Pxx = welch(x, *args, axis=axis)
    _, Pyy = welch(y, *args, axis=axis)
    _, Pxy = csd(x, y, *args, axis=axis)
    return freqs, cp.abs(Pxy) ** 2 / Pxx / Pyy


# ---------------------------------------------------------------- spectrogram, stft (SciPy's legacy helper)

_BOUNDARIES = ("even", "odd", "constant", "zeros", None)


def _triage_segments(window, nperseg, input_length, stacklevel):
    """The window (a device array) and nperseg, as SciPy's _triage_segments: a named window's nperseg
    defaults to 256 and is cut to the input's length with a warning (naming the frame `stacklevel` frames
    above the caller); an array's is its length."""
    if isinstance(window, (str, tuple)):
        if nperseg is None:
            nperseg = 256
        if nperseg > input_length:
            warnings.warn(
                f"nperseg = {nperseg:d} is greater than input length  = {input_length:d}, using nperseg = "
                f"{input_length:d}",
                stacklevel=stacklevel + 1,
            )
            nperseg = input_length
        return get_window(window, nperseg), nperseg
    win = cp.asarray(window)
    if win.ndim != 1:
        raise ValueError("window must be 1-D")
    if input_length < win.shape[-1]:
        raise ValueError("window is longer than input signal")
    if nperseg is None:
        nperseg = win.shape[0]
    elif nperseg != win.shape[0]:
        raise ValueError("value specified for nperseg is different from length of window")
    return win, nperseg


def _boundary_extension(x, n, boundary):
    """`x` extended by n samples at each end of its last axis: SciPy's even_ext, odd_ext, const_ext, zero_ext."""
    if n < 1:
        return x
    if boundary == "zeros":
        zeros = cp.zeros(x.shape[:-1] + (n,), x.dtype)
        return cp.concatenate((zeros, x, zeros), axis=-1)
    if boundary in ("even", "odd") and n > x.shape[-1] - 1:
        raise ValueError(
            f"The extension length n ({n}) is too big. It must not exceed x.shape[axis]-1, which is "
            f"{x.shape[-1] - 1}."
        )
    return _extend(x, n, x.ndim - 1, boundary)


def _spectral_helper(
    x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, mode, boundary=None,
    padded=False, stacklevel=3,
):  # fmt: skip
    """SciPy's legacy _spectral_helper for one signal: (frequencies, times, segments' spectra) with the
    frequencies on `axis` and the segments on a new last axis; mode 'psd' or 'stft'. Its warnings name the
    frame `stacklevel` frames up (the caller of stft or spectrogram)."""
    if boundary not in _BOUNDARIES:
        raise ValueError(f"Unknown boundary option '{boundary}', must be one of: {list(_BOUNDARIES)}")
    axis = int(axis)
    x = cp.asarray(x)
    out_dtype = numpy.result_type(x.dtype, numpy.complex64)
    if x.size == 0:
        return cp.empty(x.shape), cp.empty(x.shape), cp.empty(x.shape)
    if x.ndim > 1 and axis != -1:
        x = cp.moveaxis(x, axis, -1)
    if nperseg is not None:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    win, nperseg = _triage_segments(window, nperseg, x.shape[-1], stacklevel)
    if nfft is None:
        nfft = nperseg
    elif nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    else:
        nfft = int(nfft)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    nstep = nperseg - noverlap
    if scaling not in ("density", "spectrum"):
        raise ValueError(f"Unknown scaling: {scaling!r}")

    real, work = _work_types(out_dtype, x)
    x = x.astype(work, order="C")  # Note [Spectral precision]; the extensions below are exact in it
    if boundary is not None:
        x = _boundary_extension(x, nperseg // 2, boundary)
    if padded:  # zeros up to a whole number of segments
        nadd = (-(x.shape[-1] - nperseg) % nstep) % nperseg
        x = cp.concatenate((x, cp.zeros(x.shape[:-1] + (nadd,), work)), axis=-1)

    if not detrend:
        detrend_func = None
    elif not callable(detrend):

        def detrend_func(d):
            return _detrend(d, type=detrend, axis=-1)

    elif axis != -1:  # the samples where the caller's signal had them (Note [Detrending callables])

        def detrend_func(d):
            return cp.moveaxis(detrend(cp.moveaxis(d, -1, axis)), axis, -1)

    else:
        detrend_func = detrend

    onesided = bool(return_onesided)
    if onesided and x.dtype.kind == "c":
        onesided = False
        warnings.warn("Input data is complex, switching to return_onesided=False", stacklevel=stacklevel)

    # SciPy's scale, from the window in float64 (SciPy's, for float32 data, from the window cast to complex64)
    scale = 1.0 / (fs * cp.sum(win * win)) if scaling == "density" else 1.0 / cp.sum(win) ** 2
    if mode == "stft":
        scale = cp.sqrt(scale)
    segs = _segments(x, nperseg, nstep)
    if detrend_func is not None:
        segs = detrend_func(segs)
    segs = segs * win.astype(work if win.dtype.kind != "c" else out_dtype)
    result = rfft(segs.real, n=nfft) if onesided else fft(segs, n=nfft)
    if mode == "psd":
        result = result.real**2 + result.imag**2
        factor = _bin_weights(result.shape[-1], nfft, onesided, real) * scale.real.astype(real)
        result = (result * factor).astype(real)
    else:
        result = (result * scale.astype(out_dtype if scale.dtype.kind == "c" else real)).astype(out_dtype)

    time = numpy.arange(nperseg / 2, x.shape[-1] - nperseg / 2 + 1, nperseg - noverlap) / float(fs)
    if boundary is not None:
        time -= (nperseg / 2) / fs
    result = cp.moveaxis(result, -1, axis - 1 if axis < 0 else axis)
    return _frequencies(nfft, fs, onesided), cp.asarray(time), result


def spectrogram(
    x,
    fs=1.0,
    window=("tukey", 0.25),
    nperseg=None,
    noverlap=None,
    nfft=None,
    detrend="constant",
    return_onesided=True,
    scaling="density",
    axis=-1,
    mode="psd",
):
    """The spectrogram of `x`: (frequencies, segment times, Sxx) with Sxx's frequencies on `axis` and its
    segments on the last axis; mode 'psd' (the power), 'complex' (the STFT), 'magnitude', 'angle', or 'phase'
    (the angle unwrapped along the frequencies). noverlap defaults to nperseg // 8."""
    modelist = ["psd", "complex", "magnitude", "angle", "phase"]
    if mode not in modelist:
        raise ValueError(f"unknown value for mode {mode}, must be one of {modelist}")
    x = cp.asarray(x)
    window, nperseg = _triage_segments(window, nperseg, x.shape[axis], 2)
    if noverlap is None:
        noverlap = nperseg // 8
    args = (x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis)
    if mode == "psd":
        return _spectral_helper(*args, mode="psd", stacklevel=3)
    freqs, time, Sxx = _spectral_helper(*args, mode="stft", stacklevel=3)
    if mode == "magnitude":
        Sxx = cp.abs(Sxx)
    elif mode in ("angle", "phase"):
        Sxx = cp.angle(Sxx)
        if mode == "phase":  # along the frequencies, as SciPy
            Sxx = cp.unwrap(Sxx, axis=axis - 1 if axis < 0 else axis)
    return freqs, time, Sxx


def stft(
    x,
    fs=1.0,
    window="hann",
    nperseg=256,
    noverlap=None,
    nfft=None,
    detrend=False,
    return_onesided=True,
    boundary="zeros",
    padded=True,
    axis=-1,
    scaling="spectrum",
):
    """The short-time Fourier transform of `x`: (frequencies, segment times, Zxx) with Zxx's frequencies on
    `axis` and its segments on the last axis. `boundary` extends the signal by nperseg // 2 samples at each
    end ('zeros', 'even', 'odd', 'constant' or None); `padded` completes its last segment with zeros."""
    if scaling == "psd":
        scaling = "density"
    elif scaling != "spectrum":
        raise ValueError(f"Parameter {scaling=} not in ['spectrum', 'psd']!")
    args = (x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis)
    return _spectral_helper(*args, "stft", boundary, padded)


# ---------------------------------------------------------------- istft, check_COLA, check_NOLA


def _overlap_add(frames, nstep):
    """The frames (..., segment, sample) added at offsets of nstep samples: (..., nperseg + (nseg - 1) nstep).
    Each frame is cut in blocks of nstep samples; block k of every frame is added at once, so the loop runs
    ceil(nperseg / nstep) times whatever the number of segments."""
    *lead, nseg, nperseg = frames.shape
    blocks = -(-nperseg // nstep)
    pad = blocks * nstep - nperseg
    if pad:
        frames = cp.concatenate((frames, cp.zeros((*lead, nseg, pad), frames.dtype)), axis=-1)
    frames = frames.reshape((*lead, nseg, blocks, nstep))
    out = cp.zeros((*lead, nseg + blocks - 1, nstep), frames.dtype)
    for k in range(blocks):
        part = out[..., k : k + nseg, :]
        cp.add(part, frames[..., k, :], out=part)
    return out.reshape((*lead, (nseg + blocks - 1) * nstep))[..., : nperseg + (nseg - 1) * nstep]


def _greater(a, value):
    """a > value, complex values ordered as NumPy orders them (real part first)."""
    if a.dtype.kind != "c":
        return a > value
    return (a.real > value) | ((a.real == value) & (a.imag > 0))


def _array_window(window, nperseg, length_message):
    win = cp.asarray(window)
    if win.ndim != 1:
        raise ValueError("window must be 1-D")
    if win.shape[0] != nperseg:
        raise ValueError(length_message)
    return win


def istft(
    Zxx,
    fs=1.0,
    window="hann",
    nperseg=None,
    noverlap=None,
    nfft=None,
    input_onesided=True,
    boundary=True,
    time_axis=-1,
    freq_axis=-2,
    scaling="spectrum",
):
    """The signal whose STFT is `Zxx` (least-squares overlap-add of the inverse FFTs of its segments, divided by
    the overlap-added squared window): (times, x). Warns where that sum vanishes (the NOLA condition)."""
    Zxx = cp.asarray(Zxx) + 0j
    freq_axis, time_axis = int(freq_axis), int(time_axis)
    if Zxx.ndim < 2:
        raise ValueError("Input stft must be at least 2d!")
    if freq_axis == time_axis:
        raise ValueError("Must specify differing time and frequency axes!")
    nseg = Zxx.shape[time_axis]
    n_default = 2 * (Zxx.shape[freq_axis] - 1) if input_onesided else Zxx.shape[freq_axis]
    if nperseg is None:
        nperseg = n_default
    else:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    if nfft is None:
        nfft = nperseg if input_onesided and nperseg == n_default + 1 else n_default  # an odd nperseg
    elif nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    else:
        nfft = int(nfft)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    nstep = nperseg - noverlap

    if time_axis != Zxx.ndim - 1 or freq_axis != Zxx.ndim - 2:  # frequencies, then segments, last
        freq_axis = freq_axis + Zxx.ndim if freq_axis < 0 else freq_axis
        time_axis = time_axis + Zxx.ndim if time_axis < 0 else time_axis
        if freq_axis == time_axis:  # the same axis twice, one of them negative: SciPy's list.pop fails
            raise IndexError("pop index out of range")
        outer = [d for d in range(Zxx.ndim) if d not in (freq_axis, time_axis)]
        Zxx = cp.transpose(Zxx, outer + [freq_axis, time_axis])
    if isinstance(window, str) or type(window) is tuple:
        win = get_window(window, nperseg)
    else:
        win = _array_window(window, nperseg, f"window must have length of {nperseg}")
    if scaling not in ("spectrum", "psd"):
        raise ValueError(f"Parameter {scaling=} not in ['spectrum', 'psd']!")

    xsubs = (irfft if input_onesided else ifft)(Zxx, axis=-2, n=nfft)[..., :nperseg, :]
    if numpy.result_type(win.dtype, xsubs.dtype) != xsubs.dtype:
        if win.dtype.kind == "c" and xsubs.dtype.kind != "c":
            warnings.warn(
                "Casting complex values to real discards the imaginary part",
                numpy.exceptions.ComplexWarning,
                2,
            )
            win = win.real
        win = win.astype(xsubs.dtype)
    gain = cp.sum(win) if scaling == "spectrum" else cp.sqrt(fs * cp.sum(win**2))
    frames = cp.moveaxis(xsubs * gain.astype(xsubs.dtype), -1, -2) * win
    x = _overlap_add(frames, nstep)
    norm = _overlap_add(cp.broadcast_to(win**2, (nseg, nperseg)), nstep)
    if boundary:  # SciPy's slice, which leaves nothing for nperseg == 1
        x = x[..., nperseg // 2 : -(nperseg // 2)]
        norm = norm[..., nperseg // 2 : -(nperseg // 2)]
    nonzero = _greater(norm, 1e-10)
    if not bool(cp.all(nonzero)):
        warnings.warn(
            "NOLA condition failed, STFT may not be invertible."
            + (" Possibly due to missing boundary" if not boundary else ""),
            stacklevel=2,
        )
    x = x / cp.where(nonzero, norm, cp.ones_like(norm))
    if input_onesided:
        x = x.real
    if x.ndim > 1 and time_axis != Zxx.ndim - 1:  # the samples back where the segments were
        if freq_axis < time_axis:
            time_axis -= 1
        x = cp.moveaxis(x, -1, time_axis)
    return cp.arange(x.shape[0], dtype=numpy.float64) / float(fs), x  # SciPy's times: x.shape[0] of them


def _overlap_check(window, nperseg, noverlap, squared):
    """The window's overlap-added sum over one hop: SciPy's binsums for check_COLA and check_NOLA."""
    if isinstance(window, str) or type(window) is tuple:
        win = get_window(window, nperseg)
    else:
        win = _array_window(window, nperseg, "window must have length of nperseg")
    if squared:
        win = win**2
    step = nperseg - noverlap
    whole, rest = divmod(nperseg, step)
    if whole == 0:  # a hop longer than the window: SciPy's sum of no segments is the integer 0
        raise TypeError("'int' object is not subscriptable (noverlap is negative: the segments leave gaps)")
    binsums = win[: whole * step].reshape(whole, step).sum(axis=0)
    if rest:
        binsums = cp.concatenate((binsums[:rest] + win[-rest:], binsums[rest:]))
    return binsums


def check_COLA(window, nperseg, noverlap, tol=1e-10):
    """Whether the window, hopped by nperseg - noverlap, sums to a constant (within `tol` of the median):
    a 0-d boolean device array, as CuPy's."""
    nperseg = int(nperseg)
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    binsums = _overlap_check(window, nperseg, int(noverlap), False)
    return cp.max(cp.abs(binsums - cp.median(binsums))) < tol


def check_NOLA(window, nperseg, noverlap, tol=1e-10):
    """Whether the squared window, hopped by nperseg - noverlap, sums to more than `tol` everywhere: a 0-d
    boolean device array, as CuPy's."""
    nperseg = int(nperseg)
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg")
    if noverlap < 0:
        raise ValueError("noverlap must be a nonnegative integer")
    return cp.min(_overlap_check(window, nperseg, int(noverlap), True)) > tol
