// Support for generated reduction kernels (ops/reduction.cpp): the accumulators of the built-in
// reductions, and the three kernel bodies the generator instantiates with an `Op`.
//
// An Op (generated) provides: acc_t; identity(); fetch(ptrs, offsets, j) -> acc_t, which loads element j of
// every input and maps it; reduce(a, b); post(a, n, ddof, n_out, old) -> the output's storage type (n: the
// elements each output reduces; n_out: the outputs, for a ReductionKernel's _in_ind/_out_ind sizes; old: the
// output's value before, as _out_old for a ReductionKernel's post_map); and, when its
// inputs can be read in vectors, Pack<V>, fetch_vec<V> and fold<V>.
//
// Every result is deterministic: each thread folds its elements in a fixed order and the partial results
// combine in a fixed tree, so the same input, shape and device give bit-identical output.
#pragma once

#include "cuarray/ufunc.cuh"

namespace ca {

// ---- accumulators of the built-in reductions ----

template <class T>
struct real_of {
  using type = T;
};
template <class T>
struct real_of<complex<T>> {
  using type = T;
};

// What NumPy's nanargmax (Max) and nanargmin put in a NaN's place before taking argmax or argmin: -inf or
// +inf (complex: with a zero imaginary part), so that a NaN before an equal infinity is the answer.
template <class T, bool Max>
__device__ __forceinline__ T nan_stand_in() {
  if constexpr (is_complex_v<T>) {
    using R = typename real_of<T>::type;
    const R inf = R(__int_as_float(0x7f800000));
    return T(Max ? -inf : inf, R(0));
  } else if constexpr (is_floating_v<T>) {
    return Max ? lowest<T>() : highest<T>();
  } else {
    return T(0);  // integers and bools have no NaN
  }
}
template <class T>
__device__ __forceinline__ T quiet_nan() {
  if constexpr (is_complex_v<T>)
    return T(quiet_nan<typename T::value_type>(), quiet_nan<typename T::value_type>());
  else
    return T(__int_as_float(0x7fc00000));
}

// nanmax/nanmin start from NaN, which fmax/fmin drop, so an all-NaN slice stays NaN; integers have no NaN.
template <class T>
__device__ __forceinline__ T nan_or_lowest() {
  if constexpr (is_floating_v<T> || is_complex_v<T>)
    return quiet_nan<T>();
  else
    return lowest<T>();
}
template <class T>
__device__ __forceinline__ T nan_or_highest() {
  if constexpr (is_floating_v<T> || is_complex_v<T>)
    return quiet_nan<T>();
  else
    return highest<T>();
}

// argmax/argmin: a value and its index in the reduction; i < 0 marks "no element yet".
template <class T>
struct ArgVal {
  T v;
  long long i;
};
// Greater (Max) or smaller wins; a NaN beats every number (NumPy returns the first NaN); ties take the lower
// index, so the result does not depend on the order partial results combine in.
template <bool Max, class T>
__device__ __forceinline__ ArgVal<T> arg_best(ArgVal<T> a, ArgVal<T> b) {
  if (b.i < 0) return a;
  if (a.i < 0) return b;
  bool an = isnan(a.v), bn = isnan(b.v);
  if (an || bn) return an && (!bn || a.i < b.i) ? a : b;
  bool b_better = Max ? greater(b.v, a.v) : less(b.v, a.v);
  bool a_better = Max ? greater(a.v, b.v) : less(a.v, b.v);
  if (b_better) return b;
  if (a_better) return a;
  return a.i < b.i ? a : b;
}

// Running count, mean and sum of squared deviations (Welford's update, Chan's combination): var and std in
// one pass over the data.
// The count is kept in the real type: converting a 64-bit integer per element would cost more than the rest
// of the update, and counts above 2^24 (float) round by less than the data's own precision.
template <class T>
struct Moments {
  T mean;
  typename real_of<T>::type m2, n;
};
template <class T>
__device__ __forceinline__ Moments<T> moments_of(T x) {
  return {x, 0, 1};
}
template <class T>
__device__ __forceinline__ typename real_of<T>::type abs2(T z) {
  if constexpr (is_complex_v<T>)
    return z.re * z.re + z.im * z.im;
  else
    return z * z;
}
template <class T>
__device__ __forceinline__ Moments<T> moments_combine(const Moments<T>& a, const Moments<T>& b) {
  using R = typename real_of<T>::type;
  if (b.n == 0) return a;
  if (a.n == 0) return b;
  R n = a.n + b.n, fb = b.n / n;
  T delta = b.mean - a.mean;
  return {a.mean + delta * T(fb), a.m2 + b.m2 + abs2(delta) * a.n * fb, n};
}
// The moments of V groups together (the mean of their means, weighted by count, and the sum of their m2s and
// of their means' squared deviations from it), combined into acc: one division for the V instead of one for
// each, which made var compute-bound.
template <class T, int V>
__device__ __forceinline__ Moments<T> moments_fold(const Moments<T>& acc, const Moments<T> (&m)[V]) {
  using R = typename real_of<T>::type;
  R n = 0;
  T s = T(0);
#pragma unroll
  for (int j = 0; j < V; ++j) {
    n += m[j].n;
    s = s + m[j].mean * T(m[j].n);
  }
  if (n == 0) return acc;
  const T mean = s * T(n == R(V) ? R(1) / R(V) : R(1) / n);  // 1 / V is a constant
  R m2 = 0;
#pragma unroll
  for (int j = 0; j < V; ++j) m2 += m[j].m2 + abs2(m[j].mean - mean) * m[j].n;
  return moments_combine(acc, Moments<T>{mean, m2, n});
}
// m2 / max(n - ddof, 0), as NumPy divides (inf or nan where no degrees of freedom are left).
//
// Note [Variance of non-finite data]
// NumPy subtracts the mean from every element: with a NaN among them the mean is NaN, and with an infinity
// it is infinite or NaN, so some x - mean is NaN (inf - inf) and so is the variance. Welford's update never
// forms an element's deviation from its own value (one element contributes m2 = 0), so m2 can stay finite:
// var([inf]) would be 0. The running mean is non-finite exactly when the data hold a NaN or an infinity
// (combining a non-finite mean with anything keeps it non-finite), so the result is NaN then: one test per
// output, nothing per element. Finite data whose running mean overflows also give NaN here, where NumPy's
// sum may overflow to inf (docs/numerical-differences.md).
template <class T>
__device__ __forceinline__ typename real_of<T>::type moments_var(const Moments<T>& m, double ddof) {
  using R = typename real_of<T>::type;
  if (!isfinite(m.mean)) return quiet_nan<R>();
  double dof = static_cast<double>(m.n) - ddof;
  return m.m2 / static_cast<R>(dof > 0 ? dof : 0);
}
// nanvar: NaN where no degrees of freedom are left (NumPy's nanvar sets those, where var divides by 0).
template <class T>
__device__ __forceinline__ typename real_of<T>::type moments_nanvar(const Moments<T>& m, double ddof) {
  using R = typename real_of<T>::type;
  return static_cast<double>(m.n) - ddof > 0 ? moments_var(m, ddof) : quiet_nan<R>();
}

// nanmean: sum and count of the values that are not NaN.
template <class T>
struct SumCount {
  T s;
  long long n;
};

// The divisor in mean-like posts: a count as the accumulator's type.
template <class T>
__device__ __forceinline__ T mean_of(T sum, long long n) {
  return sum / T(static_cast<typename real_of<T>::type>(n));
}

// ---- launch-independent pieces ----

// Folds V mapped elements into acc in order; Moments accumulators fold them as one group (moments_fold).
template <class Op, class A, int V>
__device__ __forceinline__ A fold_mapped(A acc, const A (&m)[V]) {
#pragma unroll
  for (int j = 0; j < V; ++j) acc = Op::reduce(acc, m[j]);
  return acc;
}
template <class Op, class T, int V>
__device__ __forceinline__ Moments<T> fold_mapped(const Moments<T>& acc, const Moments<T> (&m)[V]) {
  return moments_fold(acc, m);
}

template <int K>
struct Ptrs {
  const char* p[K];
};

// The iteration space of a reduction, packed by the host: NO output dims and NR reduced dims (each at least
// one, padded with extent-1 dims), with byte strides of the output and of each of the K inputs.
template <int NO, int NR, int K>
struct ReduceShape {
  long long n_out, n_red;
  long long out_shape[NO], red_shape[NR];
  long long out_strides[NO];
  long long in_out_strides[K][NO], in_red_strides[K][NR];
};

// Any trivially copyable value moved down a warp, 4 bytes at a time.
template <class T>
__device__ __forceinline__ T shfl_down(const T& v, unsigned delta) {
  constexpr int words = (sizeof(T) + 3) / 4;
  union U {
    T v;
    unsigned w[words];
    __device__ U() {}
  } u;
  u.v = v;
#pragma unroll
  for (int k = 0; k < words; ++k) u.w[k] = __shfl_down_sync(0xffffffffu, u.w[k], delta);
  return u.v;
}

template <class T, int N>
struct SharedArray {
  alignas(16) unsigned char bytes[N * sizeof(T)];
  __device__ T& operator[](int i) { return reinterpret_cast<T*>(bytes)[i]; }
};

// Offsets, in each of the K inputs, of output element `o` (C order over out_shape).
template <class Index, int NO, int NR, int K>
__device__ __forceinline__ void out_offsets(const ReduceShape<NO, NR, K>& s, Index o, long long (&in_off)[K],
                                            long long& out_off) {
  out_off = 0;
#pragma unroll
  for (int k = 0; k < K; ++k) in_off[k] = 0;
#pragma unroll
  for (int d = NO - 1; d >= 0; --d) {
    Index idx = d == 0 ? o : o % static_cast<Index>(s.out_shape[d]);
    if (d > 0) o /= static_cast<Index>(s.out_shape[d]);
    out_off += idx * s.out_strides[d];
#pragma unroll
    for (int k = 0; k < K; ++k) in_off[k] += idx * s.in_out_strides[k][d];
  }
}

template <class Index, int NO, int NR, int K>
__device__ __forceinline__ void red_offsets(const ReduceShape<NO, NR, K>& s, Index r, const long long (&base)[K],
                                            long long (&off)[K]) {
#pragma unroll
  for (int k = 0; k < K; ++k) off[k] = base[k];
#pragma unroll
  for (int d = NR - 1; d >= 0; --d) {
    Index idx = d == 0 ? r : r % static_cast<Index>(s.red_shape[d]);
    if (d > 0) r /= static_cast<Index>(s.red_shape[d]);
#pragma unroll
    for (int k = 0; k < K; ++k) off[k] += idx * s.in_red_strides[k][d];
  }
}

template <class Op, class Out>
__device__ __forceinline__ void write_result(char* out, long long off, const typename Op::acc_t& a, long long n,
                                             double ddof, long long n_out) {
  // post also gets the output's value before the write, which a ReductionKernel's post_map may read (CuPy's
  // `y += a` into out=); where post does not read it, the load is dead code.
  Out* p = reinterpret_cast<Out*>(out + off);
  *p = Op::post(a, n, ddof, n_out, *p);
}

// ---- the kernels ----

// Rows: threadIdx.x walks the reduction of output blockIdx.x * blockDim.y + threadIdx.y; blockIdx.y splits the
// reduction, whose partial results (Partial) go to `partial[blockIdx.y][o]` for reduce_finish. V > 1: the
// reduction is one unit-stride dim in every input, read in V-element vectors.
template <class Op, class Out, class Index, int NO, int NR, int K, int V, bool Partial, int BlockThreads>
__device__ void reduce_rows(char* out, const Ptrs<K>& in, typename Op::acc_t* partial, const ReduceShape<NO, NR, K>& s,
                            double ddof) {
  using A = typename Op::acc_t;
  __shared__ SharedArray<A, BlockThreads / 32> warp_results;
  const Index o = static_cast<Index>(blockIdx.x) * blockDim.y + threadIdx.y;
  A acc = Op::identity();
  long long base[K], out_off = 0;
  if (o < s.n_out) {
    out_offsets<Index>(s, o, base, out_off);
    const Index start = static_cast<Index>(blockIdx.y) * blockDim.x + threadIdx.x;
    const Index step = static_cast<Index>(gridDim.y) * blockDim.x;
    Index r = start;
    if constexpr (V > 1) {
      const Index nv = static_cast<Index>(s.n_red) / V;
      Index v = start;
      // Four vectors in flight per thread before folding them in.
      for (; v + 3 * step < nv; v += 4 * step) {
        typename Op::template Pack<V> p[4];
#pragma unroll
        for (int u = 0; u < 4; ++u) Op::template fetch_vec<V>(in, base, (v + u * step) * V, p[u]);
#pragma unroll
        for (int u = 0; u < 4; ++u) acc = Op::template fold<V>(acc, p[u], (v + u * step) * V);
      }
      for (; v < nv; v += step) {
        typename Op::template Pack<V> p;
        Op::template fetch_vec<V>(in, base, v * V, p);
        acc = Op::template fold<V>(acc, p, v * V);
      }
      r = nv * V + start;
    }
#pragma unroll 4
    for (; r < s.n_red; r += step) {
      long long off[K];
      red_offsets<Index>(s, r, base, off);
      acc = Op::reduce(acc, Op::fetch(in, off, r));
    }
  }
  // Combine along x: within each warp, then across the warps of a row.
  const int width = blockDim.x < 32 ? blockDim.x : 32;
  for (int d = width / 2; d > 0; d /= 2) acc = Op::reduce(acc, shfl_down(acc, d));
  if (blockDim.x > 32) {
    const int warps = blockDim.x / 32, lane = threadIdx.x % 32, w = threadIdx.x / 32;
    if (lane == 0) warp_results[threadIdx.y * warps + w] = acc;
    __syncthreads();
    if (w == 0) {
      acc = lane < warps ? warp_results[threadIdx.y * warps + lane] : Op::identity();
      for (int d = 16; d > 0; d /= 2) acc = Op::reduce(acc, shfl_down(acc, d));
    }
  }
  if (threadIdx.x == 0 && o < s.n_out) {
    if constexpr (Partial)
      partial[static_cast<long long>(blockIdx.y) * s.n_out + o] = acc;
    else
      write_result<Op, Out>(out, out_off, acc, s.n_red, ddof, s.n_out);
  }
}

// Columns: threadIdx.x walks outputs (adjacent in memory), threadIdx.y and blockIdx.y split the reduction.
// V > 1: each thread takes V adjacent outputs, read as one vector per reduced element.
template <class Op, class Out, class Index, int NO, int NR, int K, int V, bool Partial, int BlockThreads>
__device__ void reduce_columns(char* out, const Ptrs<K>& in, typename Op::acc_t* partial,
                               const ReduceShape<NO, NR, K>& s, double ddof) {
  using A = typename Op::acc_t;
  __shared__ SharedArray<A, BlockThreads * V> rows;
  const Index o0 = (static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x) * V;
  A acc[V];
#pragma unroll
  for (int j = 0; j < V; ++j) acc[j] = Op::identity();
  if (o0 < s.n_out) {
    long long base[K], out_off;
    out_offsets<Index>(s, o0, base, out_off);
    const Index step = static_cast<Index>(gridDim.y) * blockDim.y;
#pragma unroll 4
    for (Index r = static_cast<Index>(blockIdx.y) * blockDim.y + threadIdx.y; r < s.n_red; r += step) {
      long long off[K];
      red_offsets<Index>(s, r, base, off);
      if constexpr (V > 1) {
        typename Op::template Pack<V> p;
        Op::template fetch_vec<V>(in, off, 0, p);
#pragma unroll
        for (int j = 0; j < V; ++j) acc[j] = Op::reduce(acc[j], Op::template map_lane<V>(p, j, r));
      } else {
        acc[0] = Op::reduce(acc[0], Op::fetch(in, off, r));
      }
    }
  }
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
#pragma unroll
  for (int j = 0; j < V; ++j) rows[t * V + j] = acc[j];
  __syncthreads();
  for (int h = blockDim.y / 2; h > 0; h /= 2) {
    if (threadIdx.y < h)
#pragma unroll
      for (int j = 0; j < V; ++j) rows[t * V + j] = Op::reduce(rows[t * V + j], rows[(t + h * blockDim.x) * V + j]);
    __syncthreads();
  }
  if (threadIdx.y == 0 && o0 < s.n_out)
#pragma unroll
    for (int j = 0; j < V; ++j) {
      if constexpr (Partial) {
        partial[static_cast<long long>(blockIdx.y) * s.n_out + o0 + j] = rows[t * V + j];
      } else {
        long long base[K], out_off;
        out_offsets<Index>(s, o0 + j, base, out_off);
        write_result<Op, Out>(out, out_off, rows[t * V + j], s.n_red, ddof, s.n_out);
      }
    }
}

// The second pass of a split reduction: output o combines partial[0..splits)[o], threadIdx.y striding.
template <class Op, class Out, class Index, int NO, int NR, int K, int BlockThreads>
__device__ void reduce_finish(char* out, const typename Op::acc_t* partial, int splits, const ReduceShape<NO, NR, K>& s,
                              double ddof) {
  using A = typename Op::acc_t;
  __shared__ SharedArray<A, BlockThreads> rows;
  const Index o = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x;
  A acc = Op::identity();
  if (o < s.n_out)
    for (int k = threadIdx.y; k < splits; k += blockDim.y)
      acc = Op::reduce(acc, partial[static_cast<long long>(k) * s.n_out + o]);
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  rows[t] = acc;
  __syncthreads();
  for (int h = blockDim.y / 2; h > 0; h /= 2) {
    if (threadIdx.y < h) rows[t] = Op::reduce(rows[t], rows[t + h * blockDim.x]);
    __syncthreads();
  }
  if (threadIdx.y == 0 && o < s.n_out) {
    long long base[K], out_off;
    out_offsets<Index>(s, o, base, out_off);
    write_result<Op, Out>(out, out_off, rows[t], s.n_red, ddof, s.n_out);
  }
}

}  // namespace ca
