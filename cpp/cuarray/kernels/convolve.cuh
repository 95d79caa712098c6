// Direct correlation: out[o] = sum over taps t of x[o + origin + t] * w[t]. Convolution is correlation with
// the taps flipped (the host prepares the taps). N-D and 1-D kernels sum over the positions inside x alone (a
// shared-memory tiled 1-D kernel), and a tiled 2-D kernel multiplies SciPy's boundary extensions (fill, wrap,
// symmetric) as SciPy's 2-D sums do.
#pragma once

#include "cuarray/cast.cuh"
#include "cuarray/complex.cuh"
#include "cuarray/strided.cuh"

namespace ca {

// The type sums are formed in: integers wrap in 64 bits (the low bits are those of T's own arithmetic), bool
// counts true products (cast back: any), the 16-bit floats use float.
template <class T, bool Wrap = is_integer_v<T> || is_same_v<T, bool>, bool Low = is_low_precision_v<T>>
struct conv_acc {
  using type = T;
};
template <class T>
struct conv_acc<T, true, false> {
  using type = unsigned long long;
};
template <class T>
struct conv_acc<T, false, true> {
  using type = float;
};
template <class T>
using conv_acc_t = typename conv_acc<T>::type;

template <class A, class T>
__device__ __forceinline__ A to_acc(T v) {
  if constexpr (is_complex_v<T> || is_floating_v<A>)
    return static_cast<A>(v);
  else
    return static_cast<A>(static_cast<long long>(v));  // sign-extends, then wraps to 64 bits
}

template <int N>
struct ConvShape {
  long long out[N], x[N], w[N], origin[N];
};

// One thread per output; the taps are walked with an odometer (last dimension fastest).
template <class T, int N>
__device__ void correlate_nd(T* out, const T* x, const T* w, ConvShape<N> s, long long n_out, long long n_taps) {
  using A = conv_acc_t<T>;
  for (long long o = global_thread<long long>(); o < n_out; o += grid_threads<long long>()) {
    long long base[N], tap[N];
    long long rest = o;
#pragma unroll
    for (int d = N - 1; d >= 0; --d) {
      base[d] = rest % s.out[d] + s.origin[d];
      rest /= s.out[d];
      tap[d] = 0;
    }
    A acc = A(0);
    for (long long t = 0; t < n_taps; ++t) {
      long long off = 0;
      bool inside = true;
#pragma unroll
      for (int d = 0; d < N; ++d) {
        const long long c = base[d] + tap[d];
        inside = inside && c >= 0 && c < s.x[d];
        off = off * s.x[d] + c;
      }
      // SciPy's N-D sums multiply the zeros outside x too: a NaN tap makes every output NaN, as there.
      const A v = inside ? to_acc<A>(x[off]) : A(0);
      acc = acc + v * to_acc<A>(w[t]);
#pragma unroll
      for (int d = N - 1; d >= 0; --d) {
        if (++tap[d] < s.w[d]) break;
        tap[d] = 0;
      }
    }
    out[o] = cast<T>(acc);
  }
}

// 1-D tiles: a block of kConv1dThreads threads makes kConv1dTile consecutive outputs (each thread
// kConv1dPerThread of them, kConv1dThreads apart), taking the taps in chunks of kConv1dChunk with the input
// span they need staged in shared memory. Thread-per-output with taps read from global memory spent its time
// on index arithmetic and load latency instead.
constexpr int kConv1dThreads = 256, kConv1dPerThread = 4, kConv1dTile = kConv1dThreads * kConv1dPerThread,
              kConv1dChunk = 128;

template <class T>
__device__ void correlate1d(T* out, const T* x, const T* w, long long n_out, long long n_x, long long n_w,
                            long long origin, T zero) {
  using A = conv_acc_t<T>;
  __shared__ T span[kConv1dTile + kConv1dChunk - 1];
  __shared__ T taps[kConv1dChunk];
  const int tid = threadIdx.x;
  const long long o0 = static_cast<long long>(blockIdx.x) * kConv1dTile;
  A acc[kConv1dPerThread];
#pragma unroll
  for (int r = 0; r < kConv1dPerThread; ++r) acc[r] = A(0);
  for (long long j0 = 0; j0 < n_w; j0 += kConv1dChunk) {
    const int cw = static_cast<int>(n_w - j0 < kConv1dChunk ? n_w - j0 : kConv1dChunk);
    for (int e = tid; e < kConv1dTile + cw - 1; e += kConv1dThreads) {
      const long long i = o0 + origin + j0 + e;
      span[e] = i >= 0 && i < n_x ? x[i] : zero;
    }
    for (int e = tid; e < cw; e += kConv1dThreads) taps[e] = w[j0 + e];
    __syncthreads();
    // Positions outside x add nothing, as in NumPy's and SciPy's 1-D sums over the overlap alone: a NaN or
    // infinite tap meets no padding (0 * NaN would make a NaN they do not have). Only the blocks whose span
    // crosses an end of x test each position; the test is the same for the whole block.
    const long long first = o0 + origin + j0;  // x's index of span[0]
    if (first >= 0 && first + kConv1dTile + cw - 1 <= n_x) {
      for (int j = 0; j < cw; ++j) {
        const A t = to_acc<A>(taps[j]);
#pragma unroll
        for (int r = 0; r < kConv1dPerThread; ++r) acc[r] = acc[r] + to_acc<A>(span[tid + kConv1dThreads * r + j]) * t;
      }
    } else {
      for (int j = 0; j < cw; ++j) {
        const A t = to_acc<A>(taps[j]);
#pragma unroll
        for (int r = 0; r < kConv1dPerThread; ++r) {
          const long long i = first + tid + kConv1dThreads * r + j;
          if (i >= 0 && i < n_x) acc[r] = acc[r] + to_acc<A>(span[tid + kConv1dThreads * r + j]) * t;
        }
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < kConv1dPerThread; ++r) {
    const long long o = o0 + tid + kConv1dThreads * r;
    if (o < n_out) out[o] = cast<T>(acc[r]);
  }
}

// 2-D tiles: a block of 32 x 8 threads makes 32 x 32 outputs (each thread four rows, 8 apart), taking the taps
// in chunks of up to 16 x 16 with the input patch they need staged in shared memory.
constexpr int kConvTile = 32, kConvRowsPerThread = 4, kConvChunk = 16;

enum Boundary { kFill = 0, kWrap = 1, kSymmetric = 2 };

// Index `i` of an axis of length n, extended beyond [0, n) periodically (wrap) or by reflection with the
// edge repeated (symmetric); -1 for fill.
__device__ __forceinline__ long long extend(long long i, long long n, int boundary) {
  if (i >= 0 && i < n) return i;
  if (boundary == kFill) return -1;
  const long long period = boundary == kWrap ? n : 2 * n;
  long long m = i % period;
  if (m < 0) m += period;
  return m < n ? m : period - 1 - m;
}

template <class T>
__device__ void correlate2d(T* out, const T* x, const T* w, long long out_rows, long long out_cols, long long x_rows,
                            long long x_cols, long long w_rows, long long w_cols, long long origin_r,
                            long long origin_c, int boundary, T fill) {
  using A = conv_acc_t<T>;
  constexpr int kPatch = kConvTile + kConvChunk - 1;
  __shared__ T patch[kPatch][kPatch + 1];
  __shared__ T taps[kConvChunk][kConvChunk];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kConvTile + tx, nthreads = kConvTile * 8;
  const long long r0 = static_cast<long long>(blockIdx.y) * kConvTile,
                  c0 = static_cast<long long>(blockIdx.x) * kConvTile;
  A acc[kConvRowsPerThread];
#pragma unroll
  for (int r = 0; r < kConvRowsPerThread; ++r) acc[r] = A(0);

  for (long long i0 = 0; i0 < w_rows; i0 += kConvChunk) {
    const int ch = static_cast<int>(w_rows - i0 < kConvChunk ? w_rows - i0 : kConvChunk);
    for (long long j0 = 0; j0 < w_cols; j0 += kConvChunk) {
      const int cw = static_cast<int>(w_cols - j0 < kConvChunk ? w_cols - j0 : kConvChunk);
      const int ph = kConvTile + ch - 1, pw = kConvTile + cw - 1;
      for (int e = tid; e < ph * pw; e += nthreads) {
        const int pr = e / pw, pc = e - pr * pw;
        const long long xr = extend(r0 + origin_r + i0 + pr, x_rows, boundary);
        const long long xc = extend(c0 + origin_c + j0 + pc, x_cols, boundary);
        patch[pr][pc] = xr < 0 || xc < 0 ? fill : x[xr * x_cols + xc];
      }
      for (int e = tid; e < ch * cw; e += nthreads) taps[e / cw][e % cw] = w[(i0 + e / cw) * w_cols + j0 + e % cw];
      __syncthreads();
      for (int i = 0; i < ch; ++i) {
        for (int j = 0; j < cw; ++j) {
          const A t = to_acc<A>(taps[i][j]);
#pragma unroll
          for (int r = 0; r < kConvRowsPerThread; ++r) acc[r] = acc[r] + to_acc<A>(patch[ty + 8 * r + i][tx + j]) * t;
        }
      }
      __syncthreads();
    }
  }
#pragma unroll
  for (int r = 0; r < kConvRowsPerThread; ++r) {
    const long long orow = r0 + ty + 8 * r, ocol = c0 + tx;
    if (orow < out_rows && ocol < out_cols) out[orow * out_cols + ocol] = cast<T>(acc[r]);
  }
}

}  // namespace ca
