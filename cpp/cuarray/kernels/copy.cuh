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

// E elements per thread, stored 16 bytes at a time when `dst` is aligned for it.
template <class T, class Index, int E, bool Aligned>
__device__ void fill_contiguous(T* dst, T value, Index n) {
  const Index base = global_thread<Index>() * E;
  if (base + E <= n) {
    T v[E];
#pragma unroll
    for (int j = 0; j < E; ++j) v[j] = value;
    store<E, Aligned>(dst + base, v);
  } else {
    for (Index i = base; i < n; ++i) dst[i] = value;
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
