// SciPy's special functions behind the table's _special_ rows (ops/ufuncs.def, cuarray.scipy.special), with
// SciPy's values at the edges of their domains. Every function computes in double: the rows' float32 loops
// round a double result once (Note [Special functions in double]).
#pragma once

namespace ca::sf {

__device__ __forceinline__ double inf() { return __longlong_as_double(0x7ff0000000000000ll); }
__device__ __forceinline__ double nan() { return __longlong_as_double(0x7ff8000000000000ll); }

// Note [Special functions in double]
// SciPy computes some float32 loops in double and others in float32 with algorithms of its own, so no one
// float32 method reproduces all of SciPy's bits. cuarray computes every loop in double and rounds once, which
// keeps each float32 result within an ulp of the exact value; SciPy's own float32 results are within a few
// ulps of it (docs/numerical-differences.md). The double loops are CUDA's libdevice functions, within a few
// ulps of SciPy's Cephes and xsf code, with SciPy's special values where the two differ (infinities of the
// Bessel functions, lgamma of -inf).

__device__ __forceinline__ double erf(double x) { return ::erf(x); }
__device__ __forceinline__ double erfc(double x) { return ::erfc(x); }
__device__ __forceinline__ double erfcx(double x) { return ::erfcx(x); }
// SciPy's erfinv(-0.0) and i1(-0.0) are +0.0 (Boost and Cephes return 0 for 0); CUDA's keep the sign.
__device__ __forceinline__ double erfinv(double x) { return x == 0 ? 0.0 : ::erfinv(x); }
// SciPy's erfcinv(1) is -erfinv(0), -0.0.
__device__ __forceinline__ double erfcinv(double x) { return x == 1 ? -0.0 : ::erfcinv(x); }

__device__ __forceinline__ double gamma(double x) { return ::tgamma(x); }
// SciPy's gammaln(-inf) is -inf (CUDA's lgamma gives +inf).
__device__ __forceinline__ double gammaln(double x) { return x == -inf() ? x : ::lgamma(x); }

// Cephes' ndtr: erf near zero, erfc in the tails, where 1 - erf(x) would cancel.
__device__ __forceinline__ double ndtr(double x) {
  if (::isnan(x)) return x;
  const double t = x * 0.70710678118654752440;
  if (::fabs(t) < 0.70710678118654752440) return 0.5 + 0.5 * ::erf(t);
  const double y = 0.5 * ::erfc(::fabs(t));
  return t > 0 ? 1.0 - y : y;
}
__device__ __forceinline__ double ndtri(double p) { return ::normcdfinv(p); }
// xsf's log_ndtr: through erfcx below -1, where ndtr underflows long before its logarithm does.
__device__ __forceinline__ double log_ndtr(double x) {
  const double t = x * 0.70710678118654752440;
  if (x < -1.0) return ::log(::erfcx(-t) / 2) - t * t;
  return ::log1p(-::erfc(t) / 2);
}

__device__ __forceinline__ double expit(double x) { return 1.0 / (1.0 + ::exp(-x)); }
// SciPy's logit: log(p / (1 - p)) away from 1/2, and a difference of log1p's near it, where the quotient
// loses bits.
__device__ __forceinline__ double logit(double p) {
  if (p < 0.3 || p > 0.65) return ::log(p / (1 - p));
  const double s = 2 * (p - 0.5);
  return ::log1p(s) - ::log1p(-s);
}
__device__ __forceinline__ double log_expit(double x) { return x < 0 ? x - ::log1p(::exp(x)) : -::log1p(::exp(-x)); }

// Cephes' Bessel functions give NaN at infinities, where CUDA's give their limits.
__device__ __forceinline__ double nan_at_inf(double x, double y) { return ::isinf(x) ? nan() : y; }
__device__ __forceinline__ double i0(double x) { return nan_at_inf(x, ::cyl_bessel_i0(x)); }
__device__ __forceinline__ double i1(double x) { return x == 0 ? 0.0 : nan_at_inf(x, ::cyl_bessel_i1(x)); }
__device__ __forceinline__ double j0(double x) { return nan_at_inf(x, ::j0(x)); }
__device__ __forceinline__ double j1(double x) { return nan_at_inf(x, ::j1(x)); }
__device__ __forceinline__ double y0(double x) { return nan_at_inf(x, ::y0(x)); }
__device__ __forceinline__ double y1(double x) { return nan_at_inf(x, ::y1(x)); }

// x*log(y) and x*log1p(y), 0 where x is 0 and y is not NaN.
__device__ __forceinline__ double xlogy(double x, double y) { return x == 0 && !::isnan(y) ? 0.0 : x * ::log(y); }
__device__ __forceinline__ double xlog1py(double x, double y) { return x == 0 && !::isnan(y) ? 0.0 : x * ::log1p(y); }
__device__ __forceinline__ double entr(double x) {
  if (::isnan(x)) return x;
  if (x > 0) return -x * ::log(x);
  return x == 0 ? 0.0 : -inf();
}
__device__ __forceinline__ double rel_entr(double x, double y) {
  if (::isnan(x) || ::isnan(y)) return nan();
  if (x > 0 && y > 0) return x * ::log(x / y);
  return x == 0 && y >= 0 ? 0.0 : inf();
}
__device__ __forceinline__ double kl_div(double x, double y) {
  if (::isnan(x) || ::isnan(y)) return nan();
  if (x > 0 && y > 0) return x * ::log(x / y) - x + y;
  return x == 0 && y >= 0 ? y : inf();
}
__device__ __forceinline__ double huber(double delta, double r) {
  if (delta < 0) return inf();
  if (::fabs(r) <= delta) return 0.5 * r * r;
  return delta * (::fabs(r) - 0.5 * delta);
}

__device__ __forceinline__ double exp10(double x) { return ::exp10(x); }
__device__ __forceinline__ double exp2(double x) { return ::exp2(x); }
__device__ __forceinline__ double cbrt(double x) { return ::cbrt(x); }

}  // namespace ca::sf
