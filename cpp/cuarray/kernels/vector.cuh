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

// A thread's E elements in E / P chunks of P consecutive elements, chunk c at p + c * stride: with stride =
// blockDim.x * P, each access instruction of a warp covers 32 consecutive chunks, whole sectors (Note
// [Layout classes] in ops/elementwise.cpp).
template <int E, int P, bool Aligned, class C, class S, class Index>
__device__ __forceinline__ void load_chunks(const S* p, Index stride, C (&v)[E]) {
#pragma unroll
  for (int c = 0; c < E / P; ++c) {
    C part[P];
    load<P, Aligned>(p + c * stride, part);
#pragma unroll
    for (int j = 0; j < P; ++j) v[c * P + j] = part[j];
  }
}

template <int E, int P, bool Aligned, class S, class C, class Index>
__device__ __forceinline__ void store_chunks(S* p, Index stride, const C (&v)[E]) {
#pragma unroll
  for (int c = 0; c < E / P; ++c) {
    C part[P];
#pragma unroll
    for (int j = 0; j < P; ++j) part[j] = v[c * P + j];
    store<P, Aligned>(p + c * stride, part);
  }
}

// Starts copying Bytes (4, 8 or 16; both addresses aligned to it) from global to shared memory without
// passing through registers. The copies a thread has started are sent on as one group by
// commit_async_copies (until then they may wait) and waited for by wait_async_copies. Before sm_80, a
// plain copy.
template <int Bytes> __device__ __forceinline__ void copy_async(void* shared, const void* global) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async moves 4, 8 or 16 bytes");
#if __CUDA_ARCH__ >= 800
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  if constexpr (Bytes == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(address), "l"(global) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(address), "l"(global), "n"(Bytes) : "memory");
#else
  using V = typename vec_bits<Bytes>::type;
  *static_cast<V*>(shared) = *static_cast<const V*>(global);
#endif
}

__device__ __forceinline__ void commit_async_copies() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void wait_async_copies() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

}  // namespace ca
