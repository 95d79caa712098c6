// Cumulative sums and products along one axis (cumsum, cumprod, nancumsum, nancumprod): a single-pass
// tile scan with decoupled look-back for long rows, and one thread per row for many short strided rows.
//
// Note [Single-pass scan]
// Each block takes the next tile from a global counter (so every tile it waits on belongs to a block that
// started earlier), scans it, publishes its aggregate (flag 1) and then, once it has combined its
// predecessors', its inclusive prefix (flag 2). Warp 0 looks back 32 tiles at a time: the nearest tile with
// a prefix ends the walk. Values are stored before a fence and the flag after it; readers spin on the
// flag, fence, and read values from L2. Tiles never span rows; a row's first tile needs no look-back.
#pragma once

#include "cuarray/cast.cuh"
#include "cuarray/complex.cuh"
#include "cuarray/strided.cuh"
#include "cuarray/warp.cuh"

namespace ca {

template <class T> __device__ __forceinline__ bool is_nan_value(T x) {
  if constexpr (is_complex_v<T>) return x.re != x.re || x.im != x.im;
  else if constexpr (is_floating_v<T>) {
    typename arith<T>::type f = static_cast<typename arith<T>::type>(x);
    return f != f;
  } else return false;
}

// An input element as the accumulator type C: cast to the output type O first, as NumPy casts the input
// to the loop type; the nan- variants read NaN as the identity.
template <class C, class O, class Op, bool SkipNan, class T>
__device__ __forceinline__ C scan_load(const char* p) {
  T x = *reinterpret_cast<const T*>(p);
  if constexpr (SkipNan) {
    if (is_nan_value(x)) return Op::template identity<C>();
  }
  return cast<C>(cast<O>(x));
}

// Warp 0 of tile `tile` (the t-th of its row) combines its predecessors' values; returns the exclusive
// prefix in every lane and publishes the tile's inclusive prefix. Note [Single-pass scan].
template <class Op, class C>
__device__ C scan_lookback(long long tile, long long t, C aggregate, int* flags, C* aggregates, C* prefixes) {
  const int lane = lane_id();
  volatile int* vflags = flags;
  if (t == 0) {
    if (lane == 0) {
      prefixes[tile] = aggregate;
      __threadfence();
      vflags[tile] = 2;
    }
    return Op::template identity<C>();
  }
  if (lane == 0) {
    aggregates[tile] = aggregate;
    __threadfence();
    vflags[tile] = 1;
  }
  C exclusive = Op::template identity<C>();
  for (long long p = t - 1;; p -= 32) {
    const long long q = p - lane;  // index of the examined tile within the row
    int f = 2;
    C value = Op::template identity<C>();
    if (q >= 0) {
      const long long g = tile - t + q;
      do {
        f = vflags[g];
      } while (f == 0);
      __threadfence();
      value = f == 2 ? load_cg(prefixes + g) : load_cg(aggregates + g);
    }
    const unsigned done = __ballot_sync(kFullWarp, f == 2);
    if (done && lane > __ffs(done) - 1) value = Op::template identity<C>();
    exclusive = Op::apply(exclusive, warp_reduce<Op>(value));
    if (done) break;
  }
  if (lane == 0) {
    prefixes[tile] = Op::apply(exclusive, aggregate);
    __threadfence();
    vflags[tile] = 2;
  }
  return exclusive;
}

constexpr int kScanBlock = 256;
constexpr int kScanItems = 8;  // per thread: a tile is 2048 elements of one row

// Rows of `n` elements; element i of row r is at in + off_in(r) + i * in_step (bytes), likewise out.
// Launched with kScanBlock threads and one block per tile (tiles_per_row for each row).
template <class T, class O, class C, class Op, bool SkipNan, int N>
__device__ void scan_tiles(const char* in, char* out, const Strided<N, 2>& rows, long long n, long long in_step,
                           long long out_step, long long tiles_per_row, int* flags, C* aggregates, C* prefixes,
                           unsigned long long* counter) {
  constexpr int kWarps = kScanBlock / 32;
  __shared__ long long s_tile;
  __shared__ C s_warp[kWarps];
  __shared__ C s_prefix;
  if (threadIdx.x == 0) s_tile = static_cast<long long>(atomicAdd(counter, 1ull));
  __syncthreads();
  const long long tile = s_tile, row = tile / tiles_per_row, t = tile - row * tiles_per_row;
  long long off[2];
  offsets<long long, N, 2>(rows, row, off);
  const char* src = in + off[0];
  char* dst = out + off[1];
  const int lane = lane_id(), warp = warp_id();
  const long long start = t * (kScanBlock * kScanItems) + static_cast<long long>(warp) * 32 * kScanItems;

  // Each warp scans its 32 * kScanItems consecutive elements, 32 at a time, carrying the running value.
  C v[kScanItems];
  C carry = Op::template identity<C>();
#pragma unroll
  for (int k = 0; k < kScanItems; ++k) {
    const long long i = start + k * 32 + lane;
    C x = i < n ? scan_load<C, O, Op, SkipNan, T>(src + i * in_step) : Op::template identity<C>();
    v[k] = Op::apply(carry, warp_inclusive_scan<Op>(x));
    carry = shfl_idx(v[k], 31);
  }
  if (lane == 0) s_warp[warp] = carry;
  __syncthreads();
  C before = Op::template identity<C>(), aggregate = Op::template identity<C>();
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    C s = s_warp[w];
    if (w < warp) before = Op::apply(before, s);
    aggregate = Op::apply(aggregate, s);
  }
  if (warp == 0) {
    C exclusive = scan_lookback<Op>(tile, t, aggregate, flags, aggregates, prefixes);
    if (lane == 0) s_prefix = exclusive;
  }
  __syncthreads();
  const C prefix = Op::apply(s_prefix, before);
#pragma unroll
  for (int k = 0; k < kScanItems; ++k) {
    const long long i = start + k * 32 + lane;
    if (i < n) *reinterpret_cast<O*>(dst + i * out_step) = cast<O>(Op::apply(prefix, v[k]));
  }
}

// One thread per row, for many rows whose neighbours (not whose elements) are adjacent in memory.
template <class T, class O, class C, class Op, bool SkipNan, int N>
__device__ void scan_rows(const char* in, char* out, const Strided<N, 2>& rows, long long nrows, long long n,
                          long long in_step, long long out_step) {
  for (long long r = global_thread<long long>(); r < nrows; r += grid_threads<long long>()) {
    long long off[2];
    offsets<long long, N, 2>(rows, r, off);
    C acc = Op::template identity<C>();
    for (long long i = 0; i < n; ++i) {
      acc = Op::apply(acc, scan_load<C, O, Op, SkipNan, T>(in + off[0] + i * in_step));
      *reinterpret_cast<O*>(out + off[1] + i * out_step) = cast<O>(acc);
    }
  }
}

}  // namespace ca
