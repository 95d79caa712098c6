// complex<T> for user kernels (RawKernel, RawModule): what CuPy's <cupy/complex.cuh> gives its users (Thrust's
// complex: real() and imag(), conversions between precisions, arithmetic with complex and real operands, and
// real, imag, conj, abs, arg, norm, exp, log, sqrt, sin, cos, tan, sinh, cosh, tanh), computed by the kernels'
// own complex arithmetic so that a user kernel's results equal cuarray's ufuncs' (Note [User kernel headers]
// in cpp/cuarray/jit/kernel_cache.cpp).
#pragma once

#include "cuarray/complex.cuh"
#include "cuarray/math.cuh"

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
  template <class U>  // to the kernels' complex of either precision, as between Thrust's
  __host__ __device__ constexpr operator ca::complex<U>() const {
    return ca::complex<U>(U(re), U(im));
  }

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

// Thrust's arithmetic across precisions: complex<float> with complex<double> or a double (a literal such as 0.1)
// is computed in double, as CuPy's kernels compute it. Where both operands have the same precision, the friends
// above are the exact match and these templates are not chosen.
template <class U>
struct real_scalar {};
#define CA_USER_REAL_SCALAR(U) \
  template <>                  \
  struct real_scalar<U> {      \
    using type = U;            \
  };
CA_USER_REAL_SCALAR(bool)
CA_USER_REAL_SCALAR(char)
CA_USER_REAL_SCALAR(signed char)
CA_USER_REAL_SCALAR(unsigned char)
CA_USER_REAL_SCALAR(short)
CA_USER_REAL_SCALAR(unsigned short)
CA_USER_REAL_SCALAR(int)
CA_USER_REAL_SCALAR(unsigned int)
CA_USER_REAL_SCALAR(long)
CA_USER_REAL_SCALAR(unsigned long)
CA_USER_REAL_SCALAR(long long)
CA_USER_REAL_SCALAR(unsigned long long)
CA_USER_REAL_SCALAR(float)
CA_USER_REAL_SCALAR(double)
#undef CA_USER_REAL_SCALAR
template <class T, class U>
using wider_t = decltype(T() + typename real_scalar<U>::type());

#define CA_USER_MIXED(op)                                                                         \
  template <class T, class U>                                                                     \
  __device__ complex<decltype(T() + U())> operator op(const complex<T>& a, const complex<U>& b) { \
    using C = complex<decltype(T() + U())>;                                                       \
    return C(a) op C(b);                                                                          \
  }                                                                                               \
  template <class T, class U>                                                                     \
  __device__ complex<wider_t<T, U>> operator op(const complex<T>& a, const U& b) {                \
    using C = complex<wider_t<T, U>>;                                                             \
    return C(a) op wider_t<T, U>(b);                                                              \
  }                                                                                               \
  template <class T, class U>                                                                     \
  __device__ complex<wider_t<T, U>> operator op(const U& b, const complex<T>& a) {                \
    using C = complex<wider_t<T, U>>;                                                             \
    return wider_t<T, U>(b) op C(a);                                                              \
  }
CA_USER_MIXED(+)
CA_USER_MIXED(-)
CA_USER_MIXED(*)
CA_USER_MIXED(/)
#undef CA_USER_MIXED
template <class T, class U>
__host__ __device__ bool operator==(const complex<T>& a, const complex<U>& b) {
  return a.re == b.re && a.im == b.im;
}
template <class T, class U>
__host__ __device__ bool operator!=(const complex<T>& a, const complex<U>& b) {
  return !(a == b);
}
template <class T, class U, class = wider_t<T, U>>
__host__ __device__ bool operator==(const complex<T>& a, const U& b) {
  return a.re == b && a.im == 0;
}
template <class T, class U, class = wider_t<T, U>>
__host__ __device__ bool operator==(const U& b, const complex<T>& a) {
  return a == b;
}
template <class T, class U, class = wider_t<T, U>>
__host__ __device__ bool operator!=(const complex<T>& a, const U& b) {
  return !(a == b);
}
template <class T, class U, class = wider_t<T, U>>
__host__ __device__ bool operator!=(const U& b, const complex<T>& a) {
  return !(a == b);
}

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

// The rest of Thrust's and CuPy's functions (inverse trigonometric and hyperbolic, log10, pow, proj; CuPy's isnan,
// isinf, isfinite, log1p, log2, expm1, rint) are the ufuncs' (NumPy's), from cuarray/math.cuh.
#define CA_USER_COMPLEX_MATH(f, numpy_name)      \
  template <class T>                             \
  __device__ complex<T> f(const complex<T>& z) { \
    return ca::numpy_name(z.ca());               \
  }
CA_USER_COMPLEX_MATH(asin, arcsin)
CA_USER_COMPLEX_MATH(acos, arccos)
CA_USER_COMPLEX_MATH(atan, arctan)
CA_USER_COMPLEX_MATH(asinh, arcsinh)
CA_USER_COMPLEX_MATH(acosh, arccosh)
CA_USER_COMPLEX_MATH(atanh, arctanh)
CA_USER_COMPLEX_MATH(log10, log10)
CA_USER_COMPLEX_MATH(log1p, log1p)
CA_USER_COMPLEX_MATH(log2, log2)
CA_USER_COMPLEX_MATH(expm1, expm1)
CA_USER_COMPLEX_MATH(rint, rint)
#undef CA_USER_COMPLEX_MATH
#define CA_USER_COMPLEX_TEST(f)            \
  template <class T>                       \
  __device__ bool f(const complex<T>& z) { \
    return ca::f(z.ca());                  \
  }
CA_USER_COMPLEX_TEST(isnan)
CA_USER_COMPLEX_TEST(isinf)
CA_USER_COMPLEX_TEST(isfinite)
#undef CA_USER_COMPLEX_TEST
template <class T>
__device__ complex<T> pow(const complex<T>& a, const complex<T>& b) {
  return ca::power(a.ca(), b.ca());
}
template <class T, class U>
__device__ complex<decltype(T() + U())> pow(const complex<T>& a, const complex<U>& b) {
  using C = complex<decltype(T() + U())>;
  return pow(C(a), C(b));
}
template <class T, class U>
__device__ complex<wider_t<T, U>> pow(const complex<T>& a, const U& b) {
  using C = complex<wider_t<T, U>>;
  return pow(C(a), C(wider_t<T, U>(b)));
}
template <class T, class U>
__device__ complex<wider_t<T, U>> pow(const U& a, const complex<T>& b) {
  using C = complex<wider_t<T, U>>;
  return pow(C(wider_t<T, U>(a)), C(b));
}
// C99's cproj: an infinite z (either part) is projected to (+inf, ±0).
template <class T>
__device__ complex<T> proj(const complex<T>& z) {
  if (::isinf(z.re) || ::isinf(z.im)) return complex<T>(ca::inf_v<T>(), ::copysign(T(0), z.im));
  return z;
}

// An ElementwiseKernel's complex output parameter (Note [Complex variables in user kernels] in
// python/cuarray/_kernel_types.py): a complex<T> that starts as the loop's output value and is stored back into it
// when the body's block ends, whichever way it ends (a `return` included), as a reference to it would be.
template <class T>
struct output {
  complex<T> value;
  ca::complex<T>& out;
  __device__ explicit output(ca::complex<T>& o) : value(o), out(o) {}
  __device__ ~output() { out = value; }
  output(const output&) = delete;
  output& operator=(const output&) = delete;
};

}  // namespace ca_user

// Note [Raw complex elements]
// CuPy's CArray<complex<T>> hands out thrust::complex<T> lvalues: `x[i].real()`, `x[i] += z`, `&x[i]` (the
// per-part atomicAdd idiom), a helper taking complex<T>& or a forwarding reference, `c ? x[i] : 0.0`. A raw complex
// argument of an ElementwiseKernel is therefore the same array seen as Raw<ca_user::complex<T>, N> (Note [Raw arrays
// as CArray] in python/cuarray/_kernel.py), whose elements are true references to complex<T>: each of those
// idioms means what it means in CuPy, and no copy can stand in for an element and silently drop a store. complex<T>
// is aligned as Thrust's (two T together), so the call refuses a raw complex array whose data or strides are not
// multiples of its itemsize (ValueError; only another library's memory can be, as cuarray's own complex arrays
// never are) rather than let the device fault on a misaligned load, as CuPy's kernel would.
namespace ca {
template <class T, int N>
struct Raw;  // kernels/elementwise.cuh; this header is complete on its own for RawKernel sources
}  // namespace ca

namespace ca_user_raw {  // outside ca_user, so that `thrust::` (all of ca_user) does not name it

template <class T, int N>
__device__ __forceinline__ ca::Raw<ca_user::complex<T>, N> view(const ca::Raw<ca::complex<T>, N>& a) {
  ca::Raw<ca_user::complex<T>, N> v;
  v.ptr = reinterpret_cast<ca_user::complex<T>*>(a.ptr);
  v.n = a.n;
  v.c_order = a.c_order;
  for (int d = 0; d < N; ++d) v.shape_[d] = a.shape_[d], v.strides_[d] = a.strides_[d];
  return v;
}

template <class T>
__device__ __forceinline__ ca::Raw<ca_user::complex<T>, 0> view(const ca::Raw<ca::complex<T>, 0>& a) {
  return {reinterpret_cast<ca_user::complex<T>*>(a.ptr), a.n, a.c_order};
}

}  // namespace ca_user_raw

// CuPy's header defines Thrust's complex, and its get_typename spells complex64 thrust::complex<float>
// (cuarray.cuda.compiler.get_typename too): the names are thrust's as well.
namespace thrust {
using namespace ::ca_user;
}  // namespace thrust

using ca_user::abs;
using ca_user::acos;
using ca_user::acosh;
using ca_user::arg;
using ca_user::asin;
using ca_user::asinh;
using ca_user::atan;
using ca_user::atanh;
using ca_user::complex;
using ca_user::conj;
using ca_user::cos;
using ca_user::cosh;
using ca_user::exp;
using ca_user::expm1;
using ca_user::imag;
using ca_user::isfinite;
using ca_user::isinf;
using ca_user::isnan;
using ca_user::log;
using ca_user::log10;
using ca_user::log1p;
using ca_user::log2;
using ca_user::norm;
using ca_user::polar;
using ca_user::pow;
using ca_user::real;
using ca_user::rint;
using ca_user::sin;
using ca_user::sinh;
using ca_user::sqrt;
using ca_user::tan;
using ca_user::tanh;
