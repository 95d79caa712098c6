// Vectorised loads and stores: E consecutive elements moved in accesses of up to 16 bytes, with a cast.
#pragma once

#include "cuarray/cast.cuh"

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

}  // namespace ca
