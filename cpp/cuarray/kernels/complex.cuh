// Complex arithmetic and the elementary functions with NumPy's results. NumPy's arithmetic (Smith's
// division, its ordering) is reproduced exactly; exp, log, sqrt and the trigonometric and hyperbolic
// functions give the special values of C99 Annex G with the choices glibc makes where C99 leaves a sign
// unspecified (NumPy calls glibc's csqrt, cexp, ... on Linux), and finite values to within a few ulps.
#pragma once

#include "cuarray/math_float.cuh"
#include "cuarray/types.cuh"

namespace ca {

template <class T>
__device__ __forceinline__ complex<T> operator+(complex<T> a, complex<T> b) {
  return {a.re + b.re, a.im + b.im};
}
template <class T>
__device__ __forceinline__ complex<T> operator-(complex<T> a, complex<T> b) {
  return {a.re - b.re, a.im - b.im};
}
template <class T>
__device__ __forceinline__ complex<T> operator-(complex<T> a) {
  return {-a.re, -a.im};
}
template <class T>
__device__ __forceinline__ complex<T> operator+(complex<T> a) {
  return a;
}
// NumPy's SIMD loops (AVX2 and AVX-512) multiply with one rounded product and one fused multiply-add per part.
template <class T>
__device__ __forceinline__ complex<T> operator*(complex<T> a, complex<T> b) {
  return {::fma(a.re, b.re, -mul_rn(a.im, b.im)), ::fma(a.re, b.im, mul_rn(a.im, b.re))};
}
// The product as NumPy's scalar C code computes it, every operation rounded (npy_cpow's powers).
template <class T>
__device__ __forceinline__ complex<T> mul_unfused(complex<T> a, complex<T> b) {
  return {mul_rn(a.re, b.re) - mul_rn(a.im, b.im), mul_rn(a.re, b.im) + mul_rn(a.im, b.re)};
}
// C's complex product (C11 Annex G.5.1): where the plain formula gives NaN in both parts but an operand is
// infinite, the infinity is recovered. glibc's cpow multiplies this way.
template <class T>
__device__ complex<T> mul_annex_g(complex<T> z, complex<T> w) {
  T a = z.re, b = z.im, c = w.re, d = w.im;
  T ac = mul_rn(a, c), bd = mul_rn(b, d), ad = mul_rn(a, d), bc = mul_rn(b, c);
  complex<T> r(ac - bd, ad + bc);
  if (r.re == r.re || r.im == r.im) return r;
  auto unit = [](T& v) { v = ::copysign(::isinf(v) ? T(1) : T(0), v); };
  auto nan_to_zero = [](T& v) {
    if (v != v) v = ::copysign(T(0), v);
  };
  bool recalc = false;
  if (::isinf(a) || ::isinf(b)) {
    unit(a), unit(b), nan_to_zero(c), nan_to_zero(d);
    recalc = true;
  }
  if (::isinf(c) || ::isinf(d)) {
    unit(c), unit(d), nan_to_zero(a), nan_to_zero(b);
    recalc = true;
  }
  if (!recalc && (::isinf(ac) || ::isinf(bd) || ::isinf(ad) || ::isinf(bc))) {
    nan_to_zero(a), nan_to_zero(b), nan_to_zero(c), nan_to_zero(d);
    recalc = true;
  }
  if (!recalc) return r;
  return {inf_v<T>() * (mul_rn(a, c) - mul_rn(b, d)), inf_v<T>() * (mul_rn(a, d) + mul_rn(b, c))};
}

// NumPy's complex division: Smith's algorithm, every operation rounded, with its handling of zero divisors.
template <class T>
__device__ __forceinline__ complex<T> operator/(complex<T> a, complex<T> b) {
  T abs_br = ::fabs(b.re), abs_bi = ::fabs(b.im);
  if (abs_br >= abs_bi) {
    if (abs_br == 0 && abs_bi == 0) return {a.re / abs_br, a.im / abs_bi};
    T rat = b.im / b.re, scl = T(1) / (b.re + mul_rn(b.im, rat));
    return {(a.re + mul_rn(a.im, rat)) * scl, (a.im - mul_rn(a.re, rat)) * scl};
  }
  T rat = b.re / b.im, scl = T(1) / (b.im + mul_rn(b.re, rat));
  return {(mul_rn(a.re, rat) + a.im) * scl, (mul_rn(a.im, rat) - a.re) * scl};
}
template <class T>
__device__ __forceinline__ bool operator==(complex<T> a, complex<T> b) {
  return a.re == b.re && a.im == b.im;
}
template <class T>
__device__ __forceinline__ bool operator!=(complex<T> a, complex<T> b) {
  return !(a == b);
}
// NumPy orders complex numbers lexicographically (real part first); the real parts alone decide only when
// neither imaginary part is NaN.
template <class T>
__device__ __forceinline__ bool operator<(complex<T> a, complex<T> b) {
  return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im < b.im);
}
template <class T>
__device__ __forceinline__ bool operator<=(complex<T> a, complex<T> b) {
  return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im <= b.im);
}
template <class T>
__device__ __forceinline__ bool operator>(complex<T> a, complex<T> b) {
  return b < a;
}
template <class T>
__device__ __forceinline__ bool operator>=(complex<T> a, complex<T> b) {
  return b <= a;
}

template <class T>
__device__ __forceinline__ bool has_nan(complex<T> z) {
  return z.re != z.re || z.im != z.im;
}

// Per-precision limits: the largest finite value, the smallest normal one, epsilon, and the argument above
// which exp overflows.
template <class T>
struct limits;
template <>
struct limits<float> {
  static constexpr float max = 3.40282347e+38f, min = 1.17549435e-38f, eps = 1.19209290e-07f, exp_max = 88.7228f;
};
template <>
struct limits<double> {
  static constexpr double max = 1.7976931348623157e+308, min = 2.2250738585072014e-308, eps = 2.2204460492503131e-16,
                          exp_max = 709.782712893384;
};

// |z| as NumPy's SIMD absolute computes it: big * sqrt(1 + (small/big)**2), the square fused. An infinite
// part gives +inf even when the other is NaN (C99's hypot).
template <class T>
__device__ __forceinline__ T cabs(complex<T> z) {
  T ax = ::fabs(z.re), ay = ::fabs(z.im);
  if (::isinf(ax) || ::isinf(ay)) return inf_v<T>();
  if (ax != ax || ay != ay) return nan_v<T>();
  T big = ax > ay ? ax : ay, small = ax > ay ? ay : ax;
  if (big == 0) return T(0);
  T r = small / big;
  return big * ::sqrt(::fma(r, r, T(1)));
}

// c * exp(x) for finite x, also where exp(x) alone overflows but the product does not.
template <class T>
__device__ __forceinline__ T scale_by_exp(T c, T x) {
  if (x <= limits<T>::exp_max) return c * ::exp(x);
  T h = ::exp(x / 2);
  return c * h * h;
}

// log|z| for finite z: rescaled where |z| would overflow or lose bits as a subnormal, and through log1p near
// |z| = 1, where log(hypot) would cancel.
template <class T>
__device__ T log_abs(T x, T y) {
  T ax = ::fabs(x), ay = ::fabs(y), big = ax > ay ? ax : ay, small = ax > ay ? ay : ax;
  if (big > limits<T>::max / 2) return ::log(::hypot(ax / 2, ay / 2)) + num<T>::loge2;
  if (big < limits<T>::min) {
    if (big == 0) return -inf_v<T>();
    const int k = 2 * static_cast<int>(sizeof(T)) * 8;  // 2**k lifts any subnormal into the normal range
    return ::log(::hypot(::ldexp(ax, k), ::ldexp(ay, k))) - k * num<T>::loge2;
  }
  T h = ::hypot(ax, ay);
  if (h > T(0.5) && h < T(2)) return ::log1p((big - 1) * (big + 1) + small * small) / 2;
  return ::log(h);
}

template <class T>
__device__ complex<T> exp(complex<T> z) {
  T x = z.re, y = z.im;
  if (y == 0) return {::exp(x), y};
  if (x != x) return {x, nan_v<T>()};
  if (!::isfinite(y)) {
    if (::isinf(x)) return x > 0 ? complex<T>(x, nan_v<T>()) : complex<T>(T(0), ::copysign(T(0), y));
    return {nan_v<T>(), nan_v<T>()};
  }
  T c = ::cos(y), s = ::sin(y);
  if (::isinf(x)) return {x > 0 ? x * c : T(0) * c, x > 0 ? x * s : T(0) * s};
  return {scale_by_exp(c, x), scale_by_exp(s, x)};
}

template <class T>
__device__ complex<T> log(complex<T> z) {
  T x = z.re, y = z.im;
  if (::isinf(x) || ::isinf(y)) return {inf_v<T>(), ::atan2(y, x)};
  if (x != x || y != y) return {nan_v<T>(), nan_v<T>()};
  return {log_abs(x, y), ::atan2(y, x)};
}

template <class T>
__device__ complex<T> sqrt(complex<T> z) {
  T x = z.re, y = z.im;
  if (::isinf(y)) return {inf_v<T>(), y};
  if (x != x) return {x, nan_v<T>()};
  if (::isinf(x)) {
    if (y != y) return x > 0 ? complex<T>(x, y) : complex<T>(y, inf_v<T>());
    return x > 0 ? complex<T>(x, ::copysign(T(0), y)) : complex<T>(T(0), ::copysign(inf_v<T>(), y));
  }
  if (y != y) return {y, y};
  if (x == 0 && y == 0) return {T(0), y};
  // t = sqrt((|x| + |z|) / 2) is the part of larger magnitude; the other is |y| / 2t. Scaled by 1/4 where
  // |x| + |z| could overflow, by 2**2k where it could lose bits as a subnormal.
  T ax = ::fabs(x), ay = ::fabs(y), t;
  if (ax > limits<T>::max / 4 || ay > limits<T>::max / 4) {
    t = 2 * ::sqrt((ax / 4 + ::hypot(ax / 4, ay / 4)) / 2);
  } else if (ax < 4 * limits<T>::min && ay < 4 * limits<T>::min) {
    const int k = static_cast<int>(sizeof(T)) * 8;
    T sx = ::ldexp(ax, 2 * k), sy = ::ldexp(ay, 2 * k);
    t = ::ldexp(::sqrt((sx + ::hypot(sx, sy)) / 2), -k);
  } else {
    t = ::sqrt((ax + ::hypot(ax, ay)) / 2);
  }
  T u = ay / t / 2;
  return x >= 0 ? complex<T>(t, ::copysign(u, y)) : complex<T>(u, ::copysign(t, y));
}

// sinh(x + iy) = sinh x cos y + i cosh x sin y.
template <class T>
__device__ complex<T> sinh(complex<T> z) {
  T x = z.re, y = z.im;
  if (::isfinite(x) && ::isfinite(y)) {
    if (y == 0) return {::sinh(x), y};
    T c = ::cos(y), s = ::sin(y), ax = ::fabs(x);
    if (ax <= limits<T>::exp_max) return {::sinh(x) * c, ::cosh(x) * s};
    // cosh x = |sinh x| = exp(|x|) / 2 to within rounding
    return {::copysign(T(1), x) * scale_by_exp(c / 2, ax), scale_by_exp(s / 2, ax)};
  }
  if (x == 0) return {x, y - y};
  if (::isinf(x)) {
    if (y == 0) return z;
    if (::isfinite(y)) return {x * ::cos(y), inf_v<T>() * ::sin(y)};
    return {inf_v<T>(), y - y};
  }
  if (x != x && y == 0) return z;
  return {nan_v<T>(), nan_v<T>()};
}

// cosh(x + iy) = cosh x cos y + i sinh x sin y.
template <class T>
__device__ complex<T> cosh(complex<T> z) {
  T x = z.re, y = z.im;
  if (::isfinite(x) && ::isfinite(y)) {
    if (y == 0) return {::cosh(x), ::copysign(T(1), x) * y};
    T c = ::cos(y), s = ::sin(y), ax = ::fabs(x);
    if (ax <= limits<T>::exp_max) return {::cosh(x) * c, ::sinh(x) * s};
    return {scale_by_exp(c / 2, ax), ::copysign(T(1), x) * scale_by_exp(s / 2, ax)};
  }
  if (x == 0) return {y - y, T(0)};
  if (::isinf(x)) {
    if (y == 0) return {inf_v<T>(), ::copysign(T(0), x) * y};
    if (::isfinite(y)) return {inf_v<T>() * ::cos(y), x * ::sin(y)};
    return {inf_v<T>(), y - y};
  }
  if (x != x && y == 0) return z;
  return {nan_v<T>(), nan_v<T>()};
}

// tanh(x + iy) by Kahan's formula: with t = tan y, s = sinh x, beta = 1 + t*t,
// tanh z = (beta sqrt(1 + s*s) s + i t) / (1 + beta s*s).
template <class T>
__device__ complex<T> tanh(complex<T> z) {
  T x = z.re, y = z.im;
  if (::isinf(x)) return {::copysign(T(1), x), ::copysign(T(0), ::isinf(y) ? y : ::sin(y) * ::cos(y))};
  if (x != x) return {x, y == 0 ? y : nan_v<T>()};
  if (!::isfinite(y)) return {x == 0 ? x : nan_v<T>(), nan_v<T>()};
  if (y == 0) return {::tanh(x), y};
  // Where tanh |x| rounds to 1: Im = sin 2y / (cosh 2x + cos 2y) = 4 sin y cos y exp(-2|x|) to within rounding.
  if (::fabs(x) > (sizeof(T) == 4 ? T(10) : T(20))) {
    T e = ::exp(-::fabs(x));
    return {::copysign(T(1), x), 4 * ::sin(y) * ::cos(y) * e * e};
  }
  T t = ::tan(y), beta = 1 + t * t, s = ::sinh(x), rho = ::sqrt(1 + s * s), d = 1 + beta * s * s;
  return {beta * rho * s / d, t / d};
}

// sin(x + iy) = sin x cosh y + i cos x sinh y.
template <class T>
__device__ complex<T> sin(complex<T> z) {
  T x = z.re, y = z.im;
  if (x == 0) return {x, ::sinh(y)};
  if (::isfinite(x)) {
    if (::isfinite(y)) {
      T s = ::sin(x), c = ::cos(x), ay = ::fabs(y);
      if (ay <= limits<T>::exp_max) return {s * ::cosh(y), c * ::sinh(y)};
      return {scale_by_exp(s / 2, ay), ::copysign(T(1), y) * scale_by_exp(c / 2, ay)};
    }
    if (y != y) return {nan_v<T>(), nan_v<T>()};
    return {::sin(x) * inf_v<T>(), ::cos(x) * y};
  }
  if (y == 0) return {nan_v<T>(), y};
  return {nan_v<T>(), ::isinf(y) ? inf_v<T>() : nan_v<T>()};
}

// cos(x + iy) = cos x cosh y - i sin x sinh y.
template <class T>
__device__ complex<T> cos(complex<T> z) {
  T x = z.re, y = z.im;
  if (x == 0) return {::cosh(y), y != y ? x : -x * ::copysign(T(1), y)};
  if (::isfinite(x)) {
    if (::isfinite(y)) {
      T s = ::sin(x), c = ::cos(x), ay = ::fabs(y);
      if (ay <= limits<T>::exp_max) return {c * ::cosh(y), -(s * ::sinh(y))};
      return {scale_by_exp(c / 2, ay), -::copysign(T(1), y) * scale_by_exp(s / 2, ay)};
    }
    if (y != y) return {nan_v<T>(), nan_v<T>()};
    return {::cos(x) * inf_v<T>(), -(::sin(x) * y)};
  }
  if (y == 0) return {nan_v<T>(), T(0)};
  return {::isinf(y) ? inf_v<T>() : nan_v<T>(), nan_v<T>()};
}

// tan z = -i tanh(iz).
template <class T>
__device__ complex<T> tan(complex<T> z) {
  complex<T> w = tanh(complex<T>(-z.im, z.re));
  return {w.im, -w.re};
}

}  // namespace ca
