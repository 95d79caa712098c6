// Complex arithmetic with NumPy's results (Smith's division, hypot for abs).
#pragma once

#include "cuarray/types.cuh"

namespace ca {

template <class T> __device__ __forceinline__ complex<T> operator+(complex<T> a, complex<T> b) { return {a.re + b.re, a.im + b.im}; }
template <class T> __device__ __forceinline__ complex<T> operator-(complex<T> a, complex<T> b) { return {a.re - b.re, a.im - b.im}; }
template <class T> __device__ __forceinline__ complex<T> operator-(complex<T> a) { return {-a.re, -a.im}; }
template <class T> __device__ __forceinline__ complex<T> operator+(complex<T> a) { return a; }
template <class T> __device__ __forceinline__ complex<T> operator*(complex<T> a, complex<T> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
// NumPy's complex division (Smith's algorithm, with its handling of zero divisors).
template <class T> __device__ __forceinline__ complex<T> operator/(complex<T> a, complex<T> b) {
  T abs_br = b.re < 0 ? -b.re : b.re, abs_bi = b.im < 0 ? -b.im : b.im;
  if (abs_br >= abs_bi) {
    if (abs_br == 0 && abs_bi == 0) return {a.re / abs_br, a.im / abs_bi};
    T rat = b.im / b.re, scl = T(1) / (b.re + b.im * rat);
    return {(a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl};
  }
  T rat = b.re / b.im, scl = T(1) / (b.im + b.re * rat);
  return {(a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl};
}
template <class T> __device__ __forceinline__ bool operator==(complex<T> a, complex<T> b) { return a.re == b.re && a.im == b.im; }
template <class T> __device__ __forceinline__ bool operator!=(complex<T> a, complex<T> b) { return !(a == b); }
// NumPy orders complex numbers lexicographically (real part first); NaNs compare false.
template <class T> __device__ __forceinline__ bool operator<(complex<T> a, complex<T> b) {
  return a.re < b.re || (a.re == b.re && a.im < b.im);
}
template <class T> __device__ __forceinline__ bool operator>(complex<T> a, complex<T> b) { return b < a; }
template <class T> __device__ __forceinline__ bool operator<=(complex<T> a, complex<T> b) {
  return a.re < b.re || (a.re == b.re && a.im <= b.im);
}
template <class T> __device__ __forceinline__ bool operator>=(complex<T> a, complex<T> b) { return b <= a; }

}  // namespace ca
