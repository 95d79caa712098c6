"""SciPy's B-spline signal processing on device arrays: the coefficients of cubic and quadratic splines through a
signal (cspline1d, qspline1d; of an image: cspline2d, qspline2d), their evaluation (cspline1d_eval,
qspline1d_eval), spline smoothing of an image (spline_filter), separable mirror-symmetric FIR filtering
(sepfir2d) and gauss_spline. The recursive filters are _symiir.py's. As CuPy's, signals, images and spline
coefficients must be device arrays; gauss_spline's knots and the evaluation points may also be host arrays,
lists or scalars, copied to the device (cupy.asarray); FIR filters may be device arrays, host arrays or lists.

Note [Spline coefficients as SciPy computes them]
cspline1d and qspline1d (smoothing 0) are SciPy's lfilter passes of _cubic_coeff and _quadratic_coeff, in
float64 (complex128) whatever the signal's type, as SciPy's (its powers of zi are float64; CuPy 14.2 keeps a
float32 signal's type in the long case and not for one sample): the first output x[0] + zi sum(zi^k x[k]), then
the causal and anti-causal first-order recursions, which are symiirorder1's (_symiir.py) with all the signal's
terms. SciPy sums zi^k x[k] pairwise and multiplies by zi after; here each term zi^(k+1) is formed on the host
and the terms added in order: the coefficients agree with SciPy's to rounding (one sample: exactly, and
without SciPy's final factor 6 or 8, which SciPy omits there too). cspline1d with smoothing is
_cubic_smooth_coeff on symiirorder2's kernel, with SciPy's impulse responses (hc, hs, computed on the host by
SciPy's NumPy expressions, so the same values) and SciPy's starting values, which take a term from x[0] and
x[1] in that order and every sample of the signal. As SciPy: a smoothing below 1/144 is its math domain error,
an empty signal and one sample with smoothing its IndexErrors, two samples with smoothing the ValueError of
its sosfilt over nothing; a signal that is not 1-D raises (SciPy's fails or broadcasts).

Note [Spline evaluation]
cspline1d_eval and qspline1d_eval reflect each point into [0, N - 1] (mirror symmetry about 0 and N - 1), as
SciPy's recursion does one reflection per call: |x| modulo 2 (N - 1), then 2 (N - 1) - x past N - 1. Each of
SciPy's reflections is exact for points below 2^53 (2^24 in float32), and so are fmod and the last
subtraction, so the reflected points are SciPy's (SciPy recurses without end for one coefficient or an
infinite point, RecursionError: here the one coefficient's constant spline, and NaN). The B-spline basis is
its closed form (SciPy evaluates it with BSpline's de Boor recursion: the values agree to rounding), and the
four (three) terms are added in SciPy's order and types: a float32 spline's sum is rounded to float32 at each
step. cspline1d_eval's result has the coefficients' type, qspline1d_eval's the points', as SciPy's; an empty
`cj` is CuPy's ValueError, before the points are looked at (SciPy's qspline1d_eval returns empty points
first).

Note [Mirror-symmetric FIR as SciPy sums it]
sepfir2d filters the rows with hrow, then the columns of that with hcol, as SciPy's
_separable_2Dconvolve_mirror: out[n] = sum_j h[j] in[n + len(h) // 2 - j], j ascending, from zero, each product
and sum rounded on its own (-fmad=false) and complex products C99's, with the signal reflected about its ends
(in[-1] = in[0]): SciPy's values bit for bit. A filter longer than the signal reads past SciPy's single
reflection (memory past the signal there); here the reflections repeat, as CuPy's ndimage 'reflect'. The
result type is SciPy's and CuPy's (complex64 or complex128; float32 for float32 and types of two bytes or
fewer; float64 otherwise); the filters are cast to it as CuPy casts them (SciPy 1.17 refuses casts that lose
precision); their error is CuPy's, the image's SciPy's.

Note [spline_filter's types]
As CuPy's, a complex image is filtered as complex64, its real and imaginary parts apart, and the result cast
back: SciPy 1.17 filters complex64 together, which gives the same values for smoothing up to 1/144 and fails
for more (its symiirorder2 takes real signals only); float16, integer and bool images are SciPy's TypeError.
"""

import math

import numpy
from numpy.lib.array_utils import normalize_axis_index

import cuarray as cp
from cuarray.scipy.signal._convolve import require_device
from cuarray.scipy.signal._iir_forms import device_input, host
from cuarray.scipy.signal._kernel_table import PAIR_COMPLEX, KernelTable
from cuarray.scipy.signal._symiir import (
    first_order_pass,
    from_block,
    second_order_pass,
    signals_block,
    symiir1_along,
    symiir2_along,
)

__all__ = [
    "cspline1d",
    "cspline1d_eval",
    "cspline2d",
    "gauss_spline",
    "qspline1d",
    "qspline1d_eval",
    "qspline2d",
    "sepfir2d",
    "spline_filter",
]

_PREAMBLE = (
    PAIR_COMPLEX
    + r"""
// Values `stride` apart: real, or complex as (real, imaginary) pairs.
template <typename T> struct bsp_reals {
  const T* p;
  long long stride;
  __device__ __forceinline__ T get(long long k) const { return p[k * stride]; }
};
template <typename T> struct bsp_pairs {
  const T* p;
  long long stride;
  __device__ __forceinline__ pair_complex<T> get(long long k) const {
    return {p[2 * k * stride], p[2 * k * stride + 1]};
  }
};

// Sample p of one line of `length` samples filtered with the `taps` taps h, the line reflected about its ends
// (Note [Mirror-symmetric FIR as SciPy sums it]).
template <typename V, typename R>
__device__ V bsp_mirror_fir(const R& line, const R& h, long long taps, long long p, long long length) {
  const long long period = 2 * length;
  V acc(0);
  for (long long j = 0; j < taps; ++j) {
    long long q = (p + taps / 2 - j) % period;
    if (q < 0) q += period;
    if (q >= length) q = period - 1 - q;
    acc = acc + h.get(j) * line.get(q);
  }
  return acc;
}
"""
)
_PARAMS = ("raw T x, raw T h, int64 taps, int64 length, int64 stride", "raw T y")
_SOURCES = {
    # One output sample per thread: the line through it along the filtered axis (`stride` apart).
    "cuarray_sepfir2d": (
        *_PARAMS,
        """
        const long long p = (i / stride) % length;
        const bsp_reals<T> line{&x[0] + (i - p * stride), stride}, taps_h{&h[0], 1};
        y[i] = bsp_mirror_fir<T>(line, taps_h, taps, p, length);
        """,
    ),
    # Complex images and filters as (real, imaginary) pairs of T.
    "cuarray_sepfir2d_complex": (
        *_PARAMS,
        """
        const long long p = (i / stride) % length;
        const bsp_pairs<T> line{&x[0] + 2 * (i - p * stride), stride}, taps_h{&h[0], 1};
        const pair_complex<T> v = bsp_mirror_fir<pair_complex<T>>(line, taps_h, taps, p, length);
        y[2 * i] = v.re;
        y[2 * i + 1] = v.im;
        """,
    ),
}
_OPTIONS = ("-fmad=false",)  # Note [Mirror-symmetric FIR as SciPy sums it]
_kernel = KernelTable(_SOURCES, _OPTIONS, _PREAMBLE)


def _flat(a):
    a = a.reshape(-1)
    return a.view(numpy.dtype(a.dtype.char.lower())) if a.dtype.kind == "c" else a


def sepfir2d_dtype(dtype):
    """sepfir2d's result type for an image of `dtype` (CuPy's rule, SciPy's types)."""
    if dtype.kind == "c":
        return numpy.dtype(numpy.complex64 if dtype == numpy.complex64 else numpy.complex128)
    if dtype == numpy.float32 or dtype.itemsize <= 2:
        return numpy.dtype(numpy.float32)
    return numpy.dtype(numpy.float64)


def _fir_pass(image, taps, axis):
    """The image (C-contiguous, 2-D) filtered along `axis` with the host filter `taps` of its type. The kernel
    reaches its raw arrays' elements from their first (Note [Kernel operands and layouts] in _symiir.py): the
    image, the taps and the output are C-contiguous."""
    out = cp.empty_like(image)
    length, stride = image.shape[axis], image.shape[1] if axis == 0 else 1
    name = "cuarray_sepfir2d_complex" if image.dtype.kind == "c" else "cuarray_sepfir2d"
    taps_on_device = cp.ascontiguousarray(taps)
    _kernel(name)(_flat(image), _flat(taps_on_device), len(taps), length, stride, _flat(out), size=image.size)
    return out


def sepfir2d(input, hrow, hcol):
    """`input` (2-D) convolved with the separable filter hrow (along the rows) and hcol (down the columns), both
    1-D of odd length, with mirror-symmetric boundary conditions (Note [Mirror-symmetric FIR as SciPy sums
    it])."""
    if numpy.ndim(input) != 2:  # SciPy's conversion of the image
        raise ValueError(
            f"object {'too deep' if numpy.ndim(input) > 2 else 'of too small depth'} for desired array"
        )
    hrow, hcol = numpy.asarray(host(hrow)), numpy.asarray(host(hcol))
    if any(h.ndim != 1 or h.size % 2 == 0 for h in (hrow, hcol)):
        raise ValueError("hrow and hcol must be 1 dimensional and odd length")
    require_device(input)
    dtype = sepfir2d_dtype(input.dtype)
    image = cp.ascontiguousarray(input, dtype=dtype)
    if image.size == 0:
        return image.copy()
    rows = _fir_pass(image, hrow.astype(dtype), 1)
    return _fir_pass(rows, hcol.astype(dtype), 0)


def gauss_spline(x, n):
    """The Gaussian approximation of the B-spline basis function of order `n` at the knots `x`: a zero-mean
    Gaussian of variance (n + 1) / 12, in SciPy's expression and types."""
    signsq = (host(n) + 1) / 12.0
    scale = 1 / math.sqrt(2 * math.pi * signsq)  # SciPy's errors for n < 0 before the knots go to the device
    x = device_input(x)
    return scale * cp.exp(-(x**2) / 2 / signsq)


def _check_signal(signal):
    """SciPy's error for a 0-d signal (its len()) and ours for one of more dimensions."""
    if numpy.ndim(signal) == 0:
        raise TypeError("len() of unsized object")
    if numpy.ndim(signal) != 1:
        raise ValueError(f"signal must be a rank-1 array, not {numpy.ndim(signal)}-D")


def first_order_plan(zi, K):
    """_cubic_coeff's and _quadratic_coeff's recursion as symiirorder1's kernel takes it (Note [Spline
    coefficients as SciPy computes them]): the terms zi^(k + 1), k < K, and the coefficients (z1, a1, q, c0)."""
    return zi * zi ** numpy.arange(K), (zi, -zi, zi / (zi - 1), -zi)


def _first_order_coeff(signal, zi, gain):
    """_cubic_coeff (zi = -2 + sqrt(3), gain 6) and _quadratic_coeff (-3 + 2 sqrt(2), 8)."""
    _check_signal(signal)
    K = len(signal)
    if K == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    require_device(signal)
    powers, coefficients = first_order_plan(zi, K)
    block, rest = signals_block(signal, 0, _coefficient_type(signal))
    out = from_block(first_order_pass(block, powers, *coefficients), rest, 0)
    return out if K == 1 else out * gain


def _coefficient_type(signal):
    return numpy.dtype(numpy.complex128 if signal.dtype.kind == "c" else numpy.float64)


def smoothing_plan(lamb, K):
    """_cubic_smooth_coeff as symiirorder2's kernel takes it: the terms (hc(0), hc(1), then those of y[0], y[1],
    the last and the one before it; each sum over the K samples), the counts, the positions (0, 1) of y[1]'s
    first terms and SciPy's section (cs, -2 rho cos(omega), rho^2), from SciPy's expressions on the host; its
    math domain error for a smoothing below 1/144, its IndexError and ValueError for fewer than three samples."""
    xi = 1 - 96 * lamb + 24 * lamb * math.sqrt(3 + 144 * lamb)
    omega = math.atan2(math.sqrt(144 * lamb - 1), math.sqrt(xi))
    rho = (24 * lamb - 1 - math.sqrt(xi)) / (24 * lamb)
    rho = rho * math.sqrt((48 * lamb + 24 * lamb * math.sqrt(3 + 144 * lamb)) / xi)
    for needed in (0, 1):  # SciPy reads signal[0] and signal[1]
        if K <= needed:
            raise IndexError(f"index {needed} is out of bounds for axis 0 with size {K}")
    if K == 2:  # SciPy's sosfilt over the causal pass's empty rest
        raise ValueError("cannot reshape array of size 0 into shape (0)")
    cs = 1 - 2 * rho * numpy.cos(omega) + rho * rho

    def hc(k):  # the causal section's impulse response
        return cs / numpy.sin(omega) * (rho**k) * numpy.sin(omega * (k + 1)) * numpy.greater(k, -1)

    def hs(k):  # the two sections' response
        c0 = cs * cs * (1 + rho * rho) / (1 - rho * rho) / (1 - 2 * rho * rho * numpy.cos(2 * omega) + rho**4)
        gamma = (1 - rho * rho) / (1 + rho * rho) / numpy.tan(omega)
        k = numpy.abs(k)
        return c0 * rho**k * (numpy.cos(omega * k) + gamma * numpy.sin(omega * k))

    k = numpy.arange(K)
    terms = numpy.concatenate(
        [[hc(0), hc(1)], hc(k + 1), hc(k + 2), hs(k) + hs(k + 1), hs(k - 1) + hs(k + 2)]
    )
    return terms, (K,) * 4, (0, 1), (cs, -2 * rho * numpy.cos(omega), rho * rho)


def _cubic_smooth_coeff(signal, lamb):
    if numpy.ndim(signal) == 0:  # SciPy's len() comes after its math domain error
        smoothing_plan(lamb, 3)
    _check_signal(signal)
    plan = smoothing_plan(lamb, len(signal))
    require_device(signal)
    block, rest = signals_block(signal, 0, _coefficient_type(signal))
    return from_block(second_order_pass(block, *plan[:3], *plan[3]), rest, 0)


def cspline1d(signal, lamb=0.0):
    """The cubic spline coefficients of the 1-D `signal` with mirror-symmetric boundary conditions (smoothed by
    `lamb`): convolving them with [1, 4, 1] / 6 gives the signal back. float64 (complex128) coefficients."""
    lamb = host(lamb)
    if lamb != 0.0:
        return _cubic_smooth_coeff(signal, lamb)
    return _first_order_coeff(signal, -2 + math.sqrt(3), 6.0)


def qspline1d(signal, lamb=0.0):
    """The quadratic spline coefficients of the 1-D `signal` with mirror-symmetric boundary conditions:
    convolving them with [1, 6, 1] / 8 gives the signal back. `lamb` must be 0."""
    if host(lamb) != 0.0:
        raise ValueError("Smoothing quadratic splines not supported yet.")
    return _first_order_coeff(signal, -3 + 2 * math.sqrt(2.0), 8.0)


def _mirrored(x, N):
    """The points x reflected into [0, N - 1] (Note [Spline evaluation])."""
    if N == 1:
        return x * 0  # the constant spline of one coefficient; NaN stays NaN
    period = 2.0 * (N - 1)
    t = cp.fmod(cp.abs(x), period)
    return cp.where(t > N - 1, period - t, t)


def _cubic(t):
    """The cubic B-spline basis function centred on 0 (float64), NaN at NaN."""
    a = cp.abs(t.astype(numpy.float64))
    inner = 2.0 / 3.0 - a * a + a * a * a / 2.0
    outer = (2.0 - a) ** 3 / 6.0
    return cp.where(a > 2.0, 0.0, cp.where(a >= 1.0, outer, inner))


def _quadratic(t):
    """The quadratic B-spline basis function centred on 0 (float64), NaN at NaN."""
    a = cp.abs(t.astype(numpy.float64))
    return cp.where(a > 1.5, 0.0, cp.where(a >= 0.5, (a - 1.5) ** 2 / 2.0, 0.75 - a * a))


def _evaluate(cj, x, result, first, pieces, basis):
    """result (zeros) with SciPy's sum over the `pieces` coefficients around each point x, in result's type."""
    wide = numpy.result_type(cj.dtype, numpy.float64)  # a coefficient times the float64 basis
    if not numpy.can_cast(wide, result.dtype, "same_kind"):  # NumPy's error for SciPy's result += ...
        raise TypeError(
            f"Cannot cast ufunc 'add' output from {wide!r} to {result.dtype!r} with casting rule 'same_kind'"
        )
    N = len(cj)
    x = _mirrored(x.reshape(-1), N)
    lower = cp.floor(x - first).astype(numpy.int64) + 1
    total = cp.zeros(x.shape, result.dtype)
    for i in range(pieces):
        j = lower + i
        total += cj[cp.clip(j, 0, N - 1)] * basis(x - j)
    result[...] = total.reshape(result.shape)
    return result


def _check_coefficients(cj):
    if numpy.size(cj) == 0:
        raise ValueError("Spline coefficients 'cj' must not be empty.")
    require_device(cj)


def cspline1d_eval(cj, newx, dx=1.0, x0=0):
    """The cubic spline of coefficients `cj` (knots x0 + j dx) at the points `newx`, mirror-symmetric about its
    ends; the coefficients' type (Note [Spline evaluation])."""
    _check_coefficients(cj)
    newx = (device_input(newx) - x0) / float(dx)
    result = cp.zeros_like(newx, dtype=cj.dtype)
    return _evaluate(cj, newx, result, 2, 4, _cubic) if newx.size else result


def qspline1d_eval(cj, newx, dx=1.0, x0=0):
    """The quadratic spline of coefficients `cj` (knots x0 + j dx) at the points `newx`, mirror-symmetric about
    its ends; the points' type (Note [Spline evaluation])."""
    _check_coefficients(cj)
    newx = (device_input(newx) - x0) / dx
    result = cp.zeros_like(newx)
    return _evaluate(cj, newx, result, 1.5, 3, _quadratic) if newx.size else result


def _precision_2d(signal, precision):
    """cspline2d's and qspline2d's default precision: 1e-3 for float32 and complex64, 1e-6 otherwise."""
    precision = host(precision)
    if precision < 0.0 or precision >= 1.0:
        return 1e-3 if signal.dtype in (numpy.float32, numpy.complex64) else 1e-6
    return precision


def _compute_root_from_lambda(lamb):
    """The pole (r, omega) of the smoothing spline of `lamb` (SciPy's compute_root_from_lambda)."""
    tmp = math.sqrt(3 + 144 * lamb)
    xi = 1 - 96 * lamb + 24 * lamb * tmp
    omega = math.atan(math.sqrt((144 * lamb - 1.0) / xi))
    tmp2 = math.sqrt(xi)
    r = (24 * lamb - 1 - tmp2) / (24 * lamb) * math.sqrt(48 * lamb + 24 * lamb * tmp) / tmp2
    return r, omega


def cspline2d(signal, lamb=0.0, precision=-1.0):
    """The cubic B-spline coefficients of the image `signal` (the last axis, then the first), smoothed by
    `lamb`: symiirorder1 up to lamb = 1/144, symiirorder2 above; `precision` bounds the terms of their
    mirror-symmetric starting sums."""
    precision = _precision_2d(signal, precision)
    lamb = host(lamb)
    normalize_axis_index(-1, signal.ndim)  # SciPy's AxisError for a 0-d signal
    if lamb <= 1 / 144.0:
        r = -2 + math.sqrt(3.0)
        return symiir1_along(signal, -r * 6.0, r, precision, [-1, 0])
    r, omega = _compute_root_from_lambda(lamb)
    return symiir2_along(signal, r, omega, precision, [-1, 0])


def qspline2d(signal, lamb=0.0, precision=-1.0):
    """The quadratic B-spline coefficients of the image `signal` (the last axis, then the first); `lamb` must
    be negative or zero."""
    precision = _precision_2d(signal, precision)
    if host(lamb) > 0:
        raise ValueError("lambda must be negative or zero")
    normalize_axis_index(-1, signal.ndim)
    r = -3 + 2 * math.sqrt(2.0)
    return symiir1_along(signal, -r * 8.0, r, precision, [-1, 0])


def spline_filter(Iin, lmbda=5.0):
    """The image `Iin` smoothed by the cubic smoothing spline of fall-off `lmbda`: its coefficients
    (cspline2d) convolved back with [1, 4, 1] / 6 along both axes (Note [spline_filter's types])."""
    intype = Iin.dtype
    if intype.char not in "fdFD":
        raise TypeError(f"Invalid data type for Iin: {Iin.dtype = }")
    hcol = numpy.asarray([1.0, 4.0, 1.0], numpy.float32) / 6.0
    if intype.kind == "c":
        Iin = Iin.astype(numpy.complex64)
        real = sepfir2d(cspline2d(Iin.real, lmbda), hcol, hcol)
        imag = sepfir2d(cspline2d(Iin.imag, lmbda), hcol, hcol)
        return (real + 1j * imag).astype(intype)
    return sepfir2d(cspline2d(Iin, lmbda), hcol, hcol).astype(intype)
