"""SciPy's smoothing IIR filters with mirror-symmetric boundary conditions on device arrays: symiirorder1 (a
causal and an anti-causal first-order section) and symiirorder2 (the same with second-order sections), 1-D
signals or 2-D batches of them along the last axis; and the runners along any axis that cspline1d, cspline2d
and qspline2d (_bsplines.py) build on. Signals must be device arrays, as CuPy's; the parameters may be Python
or NumPy scalars or 0-d device arrays.

Note [Symmetric IIR filters as SciPy computes them]
SciPy 1.17 computes each filter in three steps: the starting value of the causal pass, a sum over the signal
(as if it were mirrored before its start) of terms that its C loops (_splinemodule.cc's symiirorder1_ic,
symiirorder2_ic_fwd and symiirorder2_ic_bwd) add until one falls below `precision`; the causal pass, lfilter or
sosfilt started from that value; then the anti-causal pass over the reversed result, started from a second sum.
The terms' coefficients (the powers of z1; the impulse responses hc and hs of the second-order sections) do
not depend on the signal, and neither does where the loops stop: the host runs the loops for the coefficients
alone, in the working type as C rounds them (hc and hs in double, rounded to the type; the powers, the squared
errors and the comparisons in it), which gives the number of terms, or SciPy's error where a sum reaches the
end of the signal. A kernel then runs one thread per 1-D signal through all three steps: the sums in SciPy's
order, and the passes as SciPy's lfilter and sosfilt loops step (Note [Filtering as SciPy rounds] in
_lfilter.py: each operation rounded on its own, -fmad=false; complex values as (real, imaginary) pairs with
C99's products), from the states SciPy forms (y0 z1; the last value times -c0 / (z1 - 1); a3 y0 + a2 y1 and
a3 y1). So symiirorder1 gives SciPy's values bit for bit for finite inputs (complex with a real z1 too; a
complex z1 multiplies by NumPy's complex products, which NumPy may fuse into FMAs on the host: to the last
bit), and symiirorder2 to the rounding of its starting states, which SciPy forms with a BLAS matmul that may
fuse its products (here, two roundings). The signals are laid out time-major, as in _lfilter.py.

Note [Symmetric IIR types and arguments]
Integer and bool signals are filtered in float64, as SciPy's (CuPy's fail on them). The coefficients c0 and z1
(r, omega) are cast to the signal's type as CuPy and SciPy cast them, so the result keeps the signal's type as
CuPy's does (a complex c0 or z1 with a real signal is the TypeError of NumPy's cast, CuPy's; SciPy 1.17 would
promote a NumPy float64 z1 with a float32 signal to float64, and a complex z1 to a complex result). float16
signals are filtered in float32 with float16 coefficients, as SciPy's C loops and lfilter take them. Where the
sum cannot stop before the signal's end, SciPy's ValueError; precision outside (0, 1] is SciPy's default
(1e-6 in single, 1e-11 in double precision, where CuPy 14.2's symiirorder1 takes the type's resolution, which
stops its sums later). As SciPy 1.17, 2-D signals are filtered row by row and more dimensions refused (CuPy's
symiirorder1 takes one signal, its symiirorder2 any number of dimensions); symiirorder2 refuses complex
signals with SciPy's TypeError, and two-sample signals with the ValueError of SciPy's sosfilt over the empty
rest. The first parameter of symiirorder1 is CuPy's `input` (SciPy 1.17 calls it `signal`). A signal of any
layout gives SciPy's values for a contiguous copy of it: SciPy 1.17's symiirorder1 hands a non-contiguous signal
to its C symiirorder1_ic as it is, which reads the memory from the first element as a C-contiguous block (other
values, or a spurious ValueError); its symiirorder2 makes the signal contiguous first.

Note [Kernel operands and layouts]
The engine's elementwise kernels take at most kMaxOperands (cpp/cuarray/ops/elementwise.h) inputs and outputs
together, raw arrays and scalars included. So symiirorder2's kernel takes its numbers in two small raw arrays:
one of the real type (cs, s4, s5, hc0, hc1, then the sums' terms) and one of int64 (the four sums' counts, then
y[1]'s positions p0 and p1); six operands in all, symiirorder1's seven. The bodies reach a raw array's elements
from &x[0] by pointer arithmetic, which holds for C-contiguous memory alone: every raw array given to them is
(signals_block's copy, the plans' new arrays, empty_like of those).
"""

import math

import numpy

import cuarray as cp
from cuarray.scipy.signal._convolve import require_device
from cuarray.scipy.signal._iir_forms import host
from cuarray.scipy.signal._kernel_table import PAIR_COMPLEX, KernelTable

__all__ = ["symiirorder1", "symiirorder2"]

_NOT_CONVERGED = "Sum to find symmetric boundary conditions did not converge."
_PREAMBLE = (
    PAIR_COMPLEX
    + r"""
// Sample t of one signal of a time-major (samples, signals) block, `stride` apart: real values, or complex ones
// as (real, imaginary) pairs.
template <typename T> struct sym_reals {
  T* p;
  long long stride;
  __device__ __forceinline__ T get(long long t) const { return p[t * stride]; }
  __device__ __forceinline__ void set(long long t, T v) const { p[t * stride] = v; }
};
template <typename T> struct sym_pairs {
  T* p;
  long long stride;
  __device__ __forceinline__ pair_complex<T> get(long long t) const {
    return {p[2 * t * stride], p[2 * t * stride + 1]};
  }
  __device__ __forceinline__ void set(long long t, pair_complex<T> v) const {
    p[2 * t * stride] = v.re;
    p[2 * t * stride + 1] = v.im;
  }
};

// symiirorder1 on one signal (Note [Symmetric IIR filters as SciPy computes them]): x[0] plus the terms w[k] x[k],
// k < terms (symiirorder1_ic); lfilter([1], [1, a1]) over x[1:] from the state y[0] z1; then lfilter([c0],
// [1, a1]) over the reversed result from the state last z1, where last = q y[n - 1] ends the output. Each
// lfilter step is SciPy's loop for one delay: y = z + b0 x, then z = b1 x - a1 y, its padded b1 = 0 multiplied
// too. c holds z1, a1, q and c0. x and y may not be the same memory: the second pass overwrites y in place.
template <typename V, typename R, typename W>
__device__ void sym_first_order(const R& x, const R& y, const W& w, const W& c, long long terms, long long n) {
  const V z1 = c.get(0), a1 = c.get(1), q = c.get(2), c0 = c.get(3), one(1), zero(0);
  V acc = x.get(0);
  for (long long k = 0; k < terms; ++k) acc = acc + w.get(k) * x.get(k);
  y.set(0, acc);
  V z = acc * z1;
  for (long long t = 1; t < n; ++t) {
    const V xn = x.get(t);
    const V yn = z + one * xn;
    z = zero * xn - a1 * yn;
    y.set(t, yn);
  }
  const V last = q * y.get(n - 1);
  z = last * z1;
  for (long long t = n - 2; t >= 0; --t) {
    const V v = y.get(t);
    const V o = z + c0 * v;
    z = zero * v - a1 * o;
    y.set(t, o);
  }
  y.set(n - 1, last);
}

// symiirorder2 on one signal: the two starting values y[0] = hc0 x[0] + sum w x and y[1] = hc0 x[p0] + hc1 x[p1]
// + sum w x; sosfilt's one section [cs, 0, 0, 1, s4, s5] over x[2:] from the state (a3 y[0] + a2 y[1], a3 y[1]),
// a3 = -s5 and a2 = -s4; the two ending values e0 = sum w x[n - 1 - k] (the output's last) and e1 (the one before
// it), from zero; and the section over the rest of the result, reversed, from (a3 e0 + a2 e1, a3 e1). w holds cs,
// s4, s5, hc0, hc1 and the terms of the four sums; plan their counts k1, k2, k3 and k4, then p0 and p1 (Note
// [Kernel operands and layouts]). Each step is SciPy's _sosfilt_float's, its zero coefficients multiplied too. Real
// coefficients; values real or complex (cspline1d's).
template <typename V, typename T, typename R, typename I>
__device__ void sym_second_order(const R& x, const R& y, const T* w, const I* plan, long long n) {
  const T cs = w[0], s4 = w[1], s5 = w[2], hc0 = w[3], hc1 = w[4];
  const long long k1 = plan[0], k2 = plan[1], k3 = plan[2], k4 = plan[3], p0 = plan[4], p1 = plan[5];
  const T a3 = -s5, a2 = -s4, zero = 0;
  const T* terms = w + 5;
  V y0 = hc0 * x.get(0);
  for (long long k = 0; k < k1; ++k) y0 = y0 + terms[k] * x.get(k);
  terms += k1;
  V y1 = hc0 * x.get(p0);
  y1 = y1 + hc1 * x.get(p1);
  for (long long k = 0; k < k2; ++k) y1 = y1 + terms[k] * x.get(k);
  terms += k2;
  y.set(0, y0);
  y.set(1, y1);
  V z0 = a3 * y0 + a2 * y1, z1 = a3 * y1;
  for (long long t = 2; t < n; ++t) {
    const V cur = x.get(t);
    const V next = cs * cur + z0;
    z0 = zero * cur - s4 * next + z1;
    z1 = zero * cur - s5 * next;
    y.set(t, next);
  }
  V e0(0), e1(0);  // SciPy's sums start from zeros
  for (long long k = 0; k < k3; ++k) e0 = e0 + terms[k] * x.get(n - 1 - k);
  terms += k3;
  for (long long k = 0; k < k4; ++k) e1 = e1 + terms[k] * x.get(n - 1 - k);
  z0 = a3 * e0 + a2 * e1;
  z1 = a3 * e1;
  for (long long t = n - 3; t >= 0; --t) {
    const V cur = y.get(t);
    const V next = cs * cur + z0;
    z0 = zero * cur - s4 * next + z1;
    z1 = zero * cur - s5 * next;
    y.set(t, next);
  }
  y.set(n - 1, e0);
  y.set(n - 2, e1);
}
"""
)
_FIRST = ("raw T x, raw T w, raw T c, int64 terms, int64 n, int64 signals", "raw T y")
_SECOND = ("raw T x, raw T w, raw int64 plan, int64 n, int64 signals", "raw T y")
_SOURCES = {
    "cuarray_symiir1": (
        *_FIRST,
        """
        const sym_reals<T> xs{const_cast<T*>(&x[0]) + i, signals}, ys{&y[0] + i, signals};
        const sym_reals<T> ws{const_cast<T*>(&w[0]), 1}, cs{const_cast<T*>(&c[0]), 1};
        sym_first_order<T>(xs, ys, ws, cs, terms, n);
        """,
    ),
    # Complex signals, terms and coefficients as (real, imaginary) pairs of T.
    "cuarray_symiir1_complex": (
        *_FIRST,
        """
        const sym_pairs<T> xs{const_cast<T*>(&x[0]) + 2 * i, signals}, ys{&y[0] + 2 * i, signals};
        const sym_pairs<T> ws{const_cast<T*>(&w[0]), 1}, cs{const_cast<T*>(&c[0]), 1};
        sym_first_order<pair_complex<T>>(xs, ys, ws, cs, terms, n);
        """,
    ),
    "cuarray_symiir2": (
        *_SECOND,
        """
        const sym_reals<T> xs{const_cast<T*>(&x[0]) + i, signals}, ys{&y[0] + i, signals};
        sym_second_order<T, T>(xs, ys, &w[0], &plan[0], n);
        """,
    ),
    # Complex signals as (real, imaginary) pairs of T; the terms and coefficients real.
    "cuarray_symiir2_complex": (
        *_SECOND,
        """
        const sym_pairs<T> xs{const_cast<T*>(&x[0]) + 2 * i, signals}, ys{&y[0] + 2 * i, signals};
        sym_second_order<pair_complex<T>, T>(xs, ys, &w[0], &plan[0], n);
        """,
    ),
}
_OPTIONS = ("-fmad=false",)  # Note [Symmetric IIR filters as SciPy computes them]
_kernel = KernelTable(_SOURCES, _OPTIONS, _PREAMBLE)


# SciPy's C default where `precision` is not in (0, 1], by the working real type.
_DEFAULT_PRECISION = {"f": 1e-6, "d": 1e-11}


def promoted(dtype):
    """The type SciPy filters a signal of `dtype` in (xp_promote with force_floating): float64 for integers and
    bool, the type itself otherwise (float16 included: its coefficients are rounded to it)."""
    return numpy.dtype(numpy.float64) if dtype.kind in "biu" else dtype


def working(dtype):
    """The type SciPy's C loops and its lfilter compute a `dtype` signal in: float16 raised to float32."""
    return numpy.dtype(numpy.float32) if dtype == numpy.float16 else dtype


def cast(value, dtype):
    """A coefficient in `dtype`, as CuPy's cupy.asarray([value], dtype) casts it (NumPy's TypeError for a complex
    value and a real type)."""
    return numpy.asarray([host(value)], dtype=dtype)[0]


def _precision(precision, real):
    """The precision of SciPy's C loops in the real working type (its default where it is not in (0, 1])."""
    precision = float(host(precision))
    if precision <= 0.0 or precision > 1.0:
        precision = _DEFAULT_PRECISION[real.char]
    return real.type(precision)


def _squared_magnitudes(values):
    """|v|^2 of each value in its real type, as the C loops' err = abs(diff); err *= err: fabs for real values,
    hypot for complex ones (NumPy's scalar abs, which calls it; its vectorised abs may round otherwise)."""
    if values.dtype.kind != "c":
        magnitudes = numpy.abs(values)
    else:
        magnitudes = numpy.array([abs(v) for v in values], values.real.dtype)
    return magnitudes * magnitudes


def _powers_until(z1, p2, n):
    """symiirorder1_ic's loop for its coefficients alone: the powers z1, z1^2, ... (each the last times z1 in z1's
    type, as C's powz1 *= z1, which NumPy's cumprod repeats) up to the first whose squared magnitude is not
    above p2; SciPy's ValueError where that takes n terms or more (the sum reaches the signal's end)."""
    runs, count, last, chunk = [], 0, z1.dtype.type(1), 64
    while count < n:
        run = numpy.empty(min(chunk, n - count) + 1, z1.dtype)
        run[0], run[1:] = last, z1
        run = numpy.cumprod(run)[1:]
        stops = numpy.flatnonzero(~(_squared_magnitudes(run) > p2))
        if stops.size:
            runs.append(run[: stops[0] + 1])
            count += stops[0] + 1
            break
        runs.append(run)
        count, last, chunk = count + len(run), run[-1], chunk * 2
    if count >= n:
        raise ValueError(_NOT_CONVERGED)
    return numpy.concatenate(runs)


def _terms_until(term, limit, n):
    """One of symiirorder2's C loops for its coefficients alone: term(0), term(1), ... up to the first whose
    square is not above `limit`; SciPy's ValueError where that takes n terms or more."""
    terms = []
    while True:
        diff = term(len(terms))
        terms.append(diff)
        if not (diff * diff > limit and len(terms) < n):
            break
    if len(terms) >= n:
        raise ValueError(_NOT_CONVERGED)
    return terms


def _libm(f, x):
    """math's f (the C library's, as SciPy's C calls it), NaN where C's gives NaN and Python's raises."""
    return numpy.float64(f(x)) if math.isfinite(x) else numpy.float64(math.nan)


def _pow(base, exponent):
    """C's pow: NumPy's scalar power calls it, and overflows to infinity where math.pow raises."""
    return numpy.float64(base) ** numpy.float64(exponent)


def _hc(k, cs, r, omega, t):
    """SciPy's _hc: the causal section's impulse response at k, in double (cs, of type t, promoted as C promotes
    it), rounded to t."""
    if k < 0:
        return t(0.0)
    base = numpy.float64(cs) * _pow(r, k)
    if omega == 0.0:
        return t(base * (k + 1))
    if omega == math.pi:
        return t(base * (k + 1) * (1 - 2 * (k % 2)))
    return t(base * _libm(math.sin, omega * (k + 1)) / _libm(math.sin, omega))


def _hs(k, cs, rsq, omega, t):
    """SciPy's _hs: the two sections' response at |k|, c0 rounded to t on the way as C's T c0 is."""
    cssq = cs * cs
    k = abs(k)
    rsupk = _pow(rsq, k / 2.0)
    rsq = numpy.float64(rsq)
    if omega in (0.0, math.pi):
        c0 = t((1 + rsq) / ((1 - rsq) * (1 - rsq) * (1 - rsq)) * numpy.float64(cssq))
        gamma = (1 - rsq) / (1 + rsq) * (1 if omega == 0.0 else 1 - 2 * (k % 2))
        return t(numpy.float64(c0) * rsupk * (1 + gamma * k))
    denominator = 1 - 2 * rsq * _libm(math.cos, 2 * omega) + rsq * rsq
    c0 = t(numpy.float64(cssq) * (1.0 + rsq) / (1.0 - rsq) / denominator)
    gamma = (1.0 - rsq) / (1.0 + rsq) / _libm(math.tan, omega)
    return t(numpy.float64(c0) * rsupk * (_libm(math.cos, omega * k) + gamma * _libm(math.sin, omega * k)))


def iir2_terms(r, omega, precision, dtype, n):
    """symiirorder2's coefficients in the real `dtype`: hc(0) and hc(1), then the terms of its four sums (the starting
    values y[0] and y[1] of the causal pass, then the ending values of the anti-causal one, as
    symiirorder2_ic_fwd and symiirorder2_ic_bwd add them), and how many each sum has; SciPy's ValueErrors
    where a sum does not stop before the signal's end, or the causal pass has no samples left (n == 2)."""
    t = dtype.type
    p = _precision(precision, dtype)
    with numpy.errstate(all="ignore"):  # C's infinities and NaNs, without NumPy's warnings
        cs = t(1 - 2 * r * math.cos(omega) + r * r)
        p2 = p * p
        forward = [_terms_until(lambda k, d=d: _hc(k + d, cs, r, omega, t), p2, n) for d in (1, 2)]
        if n == 2:  # SciPy's sosfilt over the causal pass's empty rest
            raise ValueError("cannot reshape array of size 0 into shape (0)")
        rsq = r * r
        backward = [
            _terms_until(
                lambda k, a=a, b=b: _hs(k + a, cs, rsq, omega, t) + _hs(k + b, cs, rsq, omega, t), p, n
            )
            for a, b in ((0, 1), (-1, 2))
        ]
        sums = forward + backward
        heads = [_hc(0, cs, r, omega, t), _hc(1, cs, r, omega, t)]
    return numpy.array(heads + [v for s in sums for v in s], t), [len(s) for s in sums]


def signals_block(x, axis, dtype):
    """The 1-D signals of `x` along `axis` as the columns of a C-contiguous (samples, signals) array of `dtype`
    (time-major: Note [Serial filtering kernels] in _lfilter.py), and the shape of the other axes."""
    moved = cp.moveaxis(x, axis, 0)
    rest = moved.shape[1:]
    return cp.ascontiguousarray(moved, dtype=dtype).reshape(moved.shape[0], math.prod(rest)), rest


def from_block(block, rest, axis):
    """signals_block's inverse: a C-contiguous array with the samples along `axis`."""
    return cp.ascontiguousarray(cp.moveaxis(block.reshape(block.shape[:1] + rest), 0, axis))


def _flat(a):
    """A contiguous array flat, complex values as their (real, imaginary) pairs: a view of its memory."""
    a = a.reshape(-1)
    return a.view(numpy.dtype(a.dtype.char.lower())) if a.dtype.kind == "c" else a


def _on_device(values, dtype):
    """Host coefficients on the device, with a spare zero (a kernel is never given an empty array)."""
    return cp.asarray(numpy.concatenate([numpy.asarray(values, dtype), numpy.zeros(1, dtype)]))


def first_order_pass(block, powers, z1, a1, q, c0):
    """symiirorder1's kernel over the signals of `block` (samples, signals; C-contiguous, as signals_block gives
    it): starting sum with the terms `powers`, then the causal and anti-causal passes with coefficients z1, a1, q
    and c0 of the block's type."""
    n, signals = block.shape
    out = cp.empty_like(block)
    if n and signals:
        coefficients = _on_device([z1, a1, q, c0], block.dtype)
        name = "cuarray_symiir1_complex" if block.dtype.kind == "c" else "cuarray_symiir1"
        args = (
            _flat(block),
            _flat(_on_device(powers, block.dtype)),
            _flat(coefficients),
            len(powers),
            n,
            signals,
        )
        _kernel(name)(*args, _flat(out), size=signals)
    return out


def second_order_pass(block, terms, counts, heads, cs, s4, s5):
    """symiirorder2's kernel over the signals of `block` (as first_order_pass's): `terms` as iir2_terms gives
    them (real, in the block's real type), `counts` the four sums' lengths, `heads` the positions (p0, p1) of
    y[1]'s two first terms, and the section's cs, s4 and s5, packed as the kernel takes them (Note [Kernel
    operands and layouts])."""
    n, signals = block.shape
    out = cp.empty_like(block)
    if n and signals:
        real = numpy.dtype(block.dtype.char.lower())
        name = "cuarray_symiir2_complex" if block.dtype.kind == "c" else "cuarray_symiir2"
        coefficients = numpy.concatenate([numpy.asarray([cs, s4, s5], real), numpy.asarray(terms, real)])
        plan = cp.asarray(numpy.asarray([*counts, *heads], numpy.int64))
        _kernel(name)(
            _flat(block), _on_device(coefficients, real), plan, n, signals, _flat(out), size=signals
        )
    return out


def iir1_plan(dtype, c0, z1, precision, n):
    """symiirorder1's host part for signals of `dtype` and `n` samples (Note [Symmetric IIR types and
    arguments]): the working type, the starting sum's powers of z1 and the coefficients (z1, a1, q, c0) in it,
    as the kernel takes them; SciPy's errors."""
    dtype = promoted(dtype)
    work = working(dtype)
    b0, a1 = cast(c0, dtype).astype(work), cast(-host(z1), dtype).astype(work)
    z1 = host(z1)
    with numpy.errstate(all="ignore"):
        q = -host(c0) / (z1 - 1.0)  # SciPy's, in the precision of the arguments as given
    z1, q = cast(z1, work), cast(q, work)
    if abs(z1) >= 1.0:  # SciPy's check in C, of z1 in the working type
        raise ValueError("|z1| must be less than 1.0")
    p = _precision(precision, numpy.dtype(work.char.lower()))
    return work, _powers_until(z1, p * p, n), (z1, a1, q, b0)


def iir2_plan(dtype, r, omega, precision, n):
    """symiirorder2's host part for signals of `dtype` and `n` samples: the working type, the terms and counts
    of iir2_terms, and the section's (cs, s4, s5) in the working type; SciPy's errors."""
    dtype = promoted(dtype)
    if dtype.kind == "c":  # SciPy's C loops take real signals only
        raise TypeError(
            f"Cannot cast array data from {dtype!r} to dtype('float64') according to the rule 'safe'"
        )
    work = working(dtype)
    r, omega = float(host(r)), float(host(omega))
    a2 = 2 * r * math.cos(omega)
    # SciPy's section [cs, 0, 0, 1, -a2, -a3] and its state matrix [[a3, a2], [0, a3]] in the signal's type
    # (float16 for float16 signals), computed in the working one.
    section = numpy.asarray([1 - 2 * r * math.cos(omega) + r * r, -a2, r * r], dtype).astype(work)
    terms, counts = iir2_terms(r, omega, precision, work, n)
    return work, terms, counts, tuple(section)


def symiir1_along(x, c0, z1, precision, axes):
    """symiirorder1 over the signals of `x` along each of `axes` in turn; the plans (and their errors) first."""
    plans, dtype = [], x.dtype
    for axis in axes:
        plans.append(iir1_plan(dtype, c0, z1, precision, x.shape[axis]))
        dtype = plans[-1][0]
    require_device(x)  # the arguments' errors come first, as SciPy's
    for axis, (work, powers, coefficients) in zip(axes, plans):
        block, rest = signals_block(x, axis, work)
        x = from_block(first_order_pass(block, powers, *coefficients), rest, axis)
    return x


def symiir2_along(x, r, omega, precision, axes):
    """symiirorder2 over the signals of `x` along each of `axes` in turn; the plans first."""
    plans, dtype = [], x.dtype
    for axis in axes:
        plans.append(iir2_plan(dtype, r, omega, precision, x.shape[axis]))
        dtype = plans[-1][0]
    require_device(x)
    for axis, (work, terms, counts, section) in zip(axes, plans):
        block, rest = signals_block(x, axis, work)
        x = from_block(second_order_pass(block, terms, counts, (1, 0), *section), rest, axis)
    return x


def _check_signal(signal):
    """SciPy's error for more than two dimensions (the device is required once the arguments are checked)."""
    if signal.ndim > 2:
        raise ValueError("Input must be 1D or 2D")


def symiirorder1(input, c0, z1, precision=-1.0):
    """The smoothing filter c0 / ((1 - z1/z) (1 - z1 z)) with mirror-symmetric boundary conditions, over `input`
    (1-D, or 2-D: each row): a causal first-order section from the mirror-symmetric start, then an anti-causal
    one over the reversed result. `precision` bounds the terms of the sums that start them (SciPy's default
    where it is not in (0, 1])."""
    if abs(host(z1)) >= 1:
        raise ValueError("|z1| must be less than 1.0")
    _check_signal(input)
    if input.ndim == 0:  # SciPy's C conversion
        raise ValueError("object of too small depth for desired array")
    return symiir1_along(input, c0, z1, precision, [-1])


def symiirorder2(input, r, omega, precision=-1.0):
    """The smoothing filter cs^2 / ((1 - a2/z - a3/z^2) (1 - a2 z - a3 z^2)), a2 = 2 r cos(omega), a3 = -r^2,
    cs = 1 - 2 r cos(omega) + r^2, with mirror-symmetric boundary conditions, over `input` (1-D, or 2-D: each
    row): causal and anti-causal second-order sections, as symiirorder1's."""
    if host(r) >= 1.0:
        raise ValueError("r must be less than 1.0")
    _check_signal(input)
    if input.ndim == 0:  # SciPy's ascontiguousarray makes it one sample
        input = input.reshape(1)
    return symiir2_along(input, r, omega, precision, [-1])
