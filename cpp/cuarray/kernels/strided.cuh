// Offsets of element `i` (C order over `shape`) in each of K strided operands.
#pragma once

namespace ca {

// Matches the host's packing: N extents, then K rows of N byte strides, all 64-bit.
template <int N, int K>
struct Strided {
  long long shape[N];
  long long strides[K][N];
};

// Offsets of element `i` (C order over the first D dimensions of `shape`; all of them by default) in each of
// K strided operands. D = N - 2 gives the origin of one tile plane of the tiled elementwise kernels.
template <class Index, int N, int K, int D = N>
__device__ __forceinline__ void offsets(const Strided<N, K>& s, Index i, Index (&off)[K]) {
#pragma unroll
  for (int k = 0; k < K; ++k) off[k] = 0;
  if constexpr (D > 0) {
#pragma unroll
    for (int d = D - 1; d >= 1; --d) {
      Index extent = static_cast<Index>(s.shape[d]);
      Index idx = i % extent;
      i /= extent;
#pragma unroll
      for (int k = 0; k < K; ++k) off[k] += idx * static_cast<Index>(s.strides[k][d]);
    }
#pragma unroll
    for (int k = 0; k < K; ++k) off[k] += i * static_cast<Index>(s.strides[k][0]);
  }
}

template <class Index>
__device__ __forceinline__ Index global_thread() {
  return static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x;
}

template <class Index>
__device__ __forceinline__ Index grid_threads() {
  return static_cast<Index>(gridDim.x) * blockDim.x;
}

}  // namespace ca
