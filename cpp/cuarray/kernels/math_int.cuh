// Integer ufuncs with NumPy's results where C++ leaves them undefined or differs: division, remainder and
// fmod by zero, MIN / -1, shifts by the bit width or more, wrapping power, gcd/lcm of MIN.
#pragma once

#include "cuarray/types.cuh"

namespace ca {

template <class T>
constexpr bool is_signed_int_v = is_integer_v<T> && (T(-1) < T(0));

// Products and shifts are carried out in an unsigned type of at least 32 bits (no signed overflow, and no
// promotion of unsigned short to int), then truncated to T: NumPy's wrapping results.
template <class T>
struct wide_unsigned {
  using type = unsigned int;
};
template <>
struct wide_unsigned<long long> {
  using type = unsigned long long;
};
template <>
struct wide_unsigned<unsigned long long> {
  using type = unsigned long long;
};
template <class T>
using wide_unsigned_t = typename wide_unsigned<T>::type;

// |a| as an unsigned value: |MIN| is representable there.
template <class T>
__device__ __forceinline__ wide_unsigned_t<T> unsigned_abs(T a) {
  using W = wide_unsigned_t<T>;
  if constexpr (is_signed_int_v<T>)
    return a < 0 ? W(0) - W(a) : W(a);
  else
    return W(a);
}

template <class T>
__device__ __forceinline__ T int_floor_divide(T a, T b) {
  if (b == 0) return T(0);
  if constexpr (is_signed_int_v<T>) {
    if (b == T(-1)) return T(wide_unsigned_t<T>(0) - wide_unsigned_t<T>(a));  // MIN // -1 wraps to MIN
    T q = T(a / b);
    if ((a > 0) != (b > 0) && T(q * b) != a) --q;
    return q;
  } else {
    return T(a / b);
  }
}

// Python's remainder: the sign of the divisor.
template <class T>
__device__ __forceinline__ T int_remainder(T a, T b) {
  if (b == 0) return T(0);
  if constexpr (is_signed_int_v<T>) {
    if (b == T(-1)) return T(0);
    T r = T(a % b);
    return r != 0 && (r < 0) != (b < 0) ? T(r + b) : r;
  } else {
    return T(a % b);
  }
}

// C's remainder: the sign of the dividend.
template <class T>
__device__ __forceinline__ T int_fmod(T a, T b) {
  if (b == 0) return T(0);
  if constexpr (is_signed_int_v<T>) {
    if (b == T(-1)) return T(0);
  }
  return T(a % b);
}

// NumPy raises ValueError for a negative exponent; a kernel cannot, so it gives base**exp truncated toward
// zero as exact arithmetic would (1 for base 1, +-1 for base -1, 0 otherwise, 0 also for base 0).
template <class T>
__device__ __forceinline__ T int_power(T base, T exp) {
  using W = wide_unsigned_t<T>;
  if constexpr (is_signed_int_v<T>) {
    if (exp < 0) return base == 1 ? T(1) : base == -1 ? T(exp & 1 ? -1 : 1) : T(0);
  }
  if (exp == 0 || base == 1) return T(1);
  W b = W(base), out = exp & 1 ? b : W(1);
  for (exp = T(exp >> 1); exp > 0; exp = T(exp >> 1)) {
    b *= b;
    if (exp & 1) out *= b;
  }
  return T(out);
}

template <class T>
__device__ __forceinline__ T int_square(T x) {
  return T(wide_unsigned_t<T>(x) * wide_unsigned_t<T>(x));
}

// The count is compared as an unsigned value, as NumPy does: a negative count is out of range too.
template <class T>
__device__ __forceinline__ T left_shift(T a, T b) {
  if (static_cast<unsigned long long>(b) < 8 * sizeof(T)) return T(wide_unsigned_t<T>(a) << b);
  return T(0);
}

template <class T>
__device__ __forceinline__ T right_shift(T a, T b) {
  if (static_cast<unsigned long long>(b) < 8 * sizeof(T)) return T(a >> b);
  if constexpr (is_signed_int_v<T>) {
    if (a < 0) return T(-1);
  }
  return T(0);
}

// NumPy works on |a| and |b| as unsigned values and casts back: gcd(MIN, 0) is MIN, and lcm wraps.
template <class T>
__device__ __forceinline__ wide_unsigned_t<T> unsigned_gcd(T a, T b) {
  wide_unsigned_t<T> x = unsigned_abs(a), y = unsigned_abs(b);
  while (x != 0) {
    wide_unsigned_t<T> c = x;
    x = y % x;
    y = c;
  }
  return y;
}

// NumPy counts the 1-bits of |a|.
template <class T>
__device__ __forceinline__ unsigned char bitwise_count(T a) {
  auto u = unsigned_abs(a);
  if constexpr (sizeof(u) == 8)
    return static_cast<unsigned char>(__popcll(u));
  else
    return static_cast<unsigned char>(__popc(u));
}

template <class T>
__device__ __forceinline__ T gcd(T a, T b) {
  return T(unsigned_gcd(a, b));
}

template <class T>
__device__ __forceinline__ T lcm(T a, T b) {
  wide_unsigned_t<T> g = unsigned_gcd(a, b);
  return g == 0 ? T(0) : T(unsigned_abs(a) / g * unsigned_abs(b));
}

}  // namespace ca
