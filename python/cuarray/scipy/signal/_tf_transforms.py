"""SciPy's transforms of a transfer function in 'ba' form: normalize, the frequency transforms of a lowpass
prototype (lp2lp, lp2hp, lp2bp, lp2bs), the bilinear transform (bilinear), and the conversions to and from state
space (tf2ss, ss2tf). Host maths on a few coefficients, as the other filter-design functions (Note [Filter design
on the host] in _iir_forms.py): arguments may be device arrays, host arrays or Python sequences, results are
device arrays. The private `_name` functions take and return NumPy arrays."""

import math

import numpy

from cuarray.scipy.signal._iir_forms import _normalize as _normalize_numeric
from cuarray.scipy.signal._iir_forms import on_host, validate_fs


# Note [Numerators SciPy re-reads]
# SciPy 1.17's normalize makes an array of the numerator first, so a ragged list of numerators raises NumPy's
# ValueError (the shared _iir_forms._normalize would pad it, as older SciPy did). A numerator that is not of a
# numeric type in the array API's sense, a boolean one included, is read again element by element into a float64
# matrix with one row per element: [True, False] becomes the 2 x 1 numerator [[1.], [0.]]. That is odd, but it is
# what SciPy returns (and what tf2ss then builds on), so it is done here too.
def _normalize(b, a):
    """SciPy 1.17's normalize: numerator and denominator divided by the denominator's first nonzero value, the
    numerator's all-zero leading columns dropped with a BadCoefficients warning (Note [Numerators SciPy re-reads])."""
    num = numpy.asarray(b)
    if not numpy.isdtype(num.dtype, "numeric"):
        rows = [numpy.atleast_1d(numpy.asarray(row)) for row in num]
        num = numpy.zeros((len(rows), max(row.size for row in rows)))
        for i, row in enumerate(rows):
            num[i, -row.size :] = row
    return _normalize_numeric(num, a)


def _floating(b, a):
    """b and a as arrays of their common type, at least float (SciPy's xp_promote with force_floating)."""
    b, a = numpy.asarray(b), numpy.asarray(a)
    dtype = numpy.result_type(a, b, 1.0)
    return numpy.atleast_1d(b.astype(dtype, copy=False)), numpy.atleast_1d(a.astype(dtype, copy=False))


def _frequency(w):
    """A frequency as a float; a sequence gives its first value (SciPy's fallback)."""
    try:
        return float(w)
    except TypeError:
        return float(w[0])


def _lp2lp(b, a, wo=1.0):
    """The lowpass prototype b/a moved to cutoff `wo` (s -> s / wo)."""
    b, a = _floating(b, a)
    wo = _frequency(wo)
    d, n = a.shape[0], b.shape[0]
    powers = wo ** numpy.arange(max(d, n) - 1, -1, -1, dtype=numpy.float64)
    start1, start2 = max(n - d, 0), max(d - n, 0)
    return _normalize(b * powers[start1] / powers[start2:], a * powers[start1] / powers[start1:])


def _lp2hp(b, a, wo=1.0):
    """The lowpass prototype b/a turned highpass with cutoff `wo` (s -> wo / s): both polynomials reversed and
    scaled by powers of wo, the shorter one padded with zeros to the longer one's length."""
    b, a = _floating(b, a)
    wo = _frequency(wo)
    d, n = a.shape[0], b.shape[0]
    m = max(d, n)
    powers = wo ** numpy.arange(m, dtype=b.dtype) if wo != 1 else numpy.ones(m, dtype=b.dtype)
    out_b, out_a = numpy.zeros(m, dtype=b.dtype), numpy.zeros(m, dtype=a.dtype)
    out_b[:n] = b[::-1] * powers[:n]
    out_a[:d] = a[::-1] * powers[:d]
    return _normalize(out_b, out_a)


def _comb(n, k):
    return numpy.float64(math.comb(n, k))  # SciPy's comb(n, k): a float64, exact for a filter's orders


def _lp2bp(b, a, wo=1.0, bw=1.0):
    """The lowpass prototype b/a turned bandpass around `wo` with width `bw` (s -> (s^2 + wo^2) / (s bw)),
    coefficient by coefficient from the binomial expansion, summed in SciPy's order."""
    b, a = _floating(b, a)
    wosq = wo * wo

    def expand(c, order, top):
        out = numpy.empty(order + top + 1, dtype=c.dtype)
        for j in range(order + top + 1):
            val = 0.0
            for i in range(order + 1):
                for k in range(i + 1):
                    if top - i + 2 * k == j:
                        val += _comb(i, k) * c[order - i] * wosq ** (i - k) / bw**i
            out[order + top - j] = val
        return out

    top = max(b.shape[0], a.shape[0]) - 1
    return _normalize(expand(b, b.shape[0] - 1, top), expand(a, a.shape[0] - 1, top))


def _lp2bs(b, a, wo=1.0, bw=1.0):
    """The lowpass prototype b/a turned bandstop around `wo` with width `bw` (s -> s bw / (s^2 + wo^2))."""
    b, a = _floating(b, a)
    wosq = wo * wo
    top = max(b.shape[0], a.shape[0]) - 1

    def expand(c, order):
        out = numpy.empty(2 * top + 1, dtype=c.dtype)
        for j in range(2 * top + 1):
            val = 0.0
            for i in range(order + 1):
                for k in range(top - i + 1):
                    if i + 2 * k == j:
                        val += _comb(top - i, k) * c[order - i] * wosq ** (top - i - k) * bw**i
            out[2 * top - j] = val
        return out

    return _normalize(expand(b, b.shape[0] - 1), expand(a, a.shape[0] - 1))


def _bilinear(b, a, fs=1.0):
    """The digital filter of the analog b/a by the bilinear transform s = 2 fs (z - 1) / (z + 1), with both
    polynomials multiplied through by (z + 1)^N (N the larger degree); leading zeros do not count to N."""
    b, a = numpy.atleast_1d(numpy.asarray(b)), numpy.atleast_1d(numpy.asarray(a))
    if a.ndim != 1:
        raise ValueError(f"Parameter a is not a 1d array since {a.shape=}")
    if b.ndim != 1:
        raise ValueError(f"Parameter b is not a 1d array since {b.shape=}")
    b, a = numpy.trim_zeros(b, "f"), numpy.trim_zeros(a, "f")
    fs = validate_fs(fs, allow_none=False)
    # 2 fs is split between the two factors (sqrt each), as SciPy does, so that large fs and orders overflow later.
    root = numpy.sqrt(fs * 2)
    plus = numpy.polynomial.Polynomial((+1, 1)) / root  # (z + 1) / sqrt(2 fs), lowest power first
    minus = numpy.polynomial.Polynomial((-1, 1)) * root  # (z - 1) sqrt(2 fs)
    degree = max(len(a), len(b)) - 1

    def substituted(c):
        """Sum over q of c's coefficient of s^q times (z - 1)^q (z + 1)^(N - q), by Python's sum as SciPy's."""
        return sum(cq * plus ** (degree - q) * minus**q for q, cq in enumerate(c[::-1]))

    num, den = substituted(b), substituted(a)  # both before either's .coef, for SciPy's error where one fails
    return _normalize(num.coef[::-1].copy(), den.coef[::-1].copy())


def _tf2ss(num, den):
    """The controller canonical state-space form (A, B, C, D) of num/den (one row of C and D per numerator)."""
    num, den = _normalize(num, den)
    if num.ndim == 1:
        num = numpy.asarray([num], num.dtype)
    m, k = num.shape[1], len(den)
    if m > k:
        raise ValueError("Improper transfer function. `num` is longer than `den`.")
    if m == 0 or k == 0:  # a null system
        return tuple(numpy.array([], float) for _ in range(4))
    num = numpy.hstack((numpy.zeros((num.shape[0], k - m), dtype=num.dtype), num))
    D = numpy.atleast_2d(num[:, 0])
    if k == 1:  # no states: only the feedthrough
        D = D.reshape(num.shape)
        return numpy.zeros((1, 1)), numpy.zeros((1, D.shape[1])), numpy.zeros((D.shape[0], 1)), D
    A = numpy.concatenate((-numpy.array([den[1:]]), numpy.eye(k - 2, k - 1)))
    B = numpy.eye(k - 1, 1)
    C = num[:, 1:] - numpy.outer(num[:, 0], den[1:])
    return A, B, C, D.reshape((C.shape[0], B.shape[1]))


def _abcd_normalize(A=None, B=None, C=None, D=None):
    """SciPy's abcd_normalize: the four matrices 2-D, missing ones as zeros of the sizes the others imply."""
    if A is None and B is None and C is None:
        raise ValueError("Dimension n is undefined for parameters A = B = C = None!")
    if B is None and D is None:
        raise ValueError("Dimension p is undefined for parameters B = D = None!")
    if C is None and D is None:
        raise ValueError("Dimension q is undefined for parameters C = D = None!")
    # Integer and bool matrices become float64, as in SciPy 1.18 (1.17 kept their type).
    A, B, C, D = (
        numpy.zeros((0, 0)) if m is None else numpy.atleast_2d(numpy.asarray(m)) for m in (A, B, C, D)
    )
    A, B, C, D = (m.astype(numpy.float64) if m.dtype.kind in "biu" else m for m in (A, B, C, D))
    n = A.shape[0] or B.shape[0] or C.shape[1] or 0  # the first nonzero size that each dimension is given
    p = B.shape[1] or D.shape[1] or 0
    q = C.shape[0] or D.shape[0] or 0
    A = numpy.zeros((n, n)) if A.size == 0 else A
    B = numpy.zeros((n, p)) if B.size == 0 else B
    C = numpy.zeros((q, n)) if C.size == 0 else C
    D = numpy.zeros((q, p)) if D.size == 0 else D
    for name, m, shape in (("A", A, (n, n)), ("B", B, (n, p)), ("C", C, (q, n)), ("D", D, (q, p))):
        if m.shape != shape:
            raise ValueError(f"Parameter {name} has shape {m.shape} but should be {shape}!")
    return A, B, C, D


def _ss2tf(A, B, C, D, input=0):
    """The transfer functions C (sI - A)^-1 B + D from input `input` to each output: one numerator row per
    output, one denominator (the characteristic polynomial of A; SciPy's 1 or [] where A has none)."""
    A, B, C, D = _abcd_normalize(A, B, C, D)
    nout, nin = D.shape
    if input >= nin:
        raise ValueError("System does not have the input specified.")
    B, D = B[:, input : input + 1], D[:, input : input + 1]
    try:
        den = numpy.poly(A)
    except ValueError:
        den = 1
    if B.size == 0 and C.size == 0:
        num = numpy.ravel(D)
        if D.size == 0 and A.size == 0:
            den = []
        return num, den
    dtype = (A[:, 0] + B[:, 0] + C[0, :] + D + 0.0).dtype
    num = numpy.empty((nout, A.shape[0] + 1), dtype)
    for k in range(nout):
        num[k] = numpy.poly(A - numpy.dot(B, numpy.atleast_2d(C[k, :]))) + (D[k] - 1) * den
    return num, den


normalize = on_host(_normalize, "normalize")
lp2lp = on_host(_lp2lp, "lp2lp")
lp2hp = on_host(_lp2hp, "lp2hp")
lp2bp = on_host(_lp2bp, "lp2bp")
lp2bs = on_host(_lp2bs, "lp2bs")
bilinear = on_host(_bilinear, "bilinear")
tf2ss = on_host(_tf2ss, "tf2ss")
ss2tf = on_host(_ss2tf, "ss2tf")

__all__ = ["bilinear", "lp2bp", "lp2bs", "lp2hp", "lp2lp", "normalize", "ss2tf", "tf2ss"]
