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

// e^-|x| I0(x) and e^-|x| I1(x): the product where I0 and I1 are finite, else the asymptotic series
// e^-x I_nu(x) ~ (2 pi x)^-1/2 sum_k (-1)^k prod_{j<=k} (4 nu^2 - (2j - 1)^2) / (k! (8x)^k), which has
// converged to double precision for x past 500. Their limits at infinity are zeros, as SciPy's.
__device__ __forceinline__ double bessel_ie_series(double x, double four_nu2) {
  double term = 1.0, sum = 1.0;
  for (int k = 1; k <= 12; ++k) {
    const double m = 2.0 * k - 1.0;
    term *= -(four_nu2 - m * m) / (8.0 * k * x);
    sum += term;
  }
  return sum / (::sqrt(x) * 2.5066282746310002);  // sqrt(2 pi) apart: 2 pi x overflows past 2.8e307
}
__device__ __forceinline__ double i0e(double x) {
  const double a = ::fabs(x);
  if (::isinf(a)) return 0.0;
  return a > 500.0 ? bessel_ie_series(a, 0.0) : ::exp(-a) * ::cyl_bessel_i0(a);
}
__device__ __forceinline__ double i1e(double x) {
  const double a = ::fabs(x);
  if (x == 0) return 0.0;
  if (::isinf(a)) return ::copysign(0.0, x);
  return ::copysign(a > 500.0 ? bessel_ie_series(a, 4.0) : ::exp(-a) * ::cyl_bessel_i1(a), x);
}

// The sign of gamma(x): 1 for positive x, -1 on the intervals (-1, 0), (-3, -2), ..., NaN at the poles
// (the non-positive integers and -inf); the sign of a zero for a zero.
__device__ __forceinline__ double gammasgn(double x) {
  if (::isnan(x)) return x;
  if (x > 0) return 1.0;
  if (x == 0) return ::copysign(1.0, x);
  const double f = ::floor(x);
  if (f == x) return nan();
  return ::fmod(f, 2.0) == 0 ? 1.0 : -1.0;
}

// 1 / gamma(x): zero at the poles (a zero of x's sign at zero), and an infinity of gamma's sign where gamma
// underflows to zero.
__device__ __forceinline__ double rgamma(double x) {
  if (x == 0) return x;
  if (x < 0 && ::floor(x) == x) return 0.0;
  if (::isinf(x)) return 0.0;
  if (x > 0 && x < 1e-17) return x;  // 1/gamma(x) = x (1 + 0.58 x + ...); gamma overflows for subnormal x
  const double g = ::tgamma(x);
  return g == 0 ? gammasgn(x) * inf() : 1.0 / g;
}

// Note [Digamma]
// psi(x) for x > 0 steps up to x >= 10 by psi(x) = psi(x + 1) - 1/x and sums the asymptotic series
// log x - 1/(2x) - sum B_2k / (2k x^2k) there; negative x reflect, psi(x) = psi(1 - x) - pi cot(pi x). Both
// lose relative accuracy near psi's roots, where the value is small, so within 0.3 of the positive root and
// 0.15 of the first negative one psi is its Taylor series about the root (as SciPy's xsf does): coefficients
// psi^(k)(root) / k!, computed once in high precision, each series converged to double precision in the
// terms kept.
__device__ __forceinline__ double psi_series(double d, double root_value, const double* c, int n) {
  double p = 0.0;
  for (int k = n - 1; k >= 0; --k) p = p * d + c[k];
  return p * d + root_value;
}
__device__ __forceinline__ double psi_positive(double x) {
  constexpr double kRoot = 1.4616321449683622;
  if (::fabs(x - kRoot) < 0.3) {
    const double c[26] = {
        0.9676722454476212,     -0.4427631689835922,     0.2584997609556511,     -0.16394270544240658,
        0.10782405069126241,    -0.07219956125645474,    0.04880428816414313,    -0.033161126474847376,
        0.022597648232218118,   -0.01542476590494897,    0.010538791616612184,   -0.007204534386356875,
        0.004926781395729858,   -0.0033698016554393312,  0.00230512632673493,    -0.001576936771430199,
        0.0010788252019162978,  -0.000738070938996006,   0.0005049532658346027,  -0.0003454680251063082,
        0.00023635601564027086, -0.00016170622091974827, 0.00011063372768747428, -7.569179582195078e-05,
        5.17857579522209e-05,   -3.543007094765967e-05};
    return psi_series(x - kRoot, -9.241265521729427e-17, c, 26);
  }
  double acc = 0.0;
  while (x < 10.0) {
    acc -= 1.0 / x;
    x += 1.0;
  }
  const double z = 1.0 / (x * x);
  const double tail =
      z *
      (1.0 / 12 - z * (1.0 / 120 - z * (1.0 / 252 - z * (1.0 / 240 - z * (1.0 / 132 - z * (691.0 / 32760 - z / 12))))));
  return acc + ::log(x) - 0.5 / x - tail;
}
__device__ __forceinline__ double psi(double x) {
  if (x == 0) return -::copysign(inf(), x);  // SciPy's: -inf at +0, +inf at -0
  if (::isnan(x) || x == inf()) return x;
  if (x > 0) return psi_positive(x);
  if (::floor(x) == x) return nan();  // the poles, and -inf
  constexpr double kRoot = -0.5040830082644554;
  if (::fabs(x - kRoot) < 0.15) {
    const double c[34] = {
        8.939798558792134,   -0.8093454625306499, 32.258572064915505, -2.7610116487908227, 128.27342343090902,
        -14.706721735530332, 513.2704629562861,   -75.37700066344615, 2055.5357119463315,  -368.5783503832184,
        8234.667099203069,   -1743.3646088673593, 32997.785655255044, -8051.818155363481,  132262.95480834588,
        -36529.945969485576, 530280.3912420176,   -163451.7934270022, 2126602.372596875,   -723318.8861804291,
        8530604.878543982,   -3172131.31557447,   34228316.69580112,  -13807481.99726386,  137373435.87411496,
        -59721085.41129418,  551481251.8585448,   -256915093.7987531, 2214464568.0139103,  -1100067148.9416316,
        8894384049.698204,   -4691108165.464198,  35733149689.1997,   -19932951831.31558};
    return psi_series(x - kRoot, 7.289763902976895e-17, c, 34);
  }
  // cot(pi x) from sinpi and cospi, exact at the half-integers
  return psi_positive(1.0 - x) - 3.141592653589793 * ::cospi(x) / ::sinpi(x);
}

}  // namespace ca::sf
