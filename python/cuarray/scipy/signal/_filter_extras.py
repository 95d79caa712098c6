"""SciPy's filter order selection (buttord, cheb1ord, cheb2ord, ellipord, and band_stop_obj, the order of a
bandstop filter they minimise), notch, peak and comb designs (iirnotch, iirpeak, iircomb), analog and zero-pole
frequency responses (freqs, freqs_zpk, freqz_zpk, and findfreqs, the frequencies freqs picks), group delay, the
zero-pole and state-space conversions (zpk2ss, ss2zpk, abcd_normalize) and CuPy's qmf: host maths on a few
coefficients, as the other filter-design functions (Note [Filter design on the host] in _iir_forms.py). The
private `_name` functions take and return NumPy arrays."""

import math
import warnings

import numpy

from cuarray._transfer import asarray as _to_device
from cuarray.scipy.signal._elliptic import _ellipk, _ellipkm1, _pow10m1
from cuarray.scipy.signal._iir_forms import _is_int, _tf2zpk, _zpk2tf, atleast_1d, host, on_device, on_host
from cuarray.scipy.signal._iir_forms import validate_fs as _validate_fs
from cuarray.scipy.signal._tf_transforms import _abcd_normalize, _ss2tf, _tf2ss

# ---- order selection ----------------------------------------------------------------------------------------


def _check_gains(gpass, gstop):
    if gpass <= 0.0:
        raise ValueError("gpass should be larger than 0.0")
    if gstop <= 0.0:
        raise ValueError("gstop should be larger than 0.0")
    if gpass > gstop:
        raise ValueError("gpass should be smaller than gstop")


def _band_edges(wp, ws, fs, analog):
    """wp and ws as floating 1-D arrays (in half-cycles per sample where fs is given) and the band type: 1 low,
    2 high, 3 bandstop, 4 bandpass."""
    wp, ws = atleast_1d(wp), atleast_1d(ws)
    dtype = numpy.result_type(wp, ws)
    if dtype.kind not in "fc":  # SciPy's xp_promote(force_floating=True)
        dtype = numpy.dtype(numpy.float64)
    wp, ws = wp.astype(dtype, copy=False), ws.astype(dtype, copy=False)
    if fs is not None:
        if analog:
            raise ValueError("fs cannot be specified for an analog filter")
        wp, ws = 2 * wp / fs, 2 * ws / fs
    band = 2 * (wp.shape[0] - 1) + 1
    if wp[0] >= ws[0]:
        band += 1
    return wp, ws, band


def _order_ratio(gpass, gstop):
    """(10^(gstop/10) - 1) / (10^(gpass/10) - 1), the power ratio every order formula starts from."""
    return (10 ** (0.1 * abs(gstop)) - 1.0) / (10 ** (0.1 * abs(gpass)) - 1.0)


def _band_stop_order(wp, ind, passb, stopb, gpass, gstop, kind):
    """The (real-valued) order a bandstop filter needs with passband edge `ind` moved to wp."""
    edges = passb.copy()
    edges[ind] = wp
    nat = min(abs(stopb * (edges[0] - edges[1]) / (stopb**2 - edges[0] * edges[1])))
    ratio = _order_ratio(gpass, gstop)
    if kind == "butter":
        return numpy.log10(ratio) / (2 * numpy.log10(nat))
    return numpy.arccosh(numpy.sqrt(ratio)) / numpy.arccosh(nat)


def _band_stop_obj(wp, ind, passb, stopb, gpass, gstop, type):
    """SciPy's band_stop_obj: the (real-valued) order an analog bandstop filter of type `type` ('butter', 'cheby'
    or 'ellip') needs with its passband edge passb[ind] moved to wp, the objective the order selections minimise
    for a bandstop filter."""
    _check_gains(gpass, gstop)
    if type in ("butter", "cheby"):
        return _band_stop_order(wp, ind, passb, stopb, gpass, gstop, type)
    edges = passb.copy()
    edges[ind] = wp
    nat = min(abs(stopb * (edges[0] - edges[1]) / (stopb**2 - edges[0] * edges[1])))
    if type != "ellip":
        raise ValueError(f"Incorrect type: {type}")
    ripple = numpy.sqrt((10 ** (0.1 * gpass) - 1.0) / (10 ** (0.1 * gstop) - 1.0))
    k0 = _ellipk([(1.0 / nat) ** 2, 1 - (1.0 / nat) ** 2])
    k1 = _ellipk([ripple**2, 1 - ripple**2])
    return k0[0] * k1[1] / (k0[1] * k1[0])


def band_stop_obj(wp, ind, passb, stopb, gpass, gstop, type):
    """The order an analog bandstop filter needs with passband edge passb[ind] moved to wp (SciPy's
    band_stop_obj), as a 0-d device array, as CuPy's; its arguments' device arrays are read back."""
    args = [host(a) for a in (wp, ind, passb, stopb, gpass, gstop)]
    return _to_device(numpy.asarray(_band_stop_obj(*args, type)))


# Note [Bounded minimisation]
# SciPy finds a bandstop filter's passband edges by scipy.optimize.fminbound (Brent's bounded minimiser, absolute
# tolerance 1e-5), and the order and natural frequencies follow from the edges it stops at. cuarray imports no
# SciPy, so _fminbound below is the same method step for step (golden-section steps, parabolic steps where they
# are safe, the same stopping test and the same 500-evaluation cap): another minimiser would stop at another point
# within the tolerance and give other natural frequencies. Its constants are NumPy float64 scalars, as SciPy's
# (numpy.sqrt's), so that float32 edges step in float64 as there; and its checks of the bounds are SciPy's (a
# digital bandstop specification past Nyquist reaches them).
def _fminbound(f, a, b, xtol=1e-5, maxfun=500):
    """x in [a, b] minimising f, by Brent's method as SciPy's fminbound (Note [Bounded minimisation])."""
    if not (numpy.size(a) == 1 and numpy.isfinite(a) and numpy.size(b) == 1 and numpy.isfinite(b)):
        raise ValueError("Optimization bounds must be finite scalars.")
    if a > b:
        raise ValueError("The lower bound exceeds the upper bound.")
    sqrt_eps = numpy.sqrt(2.2e-16)
    golden = 0.5 * (3.0 - numpy.sqrt(5.0))
    v = w = x = a + golden * (b - a)  # x the best point, w the second best, v the previous w
    fv = fw = fx = f(x)
    d = e = 0.0  # this step and the one before last
    evaluations = 1
    xm = 0.5 * (a + b)
    tol1 = sqrt_eps * numpy.abs(x) + xtol / 3.0
    tol2 = 2.0 * tol1
    while numpy.abs(x - xm) > tol2 - 0.5 * (b - a):
        parabolic = False
        if numpy.abs(e) > tol1:  # try a parabola through x, w and v
            r = (x - w) * (fx - fv)
            q = (x - v) * (fx - fw)
            p = (x - v) * q - (x - w) * r
            q = 2.0 * (q - r)
            if q > 0.0:
                p = -p
            q = numpy.abs(q)
            e_before, e = e, d
            if numpy.abs(p) < numpy.abs(0.5 * q * e_before) and q * (a - x) < p < q * (b - x):
                parabolic = True
                d = (p + 0.0) / q
                if ((x + d) - a) < tol2 or (b - (x + d)) < tol2:
                    d = tol1 * (numpy.sign(xm - x) + ((xm - x) == 0))
        if not parabolic:
            e = (a - x) if x >= xm else (b - x)
            d = golden * e
        u = x + (numpy.sign(d) + (d == 0)) * numpy.maximum(numpy.abs(d), tol1)
        fu = f(u)
        evaluations += 1
        if fu <= fx:
            if u >= x:
                a = x
            else:
                b = x
            v, fv, w, fw, x, fx = w, fw, x, fx, u, fu
        else:
            if u < x:
                a = u
            else:
                b = u
            if fu <= fw or w == x:
                v, fv, w, fw = w, fw, u, fu
            elif fu <= fv or v == x or v == w:
                v, fv = u, fu
        xm = 0.5 * (a + b)
        tol1 = sqrt_eps * numpy.abs(x) + xtol / 3.0
        tol2 = 2.0 * tol1
        if evaluations >= maxfun:
            break
    return x


def _natural(passb, stopb, gpass, gstop, band, kind):
    """The lowpass prototype's stopband edge (the smaller over the band's two edges), and the passband edges
    (a bandstop's moved to where the order is least)."""
    if band == 1:
        nat = stopb / passb
    elif band == 2:
        nat = passb / stopb
    elif band == 3:
        args = (passb, stopb, gpass, gstop, kind)
        wp0 = _fminbound(lambda wp: _band_stop_obj(wp, 0, *args), passb[0], stopb[0] - 1e-12)
        wp1 = _fminbound(lambda wp: _band_stop_obj(wp, 1, *args), stopb[1] + 1e-12, passb[1])
        passb = numpy.asarray([float(wp0), float(wp1)])
        nat = (stopb * (passb[0] - passb[1])) / (stopb**2 - passb[0] * passb[1])
    else:
        nat = (stopb**2 - passb[0] * passb[1]) / (stopb * (passb[0] - passb[1]))
    return numpy.min(numpy.abs(nat)), passb


def _prepare(wp, ws, gpass, gstop, analog, fs, kind, gains_first):
    if gains_first:  # buttord checks the gains before fs, the Chebyshev ones after
        _check_gains(gpass, gstop)
    fs = _validate_fs(fs, allow_none=True)
    if not gains_first:
        _check_gains(gpass, gstop)
    wp, ws, band = _band_edges(wp, ws, fs, analog)
    passb, stopb = (wp, ws) if analog else (numpy.tan(numpy.pi * wp / 2.0), numpy.tan(numpy.pi * ws / 2.0))
    nat, passb = _natural(passb, stopb, gpass, gstop, band, kind)
    return fs, band, nat, passb


def _digital_wn(wn, analog, fs):
    """Prototype frequencies back to the filter's (un-warped, scaled to fs): a scalar for one frequency."""
    wn = wn if analog else numpy.arctan(wn) * 2.0 / numpy.pi
    if wn.shape[0] == 1:
        wn = wn[0]
    return wn if fs is None else wn * fs / 2


def _buttord(wp, ws, gpass, gstop, analog=False, fs=None):
    """The least Butterworth order (and its natural frequency) that loses no more than gpass dB in the passband
    and at least gstop dB in the stopband."""
    fs, band, nat, passb = _prepare(wp, ws, gpass, gstop, analog, fs, "butter", True)
    gpass_power = 10 ** (0.1 * abs(gpass))
    order = math.ceil(math.log10(_order_ratio(gpass, gstop)) / (2 * math.log10(nat)))
    try:  # the prototype frequency that gives exactly gpass at passb
        w0 = (gpass_power - 1.0) ** (-1.0 / (2.0 * order))
    except ZeroDivisionError:
        w0 = 1.0
        warnings.warn("Order is zero...check input parameters.", RuntimeWarning, stacklevel=3)
    if band == 1:
        wn = w0 * passb
    elif band == 2:
        wn = passb / w0
    elif band == 3:
        discr = numpy.sqrt((passb[1] - passb[0]) ** 2 + 4 * w0**2 * passb[0] * passb[1])
        wn = numpy.asarray([float(((passb[1] - passb[0]) + s * discr) / (2 * w0)) for s in (1, -1)])
        wn = numpy.sort(numpy.abs(wn))
    else:
        w0 = numpy.asarray([-w0, w0], dtype=numpy.float64)
        wn = -w0 * (passb[1] - passb[0]) / 2.0 + numpy.sqrt(
            w0**2 / 4.0 * (passb[1] - passb[0]) ** 2 + passb[0] * passb[1]
        )
        wn = numpy.sort(numpy.abs(wn))
    return order, _digital_wn(wn, analog, fs)


def _cheby_order(gpass, gstop, nat):
    stretch = math.acosh(math.sqrt(_order_ratio(gpass, gstop)))
    return int(numpy.ceil(stretch / numpy.arccosh(nat))), stretch


def _cheb1ord(wp, ws, gpass, gstop, analog=False, fs=None):
    """The least Chebyshev type I order (and its natural frequency, the passband edge) for the specification."""
    fs, _, nat, passb = _prepare(wp, ws, gpass, gstop, analog, fs, "cheby", False)
    return _cheby_order(gpass, gstop, nat)[0], _digital_wn(passb, analog, fs)


def _cheb2ord(wp, ws, gpass, gstop, analog=False, fs=None):
    """The least Chebyshev type II order (and its natural frequency, where the response is -gpass dB)."""
    fs, band, nat, passb = _prepare(wp, ws, gpass, gstop, analog, fs, "cheby", False)
    order, stretch = _cheby_order(gpass, gstop, nat)
    new_freq = 1.0 / math.cosh(1.0 / order * stretch)
    if band == 1:
        nat = passb / new_freq
    elif band == 2:
        nat = passb * new_freq
    else:
        f = new_freq / 2.0 if band == 3 else 1.0 / (2.0 * new_freq)
        nat0 = f * (passb[0] - passb[1]) + math.sqrt(f**2 * (passb[1] - passb[0]) ** 2 + passb[1] * passb[0])
        nat = numpy.asarray([float(nat0), float(passb[1] * passb[0] / nat0)])
    return order, _digital_wn(nat, analog, fs)


def _ellipord(wp, ws, gpass, gstop, analog=False, fs=None):
    """The least elliptic order (and its natural frequency, the passband edge) for the specification: from the
    degree equation n = K(1/nat^2) K'(ripple^2) / (K'(1/nat^2) K(ripple^2)), its complements K' by ellipkm1 so
    that a large attenuation (ripple^2 near 0) keeps its digits, as SciPy's."""
    fs, _, nat, passb = _prepare(wp, ws, gpass, gstop, analog, fs, "ellip", False)
    ripple_sq = _pow10m1(0.1 * gpass) / _pow10m1(0.1 * gstop)
    selectivity_sq = numpy.asarray(1.0 / nat) ** 2
    k0 = _ellipk(selectivity_sq), _ellipkm1(selectivity_sq)
    k1 = _ellipk(ripple_sq), _ellipkm1(ripple_sq)
    return int(numpy.ceil(k0[0] * k1[1] / (k0[1] * k1[0]))), _digital_wn(passb, analog, fs)


def _ord_public(host_fn, name):
    """An order-selection function: the order an int, the natural frequencies a device array (0-d for one, as
    CuPy's)."""

    def public(wp, ws, gpass, gstop, analog=False, fs=None):
        order, wn = host_fn(host(wp), host(ws), host(gpass), host(gstop), analog, host(fs))
        return order, _to_device(numpy.asarray(wn))

    public.__name__ = public.__qualname__ = name
    public.__doc__ = host_fn.__doc__
    return public


# ---- notch, peak and comb filters ---------------------------------------------------------------------------


def _notch_peak(w0, Q, ftype, fs=2.0):
    """A second-order notch or peak filter at w0 with quality factor Q (bandwidth w0 / Q at -3 dB)."""
    fs = _validate_fs(fs, allow_none=False)
    w0 = 2 * float(w0) / fs
    Q = float(Q)
    if w0 > 1.0 or w0 < 0.0:
        raise ValueError("w0 should be such that 0 < w0 < 1")
    bw = w0 / Q * numpy.pi
    w0 = w0 * numpy.pi
    beta = math.tan(bw / 2.0)  # the -3 dB gain makes the band-edge factor 1
    gain = 1.0 / (1.0 + beta)
    if ftype == "notch":
        b = gain * numpy.asarray([1.0, -2.0 * math.cos(w0), 1.0])
    else:
        b = (1.0 - gain) * numpy.asarray([1.0, 0.0, -1.0])
    return b, numpy.asarray([1.0, -2.0 * gain * math.cos(w0), 2.0 * gain - 1.0])


def _iirnotch(w0, Q, fs=2.0):
    return _notch_peak(w0, Q, "notch", fs)


def _iirpeak(w0, Q, fs=2.0):
    return _notch_peak(w0, Q, "peak", fs)


def _iircomb(w0, Q, ftype="notch", fs=2.0, *, pass_zero=False):
    """A comb filter of order fs / w0 notching (or peaking at) every multiple of w0."""
    w0, Q = float(w0), float(Q)
    fs = _validate_fs(fs, allow_none=False)
    ftype = ftype.lower()
    if not 0 < w0 < fs / 2:
        raise ValueError(f"w0 must be between 0 and {fs / 2} (Nyquist), but given {w0}.")
    if ftype not in ("notch", "peak"):
        raise ValueError("ftype must be either notch or peak.")
    N = round(fs / w0)
    if abs(w0 - fs / N) / fs > 1e-14:
        raise ValueError("fs must be divisible by w0.")
    w_delta = (2 * numpy.pi * w0) / fs / Q
    g0, g = (1, 0) if ftype == "notch" else (0, 1)
    beta = math.tan(N * w_delta / 4)
    # A notching comb that keeps DC, or a peaking one that passes it, subtracts its delayed terms.
    sign = -1.0 if (ftype == "peak" and pass_zero) or (ftype == "notch" and not pass_zero) else 1
    b, a = numpy.zeros(N + 1), numpy.zeros(N + 1)
    b[0], b[-1] = (g0 + g * beta) / (1 + beta), sign * (g0 - g * beta) / (1 + beta)
    a[0], a[-1] = 1.0, sign * (1 - beta) / (1 + beta)
    return b, a


# ---- frequency responses ------------------------------------------------------------------------------------


def _findfreqs(num, den, N, kind="ba"):
    """N log-spaced frequencies spanning the transitions of the analog filter num/den (roots where kind='ba')."""
    num, den = numpy.asarray(num), numpy.asarray(den)
    if kind == "ba":
        ep, tz = (numpy.atleast_1d(_roots(c)) for c in (den, num))
    elif kind == "zp":
        ep, tz = numpy.atleast_1d(den), numpy.atleast_1d(num)
    else:
        raise ValueError("input must be one of {'ba', 'zp'}")
    ep, tz = _complex(ep), _complex(tz)
    if ep.shape[0] == 0:
        ep = numpy.asarray([-1000], dtype=ep.dtype)
    ez = numpy.concatenate((ep[ep.imag >= 0], tz[(numpy.abs(tz) < 1e5) & (tz.imag >= 0)]))
    integ = (numpy.abs(ez) < 1e-10).astype(ez.dtype)
    hfreq = numpy.round(numpy.log10(numpy.max(3 * numpy.abs(ez.real + integ) + 1.5 * ez.imag)) + 0.5)
    lfreq = numpy.round(numpy.log10(0.1 * numpy.min(numpy.abs((ez + integ).real) + 2 * ez.imag)) - 0.5)
    exponents = numpy.linspace(lfreq, hfreq, N, dtype=numpy.result_type(lfreq, hfreq, 10.0))
    return numpy.pow(10.0, exponents).astype(exponents.dtype, copy=False)


def _roots(c):
    return numpy.asarray([], dtype=c.dtype) if c.shape[0] < 2 else numpy.roots(c)


def _complex(a):
    """Real floating values as complex of their precision (SciPy's xp_float_to_complex)."""
    return a.astype(numpy.result_type(a, 1j)) if a.dtype.kind == "f" else a


def _polyval(p, x):
    """sum p[j] x^(n-1-j) by Horner's rule from zeros of x's type (SciPy's _polyutils.polyval)."""
    p, x = numpy.asarray(p), numpy.asarray(x)
    y = numpy.zeros_like(x)
    for j in range(p.shape[0]):
        y = y * x + p[j, ...]
    return y


def _from_roots(x, r):
    """prod over r of (x - r), one value per x (NumPy's polyvalfromroots)."""
    r = numpy.atleast_1d(r)
    return numpy.prod(x - r.reshape(r.shape + (1,) * x.ndim), axis=0)


def _freqs(b, a, worN=200):
    """The response (w, h) of the analog filter b/a at worN log-spaced frequencies (or the frequencies worN)."""
    if worN is None or _is_int(worN):
        w = _findfreqs(b, a, 200 if worN is None else worN)
    else:
        w = numpy.atleast_1d(numpy.asarray(worN))
    s = 1j * w
    return w, _polyval(b, s) / _polyval(a, s)


def _freqs_zpk(z, p, k, worN=200):
    """The response (w, h) of the analog filter of zeros z, poles p and gain k."""
    z, p = numpy.asarray(z), numpy.asarray(p)
    k = numpy.asarray(k, dtype=numpy.float64)
    if k.size > 1:
        raise ValueError("k must be a single scalar gain")
    if worN is None or _is_int(worN):
        w = _findfreqs(z, p, 200 if worN is None else worN, kind="zp")
    else:
        w = worN
    w = numpy.atleast_1d(numpy.asarray(w))
    s = 1j * w
    return w, k * _from_roots(s, z) / _from_roots(s, p)


def _freqz_zpk(z, p, k, worN=512, whole=False, fs=2 * math.pi):
    """The response (w, h) of the digital filter of zeros z, poles p and gain k at worN frequencies of [0, pi)
    ([0, 2 pi) whole), or at the frequencies worN (in units of fs)."""
    z, p = numpy.atleast_1d(numpy.asarray(z)), numpy.atleast_1d(numpy.asarray(p))
    dtype = numpy.float64 if numpy.result_type(z, p) in (numpy.float64, numpy.complex128) else numpy.float32
    fs = _validate_fs(fs, allow_none=False)
    last = 2 * math.pi if whole else math.pi
    if worN is None or _is_int(worN):
        w = numpy.linspace(0, last, 512 if worN is None else worN, endpoint=False, dtype=dtype)
    else:
        w = numpy.asarray(worN)
        if w.dtype.kind in "biu":
            w = w.astype(numpy.float64)
        w = 2 * math.pi * numpy.atleast_1d(w) / fs
    zm1 = numpy.exp(1j * w)
    h = numpy.asarray(k, dtype=dtype) * _from_roots(zm1, z) / _from_roots(zm1, p)
    return w * (fs / (2 * math.pi)), h


def _group_delay(system, w=512, whole=False, fs=2 * math.pi):
    """The group delay (w, gd) of the digital filter system = (b, a) in samples, 0 where it is singular (with
    SciPy's warnings)."""
    b, a = (numpy.atleast_1d(numpy.asarray(host(c))) for c in system)
    w = 512 if w is None else w
    fs = _validate_fs(fs, allow_none=False)
    if _is_int(w):
        w = numpy.linspace(0, 2 * math.pi if whole else math.pi, w, endpoint=False)
    else:
        w = 2 * math.pi * numpy.atleast_1d(w) / fs
    c = numpy.convolve(b, numpy.conjugate(a[::-1]))  # b(z) a*(1/z*) z^-n: its phase slope is the delay
    cr = c * numpy.arange(c.size)
    z = numpy.exp(-1j * w)
    num, den = numpy.polyval(cr[::-1], z), numpy.polyval(c[::-1], z)
    gd = numpy.real(num / den) - a.size + 1
    singular = ~numpy.isfinite(gd)
    if numpy.any(singular):
        gd[singular] = 0
        warnings.warn(
            "The group delay is singular at frequencies "
            f"[{', '.join(f'{ws:.3f}' for ws in w[singular])}], setting to 0",
            stacklevel=3,
        )
    elif numpy.any(near := numpy.absolute(den) < 10 * numpy.finfo(float).eps):
        warnings.warn(
            "The filter's denominator is extremely small at frequencies "
            f"[{', '.join(f'{ws:.3f}' for ws in w[near])}], around which a singularity may be present",
            stacklevel=3,
        )
    return w * (fs / (2 * math.pi)), gd


def freqs(b, a, worN=200, plot=None):
    """The frequency response (w, h) of the analog filter b/a, as device arrays; `plot`, when given, is called
    with them."""
    w, h = on_device(_freqs(host(b), host(a), host(worN)))
    if plot is not None:
        plot(w, h)
    return w, h


# ---- state space and CuPy's qmf -----------------------------------------------------------------------------


def _zpk2ss(z, p, k):
    """The controller canonical state-space form of the filter of zeros z, poles p and gain k."""
    return _tf2ss(*_zpk2tf(z, p, k))


def _ss2zpk(A, B, C, D, input=0):
    """Zeros, poles and gain of the state-space system from its input `input`."""
    return _tf2zpk(*_ss2tf(A, B, C, D, input=input))


def _qmf(hk):
    """The highpass quadrature mirror filter of the lowpass hk: hk reversed, every other value negated."""
    hk = numpy.asarray(hk)
    sign = numpy.where(numpy.arange(hk.shape[0]) % 2 == 1, -1, 1)
    return (hk[::-1] * sign).astype(hk.dtype, copy=False)


def qmf(hk):
    """CuPy's qmf (SciPy 1.12 removed its wavelet functions, and CuPy 14 deprecates them with this warning)."""
    warnings.warn(
        "Following the change in SciPy 1.12, all wavelet functions have been deprecated in CuPy v14 and are "
        "planned to be removed in the future.",
        numpy.exceptions.VisibleDeprecationWarning,
        stacklevel=2,
    )
    return _to_device(_qmf(host(hk)))


buttord = _ord_public(_buttord, "buttord")
cheb1ord = _ord_public(_cheb1ord, "cheb1ord")
cheb2ord = _ord_public(_cheb2ord, "cheb2ord")
ellipord = _ord_public(_ellipord, "ellipord")
iirnotch = on_host(_iirnotch, "iirnotch")
iirpeak = on_host(_iirpeak, "iirpeak")
iircomb = on_host(_iircomb, "iircomb")
findfreqs = on_host(_findfreqs, "findfreqs")
freqs_zpk = on_host(_freqs_zpk, "freqs_zpk")
freqz_zpk = on_host(_freqz_zpk, "freqz_zpk")
group_delay = on_host(_group_delay, "group_delay")
zpk2ss = on_host(_zpk2ss, "zpk2ss")
ss2zpk = on_host(_ss2zpk, "ss2zpk")
abcd_normalize = on_host(_abcd_normalize, "abcd_normalize")
