// Copies with a dtype cast, and fills: contiguous, strided, and a tiled transpose for the layouts where a
// plain strided copy would read or write with a large stride.
#pragma once

#include "cuarray/cast.cuh"
#include "cuarray/strided.cuh"
#include "cuarray/vector.cuh"

namespace ca {

template <class To, class From, class Index>
__device__ void copy_contiguous(To* dst, const From* src, Index n) {
  for (Index i = global_thread<Index>(); i < n; i += grid_threads<Index>()) dst[i] = cast<To>(src[i]);
}

// Operand 0 is the destination, operand 1 the source.
template <class To, class From, class Index, int N>
__device__ void copy_strided(char* dst, const char* src, const Strided<N, 2>& s, Index n) {
  for (Index i = global_thread<Index>(); i < n; i += grid_threads<Index>()) {
    Index off[2];
    offsets<Index, N, 2>(s, i, off);
    *reinterpret_cast<To*>(dst + off[0]) = cast<To>(*reinterpret_cast<const From*>(src + off[1]));
  }
}

// dst[b][r][c] = src[b][r][c] where dst's c and src's r are the unit-stride dimensions. 64x64 tiles go
// through shared memory so that both the reads and the writes are coalesced, with up to 16 elements per
// thread in flight. Launched with 32x8 threads, grid (ceil(cols/tile), ceil(rows/tile), batches), where the
// tile is transpose_tile<From>; strides in elements.
template <class From>
constexpr int transpose_tile = sizeof(From) > 8 ? 32 : 64;  // 16-byte types: a 64x64 tile would not fit

template <class To, class From, class Index>
__device__ void copy_transpose(To* dst, const From* src, Index rows, Index cols, Index dst_row, Index dst_batch,
                               Index src_col, Index src_batch) {
  constexpr int kTile = transpose_tile<From>;
  __shared__ From tile[kTile][kTile + 1];
  const Index r0 = static_cast<Index>(blockIdx.y) * kTile, c0 = static_cast<Index>(blockIdx.x) * kTile;
  const From* s = src + blockIdx.z * src_batch;
  To* d = dst + blockIdx.z * dst_batch;
  // Read down the source's columns: consecutive threads take consecutive rows (unit stride in src).
#pragma unroll
  for (int half = 0; half < kTile; half += 32) {
#pragma unroll
    for (int j = threadIdx.y; j < kTile; j += 8) {
      Index r = r0 + half + threadIdx.x, c = c0 + j;
      if (r < rows && c < cols) tile[j][half + threadIdx.x] = s[r + c * src_col];
    }
  }
  __syncthreads();
#pragma unroll
  for (int half = 0; half < kTile; half += 32) {
#pragma unroll
    for (int j = threadIdx.y; j < kTile; j += 8) {
      Index r = r0 + j, c = c0 + half + threadIdx.x;
      if (r < rows && c < cols) d[r * dst_row + c] = cast<To>(tile[half + threadIdx.x][j]);
    }
  }
}

// E elements per thread. Each store instruction of a warp writes 32 consecutive vectors, so whole 32-byte
// sectors: a thread storing its E adjacent elements itself would half-cover sectors with each 16-byte store,
// which HBM's ECC turns into read-modify-writes (half the write bandwidth on H100/H200).
template <class T, class Index, int E, bool Aligned>
__device__ void fill_contiguous(T* dst, T value, Index n) {
  constexpr int per = Aligned && sizeof(T) <= 16 ? 16 / static_cast<int>(sizeof(T)) : 1;
  const Index span = static_cast<Index>(blockDim.x) * E;
  const Index block_base = static_cast<Index>(blockIdx.x) * span;
  if (block_base + span <= n) {
    T v[per];
#pragma unroll
    for (int j = 0; j < per; ++j) v[j] = value;
#pragma unroll
    for (int c = 0; c < E / per; ++c)
      store<per, Aligned>(dst + block_base + (static_cast<Index>(c) * blockDim.x + threadIdx.x) * per, v);
  } else {
    for (Index i = block_base + threadIdx.x; i < n; i += blockDim.x) dst[i] = value;
  }
}

template <class T, class Index, int N>
__device__ void fill_strided(char* dst, T value, const Strided<N, 1>& s, Index n) {
  for (Index i = global_thread<Index>(); i < n; i += grid_threads<Index>()) {
    Index off[1];
    offsets<Index, N, 1>(s, i, off);
    *reinterpret_cast<T*>(dst + off[0]) = value;
  }
}

}  // namespace ca
