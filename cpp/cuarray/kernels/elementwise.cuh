// Support for generated elementwise kernels: vectorised loads and stores with a cast, strided offsets, and
// the parameters of user kernels. See ops/elementwise.cpp for the kernels' shape. The ufuncs' and fused
// kernels' expressions also need ufunc.cuh; a user's ElementwiseKernel of real types includes only this, as
// each header costs every new kernel its compile time (Note [Kernel headers] in ops/elementwise.cpp).
#pragma once

#include "cuarray/cast.cuh"
#include "cuarray/strided.cuh"
#include "cuarray/vector.cuh"

namespace ca {

// A raw array parameter of a user kernel: indexed by the body itself (CuPy's `raw T x`, `x[i]`).
template <class T>
struct Raw {
  T* ptr;
  long long n;
  __device__ __forceinline__ T& operator[](long long i) const { return ptr[i]; }
  __device__ __forceinline__ long long size() const { return n; }
};

// `_ind.size()`: the number of elements the kernel iterates over.
template <class Index>
struct Ind {
  Index n;
  __device__ __forceinline__ Index size() const { return n; }
};

template <class T>
__device__ __forceinline__ const T& at(const char* base, long long offset) {
  return *reinterpret_cast<const T*>(base + offset);
}
template <class T>
__device__ __forceinline__ T& at(char* base, long long offset) {
  return *reinterpret_cast<T*>(base + offset);
}

}  // namespace ca
