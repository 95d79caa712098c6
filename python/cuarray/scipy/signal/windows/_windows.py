"""SciPy's window functions (scipy.signal.windows) as float64 device arrays, and get_window with SciPy 1.17's
window names, aliases, tuple forms and errors. Each window is SciPy's formula in SciPy's order of operations on
the device; only parameters of a few numbers (taylor's coefficients, chebwin's beta) are worked out on the host.

Not here: dpss (a tridiagonal eigenproblem; CuPy has none either), and SciPy 1.17's `xp=` and `device=`
keywords (a window is always a device array on the current device, as CuPy's)."""

import numbers
import operator
import warnings

import numpy

import cuarray as cp
from cuarray.scipy.fft import fft

_F8 = numpy.float64


def _host(values):
    """Design parameters (a window's coefficients) as a host array: device arrays are copied back."""
    return values.get() if isinstance(values, cp.ndarray) else numpy.asarray(values)


# Note [Window lengths]
# SciPy's check comes first: a negative or fractional M is its ValueError. A float M that passes it (5.0) is
# TypeError here, as NumPy's creation functions answer it: SciPy's windows differ among themselves there (most
# raise TypeError from np.ones or np.linspace, a few take it), and one rule is easier to rely on.
def _length(M):
    """M checked as SciPy checks a window length, as an int (Note [Window lengths])."""
    if int(M) != M or M < 0:
        raise ValueError("Window length M must be a non-negative integer")
    return operator.index(M)


def _ones(M):
    """SciPy's window of 0 or 1 points."""
    return cp.ones(M, dtype=_F8)


def _extend(M, sym):
    """One more point for a periodic (DFT-even) window, dropped again by _truncate."""
    return (M, False) if sym else (M + 1, True)


def _truncate(w, needed):
    return w[:-1] if needed else w


def _cosine_sum(M, a, sym):
    """sum_k a[k] cos(k x) over x = linspace(-pi, pi, M): SciPy's general cosine window."""
    M = _length(M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    fac = cp.linspace(-numpy.pi, numpy.pi, M, dtype=_F8)
    w = cp.zeros(M, dtype=_F8)
    for k in range(a.shape[0]):
        w += a[k].item() * cp.cos(k * fac)
    return _truncate(w, trunc)


def general_cosine(M, a, sym=True):
    """A weighted sum of cosine terms with coefficients `a` (host or device values)."""
    return _cosine_sum(M, _host(a), sym)


def boxcar(M, sym=True):
    """The rectangular window (ones)."""
    M = _length(M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    return _truncate(_ones(M), trunc)


def triang(M, sym=True):
    """The triangular window, which does not reach zero at its ends."""
    M = _length(M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    n = cp.arange(1, (M + 1) // 2 + 1, dtype=_F8)
    if M % 2 == 0:
        w = (2 * n - 1.0) / M
        w = cp.concatenate((w, cp.flip(w)))
    else:
        w = 2 * n / (M + 1.0)
        w = cp.concatenate((w, cp.flip(w[:-1])))
    return _truncate(w, trunc)


def parzen(M, sym=True):
    """The Parzen window (piecewise cubic)."""
    M = _length(M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    # SciPy's arange(-(M-1)/2, (M-1)/2 + 0.5): the same half-integers, each exact.
    n = cp.abs(cp.arange(M, dtype=_F8) - (M - 1) / 2.0)
    ratio = n / (M / 2.0)
    inner = 1 - 6 * ratio**2.0 + 6 * ratio**3.0
    outer = 2 * (1 - ratio) ** 3.0
    return _truncate(cp.where(n <= (M - 1) / 4.0, inner, outer), trunc)


def bohman(M, sym=True):
    """The Bohman window."""
    M = _length(M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    fac = cp.abs(cp.linspace(-1, 1, M, dtype=_F8)[1:-1])
    w = (1 - fac) * cp.cos(numpy.pi * fac) + 1.0 / numpy.pi * cp.sin(numpy.pi * fac)
    zero = cp.zeros(1, dtype=_F8)
    return _truncate(cp.concatenate((zero, w, zero)), trunc)


def blackman(M, sym=True):
    """The Blackman window (three cosine terms)."""
    return _cosine_sum(M, numpy.array([0.42, 0.50, 0.08]), sym)


def nuttall(M, sym=True):
    """Nuttall's minimum 4-term Blackman-Harris window."""
    return _cosine_sum(M, numpy.array([0.3635819, 0.4891775, 0.1365995, 0.0106411]), sym)


def blackmanharris(M, sym=True):
    """The minimum 4-term Blackman-Harris window."""
    return _cosine_sum(M, numpy.array([0.35875, 0.48829, 0.14128, 0.01168]), sym)


def flattop(M, sym=True):
    """The flat top window (five cosine terms)."""
    a = numpy.array([0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368])
    return _cosine_sum(M, a, sym)


def bartlett(M, sym=True):
    """The Bartlett window: triangular, zero at both ends."""
    M = _length(M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    n = cp.arange(M, dtype=_F8)
    w = cp.where(n <= (M - 1) / 2.0, 2.0 * n / (M - 1), 2.0 - 2.0 * n / (M - 1))
    return _truncate(w, trunc)


def hann(M, sym=True):
    """The Hann window (a raised cosine that touches zero)."""
    return general_hamming(M, 0.5, sym)


def tukey(M, alpha=0.5, sym=True):
    """The Tukey (tapered cosine) window: `alpha` is the tapered fraction (0: boxcar, 1: hann)."""
    M = _length(M)
    if M <= 1:
        return _ones(M)
    if alpha <= 0:
        return _ones(M)
    if alpha >= 1.0:
        return hann(M, sym=sym)
    M, trunc = _extend(M, sym)
    n = cp.arange(M, dtype=_F8)
    width = int(numpy.floor(alpha * (M - 1) / 2.0))
    n1, n2, n3 = n[: width + 1], n[width + 1 : M - width - 1], n[M - width - 1 :]
    w1 = 0.5 * (1 + cp.cos(numpy.pi * (-1 + 2.0 * n1 / alpha / (M - 1))))
    w3 = 0.5 * (1 + cp.cos(numpy.pi * (-2.0 / alpha + 1 + 2.0 * n3 / alpha / (M - 1))))
    return _truncate(cp.concatenate((w1, _ones(n2.shape[0]), w3)), trunc)


def barthann(M, sym=True):
    """The modified Bartlett-Hann window."""
    M = _length(M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    fac = cp.abs(cp.arange(M, dtype=_F8) / (M - 1.0) - 0.5)
    w = 0.62 - 0.48 * fac + 0.38 * cp.cos(2 * numpy.pi * fac)
    return _truncate(w, trunc)


def general_hamming(M, alpha, sym=True):
    """alpha - (1 - alpha) cos(2 pi n / (M - 1)): hann is alpha = 0.5, hamming 0.54."""
    return _cosine_sum(M, numpy.array([alpha, 1.0 - alpha], dtype=_F8), sym)


def hamming(M, sym=True):
    """The Hamming window."""
    return general_hamming(M, 0.54, sym)


def kaiser(M, beta, sym=True):
    """The Kaiser window: I0(beta sqrt(1 - (2n/(M-1) - 1)^2)) / I0(beta)."""
    M = _length(M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    n = cp.arange(M, dtype=_F8)
    alpha = (M - 1) / 2.0
    arg = beta * cp.sqrt(1 - cp.square((n - alpha) / alpha))
    # The same I0 for both, so that the middle point of an odd window is exactly 1, as SciPy's.
    w = cp.i0(arg) / cp.i0(cp.asarray(beta, dtype=_F8))
    return _truncate(w, trunc)


def kaiser_bessel_derived(M, beta, *, sym=True):
    """The Kaiser-Bessel derived window (even M, symmetric only), for the MDCT: the square roots of the
    normalised running sums of a Kaiser window of M/2 + 1 points, mirrored."""
    if not sym:
        raise ValueError("Kaiser-Bessel Derived windows are only defined for symmetric shapes")
    if M < 1:
        return cp.zeros(0, dtype=_F8)  # SciPy's asarray([]), whatever M below 1 is
    if M % 2:
        raise ValueError("Kaiser-Bessel Derived windows are only defined for even number of points")
    csum = cp.cumsum(kaiser(int(M) // 2 + 1, beta))
    half = cp.sqrt(csum[:-1] / csum[-1])
    return cp.concatenate((half, cp.flip(half)))


def gaussian(M, std, sym=True):
    """The Gaussian window of standard deviation `std` (in samples)."""
    M = _length(M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    n = cp.arange(M, dtype=_F8) - (M - 1.0) / 2.0
    sig2 = 2 * std * std
    return _truncate(cp.exp(-cp.square(n) / sig2), trunc)


def general_gaussian(M, p, sig, sym=True):
    """exp(-0.5 |n / sig|^(2p)): a Gaussian for p = 1, flatter for larger p."""
    M = _length(M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    n = cp.arange(M, dtype=_F8) - (M - 1.0) / 2.0
    return _truncate(cp.exp(-0.5 * cp.abs(n / sig) ** (2 * p)), trunc)


_CHEBWIN_WARNING = (
    "This window is not suitable for spectral analysis for attenuation values lower than about 45dB because "
    "the equivalent noise bandwidth of a Chebyshev window does not grow monotonically with increasing "
    "sidelobe attenuation when the attenuation is smaller than about 45 dB."
)


def chebwin(M, at, sym=True):
    """The Dolph-Chebyshev window of `at` dB sidelobe attenuation: the inverse DFT of a Chebyshev polynomial
    sampled on the unit circle, normalised to a largest value of 1."""
    if abs(at) < 45:
        warnings.warn(_CHEBWIN_WARNING, stacklevel=2)
    M = _length(M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    order = M - 1.0
    beta = float(numpy.cosh(1.0 / order * numpy.arccosh(10 ** (abs(at) / 20.0))))
    k = cp.arange(M, dtype=_F8)
    x = beta * cp.cos(numpy.pi * k / M)
    # Each branch is NaN outside its domain; where() keeps each where it holds (SciPy's masked assignments).
    above = cp.cosh(order * cp.arccosh(x))
    below = (2 * (M % 2) - 1) * cp.cosh(order * cp.arccosh(-x))
    inside = cp.cos(order * cp.arccos(x))
    p = cp.where(x > 1, above, cp.where(x < -1, below, inside))
    if M % 2:
        n = (M + 1) // 2
        w = cp.real(fft(p))[:n]
        w = cp.concatenate((cp.flip(w[1:n]), w))
    else:
        p = p * cp.exp(1j * numpy.pi / M * cp.arange(M, dtype=_F8))
        n = M // 2 + 1
        w = cp.real(fft(p))
        w = cp.concatenate((cp.flip(w[1:n]), w[1:n]))
    return _truncate(w / cp.max(w), trunc)


def cosine(M, sym=True):
    """The cosine (sine) window: sin(pi (n + 0.5) / M)."""
    M = _length(M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    return _truncate(cp.sin(numpy.pi / M * (cp.arange(M, dtype=_F8) + 0.5)), trunc)


def exponential(M, center=None, tau=1.0, sym=True):
    """The exponential (Poisson) window exp(-|n - center| / tau); `center` only for a periodic window."""
    if sym and center is not None:
        raise ValueError("If sym==True, center must be None.")
    M = _length(M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    if center is None:
        center = (M - 1) / 2
    n = cp.arange(M, dtype=_F8)
    return _truncate(cp.exp(-cp.abs(n - center) / tau), trunc)


def taylor(M, nbar=4, sll=30, norm=True, sym=True):
    """The Taylor window of `nbar` nearly constant sidelobes `sll` dB down (radar); with `norm`, scaled so
    that its middle is 1."""
    M = _length(M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    # The nbar - 1 coefficients Fm, on the host as SciPy computes them (sll is a positive level here).
    B = 10 ** (sll / 20)
    A = numpy.arccosh(B) / numpy.pi
    s2 = nbar**2 / (A**2 + (nbar - 0.5) ** 2)
    ma = numpy.arange(1, nbar, dtype=_F8)
    signs = numpy.where(numpy.arange(ma.shape[0]) % 2 == 0, 1.0, -1.0)
    m2 = ma * ma
    Fm = numpy.empty(nbar - 1, dtype=_F8)
    for mi in range(ma.shape[0]):
        numer = signs[mi] * numpy.prod(1 - m2[mi] / s2 / (A**2 + (ma - 0.5) ** 2))
        denom = 2 * numpy.prod(1 - m2[mi] / m2[:mi]) * numpy.prod(1 - m2[mi] / m2[mi + 1 :])
        Fm[mi] = numer / denom
    n = cp.arange(M, dtype=_F8)
    phase = 2 * numpy.pi * cp.asarray(ma)[:, None] * (n - M / 2.0 + 0.5) / M
    # 1 + 2 Fm @ cos(phase), summed over the few coefficients (an empty sum for nbar == 1).
    w = 1 + 2 * cp.sum(cp.asarray(Fm)[:, None] * cp.cos(phase), axis=0)
    if norm:
        middle = 1 + 2 * numpy.matmul(Fm, numpy.cos(2 * numpy.pi * ma * ((M - 1) / 2 - M / 2.0 + 0.5) / M))
        w *= 1.0 / float(middle)
    return _truncate(w, trunc)


def lanczos(M, *, sym=True):
    """The Lanczos (sinc) window: sinc(2n/(M-1) - 1), built from its right half so that it is symmetric."""
    M = _length(M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    right = cp.sinc(2.0 * cp.arange((M + 1) // 2, M, dtype=_F8) / (M - 1) - 1.0)
    if M % 2 == 0:
        w = cp.concatenate((cp.flip(right), right))
    else:
        w = cp.concatenate((cp.flip(right), _ones(1), right))
    return _truncate(w, trunc)


def _not_here(*args, **kwargs):
    raise NotImplementedError("the dpss window is not implemented in cuarray.scipy.signal.windows")


# SciPy 1.17's names (function, takes parameters: True, False or "optional"); 'hanning' also, as CuPy's
# get_window takes it (SciPy 1.17 no longer does). 'dpss' is known, and NotImplementedError.
_WINDOWS = {
    ("barthann", "brthan", "bth"): (barthann, False),
    ("bartlett", "bart", "brt"): (bartlett, False),
    ("blackman", "black", "blk"): (blackman, False),
    ("blackmanharris", "blackharr", "bkh"): (blackmanharris, False),
    ("bohman", "bman", "bmn"): (bohman, False),
    ("boxcar", "box", "ones", "rect", "rectangular"): (boxcar, False),
    ("chebwin", "cheb"): (chebwin, True),
    ("cosine", "halfcosine"): (cosine, False),
    ("dpss",): (_not_here, True),
    ("exponential", "poisson"): (exponential, "optional"),
    ("flattop", "flat", "flt"): (flattop, False),
    ("gaussian", "gauss", "gss"): (gaussian, True),
    ("general cosine", "general_cosine"): (general_cosine, True),
    ("general gaussian", "general_gaussian", "general gauss", "general_gauss", "ggs"): (
        general_gaussian,
        True,
    ),
    ("general hamming", "general_hamming"): (general_hamming, True),
    ("hamming", "hamm", "ham"): (hamming, False),
    ("hann", "han", "hanning"): (hann, False),
    ("kaiser", "ksr"): (kaiser, True),
    ("kaiser bessel derived", "kaiser_bessel_derived", "kbd"): (kaiser_bessel_derived, True),
    ("lanczos", "sinc"): (lanczos, False),
    ("nuttall", "nutl", "nut"): (nuttall, False),
    ("parzen", "parz", "par"): (parzen, False),
    ("taylor", "taylorwin"): (taylor, "optional"),
    ("triangle", "triang", "tri"): (triang, False),
    ("tukey", "tuk"): (tukey, "optional"),
}
_BY_NAME = {name: entry for names, entry in _WINDOWS.items() for name in names}


def get_window(window, Nx, fftbins=True):
    """The window named by `window` (a name, a tuple of a name and its parameters, or a float: a Kaiser
    window's beta) of `Nx` points: periodic if `fftbins` (the default), else symmetric; a name's '_periodic'
    or '_symmetric' suffix overrides `fftbins`. SciPy's names, aliases and ValueErrors."""
    if not (Nx > 0 and isinstance(Nx, numbers.Integral)):
        raise ValueError(f"Parameter {Nx=} is not a positive integer")
    if not isinstance(fftbins, bool):
        raise ValueError(f"Parameter {fftbins=} is not of type bool!")  # noqa: TRY004  (SciPy's type)
    if not isinstance(window, (str, tuple)):
        try:
            beta = float(window)
        except Exception as error:
            raise ValueError(f"Parameter {window=} must be a tuple, a string or a float!") from error
        return kaiser(Nx, beta, not fftbins)
    if isinstance(window, tuple) and not isinstance(window[0], str):
        raise ValueError(f"First tuple entry of parameter {window=} is not a str!")  # noqa: TRY004
    sym = not fftbins
    name = window if isinstance(window, str) else window[0]
    if name.endswith("_symmetric"):
        sym, name = True, name[: -len("_symmetric")]
    elif name.endswith("_periodic"):
        sym, name = False, name[: -len("_periodic")]
    if name not in _BY_NAME:
        raise ValueError(f"Invalid window name '{name}' in parameter {window=}!")
    func, takes = _BY_NAME[name]
    args = window[1:] if isinstance(window, tuple) else ()
    if args and takes is False:
        raise ValueError(f"'{name}' does not allow parameters, but {window=}!")
    if not args and takes is True:
        raise ValueError(f"'{name}' must have parameters, but {window=}!")
    return func(Nx, *args, sym=sym)
