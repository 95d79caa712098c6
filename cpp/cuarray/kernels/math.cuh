// Device functions behind the ufunc table (ops/ufuncs.def), one per ufunc, for every loop type: they pick
// the integer (math_int.cuh), real (math_float.cuh) or complex (complex.cuh, complex_inverse.cuh) version.
// Bodies pass the loop's storage type S (in0_t) where NumPy's result depends on it.
#pragma once

#include "cuarray/cast.cuh"
#include "cuarray/complex.cuh"
#include "cuarray/complex_inverse.cuh"
#include "cuarray/math_float.cuh"
#include "cuarray/math_int.cuh"
#include "cuarray/types.cuh"

namespace ca {

// ---- arithmetic ----

template <class T>
__device__ __forceinline__ T floor_divide(T a, T b) {
  if constexpr (is_integer_v<T>)
    return int_floor_divide(a, b);
  else
    return float_floor_divide(a, b);
}
template <class T>
__device__ __forceinline__ T remainder(T a, T b) {
  if constexpr (is_integer_v<T>)
    return int_remainder(a, b);
  else
    return float_remainder(a, b);
}
template <class T>
__device__ __forceinline__ T fmod(T a, T b) {
  if constexpr (is_integer_v<T>)
    return int_fmod(a, b);
  else
    return ::fmod(a, b);
}
// The quotient; the remainder goes to `mod`.
template <class T>
__device__ __forceinline__ T divmod(T a, T b, T& mod) {
  if constexpr (is_integer_v<T>) {
    mod = int_remainder(a, b);
    return int_floor_divide(a, b);
  } else {
    return float_divmod(a, b, mod);
  }
}

template <class T>
__device__ __forceinline__ T power(T a, T b) {
  if constexpr (is_integer_v<T>)
    return int_power(a, b);
  else
    return ::pow(a, b);
}
// NumPy's float32/float64 power where the exponent is the same for the whole inner loop (Note [Power with a
// uniform exponent] in ops/ufunc.cpp): 1 / x, 1, sqrt(x), x and x * x for the exponents -1, 0, 0.5, 1 and 2,
// pow otherwise. sqrt differs from pow at -0 (-0, where pow gives +0) and -inf (nan, where pow gives inf).
template <class T>
__device__ __forceinline__ T power_uniform(T a, T b) {
  if (b == T(0.5)) return ::sqrt(a);
  if (b == T(2)) return a * a;
  if (b == T(-1)) return T(1) / a;
  if (b == T(1)) return a;
  if (b == T(0)) return T(1);
  return ::pow(a, b);
}
// NumPy's npy_cpow: repeated products for small integer exponents, else glibc's cexp(b * clog(a)).
template <class T>
__device__ complex<T> power(complex<T> a, complex<T> b) {
  if (b.re == 0 && b.im == 0) return {T(1), T(0)};
  if (a.re == 0 && a.im == 0) return b.re > 0 ? complex<T>(T(0), T(0)) : complex<T>(nan_v<T>(), nan_v<T>());
  if (b.im == 0 && b.re > -100 && b.re < 100 && static_cast<T>(static_cast<int>(b.re)) == b.re) {
    int n = static_cast<int>(b.re);
    if (n == 1) return a;
    if (n == 2) return mul_unfused(a, a);
    if (n == 3) return mul_unfused(a, mul_unfused(a, a));
    complex<T> r(T(1), T(0)), p = a;
    for (int m = n < 0 ? -n : n; m; m >>= 1) {
      if (m & 1) r = mul_unfused(r, p);
      if (m > 1) p = mul_unfused(p, p);
    }
    return n < 0 ? complex<T>(T(1), T(0)) / r : r;
  }
  return exp(mul_annex_g(b, log(a)));
}

template <class T>
__device__ __forceinline__ T square(T x) {
  if constexpr (is_integer_v<T>)
    return int_square(x);
  else
    return x * x;
}

// Integers: NumPy casts 1.0 / x back, which is 0 but for +-1, and x86's conversion of inf for 1 / 0.
template <class T>
__device__ __forceinline__ T reciprocal(T x) {
  if constexpr (is_integer_v<T>) {
    if (x == 0) return cast<T>(inf_v<double>());
    if constexpr (is_signed_int_v<T>)
      return x == 1 || x == -1 ? x : T(0);
    else
      return x == 1 ? x : T(0);
  } else {
    return T(1) / x;
  }
}
template <class T>
__device__ __forceinline__ complex<T> reciprocal(complex<T> z) {
  if (::fabs(z.im) <= ::fabs(z.re)) {
    T r = z.im / z.re, d = z.re + mul_rn(z.im, r);
    return {T(1) / d, -r / d};
  }
  T r = z.re / z.im, d = mul_rn(z.re, r) + z.im;
  return {r / d, T(-1) / d};
}

// A float's sign bit flipped, as NumPy negates on x86: a NaN keeps its payload and changes sign, where PTX's
// neg returns the canonical NaN.
template <class T>
__device__ __forceinline__ T negative(T x) {
  if constexpr (is_same_v<T, float>)
    return __uint_as_float(__float_as_uint(x) ^ 0x80000000u);
  else if constexpr (is_same_v<T, double>)
    return __longlong_as_double(__double_as_longlong(x) ^ static_cast<long long>(0x8000000000000000ull));
  else
    return -x;
}
template <class T>
__device__ __forceinline__ complex<T> negative(complex<T> z) {
  return {negative(z.re), negative(z.im)};
}

// |MIN| is MIN, as NumPy's wrapping negation gives.
template <class T>
__device__ __forceinline__ T absolute(T x) {
  if constexpr (is_signed_int_v<T>)
    return T(unsigned_abs(x));
  else if constexpr (is_floating_v<T>)
    return ::fabs(x);
  else
    return x;
}
template <class T>
__device__ __forceinline__ T absolute(complex<T> z) {
  return cabs(z);
}

template <class S = void, class T>
__device__ __forceinline__ T sign(T x) {
  if constexpr (is_floating_v<T>)
    return float_sign<S>(x);
  else if constexpr (is_signed_int_v<T>)
    return T((x > 0) - (x < 0));
  else
    return T(x > 0);
}
// NumPy 2's z / |z| (|z| from hypot), with its values for infinite parts.
template <class S = void, class T>
__device__ __forceinline__ complex<T> sign(complex<T> z) {
  T a = c_hypot(z.re, z.im);
  if (a != a) return {nan_v<T>(), nan_v<T>()};
  if (::isinf(a)) {
    if (!::isinf(z.re)) return {T(0), z.im > 0 ? T(1) : T(-1)};
    if (::isinf(z.im)) return {nan_v<T>(), nan_v<T>()};
    return {z.re > 0 ? T(1) : T(-1), T(0)};
  }
  if (a == 0) return {T(0), T(0)};
  return {z.re / a, z.im / a};
}

template <class T>
__device__ __forceinline__ T conjugate(T x) {
  return x;
}
template <class T>
__device__ __forceinline__ complex<T> conjugate(complex<T> z) {
  return {z.re, -z.im};
}

// ---- rounding (the identity on integers and bools) ----

template <class T>
__device__ __forceinline__ T floor(T x) {
  if constexpr (is_floating_v<T>)
    return ::floor(x);
  else
    return x;
}
template <class T>
__device__ __forceinline__ T ceil(T x) {
  if constexpr (is_floating_v<T>)
    return ::ceil(x);
  else
    return x;
}
template <class T>
__device__ __forceinline__ T trunc(T x) {
  if constexpr (is_floating_v<T>)
    return ::trunc(x);
  else
    return x;
}
template <class T>
__device__ __forceinline__ T rint(T x) {
  return ::rint(x);
}
template <class T>
__device__ __forceinline__ complex<T> rint(complex<T> z) {
  return {::rint(z.re), ::rint(z.im)};
}

template <class T>
__device__ __forceinline__ T modf(T x, T& integral) {
  return ::modf(x, &integral);
}

// ---- powers, exponentials, logarithms and trigonometry on reals (complex versions: complex.cuh) ----

#define CA_REAL_FUNCTION(name, c_name)     \
  template <class T>                       \
  __device__ __forceinline__ T name(T x) { \
    return ::c_name(x);                    \
  }
CA_REAL_FUNCTION(sqrt, sqrt)
CA_REAL_FUNCTION(cbrt, cbrt)
CA_REAL_FUNCTION(exp, exp)
CA_REAL_FUNCTION(exp2, exp2)
CA_REAL_FUNCTION(expm1, expm1)
CA_REAL_FUNCTION(log, log)
CA_REAL_FUNCTION(log2, log2)
CA_REAL_FUNCTION(log10, log10)
CA_REAL_FUNCTION(log1p, log1p)
CA_REAL_FUNCTION(sin, sin)
CA_REAL_FUNCTION(cos, cos)
CA_REAL_FUNCTION(tan, tan)
CA_REAL_FUNCTION(arcsin, asin)
CA_REAL_FUNCTION(arccos, acos)
CA_REAL_FUNCTION(arctan, atan)
CA_REAL_FUNCTION(sinh, sinh)
CA_REAL_FUNCTION(cosh, cosh)
CA_REAL_FUNCTION(tanh, tanh)
CA_REAL_FUNCTION(arcsinh, asinh)
CA_REAL_FUNCTION(arccosh, acosh)
CA_REAL_FUNCTION(arctanh, atanh)
#undef CA_REAL_FUNCTION

// NumPy's complex exp2, expm1, log2, log10 and log1p (funcs.inc.src), built on exp and log.
template <class T>
__device__ complex<T> exp2(complex<T> z) {
  return exp(complex<T>(z.re * num<T>::loge2, z.im * num<T>::loge2));
}
template <class T>
__device__ complex<T> expm1(complex<T> z) {
  T a = ::sin(z.im / 2);
  return {::expm1(z.re) * ::cos(z.im) - 2 * a * a, ::exp(z.re) * ::sin(z.im)};
}
template <class T>
__device__ complex<T> log2(complex<T> z) {
  complex<T> l = log(z);
  return {l.re * num<T>::log2e, l.im * num<T>::log2e};
}
template <class T>
__device__ complex<T> log10(complex<T> z) {
  complex<T> l = log(z);
  return {l.re * num<T>::log10e, l.im * num<T>::log10e};
}
template <class T>
__device__ complex<T> log1p(complex<T> z) {
  return {::log(c_hypot(z.re + 1, z.im)), ::atan2(z.im, z.re + 1)};
}

template <class T>
__device__ __forceinline__ T deg2rad(T x) {
  return x * num<T>::deg2rad;
}

// float in double, which rounds as glibc's hypotf does.
template <class T>
__device__ __forceinline__ T hypot(T a, T b) {
  if constexpr (is_same_v<T, float>)
    return static_cast<float>(c_hypot<double>(a, b));
  else
    return c_hypot(a, b);
}

// ---- classification ----

template <class T>
__device__ __forceinline__ bool isnan(T x) {
  if constexpr (is_floating_v<T>)
    return x != x;
  else
    return false;
}
template <class T>
__device__ __forceinline__ bool isinf(T x) {
  if constexpr (is_floating_v<T>)
    return ::isinf(x);
  else
    return false;
}
template <class T>
__device__ __forceinline__ bool isfinite(T x) {
  if constexpr (is_floating_v<T>)
    return ::isfinite(x);
  else
    return true;
}
template <class T>
__device__ __forceinline__ bool isnan(complex<T> z) {
  return has_nan(z);
}
template <class T>
__device__ __forceinline__ bool isinf(complex<T> z) {
  return ::isinf(z.re) || ::isinf(z.im);
}
template <class T>
__device__ __forceinline__ bool isfinite(complex<T> z) {
  return ::isfinite(z.re) && ::isfinite(z.im);
}

// ---- maximum and minimum ----

// The type's lowest and highest values (infinities for floating types): where maximum and minimum start, in
// the max/min reductions and the running extremes of scan.cuh.
template <class T>
__device__ __forceinline__ T lowest() {
  if constexpr (is_complex_v<T>)
    return T(lowest<typename T::value_type>(), lowest<typename T::value_type>());
  else if constexpr (is_floating_v<T>)
    return T(-__int_as_float(0x7f800000));
  else if constexpr (is_same_v<T, bool>)
    return false;
  else if constexpr (static_cast<T>(-1) < static_cast<T>(0))
    return static_cast<T>(1ull << (8 * sizeof(T) - 1));
  else
    return T(0);
}
template <class T>
__device__ __forceinline__ T highest() {
  if constexpr (is_complex_v<T>)
    return T(highest<typename T::value_type>(), highest<typename T::value_type>());
  else if constexpr (is_floating_v<T>)
    return T(__int_as_float(0x7f800000));
  else if constexpr (is_same_v<T, bool>)
    return true;
  else if constexpr (static_cast<T>(-1) < static_cast<T>(0))
    return static_cast<T>(~(1ull << (8 * sizeof(T) - 1)));
  else
    return static_cast<T>(~0ull);
}

template <class S = void, class T>
__device__ __forceinline__ T maximum(T a, T b) {
  if constexpr (is_floating_v<T>)
    return float_maximum<S>(a, b);
  else
    return a > b ? a : b;
}
template <class S = void, class T>
__device__ __forceinline__ T minimum(T a, T b) {
  if constexpr (is_floating_v<T>)
    return float_minimum<S>(a, b);
  else
    return a < b ? a : b;
}
template <class S = void, class T>
__device__ __forceinline__ T fmax(T a, T b) {
  if constexpr (is_floating_v<T>)
    return float_fmax<S>(a, b);
  else
    return a > b ? a : b;
}
template <class S = void, class T>
__device__ __forceinline__ T fmin(T a, T b) {
  if constexpr (is_floating_v<T>)
    return float_fmin<S>(a, b);
  else
    return a < b ? a : b;
}
// Complex: a NaN in either part counts as NaN; ties give the first argument.
template <class S = void, class T>
__device__ __forceinline__ complex<T> maximum(complex<T> a, complex<T> b) {
  return has_nan(a) || a >= b ? a : b;
}
template <class S = void, class T>
__device__ __forceinline__ complex<T> minimum(complex<T> a, complex<T> b) {
  return has_nan(a) || a <= b ? a : b;
}
template <class S = void, class T>
__device__ __forceinline__ complex<T> fmax(complex<T> a, complex<T> b) {
  return has_nan(b) || a >= b ? a : b;
}
template <class S = void, class T>
__device__ __forceinline__ complex<T> fmin(complex<T> a, complex<T> b) {
  return has_nan(b) || a <= b ? a : b;
}

// NumPy's clip ufunc: min(max(x, lo), hi) where a NaN in x, lo or hi propagates. Ties keep x in the float16
// loop, the bound elsewhere.
template <class S = void, class T>
__device__ __forceinline__ T clip(T x, T lo, T hi) {
  if constexpr (is_complex_v<T>) {
    auto greater = [](T a, T b) { return a.re == b.re ? a.im > b.im : a.re > b.re; };
    T m = has_nan(x) || greater(x, lo) ? x : lo;
    return has_nan(m) || greater(hi, m) ? m : hi;
  } else if constexpr (is_same_v<S, half>) {
    T m = isnan(x) || x >= lo ? x : lo;
    return isnan(m) || m <= hi ? m : hi;
  } else {
    T m = isnan(x) || x > lo ? x : lo;
    return isnan(m) || m < hi ? m : hi;
  }
}

// ---- comparisons and logic ----

// int64 against uint64 (NumPy's 'qQ->?' loops) compares the mathematical values.
template <class A, class B>
__device__ __forceinline__ bool less(A a, B b) {
  if constexpr (is_signed_int_v<A> && is_integer_v<B> && !is_signed_int_v<B>)
    return a < 0 || static_cast<unsigned long long>(a) < b;
  else if constexpr (is_signed_int_v<B> && is_integer_v<A> && !is_signed_int_v<A>)
    return b > 0 && a < static_cast<unsigned long long>(b);
  else
    return a < b;
}
template <class A, class B>
__device__ __forceinline__ bool equal(A a, B b) {
  if constexpr (is_signed_int_v<A> && is_integer_v<B> && !is_signed_int_v<B>)
    return a >= 0 && static_cast<unsigned long long>(a) == b;
  else if constexpr (is_signed_int_v<B> && is_integer_v<A> && !is_signed_int_v<A>)
    return b >= 0 && a == static_cast<unsigned long long>(b);
  else
    return a == b;
}
template <class A, class B>
__device__ __forceinline__ bool less_equal(A a, B b) {
  if constexpr (is_integer_v<A> && is_integer_v<B>)
    return less(a, b) || equal(a, b);
  else
    return a <= b;
}
template <class A, class B>
__device__ __forceinline__ bool not_equal(A a, B b) {
  return !equal(a, b);
}
template <class A, class B>
__device__ __forceinline__ bool greater(A a, B b) {
  return less(b, a);
}
template <class A, class B>
__device__ __forceinline__ bool greater_equal(A a, B b) {
  return less_equal(b, a);
}

// Bitwise not; on bools, logical not.
template <class T>
__device__ __forceinline__ T invert(T x) {
  if constexpr (is_same_v<T, bool>)
    return !x;
  else
    return T(~x);
}

// A value's truth for the logical ufuncs: nonzero, NaN included.
template <class T>
__device__ __forceinline__ bool truth(T x) {
  return x != T(0);
}
template <class T>
__device__ __forceinline__ bool truth(complex<T> z) {
  return z.re != 0 || z.im != 0;
}

}  // namespace ca
