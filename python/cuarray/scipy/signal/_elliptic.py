"""The elliptic integrals and functions SciPy's elliptic filter design (ellipap, ellipord, band_stop_obj) takes
from scipy.special (ellipk, ellipkm1, ellipj), written with NumPy and math since cuarray imports no SciPy, and the
design's own inverse Jacobi functions and degree equation (SciPy's _arc_jac_sn, _arc_jac_sc1, _ellipdeg): host
maths in float64 (Note [Filter design on the host] in _iir_forms.py; Note [Elliptic functions on the host])."""

import itertools
import math

import numpy

# Note [Elliptic functions on the host]
# SciPy's elliptic design reads its zeros, poles and order off K(m) (special.ellipk), K(1 - m) (special.ellipkm1)
# and Jacobi's sn, cn and dn (special.ellipj), all Cephes' routines. Each is Cephes' here, step for step, through
# the C library's functions (Python's math module, where NumPy's own SIMD log may round otherwise): K is ellpk,
# its polynomial fit in p = 1 - m (p itself for ellipkm1, so that K(1 - p) keeps its digits for p near 0, where
# 1 - p would round), and sn, cn and dn are ellpj (its series for m near 0 and near 1, otherwise the descending
# Landen / AGM scale and its backward recurrence on the amplitude). Being SciPy's to the bit matters: a high
# order's selectivity m lies within 1e-11 of 1, where one unit in the last place of K'(m1) moves m, and so
# 1 - m, K(m) and the poles, by parts in 1e7 (an order-21 filter of 3 dB ripple and 20 dB attenuation, with
# K by the arithmetic-geometric mean: accurate, yet an ulp off Cephes' fit). The filter's values then follow
# from SciPy's own steps, below and in _iir_design._ellipap.

_MACHEP = 2.0**-53  # Cephes' MACHEP, where ellpk switches to its logarithm and ellpj's AGM scale stops
# Cephes' ellpk: K(1 - p) = P(p) - log(p) Q(p) for MACHEP < p <= 1, highest powers first
_ELLPK_P = (
    1.37982864606273237150e-4,
    2.28025724005875567385e-3,
    7.97404013220415179367e-3,
    9.85821379021226008714e-3,
    6.87489687449949877925e-3,
    6.18901033637687613229e-3,
    8.79078273952743772254e-3,
    1.49380448916805252718e-2,
    3.08851465246711995998e-2,
    9.65735902811690126535e-2,
    1.38629436111989062502e0,
)
_ELLPK_Q = (
    2.94078955048598507511e-5,
    9.14184723865917226571e-4,
    5.94058303753167793257e-3,
    1.54850516649762399335e-2,
    2.39089602715924892727e-2,
    3.01204715227604046988e-2,
    3.73774314173823228969e-2,
    4.88280347570998239232e-2,
    7.03124996963957469739e-2,
    1.24999999999870820058e-1,
    4.99999999999999999821e-1,
)
_LOG4 = 1.3862943611198906188  # K(1 - p) = log(4) - log(p) / 2 for p below MACHEP


def _horner(x, coefficients):
    """The polynomial of `coefficients` (highest power first) at x, as Cephes' polevl sums it."""
    value = coefficients[0]
    for c in coefficients[1:]:
        value = value * x + c
    return value


def _quarter_period(p):
    """K(1 - p) for one p, as Cephes' ellpk: NaN below 0, inf at 0, 0 at inf, by K(1 - p) = K(1 - 1/p) / sqrt(p)
    above 1."""
    if p < 0.0:
        return math.nan
    if p > 1.0:
        return 0.0 if math.isinf(p) else _quarter_period(1 / p) / math.sqrt(p)
    if p > _MACHEP:
        return _horner(p, _ELLPK_P) - math.log(p) * _horner(p, _ELLPK_Q)
    if p == 0.0:
        return math.inf
    return _LOG4 - 0.5 * math.log(p)  # and NaN for NaN (math.log passes it through)


def _result_type(*arrays):
    """SciPy's ufuncs' result type: float32 where every argument is float32 (computed in float64 and rounded, as
    there), float64 otherwise."""
    return numpy.float32 if all(a.dtype == numpy.float32 for a in arrays) else numpy.float64


def _each(f, x):
    """f of each value of x (in float64): an array of x's shape, a scalar for a scalar, of SciPy's type."""
    x = numpy.asarray(x)
    values = numpy.asarray([f(float(v)) for v in x.astype(numpy.float64).flat], dtype=numpy.float64)
    return values.reshape(x.shape).astype(_result_type(x))[()]


def _ellipk(m):
    """K(m), the complete elliptic integral of the first kind, for each m (SciPy's special.ellipk, Cephes'
    ellpk(1 - m)): inf at m = 1, NaN past it, 0 at m = -inf, as SciPy's (which warns of none of them)."""
    return _each(lambda v: _quarter_period(1.0 - v), m)


def _ellipkm1(p):
    """K(1 - p) for each p (SciPy's special.ellipkm1, Cephes' ellpk(p)), accurate for p near 0 where 1 - p would
    round: inf at p = 0, NaN below it, 0 at p = inf."""
    return _each(_quarter_period, p)


def _libm(f, x):
    """f(x) as the C library gives it: inf where Python's math raises OverflowError, NaN where it raises
    ValueError (an argument out of the domain, an infinite one)."""
    try:
        return f(x)
    except OverflowError:
        return math.copysign(math.inf, x) if f is math.sinh else math.inf
    except ValueError:
        return math.nan


def _jacobi(u, m):
    """sn, cn, dn and the amplitude phi of one u and one parameter m, as Cephes' ellpj computes them (Note
    [Elliptic functions on the host]): NaN for m outside [0, 1]."""
    if not 0.0 <= m <= 1.0:
        return math.nan, math.nan, math.nan, math.nan
    if m < 1.0e-9:  # sin and cos, corrected to first order in m
        t, b = _libm(math.sin, u), _libm(math.cos, u)
        ai = 0.25 * m * (u - t * b)
        return t - ai * b, b + ai * t, 1.0 - 0.5 * m * t * t, u - ai
    if m >= 0.9999999999:  # tanh and sech, corrected to first order in 1 - m
        ai = 0.25 * (1.0 - m)
        b = _libm(math.cosh, u)
        t = math.tanh(u)
        phi = 1.0 / b
        twon = b * _libm(math.sinh, u)
        sn = t + ai * (twon - u) / (b * b)
        ph = 2.0 * math.atan(_libm(math.exp, u)) - math.pi / 2 + ai * (twon - u) / b
        ai *= t * phi
        return sn, phi - ai * (twon - u), phi + ai * (twon + u), ph
    # the AGM scale (DLMF 22.20(ii)): a[i] the means, c[i] the half differences, at most 8 steps as Cephes'
    a, c = [1.0], [math.sqrt(m)]
    b = math.sqrt(1.0 - m)
    twon = 1.0
    while abs(c[-1] / a[-1]) > _MACHEP and len(a) <= 8:
        ai = a[-1]
        c.append((ai - b) / 2.0)
        t = math.sqrt(ai * b)
        a.append((ai + b) / 2.0)
        b = t
        twon *= 2.0
    # the backward recurrence from the last scale's amplitude down to phi
    phi = twon * a[-1] * u
    for i in range(len(a) - 1, 0, -1):
        t = c[i] * _libm(math.sin, phi) / a[i]
        b = phi
        phi = (_libm(math.asin, t) + phi) / 2.0
    sn = _libm(math.sin, phi)
    cn = _libm(math.cos, phi)
    dnfac = _libm(math.cos, phi - b)
    # where cos(phi - b) is small, its quotient loses digits: dn from sn instead (after DLMF 22.20.5)
    dn = _libm(math.sqrt, 1 - m * sn * sn) if abs(dnfac) < 0.1 else cn / dnfac
    return sn, cn, dn, phi


def _ellipj(u, m):
    """Jacobi's sn, cn, dn and the amplitude phi for u and m broadcast together (SciPy's special.ellipj): arrays,
    scalars for scalars, of SciPy's type."""
    u, m = numpy.broadcast_arrays(numpy.asarray(u), numpy.asarray(m))
    dtype = _result_type(u, m)
    u, m = u.astype(numpy.float64), m.astype(numpy.float64)
    values = numpy.asarray([_jacobi(float(x), float(y)) for x, y in zip(u.flat, m.flat)], dtype=numpy.float64)
    values = values.reshape(u.shape + (4,)).astype(dtype)
    return tuple(values[..., i][()] for i in range(4))


def _pow10m1(x):
    """10**x - 1, accurate for x near 0 (SciPy's _pow10m1)."""
    return math.expm1(math.log(10) * x)


# Landen's transformation shrinks the modulus quadratically: SciPy stops after 10 steps (4 suffice in its tests).
_LANDEN_STEPS = 10


def _complement(k):
    """sqrt(1 - k^2), as (1 - k)(1 + k) for small k (SciPy's form: a complex k takes Python's complex power)."""
    return ((1 - k) * (1 + k)) ** 0.5


def _arc_jac_sn(w, m):
    """z with sn(z, m) = w for a complex w and 0 <= m <= 1, by descending Landen transformations (SciPy's
    _arc_jac_sn, after Orfanidis' lecture notes on elliptic filter design, eq. 56)."""
    k = m**0.5
    if k > 1:
        return numpy.nan
    if k == 1:
        return numpy.arctanh(w)
    moduli = [k]
    while moduli[-1] != 0:
        k_prime = _complement(moduli[-1])
        moduli.append((1 - k_prime) / (1 + k_prime))
        if len(moduli) > _LANDEN_STEPS + 1:
            raise ValueError("Landen transformation not converging")
    quarter_period = numpy.prod(1 + numpy.array(moduli[1:])) * numpy.pi / 2
    for kn, k_next in itertools.pairwise(moduli):
        w = 2 * w / ((1 + k_next) * (1 + _complement(kn * w)))
    return quarter_period * (2 / numpy.pi * numpy.arcsin(w))


def _arc_jac_sc1(w, m):
    """The real z with sc(z, 1 - m) = w for a real w (SciPy's _arc_jac_sc1), through sc(z, m) = -i sn(iz, 1 - m):
    SciPy's bare ValueError where the inverse is not imaginary."""
    z = _arc_jac_sn(1j * w, m)
    if abs(z.real) > 1e-14:
        raise ValueError
    return z.imag


_NOME_TERMS = 7  # terms of the nome series in the degree equation, as SciPy's _ELLIPDEG_MMAX


def _ellipdeg(n, m1):
    """The m with n K(m) / K'(m) = K(m1) / K'(m1), by nomes (SciPy's _ellipdeg, Orfanidis eq. 49)."""
    q1 = numpy.exp(-numpy.pi * _ellipkm1(m1) / _ellipk(m1))
    q = q1 ** (1 / n)
    num_powers = numpy.arange(_NOME_TERMS + 1)
    den_powers = numpy.arange(1, _NOME_TERMS + 2)
    num = numpy.sum(q ** (num_powers * (num_powers + 1)))
    den = 1 + 2 * numpy.sum(q ** (den_powers**2))
    return 16 * q * (num / den) ** 4
