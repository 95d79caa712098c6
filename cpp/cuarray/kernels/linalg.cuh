// Small kernels around the CUDA math libraries: matrix products of integers and bools (which cuBLAS does not
// compute), the determinant from an LU factorisation, and zeroing one triangle of stacked matrices.
#pragma once

#include "cuarray/cast.cuh"
#include "cuarray/complex.cuh"
#include "cuarray/strided.cuh"

namespace ca {

// Element strides (batch, row, column) of the three operands of a stacked matrix product.
struct MatmulStrides {
  long long a[3], b[3], c[3];
};

// c[t] = a[t] @ b[t] for `count` stacked (n x k) @ (k x m) products. Integers wrap as NumPy's loops do (the sum
// is taken modulo 2**64 and truncated to T); bools give the OR of ANDs. One thread per element of c.
template <class T, class Index>
__device__ void matmul_integer(T* c, const T* a, const T* b, Index n, Index m, Index k, Index count, MatmulStrides s) {
  Index total = count * n * m;
  for (Index idx = global_thread<Index>(); idx < total; idx += grid_threads<Index>()) {
    Index j = idx % m, rest = idx / m;
    Index i = rest % n, t = rest / n;
    const T* ap = a + t * s.a[0] + i * s.a[1];
    const T* bp = b + t * s.b[0] + j * s.b[2];
    T* cp = c + t * s.c[0] + i * s.c[1] + j * s.c[2];
    if constexpr (is_same_v<T, bool>) {
      bool any = false;
      for (Index p = 0; p < k && !any; ++p) any = ap[p * s.a[2]] && bp[p * s.b[1]];
      *cp = any;
    } else {
      unsigned long long sum = 0;
      for (Index p = 0; p < k; ++p)
        sum += static_cast<unsigned long long>(ap[p * s.a[2]]) * static_cast<unsigned long long>(bp[p * s.b[1]]);
      *cp = static_cast<T>(sum);
    }
  }
}

// c[t] = a[t] @ b[t] for small matrices, in one launch: at these sizes cuBLAS's host cost is most of the call.
// A Tile x Tile block computes a tile of c. k is walked in chunks of up to 4 tiles: each thread issues its loads
// of a and of b for a chunk together, so a chunk costs one wait for memory instead of one a tile (the kernel's
// time at these sizes). Each element accumulates in T over k in order.
template <class T, int Tile>
__device__ void matmul_small(T* c, const T* a, const T* b, int n, int m, int k, MatmulStrides s) {
  constexpr int Chunk = 4 * Tile;
  __shared__ alignas(16) unsigned char raw[(Tile * (Chunk + 1) + Chunk * (Tile + 1)) * sizeof(T)];
  T(*as)[Chunk + 1] = reinterpret_cast<T(*)[Chunk + 1]>(raw);  // a's rows of the tile, one chunk of k
  T(*bs)[Tile + 1] = reinterpret_cast<T(*)[Tile + 1]>(raw + Tile * (Chunk + 1) * sizeof(T));
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * Tile + ty, j = blockIdx.x * Tile + tx;
  const long long t = blockIdx.z;
  a += t * s.a[0];
  b += t * s.b[0];
  c += t * s.c[0];
  T sum = T(0);
  for (int p0 = 0; p0 < k; p0 += Chunk) {
#pragma unroll
    for (int q = 0; q < Chunk; q += Tile) {  // no early exit: the loads stay together
      as[ty][q + tx] = i < n && p0 + q + tx < k ? a[i * s.a[1] + (p0 + q + tx) * s.a[2]] : T(0);
      bs[q + ty][tx] = p0 + q + ty < k && j < m ? b[(p0 + q + ty) * s.b[1] + j * s.b[2]] : T(0);
    }
    __syncthreads();
    const int end = min(Chunk, k - p0);  // whole tiles: the last one holds zeros past k
    for (int q = 0; q < end; q += Tile) {
#pragma unroll
      for (int p = q; p < q + Tile; ++p) sum = sum + as[ty][p] * bs[p][tx];
    }
    __syncthreads();
  }
  if (i < n && j < m) c[i * s.c[1] + j * s.c[2]] = sum;
}

template <class T>
__device__ __forceinline__ T magnitude(T x) {
  return ::fabs(x);
}
template <class T>
__device__ __forceinline__ T magnitude(complex<T> z) {
  return cabs(z);
}

// NumPy's slogdet from the LU factors of `count` column-major n x n matrices (getrf's output, `stride` elements
// apart) and their 1-based pivots: sign (T; a unit complex number for complex T) and log|det| (R), and with
// `det` non-null, det = sign * exp(logdet) as NumPy computes it. One block of 256 threads per matrix.
template <class T, class R>
__device__ void lu_slogdet(const T* lu, const long long* ipiv, long long n, long long stride, T* sign, R* logdet,
                           T* det) {
  __shared__ T s_sign[256];
  __shared__ R s_log[256];
  __shared__ int s_swaps[256];
  const T* a = lu + static_cast<long long>(blockIdx.x) * stride;
  const long long* p = ipiv + static_cast<long long>(blockIdx.x) * n;
  T sg = T(1);
  R lg = R(0);
  int swaps = 0;
  for (long long i = threadIdx.x; i < n; i += blockDim.x) {
    T d = a[i * (n + 1)];
    R mag = magnitude(d);
    if (mag == R(0)) {
      sg = T(0);
    } else if constexpr (is_complex_v<T>) {
      sg = sg * T(d.re / mag, d.im / mag);
    } else {
      sg = d < 0 ? -sg : sg;
    }
    lg += ::log(mag);
    swaps += p[i] != i + 1;
  }
  s_sign[threadIdx.x] = sg;
  s_log[threadIdx.x] = lg;
  s_swaps[threadIdx.x] = swaps;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      s_sign[threadIdx.x] = s_sign[threadIdx.x] * s_sign[threadIdx.x + half];
      s_log[threadIdx.x] += s_log[threadIdx.x + half];
      s_swaps[threadIdx.x] += s_swaps[threadIdx.x + half];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    // A zero pivot makes the sign +0, as NumPy's (its flips by later pivots and swaps would make it -0).
    T sgn = magnitude(s_sign[0]) == R(0) ? T(0) : s_swaps[0] % 2 ? -s_sign[0] : s_sign[0];
    R lgd = s_log[0];
    if (sign) sign[blockIdx.x] = sgn;
    if (logdet) logdet[blockIdx.x] = lgd;
    if (det) {
      R e = ::exp(lgd);
      if constexpr (is_complex_v<T>)
        det[blockIdx.x] = T(sgn.re * e, sgn.im * e);
      else
        det[blockIdx.x] = sgn * e;
    }
  }
}

template <class T>
__device__ __forceinline__ bool finite(T x) {
  return ::isfinite(x);
}
template <class T>
__device__ __forceinline__ bool finite(complex<T> z) {
  return ::isfinite(z.re) && ::isfinite(z.im);
}
template <class T>
__device__ __forceinline__ T nan_value() {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    return T(R(__int_as_float(0x7fc00000)), R(__int_as_float(0x7fc00000)));
  } else {
    return T(__int_as_float(0x7fc00000));
  }
}

// Note [Non-finite matrices] (ops/linalg.cpp): grid (count, chunks); each block looks for a NaN or an
// infinity in its chunk of matrix blockIdx.x of `in` (C-contiguous rows x cols matrices one after another;
// `triangle` 1: only on and below the diagonal, 2: on and above, 0: all). A block that finds one sets the
// matrix's `info` to `mark` when `mark` > 0 (an error), else makes its results NaN: `per_x` elements of `x`
// and `per_y` of `y` (either may be null), and for `sign` (slogdet's) NaN if complex, +-1 kept and 0 made 1
// if real; its `info`, if any, becomes 0. Several blocks of one matrix may write the same values.
template <class T, class Y>
__device__ void nonfinite_results(const T* in, long long rows, long long cols, int triangle, int* info, int mark, T* x,
                                  long long per_x, Y* y, long long per_y, T* sign) {
  const long long m = blockIdx.x, per = rows * cols;
  const T* a = in + m * per;
  bool found = false;
  const long long step = static_cast<long long>(gridDim.y) * blockDim.x;
  for (long long j = static_cast<long long>(blockIdx.y) * blockDim.x + threadIdx.x; j < per; j += step) {
    long long r = j / cols, c = j % cols;
    bool read = triangle == 0 || (triangle == 1 ? c <= r : c >= r);
    found |= read && !finite(a[j]);
  }
  if (!__syncthreads_or(found)) return;
  if (mark > 0) {
    if (threadIdx.x == 0) info[m] = mark;
    return;
  }
  for (long long j = threadIdx.x; j < per_x; j += blockDim.x) x[m * per_x + j] = nan_value<T>();
  for (long long j = threadIdx.x; j < per_y; j += blockDim.x) y[m * per_y + j] = nan_value<Y>();
  if (threadIdx.x == 0) {
    if (sign) {
      if constexpr (is_complex_v<T>)
        sign[m] = nan_value<T>();
      else if (sign[m] == T(0))
        sign[m] = T(1);
    }
    if (info) info[m] = 0;
  }
}

// Zeroes the elements of `count` stacked rows x cols matrices that lie above diagonal k (keep_lower) or below
// it (otherwise). Strides are in elements: (batch, row, column).
template <class T, class Index>
__device__ void zero_triangle(T* a, Index rows, Index cols, Index count, long long batch_stride, long long row_stride,
                              long long col_stride, long long k, bool keep_lower) {
  Index total = count * rows * cols;
  for (Index idx = global_thread<Index>(); idx < total; idx += grid_threads<Index>()) {
    Index j = idx % cols, rest = idx / cols;
    Index i = rest % rows, t = rest / rows;
    long long d = static_cast<long long>(j) - static_cast<long long>(i);
    if (keep_lower ? d > k : d < k) a[t * batch_stride + i * row_stride + j * col_stride] = T(0);
  }
}

}  // namespace ca
