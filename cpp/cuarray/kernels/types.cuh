// Element types for generated kernels: half, bfloat16 and complex, with NumPy's arithmetic.
// Device-only; includes nothing outside this folder, so NVRTC needs no toolkit headers.
#pragma once

namespace ca {

template <class A, class B>
struct is_same {
  static constexpr bool value = false;
};
template <class A>
struct is_same<A, A> {
  static constexpr bool value = true;
};
template <class A, class B>
constexpr bool is_same_v = is_same<A, B>::value;

// Note [Reading bools]
// A bool array's bytes need not be 0 or 1: a view of int8 or uint8 data as bool, or memory from another library,
// may hold any byte, and NumPy reads every nonzero byte as True. Read through a C++ bool, such a byte is
// undefined behaviour: the compiler may keep its low bit, or compute `a + b` of two bools as if each were 0 or
// 1 (1 + 0xFF then reads as False). Generated kernels therefore read bool operands as bool_byte, whose
// conversion (ca::cast) tests the byte against zero, and write bools as C++ bools (0 or 1).
struct bool_byte {
  unsigned char v;
};

// IEEE binary16. Arithmetic promotes to float, which rounds exactly as NumPy's float16 loops do.
struct half {
  unsigned short bits;
  half() = default;
  // cvt returns a canonical NaN; a NaN keeps its sign and top payload bits, as NumPy's conversion does.
  __device__ half(float f) {
    unsigned u = __float_as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
      bits = static_cast<unsigned short>(((u >> 16) & 0x8000u) | 0x7e00u | ((u >> 13) & 0x3ffu));
    else
      asm("cvt.rn.f16.f32 %0, %1;" : "=h"(bits) : "f"(f));
  }
  __device__ half(double d) {
    if (d != d)
      *this = half(static_cast<float>(d));
    else
      asm("cvt.rn.f16.f64 %0, %1;" : "=h"(bits) : "d"(d));
  }
  __device__ operator float() const {
    // cvt.f32.f16 returns a canonical NaN; keep the sign (and payload), as NumPy's conversion does.
    if ((bits & 0x7c00u) == 0x7c00u && (bits & 0x3ffu))
      return __uint_as_float((static_cast<unsigned>(bits & 0x8000u) << 16) | 0x7fc00000u |
                             (static_cast<unsigned>(bits & 0x3ffu) << 13));
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(bits));
    return f;
  }
};

// bfloat16 (ml_dtypes' layout): the top 16 bits of a float, rounded to nearest even.
struct bfloat16 {
  unsigned short bits;
  bfloat16() = default;
  __device__ bfloat16(float f) {
    unsigned u = __float_as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
      bits = static_cast<unsigned short>((u >> 16) | 0x40u);  // quiet NaN
    else
      bits = static_cast<unsigned short>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
  }
  __device__ bfloat16(double d) : bfloat16(static_cast<float>(d)) {}
  __device__ operator float() const { return __uint_as_float(static_cast<unsigned>(bits) << 16); }
};

template <class T>
struct complex {
  using value_type = T;
  T re, im;
  complex() = default;
  __device__ constexpr complex(T r, T i = T(0)) : re(r), im(i) {}
};

// The type arithmetic on T is carried out in: float for the 16-bit floats, T itself otherwise.
template <class T>
struct arith {
  using type = T;
};
template <>
struct arith<half> {
  using type = float;
};
template <>
struct arith<bfloat16> {
  using type = float;
};

template <class T>
struct is_complex_t {
  static constexpr bool value = false;
};
template <class T>
struct is_complex_t<complex<T>> {
  static constexpr bool value = true;
};
template <class T>
constexpr bool is_complex_v = is_complex_t<T>::value;

template <class T>
constexpr bool is_low_precision_v = is_same_v<T, half> || is_same_v<T, bfloat16>;
template <class T>
constexpr bool is_floating_v = is_same_v<T, float> || is_same_v<T, double> || is_low_precision_v<T>;
template <class T>
constexpr bool is_integer_v = !is_floating_v<T> && !is_complex_v<T> && !is_same_v<T, bool>;

}  // namespace ca
