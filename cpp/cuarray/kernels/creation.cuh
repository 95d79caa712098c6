// Kernels that make values from indices: arange, linspace, eye.
#pragma once

#include "cuarray/cast.cuh"
#include "cuarray/strided.cuh"

namespace ca {

// NumPy's arange: the first two values are given, the rest are start + i * (second - first) in T.
template <class T, class Index>
__device__ void arange(T* dst, T first, T second, Index n) {
  using A = typename arith<T>::type;
  A a0 = static_cast<A>(first), delta = static_cast<A>(second) - a0;
  for (Index i = global_thread<Index>(); i < n; i += grid_threads<Index>())
    dst[i] = i == 0 ? first : i == 1 ? second : T(static_cast<A>(a0 + static_cast<A>(i) * delta));
}

// NumPy's linspace, computed in double (real and imaginary parts apart) and cast to T at the end;
// integer results are floored first, as NumPy does.
template <class T, class Index>
__device__ void linspace(T* dst, double start_re, double start_im, double step_re, double step_im, double delta_re,
                         double delta_im, double div, bool step_is_zero, double stop_re, double stop_im, bool set_last,
                         Index n) {
  for (Index i = global_thread<Index>(); i < n; i += grid_threads<Index>()) {
    double re, im;
    if (step_is_zero) {
      re = static_cast<double>(i) / div * delta_re + start_re;
      im = static_cast<double>(i) / div * delta_im + start_im;
    } else {
      re = static_cast<double>(i) * step_re + start_re;
      im = static_cast<double>(i) * step_im + start_im;
    }
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
