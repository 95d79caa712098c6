"""SciPy's cont2discrete (a continuous-time system turned discrete by zero- or first-order hold, impulse invariance
or a generalized bilinear transform) and the matrix exponential it and lsim need (scipy.linalg.expm, which cuarray
imports no SciPy to call): host maths on a system's few coefficients, as the other filter-design functions (Note
[Filter design on the host] in _iir_forms.py). The private `_name` functions take and return NumPy arrays."""

import math

import numpy

from cuarray.scipy.signal._filter_extras import _ss2zpk, _zpk2ss
from cuarray.scipy.signal._iir_forms import host, on_device
from cuarray.scipy.signal._tf_transforms import _ss2tf, _tf2ss

# ---- the matrix exponential ---------------------------------------------------------------------------------

# Note [SciPy's expm]
# scipy.linalg.expm is Al-Mohy and Higham's scaling and squaring: a Pade approximant of order m in {3, 5, 7, 9, 13}
# of A / 2^s, squared s times. Which m and s it picks decides the result's last bits, so _expm makes the same
# choice by the same tests as SciPy's C code (pick_pade_structure): the 1-norms of A^4, A^6, A^8 and A^10 against
# the thetas below, and the 1-norm of |A|^(2m+1), found by repeated products of |A|^T with a vector of ones, against
# the coefficients below (u the unit roundoff of the working precision; SciPy's C code converts a non-finite
# logarithm to the integer 0 there). SciPy estimates the norms of A^8 and A^10 for matrices of 400 rows or more; the
# systems here are far smaller, and _expm computes them. SciPy 1.18 rewrote expm in C (its 1.18.0 took the
# infinity norms for the 1-norms; 1.18.1 restored the 1-norms, which 1.17 and _expm take): _expm follows 1.18.1,
# its products in the same order (A^6 = A^4 A^2, A^10 = A^6 A^4, the approximant's odd part U = (...) A and
# r_m = I + 2 U (V - U)^-1), which gives the same bits more often (the orders are mathematically the same).
# A diagonal matrix's exponential is that of its diagonal. A triangular one's diagonal and first off-diagonal are
# set after each squaring from the exact formulas (Note [C's complex arithmetic]); SciPy 1.17 also set the
# approximant's diagonal before the first squaring and cleared the other triangle at the end, SciPy 1.18 does
# neither (where the squarings overflow, 0 * inf puts NaN in the other triangle, as it does here).
_THETAS = (
    1.495585217958292e-002,
    2.539398330063230e-001,
    9.504178996162932e-001,
    2.097847961257068e000,
    4.25,
)
# u times 100800, 10059033600, 4487938430976000, 5914384781877411840000 and 113250775606021113483283660800000000,
# as SciPy's C code spells them for double (its last three differ from the exact products in the 8th digit) and
# single precision.
_ERROR_COEFFS = {
    numpy.float64: (
        1.1191048088221578e-11,
        1.1167770708198077e-06,
        4.9826124310493469e-01,
        6.56628625e05,
        1.2573361865339437e19,
    ),
    numpy.float32: (
        6.0081481933593750e-03,
        5.9956512451171875e02,
        2.67501968e08,
        3.52524808749056e14,
        6.7502722515508048e27,
    ),
}
_PADE = {
    3: (120.0, 60.0, 12.0, 1.0),
    5: (30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0),
    7: (17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0),
    9: (
        17643225600.0,
        8821612800.0,
        2075673600.0,
        302702400.0,
        30270240.0,
        2162160.0,
        110880.0,
        3960.0,
        90.0,
        1.0,
    ),
    13: (
        64764752532480000.0,
        32382376266240000.0,
        7771770303897600.0,
        1187353796428800.0,
        129060195264000.0,
        10559470521600.0,
        670442572800.0,
        33522128640.0,
        1323241920.0,
        40840800.0,
        960960.0,
        16380.0,
        182.0,
        1.0,
    ),
}


def _norm1(a):
    """The 1-norm (largest column sum of absolute values)."""
    return numpy.abs(a).sum(axis=0).max()


def _ceil_int(x):
    """C's (int)ceil(x) as SciPy's code meets it: 0 for a non-finite x."""
    return math.ceil(x) if math.isfinite(x) else 0


def _pade_structure(powers, real):
    """(m, s): the Pade order and the number of squarings for A = powers[0] (Note [SciPy's expm]). `powers` holds
    A, A^2, A^4, A^6 and gets A^8 (and A^10) appended where they are needed; `real` is the working real type."""
    a, _, a4, a6 = powers
    coeff = [real(c) for c in _ERROR_COEFFS[real]]
    abs_a = numpy.abs(a).astype(real)
    spun = abs_a.T @ numpy.ones(a.shape[0], real)  # |A|^T 1: the column sums, |A| spun once
    norm_a = spun.max()

    def spin(times):
        nonlocal spun
        for _ in range(times):
            spun = abs_a.T @ spun
        return spun.max()

    def extra_squarings(norm_power, which, exponent):
        return max(_ceil_int(numpy.log2(norm_power / norm_a / coeff[which]) / exponent), 0)

    d4, d6 = _norm1(a4) ** real(0.25), _norm1(a6) ** real(1.0 / 6.0)
    eta1 = max(d4, d6)
    # Each test spins |A| further (to |A|^7, ^11, ^15, ^19), whether or not its eta passes.
    if extra_squarings(spin(6), 0, 6) == 0 and eta1 < _THETAS[0]:
        return 3, 0
    if extra_squarings(spin(4), 1, 10) == 0 and eta1 < _THETAS[1]:
        return 5, 0
    a8 = a4 @ a4
    powers.append(a8)
    d8 = _norm1(a8) ** real(0.125)
    eta2 = max(d6, d8)
    if extra_squarings(spin(4), 2, 14) == 0 and eta2 < _THETAS[2]:
        return 7, 0
    if extra_squarings(spin(4), 3, 18) == 0 and eta2 < _THETAS[3]:
        return 9, 0
    d10 = _norm1(a6 @ a4) ** real(0.1)
    eta4 = min(eta2, max(d8, d10))
    s = max(_ceil_int(numpy.log2(eta4 / real(_THETAS[4]))), 0)
    if s:
        abs_a = abs_a * real(2.0**-s)
        spun = spun * real(2.0 ** (-19.0 * s))  # |A|^19 1, as if |A| had been scaled before
        norm_a = norm_a * real(2.0**-s)
    return 13, s + extra_squarings(spin(8), 4, 26)  # |A|^27


def _pade_approximant(powers, m, upper_only):
    """r_m(A) = (V - U)^-1 (V + U) = I + 2 U (V - U)^-1, with U the odd and V the even part of the order-m Pade
    numerator, in SciPy 1.18's order of products (Note [SciPy's expm])."""
    a, a2, a4, a6 = powers[:4]
    b = _PADE[m]
    eye = numpy.eye(a.shape[0], dtype=a.dtype)
    if m == 3:
        u = a2 @ a + b[1] * a
        v = b[2] * a2 + b[0] * eye
    elif m == 5:
        u = (a4 + b[3] * a2 + b[1] * eye) @ a
        v = b[4] * a4 + b[2] * a2 + b[0] * eye
    elif m == 7:
        u = (a6 + b[5] * a4 + b[3] * a2 + b[1] * eye) @ a
        v = b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * eye
    elif m == 9:
        a8 = powers[4]
        u = (a8 + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * eye) @ a
        v = b[8] * a8 + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * eye
    else:
        u = ((a6 + b[11] * a4 + b[9] * a2) @ a6 + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * eye) @ a
        v = (b[12] * a6 + b[10] * a4 + b[8] * a2) @ a6 + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * eye
    # U and (V - U)^-1 commute. SciPy 1.18 factors V - U with pivoting, which for a lower triangular A leaves
    # rounding noise in the result's upper triangle; the matrix factored here is V - U where A is upper
    # triangular, its transpose otherwise: upper triangular for a triangular A, so no pivoting, no fill, and the
    # other triangle exactly 0 (where the result is finite).
    if upper_only:
        return 2 * numpy.linalg.solve(v - u, u) + eye
    return 2 * numpy.linalg.solve((v - u).T, u.T).T + eye


# Note [C's complex arithmetic]
# SciPy 1.18's C code sets a triangular exponential's first off-diagonal after each squaring as
# (exp(d[i+1]) - exp(d[i])) / (d[i+1] - d[i]) * a[i, i+1] * 2^-k, with d the diagonal times 2^-k. C's complex
# division and multiplication (Annex G; GCC's __divsc3, __divdc3 and __mulsc3, __muldc3) differ from NumPy's where
# an exponential overflows: a result both of whose parts come out NaN is recomputed with the infinite operand
# "boxed" to its signs, giving the infinity it stands for (NumPy leaves NaN + NaN j). _c_quotient and _c_product
# compute as GCC does: a complex64 quotient in double precision by the textbook formula, a complex128 one by Smith's
# (GCC's further rescaling of operands near the limits of the range is left out), products by the textbook one.


def _c_quotient(num, den):
    """num / den (complex arrays of one type) as C computes it (Note [C's complex arithmetic])."""
    a, b, c, d = num.real, num.imag, den.real, den.imag
    if num.dtype == numpy.complex64:
        a, b, c, d = (p.astype(numpy.float64) for p in (a, b, c, d))
        scale = c * c + d * d
        x, y = (a * c + b * d) / scale, (b * c - a * d) / scale
    else:
        d_larger = numpy.abs(c) < numpy.abs(d)
        ratio = numpy.where(d_larger, c / d, d / c)
        scale = numpy.where(d_larger, c * ratio + d, d * ratio + c)
        x = numpy.where(d_larger, a * ratio + b, b * ratio + a) / scale
        y = numpy.where(d_larger, b * ratio - a, b - a * ratio) / scale
    quotient = numpy.empty(num.shape, num.dtype)
    quotient.real, quotient.imag = x, y
    a, b, c, d = num.real, num.imag, den.real, den.imag
    lost = numpy.isnan(quotient.real) & numpy.isnan(quotient.imag)
    by_zero = lost & (c == 0) & (d == 0) & ~(numpy.isnan(a) & numpy.isnan(b))
    infinite_by_finite = (
        lost & ~by_zero & (numpy.isinf(a) | numpy.isinf(b)) & numpy.isfinite(c) & numpy.isfinite(d)
    )
    finite_by_infinite = lost & ~by_zero & ~infinite_by_finite & (numpy.isinf(c) | numpy.isinf(d))
    finite_by_infinite &= numpy.isfinite(a) & numpy.isfinite(b)
    infinity = numpy.copysign(numpy.inf, c).astype(a.dtype)
    boxed_a, boxed_b = (numpy.copysign(numpy.isinf(p), p).astype(p.dtype) for p in (a, b))
    boxed_c, boxed_d = (numpy.copysign(numpy.isinf(p), p).astype(p.dtype) for p in (c, d))
    recovered = (
        (by_zero, infinity * a, infinity * b),
        (
            infinite_by_finite,
            numpy.inf * (boxed_a * c + boxed_b * d),
            numpy.inf * (boxed_b * c - boxed_a * d),
        ),
        (finite_by_infinite, 0.0 * (a * boxed_c + b * boxed_d), 0.0 * (b * boxed_c - a * boxed_d)),
    )
    for where, real, imag in recovered:
        quotient.real[where], quotient.imag[where] = real[where], imag[where]
    return quotient


def _c_product(z, w):
    """z * w (complex arrays of one type) as C computes it (Note [C's complex arithmetic])."""
    product = z * w  # (ac - bd) + (ad + bc) j, as C's
    lost = numpy.isnan(product.real) & numpy.isnan(product.imag)
    if not lost.any():
        return product
    a, b, c, d = z.real, z.imag, w.real, w.imag
    z_infinite, w_infinite = numpy.isinf(a) | numpy.isinf(b), numpy.isinf(c) | numpy.isinf(d)
    partial_overflow = numpy.isinf(a * c) | numpy.isinf(b * d) | numpy.isinf(a * d) | numpy.isinf(b * c)
    overflowed = ~z_infinite & ~w_infinite & partial_overflow
    parts = []
    for part, infinite, other_infinite in ((a, z_infinite, w_infinite), (b, z_infinite, w_infinite),
                                           (c, w_infinite, z_infinite), (d, w_infinite, z_infinite)):  # fmt: skip
        # An infinite factor is boxed to the signs of its parts; NaN parts of the other factor count as 0.
        part = numpy.where(infinite, numpy.copysign(numpy.isinf(part), part).astype(part.dtype), part)
        as_zero = (other_infinite | overflowed) & numpy.isnan(part)
        parts.append(numpy.where(as_zero, numpy.copysign(0, part).astype(part.dtype), part))
    a, b, c, d = parts
    recomputed = lost & (z_infinite | w_infinite | overflowed)
    product.real[recomputed] = (numpy.inf * (a * c - b * d))[recomputed]
    product.imag[recomputed] = (numpy.inf * (a * d + b * c))[recomputed]
    return product


def _beside_diagonal(diagonal, off, scale):
    """The first off-diagonal of exp(T 2^-k) for a triangular T, diagonal `diagonal` and that off-diagonal `off`,
    scale = 2^-k: (exp(d[i+1]) - exp(d[i])) / (d[i+1] - d[i]) * off[i] * scale with d = diagonal * scale, exp(d[i])
    for equal d (Higham's (10.42), which overflows where exp(d) does), as SciPy 1.18's C code computes it."""
    d = diagonal * scale
    exp_d = numpy.exp(d)
    diff, exp_diff = d[1:] - d[:-1], exp_d[1:] - exp_d[:-1]
    equal = diff == 0
    if numpy.iscomplexobj(d):
        exp_sinch = numpy.where(equal, exp_d[:-1], _c_quotient(exp_diff, numpy.where(equal, 1, diff)))
        product = _c_product(exp_sinch, off.astype(d.dtype, copy=False))
        return _times_real(product, scale)  # C multiplies a complex by a real part by part
    exp_sinch = numpy.where(equal, exp_d[:-1], exp_diff / numpy.where(equal, 1, diff))
    return exp_sinch * off * scale


def _times_real(z, scale):
    """z * scale for a real scale, part by part as C multiplies a complex by a real (no 0 * inf)."""
    out = numpy.empty_like(z)
    out.real, out.imag = z.real * scale, z.imag * scale
    return out


def _expm(a):
    """The matrix exponential of the square matrix `a` (2-D), as scipy.linalg.expm (Note [SciPy's expm])."""
    a = numpy.asarray(a)
    if a.size == 1 and a.ndim < 2:
        return numpy.array([[numpy.exp(a.item())]])
    if a.ndim < 2:
        raise numpy.linalg.LinAlgError("The input array must be at least two-dimensional")
    if a.shape[-1] != a.shape[-2]:
        raise numpy.linalg.LinAlgError("Last 2 dimensions of the array must be square")
    if min(*a.shape) == 0:
        return numpy.empty_like(a, dtype=_expm(numpy.eye(2, dtype=a.dtype)).dtype)
    if a.shape[-2:] == (1, 1):
        return numpy.exp(a)
    if not numpy.issubdtype(a.dtype, numpy.inexact):
        a = a.astype(numpy.float64)
    elif a.dtype == numpy.float16:
        a = a.astype(numpy.float32)
    upper_only = not numpy.any(numpy.tril(a, -1))  # SciPy's bandwidth: no entries below the diagonal
    lower_only = not numpy.any(numpy.triu(a, 1))
    if upper_only and lower_only:
        return numpy.diag(numpy.exp(numpy.diag(a)))
    real = numpy.float32 if a.dtype in (numpy.float32, numpy.complex64) else numpy.float64
    a2 = a @ a
    a4 = a2 @ a2
    powers = [a, a2, a4, a4 @ a2]
    with numpy.errstate(all="ignore"):  # SciPy's C code overflows, divides by zero and warns of none of it
        m, s = _pade_structure(powers, real)
        if s:
            powers = [p * real(2.0 ** (-k * s)) for p, k in zip(powers[:4], (1, 2, 4, 6))]
        result = _pade_approximant(powers, m, upper_only).astype(a.dtype, copy=False)
        if s and (upper_only or lower_only):
            diagonal = numpy.diag(a)
            off = numpy.diag(a, k=1 if upper_only else -1)
            rows = numpy.arange(a.shape[0] - 1)
            beside = (rows, rows + 1) if upper_only else (rows + 1, rows)
            for k in range(s - 1, -1, -1):
                result = result @ result
                scale = real(2.0**-k)
                numpy.fill_diagonal(result, numpy.exp(diagonal * scale))
                result[beside] = _beside_diagonal(diagonal, off, scale)
        else:
            for _ in range(s):
                result = result @ result
    return result


def _block_diag(*blocks):
    """scipy.linalg.block_diag of 2-D arrays: the blocks along the diagonal of a zero matrix of their type."""
    blocks = [numpy.atleast_2d(b) for b in blocks]
    rows, cols = sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)
    out = numpy.zeros((rows, cols), dtype=numpy.result_type(*blocks))
    r = c = 0
    for b in blocks:
        out[r : r + b.shape[0], c : c + b.shape[1]] = b
        r, c = r + b.shape[0], c + b.shape[1]
    return out


# ---- cont2discrete ------------------------------------------------------------------------------------------


def _cont2discrete(system, dt, method="zoh", alpha=None):
    """SciPy's cont2discrete of a tuple of 2 (tf), 3 (zpk) or 4 (ss) host arrays: the discrete system's arrays
    and dt."""
    if len(system) == 2:
        sysd = _cont2discrete(_tf2ss(system[0], system[1]), dt, method=method, alpha=alpha)
        return _ss2tf(*sysd[:4]) + (dt,)
    if len(system) == 3:
        sysd = _cont2discrete(_zpk2ss(*system), dt, method=method, alpha=alpha)
        return _ss2zpk(*sysd[:4]) + (dt,)
    if len(system) != 4:
        raise ValueError("First argument must either be a tuple of 2 (tf), 3 (zpk), or 4 (ss) arrays.")
    a, b, c, d = (numpy.asarray(m) for m in system)
    if method == "gbt":
        if alpha is None:
            raise ValueError(
                "Alpha parameter must be specified for the generalized bilinear transform (gbt) method"
            )
        if alpha < 0 or alpha > 1:
            raise ValueError("Alpha parameter must be within the interval [0,1] for the gbt method")
        ima = numpy.eye(a.shape[0]) - alpha * dt * a
        ad = numpy.linalg.solve(ima, numpy.eye(a.shape[0]) + (1.0 - alpha) * dt * a)
        bd = numpy.linalg.solve(ima, dt * b)
        cd = numpy.linalg.solve(ima.transpose(), c.transpose()).transpose()
        dd = d + alpha * numpy.dot(c, bd)
    elif method in ("bilinear", "tustin"):
        return _cont2discrete(system, dt, method="gbt", alpha=0.5)
    elif method in ("euler", "forward_diff"):
        return _cont2discrete(system, dt, method="gbt", alpha=0.0)
    elif method == "backward_diff":
        return _cont2discrete(system, dt, method="gbt", alpha=1.0)
    elif method == "zoh":
        # exp([[A, B], [0, 0]] dt) = [[Ad, Bd], [0, I]]
        em = numpy.vstack((numpy.hstack((a, b)), numpy.zeros((b.shape[1], a.shape[0] + b.shape[1]))))
        ms = _expm(dt * em)[: a.shape[0], :]
        ad, bd, cd, dd = ms[:, : a.shape[1]], ms[:, a.shape[1] :], c, d
    elif method == "foh":
        # exp([[A dt, B dt, 0], [0, 0, I], [0, 0, 0]]): the input ramps linearly between samples
        n, m = a.shape[0], b.shape[1]
        em = numpy.vstack((_block_diag(numpy.hstack((a, b)) * dt, numpy.eye(m)), numpy.zeros((m, n + 2 * m))))
        ms = _expm(em)
        ms11, ms12, ms13 = ms[:n, :n], ms[:n, n : n + m], ms[:n, n + m :]
        ad, bd, cd, dd = ms11, ms12 - ms13 + ms11 @ ms13, c, d + c @ ms13
    elif method == "impulse":
        if not numpy.allclose(d, 0):
            raise ValueError("Impulse method is only applicable to strictly proper systems")
        ad = _expm(a * dt)
        bd, cd, dd = ad @ b * dt, c, c @ b * dt
    else:
        raise ValueError(f"Unknown transformation method '{method}'")
    return ad, bd, cd, dd, dt


def cont2discrete(system, dt, method="zoh", alpha=None):
    """The discrete-time system of a continuous one: an `lti` system's to_discrete, or the (num, den, dt),
    (zeros, poles, gain, dt) or (A, B, C, D, dt) of a tuple of 2, 3 or 4 arrays, as device arrays (the gain a
    host scalar, dt as given). Methods: 'zoh' (default), 'foh', 'impulse', 'gbt' (with alpha), 'bilinear' or
    'tustin', 'euler' or 'forward_diff', 'backward_diff'."""
    if hasattr(system, "to_discrete") and callable(system.to_discrete):
        return system.to_discrete(dt=dt, method=method, alpha=alpha)
    arrays = tuple(host(m) for m in system)
    result = on_device(_cont2discrete(arrays, host(dt), method=method, alpha=host(alpha)))
    return result[:-1] + (dt,)  # dt as the caller gave it, as SciPy and CuPy return it


__all__ = ["cont2discrete"]
