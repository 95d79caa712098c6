// Warp and block primitives built on shuffles and ballots: scans and reductions of integer, floating and
// complex values, and loads that bypass L1 for data other blocks publish.
#pragma once

#include "cuarray/types.cuh"

namespace ca {

constexpr unsigned kFullWarp = 0xffffffffu;

__device__ __forceinline__ int lane_id() { return static_cast<int>(threadIdx.x & 31u); }
__device__ __forceinline__ int warp_id() { return static_cast<int>(threadIdx.x >> 5); }
__device__ __forceinline__ unsigned lanes_below() { return (1u << lane_id()) - 1u; }

// The warp shuffles, part by part for complex values (the intrinsics move one 32- or 64-bit word).
enum class Shuffle { Up, Down, Xor, Index };
template <Shuffle S, class T>
__device__ __forceinline__ T shuffle(T v, int k) {
  if constexpr (is_complex_v<T>)
    return T(shuffle<S>(v.re, k), shuffle<S>(v.im, k));
  else if constexpr (S == Shuffle::Up)
    return __shfl_up_sync(kFullWarp, v, k);
  else if constexpr (S == Shuffle::Down)
    return __shfl_down_sync(kFullWarp, v, k);
  else if constexpr (S == Shuffle::Xor)
    return __shfl_xor_sync(kFullWarp, v, k);
  else
    return __shfl_sync(kFullWarp, v, k);
}
template <class T>
__device__ __forceinline__ T shfl_up(T v, int delta) {
  return shuffle<Shuffle::Up>(v, delta);
}
template <class T>
__device__ __forceinline__ T shfl_xor(T v, int mask) {
  return shuffle<Shuffle::Xor>(v, mask);
}
template <class T>
__device__ __forceinline__ T shfl_idx(T v, int lane) {
  return shuffle<Shuffle::Index>(v, lane);
}

// An L2 load: sees what other blocks stored after they raised a flag (plain loads may hit a stale L1 line).
template <class T>
__device__ __forceinline__ T load_cg(const T* p) {
  if constexpr (is_complex_v<T>) {
    const typename T::value_type* r = &p->re;
    return T(__ldcg(r), __ldcg(r + 1));
  } else {
    return __ldcg(p);
  }
}

// Note [Negative zero as the additive identity]
// NumPy's accumulate starts from the first element, so cumsum([-0.0]) is -0.0; a scan starting from +0.0
// would give +0.0 (+0 + -0 is +0). -0.0 is the exact identity of floating addition (-0 + x is x for every x,
// zeros of both signs included), so floating scans start there. A NaN that a nan- scan skips stands in as
// NumPy's replacement, +0 (or 1).
struct SumOp {
  template <class T>
  static __device__ __forceinline__ T apply(T a, T b) {
    return a + b;
  }
  template <class T>
  static __device__ __forceinline__ T identity() {
    if constexpr (is_complex_v<T>) {
      return T(-0.0, -0.0);
    } else if constexpr (is_floating_v<T>) {
      return T(-0.0);
    } else {
      return T(0);
    }
  }
  template <class T>
  static __device__ __forceinline__ T nan_stand_in() {
    return T(0);
  }
};
struct ProdOp {
  template <class T>
  static __device__ __forceinline__ T apply(T a, T b) {
    return a * b;
  }
  template <class T>
  static __device__ __forceinline__ T identity() {
    return T(1);
  }
  template <class T>
  static __device__ __forceinline__ T nan_stand_in() {
    return T(1);
  }
};

// Inclusive scan over the lanes of a warp, in lane order; every lane takes part.
template <class Op, class T>
__device__ __forceinline__ T warp_inclusive_scan(T v) {
  const int lane = lane_id();
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    T other = shfl_up(v, d);
    if (lane >= d) v = Op::apply(other, v);
  }
  return v;
}

// The warp's values combined with the higher lanes on the left (lane 31's value first, lane 0's last), in
// every lane. The order matters for operations that are not commutative, such as a maximum that keeps one of
// two equal zeros: the scan's look-back holds earlier tiles in higher lanes.
template <class Op, class T>
__device__ __forceinline__ T warp_reduce_high_first(T v) {
  const int lane = lane_id();
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    T other = shuffle<Shuffle::Down>(v, d);
    if (lane + d < 32) v = Op::apply(other, v);
  }
  return shfl_idx(v, 0);
}

// Exclusive scan of one value per thread over a block of Block threads (a multiple of 32), in thread order;
// `total` gets the block's total. `scratch` holds Block / 32 values in shared memory; two calls with the
// same scratch must be separated by __syncthreads().
template <class Op, int Block, class T>
__device__ __forceinline__ T block_exclusive_scan(T v, T* scratch, T& total) {
  const int lane = lane_id(), warp = warp_id();
  T inclusive = warp_inclusive_scan<Op>(v);
  if (lane == 31) scratch[warp] = inclusive;
  __syncthreads();
  T before = Op::template identity<T>();
  total = Op::template identity<T>();
#pragma unroll
  for (int w = 0; w < Block / 32; ++w) {
    T s = scratch[w];
    if (w < warp) before = Op::apply(before, s);
    total = Op::apply(total, s);
  }
  T exclusive = shfl_up(inclusive, 1);
  if (lane == 0) exclusive = Op::template identity<T>();
  return Op::apply(before, exclusive);
}

}  // namespace ca
