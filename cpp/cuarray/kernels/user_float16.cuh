// float16 for user kernels (RawKernel, RawModule): what CuPy's <cupy/float16.cuh> gives its users. A float16
// converts from float implicitly and from the other arithmetic types, __half and __half_raw explicitly, and to
// float implicitly, so that its arithmetic and comparisons are float's, rounded when stored back (as NumPy's
// float16 loops compute); assignment from any type it converts from; compound assignment; nan, to_bits and
// from_bits; iszero, isnan, isinf, isfinite and signbit as members and functions; copysign, nextafter, min,
// max, fmin and fmax. It holds the kernels' own half, so that its conversions (NaN signs and payloads
// included), nextafter, fmin and fmax equal cuarray's ufuncs' to the bit (Note [User kernel headers] in
// cpp/cuarray/jit/kernel_cache.cpp). Like CuPy's, it brings <cuda_fp16.h> (__half, __hadd, ...) along.
#pragma once

#if __has_include(<cuda_fp16.h>)
#include <cuda_fp16.h>
#define CA_USER_FLOAT16_HALF 1
#endif

#include "cuarray/math_float.cuh"
#include "cuarray/types.cuh"

class float16 {
 public:
  float16() = default;
  __device__ float16(float v) : data_(v) {}
  explicit __device__ float16(bool v) : data_(float(v)) {}
  explicit __device__ float16(double v) : data_(v) {}
  explicit __device__ float16(int v) : data_(float(v)) {}
  explicit __device__ float16(unsigned int v) : data_(float(v)) {}
  explicit __device__ float16(long long v) : data_(float(v)) {}
  explicit __device__ float16(unsigned long long v) : data_(float(v)) {}
  // int64_t and size_t are long here: without these, float16(n) of one would be ambiguous.
  explicit __device__ float16(long v) : data_(float(v)) {}
  explicit __device__ float16(unsigned long v) : data_(float(v)) {}
#ifdef CA_USER_FLOAT16_HALF
  explicit __device__ float16(const __half& v) { data_.bits = __half_as_ushort(v); }
  explicit __device__ float16(const __half_raw& v) { data_.bits = v.x; }
#endif

  __device__ operator float() const { return float(data_); }

  float16& operator=(const float16&) = default;
  // Assignment from whatever float16 converts from, as CuPy's allows (a kernel's `out = x * 2` of float).
  template <class T>
  __device__ float16& operator=(const T& rhs) {
    return *this = static_cast<float16>(rhs);
  }

  template <class T>
  __device__ float16& operator+=(const T& rhs) {
    return *this = *this + rhs;
  }
  template <class T>
  __device__ float16& operator-=(const T& rhs) {
    return *this = *this - rhs;
  }
  template <class T>
  __device__ float16& operator*=(const T& rhs) {
    return *this = *this * rhs;
  }
  template <class T>
  __device__ float16& operator/=(const T& rhs) {
    return *this = *this / rhs;
  }

  static const unsigned short nan = 0x7e00u;

  __device__ unsigned short to_bits() const { return data_.bits; }
  __device__ static float16 from_bits(unsigned short v) {
    float16 r;
    r.data_.bits = v;
    return r;
  }

  __device__ int iszero() const { return (data_.bits & 0x7fffu) == 0; }
  __device__ int isnan() const { return (data_.bits & 0x7c00u) == 0x7c00u && (data_.bits & 0x03ffu) != 0; }
  __device__ int isinf() const { return (data_.bits & 0x7fffu) == 0x7c00u; }
  __device__ int isfinite() const { return (data_.bits & 0x7c00u) != 0x7c00u; }
  __device__ int signbit() const { return (data_.bits & 0x8000u) != 0; }

  friend __device__ float16 copysign(float16 x, float16 y) {
    return from_bits(static_cast<unsigned short>((x.data_.bits & 0x7fffu) | (y.data_.bits & 0x8000u)));
  }
  // NumPy's float16 nextafter, the one cuarray's ufunc computes (infinities step to the largest finite).
  friend __device__ float16 nextafter(float16 x, float16 y) {
    return from_bits(ca::half(ca::nextafter<ca::half, float>(float(x), float(y))).bits);
  }

 private:
  ca::half data_;
};

// NaN-ignoring, as CuPy's (CUDA's min and max of float): NumPy's fmin and fmax, the ufuncs' own, so that signed
// zeros come out as theirs.
inline __device__ float16 fmin(float16 x, float16 y) { return float16(ca::float_fmin<ca::half, float>(x, y)); }
inline __device__ float16 fmax(float16 x, float16 y) { return float16(ca::float_fmax<ca::half, float>(x, y)); }
inline __device__ float16 min(float16 x, float16 y) { return fmin(x, y); }
inline __device__ float16 max(float16 x, float16 y) { return fmax(x, y); }
inline __device__ int iszero(float16 x) { return x.iszero(); }
inline __device__ int isnan(float16 x) { return x.isnan(); }
inline __device__ int isinf(float16 x) { return x.isinf(); }
inline __device__ int isfinite(float16 x) { return x.isfinite(); }
inline __device__ int signbit(float16 x) { return x.signbit(); }
