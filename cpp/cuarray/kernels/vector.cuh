// Vectorised loads and stores: E consecutive elements moved in accesses of up to 16 bytes, with a cast.
#pragma once

#include "cuarray/cast.cuh"

namespace ca {

// Note [Float16 conversions]
// The exact conversions between float16 and float (types.cuh) keep a NaN's sign and payload, as NumPy's do, which cvt
// alone does not: about nine instructions an element. An add of large float16 arrays, converting every element so,
// issued too slowly to keep up with the GPU's memory, below copy bandwidth where float32's add reaches it. widen and
// narrow convert a thread's elements by cvt alone (narrow into pairs, stored as words), and all of them again exactly
// only where one is a NaN: the add then reached copy bandwidth, as PyTorch's does (the figures: benchmarks/README.md,
// "Measurements behind the Notes"). They run on registers already loaded: a branch on loaded values between two loads
// would hold back the second load until the first returned.

// Whether the float16 pair in a word holds a NaN: |h| > 0x7c00 sets bit 15 of |h| + 0x3ff, and neither
// half carries into the other.
__device__ __forceinline__ unsigned half_nan_bits(unsigned pair) {
  return ((pair & 0x7fff7fffu) + 0x03ff03ffu) & 0x80008000u;
}

template <int E>
__device__ __forceinline__ void widen(const half (&h)[E], float (&f)[E]) {
  unsigned nan = 0;
#pragma unroll
  for (int j = 0; j < E; j += 2)
    nan |= half_nan_bits(h[j].bits | (j + 1 < E ? static_cast<unsigned>(h[j + 1].bits) << 16 : 0u));
  if (nan) {
#pragma unroll
    for (int j = 0; j < E; ++j) f[j] = h[j];
  } else {
#pragma unroll
    for (int j = 0; j < E; ++j) asm("cvt.f32.f16 %0, %1;" : "=f"(f[j]) : "h"(h[j].bits));
  }
}

// f[2k] and f[2k + 1] as float16 in the low and high half of pairs[k], as they lie in memory.
template <int E>
__device__ __forceinline__ void narrow(const float (&f)[E], unsigned (&pairs)[E / 2]) {
  static_assert(E % 2 == 0, "float16 pairs");
  unsigned nan = 0;
#pragma unroll
  for (int k = 0; k < E / 2; ++k) {
#if __CUDA_ARCH__ >= 800
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(pairs[k]) : "f"(f[2 * k + 1]), "f"(f[2 * k]));
#else
    unsigned short lo, hi;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(lo) : "f"(f[2 * k]));
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(hi) : "f"(f[2 * k + 1]));
    pairs[k] = lo | static_cast<unsigned>(hi) << 16;
#endif
    nan |= half_nan_bits(pairs[k]);
  }
  if (nan) {
#pragma unroll
    for (int k = 0; k < E / 2; ++k)
      pairs[k] = half(f[2 * k]).bits | static_cast<unsigned>(half(f[2 * k + 1]).bits) << 16;
  }
}

template <int Bytes>
struct vec_bits;
template <>
struct vec_bits<16> {
  using type = uint4;
};
template <>
struct vec_bits<8> {
  using type = uint2;
};
template <>
struct vec_bits<4> {
  using type = unsigned int;
};
template <>
struct vec_bits<2> {
  using type = unsigned short;
};
template <>
struct vec_bits<1> {
  using type = unsigned char;
};

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
template <int Bytes>
__device__ __forceinline__ void copy_async(void* shared, const void* global) {
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
