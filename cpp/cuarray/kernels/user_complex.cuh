// complex<T> for user kernels (RawKernel, RawModule): what CuPy's <cupy/complex.cuh> gives its users (Thrust's
// complex: real() and imag(), conversions between precisions, arithmetic with complex and real operands, and
// real, imag, conj, abs, arg, norm, exp, log, sqrt, sin, cos, tan, sinh, cosh, tanh), computed by the kernels'
// own complex arithmetic so that a user kernel's results equal cuarray's ufuncs' (Note [User kernel headers]
// in cpp/cuarray/jit/kernel_cache.cpp).
#pragma once

#include "cuarray/complex.cuh"

namespace ca_user {

// Thrust's layout: two T, aligned to their size together, as cuComplex (float2) and cuDoubleComplex (double2).
template <class T>
struct alignas(2 * sizeof(T)) complex {
  using value_type = T;
  T re, im;

  complex() = default;
  __host__ __device__ constexpr complex(const T& r, const T& i = T()) : re(r), im(i) {}
  template <class U>
  __host__ __device__ constexpr complex(const complex<U>& z) : re(T(z.re)), im(T(z.im)) {}
  __host__ __device__ constexpr complex(const ca::complex<T>& z) : re(z.re), im(z.im) {}
  __host__ __device__ constexpr operator ca::complex<T>() const { return ca::complex<T>(re, im); }

  __host__ __device__ constexpr T real() const { return re; }
  __host__ __device__ constexpr T imag() const { return im; }
  __host__ __device__ void real(T r) { re = r; }
  __host__ __device__ void imag(T i) { im = i; }

  __device__ complex& operator+=(const complex& z) { return *this = *this + z; }
  __device__ complex& operator-=(const complex& z) { return *this = *this - z; }
  __device__ complex& operator*=(const complex& z) { return *this = *this * z; }
  __device__ complex& operator/=(const complex& z) { return *this = *this / z; }
  __device__ complex& operator+=(const T& x) { return *this = *this + complex(x); }
  __device__ complex& operator-=(const T& x) { return *this = *this - complex(x); }
  __device__ complex& operator*=(const T& x) { return *this = *this * complex(x); }
  __device__ complex& operator/=(const T& x) { return *this = *this / complex(x); }

  friend __device__ complex operator+(const complex& a, const complex& b) { return ca::operator+(a.ca(), b.ca()); }
  friend __device__ complex operator-(const complex& a, const complex& b) { return ca::operator-(a.ca(), b.ca()); }
  friend __device__ complex operator*(const complex& a, const complex& b) { return ca::operator*(a.ca(), b.ca()); }
  friend __device__ complex operator/(const complex& a, const complex& b) { return ca::operator/(a.ca(), b.ca()); }
  friend __device__ complex operator+(const complex& a, const T& x) { return a + complex(x); }
  friend __device__ complex operator-(const complex& a, const T& x) { return a - complex(x); }
  friend __device__ complex operator*(const complex& a, const T& x) { return complex(a.re * x, a.im * x); }
  friend __device__ complex operator/(const complex& a, const T& x) { return complex(a.re / x, a.im / x); }
  friend __device__ complex operator+(const T& x, const complex& a) { return complex(x) + a; }
  friend __device__ complex operator-(const T& x, const complex& a) { return complex(x) - a; }
  friend __device__ complex operator*(const T& x, const complex& a) { return complex(x * a.re, x * a.im); }
  friend __device__ complex operator/(const T& x, const complex& a) { return complex(x) / a; }
  friend __device__ complex operator-(const complex& a) { return complex(-a.re, -a.im); }
  friend __device__ complex operator+(const complex& a) { return a; }
  friend __host__ __device__ bool operator==(const complex& a, const complex& b) {
    return a.re == b.re && a.im == b.im;
  }
  friend __host__ __device__ bool operator!=(const complex& a, const complex& b) { return !(a == b); }

  __device__ ca::complex<T> ca() const { return ca::complex<T>(re, im); }
};

template <class T>
__host__ __device__ T real(const complex<T>& z) {
  return z.re;
}
template <class T>
__host__ __device__ T imag(const complex<T>& z) {
  return z.im;
}
template <class T>
__host__ __device__ complex<T> conj(const complex<T>& z) {
  return complex<T>(z.re, -z.im);
}
template <class T>
__device__ T abs(const complex<T>& z) {
  return ca::cabs(z.ca());
}
template <class T>
__device__ T arg(const complex<T>& z) {
  return ::atan2(z.im, z.re);
}
template <class T>
__device__ T norm(const complex<T>& z) {
  return z.re * z.re + z.im * z.im;
}
template <class T>
__device__ complex<T> polar(const T& r, const T& theta = T()) {
  return complex<T>(r * ::cos(theta), r * ::sin(theta));
}
#define CA_USER_COMPLEX_FUNCTION(f)              \
  template <class T>                             \
  __device__ complex<T> f(const complex<T>& z) { \
    return ca::f(z.ca());                        \
  }
CA_USER_COMPLEX_FUNCTION(exp)
CA_USER_COMPLEX_FUNCTION(log)
CA_USER_COMPLEX_FUNCTION(sqrt)
CA_USER_COMPLEX_FUNCTION(sin)
CA_USER_COMPLEX_FUNCTION(cos)
CA_USER_COMPLEX_FUNCTION(tan)
CA_USER_COMPLEX_FUNCTION(sinh)
CA_USER_COMPLEX_FUNCTION(cosh)
CA_USER_COMPLEX_FUNCTION(tanh)
#undef CA_USER_COMPLEX_FUNCTION

}  // namespace ca_user

// CuPy's header defines Thrust's complex, and its get_typename spells complex64 thrust::complex<float>
// (cuarray.cuda.compiler.get_typename too): the names are thrust's as well.
namespace thrust {
using namespace ::ca_user;
}  // namespace thrust

using ca_user::abs;
using ca_user::arg;
using ca_user::complex;
using ca_user::conj;
using ca_user::cos;
using ca_user::cosh;
using ca_user::exp;
using ca_user::imag;
using ca_user::log;
using ca_user::norm;
using ca_user::polar;
using ca_user::real;
using ca_user::sin;
using ca_user::sinh;
using ca_user::sqrt;
using ca_user::tan;
using ca_user::tanh;
