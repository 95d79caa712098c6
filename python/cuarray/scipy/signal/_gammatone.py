"""SciPy's gammatone: the FIR or IIR gammatone filter of Slaney's auditory filter bank ("An Efficient
Implementation of the Patterson-Holdsworth Auditory Filter Bank", Apple Computer Technical Report 35, 1993),
designed on the host as the other filter designs are (Note [Filter design on the host] in _iir_forms.py) and
returned as float64 device arrays (b, a), as CuPy's."""

import cmath
import math
import operator
import warnings

import numpy

from cuarray.scipy.signal._iir_forms import on_host, validate_fs


def _hz_to_erb(hz):
    """The equivalent rectangular bandwidth of the auditory filter centred at `hz` (Glasberg and Moore's
    constants, as SciPy's)."""
    ear_q, min_bw = 9.26449, 24.7
    return hz / ear_q + min_bw


def _fir(freq, order, numtaps, fs):
    """The gammatone impulse response t^(order-1) exp(-2 pi bw t) cos(2 pi freq t) at `numtaps` samples, scaled
    so that the gain at `freq` is 1."""
    if order is None:
        order = 4
    order = operator.index(order)
    if numtaps is None:
        numtaps = max(int(fs * 0.015), 15)
    numtaps = operator.index(numtaps)
    if not 0 < order <= 24:
        raise ValueError("Invalid order: order must be > 0 and <= 24.")
    t = numpy.arange(numtaps, dtype=numpy.float64) / fs
    bw = 1.019 * _hz_to_erb(freq)
    b = (t ** (order - 1)) * numpy.exp(-2 * numpy.pi * bw * t)
    b = b * numpy.cos(2 * numpy.pi * freq * t)
    scale = 2 * (2 * numpy.pi * bw) ** order
    scale /= float(math.factorial(order - 1))  # SciPy's float_factorial (exact up to order 24)
    scale /= fs
    return b * scale, numpy.asarray([1.0])


# Note [The IIR gammatone]
# Slaney's 4th-order gammatone as an 8th-order IIR filter: four complex-conjugate pole pairs at
# exp(-bw T +- j fr), zeros placed by the closed forms of his report, and the gain g that makes the response 1 at
# the centre frequency. The terms are SciPy's, in Python floats and complex numbers in SciPy's order, so the
# coefficients are SciPy's bit for bit (CuPy computes them in a one-thread device kernel).
def _iir(freq, fs):
    T = 1.0 / fs
    bw = 2 * math.pi * 1.019 * _hz_to_erb(freq)
    fr = 2 * freq * math.pi * T
    bwT = bw * T
    # the gain at the centre frequency, from the four second-order parts' responses there
    g1 = -2 * cmath.exp(2j * fr) * T
    g2 = 2 * cmath.exp(-(bwT) + 1j * fr) * T
    g3 = math.sqrt(3 + 2 ** (3 / 2)) * math.sin(fr)
    g4 = math.sqrt(3 - 2 ** (3 / 2)) * math.sin(fr)
    g5 = cmath.exp(2j * fr)
    g = g1 + g2 * (math.cos(fr) - g4)
    g *= g1 + g2 * (math.cos(fr) + g4)
    g *= g1 + g2 * (math.cos(fr) - g3)
    g *= g1 + g2 * (math.cos(fr) + g3)
    g /= (-2 / math.exp(2 * bwT) - 2 * g5 + 2 * (1 + g5) / math.exp(bwT)) ** 4
    g = math.hypot(g.real, g.imag)
    b = [
        (T**4) / g,
        -4 * T**4 * math.cos(fr) / math.exp(bw * T) / g,
        6 * T**4 * math.cos(2 * fr) / math.exp(2 * bw * T) / g,
        -4 * T**4 * math.cos(3 * fr) / math.exp(3 * bw * T) / g,
        T**4 * math.cos(4 * fr) / math.exp(4 * bw * T) / g,
    ]
    a3 = -8 * (6 * math.cos(fr) + math.cos(3 * fr))
    a4 = 2 * (18 + 16 * math.cos(2 * fr) + math.cos(4 * fr))
    a = [
        1,
        -8 * math.cos(fr) / math.exp(bw * T),
        4 * (4 + 3 * math.cos(2 * fr)) / math.exp(2 * bw * T),
        a3 / math.exp(3 * bw * T),
        a4 / math.exp(4 * bw * T),
        a3 / math.exp(5 * bw * T),
        4 * (4 + 3 * math.cos(2 * fr)) / math.exp(6 * bw * T),
        -8 * math.cos(fr) / math.exp(7 * bw * T),
        math.exp(-8 * bw * T),
    ]
    return numpy.asarray(b), numpy.asarray(a, dtype=numpy.float64)


def _gammatone(freq, ftype, order=None, numtaps=None, fs=None):
    """The gammatone filter (b, a) centred at `freq` (in the units of `fs`, default 2): an FIR filter of
    `numtaps` taps and order `order` ('fir'), or Slaney's 8th-order IIR filter ('iir', which uses neither)."""
    freq = float(freq)
    fs = validate_fs(2 if fs is None else fs, allow_none=False)
    ftype = ftype.lower()
    if not 0 < freq < fs / 2:
        raise ValueError(f"The frequency must be between 0 and {fs / 2} (Nyquist), but given {freq}.")
    if ftype not in ("fir", "iir"):
        raise ValueError("ftype must be either fir or iir.")
    if ftype == "fir":
        return _fir(freq, order, numtaps, fs)
    if order is not None:
        warnings.warn("order is not used for IIR gammatone filter.", stacklevel=3)
    if numtaps is not None:
        warnings.warn("numtaps is not used for IIR gammatone filter.", stacklevel=3)
    return _iir(freq, fs)


gammatone = on_host(_gammatone, "gammatone")

__all__ = ["gammatone"]
