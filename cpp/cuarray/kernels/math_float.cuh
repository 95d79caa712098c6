// Real floating-point ufuncs with NumPy's special values. T is the compute type (float or double; the 16-bit
// floats compute in float). Functions whose result depends on the storage format (nextafter, spacing, and
// the signs of zeros NumPy's and ml_dtypes' loops happen to give) also take S, the loop's storage type.
#pragma once

#include "cuarray/types.cuh"

namespace ca {

template <class T>
struct num;
template <>
struct num<float> {
  static constexpr float loge2 = 0.693147180559945309417232121458176568f;
  static constexpr float log2e = 1.442695040888963407359924681001892137f;
  static constexpr float log10e = 0.434294481903251827651128918916605082f;
  // NumPy folds 180/pi in the loop's type; ml_dtypes (bfloat16) folds it in double.
  static constexpr float rad2deg = 180.0f / 3.141592653589793238462643383279502884f;
  static constexpr float deg2rad = 3.141592653589793238462643383279502884f / 180.0f;
};
template <>
struct num<double> {
  static constexpr double loge2 = 0.693147180559945309417232121458176568;
  static constexpr double log2e = 1.442695040888963407359924681001892137;
  static constexpr double log10e = 0.434294481903251827651128918916605082;
  static constexpr double rad2deg = 180.0 / 3.141592653589793238462643383279502884;
  static constexpr double deg2rad = 3.141592653589793238462643383279502884 / 180.0;
};

__device__ __forceinline__ unsigned int to_bits(float x) { return __float_as_uint(x); }
__device__ __forceinline__ unsigned long long to_bits(double x) {
  return static_cast<unsigned long long>(__double_as_longlong(x));
}
__device__ __forceinline__ float from_bits(unsigned int b) { return __uint_as_float(b); }
__device__ __forceinline__ double from_bits(unsigned long long b) {
  return __longlong_as_double(static_cast<long long>(b));
}

// A product the compiler must not fuse into a following addition: NumPy's C code rounds it on its own.
__device__ __forceinline__ float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double mul_rn(double a, double b) { return __dmul_rn(a, b); }

// The bit layout of a storage format: bits type, sign bit, +inf (every larger magnitude is a NaN), a quiet NaN.
template <class S>
struct ieee;
template <>
struct ieee<half> {
  using U = unsigned short;
  static constexpr U sign = 0x8000, inf = 0x7c00, nan = 0x7e00;
};
template <>
struct ieee<bfloat16> {
  using U = unsigned short;
  static constexpr U sign = 0x8000, inf = 0x7f80, nan = 0x7fc0;
};
template <>
struct ieee<float> {
  using U = unsigned int;
  static constexpr U sign = 0x80000000u, inf = 0x7f800000u, nan = 0x7fc00000u;
};
template <>
struct ieee<double> {
  using U = unsigned long long;
  static constexpr U sign = 0x8000000000000000ull, inf = 0x7ff0000000000000ull, nan = 0x7ff8000000000000ull;
};

template <class T>
__device__ __forceinline__ T nan_v() {
  return from_bits(ieee<T>::nan);
}
template <class T>
__device__ __forceinline__ T inf_v() {
  return from_bits(ieee<T>::inf);
}

// C99's hypot: an infinite argument gives +inf even when the other is NaN. Where the smaller part is under 2^-27 of
// the larger (2^-13 in float), below the square root of an ulp of 1, sqrt(1 + r^2) rounds to 1 and the result is
// the larger part exactly, as C's correctly rounded hypot gives it; CUDA's, within 2 ulp, can round it up, and for
// a part near the largest finite value up to infinity (|(-DBL_MAX, 2.5)| was inf, and that number's sign (0, -1)).
template <class T>
__device__ __forceinline__ T c_hypot(T a, T b) {
  if (::isinf(a) || ::isinf(b)) return inf_v<T>();
  const T x = ::fabs(a), y = ::fabs(b);
  const T hi = ::fmax(x, y), lo = ::fmin(x, y);
  if (lo < hi * (sizeof(T) == 4 ? T(0x1p-13) : T(0x1p-27))) return hi;
  return ::hypot(a, b);
}

// The storage bits of compute value x (exact: x came from an S), and back.
template <class S, class T>
__device__ __forceinline__ typename ieee<S>::U storage_bits(T x) {
  if constexpr (is_low_precision_v<S>)
    return S(x).bits;
  else
    return to_bits(x);
}
template <class S>
__device__ __forceinline__ typename arith<S>::type storage_value(typename ieee<S>::U b) {
  if constexpr (is_low_precision_v<S>) {
    S s;
    s.bits = b;
    return static_cast<float>(s);
  } else {
    return from_bits(b);
  }
}

// Python's divmod for floats (NumPy's npy_divmod): fmod, then moved to the divisor's sign.
template <class T>
__device__ __forceinline__ T float_divmod(T a, T b, T& mod) {
  mod = ::fmod(a, b);
  if (b == 0) return a / b;
  T div = (a - mod) / b;
  if (mod != 0) {  // true for NaN, as C's `if (mod)`
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= T(1);
    }
  } else {
    mod = ::copysign(T(0), b);
  }
  if (div == 0) return ::copysign(T(0), a / b);
  T floordiv = ::floor(div);
  return div - floordiv > T(0.5) ? floordiv + T(1) : floordiv;
}

template <class T>
__device__ __forceinline__ T float_floor_divide(T a, T b) {
  if (b == 0) return a / b;
  T mod;
  return float_divmod(a, b, mod);
}

template <class T>
__device__ __forceinline__ T float_remainder(T a, T b) {
  if (b == 0) return ::fmod(a, b);
  T mod;
  float_divmod(a, b, mod);
  return mod;
}

// NumPy's npy_logaddexp(2): equal arguments (infinities of one sign included) are handled first.
template <class T>
__device__ __forceinline__ T logaddexp(T x, T y) {
  if (x == y) return x + num<T>::loge2;
  T d = x - y;
  if (d > 0) return x + ::log1p(::exp(-d));
  if (d <= 0) return y + ::log1p(::exp(d));
  return d;
}

template <class T>
__device__ __forceinline__ T logaddexp2(T x, T y) {
  if (x == y) return x + T(1);
  T d = x - y;
  if (d > 0) return x + mul_rn(num<T>::log2e, ::log1p(::exp2(-d)));
  if (d <= 0) return y + mul_rn(num<T>::log2e, ::log1p(::exp2(d)));
  return d;
}

template <class S, class T>
__device__ __forceinline__ T rad2deg(T x) {
  if constexpr (is_same_v<S, bfloat16>)
    return x * float(180.0 / 3.141592653589793238462643383279502884);
  else
    return x * num<T>::rad2deg;
}

template <class T>
__device__ __forceinline__ T heaviside(T x, T h0) {
  if (x != x) return nan_v<T>();
  if (x == 0) return h0;
  return x < 0 ? T(0) : T(1);
}

template <class T>
__device__ __forceinline__ T frexp(T x, int& e) {
  if (x == 0 || !::isfinite(x)) {  // C leaves the exponent unspecified; NumPy (glibc) gives 0
    e = 0;
    return x;
  }
  return ::frexp(x, &e);
}

// NumPy clamps a 64-bit exponent to int's range; beyond +-2200 every float and double saturates anyway.
template <class T, class I>
__device__ __forceinline__ T ldexp(T x, I e) {
  return ::ldexp(x, e > I(2200) ? 2200 : e < I(-2200) ? -2200 : static_cast<int>(e));
}

// C's nextafter on the storage format's bits; equal arguments give y (NumPy 2.5's float16 loop too).
template <class S, class T>
__device__ __forceinline__ T nextafter(T x, T y) {
  using F = ieee<S>;
  using U = typename F::U;
  U bx = storage_bits<S>(x), by = storage_bits<S>(y);
  U ax = U(bx & U(~F::sign)), ay = U(by & U(~F::sign));
  if (ax > F::inf || ay > F::inf) return storage_value<S>(F::nan);
  if (x == y) return y;
  if (ax == 0) return storage_value<S>(U((by & F::sign) | 1u));
  bool away = ((bx ^ by) & F::sign) == 0 && ax < ay;
  return storage_value<S>(away ? U(bx + 1u) : U(bx - 1u));
}

// The three spacings NumPy's loops give. float16 (NumPy's own): the ulp of |x|, but of the next smaller
// magnitude for a negative power of two, so always positive; inf at the largest value. bfloat16 (ml_dtypes):
// nextafter away from zero, minus x. float/double: one step up in magnitude, minus x (+0 for both zeros).
template <class S, class T>
__device__ __forceinline__ T spacing(T x) {
  if constexpr (is_same_v<S, half>) {
    using U = unsigned short;
    U h = storage_bits<S>(x), m = U(h & 0x7fffu);
    if (m >= 0x7c00u) return nan_v<T>();
    if (h == 0x7bffu) return inf_v<T>();
    if ((h & 0x8000u) && (m & 0x03ffu) == 0 && m != 0) --m;
    // The ulp of biased exponent e is 2**(e-25): a normal half for e > 10, else the subnormal 2**(e-1) * 2**-24.
    unsigned e = m >> 10;
    return storage_value<S>(e > 10 ? U((e - 10) << 10) : e > 1 ? U(1u << (e - 1)) : U(1));
  } else if constexpr (is_same_v<S, bfloat16>) {
    return nextafter<S>(x, ::copysign(inf_v<T>(), x)) - x;
  } else {
    using U = typename ieee<S>::U;
    if (::isinf(x)) return nan_v<T>();
    if (x != x) return x;
    U b = to_bits(x);
    return from_bits(U(b & U(~ieee<S>::sign)) == 0 ? U(1) : U(b + 1u)) - x;
  }
}

// NaN-propagating max/min (the first NaN wins). On ties (0.0 vs -0.0) NumPy's float16 loops return the
// first argument; its float32/float64 SIMD loops and ml_dtypes' bfloat16 loops return the second.
template <class S, class T>
__device__ __forceinline__ T float_maximum(T a, T b) {
  if (a != a) return a;
  if (b != b) return b;
  if constexpr (is_same_v<S, half>)
    return a >= b ? a : b;
  else
    return a > b ? a : b;
}
template <class S, class T>
__device__ __forceinline__ T float_minimum(T a, T b) {
  if (a != a) return a;
  if (b != b) return b;
  if constexpr (is_same_v<S, half>)
    return a <= b ? a : b;
  else
    return a < b ? a : b;
}
// NaN-ignoring max/min: a NaN is returned only when both are NaN.
template <class S, class T>
__device__ __forceinline__ T float_fmax(T a, T b) {
  if (b != b) return a;
  if (a != a) return b;
  if constexpr (is_same_v<S, half>)
    return a >= b ? a : b;
  else
    return a > b ? a : b;
}
template <class S, class T>
__device__ __forceinline__ T float_fmin(T a, T b) {
  if (b != b) return a;
  if (a != a) return b;
  if constexpr (is_same_v<S, half>)
    return a <= b ? a : b;
  else
    return a < b ? a : b;
}

// NumPy's sign: NaN stays NaN and both zeros give +0, except ml_dtypes' bfloat16 loop, which returns zeros as
// they are.
template <class S, class T>
__device__ __forceinline__ T float_sign(T x) {
  if (x > 0) return T(1);
  if (x < 0) return T(-1);
  if constexpr (is_same_v<S, bfloat16>)
    return x;
  else
    return x == 0 ? T(0) : x;
}

}  // namespace ca
