"""SciPy's IIR filter design: the analog lowpass prototypes (buttap, cheb1ap, cheb2ap, ellipap), their
frequency transforms (lp2lp_zpk, lp2hp_zpk, lp2bp_zpk, lp2bs_zpk), the bilinear transform (bilinear_zpk) and
the designs built from them (iirfilter, butter, cheby1, cheby2, ellip) and the design from a specification
(iirdesign), as host maths returning device arrays (Note [Filter design on the host] in _iir_forms.py). The
private `_name` functions take and return NumPy arrays."""

import math

import numpy

from cuarray.scipy.signal._elliptic import _arc_jac_sc1, _ellipdeg, _ellipj, _ellipk, _pow10m1
from cuarray.scipy.signal._filter_extras import _buttord, _cheb1ord, _cheb2ord, _check_gains, _ellipord
from cuarray.scipy.signal._iir_forms import _zpk2sos, _zpk2tf, atleast_1d, on_host, validate_fs

_BANDS = {
    **dict.fromkeys(("band", "bandpass", "pass", "bp"), "bandpass"),
    **dict.fromkeys(("bs", "bandstop", "bands", "stop"), "bandstop"),
    **dict.fromkeys(("l", "low", "lowpass", "lp"), "lowpass"),
    **dict.fromkeys(("high", "highpass", "h", "hp"), "highpass"),
}
_FILTERS = {
    **dict.fromkeys(("butter", "butterworth"), "butter"),
    **dict.fromkeys(("cheby1", "chebyshev1", "chebyshevi"), "cheby1"),
    **dict.fromkeys(("cheby2", "chebyshev2", "chebyshevii"), "cheby2"),
    **dict.fromkeys(("cauer", "elliptic", "ellip"), "ellip"),
    # SciPy's, which cuarray does not design (NotImplementedError once the other arguments are checked).
    **dict.fromkeys(("bessel", "bessel_phase", "bessel_delay", "bessel_mag"), None),
}


def _check_order(N):
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")


def _buttap(N):
    """The Butterworth prototype: no zeros, N poles evenly on the left half of the unit circle, gain 1."""
    _check_order(N)
    m = numpy.arange(-N + 1, N, 2, dtype=numpy.float64)  # its middle value 0 makes the real pole exactly real
    return numpy.asarray([], dtype=numpy.float64), -numpy.exp(1j * numpy.pi * m / (2 * N)), 1.0


def _cheb1ap(N, rp):
    """The Chebyshev type I prototype with `rp` dB of passband ripple (cutoff where the gain first drops below
    -rp)."""
    _check_order(N)
    if N == 0:  # an even order's DC gain is -rp dB
        return numpy.asarray([], numpy.float64), numpy.asarray([], numpy.complex128), 10 ** (-rp / 20)
    eps = math.sqrt(10 ** (0.1 * rp) - 1.0)
    mu = 1.0 / N * math.asinh(1 / eps)
    theta = numpy.pi * numpy.arange(-N + 1, N, 2, dtype=numpy.float64) / (2 * N)
    p = -numpy.sinh(mu + 1j * theta)
    k = numpy.real(numpy.prod(-p, axis=0))
    if N % 2 == 0:
        k = k / math.sqrt(1 + eps * eps)
    return numpy.asarray([], numpy.float64), p, k


def _cheb2ap(N, rs):
    """The Chebyshev type II prototype with `rs` dB of stopband attenuation (reached first at frequency 1)."""
    _check_order(N)
    if N == 0:
        return numpy.asarray([], numpy.complex128), numpy.asarray([], numpy.complex128), 1.0
    de = 1.0 / math.sqrt(10 ** (0.1 * rs) - 1)
    mu = math.asinh(1.0 / de) / N
    m = numpy.arange(-N + 1, N, 2, dtype=numpy.float64)
    zm = m[m != 0]  # an odd order has no zero for the middle pole (it stays at infinity)
    z = 1j / numpy.sin(zm * numpy.pi / (2 * N))
    p = -1 / numpy.sinh(mu + 1j * (numpy.pi * m / (2 * N)))  # poles around the unit circle, as Butterworth's
    return z, p, numpy.real(numpy.prod(-p, axis=0) / numpy.prod(-z, axis=0))


# The smallest zeros, and the poles' imaginary parts, SciPy's elliptic prototype keeps (its EPSILON): below it
# a zero is the odd order's one at s = 0 (dropped, as it lies at infinity), a pole the odd order's real one.
_ELLIP_EPSILON = 2e-16


def _ellipap(N, rp, rs):
    """The elliptic (Cauer) prototype with `rp` dB of passband ripple and `rs` dB of stopband attenuation, cutoff
    where the gain first drops below -rp: SciPy's steps (Orfanidis' lecture notes on elliptic filter design), on
    the elliptic functions of _elliptic.py (Note [Elliptic functions on the host] there)."""
    _check_order(N)
    if N == 0:  # an even order's DC gain is -rp dB
        return numpy.asarray([], numpy.complex128), numpy.asarray([], numpy.complex128), 10 ** (-rp / 20)
    if N == 1:  # SciPy's 0-d pole
        p = -math.sqrt(1.0 / _pow10m1(0.1 * rp))
        return numpy.asarray([], numpy.complex128), numpy.asarray(p, numpy.complex128), -p
    eps_sq = _pow10m1(0.1 * rp)
    eps = math.sqrt(eps_sq)
    ck1_sq = eps_sq / _pow10m1(0.1 * rs)  # the discrimination parameter, squared
    if ck1_sq == 0:
        raise ValueError("Cannot design a filter with given rp and rs specifications.")
    m = _ellipdeg(N, ck1_sq)  # the selectivity parameter the order reaches
    capk = _ellipk(m)
    j = numpy.arange(1 - N % 2, N, 2)
    s, c, d, _ = _ellipj(j * capk / N, m * numpy.ones(len(j)))
    z = 1j * (1.0 / (numpy.sqrt(m) * s[abs(s) > _ELLIP_EPSILON]))
    z = numpy.concatenate((z, numpy.conjugate(z)))
    v0 = capk * _arc_jac_sc1(1.0 / eps, ck1_sq) / (N * _ellipk(ck1_sq))
    sv, cv, dv, _ = _ellipj(v0, 1 - m)
    p = -(c * d * sv * cv + 1j * s * dv) / (1 - (d * sv) ** 2.0)
    if N % 2:  # the real pole has no conjugate to add
        radius = numpy.sqrt(numpy.sum(p * numpy.conjugate(p), axis=0).real)
        p = numpy.concatenate((p, numpy.conjugate(p[abs(p.imag) > _ELLIP_EPSILON * radius])))
    else:
        p = numpy.concatenate((p, numpy.conjugate(p)))
    k = (numpy.prod(-p, axis=0) / numpy.prod(-z, axis=0)).real
    if N % 2 == 0:
        k = k / numpy.sqrt(1 + eps_sq)
    return z.astype(numpy.complex128), p.astype(numpy.complex128), float(k)


def _degree(z, p):
    """The relative degree of the transfer function: poles less zeros."""
    degree = p.shape[0] - z.shape[0]
    if degree < 0:
        raise ValueError("Improper transfer function. Must have at least as many poles as zeros.")
    return degree


def _bilinear_zpk(z, p, k, fs):
    """The digital filter of an analog one by the bilinear transform s = 2 fs (z - 1) / (z + 1); zeros at infinity
    move to Nyquist."""
    z, p = atleast_1d(z), atleast_1d(p)
    fs = validate_fs(fs, allow_none=False)
    degree = _degree(z, p)
    fs2 = 2.0 * fs
    z_z = numpy.concatenate(((fs2 + z) / (fs2 - z), -numpy.ones(degree)))
    return z_z, (fs2 + p) / (fs2 - p), k * numpy.real(numpy.prod(fs2 - z) / numpy.prod(fs2 - p))


def _lp2lp_zpk(z, p, k, wo=1.0):
    """The lowpass prototype moved to cutoff `wo`."""
    z, p = atleast_1d(z), atleast_1d(p)
    wo = float(wo)  # an integer wo would wrap around in the powers
    degree = _degree(z, p)
    return wo * z, wo * p, k * wo**degree


def _lp2hp_zpk(z, p, k, wo=1.0):
    """The lowpass prototype turned highpass with cutoff `wo` (s -> wo / s); zeros at infinity move to 0."""
    z, p = atleast_1d(z), atleast_1d(p)
    wo = float(wo)
    degree = _degree(z, p)
    z_hp = numpy.concatenate((wo / z, numpy.zeros(degree)))
    return z_hp, wo / p, k * numpy.real(numpy.prod(-z) / numpy.prod(-p))


def _floating_pair(z, p):
    z, p = numpy.asarray(z), numpy.asarray(p)
    dtype = numpy.result_type(z, p)
    if dtype.kind in "biu":
        dtype = numpy.dtype(numpy.float64)
    return numpy.atleast_1d(z.astype(dtype)), numpy.atleast_1d(p.astype(dtype))


def _shifted(points, wo):
    """Each point duplicated and shifted from baseband to +-wo (complex, so the square roots are)."""
    points = points.astype(numpy.complex128)
    root = numpy.sqrt(points**2 - wo**2)
    return numpy.concatenate((points + root, points - root))


def _lp2bp_zpk(z, p, k, wo=1.0, bw=1.0):
    """The lowpass prototype turned bandpass around `wo` with width `bw` (s -> (s^2 + wo^2) / (s bw))."""
    z, p = _floating_pair(z, p)
    wo, bw = float(wo), float(bw)
    degree = _degree(z, p)
    z_bp = numpy.concatenate((_shifted(z * bw / 2, wo), numpy.zeros(degree)))
    return z_bp, _shifted(p * bw / 2, wo), k * bw**degree


def _lp2bs_zpk(z, p, k, wo=1.0, bw=1.0):
    """The lowpass prototype turned bandstop around `wo` with width `bw` (s -> s bw / (s^2 + wo^2)); zeros at
    infinity move to +-j wo."""
    z, p = _floating_pair(z, p)
    wo, bw = float(wo), float(bw)
    degree = _degree(z, p)
    z_bs = numpy.concatenate(
        (_shifted((bw / 2) / z, wo), numpy.full(degree, +1j * wo), numpy.full(degree, -1j * wo))
    )
    return z_bs, _shifted((bw / 2) / p, wo), k * numpy.real(numpy.prod(-z) / numpy.prod(-p))


def _iirfilter(N, Wn, rp=None, rs=None, btype="band", analog=False, ftype="butter", output="ba", fs=None):
    """An order-N digital or analog filter of type `ftype` with critical frequencies Wn, in the form `output`
    ('ba', 'zpk' or 'sos'), checked and built as SciPy's iirfilter."""
    Wn = numpy.asarray(Wn, dtype=numpy.float64)
    fs = validate_fs(fs, allow_none=True)
    ftype, btype, output = (s.lower() for s in (ftype, btype, output))
    if fs is not None:
        if analog:
            raise ValueError("fs cannot be specified for an analog filter")
        Wn = Wn / (fs / 2)
    if numpy.any(Wn <= 0):
        raise ValueError("filter critical frequencies must be greater than 0")
    if Wn.size > 1 and not Wn[0] < Wn[1]:
        raise ValueError("Wn[0] must be less than Wn[1]")
    if btype not in _BANDS:
        raise ValueError(f"'{btype}' is an invalid bandtype for filter.")
    btype = _BANDS[btype]
    if ftype not in _FILTERS:
        raise ValueError(f"'{ftype}' is not a valid basic IIR filter.")
    if output not in ("ba", "zpk", "sos"):
        raise ValueError(f"'{output}' is not a valid output form.")
    if rp is not None and rp < 0:
        raise ValueError("passband ripple (rp) must be positive")
    if rs is not None and rs < 0:
        raise ValueError("stopband attenuation (rs) must be positive")

    kind = _FILTERS[ftype]
    if kind == "butter":
        z, p, k = _buttap(N)
    elif kind == "cheby1":
        if rp is None:
            raise ValueError("passband ripple (rp) must be provided to design a Chebyshev I filter.")
        z, p, k = _cheb1ap(N, rp)
    elif kind == "cheby2":
        if rs is None:
            raise ValueError("stopband attenuation (rs) must be provided to design an Chebyshev II filter.")
        z, p, k = _cheb2ap(N, rs)
    elif kind == "ellip":
        if rs is None or rp is None:
            raise ValueError("Both rp and rs must be provided to design an elliptic filter.")
        z, p, k = _ellipap(N, rp, rs)
    else:
        raise NotImplementedError(
            f"iirfilter: ftype '{ftype}' (Bessel filters) is not implemented in cuarray; "
            "design it with scipy.signal and pass the coefficients"
        )

    if not analog:  # pre-warp the frequencies for the bilinear transform
        if numpy.any(Wn <= 0) or numpy.any(Wn >= 1):
            if fs is not None:
                raise ValueError(
                    f"Digital filter critical frequencies must be 0 < Wn < fs/2 (fs={fs} -> fs/2={fs / 2})"
                )
            raise ValueError("Digital filter critical frequencies must be 0 < Wn < 1")
        fs = 2.0
        warped = 2 * fs * numpy.tan(numpy.pi * Wn / fs)
    else:
        warped = Wn

    if btype in ("lowpass", "highpass"):
        if Wn.size != 1:
            raise ValueError("Must specify a single critical frequency Wn for lowpass or highpass filter")
        z, p, k = (_lp2lp_zpk if btype == "lowpass" else _lp2hp_zpk)(z, p, k, wo=warped)
    else:
        try:
            bw = warped[1] - warped[0]
            wo = numpy.sqrt(warped[0] * warped[1])
        except IndexError as e:
            raise ValueError(
                "Wn must specify start and stop frequencies for bandpass or bandstop filter"
            ) from e
        z, p, k = (_lp2bp_zpk if btype == "bandpass" else _lp2bs_zpk)(z, p, k, wo=wo, bw=bw)

    if not analog:
        z, p, k = _bilinear_zpk(z, p, k, fs=fs)
    if output == "zpk":
        return z, p, k
    if output == "ba":
        return _zpk2tf(z, p, k)
    return _zpk2sos(z, p, k, analog=analog)


def _butter(N, Wn, btype="low", analog=False, output="ba", fs=None):
    """An order-N Butterworth filter (SciPy's butter)."""
    return _iirfilter(N, Wn, btype=btype, analog=analog, output=output, ftype="butter", fs=fs)


def _cheby1(N, rp, Wn, btype="low", analog=False, output="ba", fs=None):
    """An order-N Chebyshev type I filter with `rp` dB of passband ripple (SciPy's cheby1)."""
    return _iirfilter(N, Wn, rp=rp, btype=btype, analog=analog, output=output, ftype="cheby1", fs=fs)


def _cheby2(N, rs, Wn, btype="low", analog=False, output="ba", fs=None):
    """An order-N Chebyshev type II filter with `rs` dB of stopband attenuation (SciPy's cheby2)."""
    return _iirfilter(N, Wn, rs=rs, btype=btype, analog=analog, output=output, ftype="cheby2", fs=fs)


def _ellip(N, rp, rs, Wn, btype="low", analog=False, output="ba", fs=None):
    """An order-N elliptic (Cauer) filter with `rp` dB of passband ripple and `rs` dB of stopband attenuation
    (SciPy's ellip)."""
    return _iirfilter(N, Wn, rs=rs, rp=rp, btype=btype, analog=analog, output=output, ftype="elliptic", fs=fs)


# SciPy's order selection for each type iirdesign takes (the Bessel types have none: SciPy's ValueError).
_ORDER_SELECTION = {"butter": _buttord, "cheby1": _cheb1ord, "cheby2": _cheb2ord, "ellip": _ellipord}


def _iirdesign(wp, ws, gpass, gstop, analog=False, ftype="ellip", output="ba", fs=None):
    """The digital or analog filter of type `ftype` and least order that loses at most gpass dB over the passband
    edges wp and at least gstop dB past the stopband edges ws (one edge each for lowpass or highpass, two for
    bandpass or bandstop), checked as SciPy's iirdesign checks the specification."""
    wp, ws = numpy.asarray(wp), numpy.asarray(ws)
    if ftype not in _FILTERS:  # SciPy looks the name up as it is given, where iirfilter lowercases it
        raise ValueError(f"Invalid IIR filter type: {ftype}")
    if ftype.startswith("bessel"):
        raise ValueError(f"{ftype} does not have order selection. Use iirfilter function.")
    _check_gains(gpass, gstop)
    wp, ws = numpy.atleast_1d(wp), numpy.atleast_1d(ws)
    fs = validate_fs(fs, allow_none=True)
    if wp.shape[0] != ws.shape[0] or wp.shape not in [(1,), (2,)]:
        raise ValueError(
            f"wp and ws must have one or two elements each, and the same shape, got {wp.shape} and {ws.shape}"
        )
    if numpy.any(wp <= 0) or numpy.any(ws <= 0):
        raise ValueError("Values for wp, ws must be greater than 0")
    if not analog:
        if fs is None:
            if numpy.any(wp >= 1) or numpy.any(ws >= 1):
                raise ValueError("Values for wp, ws must be less than 1")
        elif numpy.any(wp >= fs / 2) or numpy.any(ws >= fs / 2):
            raise ValueError(f"Values for wp, ws must be less than fs/2 (fs={fs} -> fs/2={fs / 2})")
    if wp.shape[0] == 2 and not ((ws[0] < wp[0] and wp[1] < ws[1]) or (wp[0] < ws[0] and ws[1] < wp[1])):
        raise ValueError("Passband must lie strictly inside stopband or vice versa")
    band_type = 2 * (wp.shape[0] - 1) + 1 + (1 if wp[0] >= ws[0] else 0)
    btype = {1: "lowpass", 2: "highpass", 3: "bandstop", 4: "bandpass"}[band_type]
    N, Wn = _ORDER_SELECTION[_FILTERS[ftype]](wp, ws, gpass, gstop, analog=analog, fs=fs)
    return _iirfilter(
        N, Wn, rp=gpass, rs=gstop, analog=analog, btype=btype, ftype=ftype, output=output, fs=fs
    )


buttap = on_host(_buttap, "buttap")
cheb1ap = on_host(_cheb1ap, "cheb1ap")
cheb2ap = on_host(_cheb2ap, "cheb2ap")
ellipap = on_host(_ellipap, "ellipap")
bilinear_zpk = on_host(_bilinear_zpk, "bilinear_zpk")
lp2lp_zpk = on_host(_lp2lp_zpk, "lp2lp_zpk")
lp2hp_zpk = on_host(_lp2hp_zpk, "lp2hp_zpk")
lp2bp_zpk = on_host(_lp2bp_zpk, "lp2bp_zpk")
lp2bs_zpk = on_host(_lp2bs_zpk, "lp2bs_zpk")
iirfilter = on_host(_iirfilter, "iirfilter")
butter = on_host(_butter, "butter")
cheby1 = on_host(_cheby1, "cheby1")
cheby2 = on_host(_cheby2, "cheby2")
ellip = on_host(_ellip, "ellip")
iirdesign = on_host(_iirdesign, "iirdesign")
