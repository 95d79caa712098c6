// Conversions between element types with NumPy's results on x86-64, including its out-of-range and NaN
// float-to-integer values (the cvttsd2si "integer indefinite" value, then C truncation).
#pragma once

#include "cuarray/types.cuh"

namespace ca {

__device__ __forceinline__ int x86_f2i32(double x) {
  return (x > -2147483649.0 && x < 2147483648.0) ? static_cast<int>(x) : (-2147483647 - 1);
}

__device__ __forceinline__ long long x86_f2i64(double x) {
  return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? static_cast<long long>(x)
                                                                    : (-9223372036854775807ll - 1);
}

__device__ __forceinline__ unsigned long long x86_f2u64(double x) {
  if (x >= 9223372036854775808.0)
    return static_cast<unsigned long long>(x86_f2i64(x - 9223372036854775808.0)) ^ 0x8000000000000000ull;
  return static_cast<unsigned long long>(x86_f2i64(x));
}

template <class To>
__device__ __forceinline__ To float_to_integer(double x) {
  if constexpr (is_same_v<To, long long>)
    return x86_f2i64(x);
  else if constexpr (is_same_v<To, unsigned long long>)
    return x86_f2u64(x);
  else if constexpr (is_same_v<To, unsigned int>)
    return static_cast<To>(x86_f2i64(x));
  else
    return static_cast<To>(x86_f2i32(x));
}

template <class To, class From>
__device__ __forceinline__ To cast(From x) {
  if constexpr (is_same_v<To, From>) {
    return x;
  } else if constexpr (is_same_v<From, bool_byte>) {
    return cast<To>(x.v != 0);  // Note [Reading bools] in types.cuh
  } else if constexpr (is_complex_v<From>) {
    if constexpr (is_complex_v<To>)
      return To(cast<typename To::value_type>(x.re), cast<typename To::value_type>(x.im));
    else if constexpr (is_same_v<To, bool>)
      return x.re != 0 || x.im != 0;
    else
      return cast<To>(x.re);
  } else if constexpr (is_complex_v<To>) {
    return To(cast<typename To::value_type>(x), typename To::value_type(0));
  } else if constexpr (is_low_precision_v<From>) {
    return cast<To>(static_cast<float>(x));
  } else if constexpr (is_same_v<To, bool>) {
    return x != From(0);
  } else if constexpr (is_same_v<From, bool>) {
    return cast<To>(x ? 1 : 0);
  } else if constexpr (is_low_precision_v<To>) {
    if constexpr (is_same_v<From, float>)
      return To(x);
    else
      return To(static_cast<double>(x));
  } else if constexpr (is_floating_v<From> && is_integer_v<To>) {
    return float_to_integer<To>(static_cast<double>(x));
  } else {
    return static_cast<To>(x);
  }
}

}  // namespace ca
