// Advanced indexing: compaction of nonzero elements (nonzero, argwhere, boolean masks), gathers and
// scatters through integer index arrays (x[idx], x[idx] = v, take, put), index bounds, and counting into
// bins with atomics (bincount, histogram).
#pragma once

#include "cuarray/cast.cuh"
#include "cuarray/strided.cuh"
#include "cuarray/warp.cuh"

namespace ca {

// ---- compaction ----

constexpr int kCompactBlock = 256;
constexpr int kCompactItems = 16;  // consecutive elements per thread: a tile is 4096 elements

template <class T>
__device__ __forceinline__ bool is_nonzero(T x) {
  if constexpr (is_same_v<T, bool_byte>)
    return x.v != 0;  // Note [Reading bools] in types.cuh
  else if constexpr (is_complex_v<T>)
    return x.re != 0 || x.im != 0;
  else if constexpr (is_low_precision_v<T>)
    return static_cast<float>(x) != 0.0f;
  else
    return x != T(0);
}

// Element i (C order over s.shape) of a strided array.
template <class T, int N>
__device__ __forceinline__ T element_at(const char* a, const Strided<N, 1>& s, long long i) {
  long long off[1];
  offsets<long long, N, 1>(s, i, off);
  return *reinterpret_cast<const T*>(a + off[0]);
}

// counts[tile] = the number of nonzero elements in each tile of kCompactBlock * kCompactItems elements.
template <class T, int N>
__device__ void count_nonzero_tiles(const char* a, const Strided<N, 1>& s, long long n, long long* counts) {
  __shared__ long long scratch[kCompactBlock / 32];
  const long long base = static_cast<long long>(blockIdx.x) * kCompactBlock * kCompactItems +
                         static_cast<long long>(threadIdx.x) * kCompactItems;
  long long c = 0;
  for (int k = 0; k < kCompactItems; ++k)
    if (base + k < n) c += is_nonzero(element_at<T, N>(a, s, base + k));
  long long total;
  block_exclusive_scan<SumOp, kCompactBlock>(c, scratch, total);
  if (threadIdx.x == 0) counts[blockIdx.x] = total;
}

// Writes the position of every nonzero element, in C order, given each tile's inclusive prefix count.
// Layout 0: coordinates as rows of an (N, total) array (nonzero); 1: as rows of a (total, N) array
// (argwhere); 2: the flat index into a (total,) array (flatnonzero).
template <class T, int N, int Layout>
__device__ void write_nonzero(const char* a, const Strided<N, 1>& s, long long n, const long long* inclusive,
                              const long long* counts, long long total, long long* out) {
  __shared__ long long scratch[kCompactBlock / 32];
  const long long base = static_cast<long long>(blockIdx.x) * kCompactBlock * kCompactItems +
                         static_cast<long long>(threadIdx.x) * kCompactItems;
  unsigned flags = 0;
  for (int k = 0; k < kCompactItems; ++k)
    if (base + k < n && is_nonzero(element_at<T, N>(a, s, base + k))) flags |= 1u << k;
  long long block_total;
  long long pos =
      inclusive[blockIdx.x] - counts[blockIdx.x] +
      block_exclusive_scan<SumOp, kCompactBlock>(static_cast<long long>(__popc(flags)), scratch, block_total);
  for (int k = 0; k < kCompactItems; ++k, flags >>= 1) {
    if (!(flags & 1u)) continue;
    long long i = base + k;
    if constexpr (Layout == 2) {
      out[pos] = i;
    } else {
#pragma unroll
      for (int d = N - 1; d >= 0; --d) {
        long long coord = i % s.shape[d];
        i /= s.shape[d];
        if constexpr (Layout == 0)
          out[d * total + pos] = coord;
        else
          out[pos * N + d] = coord;
      }
    }
    ++pos;
  }
}

// ---- gathers and scatters ----

template <int Bytes>
struct element_bits;
template <>
struct element_bits<1> {
  using type = unsigned char;
};
template <>
struct element_bits<2> {
  using type = unsigned short;
};
template <>
struct element_bits<4> {
  using type = unsigned int;
};
template <>
struct element_bits<8> {
  using type = unsigned long long;
};
struct bits128 {
  unsigned long long lo, hi;
};
template <>
struct element_bits<16> {
  using type = bits128;
};

// The M index arrays (int64) of an advanced index: where they are, the length of the axis each indexes and
// that axis's byte stride.
template <int M>
struct IndexArrays {
  const char* ptr[M];
  long long size[M];
  long long step[M];
};

enum IndexMode { kIndexRaise = 0, kIndexWrap = 1, kIndexClip = 2 };

// An index into an axis of `size`: negative counts from the end (already checked to be in range), wrap
// takes it modulo the size, clip clamps it.
template <int Mode>
__device__ __forceinline__ long long resolve_index(long long j, long long size) {
  if constexpr (Mode == kIndexWrap) {
    j %= size;
    return j < 0 ? j + size : j;
  } else if constexpr (Mode == kIndexClip) {
    return j < 0 ? 0 : j >= size ? size - 1 : j;
  } else {
    return j < 0 ? j + size : j;
  }
}

// Over the result shape (s.shape, C order): operand 0 is the dense side (the gather's output, or the
// scatter's values), operand 1 the indexed array's offset along its other axes, operands 2.. the index
// arrays. A gather copies indexed -> dense, a scatter dense -> indexed.
template <int Bytes, int N, int M, int Mode, bool Scatter>
__device__ void gather_scatter(char* dense, char* indexed, const Strided<N, M + 2>& s, const IndexArrays<M>& idx,
                               long long n) {
  using E = typename element_bits<Bytes>::type;
  for (long long i = global_thread<long long>(); i < n; i += grid_threads<long long>()) {
    long long off[M + 2];
    offsets<long long, N, M + 2>(s, i, off);
    long long o = off[1];
#pragma unroll
    for (int m = 0; m < M; ++m)
      o += resolve_index<Mode>(*reinterpret_cast<const long long*>(idx.ptr[m] + off[m + 2]), idx.size[m]) * idx.step[m];
    if constexpr (Scatter)
      *reinterpret_cast<E*>(indexed + o) = *reinterpret_cast<const E*>(dense + off[0]);
    else
      *reinterpret_cast<E*>(dense + off[0]) = *reinterpret_cast<const E*>(indexed + o);
  }
}

// result[0] = min, result[1] = max of n contiguous int64 values (result starts at INT64_MAX, INT64_MIN).
__device__ inline void index_bounds(const long long* x, long long n, long long* result) {
  long long lo = 0x7fffffffffffffffll, hi = -lo - 1;
  for (long long i = global_thread<long long>(); i < n; i += grid_threads<long long>()) {
    long long v = x[i];
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
#pragma unroll
  for (int m = 16; m >= 1; m >>= 1) {
    long long a = shfl_xor(lo, m), b = shfl_xor(hi, m);
    lo = a < lo ? a : lo;
    hi = b > hi ? b : hi;
  }
  if (lane_id() == 0) {
    atomicMin(result, lo);
    atomicMax(result + 1, hi);
  }
}

// ---- counting into bins ----

// counts[x[i]] += weights[i] (1 without weights); x is checked to lie in [0, bins).
template <class W>
__device__ void bincount(const long long* x, const W* weights, long long n, W* counts) {
  for (long long i = global_thread<long long>(); i < n; i += grid_threads<long long>())
    atomicAdd(counts + x[i], weights ? weights[i] : W(1));
}

// NumPy's histogram. Values are compared in the bins' type B (their edges, exact in double, in `edges`).
// Uniform bins compute the bin as NumPy does, from (x - first) / span * bins, then correct it against the
// edges; other bins are found by binary search. The last bin includes its right edge.
template <class T, class B, class W, bool Uniform>
__device__ void histogram(const T* a, const W* weights, long long n, const double* edges, long long bins, double span,
                          W* counts) {
  const double first = edges[0], last = edges[bins];
  for (long long i = global_thread<long long>(); i < n; i += grid_threads<long long>()) {
    const B x = cast<B>(a[i]);
    const double xd = static_cast<double>(static_cast<typename arith<B>::type>(x));
    if (!(xd >= first && xd <= last)) continue;  // NaN too
    long long bin;
    if constexpr (Uniform) {
      const B diff = B(static_cast<typename arith<B>::type>(x) - static_cast<typename arith<B>::type>(cast<B>(first)));
      bin = static_cast<long long>(static_cast<double>(static_cast<typename arith<B>::type>(diff)) / span *
                                   static_cast<double>(bins));
      if (bin == bins) --bin;
      if (xd < edges[bin]) --bin;
      if (bin != bins - 1 && xd >= edges[bin + 1]) ++bin;
    } else {
      long long lo = 0, hi = bins + 1;  // the first edge greater than x
      while (lo < hi) {
        long long mid = (lo + hi) / 2;
        if (edges[mid] <= xd)
          lo = mid + 1;
        else
          hi = mid;
      }
      bin = lo - 1 == bins ? bins - 1 : lo - 1;
    }
    atomicAdd(counts + bin, weights ? weights[i] : W(1));
  }
}

}  // namespace ca
