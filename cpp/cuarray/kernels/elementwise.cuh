// Support for generated elementwise kernels: vectorised loads and stores with a cast, and the headers the
// ufunc expressions use. See ops/elementwise.cpp for the kernels' shape.
#pragma once

#include "cuarray/cast.cuh"
#include "cuarray/complex.cuh"
#include "cuarray/math.cuh"
#include "cuarray/strided.cuh"

namespace ca {

template <int Bytes> struct vec_bits;
template <> struct vec_bits<16> { using type = uint4; };
template <> struct vec_bits<8> { using type = uint2; };
template <> struct vec_bits<4> { using type = unsigned int; };
template <> struct vec_bits<2> { using type = unsigned short; };
template <> struct vec_bits<1> { using type = unsigned char; };

// Loads E consecutive S values from p and casts them to C. Aligned: p is aligned to the access width, so
// the loads are at most 16 bytes wide each.
template <int E, bool Aligned, class C, class S>
__device__ __forceinline__ void load(const S* p, C (&v)[E]) {
  if constexpr (Aligned) {
    constexpr int total = E * static_cast<int>(sizeof(S));
    constexpr int width = total < 16 ? total : 16;
    constexpr int per = width / static_cast<int>(sizeof(S));
    using V = typename vec_bits<width>::type;
#pragma unroll
    for (int c = 0; c < E / per; ++c) {
      union {
        V bits;
        S items[per];
      } u;
      u.bits = reinterpret_cast<const V*>(p)[c];
#pragma unroll
      for (int j = 0; j < per; ++j) v[c * per + j] = cast<C>(u.items[j]);
    }
  } else {
#pragma unroll
    for (int j = 0; j < E; ++j) v[j] = cast<C>(p[j]);
  }
}

template <int E, bool Aligned, class S, class C>
__device__ __forceinline__ void store(S* p, const C (&v)[E]) {
  if constexpr (Aligned) {
    constexpr int total = E * static_cast<int>(sizeof(S));
    constexpr int width = total < 16 ? total : 16;
    constexpr int per = width / static_cast<int>(sizeof(S));
    using V = typename vec_bits<width>::type;
#pragma unroll
    for (int c = 0; c < E / per; ++c) {
      union {
        V bits;
        S items[per];
      } u;
#pragma unroll
      for (int j = 0; j < per; ++j) u.items[j] = cast<S>(v[c * per + j]);
      reinterpret_cast<V*>(p)[c] = u.bits;
    }
  } else {
#pragma unroll
    for (int j = 0; j < E; ++j) p[j] = cast<S>(v[j]);
  }
}

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
