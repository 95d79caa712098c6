// Complex inverse trigonometric and hyperbolic functions, with C99's special values as glibc gives them.
// Finite values use Kahan's formulas ("Branch Cuts for Complex Elementary Functions", 1987): products of
// principal square roots, which keep the signed zeros on the branch cuts and avoid cancellation. Beyond
// 1/eps the functions are logarithms: asin z ~ -i log(2iz), where the dropped terms are O(1/z^2).
#pragma once

#include "cuarray/complex.cuh"

namespace ca {

template <class T>
__device__ __forceinline__ T pi_2() {
  return T(1.570796326794896619231321691639751442);
}

// log(2|z|), +inf for an infinite part.
template <class T>
__device__ __forceinline__ T log_2abs(T x, T y) {
  return ::isinf(x) || ::isinf(y) ? inf_v<T>() : log_abs(x, y) + num<T>::loge2;
}
template <class T>
__device__ __forceinline__ bool beyond_recip_eps(T x, T y) {
  return ::fabs(x) > 1 / limits<T>::eps || ::fabs(y) > 1 / limits<T>::eps;
}

// asin(x + iy) for finite z: Re = atan(x / Re(sqrt(1-z) sqrt(1+z))), Im = asinh(Im(conj(sqrt(1-z)) sqrt(1+z))).
template <class T>
__device__ complex<T> asin_kahan(T x, T y) {
  complex<T> a = sqrt(complex<T>(1 - x, -y)), b = sqrt(complex<T>(1 + x, y));
  return {::atan(x / (a.re * b.re - a.im * b.im)), ::asinh(a.re * b.im - a.im * b.re)};
}

template <class T>
__device__ complex<T> arcsin(complex<T> z) {
  T x = z.re, y = z.im;
  if (x != x || y != y) {
    if (x == 0) return z;
    return {nan_v<T>(), ::isinf(x) || ::isinf(y) ? ::copysign(inf_v<T>(), y) : nan_v<T>()};
  }
  if (beyond_recip_eps(x, y)) return {::atan2(x, ::fabs(y)), ::copysign(log_2abs(x, y), y)};
  return asin_kahan(x, y);
}

// asinh z = -i asin(iz).
template <class T>
__device__ complex<T> arcsinh(complex<T> z) {
  T x = z.re, y = z.im;
  if (x != x || y != y) {
    if (::isinf(x)) return {x, nan_v<T>()};
    if (::isinf(y)) return {inf_v<T>(), nan_v<T>()};
    return {nan_v<T>(), y == 0 ? y : nan_v<T>()};
  }
  if (beyond_recip_eps(x, y)) return {::copysign(log_2abs(x, y), x), ::atan2(y, ::fabs(x))};
  complex<T> w = asin_kahan(-y, x);
  return {w.im, -w.re};
}

// Re = 2 atan(Re sqrt(1-z) / Re sqrt(1+z)), Im = asinh(Im(conj(sqrt(1+z)) sqrt(1-z))).
template <class T>
__device__ complex<T> arccos(complex<T> z) {
  T x = z.re, y = z.im;
  if (x != x || y != y) {
    if (::isinf(x)) return {nan_v<T>(), -inf_v<T>()};
    if (::isinf(y)) return {nan_v<T>(), -y};
    return {x == 0 ? pi_2<T>() : nan_v<T>(), nan_v<T>()};
  }
  if (beyond_recip_eps(x, y)) return {::atan2(::fabs(y), x), -::copysign(log_2abs(x, y), y)};
  complex<T> a = sqrt(complex<T>(1 - x, -y)), b = sqrt(complex<T>(1 + x, y));
  return {2 * ::atan2(a.re, b.re), ::asinh(b.re * a.im - b.im * a.re)};
}

// Re = asinh(Re(conj(sqrt(z-1)) sqrt(z+1))), Im = 2 atan(Im sqrt(z-1) / Re sqrt(z+1)).
template <class T>
__device__ complex<T> arccosh(complex<T> z) {
  T x = z.re, y = z.im;
  if (x != x || y != y) {
    if (::isinf(x) || ::isinf(y)) return {inf_v<T>(), nan_v<T>()};
    return {nan_v<T>(), x == 0 ? pi_2<T>() : nan_v<T>()};
  }
  if (beyond_recip_eps(x, y)) return {log_2abs(x, y), ::atan2(y, x)};
  complex<T> a = sqrt(complex<T>(x - 1, y)), b = sqrt(complex<T>(x + 1, y));
  return {::asinh(a.re * b.re + a.im * b.im), 2 * ::atan2(a.im, b.re)};
}

// atanh z = log((1+z) / (1-z)) / 2: Re = log1p(4|x| / ((1-|x|)**2 + y**2)) / 4 (with x's sign),
// Im = atan2(2y, (1-|x|)(1+|x|) - y**2) / 2.
template <class T>
__device__ complex<T> arctanh(complex<T> z) {
  T x = z.re, y = z.im, ax = ::fabs(x), ay = ::fabs(y);
  if (::isinf(x) || ::isinf(y)) return {::copysign(T(0), x), y != y ? y : ::copysign(pi_2<T>(), y)};
  if (x != x || y != y) return {x == 0 ? x : nan_v<T>(), nan_v<T>()};
  if (y == 0 && ax <= 1) return {::atanh(x), y};
  if (x == 0) return {x, ::atan(y)};
  if (beyond_recip_eps(x, y)) {
    // Re atanh z = Re(1/z) = x / |z|**2 to within rounding; quartered so that |z|**2 cannot overflow.
    T h = ::hypot(x / 2, y / 2);
    return {x / 4 / h / h, ::copysign(pi_2<T>(), y)};
  }
  T re;
  if (ax == 1 && ay < limits<T>::eps)
    re = (num<T>::loge2 - ::log(ay)) / 2;  // y**2 may underflow there
  else
    re = ::log1p(4 * ax / ((1 - ax) * (1 - ax) + ay * ay)) / 4;
  return {::copysign(re, x), ::atan2(2 * y, (1 - ax) * (1 + ax) - ay * ay) / 2};
}

// atan z = -i atanh(iz).
template <class T>
__device__ complex<T> arctan(complex<T> z) {
  complex<T> w = arctanh(complex<T>(-z.im, z.re));
  return {w.im, -w.re};
}

}  // namespace ca
