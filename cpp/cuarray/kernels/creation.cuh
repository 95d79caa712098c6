// Kernels that make values from indices: arange, linspace, eye.
#pragma once

#include "cuarray/cast.cuh"
#include "cuarray/math_float.cuh"
#include "cuarray/strided.cuh"

namespace ca {

// Note [Rounding as NumPy's ranges]
// NumPy fills arange's elements as start + i * delta in C (@NAME@_fill in arraytypes.c.src: the product rounded,
// then the sum) and computes linspace with whole-array operations (arange(num) * step, then + start), so every
// product is rounded before it is added. NVRTC contracts a multiply that feeds an add into one fused multiply-add,
// rounded once, which changes the last bit of many elements (arange(0.1, 1.0, 0.1)[5] would be
// 0.6000000000000001 where NumPy's is 0.6). So the products here are mul_rn's (__dmul_rn, __fmul_rn), which the
// compiler never fuses, and the kernels compile to the same code with contraction on and off
// (tests/test_creation_audit.py checks both, and the values against NumPy's).

// NumPy's arange: the first two values are given, the rest are start + i * (second - first) in T's arithmetic
// type, the product rounded on its own as NumPy's C code rounds it (Note [Rounding as NumPy's ranges]).
template <class T, class Index>
__device__ void arange(T* dst, T first, T second, Index n) {
  using A = typename arith<T>::type;
  A a0 = static_cast<A>(first), delta = static_cast<A>(second) - a0;
  for (Index i = global_thread<Index>(); i < n; i += grid_threads<Index>()) {
    A step;
    if constexpr (is_floating_v<A>)
      step = mul_rn(static_cast<A>(i), delta);
    else
      step = static_cast<A>(i) * delta;
    dst[i] = i == 0 ? first : i == 1 ? second : T(static_cast<A>(a0 + step));
  }
}

// NumPy's linspace: y = arange(num) * step (arange(num) / div * delta where the step underflows to zero), then
// y + start, each operation rounded on its own (Note [Rounding as NumPy's ranges]); in double, or where the bounds
// are complex (`complex_bounds`) in NumPy's complex arithmetic, and cast to T at the end. Integer results are
// floored first, as NumPy does.
template <class T, class Index>
__device__ void linspace(T* dst, double start_re, double start_im, double step_re, double step_im, double delta_re,
                         double delta_im, double div, bool step_is_zero, bool complex_bounds, double stop_re,
                         double stop_im, bool set_last, Index n) {
  for (Index i = global_thread<Index>(); i < n; i += grid_threads<Index>()) {
    double y = static_cast<double>(i), by_re = step_re, by_im = step_im, re, im;
    if (step_is_zero) {
      // NumPy's complex y / div is y * (1 / div) (Smith's division by div + 0j); a real one divides.
      y = complex_bounds ? mul_rn(y, 1.0 / div) : y / div;
      by_re = delta_re;
      by_im = delta_im;
    }
    if (complex_bounds) {
      // (y + 0j) * by as NumPy's complex product forms it: the products of the zero are exact, but 0 * inf is NaN.
      re = mul_rn(y, by_re) - mul_rn(0.0, by_im);
      im = mul_rn(y, by_im) + mul_rn(0.0, by_re);
    } else {
      re = mul_rn(y, by_re);
      im = mul_rn(y, by_im);
    }
    re = re + start_re;
    im = im + start_im;
    if (set_last && i == n - 1) {
      re = stop_re;
      im = stop_im;
    }
    if constexpr (is_complex_v<T>) {
      dst[i] = T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(im));
    } else if constexpr (is_integer_v<T>) {
      dst[i] = cast<T>(floor(re));
    } else {
      dst[i] = cast<T>(re);
    }
  }
}

// A rows x cols C-contiguous matrix with ones on diagonal k.
template <class T, class Index>
__device__ void eye(T* dst, Index rows, Index cols, long long k) {
  Index n = rows * cols;
  for (Index i = global_thread<Index>(); i < n; i += grid_threads<Index>()) {
    long long r = i / cols, c = i % cols;
    dst[i] = cast<T>(c - r == k ? 1 : 0);
  }
}

// Up to 32 blocks to zero, passed by value (Note [Zeroed blocks] in cuda/memory_pool.h).
struct BlockList {
  uint4* ptr[32];
};

// Zeroes `words` 16-byte words of block blockIdx.y.
template <class Index>
__device__ void zero_blocks(const BlockList& blocks, Index words) {
  uint4* dst = blocks.ptr[blockIdx.y];
  for (Index i = global_thread<Index>(); i < words; i += grid_threads<Index>()) dst[i] = make_uint4(0u, 0u, 0u, 0u);
}

}  // namespace ca
